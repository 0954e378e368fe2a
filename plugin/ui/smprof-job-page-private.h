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
#include "smprof-node-chooser.h"
#include "smprof-node-matrix-view.h"
#include "smprof-outlier-list.h"
#include "smprof-session.h"
#include "smprof-timeline.h"

G_BEGIN_DECLS

typedef struct _SmprofJobPageExport  SmprofJobPageExport;
typedef struct _SmprofJobPageRefresh SmprofJobPageRefresh;
typedef struct _SmprofJobPageCompare SmprofJobPageCompare;

/* What exports (smprof-job-page-export.c, -report.c) keep between a dialog and its answer. */
struct _SmprofJobPageExport
{
  GtkFileChooserNative *export_dialog;
  GtkFileChooserNative *report_dialog;     /* smprof-job-page-report.c */
  GCancellable         *cancellable;
  /* the save dialog's last picture choices, offered again: "flame" or
   * "icicle", and a width in pixels as text; NULL until a picture is saved */
  char                 *picture_direction;
  char                 *picture_width;
};

/* The page holds widgets and what binds them to its session: every piece of
 * state (the job, the selection, the answers) is the session's. */
struct _SmprofJobPage
{
  GtkWidget             parent_instance;

  SmprofSession        *session;
  /* set while the page sets its own widgets from the session, so their
   * signals do not echo back */
  gboolean              syncing;

  /* models of the header's drop-downs, from the session */
  GtkStringList        *node_model;
  GtkStringList        *mode_model;

  /* what a part of the page owns beyond its widgets: dialogs
   * (smprof-job-page-export.c), the refresh timer and actions
   * (-refresh.c), the comparison's widgets (-compare.c) */
  SmprofJobPageExport  *export;
  SmprofJobPageRefresh *refresh;
  SmprofJobPageCompare *compare;

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
  GtkSpinButton        *first_step_spin;
  GtkSpinButton        *last_step_spin;
  GtkAdjustment        *first_step_adjustment;
  GtkAdjustment        *last_step_adjustment;
  GtkPaned             *sidebar_paned;
  GtkPaned             *timeline_paned;
  GtkBox               *timeline_slot;
  GtkWidget            *timeline_toolbar;
  GtkWidget            *timeline_overview;
  SmprofTimeline       *timeline;
  GtkToggleButton      *outliers_button;
  GtkLabel             *outliers_label;
  GtkMenuButton        *outliers_ranking_button;
  GtkPopover           *outliers_popover;
  SmprofOutlierList    *outlier_list;
  GtkSpinner           *busy_spinner;
  guint                 busy_spinner_delay;   /* source that shows it */
  GtkLabel             *status_label;
  GtkToggleButton      *hide_libraries_button;
  GtkWidget            *transforms_bar;
  GtkBox               *crumbs_box;
  GtkWidget            *undo_transform_button;
  GtkStack             *views_stack;
  GtkBox               *functions_slot;
  GtkBox               *call_tree_slot;
  GtkBox               *flame_graph_slot;
  SmprofFunctionTable  *function_table;
  SmprofCallTreeView   *call_tree_view;
  SmprofFlameGraphView *flame_graph_view;
  SmprofNodeMatrixView *node_matrix_view;
};

/* smprof-job-page-export.c */
void                  _smprof_job_page_class_export_init      (GtkWidgetClass        *widget_class);
void                  _smprof_job_page_export_init            (SmprofJobPage         *self);
void                  _smprof_job_page_update_export_actions  (SmprofJobPage         *self);
void                  _smprof_job_page_export_dispose         (SmprofJobPage         *self);
void                  _smprof_job_page_show_error             (SmprofJobPage         *self,
                                                               const char            *message);
void                  _smprof_job_page_show_toast             (SmprofJobPage         *self,
                                                               const char            *message);
GtkFileChooserNative *_smprof_job_page_new_save_dialog        (SmprofJobPage         *self,
                                                               const char            *title);
GFile                *_smprof_job_page_take_dialog_file       (SmprofJobPage         *self,
                                                               GtkFileChooserNative **slot,
                                                               GtkFileChooserNative  *dialog,
                                                               int                    response,
                                                               GtkFileChooserNative **owned);
GCancellable         *_smprof_job_page_get_export_cancellable (SmprofJobPage         *self);
void                  _smprof_job_page_tell_written           (SmprofJobPage         *self,
                                                               GAsyncResult          *result,
                                                               GFile                 *file,
                                                               gboolean               report);
GtkFileChooserNative *_smprof_job_page_get_export_dialog      (SmprofJobPage         *self);

/* smprof-job-page-report.c */
void _smprof_job_page_class_report_init      (GtkWidgetClass *widget_class);
void _smprof_job_page_report_dispose         (SmprofJobPage  *self);

/* smprof-job-page-modes.c */
void _smprof_job_page_class_modes_init       (GtkWidgetClass *widget_class);
void _smprof_job_page_modes_init             (SmprofJobPage  *self);
void _smprof_job_page_modes_dispose          (SmprofJobPage  *self);
void _smprof_job_page_sync_modes             (SmprofJobPage  *self);

/* smprof-job-page-selection.c */
void _smprof_job_page_class_selection_init   (GtkWidgetClass *widget_class);
void _smprof_job_page_selection_init         (SmprofJobPage  *self);
void _smprof_job_page_sync_timeline          (SmprofJobPage  *self);

/* smprof-job-page-header.c */
void _smprof_job_page_class_header_init      (GtkWidgetClass *widget_class);
void _smprof_job_page_header_init            (SmprofJobPage  *self);
void _smprof_job_page_header_dispose         (SmprofJobPage  *self);
void _smprof_job_page_sync_header            (SmprofJobPage  *self);

/* smprof-job-page-actions.c */
void _smprof_job_page_class_actions_init     (GtkWidgetClass *widget_class);

/* smprof-job-page-layout.c */
void _smprof_job_page_layout_init            (SmprofJobPage  *self);

/* smprof-job-page-views.c */
void _smprof_job_page_views_init             (SmprofJobPage  *self);
void _smprof_job_page_sync_visible_view      (SmprofJobPage  *self);

/* smprof-job-page-status.c */
void _smprof_job_page_status_init            (SmprofJobPage  *self);
void _smprof_job_page_update_status          (SmprofJobPage  *self);

/* smprof-job-page-presets.c */
void           _smprof_job_page_class_presets_init (GtkWidgetClass *widget_class);
void           _smprof_job_page_presets_init       (SmprofJobPage  *self);
GtkListBoxRow *_smprof_job_page_row_for_preset     (SmprofJobPage  *self,
                                                    SmprofPreset    preset);
void           _smprof_job_page_sync_presets       (SmprofJobPage  *self);
void           _smprof_job_page_apply_preset       (SmprofJobPage  *self,
                                                    SmprofPreset    preset);

/* smprof-job-page-refresh.c */
void     _smprof_job_page_refresh_init         (SmprofJobPage  *self);
void     _smprof_job_page_refresh_dispose      (SmprofJobPage  *self);
void     _smprof_job_page_set_refresh_interval (SmprofJobPage  *self,
                                                guint           interval_ms);
guint    _smprof_job_page_get_n_refreshes      (SmprofJobPage  *self);
gboolean _smprof_job_page_get_live_refresh     (SmprofJobPage  *self);

/* smprof-job-page-outliers.c */
void _smprof_job_page_class_outliers_init    (GtkWidgetClass *widget_class);
void _smprof_job_page_outliers_init          (SmprofJobPage  *self);

/* smprof-job-page-nodes.c */
void _smprof_job_page_class_nodes_init       (GtkWidgetClass *widget_class);
void _smprof_job_page_nodes_init             (SmprofJobPage  *self);

/* smprof-job-page-transforms.c */
void _smprof_job_page_class_transforms_init  (GtkWidgetClass *widget_class);
void _smprof_job_page_transforms_init        (SmprofJobPage  *self);

/* smprof-job-page-compare.c */
void        _smprof_job_page_class_compare_init (GtkWidgetClass *widget_class);
void        _smprof_job_page_compare_init       (SmprofJobPage  *self);
void        _smprof_job_page_compare_dispose    (SmprofJobPage  *self);
GtkWidget  *_smprof_job_page_get_compare_view   (SmprofJobPage  *self);
double      _smprof_job_page_get_compare_min_delta (SmprofJobPage *self);

G_END_DECLS
