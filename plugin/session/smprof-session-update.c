/* smprof-session-update.c: the session's update: select, read and aggregate
 * on a worker thread, build the range index, keep the newest answer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-background.h"
#include "smprof-session-private.h"

/* Reading stats files is the job's business (smprof_job_load_stats() keeps
 * concurrent readers apart, per record): the workers here take no lock, so
 * a page's drag never waits for another page's download. */

/* ------------------------------------------------------------------------ */
/* The aggregate, on a worker                                               */

typedef struct
{
  SmprofJob          *job;
  SmprofProfiler      profiler;
  char              **node_ids;
  SmprofPreset        preset;
  SmprofSelection     selection;
  GPtrArray          *explicit_records;
  SmprofRangeIndex   *range_index;      /* set when the index sums this range */
  char              **range_node_ids;
  char               *description;
  char               *slug;
  guint               generation;
  gboolean            report_selected;  /* for the reading progress */
} Request;

typedef struct
{
  GPtrArray     *selected;
  char         **selected_node_ids;
  char          *selected_steps;
  SmprofProfile *profile;
  gboolean       from_index;
} Answer;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_clear_object (&request->job);
  g_clear_pointer (&request->node_ids, g_strfreev);
  g_clear_pointer (&request->explicit_records, g_ptr_array_unref);
  g_clear_object (&request->range_index);
  g_clear_pointer (&request->range_node_ids, g_strfreev);
  g_clear_pointer (&request->description, g_free);
  g_clear_pointer (&request->slug, g_free);
  g_free (request);
}

static void
answer_free (gpointer data)
{
  Answer *answer = data;

  g_clear_pointer (&answer->selected, g_ptr_array_unref);
  g_clear_pointer (&answer->selected_node_ids, g_strfreev);
  g_clear_pointer (&answer->selected_steps, g_free);
  g_clear_object (&answer->profile);
  g_free (answer);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Answer, answer_free)

/* The records a worker picked, on their way to the main thread, where the
 * reading progress counts their files. */
typedef struct
{
  GWeakRef   session;
  guint      generation;
  GPtrArray *records;
} Selected;

static void start_reading_progress (SmprofSession *self,
                                    GPtrArray     *records);

static void
selected_free (gpointer data)
{
  Selected *selected = data;

  g_weak_ref_clear (&selected->session);
  g_clear_pointer (&selected->records, g_ptr_array_unref);
  g_free (selected);
}

static gboolean
selected_cb (gpointer data)
{
  Selected *selected = data;
  g_autoptr(SmprofSession) self = g_weak_ref_get (&selected->session);

  /* Neither a newer selection nor this one's answer came first: while the
   * update runs, it holds its cancellable. */
  if (self != NULL && selected->generation == self->generation && self->cancellable != NULL)
    start_reading_progress (self, selected->records);

  return G_SOURCE_REMOVE;
}

static void
report_selected (GTask     *task,
                 Request   *request,
                 GPtrArray *records)
{
  Selected *selected = g_new0 (Selected, 1);

  g_weak_ref_init (&selected->session, g_task_get_source_object (task));
  selected->generation = request->generation;
  selected->records = g_ptr_array_ref (records);
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT, selected_cb, selected, selected_free);
}

static void
aggregate_in_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  Request *request = task_data;
  g_autoptr(Answer) answer = g_new0 (Answer, 1);
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  answer->selected = _smprof_session_select_for (request->job, request->profiler,
                                                 (const char * const *) request->node_ids,
                                                 request->preset, &request->selection, request->explicit_records);
  if (request->report_selected)
    report_selected (task, request, answer->selected);
  answer->selected_node_ids = smprof_records_dup_node_ids (answer->selected);
  answer->selected_steps = smprof_session_describe_steps (answer->selected);

  /* A dragged range: the index has every stats file in memory already. */
  if (request->range_index != NULL && answer->selected->len > 0)
    {
      answer->profile = smprof_range_index_aggregate (request->range_index,
                                                      (const char * const *) request->range_node_ids,
                                                      request->selection.start_us,
                                                      request->selection.end_us);
      answer->from_index = TRUE;
      g_task_return_pointer (task, g_steal_pointer (&answer), answer_free);
      return;
    }

  if (answer->selected->len > 0)
    {
      g_auto(GStrv) node_ids = NULL;

      if (!smprof_job_load_stats (request->job, answer->selected, cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }

      if (request->explicit_records != NULL)
        node_ids = g_strdupv (answer->selected_node_ids);
      else
        node_ids = g_strdupv (request->node_ids);

      answer->profile = smprof_profile_new (request->job, request->profiler,
                                            (const char * const *) node_ids, answer->selected);
    }

  g_task_return_pointer (task, g_steal_pointer (&answer), answer_free);
}

static void
aggregate_async (SmprofSession       *self,
                 Request             *request,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, aggregate_async);
  g_task_set_task_data (task, request, request_free);
  smprof_task_run_awaited (task, aggregate_in_thread);
}

static Answer *
aggregate_finish (SmprofSession  *self,
                  GAsyncResult   *result,
                  GError        **error)
{
  g_assert (g_task_is_valid (result, self));

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* The range index                                                          */

static void
build_index_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SmprofSession) self = user_data;
  g_autoptr(SmprofRangeIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  index = smprof_range_index_new_finish (SMPROF_JOB (object), result, &error);
  if (index == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No range index, dragged ranges aggregate as any selection: %s", error->message);
      return;
    }

  /* Built for a job a refresh has replaced since. */
  if (smprof_range_index_get_job (index) != self->job)
    return;

  g_clear_object (&self->index_cancellable);
  if (g_set_object (&self->range_index, index))
    _smprof_session_notify (self, PROP_RANGE_INDEX);
}

/* Built once, on a worker, after the first aggregate has read the stats it
 * needs (the job reads no file twice). */
static void
maybe_build_index (SmprofSession *self)
{
  if (self->index_started || !smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE))
    return;

  self->index_started = TRUE;
  self->index_cancellable = g_cancellable_new ();
  smprof_range_index_new_async (self->job, SMPROF_PROFILER_CPROFILE, NULL, self->index_cancellable,
                                build_index_cb, g_object_ref (self));
}

void
_smprof_session_forget_range_index (SmprofSession *self)
{
  if (self->index_cancellable != NULL)
    g_cancellable_cancel (self->index_cancellable);
  g_clear_object (&self->index_cancellable);
  self->index_started = FALSE;
  if (self->range_index != NULL)
    {
      g_clear_object (&self->range_index);
      _smprof_session_notify (self, PROP_RANGE_INDEX);
    }
}

/* For the tests: dragged ranges take the general path (select, read,
 * aggregate) while @use is %FALSE, so both can be timed. */
void
_smprof_session_set_use_range_index (SmprofSession *self,
                                     gboolean       use)
{
  self->index_unused = !use;
}

/**
 * smprof_session_get_range_index:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the job's range index for cProfile,
 *   once built (after the first cProfile answer)
 */
SmprofRangeIndex *
smprof_session_get_range_index (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->range_index;
}

/* ------------------------------------------------------------------------ */
/* Waiting for the answer                                                   */

static void
complete_waiters (SmprofSession *self,
                  const GError  *error)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->waiters);

  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < waiters->len; i++)
    {
      GTask *task = g_ptr_array_index (waiters, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else if (self->profile != NULL)
        g_task_return_pointer (task, g_object_ref (self->profile), g_object_unref);
      else
        g_task_return_pointer (task, NULL, NULL);
    }
}

/**
 * smprof_session_wait_async:
 * @self: a session
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called once the session holds the answer to
 *   its current selection
 * @user_data: for @callback
 *
 * Waits for the aggregate of the selection as it is now, or as it becomes
 * while the answer is computed (a stale answer never completes the wait).
 * Completes at once when the session is not busy.
 */
void
smprof_session_wait_async (SmprofSession       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_session_wait_async);
  g_task_set_check_cancellable (task, TRUE);

  if (!self->busy)
    {
      g_task_return_pointer (task, self->profile != NULL ? g_object_ref (self->profile) : NULL, g_object_unref);
      return;
    }

  g_ptr_array_add (self->waiters, g_steal_pointer (&task));
}

/**
 * smprof_session_wait_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: (transfer full) (nullable): the profile of the selection, %NULL
 *   when it selects nothing or on error (then @error is set)
 */
SmprofProfile *
smprof_session_wait_finish (SmprofSession  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Reading progress                                                         */

/* Often enough for a line that moves, seldom enough to cost nothing: a
 * count over the selection's records, without a lock. */
#define READING_POLL_MS 200

static void
set_reading_counts (SmprofSession *self,
                    guint          to_read,
                    guint          read)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (self->files_to_read != to_read)
    {
      self->files_to_read = to_read;
      _smprof_session_notify (self, PROP_FILES_TO_READ);
    }
  if (self->files_read != read)
    {
      self->files_read = read;
      _smprof_session_notify (self, PROP_FILES_READ);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

static gboolean
poll_reading (gpointer data)
{
  SmprofSession *self = data;

  set_reading_counts (self, self->files_to_read,
                      smprof_job_count_read_stats (self->reading_job, self->reading_records));

  return G_SOURCE_CONTINUE;
}

static void
stop_reading_progress (SmprofSession *self)
{
  g_clear_handle_id (&self->reading_source, g_source_remove);
  g_clear_pointer (&self->reading_records, g_ptr_array_unref);
  g_clear_object (&self->reading_job);
  set_reading_counts (self, 0, 0);
}

/* Counts the selection's files while the update reads them; nothing when
 * they are read already (or the range index sums the range). */
static void
start_reading_progress (SmprofSession *self,
                        GPtrArray     *records)
{
  guint read = smprof_job_count_read_stats (self->job, records);

  stop_reading_progress (self);
  if (read == records->len)
    return;

  self->reading_job = g_object_ref (self->job);
  self->reading_records = g_ptr_array_ref (records);
  self->reading_source = g_timeout_add (READING_POLL_MS, poll_reading, self);
  set_reading_counts (self, records->len, read);
}

/**
 * smprof_session_get_files_to_read:
 * @self: a session
 *
 * Returns: how many stats files the selection being computed has (read or
 *   not), 0 when it needed none that were not read already
 */
guint
smprof_session_get_files_to_read (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), 0);

  return self->files_to_read;
}

/**
 * smprof_session_get_files_read:
 * @self: a session
 *
 * Returns: how many of smprof_session_get_files_to_read() are read (or
 *   could not be read) by now
 */
guint
smprof_session_get_files_read (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), 0);

  return self->files_read;
}

/* ------------------------------------------------------------------------ */
/* Keeping the newest answer                                                */

static void
aggregate_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  SmprofSession *self = SMPROF_SESSION (object);
  Request *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(Answer) answer = NULL;
  g_autoptr(GError) error = NULL;

  answer = aggregate_finish (self, result, &error);

  /* A newer update replaced this one: drop it. */
  if (request->generation != self->generation)
    return;

  g_clear_object (&self->cancellable);
  stop_reading_progress (self);

  if (answer == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Could not aggregate the selection: %s"), error->message);

          _smprof_session_emit_error (self, message);
        }
      _smprof_session_set_busy (self, FALSE);
      complete_waiters (self, error);
      return;
    }

  g_clear_pointer (&self->selected_records, g_ptr_array_unref);
  self->selected_records = g_steal_pointer (&answer->selected);
  g_strfreev (self->selected_node_ids);
  self->selected_node_ids = g_steal_pointer (&answer->selected_node_ids);
  g_free (self->selected_steps);
  self->selected_steps = g_steal_pointer (&answer->selected_steps);
  _smprof_session_replace_job (&self->answer_job, request->job);
  g_set_object (&self->profile, answer->profile);
  self->from_index = answer->from_index;
  g_free (self->description);
  self->description = g_steal_pointer (&request->description);
  g_free (self->slug);
  self->slug = g_steal_pointer (&request->slug);

  /* the selection's time per step: blank now, on a worker next */
  _smprof_session_steps_update (self);

  _smprof_session_set_busy (self, FALSE);
  _smprof_session_notify (self, PROP_DESCRIPTION);
  /* the views follow the view profile: it is ready when the profile is
   * notified */
  _smprof_session_update_view_profile (self);
  _smprof_session_notify (self, PROP_PROFILE);
  _smprof_session_compare_answer (self);
  complete_waiters (self, NULL);

  /* The job's stats for this selection are read now: index the rest. */
  if (self->profiler == SMPROF_PROFILER_CPROFILE)
    maybe_build_index (self);
}

/* Whether the range index can sum this selection: a time range, on all the
 * index's nodes or some of them. */
static gboolean
can_use_index (SmprofSession *self)
{
  return self->range_index != NULL && !self->index_unused &&
         smprof_range_index_get_job (self->range_index) == self->job &&
         self->profiler == SMPROF_PROFILER_CPROFILE &&
         self->preset == SMPROF_PRESET_NONE &&
         self->has_query &&
         self->selection.kind == SMPROF_SELECT_OVERLAP;
}

static gboolean
start_update (gpointer data)
{
  SmprofSession *self = data;
  g_autoptr(GPtrArray) records = NULL;
  Request *request;

  self->update_source = 0;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->generation++;

  request = g_new0 (Request, 1);
  request->job = g_object_ref (self->job);
  request->profiler = self->profiler;
  request->node_ids = g_strdupv ((char **) smprof_session_get_node_ids (self));
  request->preset = self->preset;
  request->selection = self->selection;
  if (self->explicit_records != NULL)
    request->explicit_records = g_ptr_array_ref (self->explicit_records);
  if (can_use_index (self))
    {
      request->range_index = g_object_ref (self->range_index);
      request->range_node_ids = g_strdupv (self->query_node_ids != NULL
                                           ? self->query_node_ids
                                           : (char **) smprof_session_get_node_ids (self));
    }
  request->generation = self->generation;

  /* Described now, with the selection it describes.  The records are
   * picked here only when a name needs them: the worker picks them anyway,
   * and on a big job a pass over every record is a stall of the drag or the
   * opening that asked.  The reading progress waits for the worker's. */
  if (_smprof_session_names_need_records (self))
    records = _smprof_session_select_for (self->job, self->profiler, smprof_session_get_node_ids (self),
                                          self->preset, &self->selection, self->explicit_records);
  request->description = _smprof_session_dup_description (self, records);
  request->slug = _smprof_session_dup_slug (self, records);

  stop_reading_progress (self);
  if (request->range_index == NULL)
    {
      if (records != NULL)
        start_reading_progress (self, records);
      else
        request->report_selected = TRUE;
    }

  aggregate_async (self, request, self->cancellable, aggregate_cb, NULL);

  return G_SOURCE_REMOVE;
}

/* Many changes in one main-loop turn (a drag, a profiler switch) make one
 * update. The source holds no reference: dispose removes it. */
void
_smprof_session_queue_update (SmprofSession *self)
{
  g_signal_emit (self, _smprof_session_signals[SIGNAL_SELECTION_CHANGED], 0);

  /* A newer selection is on its way: a comparison waits for its answer. */
  if (self->update_source == 0)
    self->update_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, start_update, self, NULL);
  _smprof_session_set_busy (self, TRUE);
}

void
_smprof_session_update_dispose (SmprofSession *self)
{
  g_autoptr(GError) error = NULL;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->update_source, g_source_remove);
  g_clear_handle_id (&self->reading_source, g_source_remove);
  g_clear_pointer (&self->reading_records, g_ptr_array_unref);
  g_clear_object (&self->reading_job);
  self->generation++;
  _smprof_session_forget_range_index (self);

  if (self->waiters != NULL && self->waiters->len > 0)
    {
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "The session went away");
      complete_waiters (self, error);
    }
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
}

/* ------------------------------------------------------------------------ */
/* The answer                                                               */

gboolean
smprof_session_get_busy (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  return self->busy;
}

/**
 * smprof_session_get_profile:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the aggregate of the selection
 */
SmprofProfile *
smprof_session_get_profile (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->profile;
}

/**
 * smprof_session_get_selected_records:
 * @self: a session
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   intervals #SmprofSession:profile aggregates, unreadable ones included,
 *   in record order; %NULL before the first answer
 */
GPtrArray *
smprof_session_get_selected_records (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->selected_records;
}

/**
 * smprof_session_get_selected_node_ids:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the nodes the selected records
 *   cover, in natural order; %NULL before the first answer
 */
const char * const *
smprof_session_get_selected_node_ids (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return (const char * const *) self->selected_node_ids;
}

/**
 * smprof_session_get_selected_steps:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the steps the selected records cover,
 *   as smprof_session_describe_steps() words them; %NULL before the first
 *   answer
 */
const char *
smprof_session_get_selected_steps (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->selected_steps;
}

/**
 * smprof_session_get_description:
 * @self: a session
 *
 * What #SmprofSession:profile aggregates, in words: the preset, the steps,
 * the modes and phases, or the time range ("whole job", "train steps 3
 * (stepstart) – 5 (stepend)", "time … s – … s (1.20 s to 3.40 s after the
 * job's start)"). The exports' subtitles name it, with the job and nodes.
 *
 * Returns: (transfer none) (nullable): the description, %NULL before the
 *   first answer
 */
const char *
smprof_session_get_description (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->description;
}

/**
 * smprof_session_get_slug:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the description, short and safe for
 *   a file name ("steps-3-5", "time-1.200s-3.400s")
 */
const char *
smprof_session_get_slug (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->slug;
}

/**
 * smprof_session_get_from_range_index:
 * @self: a session
 *
 * Returns: whether the range index summed the last answer
 */
gboolean
smprof_session_get_from_range_index (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  return self->from_index;
}
