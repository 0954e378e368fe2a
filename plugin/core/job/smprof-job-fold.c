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

/* How many records a fold reads from the parsed index at a time. */
#define INDEX_BATCH 256

/* Reads @records from the parsed index a batch at a time, calls @fold on
 * each in turn and drops what it read from the index once folded, up to the
 * first record that is neither settled nor in the index. Read whole, a
 * node's arrays take tens of megabytes of new memory that the kernel clears
 * page by page (as much CPU time as reading them); a batch at a time, the
 * chunks the last batch freed are used again (smprof-stats-slab.c). On the
 * calling thread alone: a thread of its own for each batch would give back
 * the unused end of its chunk when it ends, so that the chunk could not be
 * used again, and reading is as quick as summing. A record dropped is read
 * from the index again if it is needed, as it is when the index is written
 * again.
 *
 * Returns: how many of @records, from the first, were done */
static guint
fold_from_index (SmprofJob           *self,
                 GPtrArray           *records,
                 SmprofStatsFoldFunc  fold,
                 gpointer             user_data,
                 GCancellable        *cancellable)
{
  g_autoptr(GPtrArray) batch = g_ptr_array_sized_new (INDEX_BATCH);
  gboolean read_now[INDEX_BATCH];
  guint done = 0;

  while (done < records->len && !g_cancellable_is_cancelled (cancellable))
    {
      guint start = done;
      guint end = MIN (start + INDEX_BATCH, records->len);

      g_ptr_array_set_size (batch, 0);
      for (guint i = start; i < end; i++)
        {
          SmprofRecord *record = g_ptr_array_index (records, i);

          read_now[i - start] = record->stats == NULL && !record->failed;
          if (read_now[i - start])
            g_ptr_array_add (batch, record);
        }

      /* A miss is read from its file after this returns, and counted then. */
      _smprof_job_index_fill (self->index, self->function_keys, batch,
                              SMPROF_JOB_INDEX_FILL_ASKED_AGAIN | SMPROF_JOB_INDEX_FILL_THIS_THREAD, cancellable);

      for (; done < end; done++)
        {
          SmprofRecord *record = g_ptr_array_index (records, done);

          if (!is_settled (record))
            return done;
          if (record->pstats != NULL || record->session != NULL)
            fold (record, user_data);
          if (read_now[done - start])
            _smprof_record_drop_stats (record);
        }
    }

  return done;
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
 * The stats this call reads are dropped as soon as @fold returns, so that
 * only the records in flight are held, when it can read them again: those
 * of a local job without a parsed index, and those read from a parsed
 * index. Call it only when no other thread reads or uses @records. Others
 * (stats files of an S3 job, or of a job with a parsed index, which stores
 * what was parsed) stay read, as smprof_job_load_stats() leaves them.
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
  g_autoptr(GPtrArray) rest = NULL;
  g_autofree gboolean *had_stats = NULL;
  guint n_records;
  GThread *thread;
  gboolean ok;

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (records != NULL, FALSE);
  g_return_val_if_fail (fold != NULL, FALSE);

  reader.drop = self->index == NULL && SMPROF_IS_LOCAL_SOURCE (self->source);

  /* What the parsed index holds first; the rest as without it. */
  if (self->index != NULL)
    {
      guint done = fold_from_index (self, records, fold, user_data, cancellable);

      rest = g_ptr_array_new ();
      for (guint i = done; i < records->len; i++)
        g_ptr_array_add (rest, g_ptr_array_index (records, i));
      records = rest;
      reader.records = rest;
    }

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
