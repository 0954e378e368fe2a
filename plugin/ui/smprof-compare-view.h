/* smprof-compare-view.h: two selections compared: a differential flame graph
 * and a table of the functions' changes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-diff-table.h"
#include "smprof-flame-graph.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_COMPARE_VIEW (smprof_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (SmprofCompareView, smprof_compare_view, SMPROF, COMPARE_VIEW, GtkWidget)

GtkWidget           *smprof_compare_view_new             (void);
void                 smprof_compare_view_set_diff        (SmprofCompareView   *self,
                                                          SmprofDiff          *diff,
                                                          const char          *a_label,
                                                          const char          *b_label);
SmprofDiff          *smprof_compare_view_get_diff        (SmprofCompareView   *self);
void                 smprof_compare_view_set_status      (SmprofCompareView   *self,
                                                          const char          *message);
SmprofDiffNormalize  smprof_compare_view_get_normalize   (SmprofCompareView   *self);
void                 smprof_compare_view_set_normalize   (SmprofCompareView   *self,
                                                          SmprofDiffNormalize  normalize);
double               smprof_compare_view_get_min_delta   (SmprofCompareView   *self);
void                 smprof_compare_view_set_min_delta   (SmprofCompareView   *self,
                                                          double               seconds);
SmprofFlameGraph    *smprof_compare_view_get_flame_graph (SmprofCompareView   *self);
SmprofDiffTable     *smprof_compare_view_get_table       (SmprofCompareView   *self);

G_END_DECLS
