/* smprof-local-source.h: a job in a local folder
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-source.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_LOCAL_SOURCE (smprof_local_source_get_type ())

G_DECLARE_FINAL_TYPE (SmprofLocalSource, smprof_local_source, SMPROF, LOCAL_SOURCE, GObject)

SmprofSource *smprof_local_source_new      (const char         *path,
                                            GError            **error);
const char   *smprof_local_source_get_root (SmprofLocalSource  *self);

G_END_DECLS
