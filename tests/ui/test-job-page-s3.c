/* test-job-page-s3.c: the job page of an s3:// job on a slow loopback S3
 * (a copy of tests/data/real-smdebug/pt-cprofile): the page and its
 * timeline show before any stats file is downloaded, the status line counts
 * the selection's files, and a selection made while the whole job is read
 * has its own files fetched first; the rest follow in the background.
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>
#include <string.h>

#include "core-test-util.h"
#include "s3-fake-bucket.h"
#include "smprof-job-page-private.h"
#include "smprof-sagemaker-document.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-private.h"
#include "smprof-ui-settings.h"
#include "smprof-viewer-api.h"
#include "ui-test-util.h"

#define ROOT "jobs/pt/profiler-output"
#define URI "s3://bucket/" ROOT
/* Slow enough that reading the whole job takes seconds (82 files, two at a
 * time), so what comes first shows in the order of the requests. */
#define GET_DELAY_MS 40
#define CONNECTIONS 2

typedef struct
{
  FakeBucket    *bucket;
  GSettings     *s3_settings;
  SmvDataSource *source;
  SmvDocument   *document;
  SmprofJobPage *page;
  GtkWidget     *window;
  GHashTable    *seen_status;  /* status line texts seen while waiting */
} Fixture;

/* The stats files S3 has served so far, in the order it served them. */
static GPtrArray *
dup_stats_gets (FakeBucket *bucket)
{
  g_autoptr(GPtrArray) keys = fake_bucket_dup_get_log (bucket);
  GPtrArray *stats = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < keys->len; i++)
    if (g_str_has_suffix (g_ptr_array_index (keys, i), "/python_stats"))
      g_ptr_array_add (stats, g_strdup (g_ptr_array_index (keys, i)));

  return stats;
}

static guint
count_stats_gets (FakeBucket *bucket)
{
  g_autoptr(GPtrArray) stats = dup_stats_gets (bucket);

  return stats->len;
}

static void
open_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Iterates the main loop until @done. */
static gboolean
wait_until (Fixture   *fixture,
            gboolean (*done) (Fixture *fixture, gpointer data),
            gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 90 * G_USEC_PER_SEC;

  while (!done (fixture, data))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  return TRUE;
}

static void
status_label_cb (GtkLabel   *label,
                 GParamSpec *pspec,
                 Fixture    *fixture)
{
  g_hash_table_add (fixture->seen_status, g_strdup (gtk_label_get_label (label)));
}

static gboolean
has_stats_gets (Fixture *fixture,
                gpointer data)
{
  return count_stats_gets (fixture->bucket) >= GPOINTER_TO_UINT (data);
}

static gboolean
answered (Fixture *fixture,
          gpointer data)
{
  SmprofSession *session = smprof_job_page_get_session (fixture->page);

  return !smprof_session_get_busy (session) && smprof_session_get_profile (session) != NULL;
}

static gboolean
has_range_index (Fixture *fixture,
                 gpointer data)
{
  return smprof_session_get_range_index (smprof_job_page_get_session (fixture->page)) != NULL;
}

/* Pixels of the timeline in the colour of a train block. */
static guint
count_train_pixels (SmprofTimeline *timeline)
{
  g_autoptr(GdkTexture) texture = ui_test_render (GTK_WIDGET (timeline));
  GdkRGBA color;
  double rgb[3];
  guint32 train;
  guint n = 0;

  smprof_timeline_get_mode_color (SMPROF_MODE_TRAIN, timeline->dark, &color);
  rgb[0] = color.red;
  rgb[1] = color.green;
  rgb[2] = color.blue;
  train = ui_test_rgb_to_pixel (rgb);
  for (int y = 0; y < gdk_texture_get_height (texture); y++)
    for (int x = 0; x < gdk_texture_get_width (texture); x++)
      if (ui_test_pixel_near (ui_test_pixel (texture, x, y), train, 2))
        n++;

  return n;
}

/* The records of node 1-algo-2's train step 17, near the end of the job. */
static GPtrArray *
step_records (SmprofJob *job)
{
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  GPtrArray *step = g_ptr_array_new ();

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (strcmp (record->node_id, "1-algo-2") == 0 && g_str_has_prefix (record->interval, "train-17-"))
        g_ptr_array_add (step, record);
    }

  return step;
}

static int
position_of (GPtrArray  *keys,
             const char *key)
{
  for (guint i = 0; i < keys->len; i++)
    if (strcmp (g_ptr_array_index (keys, i), key) == 0)
      return (int) i;
  return -1;
}

static void
test_listing_first (void)
{
  g_autofree char *framework = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile",
                                                      "framework", NULL);
  g_autoptr(GFile) location = g_file_new_for_uri (URI);
  g_autoptr(SmvProgress) progress = smv_progress_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) step = NULL;
  g_autoptr(GPtrArray) gets = NULL;
  g_autofree char *reading_whole = NULL;
  Fixture fixture = { 0 };
  SmprofJob *job;
  GPtrArray *records;
  GHashTableIter iter;
  gpointer text;
  gboolean saw_whole_job_count = FALSE;
  guint n_records, at_select, train_pixels;

  fixture.seen_status = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fixture.bucket = fake_bucket_new_from_folder (ROOT "/framework", framework, 0);
  fake_bucket_set_get_delay (fixture.bucket, GET_DELAY_MS * G_TIME_SPAN_MILLISECOND);
  fake_bucket_export_env (fixture.bucket);

  /* no S3 cache: every file read comes from the server, and counts */
  fixture.s3_settings = smprof_ui_settings_new ("s3");
  g_settings_set_uint64 (fixture.s3_settings, "cache-size", 0);
  g_settings_set_uint (fixture.s3_settings, "max-connections", CONNECTIONS);

  /* 1. The open lists the job and reads no stats file. */
  fixture.source = g_object_new (SMPROF_TYPE_SAGEMAKER_SOURCE, NULL);
  smv_data_source_open_async (fixture.source, location, progress, NULL, open_ready_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  fixture.document = smv_data_source_open_finish (fixture.source, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_stats_gets (fixture.bucket), ==, 0);

  job = smprof_sagemaker_document_get_job (SMPROF_SAGEMAKER_DOCUMENT (fixture.document));
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  n_records = records->len;
  g_assert_cmpuint (n_records, ==, 82);

  /* 2. The page, with its timeline drawn, while the whole job (its first
   * selection) is still being read. */
  fixture.page = SMPROF_JOB_PAGE (smv_data_source_create_page (fixture.source, fixture.document));
  status_label_cb (fixture.page->status_label, NULL, &fixture);
  g_signal_connect (fixture.page->status_label, "notify::label", G_CALLBACK (status_label_cb), &fixture);
  fixture.window = ui_test_present (GTK_WIDGET (fixture.page), 1400, 900);
  g_assert_true (wait_until (&fixture, has_stats_gets, GUINT_TO_POINTER (4)));
  train_pixels = count_train_pixels (fixture.page->timeline);
  g_test_message ("timeline drawn with %u train-block pixels after %u of %u stats GETs", train_pixels,
                  count_stats_gets (fixture.bucket), n_records);
  g_assert_cmpuint (train_pixels, >, 500);
  g_assert_true (smprof_session_get_busy (smprof_job_page_get_session (fixture.page)));
  g_assert_cmpuint (smprof_session_get_files_to_read (smprof_job_page_get_session (fixture.page)), ==, n_records);

  /* the status line counts the whole job's files as they come */
  reading_whole = g_strdup_printf (" of %u stats files for this selection…", n_records);
  g_hash_table_iter_init (&iter, fixture.seen_status);
  while (g_hash_table_iter_next (&iter, &text, NULL))
    {
      g_test_message ("status seen: %s", (const char *) text);
      if (g_str_has_prefix (text, "Reading ") && g_str_has_suffix (text, reading_whole))
        saw_whole_job_count = TRUE;
    }
  g_assert_true (saw_whole_job_count);

  /* 3. One step near the end of the job, chosen while the whole job is
   * read: its two files come next (after those in flight and at most one
   * background batch), long before the whole job is in. */
  step = step_records (job);
  g_assert_cmpuint (step->len, ==, 2);
  at_select = count_stats_gets (fixture.bucket);
  smprof_session_select_records (smprof_job_page_get_session (fixture.page), step);
  g_assert_true (wait_until (&fixture, answered, NULL));

  gets = dup_stats_gets (fixture.bucket);
  g_test_message ("step chosen after %u stats GETs; answered after %u", at_select, gets->len);
  g_assert_cmpuint (gets->len, <, n_records);
  for (guint i = 0; i < step->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (step, i);
      g_autofree char *key = g_strconcat (ROOT "/", record->path, NULL);
      int position = position_of (gets, key);

      g_test_message ("%s: GET number %d", record->interval, position + 1);
      g_assert_cmpint (position, >=, 0);
      g_assert_cmpint (position, <, (int) (at_select + 2 * CONNECTIONS + 32 + step->len));
      g_assert_nonnull (record->pstats);
    }
  /* the status line is the answer's again */
  g_assert_nonnull (strstr (gtk_label_get_label (fixture.page->status_label), "2 intervals"));

  /* 4. The rest in the background: the range index, over every file. */
  g_assert_true (wait_until (&fixture, has_range_index, NULL));
  g_assert_cmpuint (smprof_job_count_read_stats (job, records), ==, n_records);
  for (guint i = 0; i < n_records; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_false (record->failed);
      g_assert_nonnull (record->pstats);
    }

  gtk_window_destroy (GTK_WINDOW (fixture.window));
  ui_test_settle ();
  g_clear_object (&fixture.document);
  g_clear_object (&fixture.source);
  g_clear_object (&fixture.s3_settings);
  g_clear_pointer (&fixture.bucket, fake_bucket_free);
  g_clear_pointer (&fixture.seen_status, g_hash_table_unref);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = g_dir_make_tmp ("smprof-page-s3-XXXXXX", NULL);
  g_autofree char *cache = NULL;
  g_autofree char *config = NULL;
  int status;

  /* A temporary HOME and XDG folders, set before GLib first reads them. */
  g_assert_nonnull (home);
  cache = g_build_filename (home, "cache", NULL);
  config = g_build_filename (home, "config", NULL);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);

  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);
  smv_data_source_ensure_extension_point ();

  g_test_add_func ("/job-page/s3/listing-first", test_listing_first);

  status = g_test_run ();
  core_test_remove_tree (home);

  return status;
}
