/* smprof-job-page-steps.c: the selection's time per step, for the function
 * table's per-step columns, on a worker thread after each aggregate
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"
#include "smprof-step-stats.h"
#include "smprof-ui-settings.h"

static gpointer
compute_steps (SmprofJobPageWork  *work,
               const char * const *node_ids)
{
  return smprof_step_stats_new (work->job, work->profiler, node_ids, work->records);
}

static void
compute_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  _smprof_job_page_work_run (task, task_data, cancellable, compute_steps,
                             (GDestroyNotify) smprof_step_stats_free);
}

static void
compute_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  SmprofJobPageWork *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SmprofStepStats) stats = NULL;
  g_autoptr(GError) error = NULL;

  stats = g_task_propagate_pointer (G_TASK (result), &error);

  /* Another selection's answer came since: these steps are not its. */
  if (request->generation != self->steps_generation || self->job != request->job)
    return;

  g_clear_object (&self->steps_cancellable);

  if (stats == NULL)
    {
      /* The aggregate, or the range index before it, read these files and
       * said what went wrong; the columns stay blank. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No time per step for this selection: %s", error->message);
      return;
    }

  smprof_function_table_set_step_stats (self->function_table, g_steal_pointer (&stats));
}

/**
 * _smprof_job_page_steps_update:
 * @self: a job page
 *
 * Called with each new answer, before the views show it: the per-step
 * columns go blank ("—"), then show the steps of `self->selected_records`
 * once a worker has computed them.
 */
void
_smprof_job_page_steps_update (SmprofJobPage *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->steps_cancellable != NULL)
    g_cancellable_cancel (self->steps_cancellable);
  g_clear_object (&self->steps_cancellable);
  self->steps_generation = self->generation;

  smprof_function_table_set_step_stats (self->function_table, NULL);

  /* Hidden columns need no figures: a drag selection does not pay for them
   * (showing the columns computes them, _smprof_job_page_steps_init()). */
  if (self->selected_records == NULL || self->selected_records->len == 0 ||
      !smprof_function_table_get_show_step_columns (self->function_table))
    return;

  self->steps_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->steps_cancellable, compute_cb, g_object_ref (self));
  g_task_set_source_tag (task, _smprof_job_page_steps_update);
  g_task_set_priority (task, G_PRIORITY_LOW);
  g_task_set_task_data (task, _smprof_job_page_work_new (self, self->selected_records, self->steps_generation),
                        _smprof_job_page_work_free);
  g_task_run_in_thread (task, compute_in_thread);
}

void
_smprof_job_page_steps_init (SmprofJobPage *self)
{
  /* The Per Step button, and the Preferences window, set the plugin's
   * show-step-columns: every page, now and later, shows what was chosen. */
  smprof_ui_settings_bind ("show-step-columns", self->function_table, "show-step-columns");
  g_signal_connect_object (self->function_table, "notify::show-step-columns",
                           G_CALLBACK (_smprof_job_page_steps_update), self, G_CONNECT_SWAPPED);
}

void
_smprof_job_page_steps_dispose (SmprofJobPage *self)
{
  if (self->steps_cancellable != NULL)
    g_cancellable_cancel (self->steps_cancellable);
  g_clear_object (&self->steps_cancellable);
  self->steps_generation = 0;
}
