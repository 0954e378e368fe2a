/* smprof-session-refresh.c: listing a job that is still training again
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-session-private.h"

/* A refresh lists the job's source again on a worker and builds a new
 * SmprofJob (a remote source's files read before are not downloaded again,
 * and stats files are only read when a selection needs them); when it holds
 * other intervals, the session swaps to it (smprof_session_swap_job()),
 * keeping the user's choices. */

static void
list_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  SmprofSource *source = task_data;
  g_autoptr(SmprofJob) job = smprof_job_new (source);
  g_autoptr(GError) error = NULL;

  if (!smprof_job_load (job, cancellable, &error) ||
      !smprof_job_load_step_events (job, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&job), g_object_unref);
}

/* Whether @a and @b list the same intervals, for every profiler. */
static gboolean
same_intervals (SmprofJob *a,
                SmprofJob *b)
{
  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      GPtrArray *ra = smprof_job_get_records (a, p);
      GPtrArray *rb = smprof_job_get_records (b, p);

      if (ra->len != rb->len)
        return FALSE;
      for (guint i = 0; i < ra->len; i++)
        if (g_strcmp0 (((SmprofRecord *) g_ptr_array_index (ra, i))->path,
                       ((SmprofRecord *) g_ptr_array_index (rb, i))->path) != 0)
          return FALSE;
    }

  return TRUE;
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SmprofSession *self = g_task_get_source_object (task);
  g_autoptr(SmprofJob) job = NULL;
  GError *error = NULL;

  job = g_task_propagate_pointer (G_TASK (result), &error);
  if (job == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* The session went away, or another refresh swapped a job in first. */
  if (self->job == NULL || g_task_return_error_if_cancelled (task))
    return;

  if (same_intervals (job, self->job))
    {
      g_task_return_boolean (task, FALSE);
      return;
    }

  smprof_session_swap_job (self, job);
  g_task_return_boolean (task, TRUE);
}

/**
 * smprof_session_refresh_async:
 * @self: a session
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called once the job is listed again
 * @user_data: for @callback
 *
 * Lists the session's job again on a worker (the caller tells an S3
 * source to bypass its cached listing first); when the listing holds other
 * intervals, the session swaps the new job in.
 */
void
smprof_session_refresh_async (SmprofSession       *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) list = NULL;

  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_session_refresh_async);

  list = g_task_new (NULL, cancellable, list_cb, g_steal_pointer (&task));
  g_task_set_source_tag (list, list_in_thread);
  g_task_set_priority (list, G_PRIORITY_LOW);
  g_task_set_task_data (list, g_object_ref (smprof_job_get_source (self->job)), g_object_unref);
  g_task_run_in_thread (list, list_in_thread);
}

/**
 * smprof_session_refresh_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: whether the job changed (the session shows the new one); %FALSE
 *   with @error set when it could not be listed
 */
gboolean
smprof_session_refresh_finish (SmprofSession  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
