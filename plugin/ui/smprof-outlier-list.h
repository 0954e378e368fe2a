/* smprof-outlier-list.h: the outlier steps ranked by score, and the threshold that flags them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-step-stats.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_OUTLIER_LIST (smprof_outlier_list_get_type ())

G_DECLARE_FINAL_TYPE (SmprofOutlierList, smprof_outlier_list, SMPROF, OUTLIER_LIST, GtkWidget)

GtkWidget *smprof_outlier_list_new           (void);
void       smprof_outlier_list_set_stats     (SmprofOutlierList *self,
                                              SmprofStepStats   *stats);
double     smprof_outlier_list_get_threshold (SmprofOutlierList *self);
void       smprof_outlier_list_set_threshold (SmprofOutlierList *self,
                                              double             threshold);
void       smprof_outlier_list_focus_rows    (SmprofOutlierList *self);
GListModel *smprof_outlier_list_get_model    (SmprofOutlierList *self);

G_END_DECLS
