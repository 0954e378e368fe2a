/* smprof-cli-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "smprof-cli-modules.h"
#include "smprof-cli-source.h"
#include "smprof-local-source.h"

/* At most this often, so a fast cache hit does not flood the terminal. */
#define PROGRESS_INTERVAL_US (100 * 1000)

typedef struct
{
  GMutex   lock;       /* the callback runs on worker threads */
  gint64   last;
  gboolean shown;
  gboolean told_cached_listing;
} ProgressLine;

static void
progress_line_free (gpointer data)
{
  ProgressLine *line = data;

  if (line->shown)
    fputs ("\r\033[K", stderr);
  g_mutex_clear (&line->lock);
  g_free (line);
}

static char *
format_size (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_DEFAULT);
}

/* One line on stderr, redrawn in place; taken away when the source is idle,
 * so that results and warnings start on a clean line. */
static void
progress_cb (SmprofS3Source         *source,
             const SmprofS3Progress *progress,
             gpointer                user_data)
{
  ProgressLine *line = user_data;
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&line->lock);
  gint64 now = g_get_monotonic_time ();
  g_autofree char *listed = NULL;
  g_autofree char *fetched = NULL;
  g_autofree char *wanted = NULL;
  guint64 done;

  if (!progress->busy)
    {
      if (line->shown)
        fputs ("\r\033[K", stderr);
      line->shown = FALSE;
      /* a job still training gains intervals the cached listing lacks */
      if (progress->listing_from_cache && !line->told_cached_listing)
        {
          fputs (_("smprof: the S3 listing comes from the cache; --refresh lists S3 again\n"), stderr);
          line->told_cached_listing = TRUE;
        }
      return;
    }

  if (line->shown && now - line->last < PROGRESS_INTERVAL_US)
    return;
  line->last = now;
  line->shown = TRUE;

  listed = format_size (progress->bytes_listed);
  fputs ("\r\033[K", stderr);
  if (progress->objects_wanted == 0)
    {
      fprintf (stderr, _("smprof: listing S3: %llu stats files (%s)"),
               (unsigned long long) progress->objects_listed, listed);
    }
  else
    {
      done = progress->objects_fetched + progress->objects_cached + progress->objects_failed;
      fetched = format_size (progress->bytes_fetched);
      wanted = format_size (progress->bytes_wanted);
      fprintf (stderr, _("smprof: S3: %llu/%llu stats files, %s downloaded of %s, %llu from the cache, "
                         "%llu retries"),
               (unsigned long long) done, (unsigned long long) progress->objects_wanted, fetched, wanted,
               (unsigned long long) progress->objects_cached, (unsigned long long) progress->retries);
    }
  fflush (stderr);
}

/**
 * smprof_cli_new_job:
 * @options: the command line
 * @source: the job's source (smprof_cli_open_source())
 *
 * A job over @source that keeps its parsed cProfile stats in the parsed
 * index, unless --no-cache, SMPROF_NO_CACHE=1 or a limit of 0 says not to.
 * Only a local job: an S3 job's stats files are in the S3 cache already.
 *
 * Returns: (transfer full): the job
 */
SmprofJob *
smprof_cli_new_job (const SmprofCliOptions *options,
                    SmprofSource           *source)
{
  SmprofJob *job = smprof_job_new (source);

  if (!options->no_cache && SMPROF_IS_LOCAL_SOURCE (source))
    {
      g_autoptr(SmprofIndexCache) cache = smprof_index_cache_new_default ();

      if (cache != NULL)
        smprof_job_set_index_cache (job, cache);
    }

  return job;
}

/**
 * smprof_cli_open_source:
 * @options: the command line
 * @error: a location for a #GError, or %NULL
 *
 * SOURCE may be a folder or `s3://bucket/prefix`; the S3 options apply to the
 * latter. Progress goes to stderr when it is a terminal.
 *
 * Returns: (transfer full) (nullable): the source
 */
SmprofSource *
smprof_cli_open_source (const SmprofCliOptions  *options,
                        GError                 **error)
{
  SmprofS3SourceOptions s3_options = { 0 };
  SmprofSource *source;

  if (!smprof_source_text_is_s3_uri (options->source))
    return smprof_local_source_new (options->source, error);

  s3_options.anonymous = options->no_sign_request;
  s3_options.refresh = options->refresh;
  s3_options.max_connections = options->concurrency;

  source = smprof_cli_new_s3_source (options->source, &s3_options, error);
  if (source != NULL && isatty (STDERR_FILENO))
    {
      ProgressLine *line = g_new0 (ProgressLine, 1);

      g_mutex_init (&line->lock);
      smprof_cli_s3_source_set_progress_func (source, progress_cb, line, progress_line_free);
    }

  return source;
}
