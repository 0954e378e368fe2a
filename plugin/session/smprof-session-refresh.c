/* smprof-session-refresh.c: listing a job that is still training again
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-background.h"
#include "smprof-release.h"
#include "smprof-session-private.h"

/* A refresh opens the job again on a worker (smprof_job_open() with the
 * session's job: the source listed anew, the stats already read shared,
 * files that changed or could not be read read again); when anything
 * changed, the session swaps to the new job (smprof_session_swap_job()),
 * keeping the user's choices, and aggregates again when the stats it shows
 * were read otherwise. */

typedef struct
{
  SmprofJob        *job;
  SmprofJobChanges  changes;
} Reopened;

static void
reopened_free (gpointer data)
{
  Reopened *reopened = data;

  /* A job listed and not swapped in (nothing changed) is as big as the one
   * shown: freeing it on the main thread froze a 256-node job's window for
   * 20-45 ms at every refresh. */
  smprof_release_in_background (g_steal_pointer (&reopened->job), g_object_unref);
  g_free (reopened);
}

static void
reopen_in_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  SmprofJob *previous = task_data;
  Reopened *reopened = g_new0 (Reopened, 1);
  g_autoptr(GError) error = NULL;

  reopened->job = smprof_job_open (smprof_job_get_source (previous), previous, &reopened->changes,
                                   cancellable, &error);
  if (reopened->job == NULL)
    {
      reopened_free (reopened);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, reopened, reopened_free);
}

static void
reopen_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SmprofSession *self = g_task_get_source_object (task);
  Reopened *reopened;
  GError *error = NULL;

  reopened = g_task_propagate_pointer (G_TASK (result), &error);
  if (reopened == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* The session went away, or another refresh swapped a job in first. */
  if (self->job == NULL || reopened->job == self->job || g_task_return_error_if_cancelled (task))
    {
      reopened_free (reopened);
      return;
    }

  if (reopened->changes == SMPROF_JOB_CHANGED_NOTHING)
    {
      reopened_free (reopened);
      g_task_return_boolean (task, FALSE);
      return;
    }

  smprof_session_swap_job (self, reopened->job);
  reopened_free (reopened);
  g_task_return_boolean (task, TRUE);
}

/**
 * smprof_session_refresh_async:
 * @self: a session
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called once the job is listed again
 * @user_data: for @callback
 *
 * Opens the session's job again on a worker (an S3 source lists anew,
 * bypassing its cached listing); when anything changed (intervals, stats
 * read otherwise, problems, steps), the session swaps the new job in.
 */
void
smprof_session_refresh_async (SmprofSession       *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) reopen = NULL;

  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_session_refresh_async);

  reopen = g_task_new (NULL, cancellable, reopen_cb, g_steal_pointer (&task));
  g_task_set_source_tag (reopen, reopen_in_thread);
  g_task_set_priority (reopen, G_PRIORITY_LOW);
  g_task_set_task_data (reopen, g_object_ref (self->job), g_object_unref);
  /* Live refreshes come every few seconds while the user works: below the
   * answers they wait for. */
  smprof_task_run_in_background (reopen, reopen_in_thread);
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
