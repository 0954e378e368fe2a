/* smprof-job-open.c: opening a job, and opening it again as it grows
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The one way a viewer opens a job, first and on each live refresh. A
 * refresh lists the source anew and builds a new job, which takes over the
 * stats its predecessor read for the files that did not change (shared,
 * not copied: a refresh holds one copy of the job's stats), and reads again
 * at once what its predecessor read that changed or could not be read: a
 * file half-written at the last look counts as soon as it is whole. */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-job-private.h"

/* The previous job's record of each stats file, by path. */
static GHashTable *
index_by_path (SmprofJob *job)
{
  GHashTable *by_path = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      GPtrArray *records = smprof_job_get_records (job, p);

      for (guint i = 0; i < records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (records, i);

          g_hash_table_insert (by_path, record->path, record);
        }
    }

  return by_path;
}

/* Whether the listing shows @record's file as it was when @before was listed:
 * a source that cannot tell (version 0) never says so. */
static gboolean
same_file (const SmprofRecord *record,
           const SmprofRecord *before)
{
  return record->size == before->size && record->version == before->version && record->version != 0;
}

/* Gives @job's records the stats @previous read of the same unchanged files,
 * and collects in @reread those @previous read (or failed to read) whose
 * file changed or could not be read: they are read again now. */
static SmprofJobChanges
take_over (SmprofJob *job,
           SmprofJob *previous,
           GPtrArray *reread)
{
  g_autoptr(GHashTable) before = index_by_path (previous);
  SmprofJobChanges changes = SMPROF_JOB_CHANGED_NOTHING;
  guint n_matched = 0;

  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      GPtrArray *records = smprof_job_get_records (job, p);

      for (guint i = 0; i < records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (records, i);
          SmprofRecord *old = g_hash_table_lookup (before, record->path);
          g_autoptr(SmprofRecordStats) stats = NULL;

          if (old == NULL || old->profiler != record->profiler)
            {
              changes |= SMPROF_JOB_CHANGED_INTERVALS;
              continue;
            }

          n_matched++;
          stats = _smprof_record_dup_stats (old);

          if (!same_file (record, old))
            {
              changes |= SMPROF_JOB_CHANGED_INTERVALS;
              if (stats != NULL || g_atomic_int_get (&old->failed))
                g_ptr_array_add (reread, record);
            }
          else if (stats != NULL)
            _smprof_record_publish_stats (record, g_steal_pointer (&stats));
          else if (g_atomic_int_get (&old->failed))
            /* at least on each refresh: it may have been read half-written */
            g_ptr_array_add (reread, record);
        }
    }

  if (n_matched != g_hash_table_size (before))
    changes |= SMPROF_JOB_CHANGED_INTERVALS;

  return changes;
}

/* Whether @record now reads as the record of @previous with its path did. */
static gboolean
reads_as_before (SmprofRecord *record,
                 GHashTable   *before)
{
  SmprofRecord *old = g_hash_table_lookup (before, record->path);
  g_autoptr(SmprofRecordStats) stats = old != NULL ? _smprof_record_dup_stats (old) : NULL;

  /* a file that still cannot be read changes nothing; one read again after
   * it changed, or that reads now, does */
  return stats == NULL && record->failed && old != NULL && g_atomic_int_get (&old->failed);
}

static gboolean
same_problems (SmprofJob *a,
               SmprofJob *b)
{
  g_autoptr(GPtrArray) pa = smprof_job_dup_problems (a);
  g_autoptr(GPtrArray) pb = smprof_job_dup_problems (b);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (pa->len != pb->len)
    return FALSE;

  /* the same set: workers report in no fixed order */
  for (guint i = 0; i < pa->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (pa, i);

      g_hash_table_add (seen, g_strconcat (problem->path, "\n", problem->message, NULL));
    }
  for (guint i = 0; i < pb->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (pb, i);
      g_autofree char *key = g_strconcat (problem->path, "\n", problem->message, NULL);

      if (!g_hash_table_contains (seen, key))
        return FALSE;
    }

  return TRUE;
}

static gboolean
same_events (GArray *a,
             GArray *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  if (a->len != b->len)
    return FALSE;

  for (guint i = 0; i < a->len; i++)
    {
      const SmprofStepEvent *x = &g_array_index (a, SmprofStepEvent, i);
      const SmprofStepEvent *y = &g_array_index (b, SmprofStepEvent, i);

      if (x->mode != y->mode || x->step != y->step || x->start_us != y->start_us || x->end_us != y->end_us)
        return FALSE;
    }

  return TRUE;
}

static gboolean
same_steps (SmprofJob *a,
            SmprofJob *b)
{
  g_auto(GStrv) nodes_a = NULL;
  g_auto(GStrv) nodes_b = NULL;

  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      g_strfreev (nodes_a);
      g_strfreev (nodes_b);
      nodes_a = smprof_job_dup_node_ids (a, p);
      nodes_b = smprof_job_dup_node_ids (b, p);
      for (guint i = 0; nodes_b[i] != NULL; i++)
        if (!same_events (smprof_job_get_step_events (a, nodes_b[i]), smprof_job_get_step_events (b, nodes_b[i])))
          return FALSE;
    }

  return TRUE;
}

/**
 * smprof_job_open:
 * @source: where the job's files are
 * @previous: (nullable): the same job as opened before, for a live refresh
 * @changes: (out) (optional): with @previous, what differs from it
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Opens a job as a viewer shows it: lists @source and builds the index
 * (smprof_job_load()), then reads the framework timelines' steps
 * (smprof_job_load_step_events()). Stats files are read later, for what a
 * selection needs.
 *
 * With @previous (a live refresh; @source is its source), the source is
 * listed as it is now, bypassing a kept listing, and the new job shares
 * @previous's function keys and the stats it read of every file whose size
 * and version (SmprofListingEntry) did not change. Files @previous read that
 * changed, and files it could not read, are read now: a file that was
 * half-written or unreachable then, and is whole now, counts.
 *
 * A refresh whose listing the source says is incomplete (a request that
 * failed, SmprofListing.incomplete) fails: the job as it was stands.
 *
 * Call it from a worker thread; @previous may be in use on others.
 *
 * Returns: (transfer full) (nullable): the job, or %NULL if @source cannot
 *   be listed at all
 */
SmprofJob *
smprof_job_open (SmprofSource      *source,
                 SmprofJob         *previous,
                 SmprofJobChanges  *changes,
                 GCancellable      *cancellable,
                 GError           **error)
{
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(SmprofListing) listing = smprof_listing_new ();
  g_autoptr(GPtrArray) reread = g_ptr_array_new ();
  SmprofJobChanges found = SMPROF_JOB_CHANGED_NOTHING;

  g_return_val_if_fail (SMPROF_IS_SOURCE (source), NULL);
  g_return_val_if_fail (previous == NULL || SMPROF_IS_JOB (previous), NULL);
  g_return_val_if_fail (previous == NULL || smprof_job_get_source (previous) == source, NULL);

  if (changes != NULL)
    *changes = SMPROF_JOB_CHANGED_NOTHING;

  job = smprof_job_new (source);
  if (previous != NULL)
    {
      _smprof_job_share_keys (job, previous);
      /* What a refresh reads again goes to the same parsed index. */
      smprof_job_set_index_cache (job, smprof_job_get_index_cache (previous));
    }

  /* The index reads nothing but the stats files from a folder that has one. */
  SmprofListingOptions options = { .stats_only = TRUE, .fresh = previous != NULL };

  if (!smprof_source_list (source, &options, listing, cancellable, error))
    return NULL;

  /* A refresh that could list only part of the job (S3 failed a request)
   * would show the job shrunk until the next one: it fails instead, and
   * the job as it was stands. */
  if (previous != NULL && listing->incomplete != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("a part of the job could not be listed (%s)"),
                   listing->incomplete);
      return NULL;
    }

  _smprof_job_index_listing (job, listing);

  if (!smprof_job_load_step_events (job, cancellable, error))
    return NULL;

  if (previous == NULL)
    return g_steal_pointer (&job);

  found = take_over (job, previous, reread);

  if (reread->len > 0)
    {
      g_autoptr(GHashTable) before = index_by_path (previous);

      if (!smprof_job_load_stats (job, reread, cancellable, error))
        return NULL;

      for (guint i = 0; i < reread->len; i++)
        if (!reads_as_before (g_ptr_array_index (reread, i), before))
          found |= SMPROF_JOB_CHANGED_STATS;
    }

  if (!same_problems (job, previous))
    found |= SMPROF_JOB_CHANGED_PROBLEMS;
  /* steps a caller never read (smprof_job_load_step_events()) cannot differ */
  if (previous->step_events != NULL && (!same_steps (job, previous) || !same_steps (previous, job)))
    found |= SMPROF_JOB_CHANGED_STEPS;

  if (changes != NULL)
    *changes = found;

  return g_steal_pointer (&job);
}
