/* smv-source-registry.h: the data sources the viewer's plugins provide
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <smprof-viewer-api.h>

G_BEGIN_DECLS

#define SMV_PLUGIN_PATH_ENV "SMPROF_VIEWER_PLUGIN_PATH"

#define SMV_TYPE_SOURCE_REGISTRY (smv_source_registry_get_type ())

G_DECLARE_FINAL_TYPE (SmvSourceRegistry, smv_source_registry, SMV, SOURCE_REGISTRY, GObject)

char               **smv_source_registry_dup_default_dirs (void);
SmvSourceRegistry   *smv_source_registry_new              (const char * const *dirs);
const char * const  *smv_source_registry_get_dirs         (SmvSourceRegistry  *self);
GListModel          *smv_source_registry_get_sources      (SmvSourceRegistry  *self);
guint                smv_source_registry_get_n_sources    (SmvSourceRegistry  *self);
gboolean             smv_source_registry_opens_folders    (SmvSourceRegistry  *self);
char               **smv_source_registry_dup_uri_schemes  (SmvSourceRegistry  *self);
SmvDataSource       *smv_source_registry_find_for         (SmvSourceRegistry  *self,
                                                           GFile              *location);

G_END_DECLS
