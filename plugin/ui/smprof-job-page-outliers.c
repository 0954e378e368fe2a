/* smprof-job-page-outliers.c: the job's outlier steps, marked on the timeline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"
#include "smprof-timeline-outliers.h"

/* Once a job is shown (and again after a live refresh or a profiler switch),
 * the page computes the whole job's per-step statistics for the current
 * profiler over all its nodes, whatever the selection, on a worker thread:
 * a step is an outlier against its own node's steps, so the node choice does
 * not change the answer. The timeline marks the outlier steps; the toolbar's
 * Outliers toggle shows or hides the marks and a label counts them and states
 * the rule. A mark's click, its popover button or F8 / Shift+F8 (next /
 * previous outlier) open "this step versus the node's median step".
 *
 * Other parts of the page (the node × function matrix) read the same
 * statistics with _smprof_job_page_get_job_step_stats() and follow
 * SmprofJobPage::job-step-stats-changed. */

static guint job_step_stats_changed_signal;

static gpointer
compute_steps (SmprofJobPageWork  *work,
               const char * const *node_ids)
{
  return smprof_step_stats_new (work->job, work->profiler, node_ids, work->records);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  _smprof_job_page_work_run (task, task_data, cancellable, compute_steps,
                             (GDestroyNotify) smprof_step_stats_free);
}

/* The toolbar's count of the marked steps, with the rule's threshold (the
 * whole rule is the label's tooltip), or that they are being looked for. */
static void
update_label (SmprofJobPage *self)
{
  g_autofree char *text = NULL;
  guint n = self->job_step_stats != NULL ? smprof_timeline_get_n_outliers (self->timeline) : 0;

  /* F8 and Shift+F8 go through the marks: not without one. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.next-outlier", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.previous-outlier", n > 0);

  if (self->job_step_stats == NULL)
    {
      gtk_label_set_label (self->outliers_label,
                           self->step_stats_cancellable != NULL ? _("Finding outlier steps…") : "");
      return;
    }

  if (n == 0)
    /* Translators: z is the robust z-score; the whole rule is in the tooltip; %.1f is its threshold, 3.5 */
    text = g_strdup_printf (_("No outlier steps (rule: z > %.1f)"), SMPROF_STEP_OUTLIER_THRESHOLD);
  else
    /* Translators: "3 outlier steps (rule: z > 3.5)": z is the robust z-score, as the tooltip says */
    text = g_strdup_printf (ngettext ("%u outlier step (rule: z > %.1f)", "%u outlier steps (rule: z > %.1f)", n),
                            n, SMPROF_STEP_OUTLIER_THRESHOLD);
  gtk_label_set_label (self->outliers_label, text);
}

static void
set_stats (SmprofJobPage   *self,
           SmprofStepStats *stats)
{
  g_clear_pointer (&self->job_step_stats, smprof_step_stats_free);
  self->job_step_stats = stats;

  smprof_timeline_set_outliers (self->timeline, stats);
  update_label (self);
  g_signal_emit (self, job_step_stats_changed_signal, 0);
}

static void
compute_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);
  SmprofJobPageWork *compute = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  SmprofStepStats *stats;

  stats = g_task_propagate_pointer (G_TASK (result), &error);

  /* A newer computation replaced this one (or the page went away). */
  if (compute->generation != self->step_stats_generation)
    {
      g_clear_pointer (&stats, smprof_step_stats_free);
      return;
    }

  g_clear_object (&self->step_stats_cancellable);
  if (stats == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* Translators: %s is why the stats files could not be read */
      message = g_strdup_printf (_("Could not find outlier steps: %s"), error->message);
      _smprof_job_page_show_error (self, message);
      update_label (self);
      return;
    }

  set_stats (self, stats);
}

/**
 * _smprof_job_page_update_outliers:
 * @self: a job page
 *
 * Computes the step statistics of the page's job and profiler again, on a
 * worker thread; the one in flight, if any, is dropped. The current ones stay
 * until the new ones arrive, unless they are of another profiler.
 */
void
_smprof_job_page_update_outliers (SmprofJobPage *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->step_stats_cancellable != NULL)
    g_cancellable_cancel (self->step_stats_cancellable);
  g_clear_object (&self->step_stats_cancellable);
  self->step_stats_generation++;

  if (self->job_step_stats != NULL && smprof_step_stats_get_profiler (self->job_step_stats) != self->profiler)
    set_stats (self, NULL);

  if (self->job == NULL || self->all_node_ids == NULL || self->all_node_ids[0] == NULL)
    {
      update_label (self);
      return;
    }

  self->step_stats_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->step_stats_cancellable, compute_done_cb, NULL);
  g_task_set_source_tag (task, _smprof_job_page_update_outliers);
  /* every interval of the profiler, on every node */
  g_task_set_task_data (task, _smprof_job_page_work_new (self, smprof_job_get_records (self->job, self->profiler),
                                                         self->step_stats_generation),
                        _smprof_job_page_work_free);
  g_task_run_in_thread (task, compute_thread);

  update_label (self);
}

/**
 * _smprof_job_page_get_job_step_stats:
 * @self: a job page
 *
 * The whole job's per-step statistics for the page's profiler, over all its
 * nodes. They may belong to the job before a live refresh for a moment (see
 * smprof_step_stats_get_job()). SmprofJobPage::job-step-stats-changed tells
 * when they change; they are freed then.
 *
 * Returns: (transfer none) (nullable): the statistics, %NULL until computed
 */
SmprofStepStats *
_smprof_job_page_get_job_step_stats (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->job_step_stats;
}

/* ------------------------------------------------------------------------ */
/* This step versus the median step                                         */

static char *
describe_step (const SmprofStep *step)
{
  /* Translators: a step of one node, as in "Train step 12 on algo-1" */
  return g_strdup_printf (_("%s step %lld on %s"), smprof_timeline_get_mode_label (step->mode),
                          (long long) step->step, step->node_id);
}

/**
 * _smprof_job_page_compare_outlier:
 * @self: a job page
 * @index: a step of _smprof_job_page_get_job_step_stats()
 *
 * Opens the comparison of the node's median step of the same mode (A) with
 * step @index (B).
 *
 * Returns: whether it could (the statistics are of the page's job and hold @index)
 */
gboolean
_smprof_job_page_compare_outlier (SmprofJobPage *self,
                                  guint          index)
{
  SmprofStepStats *stats = self->job_step_stats;
  const SmprofStep *step, *median;
  g_autofree char *step_text = NULL;
  g_autofree char *median_text = NULL;
  g_autofree char *a_label = NULL;
  g_autofree char *b_label = NULL;

  /* Statistics of the job before a refresh name records the page no longer shows. */
  if (stats == NULL || smprof_step_stats_get_job (stats) != self->job ||
      index >= smprof_step_stats_get_n_steps (stats))
    return FALSE;

  step = smprof_step_stats_get_step (stats, index);
  median = smprof_step_stats_get_step (stats, step->median_step);
  step_text = describe_step (step);
  median_text = describe_step (median);
  /* Translators: the comparison's A side, as in "Median step (Train step 7 on algo-1)" */
  a_label = g_strdup_printf (_("Median step (%s)"), median_text);
  /* Translators: the comparison's B side, as in "Outlier step (Train step 12 on algo-1)" */
  b_label = g_strdup_printf (_("Outlier step (%s)"), step_text);

  /* A is aggregated apart; B becomes the page's selection, outlined on the timeline */
  _smprof_job_page_compare_records (self,
                                    smprof_step_stats_get_step_records (stats, step->median_step), a_label,
                                    smprof_step_stats_get_step_records (stats, index), b_label);

  return TRUE;
}

static void
outlier_activated_cb (SmprofJobPage  *self,
                      guint           index,
                      SmprofTimeline *timeline)
{
  _smprof_job_page_compare_outlier (self, index);
}

static void
outliers_toggled_cb (SmprofJobPage   *self,
                     GtkToggleButton *button)
{
  smprof_timeline_set_show_outliers (self->timeline, gtk_toggle_button_get_active (button));
}

static void
next_outlier_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  /* Hidden marks come back: the user is asking for them. */
  if (!gtk_toggle_button_get_active (self->outliers_button))
    gtk_toggle_button_set_active (self->outliers_button, TRUE);

  smprof_timeline_activate_next_outlier (self->timeline, g_str_equal (action_name, "job-page.previous-outlier"));
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */

void
_smprof_job_page_class_outliers_init (GtkWidgetClass *widget_class)
{
  /**
   * SmprofJobPage::job-step-stats-changed:
   * @page: the job page
   *
   * _smprof_job_page_get_job_step_stats() changed: new statistics were
   * computed (after the job loaded, a live refresh or a profiler switch), or
   * they went away. The previous ones are freed already.
   */
  job_step_stats_changed_signal =
    g_signal_new ("job-step-stats-changed",
                  G_TYPE_FROM_CLASS (widget_class),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_bind_template_child_full (widget_class, "outliers_button", FALSE,
                                             G_STRUCT_OFFSET (SmprofJobPage, outliers_button));
  gtk_widget_class_bind_template_child_full (widget_class, "outliers_label", FALSE,
                                             G_STRUCT_OFFSET (SmprofJobPage, outliers_label));
  gtk_widget_class_bind_template_callback (widget_class, outliers_toggled_cb);

  /* F8 / Shift+F8, as "next error" in editors: no Alt mnemonic or Ctrl
   * shortcut of the page or the viewer uses them. */
  gtk_widget_class_install_action (widget_class, "job-page.next-outlier", NULL, next_outlier_action);
  gtk_widget_class_install_action (widget_class, "job-page.previous-outlier", NULL, next_outlier_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F8, 0, "job-page.next-outlier", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F8, GDK_SHIFT_MASK, "job-page.previous-outlier", NULL);
}

void
_smprof_job_page_outliers_init (SmprofJobPage *self)
{
  g_signal_connect_object (self->timeline, "outlier-activated",
                           G_CALLBACK (outlier_activated_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->outliers_label), smprof_step_outlier_rule_description ());
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.next-outlier", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.previous-outlier", FALSE);
}

void
_smprof_job_page_outliers_dispose (SmprofJobPage *self)
{
  if (self->step_stats_cancellable != NULL)
    g_cancellable_cancel (self->step_stats_cancellable);
  g_clear_object (&self->step_stats_cancellable);
  self->step_stats_generation++;
  g_clear_pointer (&self->job_step_stats, smprof_step_stats_free);
}
