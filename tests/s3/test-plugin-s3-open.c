/* test-plugin-s3-open.c: the plugin's data source opening an s3:// job from a
 * loopback fake S3 holding a copy of tests/data/real-smdebug/pt-cprofile: the
 * loading bar's texts, an open that reads no stats file (the page reads
 * what its selection needs), the files read later from S3 and then from the
 * cache, and Cancel
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>
#include <string.h>

#include "core-test-util.h"
#include "s3-fake-bucket.h"
#include "smprof-job.h"
#include "smprof-sagemaker-document.h"
#include "smprof-sagemaker-source.h"
#include "smprof-ui-settings.h"
#include "smprof-viewer-api.h"

#define ROOT "jobs/pt/profiler-output"
#define URI "s3://bucket/" ROOT

typedef struct
{
  char   *text;
  double  fraction;
} Shown;

static void
shown_free (gpointer data)
{
  Shown *shown = data;

  g_free (shown->text);
  g_free (shown);
}

typedef struct
{
  GPtrArray    *shown;              /* Shown, each change of the bar */
} ProgressLog;

static void
progress_notify_cb (SmvProgress *progress,
                    GParamSpec  *pspec,
                    ProgressLog *log)
{
  const char *text = smv_progress_get_text (progress);
  double fraction = smv_progress_get_fraction (progress);
  Shown *last = log->shown->len > 0 ? g_ptr_array_index (log->shown, log->shown->len - 1) : NULL;
  Shown *shown;

  /* report() sets both properties at once: one entry per change */
  if (last != NULL && g_strcmp0 (last->text, text) == 0 && last->fraction == fraction)
    return;

  shown = g_new0 (Shown, 1);
  shown->text = g_strdup (text);
  shown->fraction = fraction;
  g_ptr_array_add (log->shown, shown);
}

typedef struct
{
  FakeBucket    *bucket;
  SmvDataSource *source;
  GSettings     *s3_settings;
  guint          n_records;  /* cProfile records of the local copy */
} Fixture;

static guint
count_python_stats (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        n += count_python_stats (path);
      else if (strcmp (name, "python_stats") == 0)
        n++;
    }
  return n;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *framework = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile",
                                                      "framework", NULL);

  fixture->bucket = fake_bucket_new_from_folder (ROOT "/framework", framework, 0);
  fixture->n_records = count_python_stats (framework);
  g_assert_cmpuint (fixture->n_records, >, 1);

  fake_bucket_export_env (fixture->bucket);
  g_unsetenv ("SMPROF_S3_CACHE_MAX_SIZE");
  g_unsetenv ("SMPROF_S3_MAX_CONNECTIONS");

  /* the viewer's settings, which the data source reads (memory backend) */
  fixture->s3_settings = smprof_ui_settings_new ("s3");
  g_assert_nonnull (fixture->s3_settings);
  g_settings_reset (fixture->s3_settings, "cache-size");
  g_settings_reset (fixture->s3_settings, "max-connections");

  fixture->source = g_object_new (SMPROF_TYPE_SAGEMAKER_SOURCE, NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->source);
  g_clear_object (&fixture->s3_settings);
  g_clear_pointer (&fixture->bucket, fake_bucket_free);
}

static void
open_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Opens URI as the viewer does, recording the loading bar. */
static SmvDocument *
open_job (Fixture      *fixture,
          ProgressLog  *log,
          GError      **error)
{
  g_autoptr(GFile) location = g_file_new_for_uri (URI);
  g_autoptr(SmvProgress) progress = smv_progress_new ();
  g_autoptr(GAsyncResult) result = NULL;

  log->shown = g_ptr_array_new_with_free_func (shown_free);
  g_signal_connect (progress, "notify", G_CALLBACK (progress_notify_cb), log);

  g_assert_true (smv_data_source_can_open (fixture->source, location));
  smv_data_source_open_async (fixture->source, location, progress, NULL,
                              open_ready_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  /* the worker's last reports may still be queued behind the result */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_signal_handlers_disconnect_by_func (progress, progress_notify_cb, log);
  return smv_data_source_open_finish (fixture->source, result, error);
}

/* "Listing S3" only: the open reads the listing and the framework
 * timelines, never a stats file, so the bar never says it reads them. */
static void
assert_progress (ProgressLog *log)
{
  gboolean listed = FALSE;

  for (guint i = 0; i < log->shown->len; i++)
    {
      Shown *shown = g_ptr_array_index (log->shown, i);

      g_test_message ("%.3f %s", shown->fraction, shown->text);
      if (shown->text == NULL)
        continue;
      g_assert_false (g_str_has_prefix (shown->text, "Reading"));
      if (g_str_has_prefix (shown->text, "Listing S3: "))
        listed = TRUE;
    }

  g_assert_true (listed);
}

/* The page's first selection, the whole job: every cProfile record. */
static gboolean
load_whole_job (SmvDocument   *document,
                GCancellable  *cancellable,
                GError       **error)
{
  SmprofJob *job = smprof_sagemaker_document_get_job (SMPROF_SAGEMAKER_DOCUMENT (document));

  return smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), cancellable, error);
}

/* No cProfile record read yet. */
static void
assert_nothing_loaded (SmvDocument *document)
{
  SmprofJob *job = smprof_sagemaker_document_get_job (SMPROF_SAGEMAKER_DOCUMENT (document));
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  g_assert_cmpuint (smprof_job_count_read_stats (job, records), ==, 0);
  for (guint i = 0; i < records->len; i++)
    g_assert_null (((SmprofRecord *) g_ptr_array_index (records, i))->pstats);
}

/* Every cProfile record read, none failed. */
static void
assert_stats_loaded (SmvDocument *document,
                     guint        n_records)
{
  SmprofJob *job = smprof_sagemaker_document_get_job (SMPROF_SAGEMAKER_DOCUMENT (document));
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  g_assert_cmpuint (records->len, ==, n_records);
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_false (record->failed);
      g_assert_nonnull (record->pstats);
    }
}

/* GETs of python_stats keys, each key once at most; any other GET is of a
 * framework timeline (the timeline's steps), never a Pyinstrument or HTML
 * file. */
static guint
count_stats_gets (FakeBucket *bucket)
{
  g_autoptr(GPtrArray) keys = fake_bucket_dup_got_keys (bucket);
  guint n = 0;

  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);

      if (g_str_has_suffix (key, "/python_stats"))
        {
          g_assert_cmpuint (fake_bucket_get_key_gets (bucket, key), ==, 1);
          n++;
        }
      else
        {
          g_assert_true (g_str_has_prefix (key, ROOT "/framework/pevents/"));
          g_assert_true (g_str_has_suffix (key, "_pythontimeline.json"));
        }
    }
  return n;
}

/* The cache turned off in the settings: the open downloads no stats file;
 * reading the whole job then downloads each once. */
static void
test_open_no_cache (Fixture       *fixture,
                    gconstpointer  data)
{
  ProgressLog log = { 0 };
  g_autoptr(SmvDocument) document = NULL;
  g_autoptr(GError) error = NULL;

  g_settings_set_uint64 (fixture->s3_settings, "cache-size", 0);
  g_settings_set_uint (fixture->s3_settings, "max-connections", 4);

  document = open_job (fixture, &log, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);

  assert_progress (&log);
  g_assert_cmpuint (count_stats_gets (fixture->bucket), ==, 0);
  assert_nothing_loaded (document);
  g_clear_pointer (&log.shown, g_ptr_array_unref);

  g_assert_true (load_whole_job (document, NULL, &error));
  g_assert_no_error (error);
  assert_stats_loaded (document, fixture->n_records);
  g_assert_cmpuint (count_stats_gets (fixture->bucket), ==, fixture->n_records);

  /* nothing was kept: a second open downloads them all again */
  g_clear_object (&document);
  document = open_job (fixture, &log, &error);
  g_assert_no_error (error);
  g_assert_true (load_whole_job (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), >=, 2 * fixture->n_records);
  g_clear_pointer (&log.shown, g_ptr_array_unref);
}

/* With the cache (in the test's own XDG_CACHE_HOME): the first reading
 * fills it, the second open's reads no stats file from S3. */
static void
test_open_cached (Fixture       *fixture,
                  gconstpointer  data)
{
  ProgressLog log = { 0 };
  g_autoptr(SmvDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  guint n_gets;

  document = open_job (fixture, &log, &error);
  g_assert_no_error (error);
  assert_progress (&log);
  g_assert_true (load_whole_job (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_stats_gets (fixture->bucket), ==, fixture->n_records);
  g_clear_pointer (&log.shown, g_ptr_array_unref);
  g_clear_object (&document);

  n_gets = fake_bucket_get_n_gets (fixture->bucket);
  document = open_job (fixture, &log, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);
  assert_progress (&log);
  assert_nothing_loaded (document);
  g_assert_true (load_whole_job (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets);
  assert_stats_loaded (document, fixture->n_records);
  g_clear_pointer (&log.shown, g_ptr_array_unref);
}

typedef struct
{
  SmvDocument  *document;
  GCancellable *cancellable;
  GError       *error;
  gboolean      loaded;
  gboolean      done;
} Reading;

static gpointer
read_whole_job_thread (gpointer data)
{
  Reading *reading = data;

  reading->loaded = load_whole_job (reading->document, reading->cancellable, &reading->error);
  g_atomic_int_set (&reading->done, TRUE);

  return NULL;
}

/* Cancel the whole job's reading after a few downloads: it stops as
 * cancelled, far from all done (each GET takes 20 ms here, one at a time),
 * and a reading asked again afterwards completes it. */
static void
test_read_cancelled (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  ProgressLog log = { 0 };
  g_autoptr(SmvDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  Reading reading = { 0 };
  GThread *thread;

  g_settings_set_uint64 (fixture->s3_settings, "cache-size", 0);
  g_settings_set_uint (fixture->s3_settings, "max-connections", 1);
  fake_bucket_set_get_delay (fixture->bucket, 20 * G_TIME_SPAN_MILLISECOND);

  document = open_job (fixture, &log, &error);
  g_assert_no_error (error);
  g_clear_pointer (&log.shown, g_ptr_array_unref);

  reading.document = document;
  reading.cancellable = cancellable;
  thread = g_thread_new ("read-whole-job", read_whole_job_thread, &reading);
  while (count_stats_gets (fixture->bucket) < 3)
    g_usleep (1000);
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);

  g_test_message ("cancelled after %u stats GETs", count_stats_gets (fixture->bucket));
  g_assert_true (reading.done);
  g_assert_false (reading.loaded);
  g_assert_error (reading.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&reading.error);
  g_assert_cmpuint (count_stats_gets (fixture->bucket), <, fixture->n_records / 2);

  g_assert_true (load_whole_job (document, NULL, &error));
  g_assert_no_error (error);
  assert_stats_loaded (document, fixture->n_records);
}

typedef struct
{
  SmprofJob    *job;
  GCancellable *cancellable;
  gboolean      loaded;
} Background;

static gpointer
read_in_background_thread (gpointer data)
{
  Background *background = data;
  g_autoptr(GError) error = NULL;

  background->loaded = smprof_job_load_stats_in_background (background->job,
                                                            smprof_job_get_records (background->job,
                                                                                    SMPROF_PROFILER_CPROFILE),
                                                            background->cancellable, &error);
  g_assert_no_error (error);

  return NULL;
}

/* While the whole job is read in the background (the range index, the
 * outlier steps), a selection asked for later has its files fetched next:
 * after those in flight and one background batch (32), not after the
 * whole job. Six more nodes (copies of node 0-algo-1) make the job 8 x 41
 * files, so the whole job is far more than a batch. */
static void
test_selection_first (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *node = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", "framework",
                                                 "pytorch", "cprofile", "0-algo-1", NULL);
  ProgressLog log = { 0 };
  g_autoptr(SmvDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) step = g_ptr_array_new ();
  g_autoptr(GPtrArray) gets = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Background background = { 0 };
  GPtrArray *records;
  GThread *thread;
  guint at_select, n_all;

  for (guint n = 2; n < 8; n++)
    {
      g_autofree char *prefix = g_strdup_printf (ROOT "/framework/pytorch/cprofile/%u-algo-%u", n, n + 1);

      fake_bucket_add_folder (fixture->bucket, prefix, node);
    }
  g_settings_set_uint64 (fixture->s3_settings, "cache-size", 0);
  g_settings_set_uint (fixture->s3_settings, "max-connections", 2);
  fake_bucket_set_get_delay (fixture->bucket, 10 * G_TIME_SPAN_MILLISECOND);

  document = open_job (fixture, &log, &error);
  g_assert_no_error (error);
  g_clear_pointer (&log.shown, g_ptr_array_unref);
  background.job = smprof_sagemaker_document_get_job (SMPROF_SAGEMAKER_DOCUMENT (document));
  records = smprof_job_get_records (background.job, SMPROF_PROFILER_CPROFILE);
  n_all = records->len;
  g_assert_cmpuint (n_all, ==, fixture->n_records + 6 * 41);

  /* the last two intervals in record order: the background reads them last */
  g_ptr_array_add (step, g_ptr_array_index (records, n_all - 2));
  g_ptr_array_add (step, g_ptr_array_index (records, n_all - 1));

  background.cancellable = cancellable;
  thread = g_thread_new ("background", read_in_background_thread, &background);
  while (count_stats_gets (fixture->bucket) < 10)
    g_usleep (1000);

  at_select = count_stats_gets (fixture->bucket);
  g_assert_true (smprof_job_load_stats (background.job, step, NULL, &error));
  g_assert_no_error (error);

  gets = fake_bucket_dup_get_log (fixture->bucket);
  for (guint i = gets->len; i > 0; i--)
    if (!g_str_has_suffix (g_ptr_array_index (gets, i - 1), "/python_stats"))
      g_ptr_array_remove_index (gets, i - 1);
  g_test_message ("selection asked after %u stats GETs, read after %u of %u", at_select,
                  count_stats_gets (fixture->bucket), n_all);
  for (guint i = 0; i < step->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (step, i);
      g_autofree char *key = g_strconcat (ROOT "/", record->path, NULL);
      guint position = 0;

      g_assert_true (g_ptr_array_find_with_equal_func (gets, key, g_str_equal, &position));
      g_test_message ("%s: GET number %u", record->interval, position + 1);
      g_assert_cmpuint (position, <, at_select + 32 + 2 * 2 + step->len + 4);
      g_assert_nonnull (record->pstats);
    }
  g_assert_cmpuint (count_stats_gets (fixture->bucket), <, n_all / 2);

  /* the background reading goes on, and ends with every file */
  g_thread_join (thread);
  g_assert_true (background.loaded);
  g_assert_cmpuint (smprof_job_count_read_stats (background.job, records), ==, n_all);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = g_dir_make_tmp ("smprof-s3-open-XXXXXX", NULL);
  g_autofree char *cache = NULL;
  g_autofree char *config = NULL;
  int status;

  /* A temporary HOME and XDG folders, set before GLib first reads them: the
   * S3 cache starts empty and the user's is never touched. Only the cached
   * test writes to it (the others set cache-size 0). Not
   * G_TEST_OPTION_ISOLATE_DIRS: GLib then keeps each test's old folder names
   * alive on purpose, which LeakSanitizer reports. */
  g_assert_nonnull (home);
  cache = g_build_filename (home, "cache", NULL);
  config = g_build_filename (home, "config", NULL);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);

  g_test_init (&argc, &argv, NULL);

  smv_data_source_ensure_extension_point ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/plugin-s3-open/no-cache", test_open_no_cache);
  ADD ("/plugin-s3-open/cached", test_open_cached);
  ADD ("/plugin-s3-open/read-cancelled", test_read_cancelled);
  ADD ("/plugin-s3-open/selection-first", test_selection_first);
#undef ADD

  status = g_test_run ();
  core_test_remove_tree (home);

  return status;
}
