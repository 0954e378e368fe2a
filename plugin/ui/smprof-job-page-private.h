/* smprof-job-page-private.h: what smprof-job-page*.c (and the tests) share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-call-tree-view.h"
#include "smprof-flame-graph-view.h"
#include "smprof-function-table.h"
#include "smprof-job-page.h"
#include "smprof-range-index.h"
#include "smprof-timeline.h"

G_BEGIN_DECLS

struct _SmprofJobPage
{
  GtkWidget             parent_instance;

  SmprofJob            *job;
  SmprofProfiler        profiler;
  char                **all_node_ids;      /* the profiler's nodes, sorted */
  char                **node_ids;          /* the chosen nodes; NULL for all */

  /* The selection. A preset is a query on the chosen nodes; otherwise
   * @selection is a query when @has_query, and @explicit_records, when set,
   * are exactly the intervals to aggregate (a click on the timeline, or the
   * timeline's own answer to a dragged range). @query_node_ids names the
   * nodes a timeline query covered when they are not the chosen ones. */
  SmprofJobPagePreset   preset;
  SmprofSelection       selection;
  gboolean              has_query;
  char                **query_node_ids;
  GPtrArray            *explicit_records;
  gint64                first_step;
  gint64                last_step;

  /* the newest answer, and its description in words (for exports) */
  GPtrArray            *selected_records;
  SmprofProfile        *profile;
  char                 *profile_description;
  char                 *profile_slug;
  gboolean              profile_from_index;

  /* the update in flight */
  GCancellable         *cancellable;
  guint                 generation;
  guint                 update_source;
  gboolean              busy;
  gboolean              syncing;           /* the page is setting its own widgets */
  gboolean              timeline_syncing;  /* the page is setting the timeline's selection */

  /* Built once the first aggregate has read the job's cProfile stats, for
   * dragged ranges (smprof-range-index.h) */
  SmprofRangeIndex     *range_index;
  GCancellable         *index_cancellable;
  gboolean              index_started;

  /* exports (smprof-job-page-export.c) */
  GtkFileChooserNative *export_dialog;
  GCancellable         *export_cancellable;
  guint                 toast_source;

  GtkStringList        *node_model;

  /* template children */
  GtkLabel             *job_name_label;
  GtkLabel             *job_summary_label;
  GtkDropDown          *node_dropdown;
  GtkWidget            *profiler_box;
  GtkToggleButton      *cprofile_button;
  GtkToggleButton      *pyinstrument_button;
  GtkMenuButton        *export_button;
  GtkInfoBar           *error_bar;
  GtkLabel             *error_label;
  GtkRevealer          *toast_revealer;
  GtkLabel             *toast_label;
  GtkListBox           *presets_list;
  GtkListBoxRow        *whole_job_row;
  GtkListBoxRow        *initialization_row;
  GtkListBoxRow        *training_loop_row;
  GtkListBoxRow        *finalization_row;
  GtkListBoxRow        *forward_passes_row;
  GtkListBoxRow        *rest_of_step_row;
  GtkListBoxRow        *steps_row;
  GtkAdjustment        *first_step_adjustment;
  GtkAdjustment        *last_step_adjustment;
  GtkBox               *timeline_slot;
  SmprofTimeline       *timeline;
  GtkSpinner           *busy_spinner;
  GtkLabel             *status_label;
  GtkStack             *views_stack;
  GtkBox               *functions_slot;
  GtkBox               *call_tree_slot;
  GtkBox               *flame_graph_slot;
  SmprofFunctionTable  *function_table;
  SmprofCallTreeView   *call_tree_view;
  SmprofFlameGraphView *flame_graph_view;
};

/* smprof-job-page-export.c */
void _smprof_job_page_class_export_init      (GtkWidgetClass *widget_class);
void _smprof_job_page_update_export_actions  (SmprofJobPage  *self);
void _smprof_job_page_export_dispose         (SmprofJobPage  *self);
void _smprof_job_page_show_error             (SmprofJobPage  *self,
                                              const char     *message);
void _smprof_job_page_show_toast             (SmprofJobPage  *self,
                                              const char     *message);

/* For the tests: whether the last aggregate came from the range index. */
gboolean _smprof_job_page_used_range_index   (SmprofJobPage  *self);

G_END_DECLS
