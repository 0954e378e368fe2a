/* smprof-job-page-aggregate.c: the job page's update: select, read and
 * aggregate on a worker thread, build the range index, show the answer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-aggregate.h"
#include "smprof-job-page-private.h"

/* smprof_job_load_stats() fills records in place, so two aggregates of one
 * job (or an aggregate and the range index) must not read files at the same
 * time; stale ones give way quickly. */
static GMutex aggregate_lock;

/* For the page's other workers that read stats files (per-step statistics,
 * comparisons): hold it while reading. */
GMutex *
_smprof_job_page_get_reading_lock (void)
{
  return &aggregate_lock;
}

/* ------------------------------------------------------------------------ */
/* The page's other workers over a set of records                           */

/**
 * _smprof_job_page_work_new:
 * @self: a job page
 * @records: (element-type SmprofRecord): the intervals to work on (referenced)
 * @generation: what the caller tells a stale answer by
 *
 * Returns: (transfer full): the task data of a worker over @records, for
 *   _smprof_job_page_work_run(); free with _smprof_job_page_work_free()
 */
SmprofJobPageWork *
_smprof_job_page_work_new (SmprofJobPage *self,
                           GPtrArray     *records,
                           guint          generation)
{
  SmprofJobPageWork *work = g_new0 (SmprofJobPageWork, 1);

  work->job = g_object_ref (self->job);
  work->profiler = self->profiler;
  work->records = g_ptr_array_ref (records);
  work->generation = generation;

  return work;
}

void
_smprof_job_page_work_free (gpointer data)
{
  SmprofJobPageWork *work = data;

  g_clear_object (&work->job);
  g_clear_pointer (&work->records, g_ptr_array_unref);
  g_free (work);
}

/**
 * _smprof_job_page_work_run:
 * @task: the worker's task, in its thread
 * @work: its data
 * @cancellable: (nullable): the task's
 * @compute: what to make of the records once their stats are read
 * @result_free: frees what @compute returns
 *
 * Reads the stats of @work's records that no answer read yet (an answer of
 * the range index reads none) and returns @compute's result to @task, all
 * under the reading lock: the records are filled in place.
 */
void
_smprof_job_page_work_run (GTask                 *task,
                           SmprofJobPageWork     *work,
                           GCancellable          *cancellable,
                           SmprofJobPageWorkFunc  compute,
                           GDestroyNotify         result_free)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&aggregate_lock);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) node_ids = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!smprof_job_load_stats (work->job, work->records, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  node_ids = _smprof_job_page_dup_record_node_ids (work->records);
  g_task_return_pointer (task, compute (work, (const char * const *) node_ids), result_free);
}

/* ------------------------------------------------------------------------ */
/* The worker: select, read, aggregate                                      */

typedef struct
{
  SmprofJob           *job;
  SmprofProfiler       profiler;
  char               **node_ids;
  SmprofJobPagePreset  preset;
  SmprofSelection      selection;
  GPtrArray           *explicit_records;
  SmprofRangeIndex    *range_index;      /* set when the index sums this range */
  char               **range_node_ids;
  char                *description;
  char                *slug;
  guint                generation;
} Request;

typedef struct
{
  GPtrArray     *selected;
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
  g_clear_object (&answer->profile);
  g_free (answer);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Answer, answer_free)

static gboolean
is_forward_pass (const SmprofRecord *record)
{
  return record->name.start_phase == SMPROF_PHASE_STEP_START &&
         record->name.end_phase == SMPROF_PHASE_FORWARD_PASS_END;
}

/* The records a selection names; a copy of @explicit_records when set. Cheap
 * enough for the main thread too (one pass over the job's records). */
GPtrArray *
_smprof_job_page_select_for (SmprofJob              *job,
                             SmprofProfiler          profiler,
                             const char * const     *node_ids,
                             SmprofJobPagePreset     preset,
                             const SmprofSelection  *selection,
                             GPtrArray              *explicit_records)
{
  GPtrArray *records = smprof_job_get_records (job, profiler);
  GPtrArray *selected;
  GPtrArray *kept;

  if (explicit_records != NULL)
    return g_ptr_array_copy (explicit_records, NULL, NULL);

  selected = smprof_select (records, node_ids, selection);
  if (preset != SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES && preset != SMPROF_JOB_PAGE_PRESET_REST_OF_STEP)
    return selected;

  kept = g_ptr_array_new ();
  for (guint i = 0; i < selected->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (selected, i);

      if (is_forward_pass (record) == (preset == SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES))
        g_ptr_array_add (kept, record);
    }
  g_ptr_array_unref (selected);

  return kept;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* The nodes a set of records covers, sorted. */
char **
_smprof_job_page_dup_record_node_ids (GPtrArray *records)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (g_hash_table_add (seen, (gpointer) record->node_id))
        g_ptr_array_add (ids, g_strdup (record->node_id));
    }

  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_add (ids, NULL);

  return (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
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
  g_autoptr(GMutexLocker) locker = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  answer->selected = _smprof_job_page_select_for (request->job, request->profiler,
                                                  (const char * const *) request->node_ids,
                                                  request->preset, &request->selection, request->explicit_records);

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

  locker = g_mutex_locker_new (&aggregate_lock);
  if (g_task_return_error_if_cancelled (task))
    return;

  if (answer->selected->len > 0)
    {
      g_auto(GStrv) node_ids = NULL;

      if (!smprof_job_load_stats (request->job, answer->selected, cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }

      if (request->explicit_records != NULL)
        node_ids = _smprof_job_page_dup_record_node_ids (answer->selected);
      else
        node_ids = g_strdupv (request->node_ids);

      answer->profile = smprof_profile_new (request->job, request->profiler,
                                            (const char * const *) node_ids, answer->selected);
    }

  g_task_return_pointer (task, g_steal_pointer (&answer), answer_free);
}

/* The range index: built once, on a worker, after the first aggregate has
 * read the stats it needs (under the same lock, so no file is read twice). */
static void
build_index_in_thread (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  SmprofJob *job = task_data;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&aggregate_lock);
  g_autoptr(GError) error = NULL;
  SmprofRangeIndex *index;

  index = smprof_range_index_new (job, SMPROF_PROFILER_CPROFILE, NULL, cancellable, &error);
  if (index == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, index, g_object_unref);
}

static void
build_index_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  g_autoptr(SmprofRangeIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  index = g_task_propagate_pointer (G_TASK (result), &error);
  if (index == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No range index, dragged ranges aggregate as any selection: %s", error->message);
      return;
    }

  g_clear_object (&self->index_cancellable);
  g_set_object (&self->range_index, index);
}

static void
maybe_build_index (SmprofJobPage *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->index_started || !smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE))
    return;

  self->index_started = TRUE;
  self->index_cancellable = g_cancellable_new ();

  task = g_task_new (self, self->index_cancellable, build_index_cb, g_object_ref (self));
  g_task_set_source_tag (task, maybe_build_index);
  g_task_set_priority (task, G_PRIORITY_LOW);
  g_task_set_task_data (task, g_object_ref (self->job), g_object_unref);
  g_task_run_in_thread (task, build_index_in_thread);
}

/* ------------------------------------------------------------------------ */
/* Showing the answer                                                       */

/* The visible view shows the profile; the others catch up when shown, so a
 * drag costs one view's update on the main thread, not three. */
void
_smprof_job_page_sync_visible_view (SmprofJobPage *self)
{
  GtkWidget *visible = gtk_stack_get_visible_child (self->views_stack);

  if (visible == GTK_WIDGET (self->functions_slot))
    smprof_function_table_set_profile (self->function_table, self->profile);
  else if (visible == GTK_WIDGET (self->call_tree_slot))
    smprof_call_tree_view_set_profile (self->call_tree_view, self->profile);
  else if (visible == GTK_WIDGET (self->flame_graph_slot))
    smprof_flame_graph_view_set_profile (self->flame_graph_view, self->profile);
}

static void
aggregate_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  Request *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(Answer) answer = NULL;
  g_autoptr(GError) error = NULL;

  answer = g_task_propagate_pointer (G_TASK (result), &error);

  /* A newer update replaced this one: drop it. */
  if (request->generation != self->generation)
    return;

  g_clear_object (&self->cancellable);
  _smprof_job_page_set_busy (self, FALSE);

  if (answer == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Could not aggregate the selection: %s"), error->message);

          _smprof_job_page_show_error (self, message);
        }
      return;
    }

  g_clear_pointer (&self->selected_records, g_ptr_array_unref);
  self->selected_records = g_steal_pointer (&answer->selected);
  g_set_object (&self->profile, answer->profile);
  self->profile_from_index = answer->from_index;
  g_free (self->profile_description);
  self->profile_description = g_steal_pointer (&request->description);
  g_free (self->profile_slug);
  self->profile_slug = g_steal_pointer (&request->slug);

  /* the function table's time per step: blank now, on a worker next */
  _smprof_job_page_steps_update (self);
  _smprof_job_page_update_status (self);
  _smprof_job_page_update_export_actions (self);
  _smprof_job_page_sync_visible_view (self);
  g_object_notify (G_OBJECT (self), "profile");

  /* The job's stats for this selection are read now: index the rest. */
  if (self->profiler == SMPROF_PROFILER_CPROFILE)
    maybe_build_index (self);
}

/* Whether the range index can sum this selection: a time range, on all the
 * index's nodes or some of them. */
static gboolean
can_use_index (SmprofJobPage *self)
{
  return self->range_index != NULL &&
         self->profiler == SMPROF_PROFILER_CPROFILE &&
         self->preset == SMPROF_JOB_PAGE_PRESET_NONE &&
         self->has_query &&
         self->selection.kind == SMPROF_SELECT_OVERLAP;
}

gboolean
_smprof_job_page_start_update (gpointer data)
{
  SmprofJobPage *self = data;
  g_autoptr(GTask) task = NULL;
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
  request->node_ids = g_strdupv ((char **) _smprof_job_page_current_node_ids (self));
  request->preset = self->preset;
  request->selection = self->selection;
  if (self->explicit_records != NULL)
    request->explicit_records = g_ptr_array_ref (self->explicit_records);
  if (can_use_index (self))
    {
      request->range_index = g_object_ref (self->range_index);
      request->range_node_ids = g_strdupv (self->query_node_ids != NULL
                                           ? self->query_node_ids
                                           : (char **) _smprof_job_page_current_node_ids (self));
    }
  request->generation = self->generation;

  /* Described now, with the selection it describes. */
  records = _smprof_job_page_select_for (self->job, self->profiler, _smprof_job_page_current_node_ids (self),
                                         self->preset, &self->selection, self->explicit_records);
  request->description = _smprof_job_page_dup_description (self, records);
  request->slug = _smprof_job_page_dup_slug (self, records);

  task = g_task_new (self, self->cancellable, aggregate_cb, g_object_ref (self));
  g_task_set_source_tag (task, _smprof_job_page_start_update);
  g_task_set_task_data (task, request, request_free);
  g_task_run_in_thread (task, aggregate_in_thread);

  return G_SOURCE_REMOVE;
}
