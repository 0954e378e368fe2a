/* smprof-job-page-private.h: what smprof-job-page*.c (and the tests) share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-call-tree-view.h"
#include "smprof-diff.h"
#include "smprof-flame-graph-view.h"
#include "smprof-function-table.h"
#include "smprof-job-page.h"
#include "smprof-node-chooser.h"
#include "smprof-node-matrix-view.h"
#include "smprof-range-index.h"
#include "smprof-step-stats.h"
#include "smprof-timeline.h"

G_BEGIN_DECLS

typedef struct _SmprofJobPageRefresh SmprofJobPageRefresh;
typedef struct _SmprofJobPageCompare SmprofJobPageCompare;

struct _SmprofJobPage
{
  GtkWidget             parent_instance;

  SmprofJob            *job;
  SmprofJob            *retired_job;       /* the job before a refresh, while its records are in use */
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
  GtkFileChooserNative *report_dialog;     /* smprof-job-page-report.c */
  GCancellable         *export_cancellable;
  guint                 toast_source;
  /* the save dialog's last picture choices, offered again: "flame" or
   * "icicle", and a width in pixels as text; NULL until a picture is saved */
  char                 *picture_direction;
  char                 *picture_width;

  GtkStringList        *node_model;

  /* the Between modes preset (smprof-job-page-modes.c): the pair, and the
   * modes the drop-downs list, in their order */
  SmprofMode            start_mode;
  SmprofMode            end_mode;
  GArray               *pair_modes;
  GtkStringList        *mode_model;

  /* live refresh (smprof-job-page-refresh.c) */
  SmprofJobPageRefresh *refresh;

  /* comparing two selections (smprof-job-page-compare.c): sides A and B,
   * the diff, the "Compare" view and the bar asking for B */
  SmprofJobPageCompare *compare;

  /* Time per step of the selection, for the function table's per-step
   * columns (smprof-job-page-steps.c): the worker in flight, and the
   * generation of the answer whose records it reads; a result of another
   * generation is dropped. */
  GCancellable         *steps_cancellable;
  guint                 steps_generation;

  /* outlier steps (smprof-job-page-outliers.c): the whole job's per-step
   * statistics for @profiler over all its nodes (read them with
   * _smprof_job_page_get_job_step_stats(); the page emits
   * SmprofJobPage::job-step-stats-changed when they change), the
   * computation in flight, and the timeline toolbar's toggle and count */
  SmprofStepStats      *job_step_stats;
  GCancellable         *step_stats_cancellable;
  guint                 step_stats_generation;
  GtkToggleButton      *outliers_button;
  GtkLabel             *outliers_label;

  /* template children */
  GtkLabel             *job_name_label;
  GtkLabel             *job_summary_label;
  GtkDropDown          *node_dropdown;
  SmprofNodeChooser    *node_chooser;
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
  GtkListBoxRow        *mode_pair_row;
  GtkDropDown          *start_mode_dropdown;
  GtkDropDown          *end_mode_dropdown;
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
  SmprofNodeMatrixView *node_matrix_view;  /* smprof-job-page-nodes.c */
};

/* smprof-job-page-export.c */
void _smprof_job_page_class_export_init      (GtkWidgetClass *widget_class);
void _smprof_job_page_update_export_actions  (SmprofJobPage  *self);
void _smprof_job_page_export_dispose         (SmprofJobPage  *self);
void _smprof_job_page_show_error             (SmprofJobPage  *self,
                                              const char     *message);
void _smprof_job_page_show_toast             (SmprofJobPage  *self,
                                              const char     *message);
GtkFileChooserNative *_smprof_job_page_new_save_dialog  (SmprofJobPage         *self,
                                                        const char            *title);
GFile                *_smprof_job_page_take_dialog_file (SmprofJobPage         *self,
                                                        GtkFileChooserNative **slot,
                                                        GtkFileChooserNative  *dialog,
                                                        int                    response,
                                                        GtkFileChooserNative **owned);
void _smprof_job_page_tell_written           (SmprofJobPage  *self,
                                              GAsyncResult   *result,
                                              GFile          *file,
                                              gboolean        report);

/* smprof-job-page-report.c */
void _smprof_job_page_class_report_init      (GtkWidgetClass *widget_class);
void _smprof_job_page_report_dispose         (SmprofJobPage  *self);

/* smprof-job-page-modes.c */
void  _smprof_job_page_class_modes_init          (GtkWidgetClass  *widget_class);
void  _smprof_job_page_modes_init                (SmprofJobPage   *self);
void  _smprof_job_page_modes_dispose             (SmprofJobPage   *self);
void  _smprof_job_page_update_modes              (SmprofJobPage   *self);
void  _smprof_job_page_mode_pair_selection       (SmprofJobPage   *self,
                                                  SmprofSelection *selection);
char *_smprof_job_page_dup_mode_pair_description (SmprofJobPage   *self);
char *_smprof_job_page_dup_mode_pair_slug        (SmprofJobPage   *self);

/* smprof-job-page.c, for smprof-job-page-refresh.c */
void _smprof_job_page_swap_job               (SmprofJobPage  *self,
                                              SmprofJob      *job);
GPtrArray *_smprof_job_page_records_in_job   (SmprofJob      *job,
                                              SmprofProfiler  profiler,
                                              GPtrArray      *records);

/* smprof-job-page.c, for the files below */
void                _smprof_job_page_set_busy         (SmprofJobPage *self,
                                                       gboolean       busy);
const char * const *_smprof_job_page_current_node_ids (SmprofJobPage *self);
void                _smprof_job_page_queue_update     (SmprofJobPage *self);

/* smprof-job-page-selection.c */
void _smprof_job_page_class_selection_init   (GtkWidgetClass *widget_class);
void _smprof_job_page_sync_timeline          (SmprofJobPage  *self);
void _smprof_job_page_clear_query            (SmprofJobPage  *self);

/* smprof-job-page-header.c */
void _smprof_job_page_class_header_init      (GtkWidgetClass *widget_class);
void _smprof_job_page_header_init            (SmprofJobPage  *self);
void _smprof_job_page_update_header          (SmprofJobPage  *self);
void _smprof_job_page_update_node_model      (SmprofJobPage  *self);
void _smprof_job_page_set_profiler_internal  (SmprofJobPage  *self,
                                              SmprofProfiler  profiler);

/* smprof-job-page-actions.c */
void _smprof_job_page_class_actions_init     (GtkWidgetClass *widget_class);

/* smprof-job-page-aggregate.c */
GMutex    *_smprof_job_page_get_reading_lock     (void);

/* The data of the page's other workers over a set of records */
typedef struct
{
  SmprofJob      *job;
  SmprofProfiler  profiler;
  GPtrArray      *records;
  guint           generation;
} SmprofJobPageWork;

typedef gpointer (*SmprofJobPageWorkFunc) (SmprofJobPageWork  *work,
                                           const char * const *node_ids);

SmprofJobPageWork *_smprof_job_page_work_new  (SmprofJobPage         *self,
                                               GPtrArray             *records,
                                               guint                  generation);
void               _smprof_job_page_work_free (gpointer               data);
void               _smprof_job_page_work_run  (GTask                 *task,
                                               SmprofJobPageWork     *work,
                                               GCancellable          *cancellable,
                                               SmprofJobPageWorkFunc  compute,
                                               GDestroyNotify         result_free);
GPtrArray *_smprof_job_page_select_for           (SmprofJob              *job,
                                                  SmprofProfiler          profiler,
                                                  const char * const     *node_ids,
                                                  SmprofJobPagePreset     preset,
                                                  const SmprofSelection  *selection,
                                                  GPtrArray              *explicit_records);
char     **_smprof_job_page_dup_record_node_ids  (GPtrArray              *records);
void       _smprof_job_page_sync_visible_view    (SmprofJobPage          *self);
gboolean   _smprof_job_page_start_update         (gpointer                data);

/* smprof-job-page-steps.c */
void _smprof_job_page_steps_init             (SmprofJobPage  *self);
void _smprof_job_page_steps_update           (SmprofJobPage  *self);
void _smprof_job_page_steps_dispose          (SmprofJobPage  *self);

/* smprof-job-page-status.c */
char *_smprof_job_page_dup_description       (SmprofJobPage  *self,
                                              GPtrArray      *records);
char *_smprof_job_page_dup_slug              (SmprofJobPage  *self,
                                              GPtrArray      *records);
void  _smprof_job_page_update_status         (SmprofJobPage  *self);

/* smprof-job-page-presets.c */
void           _smprof_job_page_class_presets_init   (GtkWidgetClass      *widget_class);
GtkListBoxRow *_smprof_job_page_row_for_preset       (SmprofJobPage       *self,
                                                      SmprofJobPagePreset  preset);
void           _smprof_job_page_selection_for_preset (SmprofJobPage       *self,
                                                      SmprofJobPagePreset  preset,
                                                      SmprofSelection     *selection);
void           _smprof_job_page_sync_preset_row      (SmprofJobPage       *self);
void           _smprof_job_page_update_step_range    (SmprofJobPage       *self);

/* smprof-job-page-refresh.c */
void _smprof_job_page_refresh_init           (SmprofJobPage  *self);
void _smprof_job_page_refresh_dispose        (SmprofJobPage  *self);
void _smprof_job_page_set_refresh_interval   (SmprofJobPage  *self,
                                              guint           interval_ms);
guint    _smprof_job_page_get_n_refreshes    (SmprofJobPage  *self);
gboolean _smprof_job_page_get_live_refresh   (SmprofJobPage  *self);

/* smprof-job-page-outliers.c */
void             _smprof_job_page_class_outliers_init (GtkWidgetClass *widget_class);
void             _smprof_job_page_outliers_init       (SmprofJobPage  *self);
void             _smprof_job_page_outliers_dispose    (SmprofJobPage  *self);
void             _smprof_job_page_update_outliers     (SmprofJobPage  *self);
SmprofStepStats *_smprof_job_page_get_job_step_stats  (SmprofJobPage  *self);
gboolean         _smprof_job_page_compare_outlier     (SmprofJobPage  *self,
                                                       guint           index);

/* smprof-job-page-nodes.c */
void _smprof_job_page_class_nodes_init       (GtkWidgetClass *widget_class);
void _smprof_job_page_nodes_init             (SmprofJobPage  *self);
gboolean _smprof_job_page_compare_node       (SmprofJobPage  *self,
                                              const char     *node_id);

/* smprof-job-page-compare.c */
void        _smprof_job_page_class_compare_init (GtkWidgetClass *widget_class);
void        _smprof_job_page_compare_init       (SmprofJobPage  *self);
void        _smprof_job_page_compare_dispose    (SmprofJobPage  *self);
void        _smprof_job_page_compare_records    (SmprofJobPage  *self,
                                                 GPtrArray      *a_records,
                                                 const char     *a_label,
                                                 GPtrArray      *b_records,
                                                 const char     *b_label);
SmprofDiff *_smprof_job_page_get_diff           (SmprofJobPage  *self);
const char *_smprof_job_page_get_compare_label  (SmprofJobPage  *self,
                                                 int             side);
GtkWidget  *_smprof_job_page_get_compare_view   (SmprofJobPage  *self);
double      _smprof_job_page_get_compare_min_delta (SmprofJobPage *self);
gboolean    _smprof_job_page_compare_job_swapped (SmprofJobPage  *self);
void        _smprof_job_page_close_comparison    (SmprofJobPage  *self);

/* For the tests: whether the last aggregate came from the range index. */
gboolean _smprof_job_page_used_range_index   (SmprofJobPage  *self);

G_END_DECLS
