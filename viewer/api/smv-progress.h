/* smv-progress.h: how far a data source got opening a document
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#if !defined (SMV_INSIDE) && !defined (SMV_COMPILATION)
# error "Only <smprof-viewer-api.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define SMV_TYPE_PROGRESS (smv_progress_get_type ())

G_DECLARE_FINAL_TYPE (SmvProgress, smv_progress, SMV, PROGRESS, GObject)

SmvProgress *smv_progress_new          (void);
double       smv_progress_get_fraction (SmvProgress *self);
void         smv_progress_set_fraction (SmvProgress *self,
                                        double       fraction);
const char  *smv_progress_get_text     (SmvProgress *self);
void         smv_progress_set_text     (SmvProgress *self,
                                        const char  *text);
void         smv_progress_report       (SmvProgress *self,
                                        double       fraction,
                                        const char  *text);

G_END_DECLS
