/* smprof-job-loader.c: reading stats files on worker threads
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "smprof-job-private.h"
#include "smprof-local-source.h"
#include "smprof-parallel.h"
#include "smprof-readahead.h"

typedef struct
{
  SmprofJob       *job;
  GPtrArray       *pending;    /* SmprofRecord, each read by exactly one worker */
  GCancellable    *cancellable;
  SmprofReadahead *readahead;  /* nullable: the batch's files asked for ahead */
} LoadBatch;

/* A local batch of at least this many files is read ahead (see
 * smprof-readahead.c): a handful costs a thread each for nothing. */
#define READAHEAD_MIN_RECORDS 64

/* How many disk requests the readahead keeps in flight, whatever the number
 * of cores (reading 4,002 cold files took 0.51 s on 2 threads, 0.24 s on
 * 32), and how far ahead of the parsers it goes (about 40 MiB of cProfile
 * stats, which stay in memory until their parser comes). */
#define READAHEAD_THREADS 16
#define READAHEAD_WINDOW 1024

static void
load_record (SmprofJob    *self,
             SmprofRecord *record,
             GCancellable *cancellable)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  SmprofPstats *pstats = NULL;
  SmprofPyinstrumentSession *session = NULL;

  bytes = smprof_source_load (self->source, record->path, cancellable, &error);
  if (bytes != NULL)
    {
      if (record->profiler == SMPROF_PROFILER_CPROFILE)
        pstats = smprof_pstats_parse (bytes, self->function_keys, &error);
      else
        session = smprof_pyinstrument_parse (bytes, self->function_keys, &error);
    }

  if (pstats != NULL || session != NULL)
    _smprof_record_publish_stats (record, _smprof_record_stats_new (pstats, session));

  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          _smprof_job_record_settled (self, record);
          return;
        }

      g_autofree char *message = NULL;

      if (error->domain == SMPROF_FORMAT_ERROR)
        message = g_strdup_printf (record->profiler == SMPROF_PROFILER_CPROFILE
                                   ? _("damaged cProfile stats, interval skipped: %s")
                                   : _("damaged Pyinstrument session, interval skipped: %s"),
                                   error->message);
      else
        message = g_strdup_printf (_("cannot read, interval skipped: %s"), error->message);

      g_atomic_int_set (&record->failed, TRUE);
      _smprof_job_add_problem (self, record->path, message);
    }

  _smprof_job_record_settled (self, record);
}

/* Wakes a smprof_job_fold_stats() caller that waits for @record, after it
 * was read or failed (or its reading was cancelled). Only the record it
 * waits for wakes it, and it waits for one a batch ahead when it caught up:
 * a wake-up for every record read cost 24,000 context switches on a job of
 * 32,000 intervals (2,000 now), and more CPU time than summing while
 * reading saved. */
void
_smprof_job_record_settled (SmprofJob    *self,
                            SmprofRecord *record)
{
  if (g_atomic_int_get (&self->n_folding) == 0 || g_atomic_pointer_get (&self->fold_awaited) != record)
    return;

  g_mutex_lock (&self->fold_lock);
  g_cond_broadcast (&self->fold_cond);
  g_mutex_unlock (&self->fold_lock);
}

static void
load_pending (guint    index,
              gpointer data)
{
  LoadBatch *batch = data;

  if (batch->readahead != NULL)
    smprof_readahead_reached (batch->readahead, index);
  load_record (batch->job, g_ptr_array_index (batch->pending, index), batch->cancellable);
}

/* Reads @pending, records this caller claimed, in parallel, and adds
 * those it read from their files to @parsed, for the parsed index. */
gboolean
_smprof_job_read_claimed (SmprofJob     *self,
              GPtrArray     *pending,
              GPtrArray     *parsed,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_sized_new (pending->len + 1);
  g_autoptr(GPtrArray) to_read = NULL;
  LoadBatch batch = { self, pending, cancellable, NULL };

  /* What the parsed index holds is neither fetched nor read again. */
  if (self->index != NULL)
    {
      _smprof_job_index_fill (self->index, self->function_keys, pending, SMPROF_JOB_INDEX_FILL_DEFAULT, cancellable);
      to_read = g_ptr_array_sized_new (pending->len);
      for (guint i = 0; i < pending->len; i++)
        if (((SmprofRecord *) g_ptr_array_index (pending, i))->stats == NULL)
          g_ptr_array_add (to_read, g_ptr_array_index (pending, i));
      if (to_read->len == 0)
        return !g_cancellable_set_error_if_cancelled (cancellable, error);
      batch.pending = to_read;
    }

  /* A remote source fetches the batch over its own connection pool first, so
   * the parsing threads below do not each wait on one download at a time. */
  for (guint i = 0; i < batch.pending->len; i++)
    g_ptr_array_add (paths, ((SmprofRecord *) g_ptr_array_index (batch.pending, i))->path);
  g_ptr_array_add (paths, NULL);

  if (!smprof_source_prefetch (self->source, (const char * const *) paths->pdata, cancellable, error))
    return FALSE;

  /* A local source's files on disk are asked for ahead of the parsers, in
   * their order, so that the disk has many requests at once; files in memory
   * already are not (that cost a fifth more CPU time on a warm node). */
  if (SMPROF_IS_LOCAL_SOURCE (self->source) && batch.pending->len >= READAHEAD_MIN_RECORDS)
    {
      const char *root = smprof_local_source_get_root (SMPROF_LOCAL_SOURCE (self->source));

      if (smprof_readahead_is_cold (root, (const char * const *) paths->pdata, batch.pending->len))
        batch.readahead = smprof_readahead_start (root, (const char * const *) paths->pdata, batch.pending->len,
                                                  READAHEAD_THREADS, READAHEAD_WINDOW, cancellable);
    }

  smprof_parallel_for ("smprof-load", batch.pending->len, g_get_num_processors (), load_pending, &batch, cancellable);

  if (batch.readahead != NULL)
    smprof_readahead_join (g_steal_pointer (&batch.readahead), TRUE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  g_ptr_array_extend (parsed, batch.pending, NULL, NULL);

  return TRUE;
}

/* How long a caller waiting for records another one reads sleeps between
 * looks at its cancellable. */
#define WAIT_SLICE_US (50 * G_TIME_SPAN_MILLISECOND)

/* How many records a caller claims at a time when it must not hold many.
 * A reader of a remote source claims a batch that keeps the source's
 * connections busy (8 by default, 64 at most), so a reader that needs one of
 * its records waits for that batch, not for the whole job, and a progress
 * count moves as the files arrive. A background reader claims less: a
 * selection started just as it claimed waits for one small batch. */
#define REMOTE_BATCH_RECORDS 64
#define BACKGROUND_BATCH_RECORDS 32

static gboolean
load_stats (SmprofJob     *self,
            GPtrArray     *records,
            gboolean       background,
            GCancellable  *cancellable,
            GError       **error)
{
  guint batch_limit = background ? BACKGROUND_BATCH_RECORDS
                      : smprof_source_can_prefetch (self->source) ? REMOTE_BATCH_RECORDS : G_MAXUINT;
  g_autoptr(GPtrArray) parsed = g_ptr_array_new ();
  gboolean loaded = TRUE;

  while (loaded)
    {
      g_autoptr(GPtrArray) pending = g_ptr_array_new ();
      gboolean waiting = FALSE;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          loaded = FALSE;
          break;
        }

      /* A record's fields are only looked at while nobody holds its claim:
       * its reader wrote them before giving the claim back under the lock. */
      g_mutex_lock (&self->stats_lock);
      if (background && self->n_foreground_loads > 0)
        {
          /* A foreground reader is at work: it has the source to itself. */
          g_cond_wait_until (&self->stats_cond, &self->stats_lock, g_get_monotonic_time () + WAIT_SLICE_US);
          g_mutex_unlock (&self->stats_lock);
          continue;
        }
      for (guint i = 0; i < records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (records, i);

          if (g_hash_table_size (self->stats_loading) > 0 && g_hash_table_contains (self->stats_loading, record))
            waiting = TRUE;
          else if (record->pstats == NULL && record->session == NULL && !record->failed &&
                   pending->len < batch_limit)
            g_ptr_array_add (pending, record);
        }
      for (guint i = 0; i < pending->len; i++)
        g_hash_table_add (self->stats_loading, g_ptr_array_index (pending, i));

      if (pending->len == 0)
        {
          if (waiting)
            g_cond_wait_until (&self->stats_cond, &self->stats_lock, g_get_monotonic_time () + WAIT_SLICE_US);
          g_mutex_unlock (&self->stats_lock);
          if (!waiting)
            break;
          continue;
        }
      g_mutex_unlock (&self->stats_lock);

      loaded = _smprof_job_read_claimed (self, pending, parsed, cancellable, error);

      g_mutex_lock (&self->stats_lock);
      for (guint i = 0; i < pending->len; i++)
        g_hash_table_remove (self->stats_loading, g_ptr_array_index (pending, i));
      g_cond_broadcast (&self->stats_cond);
      g_mutex_unlock (&self->stats_lock);
    }

  /* Once, for every batch (each store writes whole node files), and for
   * what was read before a cancellation too. */
  if (self->index != NULL && parsed->len > 0)
    _smprof_job_index_store (self->index, self->function_keys, self->records[SMPROF_PROFILER_CPROFILE], parsed);

  return loaded;
}

/**
 * smprof_job_load_stats:
 * @self: a job
 * @records: (element-type SmprofRecord): records of @self
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Reads and parses the stats files of @records that are not read yet, in
 * parallel on every core. A file that cannot be read marks its record as
 * failed and adds a problem naming it; only cancellation is an error.
 *
 * Safe to call from several threads at once, on the same records or not:
 * each file is read once, by the first caller that needs it; a caller that
 * needs a record another one is reading waits for that record only (not for
 * the other's downloads), and takes it over if the other was cancelled. When
 * it returns %TRUE, every record of @records is read or failed, and stays so.
 * While it runs, readers started with smprof_job_load_stats_in_background()
 * pause between their batches.
 *
 * Returns: %FALSE if cancelled
 */
gboolean
smprof_job_load_stats (SmprofJob     *self,
                       GPtrArray     *records,
                       GCancellable  *cancellable,
                       GError       **error)
{
  gboolean loaded;

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (records != NULL, FALSE);

  g_mutex_lock (&self->stats_lock);
  self->n_foreground_loads++;
  g_mutex_unlock (&self->stats_lock);

  loaded = load_stats (self, records, FALSE, cancellable, error);

  g_mutex_lock (&self->stats_lock);
  self->n_foreground_loads--;
  g_cond_broadcast (&self->stats_cond);
  g_mutex_unlock (&self->stats_lock);

  return loaded;
}

/**
 * smprof_job_load_stats_in_background:
 * @self: a job
 * @records: (element-type SmprofRecord): records of @self
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * As smprof_job_load_stats(), for work nobody waits for yet (the whole
 * job's figures while the user looks at a selection): it claims a batch of
 * records at a time and, before each batch, waits while any
 * smprof_job_load_stats() call runs, so a selection's files are read first.
 *
 * Returns: %FALSE if cancelled
 */
gboolean
smprof_job_load_stats_in_background (SmprofJob     *self,
                                     GPtrArray     *records,
                                     GCancellable  *cancellable,
                                     GError       **error)
{
  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (records != NULL, FALSE);

  return load_stats (self, records, TRUE, cancellable, error);
}

/**
 * smprof_job_count_read_stats:
 * @self: a job
 * @records: (element-type SmprofRecord): records of @self
 *
 * How many of @records are read (or could not be read), for a progress
 * line. Safe from any thread while readers run.
 *
 * Returns: the count
 */
guint
smprof_job_count_read_stats (SmprofJob *self,
                             GPtrArray *records)
{
  guint n = 0;

  g_return_val_if_fail (SMPROF_IS_JOB (self), 0);
  g_return_val_if_fail (records != NULL, 0);

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (g_atomic_pointer_get (&record->stats) != NULL || g_atomic_int_get (&record->failed))
        n++;
    }

  return n;
}
