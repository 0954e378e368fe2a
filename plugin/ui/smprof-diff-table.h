/* smprof-diff-table.h: a comparison's functions: A, B, the change and the ratio
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-diff.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_DIFF_TABLE (smprof_diff_table_get_type ())

G_DECLARE_FINAL_TYPE (SmprofDiffTable, smprof_diff_table, SMPROF, DIFF_TABLE, GtkWidget)

GtkWidget        *smprof_diff_table_new           (void);
SmprofDiff       *smprof_diff_table_get_diff      (SmprofDiffTable  *self);
void              smprof_diff_table_set_diff      (SmprofDiffTable  *self,
                                                   SmprofDiff       *diff);
SmprofDiffMetric  smprof_diff_table_get_metric    (SmprofDiffTable  *self);
void              smprof_diff_table_set_metric    (SmprofDiffTable  *self,
                                                   SmprofDiffMetric  metric);
double            smprof_diff_table_get_min_delta (SmprofDiffTable  *self);
void              smprof_diff_table_set_min_delta (SmprofDiffTable  *self,
                                                   double            seconds);
GListModel       *smprof_diff_table_get_model     (SmprofDiffTable  *self);
GtkColumnView    *smprof_diff_table_get_column_view (SmprofDiffTable *self);
void              smprof_diff_table_set_filter_text (SmprofDiffTable *self,
                                                     const char      *text);

G_END_DECLS
