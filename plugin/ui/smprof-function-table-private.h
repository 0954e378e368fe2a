/* smprof-function-table-private.h: what smprof-function-table*.c share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-function-item.h"
#include "smprof-function-table.h"
#include "smprof-step-stats.h"

G_BEGIN_DECLS

struct _SmprofFunctionTable
{
  GtkWidget            parent_instance;

  SmprofProfile       *profile;
  gboolean             syncing_entry;

  /* The rows of the last profile by function, and the job whose function
   * table numbers them: a new selection of the same job updates these rows
   * instead of making new ones and their names again. */
  SmprofJob           *rows_job;
  GHashTable          *rows_by_func;

  /* The selection's time per step, owned, and its function index + 1 by
   * function id; a function of the profile that ran in no step gets zeros. */
  SmprofStepStats     *step_stats;
  GHashTable          *step_index;
  GArray              *zero_series;
  gboolean             show_step_columns;

  /* The function whose callers and callees were hidden: they show again
   * for another one */
  guint32              related_hidden_func;

  /* While the row objects shown take the sorted rows, the selection moves
   * to where its function went: that is no new choice of function. */
  gboolean             following_selection;
  guint                n_shown_syncs;

  /* Template widgets and models */
  GtkWidget           *related_box;
  GtkSearchEntry      *filter_entry;
  GtkLabel            *count_label;
  GtkToggleButton     *steps_button;
  GtkLabel            *note_label;
  GtkColumnView       *column_view;
  GtkSingleSelection  *selection;
  GListStore          *shown_store;
  GtkSliceListModel   *shown_slice;
  guint                grow_tick;     /* a first answer's rows coming in */
  gboolean             grow_started;  /* its first frame is under way */
  GtkSortListModel    *sort_model;
  GtkFilterListModel  *filter_model;
  GtkStringFilter     *string_filter;
  GListStore          *store;
  GtkColumnView       *callers_view;
  GtkSingleSelection  *callers_selection;
  GtkSortListModel    *callers_selection_sort;
  GListStore          *callers_store;
  GtkColumnView       *callees_view;
  GtkSingleSelection  *callees_selection;
  GtkSortListModel    *callees_selection_sort;
  GListStore          *callees_store;
  GtkColumnViewColumn *ncalls_column;
  GtkColumnViewColumn *tottime_column;
  GtkColumnViewColumn *tottime_percall_column;
  GtkColumnViewColumn *cumtime_column;
  GtkColumnViewColumn *cumtime_percall_column;
  GtkColumnViewColumn *label_column;
  GtkColumnViewColumn *steps_column;
  GtkColumnViewColumn *step_min_column;
  GtkColumnViewColumn *step_median_column;
  GtkColumnViewColumn *step_p95_column;
  GtkColumnViewColumn *step_max_column;
  GtkColumnViewColumn *per_step_column;
  GtkColumnViewColumn *callers_cumtime_column;
  GtkColumnViewColumn *callees_cumtime_column;
  GtkColumnViewColumn *callers_ncalls_column;
  GtkColumnViewColumn *callees_ncalls_column;
};

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_SELECTED_FUNC,
  PROP_FILTER_TEXT,
  PROP_STEP_STATS,
  PROP_SHOW_STEP_COLUMNS,
  N_PROPS
};

enum {
  FUNCTION_ACTIVATED,
  N_SIGNALS
};

extern GParamSpec *_smprof_function_table_properties[N_PROPS];

/* smprof-function-table-menu.c */
void _smprof_function_table_class_init_menu      (GtkWidgetClass      *widget_class);
void _smprof_function_table_init_menu            (SmprofFunctionTable *self);
void _smprof_function_table_update_count_columns (SmprofFunctionTable *self);

/* smprof-function-table.c */
void _smprof_function_table_show_sorted_rows   (SmprofFunctionTable *self);
void _smprof_function_table_show_all_rows      (SmprofFunctionTable *self);

/* smprof-function-table-steps.c */
void _smprof_function_table_apply_steps         (SmprofFunctionTable *self,
                                                 SmprofFunctionItem  *item,
                                                 SmprofJob           *job);

G_END_DECLS
