/* smprof-function-table.h: pstats' function table, with callers and callees
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-profile.h"
#include "smprof-step-stats.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_FUNCTION_TABLE (smprof_function_table_get_type ())

G_DECLARE_FINAL_TYPE (SmprofFunctionTable, smprof_function_table, SMPROF, FUNCTION_TABLE, GtkWidget)

GtkWidget     *smprof_function_table_new                (void);
SmprofProfile *smprof_function_table_get_profile        (SmprofFunctionTable *self);
void           smprof_function_table_set_profile        (SmprofFunctionTable *self,
                                                         SmprofProfile       *profile);
guint32        smprof_function_table_get_selected_func  (SmprofFunctionTable *self);
void           smprof_function_table_set_selected_func  (SmprofFunctionTable *self,
                                                         guint32              func);
gboolean       smprof_function_table_show_related       (SmprofFunctionTable *self,
                                                         guint32              func,
                                                         gboolean             callees);
const char    *smprof_function_table_get_filter_text    (SmprofFunctionTable *self);
void           smprof_function_table_set_filter_text    (SmprofFunctionTable *self,
                                                         const char          *text);
void           smprof_function_table_sort_by            (SmprofFunctionTable *self,
                                                         const char          *column,
                                                         GtkSortType          order);
GListModel    *smprof_function_table_get_model          (SmprofFunctionTable *self);
GListModel    *smprof_function_table_get_callers_model  (SmprofFunctionTable *self);
GListModel    *smprof_function_table_get_callees_model  (SmprofFunctionTable *self);

/* Time per step: each function's step statistics as extra columns */
void             smprof_function_table_set_step_stats        (SmprofFunctionTable *self,
                                                              SmprofStepStats     *stats);
SmprofStepStats *smprof_function_table_get_step_stats        (SmprofFunctionTable *self);
gboolean         smprof_function_table_get_show_step_columns (SmprofFunctionTable *self);
void             smprof_function_table_set_show_step_columns (SmprofFunctionTable *self,
                                                              gboolean             show);

G_END_DECLS
