/* smprof-job-page-compare.c: comparing two selections: the current answer
 * becomes A, the next ones B; the diff is built on a worker and shown on the
 * "Compare" page of the views
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-compare-view.h"
#include "smprof-job-page-private.h"
#include "smprof-timeline-compare.h"

struct _SmprofJobPageCompare
{
  SmprofCompareView *view;
  GtkStackPage      *stack_page;
  GtkWidget         *bar;          /* "Select B…", while waiting for B */
  GtkWidget         *button;       /* "Compare With…" by the Export menu */

  gboolean           active;
  gboolean           shown;        /* switched to the compare page once */

  SmprofProfile     *profiles[2];  /* indexed by SmprofDiffSide; NULL until aggregated */
  GPtrArray         *records[2];
  char              *labels[2];
  char              *pending_b_label; /* B's name from _smprof_job_page_compare_records() */

  SmprofDiff        *diff;
  GCancellable      *cancellable;  /* the diff or A's aggregate in flight */
  guint              generation;
};

static void
clear_side (SmprofJobPageCompare *compare,
            SmprofDiffSide        side)
{
  g_clear_object (&compare->profiles[side]);
  g_clear_pointer (&compare->records[side], g_ptr_array_unref);
  g_clear_pointer (&compare->labels[side], g_free);
}

static void
cancel_work (SmprofJobPageCompare *compare)
{
  compare->generation++;
  if (compare->cancellable != NULL)
    g_cancellable_cancel (compare->cancellable);
  g_clear_object (&compare->cancellable);
}

static void
update_actions (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.close-compare", compare->active);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.swap-compare",
                                 compare->active && compare->profiles[SMPROF_DIFF_A] != NULL &&
                                 compare->profiles[SMPROF_DIFF_B] != NULL);
}

/* ------------------------------------------------------------------------ */
/* The diff, on a worker                                                    */

typedef struct
{
  SmprofProfile       *a;
  SmprofProfile       *b;
  SmprofDiffNormalize  normalize;
  guint                generation;
} DiffRequest;

static void
diff_request_free (gpointer data)
{
  DiffRequest *request = data;

  g_clear_object (&request->a);
  g_clear_object (&request->b);
  g_free (request);
}

static void
build_diff_in_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  DiffRequest *request = task_data;
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GError) error = NULL;
  SmprofDiff *diff;

  /* The job's function table grows while an aggregate reads stats. */
  locker = g_mutex_locker_new (_smprof_job_page_get_reading_lock ());
  if (g_task_return_error_if_cancelled (task))
    return;

  diff = smprof_diff_new (request->a, request->b, request->normalize, &error);
  if (diff == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, diff, g_object_unref);
}

static void
build_diff_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  SmprofJobPageCompare *compare = self->compare;
  DiffRequest *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SmprofDiff) diff = NULL;
  g_autoptr(GError) error = NULL;

  diff = g_task_propagate_pointer (G_TASK (result), &error);
  if (compare == NULL || request->generation != compare->generation)
    return;

  g_clear_object (&compare->cancellable);

  if (diff == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not compare the selections: %s"), error->message);

      smprof_compare_view_set_status (compare->view, message);
      return;
    }

  g_set_object (&compare->diff, diff);
  smprof_compare_view_set_status (compare->view, NULL);
  smprof_compare_view_set_diff (compare->view, diff, compare->labels[SMPROF_DIFF_A], compare->labels[SMPROF_DIFF_B]);
  update_actions (self);

  if (!compare->shown)
    {
      compare->shown = TRUE;
      gtk_stack_set_visible_child (self->views_stack, GTK_WIDGET (compare->view));
    }
}

static void
maybe_build_diff (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;
  g_autoptr(GTask) task = NULL;
  DiffRequest *request;

  if (!compare->active || compare->profiles[SMPROF_DIFF_A] == NULL || compare->profiles[SMPROF_DIFF_B] == NULL)
    return;

  cancel_work (compare);
  compare->cancellable = g_cancellable_new ();

  request = g_new0 (DiffRequest, 1);
  request->a = g_object_ref (compare->profiles[SMPROF_DIFF_A]);
  request->b = g_object_ref (compare->profiles[SMPROF_DIFF_B]);
  request->normalize = smprof_compare_view_get_normalize (compare->view);
  request->generation = compare->generation;

  task = g_task_new (self, compare->cancellable, build_diff_cb, g_object_ref (self));
  g_task_set_source_tag (task, maybe_build_diff);
  g_task_set_task_data (task, request, diff_request_free);
  g_task_run_in_thread (task, build_diff_in_thread);
}

/* ------------------------------------------------------------------------ */
/* A of explicit records, aggregated here                                   */

static gpointer
aggregate_side (SmprofJobPageWork  *work,
                const char * const *node_ids)
{
  return smprof_profile_new (work->job, work->profiler, node_ids, work->records);
}

static void
aggregate_side_in_thread (GTask        *task,
                          gpointer      source_object,
                          gpointer      task_data,
                          GCancellable *cancellable)
{
  _smprof_job_page_work_run (task, task_data, cancellable, aggregate_side, g_object_unref);
}

static void
aggregate_side_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  SmprofJobPageCompare *compare = self->compare;
  SmprofJobPageWork *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SmprofProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = g_task_propagate_pointer (G_TASK (result), &error);
  if (compare == NULL || request->generation != compare->generation)
    return;

  g_clear_object (&compare->cancellable);

  if (profile == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not aggregate selection A: %s"), error->message);

      smprof_compare_view_set_status (compare->view, message);
      return;
    }

  g_set_object (&compare->profiles[SMPROF_DIFF_A], profile);
  update_actions (self);
  maybe_build_diff (self);
}

/* Aggregates A's records on a worker; the diff follows when B is there. */
static void
aggregate_a (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;
  g_autoptr(GPtrArray) copy = g_ptr_array_copy (compare->records[SMPROF_DIFF_A], NULL, NULL);
  g_autoptr(GTask) task = NULL;

  cancel_work (compare);
  compare->cancellable = g_cancellable_new ();
  task = g_task_new (self, compare->cancellable, aggregate_side_cb, g_object_ref (self));
  g_task_set_source_tag (task, aggregate_a);
  g_task_set_task_data (task, _smprof_job_page_work_new (self, copy, compare->generation),
                        _smprof_job_page_work_free);
  g_task_run_in_thread (task, aggregate_side_in_thread);
}

/* ------------------------------------------------------------------------ */
/* Opening and closing                                                      */

static void
set_waiting (SmprofJobPage *self,
             gboolean       waiting)
{
  gtk_widget_set_visible (self->compare->bar, waiting);
  if (waiting)
    smprof_compare_view_set_status (self->compare->view, _("Select B on the timeline or pick a preset"));
}

static void
open_comparison (SmprofJobPage *self,
                 GPtrArray     *a_records,
                 const char    *a_label)
{
  SmprofJobPageCompare *compare = self->compare;

  cancel_work (compare);
  clear_side (compare, SMPROF_DIFF_A);
  clear_side (compare, SMPROF_DIFF_B);
  g_clear_object (&compare->diff);
  smprof_compare_view_set_diff (compare->view, NULL, a_label, NULL);

  g_clear_pointer (&compare->pending_b_label, g_free);
  compare->active = TRUE;
  compare->shown = FALSE;
  compare->records[SMPROF_DIFF_A] = g_ptr_array_ref (a_records);
  compare->labels[SMPROF_DIFF_A] = g_strdup (a_label);

  gtk_stack_page_set_visible (compare->stack_page, TRUE);
  smprof_timeline_set_compare_records (self->timeline, a_records);
  update_actions (self);
}

/**
 * _smprof_job_page_close_comparison:
 * @self: a job page
 *
 * Ends the comparison, if one is open (Close, Cancel, or a profiler switch:
 * A and B must be of one profiler).
 */
void
_smprof_job_page_close_comparison (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;

  if (compare == NULL || !compare->active)
    return;

  cancel_work (compare);
  compare->active = FALSE;
  g_clear_pointer (&compare->pending_b_label, g_free);
  clear_side (compare, SMPROF_DIFF_A);
  clear_side (compare, SMPROF_DIFF_B);
  g_clear_object (&compare->diff);
  set_waiting (self, FALSE);

  if (gtk_stack_get_visible_child (self->views_stack) == GTK_WIDGET (compare->view))
    gtk_stack_set_visible_child_name (self->views_stack, "functions");
  gtk_stack_page_set_visible (compare->stack_page, FALSE);
  smprof_compare_view_set_diff (compare->view, NULL, NULL, NULL);
  smprof_timeline_set_compare_records (self->timeline, NULL);
  update_actions (self);
}

/* Each answer of the page, once A is set, is B: the user picks B (and picks
 * again) on the timeline or with a preset. */
static void
profile_changed_cb (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;

  if (compare == NULL || !compare->active || self->profile == NULL ||
      self->profile == compare->profiles[SMPROF_DIFF_A])
    return;

  /* A newer selection is on its way: wait for its answer. */
  if (self->update_source != 0)
    return;

  clear_side (compare, SMPROF_DIFF_B);
  compare->profiles[SMPROF_DIFF_B] = g_object_ref (self->profile);
  compare->records[SMPROF_DIFF_B] = self->selected_records != NULL ? g_ptr_array_ref (self->selected_records) : NULL;
  compare->labels[SMPROF_DIFF_B] = compare->pending_b_label != NULL ? g_steal_pointer (&compare->pending_b_label)
                                                                    : g_strdup (self->profile_description);
  set_waiting (self, FALSE);
  update_actions (self);
  maybe_build_diff (self);
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  SmprofJobPageCompare *compare = self->compare;

  if (self->profile == NULL || self->selected_records == NULL)
    {
      _smprof_job_page_show_toast (self, _("Nothing to compare yet: wait for the selection’s aggregate"));
      return;
    }

  open_comparison (self, self->selected_records, self->profile_description);
  compare->profiles[SMPROF_DIFF_A] = g_object_ref (self->profile);
  set_waiting (self, TRUE);
}

static void
close_compare_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  _smprof_job_page_close_comparison (SMPROF_JOB_PAGE (widget));
}

#define SWAP_SIDES(array) G_STMT_START { \
    gpointer tmp = (array)[SMPROF_DIFF_A]; \
    (array)[SMPROF_DIFF_A] = (array)[SMPROF_DIFF_B]; \
    (array)[SMPROF_DIFF_B] = tmp; \
  } G_STMT_END

static void
swap_compare_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  SmprofJobPageCompare *compare = self->compare;

  if (!compare->active || compare->profiles[SMPROF_DIFF_A] == NULL || compare->profiles[SMPROF_DIFF_B] == NULL)
    return;

  /* Both sides swap; the timeline keeps its selection, so the next one
   * picked replaces B again. */
  SWAP_SIDES (compare->profiles);
  SWAP_SIDES (compare->records);
  SWAP_SIDES (compare->labels);

  smprof_timeline_set_compare_records (self->timeline, compare->records[SMPROF_DIFF_A]);
  maybe_build_diff (self);
}

static void
bar_response_cb (SmprofJobPage *self,
                 int            response)
{
  _smprof_job_page_close_comparison (self);
}

static void
normalize_changed_cb (SmprofJobPage *self)
{
  maybe_build_diff (self);
}

/**
 * _smprof_job_page_compare_records:
 * @self: a job page
 * @a_records: (element-type SmprofRecord): records of the page's job and
 *   profiler, aggregated here as A
 * @a_label: (nullable): A in words
 * @b_records: (element-type SmprofRecord): B's records, selected on the
 *   timeline so the page's own aggregate is B
 * @b_label: (nullable): B in words, instead of the page's description
 *
 * Opens a comparison of two given sets of intervals ("this outlier step
 * against the median one").
 */
void
_smprof_job_page_compare_records (SmprofJobPage *self,
                                  GPtrArray     *a_records,
                                  const char    *a_label,
                                  GPtrArray     *b_records,
                                  const char    *b_label)
{
  SmprofJobPageCompare *compare;

  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (a_records != NULL && b_records != NULL);

  compare = self->compare;
  open_comparison (self, a_records, a_label);
  set_waiting (self, FALSE);
  smprof_compare_view_set_status (compare->view, _("Aggregating A and B…"));

  aggregate_a (self);

  /* The page describes B in its own words unless told otherwise: the label
   * names the first answer, later picks are described by the page. */
  compare->pending_b_label = g_strdup (b_label);
  smprof_job_page_select_records (self, b_records);
}

/**
 * _smprof_job_page_compare_job_swapped:
 * @self: a job page whose job a live refresh just replaced
 *
 * A diff compares two profiles of one job. An open comparison finds A's
 * intervals again in the new job (by path) and aggregates them again; B,
 * with its name kept, is the page's next answer, which the caller must then
 * ask for even when the selection names the same intervals. A whose
 * intervals are all gone closes the comparison.
 *
 * Returns: whether the page must aggregate its selection again
 */
gboolean
_smprof_job_page_compare_job_swapped (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;
  g_autoptr(GPtrArray) a_records = NULL;

  if (compare == NULL || !compare->active || compare->records[SMPROF_DIFF_A] == NULL)
    return FALSE;

  a_records = _smprof_job_page_records_in_job (self->job, self->profiler, compare->records[SMPROF_DIFF_A]);
  if (a_records->len == 0)
    {
      _smprof_job_page_close_comparison (self);
      return FALSE;
    }

  g_clear_object (&compare->profiles[SMPROF_DIFF_A]);
  g_clear_pointer (&compare->records[SMPROF_DIFF_A], g_ptr_array_unref);
  compare->records[SMPROF_DIFF_A] = g_ptr_array_ref (a_records);
  smprof_timeline_set_compare_records (self->timeline, a_records);

  if (compare->labels[SMPROF_DIFF_B] != NULL && compare->pending_b_label == NULL)
    compare->pending_b_label = g_strdup (compare->labels[SMPROF_DIFF_B]);
  g_clear_object (&compare->profiles[SMPROF_DIFF_B]);
  g_clear_pointer (&compare->records[SMPROF_DIFF_B], g_ptr_array_unref);

  update_actions (self);
  aggregate_a (self);

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Setting up                                                               */

void
_smprof_job_page_class_compare_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "job-page.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "job-page.close-compare", NULL, close_compare_action);
  gtk_widget_class_install_action (widget_class, "job-page.swap-compare", NULL, swap_compare_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "job-page.compare", NULL);
}

void
_smprof_job_page_compare_init (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = g_new0 (SmprofJobPageCompare, 1);
  GtkWidget *label;

  self->compare = compare;

  compare->view = SMPROF_COMPARE_VIEW (smprof_compare_view_new ());
  gtk_widget_set_name (GTK_WIDGET (compare->view), "compare-view");
  compare->stack_page = gtk_stack_add_titled (self->views_stack, GTK_WIDGET (compare->view), "compare", _("C_ompare"));
  g_object_set (compare->stack_page, "use-underline", TRUE, NULL);
  gtk_stack_page_set_visible (compare->stack_page, FALSE);
  g_signal_connect_object (compare->view, "notify::normalize",
                           G_CALLBACK (normalize_changed_cb), self, G_CONNECT_SWAPPED);

  /* Under the header, with the error bar: what the page waits for. */
  compare->bar = gtk_info_bar_new ();
  gtk_widget_set_name (compare->bar, "compare-bar");
  gtk_info_bar_set_message_type (GTK_INFO_BAR (compare->bar), GTK_MESSAGE_QUESTION);
  label = gtk_label_new (_("Comparing: the current selection is A. Select B on the timeline or pick a preset."));
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_info_bar_add_child (GTK_INFO_BAR (compare->bar), label);
  gtk_info_bar_add_button (GTK_INFO_BAR (compare->bar), _("_Cancel"), GTK_RESPONSE_CANCEL);
  g_signal_connect_object (compare->bar, "response", G_CALLBACK (bar_response_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_set_visible (compare->bar, FALSE);
  gtk_widget_insert_after (compare->bar, GTK_WIDGET (self), GTK_WIDGET (self->error_bar));

  compare->button = gtk_button_new_with_mnemonic (_("Compare _With…"));
  gtk_widget_set_name (compare->button, "compare-button");
  gtk_widget_set_valign (compare->button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (compare->button, _("Compare the selection with another one (Ctrl+D)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (compare->button), "job-page.compare");
  gtk_widget_insert_before (compare->button, gtk_widget_get_parent (GTK_WIDGET (self->export_button)),
                            GTK_WIDGET (self->export_button));

  g_signal_connect (self, "notify::profile", G_CALLBACK (profile_changed_cb), NULL);
  update_actions (self);
}

void
_smprof_job_page_compare_dispose (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = g_steal_pointer (&self->compare);

  if (compare == NULL)
    return;

  cancel_work (compare);
  clear_side (compare, SMPROF_DIFF_A);
  clear_side (compare, SMPROF_DIFF_B);
  g_clear_pointer (&compare->pending_b_label, g_free);
  g_clear_object (&compare->diff);
  g_free (compare);
}

/* For the tests and the report */
SmprofDiff *
_smprof_job_page_get_diff (SmprofJobPage *self)
{
  return self->compare != NULL ? self->compare->diff : NULL;
}

const char *
_smprof_job_page_get_compare_label (SmprofJobPage *self,
                                    int            side)
{
  g_return_val_if_fail (side == SMPROF_DIFF_A || side == SMPROF_DIFF_B, NULL);

  return self->compare != NULL ? self->compare->labels[side] : NULL;
}

GtkWidget *
_smprof_job_page_get_compare_view (SmprofJobPage *self)
{
  return self->compare != NULL ? GTK_WIDGET (self->compare->view) : NULL;
}

double
_smprof_job_page_get_compare_min_delta (SmprofJobPage *self)
{
  return self->compare != NULL ? smprof_compare_view_get_min_delta (self->compare->view) : 0;
}
