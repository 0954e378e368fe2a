/* smprof-job-pevents.c: every step of every node, from the framework timeline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_job_load() lists the `framework/pevents/<hour>/<ts>_<node>_pythontimeline.json`
 * files next to the stats; they are read here, on worker threads, only when
 * asked: the index never waits for them, and a job without them (or with a
 * damaged one) loads as before.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-job-private.h"
#include "smprof-parallel.h"

typedef struct
{
  SmprofJob    *job;
  GArray      **results;   /* one per timeline path, set by the workers */
  GCancellable *cancellable;
} TimelineBatch;

static void
load_timeline (SmprofJob    *self,
               const char   *path,
               GArray      **result,
               GCancellable *cancellable)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = smprof_source_load (self->source, path, cancellable, &error);
  if (bytes != NULL)
    *result = smprof_pevents_parse (bytes, path, &error);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *message = NULL;

      /* The format errors name the file already; I/O errors do not. */
      if (error->domain == SMPROF_FORMAT_ERROR)
        message = g_strdup_printf (_("damaged framework timeline, its steps are not shown: %s"), error->message);
      else
        message = g_strdup_printf (_("cannot read the framework timeline %s, its steps are not shown: %s"),
                                   path, error->message);
      _smprof_job_add_problem (self, path, message);
    }
}

static void
load_timeline_at (guint    index,
                  gpointer data)
{
  TimelineBatch *batch = data;

  load_timeline (batch->job, g_ptr_array_index (batch->job->timeline_paths, index),
                 &batch->results[index], batch->cancellable);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

void
_smprof_job_clear_step_events (SmprofJob *self)
{
  g_clear_pointer (&self->step_events, g_hash_table_unref);
  g_clear_pointer (&self->timeline_paths, g_ptr_array_unref);
}

/**
 * smprof_job_load_step_events:
 * @self: a job, loaded (smprof_job_load())
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Reads the framework timeline files the listing found, in parallel, and
 * merges each node's files (one per hour) into its steps, sorted. A file that
 * cannot be read or is damaged adds a problem naming it and is skipped; only
 * cancellation is an error. Call it once, before smprof_job_get_step_events()
 * is used from another thread.
 *
 * Returns: %FALSE if cancelled
 */
gboolean
smprof_job_load_step_events (SmprofJob     *self,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autoptr(GHashTable) step_events = NULL;
  GPtrArray *paths;
  TimelineBatch batch = { self, NULL, cancellable };

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);

  paths = self->timeline_paths;
  step_events = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);

  /* A job listed again lists its timelines again: each is read once. */
  g_ptr_array_sort (paths, compare_paths);
  for (guint i = 1; i < paths->len;)
    if (strcmp (g_ptr_array_index (paths, i - 1), g_ptr_array_index (paths, i)) == 0)
      g_ptr_array_remove_index (paths, i);
    else
      i++;

  if (paths->len > 0)
    {
      /* not g_ptr_array_copy(): the copy would free the paths too */
      g_autoptr(GPtrArray) list = g_ptr_array_sized_new (paths->len + 1);

      for (guint i = 0; i < paths->len; i++)
        g_ptr_array_add (list, g_ptr_array_index (paths, i));
      g_ptr_array_add (list, NULL);
      if (!smprof_source_prefetch (self->source, (const char * const *) list->pdata, cancellable, error))
        return FALSE;
    }

  batch.results = g_new0 (GArray *, MAX (1, paths->len));
  smprof_parallel_for ("smprof-pevents", paths->len, g_get_num_processors (), load_timeline_at, &batch, cancellable);

  /* Merged in the listing's order, then sorted: the result does not depend
   * on which worker finished first. */
  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GArray) events = g_steal_pointer (&batch.results[i]);
      g_autofree char *id = NULL;
      const char *node_id;
      GArray *node_events;

      if (events == NULL)
        continue;

      id = smprof_pevents_dup_node_id (g_ptr_array_index (paths, i));
      node_id = g_string_chunk_insert_const (self->names, id);
      node_events = g_hash_table_lookup (step_events, node_id);
      if (node_events == NULL)
        {
          node_events = g_array_new (FALSE, FALSE, sizeof (SmprofStepEvent));
          g_hash_table_insert (step_events, (gpointer) node_id, node_events);
        }

      for (guint e = 0; e < events->len; e++)
        g_array_index (events, SmprofStepEvent, e).node_id = node_id;
      g_array_append_vals (node_events, events->data, events->len);
    }
  g_free (batch.results);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, step_events);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      smprof_pevents_sort (value);
  }

  g_clear_pointer (&self->step_events, g_hash_table_unref);
  self->step_events = g_steal_pointer (&step_events);

  return TRUE;
}

/**
 * smprof_job_get_step_events:
 * @self: a job
 * @node_id: a node id
 *
 * Returns: (transfer none) (nullable) (element-type SmprofStepEvent): every
 *   step the framework timeline recorded for @node_id, sorted by start, or
 *   %NULL if there is none (no timeline, or not loaded)
 */
GArray *
smprof_job_get_step_events (SmprofJob  *self,
                            const char *node_id)
{
  GArray *events;

  g_return_val_if_fail (SMPROF_IS_JOB (self), NULL);
  g_return_val_if_fail (node_id != NULL, NULL);

  if (self->step_events == NULL)
    return NULL;

  events = g_hash_table_lookup (self->step_events, node_id);

  return events != NULL && events->len > 0 ? events : NULL;
}
