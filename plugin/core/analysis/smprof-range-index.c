/* smprof-range-index.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The range index as an object: its type and finalization, its constructors
 * (the work is in smprof-range-index-build.c, queries in
 * smprof-range-index-query.c) and what it tells about itself. */

#include "config.h"

#include "smprof-background.h"
#include "smprof-range-index-private.h"

/* A column seen in at most this many of a node's intervals is summed from
 * its occurrences instead of being carried through every checkpoint. In real
 * jobs these are most columns (the initialization interval's thousands of
 * functions) but few occurrences. */
#define COLD_MAX_OCCURRENCES 4

G_DEFINE_FINAL_TYPE (SmprofRangeIndex, smprof_range_index, G_TYPE_OBJECT)

static void
view_clear (View *view)
{
  g_clear_pointer (&view->order, g_free);
  g_clear_pointer (&view->sums, g_free);
  g_clear_pointer (&view->seen, g_free);
  g_clear_pointer (&view->cold, g_array_unref);
}

static void
node_clear (Node *node)
{
  g_clear_pointer (&node->records, g_ptr_array_unref);
  g_clear_pointer (&node->starts, g_free);
  g_clear_pointer (&node->ends, g_free);
  g_clear_pointer (&node->func_index, g_free);
  g_clear_pointer (&node->func_column, g_free);
  g_clear_pointer (&node->edge_first, g_free);
  g_clear_pointer (&node->edge_caller, g_free);
  g_clear_pointer (&node->edge_column, g_free);
  g_clear_pointer (&node->global, g_free);
  g_clear_pointer (&node->func_global, g_free);
  g_clear_pointer (&node->edge_global, g_free);
  g_clear_pointer (&node->funcs, g_array_unref);
  g_clear_pointer (&node->edges, g_array_unref);
  view_clear (&node->by_start);
  view_clear (&node->by_end);
}

static void
smprof_range_index_finalize (GObject *object)
{
  SmprofRangeIndex *self = SMPROF_RANGE_INDEX (object);

  for (guint i = 0; i < self->n_nodes; i++)
    node_clear (&self->nodes[i]);
  g_clear_pointer (&self->nodes, g_free);
  g_clear_pointer (&self->gfunc_func, g_free);
  g_clear_pointer (&self->gfunc_edges_first, g_free);
  g_clear_pointer (&self->gfunc_edges, g_free);
  g_clear_pointer (&self->gedge_caller, g_free);
  g_clear_pointer (&self->gedge_legacy, g_free);
  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_pointer (&self->record_node, g_free);
  g_clear_pointer (&self->record_position, g_free);
  g_clear_pointer (&self->scratch, _smprof_range_index_scratch_free);
  g_clear_object (&self->job);

  G_OBJECT_CLASS (smprof_range_index_parent_class)->finalize (object);
}

static void
smprof_range_index_class_init (SmprofRangeIndexClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_range_index_finalize;
}

static void
smprof_range_index_init (SmprofRangeIndex *self)
{
}

SmprofRangeIndex *
smprof_range_index_new (SmprofJob           *job,
                        SmprofProfiler       profiler,
                        const char * const  *node_ids,
                        GCancellable        *cancellable,
                        GError             **error)
{
  return _smprof_range_index_new_tuned (job, profiler, node_ids, 0, COLD_MAX_OCCURRENCES, cancellable, error);
}

typedef struct
{
  SmprofProfiler   profiler;
  char           **node_ids;
} NewData;

static void
new_data_free (gpointer data)
{
  NewData *new_data = data;

  g_strfreev (new_data->node_ids);
  g_free (new_data);
}

static void
new_in_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  NewData *data = task_data;
  GError *error = NULL;
  SmprofRangeIndex *index;

  index = smprof_range_index_new (source_object, data->profiler,
                                  (const char * const *) data->node_ids, cancellable, &error);
  if (index != NULL)
    g_task_return_pointer (task, index, g_object_unref);
  else
    g_task_return_error (task, error);
}

void
smprof_range_index_new_async (SmprofJob           *job,
                              SmprofProfiler       profiler,
                              const char * const  *node_ids,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  NewData *data;

  g_return_if_fail (SMPROF_IS_JOB (job));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (NewData, 1);
  data->profiler = profiler;
  data->node_ids = g_strdupv ((char **) node_ids);

  task = g_task_new (job, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_range_index_new_async);
  g_task_set_task_data (task, data, new_data_free);
  smprof_task_run_in_background (task, new_in_thread);
}

SmprofRangeIndex *
smprof_range_index_new_finish (SmprofJob     *job,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);
  g_return_val_if_fail (g_task_is_valid (result, job), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

SmprofJob *
smprof_range_index_get_job (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), NULL);

  return self->job;
}

SmprofProfiler
smprof_range_index_get_profiler (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

const char * const *
smprof_range_index_get_node_ids (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), NULL);

  return (const char * const *) self->node_ids;
}

gboolean
smprof_range_index_get_time_bounds (SmprofRangeIndex *self,
                                    double           *start_us,
                                    double           *end_us)
{
  gboolean any;

  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), FALSE);

  any = self->start_us <= self->end_us;
  if (start_us != NULL)
    *start_us = any ? self->start_us : 0;
  if (end_us != NULL)
    *end_us = any ? self->end_us : 0;

  return any;
}

gsize
smprof_range_index_get_memory_size (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), 0);

  return self->memory_size;
}
