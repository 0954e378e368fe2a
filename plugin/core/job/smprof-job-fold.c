/* smprof-job-fold.c: summing records as they are read
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-job-private.h"
#include "smprof-local-source.h"

/* A query that needs only the total of its records (the command line's
 * `smprof stats`) need not keep every interval's arrays until the last file
 * is parsed: on the large corpus that held 82 MB for one node and 473 MB for
 * all eight, and the sum, which must follow the record order, waited for
 * the last parse on one core. Here the records are read on their threads as
 * smprof_job_load_stats() reads them, while the caller sums each in turn as
 * soon as it is there, and, when nothing else needs them, drops it. */

typedef struct
{
  SmprofJob    *job;
  GPtrArray    *records;
  gboolean      drop;         /* read without a claim, and dropped once summed */
  GCancellable *cancellable;

  /* under the job's fold_lock */
  gboolean      done;
  gboolean      ok;
  GError       *error;
} FoldReader;

static gpointer
fold_reader_thread (gpointer data)
{
  FoldReader *reader = data;
  SmprofJob *job = reader->job;
  GError *error = NULL;
  gboolean ok;

  if (reader->drop)
    {
      g_autoptr(GPtrArray) pending = g_ptr_array_sized_new (reader->records->len);
      g_autoptr(GPtrArray) parsed = g_ptr_array_new ();

      for (guint i = 0; i < reader->records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (reader->records, i);

          if (record->stats == NULL && !record->failed)
            g_ptr_array_add (pending, record);
        }
      ok = pending->len == 0 || _smprof_job_read_claimed (job, pending, parsed, reader->cancellable, &error);
    }
  else
    ok = smprof_job_load_stats (job, reader->records, reader->cancellable, &error);

  g_mutex_lock (&job->fold_lock);
  reader->ok = ok;
  reader->error = error;
  reader->done = TRUE;
  g_cond_broadcast (&job->fold_cond);
  g_mutex_unlock (&job->fold_lock);

  return NULL;
}

static gboolean
is_settled (SmprofRecord *record)
{
  return g_atomic_pointer_get (&record->stats) != NULL || g_atomic_int_get (&record->failed);
}

/* How many records ahead a folder that caught up with the readers waits. */
#define FOLD_AHEAD 64

/* Waits until @record is read or failed, or the reading ended. The reader
 * looks at what is awaited after it settles a record, so either it sees
 * @record awaited and wakes this, or this sees @record settled. */
static void
await (SmprofJob    *self,
       FoldReader   *reader,
       SmprofRecord *record)
{
  g_mutex_lock (&self->fold_lock);
  g_atomic_pointer_set (&self->fold_awaited, record);
  while (!is_settled (record) && !reader->done)
    g_cond_wait (&self->fold_cond, &self->fold_lock);
  g_atomic_pointer_set (&self->fold_awaited, NULL);
  g_mutex_unlock (&self->fold_lock);
}

/**
 * smprof_job_fold_stats:
 * @self: a job
 * @records: (element-type SmprofRecord): records of @self
 * @fold: (scope call): called for each record of @records that could be
 *   read, in the order of @records
 * @user_data: for @fold
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Reads the stats of @records as smprof_job_load_stats() does (a file that
 * cannot be read marks its record as failed and adds a problem naming it),
 * and calls @fold on each record read, in order, as soon as it and those
 * before it are read: the caller's sum overlaps the reading of the records
 * after it. @fold runs on the calling thread.
 *
 * For a local job without a parsed index, the records are read by this call
 * alone, and the stats of those it read are dropped as soon as @fold
 * returns, so that only the records in flight are held: call it only when no
 * other thread reads or uses @records. Otherwise (an S3 job, or a parsed
 * index, which stores what was parsed) they stay read, as
 * smprof_job_load_stats() leaves them.
 *
 * Returns: %FALSE if cancelled, with @fold called on the records read
 *   before the first one that was not
 */
gboolean
smprof_job_fold_stats (SmprofJob            *self,
                       GPtrArray            *records,
                       SmprofStatsFoldFunc   fold,
                       gpointer              user_data,
                       GCancellable         *cancellable,
                       GError              **error)
{
  FoldReader reader = { self, records, FALSE, cancellable, FALSE, FALSE, NULL };
  g_autofree gboolean *had_stats = NULL;
  guint n_records;
  GThread *thread;
  gboolean ok;

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (records != NULL, FALSE);
  g_return_val_if_fail (fold != NULL, FALSE);

  reader.drop = self->index == NULL && SMPROF_IS_LOCAL_SOURCE (self->source);
  n_records = records->len;
  had_stats = g_new0 (gboolean, MAX (n_records, 1));
  for (guint i = 0; i < n_records; i++)
    had_stats[i] = ((SmprofRecord *) g_ptr_array_index (records, i))->stats != NULL;

  g_atomic_int_inc (&self->n_folding);
  thread = g_thread_new ("smprof-fold", fold_reader_thread, &reader);

  for (guint i = 0; i < n_records; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      /* Summing is quicker than reading: rather than sleep and wake for
       * each record, wait for one a batch ahead (the readers take records
       * in order), then for this one if it is still not there. */
      if (!is_settled (record))
        await (self, &reader, g_ptr_array_index (records, MIN (i + FOLD_AHEAD, n_records - 1)));
      if (!is_settled (record))
        await (self, &reader, record);

      /* the reading was cancelled before this record */
      if (!is_settled (record))
        break;

      if (record->pstats != NULL || record->session != NULL)
        fold (record, user_data);
      if (reader.drop && !had_stats[i])
        _smprof_record_drop_stats (record);
    }

  g_thread_join (thread);
  g_atomic_int_dec_and_test (&self->n_folding);

  ok = reader.ok;
  if (reader.error != NULL)
    g_propagate_error (error, reader.error);
  else if (!ok)
    g_cancellable_set_error_if_cancelled (cancellable, error);

  return ok;
}
