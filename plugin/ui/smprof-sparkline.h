/* smprof-sparkline.h: a series of values drawn as a small line, its maximum marked
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SMPROF_TYPE_SPARKLINE (smprof_sparkline_get_type ())

G_DECLARE_FINAL_TYPE (SmprofSparkline, smprof_sparkline, SMPROF, SPARKLINE, GtkWidget)

GtkWidget    *smprof_sparkline_new          (void);
void          smprof_sparkline_set_values   (SmprofSparkline *self,
                                             const double    *values,
                                             guint            n_values);
const double *smprof_sparkline_get_values   (SmprofSparkline *self,
                                             guint           *n_values);
GArray       *smprof_sparkline_get_series   (SmprofSparkline *self);
void          smprof_sparkline_set_series   (SmprofSparkline *self,
                                             GArray          *series);
char         *smprof_sparkline_dup_description (SmprofSparkline *self);

G_END_DECLS
