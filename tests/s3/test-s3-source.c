/* test-s3-source.c: SmprofS3Source and the job loader over a small in-memory
 * S3 on a loopback server (s3-fake-bucket.c: ListObjectsV2 with prefixes,
 * delimiters and pages), filled with a real job from tests/data
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "s3-fake-bucket.h"
#include "smprof-job.h"
#include "smprof-local-source.h"
#include "smprof-s3-cache.h"
#include "smprof-s3-source.h"

#define ROOT "jobs/pt/profiler-output"
#define PAGE_SIZE 7   /* small pages: every listing of a node takes several */

typedef struct
{
  FakeBucket *bucket;
  char       *local;   /* the same job on disk */
  char       *home;
  char       *cache;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = NULL;
  g_autofree char *framework = NULL;

  fixture->local = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  framework = g_build_filename (fixture->local, "framework", NULL);
  fixture->bucket = fake_bucket_new_from_folder (ROOT "/framework", framework, PAGE_SIZE);
  url = fake_bucket_dup_url (fixture->bucket);

  fixture->home = g_dir_make_tmp ("smprof-s3-home-XXXXXX", NULL);
  fixture->cache = g_build_filename (fixture->home, "cache", NULL);
  g_setenv ("HOME", fixture->home, TRUE);
  g_setenv ("AWS_ENDPOINT_URL", url, TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIDTEST", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", "secret", TRUE);
  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("AWS_REGION");
  g_unsetenv ("AWS_ENDPOINT_URL_S3");
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->bucket, fake_bucket_free);
  remove_tree (fixture->home);
  g_free (fixture->home);
  g_free (fixture->cache);
  g_free (fixture->local);
}

static SmprofSource *
open_s3 (const char                  *uri,
         const SmprofS3SourceOptions *options)
{
  g_autoptr(GError) error = NULL;
  SmprofSource *source = smprof_s3_source_new (uri, options, &error);

  g_assert_no_error (error);
  return source;
}

static SmprofJob *
load_job (SmprofSource *source)
{
  g_autoptr(GError) error = NULL;
  SmprofJob *job = smprof_job_new (source);

  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);
  return job;
}

static guint
count_records (SmprofJob *job)
{
  return smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len +
         smprof_job_get_records (job, SMPROF_PROFILER_PYINSTRUMENT)->len;
}

/* Same records as the local copy, each stats file fetched exactly once
 * (prefetched over the pool, handed to load without a cache), none failing. */
static void
test_open_and_load (Fixture       *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_connections = 4 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(SmprofJob) local = load_job (local_source);
  g_autoptr(GPtrArray) problems = NULL;
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  GPtrArray *local_records = smprof_job_get_records (local, SMPROF_PROFILER_CPROFILE);
  g_autofree char *location = smprof_source_dup_location (source);
  SmprofS3Progress progress;

  g_assert_cmpstr (location, ==, "s3://bucket/" ROOT);
  g_assert_cmpuint (records->len, ==, local_records->len);
  g_assert_cmpuint (records->len, >, 0);
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *a = g_ptr_array_index (records, i);
      SmprofRecord *b = g_ptr_array_index (local_records, i);

      g_assert_cmpstr (a->path, ==, b->path);
      g_assert_cmpstr (a->node_id, ==, b->node_id);
    }

  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, 0);
  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_false (record->failed);
      g_assert_nonnull (record->pstats);
    }
  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, records->len);

  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);

  smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
  g_assert_cmpuint (progress.objects_listed, ==, records->len);
  g_assert_cmpuint (progress.objects_wanted, ==, records->len);
  g_assert_cmpuint (progress.objects_fetched, ==, records->len);
  g_assert_cmpuint (progress.bytes_fetched, ==, progress.bytes_wanted);
  g_assert_cmpuint (progress.objects_cached, ==, 0);
  /* pages of PAGE_SIZE entries: several per node */
  g_assert_cmpuint (progress.list_requests, >, records->len / PAGE_SIZE);
  g_assert_false (progress.busy);
}

/* A key that always fails: tried max_attempts times by the prefetch, not
 * again by load, reported for its record; the rest loads. */
static void
test_failing_key (Fixture       *fixture,
                  gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_attempts = 2 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(GPtrArray) problems = NULL;
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  SmprofRecord *victim = g_ptr_array_index (records, 3);
  g_autofree char *key = g_strconcat (ROOT "/", victim->path, NULL);
  SmprofS3Progress progress;

  fake_bucket_add_failing_key (fixture->bucket, key);
  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_cmpint (record->failed, ==, record == victim);
    }
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 2);

  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpstr (((SmprofProblem *) g_ptr_array_index (problems, 0))->path, ==, victim->path);

  smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
  g_assert_cmpuint (progress.objects_failed, ==, 1);
  g_assert_cmpuint (progress.objects_fetched, ==, records->len - 1);
}

typedef struct
{
  guint    n_calls;
  gboolean last_busy;
  guint64  last_listed;
} ProgressLog;

static void
progress_cb (SmprofS3Source         *source,
             const SmprofS3Progress *progress,
             gpointer                user_data)
{
  ProgressLog *log = user_data;
  SmprofS3Progress again;

  /* a listener may ask the source anything */
  smprof_s3_source_get_progress (source, &again);
  log->n_calls++;
  log->last_busy = progress->busy;
  log->last_listed = progress->objects_listed;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* The viewer's loading bar: property notifications on the main context,
 * or a callback from the workers. */
static void
test_progress (Fixture       *fixture,
               gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = NULL;
  ProgressLog log = { 0 };
  guint notified = 0;
  guint64 listed = 0, fetched = 0;

  smprof_s3_source_set_progress_func (SMPROF_S3_SOURCE (source), progress_cb, &log, NULL);
  g_signal_connect (source, "notify::objects-fetched", G_CALLBACK (count_notify_cb), &notified);

  job = load_job (source);
  g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));

  g_assert_cmpuint (log.n_calls, >, 2);
  g_assert_false (log.last_busy);
  g_assert_cmpuint (log.last_listed, ==, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len);

  /* notifications wait for the main context, and come coalesced */
  g_assert_cmpuint (notified, ==, 0);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (notified, ==, 1);

  g_object_get (source, "objects-listed", &listed, "objects-fetched", &fetched, NULL);
  g_assert_cmpuint (listed, ==, log.last_listed);
  g_assert_cmpuint (fetched, ==, listed);

  smprof_s3_source_set_progress_func (SMPROF_S3_SOURCE (source), NULL, NULL, NULL);
}

/* A second source over the same cache opens from the cached listing and the
 * cached files: no request at all. set_refresh() lists again. */
static void
test_cache (Fixture       *fixture,
            gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  guint n_lists, n_gets;

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
  }
  n_lists = fake_bucket_get_n_lists (fixture->bucket);
  n_gets = fake_bucket_get_n_gets (fixture->bucket);
  g_assert_cmpuint (n_gets, >, 0);

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
    GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
    SmprofS3Progress progress;

    g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
    g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), ==, n_lists);
    g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets);
    smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
    g_assert_true (progress.listing_from_cache);
    g_assert_cmpuint (progress.objects_cached, ==, records->len);

    smprof_s3_source_set_refresh (SMPROF_S3_SOURCE (source), TRUE);
    g_clear_object (&job);
    job = load_job (source);
    g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), >, n_lists);
  }
}

static void
test_deeper_prefix (Fixture       *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT "/framework/pytorch/cprofile/", &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(SmprofJob) local = load_job (local_source);
  g_autofree char *location = smprof_source_dup_location (source);
  g_autofree char *file = NULL;

  g_assert_cmpuint (count_records (job), ==, count_records (local));
  g_assert_cmpstr (location, ==, "s3://bucket/" ROOT);
  file = smprof_source_dup_file_location (source, "framework/x");
  g_assert_cmpstr (file, ==, "s3://bucket/" ROOT "/framework/x");
}

static void
test_not_a_job (Fixture       *fixture,
                gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/jobs/none", &options);
  g_autoptr(SmprofJob) job = smprof_job_new (source);
  g_autoptr(GError) error = NULL;

  g_assert_false (smprof_job_load (job, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_bad_uris (void)
{
  static const char *bad[] = { "s3://", "s3:///key", "http://bucket/key", "bucket/key" };

  g_assert_true (smprof_s3_uri_is_s3 ("S3://b/k"));
  g_assert_false (smprof_s3_uri_is_s3 ("/data/s3://x"));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SmprofSource) source = smprof_s3_source_new (bad[i], NULL, &error);

      g_assert_null (source);
      g_assert_nonnull (error);
    }
}

/* The framework timelines are listed with the job and fetched only when
 * asked: one GET each, the same steps as the local copy, no problem. */
static void
test_step_events (Fixture       *fixture,
                  gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_connections = 4 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(SmprofJob) local = load_job (local_source);
  g_autoptr(GPtrArray) problems = NULL;
  g_auto(GStrv) nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);

  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, 0);
  g_assert_true (smprof_job_load_step_events (job, NULL, NULL));
  g_assert_true (smprof_job_load_step_events (local, NULL, NULL));
  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, 2);

  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);

  g_assert_cmpuint (g_strv_length (nodes), ==, 2);
  for (guint n = 0; nodes[n] != NULL; n++)
    {
      GArray *events = smprof_job_get_step_events (job, nodes[n]);
      GArray *local_events = smprof_job_get_step_events (local, nodes[n]);

      g_assert_nonnull (events);
      g_assert_nonnull (local_events);
      g_assert_cmpuint (events->len, ==, local_events->len);
      for (guint i = 0; i < events->len; i++)
        {
          const SmprofStepEvent *a = &g_array_index (events, SmprofStepEvent, i);
          const SmprofStepEvent *b = &g_array_index (local_events, SmprofStepEvent, i);

          g_assert_cmpint (a->mode, ==, b->mode);
          g_assert_cmpint (a->step, ==, b->step);
          g_assert_cmpfloat (a->start_us, ==, b->start_us);
          g_assert_cmpfloat (a->end_us, ==, b->end_us);
        }
    }
}

/* The sums of what every cProfile record of @job read: calls and self time. */
static void
job_totals (SmprofJob *job,
            gint64    *calls,
            double    *seconds)
{
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  *calls = 0;
  *seconds = 0;
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_nonnull (record->pstats);
      *calls += record->pstats->total_calls;
      *seconds += record->pstats->total_tt;
    }
}

/* How many of @job's problems hold @needle in their path or message. */
static guint
count_problems (SmprofJob  *job,
                const char *needle)
{
  g_autoptr(GPtrArray) problems = smprof_job_dup_problems (job);
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (problems, i);

      if (strstr (problem->path, needle) != NULL || strstr (problem->message, needle) != NULL)
        n++;
    }

  return n;
}

/* Pages that repeat the last key (and common prefix) of the page before:
 * every interval counted once, the totals of the local copy, and one
 * problem that says so. */
static void
test_repeated_keys (Fixture       *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(SmprofJob) local = load_job (local_source);
  g_autoptr(GPtrArray) problems = NULL;
  gint64 calls, local_calls;
  double seconds, local_seconds;

  fake_bucket_set_repeat_seams (fixture->bucket, TRUE);
  source = open_s3 ("s3://bucket/" ROOT, &options);
  job = load_job (source);

  g_assert_cmpuint (count_records (job), ==, count_records (local));
  job_totals (job, &calls, &seconds);
  job_totals (local, &local_calls, &local_seconds);
  g_assert_cmpint (calls, ==, local_calls);
  g_assert_cmpfloat_with_epsilon (seconds, local_seconds, 1e-9 * local_seconds);

  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_nonnull (strstr (((SmprofProblem *) g_ptr_array_index (problems, 0))->message, "repeated"));
}

typedef enum
{
  LISTING_FAILS,
  LISTING_LOOPS,
} ListingFault;

/* A node whose listing fails (503 on every attempt) or never ends: the job
 * opens without it and names it; that listing is not cached, so the next
 * open, S3 healthy again, lists S3 and has the node, with no problem. */
static void
test_incomplete_listing_not_cached (Fixture       *fixture,
                                    gconstpointer  data)
{
  ListingFault fault = GPOINTER_TO_INT (data);
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .max_attempts = 2 };
  const char *node_prefix = ROOT "/framework/pytorch/cprofile/1-algo-2/";
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) local = load_job (local_source);
  guint n_lists;

  if (fault == LISTING_FAILS)
    fake_bucket_fail_listings (fixture->bucket, node_prefix, G_MAXUINT);
  else
    fake_bucket_set_looping_listing (fixture->bucket, node_prefix, TRUE);

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
    g_auto(GStrv) nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);

    g_assert_cmpuint (g_strv_length (nodes), ==, 1);
    g_assert_cmpstr (nodes[0], ==, "0-algo-1");
    g_assert_cmpuint (count_problems (job, "1-algo-2"), ==, 1);
  }

  fake_bucket_fail_listings (fixture->bucket, node_prefix, 0);
  fake_bucket_set_looping_listing (fixture->bucket, node_prefix, FALSE);
  n_lists = fake_bucket_get_n_lists (fixture->bucket);

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
    g_auto(GStrv) nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
    g_autoptr(GPtrArray) problems = smprof_job_dup_problems (job);
    SmprofS3Progress progress;

    smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
    g_assert_false (progress.listing_from_cache);
    g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), >, n_lists);
    g_assert_cmpuint (g_strv_length (nodes), ==, 2);
    g_assert_cmpuint (count_records (job), ==, count_records (local));
    g_assert_cmpuint (problems->len, ==, 0);
  }

  /* complete, it was cached: a third open sends no listing */
  n_lists = fake_bucket_get_n_lists (fixture->bucket);
  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);

    g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), ==, n_lists);
    g_assert_cmpuint (count_records (job), ==, count_records (local));
  }
}

/* The key of @job's cProfile record @index, and the record. */
static SmprofRecord *
record_and_key (SmprofJob  *job,
                guint       index,
                char      **key)
{
  SmprofRecord *record = g_ptr_array_index (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), index);

  *key = g_strconcat (ROOT "/", record->path, NULL);
  return record;
}

/* The local copy's record of the same interval as @record. */
static SmprofRecord *
same_record (SmprofJob    *job,
             SmprofRecord *record)
{
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  for (guint i = 0; i < records->len; i++)
    if (strcmp (((SmprofRecord *) g_ptr_array_index (records, i))->path, record->path) == 0)
      return g_ptr_array_index (records, i);

  g_assert_not_reached ();
}

/* A body cut halfway (headers whole, then the connection closed), with and
 * without "Connection: close", or a whole answer of half the listed size:
 * retried as a transfer fault, never read as a damaged stats file. */
typedef enum
{
  CUT_CLOSE,
  CUT_KEEP_ALIVE,
  SHORT_LENGTH,
} Cut;

static void
test_cut_body (Fixture       *fixture,
               gconstpointer  data)
{
  Cut cut = GPOINTER_TO_INT (data);
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_attempts = 5 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(SmprofJob) local = load_job (local_source);
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *key = NULL;
  SmprofRecord *victim = record_and_key (job, 5, &key);
  SmprofRecord *twin = same_record (local, victim);

  if (cut == SHORT_LENGTH)
    fake_bucket_short_length (fixture->bucket, key, 2);
  else
    fake_bucket_cut_body (fixture->bucket, key, 2, cut == CUT_CLOSE);

  g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
  g_assert_true (smprof_job_load_stats (local, smprof_job_get_records (local, SMPROF_PROFILER_CPROFILE), NULL, NULL));

  g_assert_false (victim->failed);
  g_assert_nonnull (victim->pstats);
  g_assert_cmpint (victim->pstats->total_calls, ==, twin->pstats->total_calls);
  g_assert_cmpfloat (victim->pstats->total_tt, ==, twin->pstats->total_tt);
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 3);
  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);
}

/* An object replaced by a larger one after it was listed: the answer's
 * length is more than listed, so its key is listed again, once, and the new
 * object read. */
static void
test_replaced_object (Fixture       *fixture,
                      gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autofree char *key = NULL;
  g_autofree char *donor_key = NULL;
  SmprofRecord *victim = record_and_key (job, 2, &key);
  SmprofRecord *donor = NULL;
  g_autoptr(GBytes) small = fake_bucket_dup_object (fixture->bucket, key);
  g_autoptr(GBytes) larger = NULL;
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  g_autoptr(GPtrArray) problems = NULL;
  gint64 donor_calls;
  guint n_lists;

  /* the largest stats file of the job takes the victim's place */
  for (guint i = 0; i < records->len; i++)
    {
      g_autofree char *other = NULL;
      g_autoptr(GBytes) bytes = NULL;
      SmprofRecord *record = record_and_key (job, i, &other);

      bytes = fake_bucket_dup_object (fixture->bucket, other);
      if (larger == NULL || g_bytes_get_size (bytes) > g_bytes_get_size (larger))
        {
          g_clear_pointer (&larger, g_bytes_unref);
          larger = g_steal_pointer (&bytes);
          donor = record;
          g_free (donor_key);
          donor_key = g_steal_pointer (&other);
        }
    }
  g_assert_cmpuint (g_bytes_get_size (larger), >, g_bytes_get_size (small));
  g_ptr_array_add (one, donor);
  g_assert_true (smprof_job_load_stats (job, one, NULL, NULL));
  donor_calls = donor->pstats->total_calls;

  fake_bucket_put (fixture->bucket, key, larger);
  n_lists = fake_bucket_get_n_lists (fixture->bucket);
  g_ptr_array_set_size (one, 0);
  g_ptr_array_add (one, victim);
  g_assert_true (smprof_job_load_stats (job, one, NULL, NULL));

  g_assert_false (victim->failed);
  g_assert_nonnull (victim->pstats);
  g_assert_cmpint (victim->pstats->total_calls, ==, donor_calls);
  g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), ==, n_lists + 1);
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 2);
  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);
}

/* Stats files listed above the size limit are reported and skipped without
 * a request; the others load. */
static void
test_too_large (Fixture       *fixture,
                gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofJob) job = NULL;
  GPtrArray *records;

  /* as a user sets it (SmprofS3SourceOptions.max_object_size likewise) */
  g_setenv ("SMPROF_S3_MAX_OBJECT_SIZE", "50K", TRUE);
  source = open_s3 ("s3://bucket/" ROOT, &options);
  g_unsetenv ("SMPROF_S3_MAX_OBJECT_SIZE");
  job = load_job (source);
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) problems = NULL;
  guint n_large = 0;

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  problems = smprof_job_dup_problems (job);

  for (guint i = 0; i < records->len; i++)
    {
      g_autofree char *key = NULL;
      SmprofRecord *record = record_and_key (job, i, &key);
      g_autoptr(GBytes) bytes = fake_bucket_dup_object (fixture->bucket, key);
      gboolean large = g_bytes_get_size (bytes) > 50 * 1024;

      g_assert_cmpint (record->failed, ==, large);
      if (large)
        {
          n_large++;
          g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 0);
        }
    }

  g_assert_cmpuint (n_large, >, 0);
  g_assert_cmpuint (n_large, <, records->len);
  g_assert_cmpuint (problems->len, ==, n_large);
  for (guint i = 0; i < problems->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (problems, i);

      /* g_format_size() puts a no-break space before the unit */
      g_assert_nonnull (strstr (problem->message, "50.0\u00a0KiB"));
      g_assert_nonnull (strstr (problem->message, "SMPROF_S3_MAX_OBJECT_SIZE"));
    }
}

/* A server whose GETs answer another ETag than its listings give: the copy
 * kept finds its object again, and a second open downloads nothing. */
static void
test_etag_differs (Fixture       *fixture,
                   gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  guint n_gets;

  fake_bucket_set_etag_differs (fixture->bucket, TRUE);
  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
    GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

    g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
    /* each once: load() found what the prefetch kept */
    g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, records->len);
  }
  n_gets = fake_bucket_get_n_gets (fixture->bucket);

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
    GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
    SmprofS3Progress progress;

    g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
    g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets);
    smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
    g_assert_cmpuint (progress.objects_cached, ==, records->len);
  }

  /* and a listing made again (the listing's ETags, not the download's) too */
  options.refresh = TRUE;
  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
    g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets);
  }
}

/* The one listing kept in @cache. */
static char *
find_listing_file (const char *cache)
{
  g_autofree char *folder = g_build_filename (cache, "listings", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  char *found = NULL;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".listing"))
      {
        g_assert_null (found);
        found = g_build_filename (folder, name, NULL);
      }

  g_assert_nonnull (found);
  return found;
}

typedef enum
{
  EDIT_DELETE_LINE,
  EDIT_DUPLICATE_LINE,
  EDIT_CHANGE_PATH,
  EDIT_TRUNCATE,
  N_EDITS,
} Edit;

/* Damages the kept listing of a job as a hand, a disk or another program
 * might: the "line" holding @path (from the newline before it to the one
 * after, whatever the format) deleted or written twice, one byte of @path
 * changed, or the end cut off. */
static void
edit_listing (const char *file,
              const char *path,
              Edit        edit)
{
  g_autofree char *contents = NULL;
  g_autoptr(GString) edited = NULL;
  gsize length = 0;
  const char *found;
  gsize start, end;

  g_assert_true (g_file_get_contents (file, &contents, &length, NULL));
  found = NULL;
  for (gsize i = 0; found == NULL && i + strlen (path) <= length; i++)
    if (memcmp (contents + i, path, strlen (path)) == 0)
      found = contents + i;
  g_assert_nonnull (found);

  start = found - contents;
  while (start > 0 && contents[start - 1] != '\n')
    start--;
  end = found - contents + strlen (path);
  while (end < length && contents[end] != '\n')
    end++;
  if (end < length)
    end++;

  edited = g_string_new_len (contents, length);
  switch (edit)
    {
    case EDIT_DELETE_LINE:
      g_string_erase (edited, start, end - start);
      break;
    case EDIT_DUPLICATE_LINE:
      g_string_insert_len (edited, end, contents + start, end - start);
      break;
    case EDIT_CHANGE_PATH:
      edited->str[found - contents + strlen (path) - 1] ^= 0x01;
      break;
    case EDIT_TRUNCATE:
      g_string_truncate (edited, length - 5);
      break;
    case N_EDITS:
    default:
      g_assert_not_reached ();
    }

  g_assert_true (g_file_set_contents (file, edited->str, edited->len, NULL));
}

/* A kept listing with one entry fewer, one more, one changed or cut short
 * is no listing: S3 is listed again, and the job has every interval once. */
static void
test_edited_listing (Fixture       *fixture,
                     gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) local = load_job (local_source);
  SmprofRecord *victim = g_ptr_array_index (smprof_job_get_records (local, SMPROF_PROFILER_CPROFILE), 7);

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
  }

  for (Edit edit = 0; edit < N_EDITS; edit++)
    {
      g_autofree char *file = find_listing_file (fixture->cache);
      g_autoptr(SmprofSource) source = NULL;
      g_autoptr(SmprofJob) job = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      guint n_lists = fake_bucket_get_n_lists (fixture->bucket);
      SmprofS3Progress progress;

      edit_listing (file, victim->path, edit);
      source = open_s3 ("s3://bucket/" ROOT, &options);
      job = load_job (source);
      smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
      problems = smprof_job_dup_problems (job);

      g_test_message ("edit %d: %u records, %u problems, listed again: %s", edit, count_records (job),
                      problems->len, fake_bucket_get_n_lists (fixture->bucket) > n_lists ? "yes" : "no");
      g_assert_cmpuint (count_records (job), ==, count_records (local));
      g_assert_cmpuint (problems->len, ==, 0);
      g_assert_false (progress.listing_from_cache);
      g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), >, n_lists);
    }
}

typedef struct
{
  SmprofSource *source;
  guint         n_records;
  guint         n_failed;
  GMutex        lock;
  GCond         cond;
  gboolean      done;
} Opener;

static gpointer
open_thread (gpointer data)
{
  Opener *opener = data;
  g_autoptr(SmprofJob) job = load_job (opener->source);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  g_mutex_lock (&opener->lock);
  opener->n_records = records->len;
  for (guint i = 0; i < records->len; i++)
    if (((SmprofRecord *) g_ptr_array_index (records, i))->failed)
      opener->n_failed++;
  opener->done = TRUE;
  g_cond_signal (&opener->cond);
  g_mutex_unlock (&opener->lock);

  return NULL;
}

/* A FIFO where the kept listing and a kept object are: a miss, never waited
 * on (an open() of a FIFO for reading blocks until a writer comes). */
static void
test_fifo_in_cache (Fixture       *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  g_autofree char *listing = NULL;
  g_autofree char *object = NULL;
  g_autofree char *key = NULL;
  Opener opener = { 0 };
  GThread *thread;
  gint64 deadline;

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
    g_autofree char *relative = NULL;
    g_autofree char *endpoint = fake_bucket_dup_url (fixture->bucket);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
    record_and_key (job, 4, &key);
    relative = smprof_s3_cache_key_to_relative_path (endpoint, "bucket", key);
    object = g_build_filename (fixture->cache, relative, NULL);
  }

  listing = find_listing_file (fixture->cache);
  g_assert_cmpint (g_unlink (listing), ==, 0);
  g_assert_cmpint (mkfifo (listing, 0600), ==, 0);
  g_assert_cmpint (g_unlink (object), ==, 0);
  g_assert_cmpint (mkfifo (object, 0600), ==, 0);

  opener.source = open_s3 ("s3://bucket/" ROOT, &options);
  g_mutex_init (&opener.lock);
  g_cond_init (&opener.cond);
  thread = g_thread_new ("open", open_thread, &opener);

  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  g_mutex_lock (&opener.lock);
  while (!opener.done)
    if (!g_cond_wait_until (&opener.cond, &opener.lock, deadline))
      g_error ("opening a job whose cache holds FIFOs still waits after 20 s");
  g_mutex_unlock (&opener.lock);
  g_thread_join (thread);

  g_assert_cmpuint (opener.n_records, ==, 82);
  g_assert_cmpuint (opener.n_failed, ==, 0);
  /* the object behind the FIFO was downloaded again */
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 2);

  g_clear_object (&opener.source);
  g_mutex_clear (&opener.lock);
  g_cond_clear (&opener.cond);
}

/* Bytes of the regular files below @path. */
static guint64
folder_size (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint64 total = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      GStatBuf st;

      if (g_lstat (child, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        total += folder_size (child);
      else if (S_ISREG (st.st_mode))
        total += st.st_size;
    }

  return total;
}

/* A run that reads more than the cache may hold leaves it, listings
 * included, under its limit once it is done. */
static void
test_cache_limit_after_run (Fixture       *fixture,
                            gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .cache_max_size = 200 * 1024 };

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
    /* while the job is open, what it uses stays */
    g_assert_cmpuint (folder_size (fixture->cache), >, 200 * 1024);
  }

  g_test_message ("the cache holds %" G_GUINT64_FORMAT " bytes after the run", folder_size (fixture->cache));
  g_assert_cmpuint (folder_size (fixture->cache), <=, 200 * 1024);
  g_assert_cmpuint (folder_size (fixture->cache), >, 0);
}

/* A live refresh of an S3 job: the listing comes from S3 though one is
 * cached, an object S3 failed to send is asked for again on each refresh
 * and counts once it comes, and nothing else is downloaded again. */
static void
test_reopen (Fixture       *fixture,
             gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .max_attempts = 2 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) first = NULL;
  g_autoptr(SmprofJob) second = NULL;
  g_autoptr(SmprofJob) third = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  SmprofRecord *victim;
  SmprofJobChanges changes;
  guint n_lists, n_gets;

  first = smprof_job_open (source, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  victim = record_and_key (first, 6, &key);
  fake_bucket_add_failing_key (fixture->bucket, key);
  g_assert_true (smprof_job_load_stats (first, smprof_job_get_records (first, SMPROF_PROFILER_CPROFILE), NULL, NULL));
  g_assert_true (victim->failed);

  n_lists = fake_bucket_get_n_lists (fixture->bucket);
  n_gets = fake_bucket_get_n_gets (fixture->bucket);
  second = smprof_job_open (source, first, &changes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (changes, ==, SMPROF_JOB_CHANGED_NOTHING);
  g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), >, n_lists);
  /* the failing object, asked again (twice: two attempts); the timelines
   * come from the cache */
  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets + 2);
  g_assert_true (same_record (second, victim)->failed);

  fake_bucket_remove_failing_key (fixture->bucket, key);
  n_gets = fake_bucket_get_n_gets (fixture->bucket);
  third = smprof_job_open (source, second, &changes, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (changes & SMPROF_JOB_CHANGED_STATS);
  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets + 1);
  g_assert_nonnull (same_record (third, victim)->pstats);
  for (guint i = 0; i < smprof_job_get_records (third, SMPROF_PROFILER_CPROFILE)->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (smprof_job_get_records (third, SMPROF_PROFILER_CPROFILE), i);

      g_assert_nonnull (record->pstats);
      if (strcmp (record->path, victim->path) != 0)
        g_assert_true (record->pstats == same_record (first, record)->pstats);
    }
}

/* A refresh whose listing misses a node (S3 failed every attempt) fails:
 * the job shown stays whole; once S3 answers, the refresh goes through. */
static void
test_reopen_incomplete (Fixture       *fixture,
                        gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .max_attempts = 2 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) first = NULL;
  g_autoptr(SmprofJob) second = NULL;
  g_autoptr(SmprofJob) third = NULL;
  g_autoptr(GError) error = NULL;
  const char *node_prefix = ROOT "/framework/pytorch/cprofile/1-algo-2/";
  SmprofJobChanges changes;

  first = smprof_job_open (source, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  fake_bucket_fail_listings (fixture->bucket, node_prefix, G_MAXUINT);
  second = smprof_job_open (source, first, &changes, NULL, &error);
  g_assert_null (second);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "1-algo-2"));
  g_clear_error (&error);

  fake_bucket_fail_listings (fixture->bucket, node_prefix, 0);
  third = smprof_job_open (source, first, &changes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (changes, ==, SMPROF_JOB_CHANGED_NOTHING);
  g_assert_cmpuint (count_records (third), ==, count_records (first));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/s3-source/open-and-load", test_open_and_load);
  ADD ("/s3-source/failing-key", test_failing_key);
  ADD ("/s3-source/progress", test_progress);
  ADD ("/s3-source/cache", test_cache);
  ADD ("/s3-source/deeper-prefix", test_deeper_prefix);
  ADD ("/s3-source/not-a-job", test_not_a_job);
  ADD ("/s3-source/step-events", test_step_events);
  ADD ("/s3-source/repeated-keys", test_repeated_keys);
  ADD ("/s3-source/replaced-object", test_replaced_object);
  ADD ("/s3-source/too-large", test_too_large);
  ADD ("/s3-source/etag-differs", test_etag_differs);
  ADD ("/s3-source/edited-listing", test_edited_listing);
  ADD ("/s3-source/fifo-in-cache", test_fifo_in_cache);
  ADD ("/s3-source/cache-limit-after-run", test_cache_limit_after_run);
  ADD ("/s3-source/reopen", test_reopen);
  ADD ("/s3-source/reopen-incomplete", test_reopen_incomplete);
#undef ADD
  g_test_add ("/s3-source/cut-body/connection-close", Fixture, GINT_TO_POINTER (CUT_CLOSE),
              fixture_set_up, test_cut_body, fixture_tear_down);
  g_test_add ("/s3-source/cut-body/keep-alive", Fixture, GINT_TO_POINTER (CUT_KEEP_ALIVE),
              fixture_set_up, test_cut_body, fixture_tear_down);
  g_test_add ("/s3-source/cut-body/short-length", Fixture, GINT_TO_POINTER (SHORT_LENGTH),
              fixture_set_up, test_cut_body, fixture_tear_down);
  g_test_add ("/s3-source/failed-listing-not-cached", Fixture, GINT_TO_POINTER (LISTING_FAILS),
              fixture_set_up, test_incomplete_listing_not_cached, fixture_tear_down);
  g_test_add ("/s3-source/looping-listing-not-cached", Fixture, GINT_TO_POINTER (LISTING_LOOPS),
              fixture_set_up, test_incomplete_listing_not_cached, fixture_tear_down);
  g_test_add_func ("/s3-source/bad-uris", test_bad_uris);

  return g_test_run ();
}
