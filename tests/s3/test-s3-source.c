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

#include "s3-fake-bucket.h"
#include "smprof-job.h"
#include "smprof-local-source.h"
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
#undef ADD
  g_test_add ("/s3-source/failed-listing-not-cached", Fixture, GINT_TO_POINTER (LISTING_FAILS),
              fixture_set_up, test_incomplete_listing_not_cached, fixture_tear_down);
  g_test_add ("/s3-source/looping-listing-not-cached", Fixture, GINT_TO_POINTER (LISTING_LOOPS),
              fixture_set_up, test_incomplete_listing_not_cached, fixture_tear_down);
  g_test_add_func ("/s3-source/bad-uris", test_bad_uris);

  return g_test_run ();
}
