/* smprof-export-private.h: the writers behind smprof_export_profile()
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-export.h"

G_BEGIN_DECLS

/* Called for every stack of a profile, parents before children, with the
 * functions from the root frame down and the stack's weight in seconds.
 * Returns FALSE to stop. */
typedef gboolean (*SmprofStackFunc) (const guint32 *funcs,
                                     guint          depth,
                                     double         weight,
                                     gpointer       user_data);

/* The work of an export task: writes what @task_data says. */
typedef gboolean (*SmprofExportWorkFunc) (gpointer       task_data,
                                          GCancellable  *cancellable,
                                          GError       **error);

gboolean   smprof_export_walk_stacks       (SmprofProfile              *profile,
                                            SmprofStackFunc             func,
                                            gpointer                    user_data);
GPtrArray *smprof_export_dup_node_profiles (SmprofProfile              *profile);
void       smprof_export_append_csv_field  (GString                    *out,
                                            const char                 *text,
                                            gboolean                    last);

gboolean   smprof_export_write_folded      (SmprofProfile              *profile,
                                            GOutputStream              *stream,
                                            GCancellable               *cancellable,
                                            GError                    **error);
gboolean   smprof_export_write_speedscope  (SmprofProfile              *profile,
                                            const SmprofExportOptions  *options,
                                            GOutputStream              *stream,
                                            GCancellable               *cancellable,
                                            GError                    **error);
gboolean   smprof_export_write_csv         (SmprofProfile              *profile,
                                            GOutputStream              *stream,
                                            GCancellable               *cancellable,
                                            GError                    **error);
gboolean   smprof_export_write_json        (SmprofProfile              *profile,
                                            GOutputStream              *stream,
                                            GCancellable               *cancellable,
                                            GError                    **error);
gboolean   smprof_export_write_pstats      (SmprofProfile              *profile,
                                            GOutputStream              *stream,
                                            GCancellable               *cancellable,
                                            GError                    **error);
gboolean   smprof_export_write_syscap      (SmprofProfile              *profile,
                                            GOutputStream              *stream,
                                            GCancellable               *cancellable,
                                            GError                    **error);

GTask     *smprof_export_task_new          (SmprofProfile              *profile,
                                            SmprofExportWorkFunc        work,
                                            gpointer                    task_data,
                                            GDestroyNotify              task_data_free,
                                            GCancellable               *cancellable,
                                            GAsyncReadyCallback         callback,
                                            gpointer                    user_data);
void       smprof_export_task_run          (GTask                      *task);

G_END_DECLS
