/* test-s3-source.c: SmprofS3Source and the job loader over a small in-memory
 * S3 on a loopback server (s3-fake-bucket.c: ListObjectsV2 with prefixes,
 * delimiters and pages), filled with a real job from tests/data: listings
 * (pages that repeat keys, failing and looping ones, which are not cached),
 * downloads, progress, the cache, and opening a job again for a live refresh
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "s3-source-test-util.h"
#include "smprof-local-source.h"

/* Same records as the local copy, each stats file fetched exactly once
 * (prefetched over the pool, handed to load without a cache), none failing. */
static void
test_open_and_load (S3TestFixture *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_connections = 4 };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = s3_test_load_job (source);
  g_autoptr(SmprofJob) local = s3_test_load_job (local_source);
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
test_failing_key (S3TestFixture *fixture,
                  gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_attempts = 2 };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = s3_test_load_job (source);
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
test_progress (S3TestFixture *fixture,
               gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = NULL;
  ProgressLog log = { 0 };
  guint notified = 0;
  guint64 listed = 0, fetched = 0;

  smprof_s3_source_set_progress_func (SMPROF_S3_SOURCE (source), progress_cb, &log, NULL);
  g_signal_connect (source, "notify::objects-fetched", G_CALLBACK (count_notify_cb), &notified);

  job = s3_test_load_job (source);
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
test_cache (S3TestFixture *fixture,
            gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  guint n_lists, n_gets;

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
  }
  n_lists = fake_bucket_get_n_lists (fixture->bucket);
  n_gets = fake_bucket_get_n_gets (fixture->bucket);
  g_assert_cmpuint (n_gets, >, 0);

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);
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
    job = s3_test_load_job (source);
    g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), >, n_lists);
  }
}

static void
test_deeper_prefix (S3TestFixture *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT "/framework/pytorch/cprofile/", &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = s3_test_load_job (source);
  g_autoptr(SmprofJob) local = s3_test_load_job (local_source);
  g_autofree char *location = smprof_source_dup_location (source);
  g_autofree char *file = NULL;

  g_assert_cmpuint (s3_test_count_records (job), ==, s3_test_count_records (local));
  g_assert_cmpstr (location, ==, "s3://bucket/" ROOT);
  file = smprof_source_dup_file_location (source, "framework/x");
  g_assert_cmpstr (file, ==, "s3://bucket/" ROOT "/framework/x");
}

static void
test_not_a_job (S3TestFixture *fixture,
                gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/jobs/none", &options);
  g_autoptr(SmprofJob) job = smprof_job_new (source);
  g_autoptr(GError) error = NULL;

  g_assert_false (smprof_job_load (job, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_bad_uris (void)
{
  static const char *bad[] = { "s3://", "s3:///key", "http://bucket/key", "bucket/key" };

  g_assert_true (smprof_source_text_is_s3_uri ("S3://b/k"));
  g_assert_false (smprof_source_text_is_s3_uri ("/data/s3://x"));

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
test_step_events (S3TestFixture *fixture,
                  gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_connections = 4 };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = s3_test_load_job (source);
  g_autoptr(SmprofJob) local = s3_test_load_job (local_source);
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

/* Pages that repeat the last key (and common prefix) of the page before:
 * every interval counted once, the totals of the local copy, and one
 * problem that says so. */
static void
test_repeated_keys (S3TestFixture *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(SmprofJob) local = s3_test_load_job (local_source);
  g_autoptr(GPtrArray) problems = NULL;
  gint64 calls, local_calls;
  double seconds, local_seconds;

  fake_bucket_set_repeat_seams (fixture->bucket, TRUE);
  source = s3_test_open ("s3://bucket/" ROOT, &options);
  job = s3_test_load_job (source);

  g_assert_cmpuint (s3_test_count_records (job), ==, s3_test_count_records (local));
  s3_test_job_totals (job, &calls, &seconds);
  s3_test_job_totals (local, &local_calls, &local_seconds);
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
test_incomplete_listing_not_cached (S3TestFixture *fixture,
                                    gconstpointer  data)
{
  ListingFault fault = GPOINTER_TO_INT (data);
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .max_attempts = 2 };
  const char *node_prefix = ROOT "/framework/pytorch/cprofile/1-algo-2/";
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) local = s3_test_load_job (local_source);
  guint n_lists;

  if (fault == LISTING_FAILS)
    fake_bucket_fail_listings (fixture->bucket, node_prefix, G_MAXUINT);
  else
    fake_bucket_set_looping_listing (fixture->bucket, node_prefix, TRUE);

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);
    g_auto(GStrv) nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);

    g_assert_cmpuint (g_strv_length (nodes), ==, 1);
    g_assert_cmpstr (nodes[0], ==, "0-algo-1");
    g_assert_cmpuint (s3_test_count_problems (job, "1-algo-2"), ==, 1);
  }

  fake_bucket_fail_listings (fixture->bucket, node_prefix, 0);
  fake_bucket_set_looping_listing (fixture->bucket, node_prefix, FALSE);
  n_lists = fake_bucket_get_n_lists (fixture->bucket);

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);
    g_auto(GStrv) nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
    g_autoptr(GPtrArray) problems = smprof_job_dup_problems (job);
    SmprofS3Progress progress;

    smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
    g_assert_false (progress.listing_from_cache);
    g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), >, n_lists);
    g_assert_cmpuint (g_strv_length (nodes), ==, 2);
    g_assert_cmpuint (s3_test_count_records (job), ==, s3_test_count_records (local));
    g_assert_cmpuint (problems->len, ==, 0);
  }

  /* complete, it was cached: a third open sends no listing */
  n_lists = fake_bucket_get_n_lists (fixture->bucket);
  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);

    g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), ==, n_lists);
    g_assert_cmpuint (s3_test_count_records (job), ==, s3_test_count_records (local));
  }
}

/* A live refresh of an S3 job: the listing comes from S3 though one is
 * cached, an object S3 failed to send is asked for again on each refresh
 * and counts once it comes, and nothing else is downloaded again. */
static void
test_reopen (S3TestFixture *fixture,
             gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .max_attempts = 2 };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
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
  victim = s3_test_record_and_key (first, 6, &key);
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
  g_assert_true (s3_test_same_record (second, victim)->failed);

  fake_bucket_remove_failing_key (fixture->bucket, key);
  n_gets = fake_bucket_get_n_gets (fixture->bucket);
  third = smprof_job_open (source, second, &changes, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (changes & SMPROF_JOB_CHANGED_STATS);
  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets + 1);
  g_assert_nonnull (s3_test_same_record (third, victim)->pstats);
  for (guint i = 0; i < smprof_job_get_records (third, SMPROF_PROFILER_CPROFILE)->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (smprof_job_get_records (third, SMPROF_PROFILER_CPROFILE), i);

      g_assert_nonnull (record->pstats);
      if (strcmp (record->path, victim->path) != 0)
        g_assert_true (record->pstats == s3_test_same_record (first, record)->pstats);
    }
}

/* A refresh whose listing misses a node (S3 failed every attempt) fails:
 * the job shown stays whole; once S3 answers, the refresh goes through. */
static void
test_reopen_incomplete (S3TestFixture *fixture,
                        gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .max_attempts = 2 };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
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
  g_assert_cmpuint (s3_test_count_records (third), ==, s3_test_count_records (first));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, S3TestFixture, NULL, s3_test_set_up, func, s3_test_tear_down)
  ADD ("/s3-source/open-and-load", test_open_and_load);
  ADD ("/s3-source/failing-key", test_failing_key);
  ADD ("/s3-source/progress", test_progress);
  ADD ("/s3-source/cache", test_cache);
  ADD ("/s3-source/deeper-prefix", test_deeper_prefix);
  ADD ("/s3-source/not-a-job", test_not_a_job);
  ADD ("/s3-source/step-events", test_step_events);
  ADD ("/s3-source/repeated-keys", test_repeated_keys);
  ADD ("/s3-source/reopen", test_reopen);
  ADD ("/s3-source/reopen-incomplete", test_reopen_incomplete);
#undef ADD
  g_test_add ("/s3-source/failed-listing-not-cached", S3TestFixture, GINT_TO_POINTER (LISTING_FAILS),
              s3_test_set_up, test_incomplete_listing_not_cached, s3_test_tear_down);
  g_test_add ("/s3-source/looping-listing-not-cached", S3TestFixture, GINT_TO_POINTER (LISTING_LOOPS),
              s3_test_set_up, test_incomplete_listing_not_cached, s3_test_tear_down);
  g_test_add_func ("/s3-source/bad-uris", test_bad_uris);

  return g_test_run ();
}
