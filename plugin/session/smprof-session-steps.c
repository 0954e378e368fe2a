/* smprof-session-steps.c: time per step, of the selection (the function
 * table's Per Step columns) and of the whole job (the outlier steps, the
 * node matrix), on worker threads
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-background.h"
#include "smprof-release.h"
#include "smprof-session-private.h"

typedef struct
{
  SmprofJob      *job;
  SmprofProfiler  profiler;
  GPtrArray      *records;
  guint           generation;
  SmprofStepRule  rule;
  gboolean        background;  /* the whole job's: the selection's files first */
} StepsRequest;

static void
steps_request_free (gpointer data)
{
  StepsRequest *request = data;

  g_clear_object (&request->job);
  g_clear_pointer (&request->records, g_ptr_array_unref);
  g_free (request);
}

static void
compute_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  StepsRequest *request = task_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) node_ids = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  /* An answer of the range index read no file: read them now. */
  if (request->background
      ? !smprof_job_load_stats_in_background (request->job, request->records, cancellable, &error)
      : !smprof_job_load_stats (request->job, request->records, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  node_ids = smprof_records_dup_node_ids (request->records);
  g_task_return_pointer (task,
                         smprof_step_stats_new_with_rule (request->job, request->profiler,
                                                          (const char * const *) node_ids, request->records,
                                                          &request->rule),
                         (GDestroyNotify) smprof_step_stats_unref);
}

/* Per-step statistics of @records, on a worker. */
static void
compute_steps_async (SmprofSession       *self,
                     GPtrArray           *records,
                     gboolean             background,
                     guint                generation,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, NULL);
  StepsRequest *request = g_new0 (StepsRequest, 1);

  request->job = g_object_ref (self->job);
  request->profiler = self->profiler;
  request->records = g_ptr_array_ref (records);
  request->generation = generation;
  request->background = background;
  smprof_step_rule_init (&request->rule);
  request->rule.threshold = self->outlier_threshold;

  g_task_set_source_tag (task, compute_steps_async);
  g_task_set_priority (task, G_PRIORITY_LOW);
  g_task_set_task_data (task, request, steps_request_free);
  smprof_task_run_in_background (task, compute_in_thread);
}

static SmprofStepStats *
compute_steps_finish (SmprofSession  *self,
                      GAsyncResult   *result,
                      GError        **error)
{
  g_assert (g_task_is_valid (result, self));

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Takes @stats and gives them flagged with the session's threshold: the
 * threshold may have changed while they were computed, or since. */
static SmprofStepStats *
reflag (SmprofSession   *self,
        SmprofStepStats *stats)
{
  SmprofStepStats *flagged;

  if (smprof_step_stats_get_rule (stats)->threshold == self->outlier_threshold)
    return stats;

  flagged = smprof_step_stats_dup_with_threshold (stats, self->outlier_threshold);
  smprof_step_stats_unref (stats);

  return flagged;
}

/* ------------------------------------------------------------------------ */
/* The selection's                                                          */

static void
set_step_stats (SmprofSession   *self,
                SmprofStepStats *stats)
{
  if (self->step_stats == stats)
    return;

  /* A whole job's hold every step of every node: off the main thread. */
  smprof_release_in_background (g_steal_pointer (&self->step_stats), (GDestroyNotify) smprof_step_stats_unref);
  self->step_stats = stats;
  _smprof_session_notify (self, PROP_STEP_STATS);
}

static void
steps_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  SmprofSession *self = SMPROF_SESSION (object);
  StepsRequest *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SmprofStepStats) stats = NULL;
  g_autoptr(GError) error = NULL;

  stats = compute_steps_finish (self, result, &error);

  /* Another selection's answer came since: these steps are not its. */
  if (request->generation != self->steps_generation || request->job != self->answer_job)
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

  set_step_stats (self, reflag (self, g_steal_pointer (&stats)));
}

/* With each answer: the steps go blank, then come from a worker when
 * wanted. A drag does not pay for them while nothing shows them. */
void
_smprof_session_steps_update (SmprofSession *self)
{
  if (self->steps_cancellable != NULL)
    g_cancellable_cancel (self->steps_cancellable);
  g_clear_object (&self->steps_cancellable);
  self->steps_generation = self->generation;

  set_step_stats (self, NULL);

  if (!self->want_step_stats || self->selected_records == NULL || self->selected_records->len == 0 ||
      self->answer_job != self->job)
    return;

  self->steps_cancellable = g_cancellable_new ();
  compute_steps_async (self, self->selected_records, FALSE, self->steps_generation, self->steps_cancellable, steps_cb);
}

gboolean
smprof_session_get_want_step_stats (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  return self->want_step_stats;
}

/**
 * smprof_session_set_want_step_stats:
 * @self: a session
 * @want: whether to compute the selection's time per step
 *
 * While wanted, each answer is followed by its #SmprofSession:step-stats.
 */
void
smprof_session_set_want_step_stats (SmprofSession *self,
                                    gboolean       want)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));

  want = !!want;
  if (self->want_step_stats == want)
    return;

  self->want_step_stats = want;
  _smprof_session_notify (self, PROP_WANT_STEP_STATS);

  /* The answer shown gets its steps now (or drops them). */
  if (!self->busy)
    _smprof_session_steps_update (self);
}

/**
 * smprof_session_get_step_stats:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the time per step of the intervals
 *   #SmprofSession:profile aggregates, while #SmprofSession:want-step-stats
 */
SmprofStepStats *
smprof_session_get_step_stats (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->step_stats;
}

/* ------------------------------------------------------------------------ */
/* The whole job's                                                          */

static void
set_job_step_stats (SmprofSession   *self,
                    SmprofStepStats *stats)
{
  if (self->job_step_stats == stats)
    return;

  smprof_release_in_background (g_steal_pointer (&self->job_step_stats), (GDestroyNotify) smprof_step_stats_unref);
  self->job_step_stats = stats;
  _smprof_session_notify (self, PROP_JOB_STEP_STATS);
}

static void
job_steps_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  SmprofSession *self = SMPROF_SESSION (object);
  StepsRequest *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SmprofStepStats) stats = NULL;
  g_autoptr(GError) error = NULL;

  stats = compute_steps_finish (self, result, &error);

  /* A newer computation replaced this one (or the session went away). */
  if (request->generation != self->job_steps_generation)
    return;

  g_clear_object (&self->job_steps_cancellable);
  _smprof_session_notify (self, PROP_FINDING_OUTLIERS);

  if (stats == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* Translators: %s is why the stats files could not be read */
      message = g_strdup_printf (_("Could not find outlier steps: %s"), error->message);
      _smprof_session_emit_error (self, message);
      return;
    }

  set_job_step_stats (self, reflag (self, g_steal_pointer (&stats)));
}

/* Computes the whole job's per-step statistics for the profiler again, over
 * all its nodes: a step is an outlier against its own node's steps, so the
 * node choice does not change the answer. The current ones stay until the
 * new ones arrive, unless they are of another profiler. */
void
_smprof_session_update_job_step_stats (SmprofSession *self)
{
  if (self->job_steps_cancellable != NULL)
    g_cancellable_cancel (self->job_steps_cancellable);
  g_clear_object (&self->job_steps_cancellable);
  self->job_steps_generation++;

  if (self->job_step_stats != NULL && smprof_step_stats_get_profiler (self->job_step_stats) != self->profiler)
    set_job_step_stats (self, NULL);

  if (self->all_node_ids == NULL || self->all_node_ids[0] == NULL)
    {
      _smprof_session_notify (self, PROP_FINDING_OUTLIERS);
      return;
    }

  self->job_steps_cancellable = g_cancellable_new ();
  compute_steps_async (self, smprof_job_get_records (self->job, self->profiler), TRUE,
                       self->job_steps_generation,
                       self->job_steps_cancellable, job_steps_cb);
  _smprof_session_notify (self, PROP_FINDING_OUTLIERS);
}

/**
 * smprof_session_get_job_step_stats:
 * @self: a session
 *
 * The whole job's per-step statistics for the profiler, over all its nodes.
 * They may belong to the job before a live refresh for a moment (see
 * smprof_step_stats_get_job()).
 *
 * Returns: (transfer none) (nullable): the statistics, %NULL until computed
 */
SmprofStepStats *
smprof_session_get_job_step_stats (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->job_step_stats;
}

/**
 * smprof_session_get_finding_outliers:
 * @self: a session
 *
 * Returns: whether the job's per-step statistics are being computed
 */
gboolean
smprof_session_get_finding_outliers (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  return self->job_steps_cancellable != NULL;
}

double
smprof_session_get_outlier_threshold (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), SMPROF_STEP_OUTLIER_THRESHOLD);

  return self->outlier_threshold;
}

/**
 * smprof_session_set_outlier_threshold:
 * @self: a session
 * @threshold: the threshold of the outlier and straggler rule
 *   (#SmprofStepRule), %SMPROF_STEP_OUTLIER_THRESHOLD by default
 *
 * Flags the steps again against @threshold from the scores already known:
 * #SmprofSession:job-step-stats and #SmprofSession:step-stats change at once,
 * without reading or summing anything.
 */
void
smprof_session_set_outlier_threshold (SmprofSession *self,
                                      double         threshold)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (threshold >= 0);

  if (self->outlier_threshold == threshold)
    return;

  self->outlier_threshold = threshold;
  _smprof_session_notify (self, PROP_OUTLIER_THRESHOLD);

  if (self->step_stats != NULL)
    set_step_stats (self, reflag (self, smprof_step_stats_ref (self->step_stats)));
  if (self->job_step_stats != NULL)
    set_job_step_stats (self, reflag (self, smprof_step_stats_ref (self->job_step_stats)));
}

void
_smprof_session_steps_dispose (SmprofSession *self)
{
  if (self->steps_cancellable != NULL)
    g_cancellable_cancel (self->steps_cancellable);
  g_clear_object (&self->steps_cancellable);
  self->steps_generation = 0;
  /* They hold the job, and their series take long to free. */
  smprof_release_in_background (g_steal_pointer (&self->step_stats), (GDestroyNotify) smprof_step_stats_unref);

  if (self->job_steps_cancellable != NULL)
    g_cancellable_cancel (self->job_steps_cancellable);
  g_clear_object (&self->job_steps_cancellable);
  self->job_steps_generation++;
  smprof_release_in_background (g_steal_pointer (&self->job_step_stats), (GDestroyNotify) smprof_step_stats_unref);
}
