/* smprof-job-loader.c: reading stats files on worker threads
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "smprof-job-private.h"
#include "smprof-parallel.h"

typedef struct
{
  SmprofJob    *job;
  GPtrArray    *pending;   /* SmprofRecord, each read by exactly one worker */
  GCancellable *cancellable;
} LoadBatch;

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
        return;

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
}

static void
load_pending (guint    index,
              gpointer data)
{
  LoadBatch *batch = data;

  load_record (batch->job, g_ptr_array_index (batch->pending, index), batch->cancellable);
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
 * Returns: %FALSE if cancelled
 */
gboolean
smprof_job_load_stats (SmprofJob     *self,
                       GPtrArray     *records,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  LoadBatch batch = { self, pending, cancellable };

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (records != NULL, FALSE);

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->pstats == NULL && record->session == NULL && !record->failed)
        g_ptr_array_add (pending, record);
    }

  /* A remote source fetches the batch over its own connection pool first, so
   * the parsing threads below do not each wait on one download at a time. */
  if (pending->len > 0)
    {
      g_autoptr(GPtrArray) paths = g_ptr_array_sized_new (pending->len + 1);

      for (guint i = 0; i < pending->len; i++)
        g_ptr_array_add (paths, ((SmprofRecord *) g_ptr_array_index (pending, i))->path);
      g_ptr_array_add (paths, NULL);

      if (!smprof_source_prefetch (self->source, (const char * const *) paths->pdata, cancellable, error))
        return FALSE;
    }

  smprof_parallel_for ("smprof-load", pending->len, g_get_num_processors (), load_pending, &batch, cancellable);

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}
