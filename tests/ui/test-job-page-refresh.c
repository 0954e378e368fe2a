/* test-job-page-refresh.c: live refresh of a job page while intervals arrive
 * in its folder (as `aws s3 sync` of a training job brings them)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "smprof-job-page-private.h"
#include "smprof-local-source.h"
#include "smprof-sagemaker-document.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-layout.h"
#include "smprof-ui-settings.h"
#include "page-test-util.h"
#include "ui-test-util.h"

#define CPROFILE_DIR "framework/pytorch/cprofile"

typedef struct
{
  char *job_dir;    /* the copy the page shows */
  char *held_dir;   /* intervals kept out of it, to arrive later */
  guint n_total;    /* interval folders of the original */
  guint n_held;
} Fixture;

/* The microseconds an interval folder's name ends at: its last field. */
static double
interval_end (const char *name)
{
  const char *dash = strrchr (name, '-');

  g_assert_nonnull (dash);

  return g_ascii_strtod (dash + 1, NULL);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* A copy of pt-cprofile in a temporary folder, without the intervals that
 * end after the median end, each node's latest ones: those wait in held_dir. */
static void
fixture_set_up (Fixture *fixture)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("smprof-refresh-XXXXXX", NULL);
  g_autofree char *cprofile_dir = NULL;
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GDir) nodes = NULL;
  const char *node;
  double median;

  g_assert_nonnull (tmp);
  fixture->job_dir = g_build_filename (tmp, "job", NULL);
  fixture->held_dir = g_build_filename (tmp, "held", NULL);
  page_test_run ((const char *[]) { "cp", "-R", source, fixture->job_dir, NULL });
  g_assert_cmpint (g_mkdir (fixture->held_dir, 0700), ==, 0);

  cprofile_dir = g_build_filename (fixture->job_dir, CPROFILE_DIR, NULL);
  for (int pass = 0; pass < 2; pass++)
    {
      nodes = g_dir_open (cprofile_dir, 0, NULL);
      g_assert_nonnull (nodes);
      while ((node = g_dir_read_name (nodes)) != NULL)
        {
          g_autofree char *node_dir = g_build_filename (cprofile_dir, node, NULL);
          g_autofree char *held_node = g_build_filename (fixture->held_dir, node, NULL);
          g_autoptr(GDir) intervals = g_dir_open (node_dir, 0, NULL);
          const char *interval;

          g_assert_nonnull (intervals);
          if (pass == 1)
            g_assert_cmpint (g_mkdir_with_parents (held_node, 0700), ==, 0);
          while ((interval = g_dir_read_name (intervals)) != NULL)
            {
              double end = interval_end (interval);

              if (pass == 0)
                g_array_append_val (ends, end);
              else if (end > median)
                {
                  g_autofree char *from = g_build_filename (node_dir, interval, NULL);
                  g_autofree char *to = g_build_filename (held_node, interval, NULL);

                  g_assert_cmpint (g_rename (from, to), ==, 0);
                  fixture->n_held++;
                }
            }
        }
      g_clear_pointer (&nodes, g_dir_close);

      if (pass == 0)
        {
          g_array_sort (ends, compare_doubles);
          fixture->n_total = ends->len;
          median = g_array_index (ends, double, ends->len / 2);
        }
    }

  g_assert_cmpuint (fixture->n_held, >, 5);
  g_assert_cmpuint (fixture->n_held, <, fixture->n_total);
}

/* The held intervals arrive, as a sync would bring them. */
static void
fixture_deliver (Fixture *fixture)
{
  g_autoptr(GDir) nodes = g_dir_open (fixture->held_dir, 0, NULL);
  const char *node;

  g_assert_nonnull (nodes);
  while ((node = g_dir_read_name (nodes)) != NULL)
    {
      g_autofree char *held_node = g_build_filename (fixture->held_dir, node, NULL);
      g_autoptr(GDir) intervals = g_dir_open (held_node, 0, NULL);
      const char *interval;

      while ((interval = g_dir_read_name (intervals)) != NULL)
        {
          g_autofree char *from = g_build_filename (held_node, interval, NULL);
          g_autofree char *to = g_build_filename (fixture->job_dir, CPROFILE_DIR, node, interval, NULL);

          g_assert_cmpint (g_rename (from, to), ==, 0);
        }
    }
}

static void
fixture_tear_down (Fixture *fixture)
{
  g_autofree char *tmp = g_path_get_dirname (fixture->job_dir);

  page_test_run ((const char *[]) { "rm", "-rf", tmp, NULL });
  g_free (fixture->job_dir);
  g_free (fixture->held_dir);
}

static GStrv
dup_paths (GPtrArray *records)
{
  GStrv paths = g_new0 (char *, records->len + 1);

  for (guint i = 0; i < records->len; i++)
    paths[i] = g_strdup (((SmprofRecord *) g_ptr_array_index (records, i))->path);

  return paths;
}

static guint
timeline_items (SmprofJobPage *page)
{
  SmprofTimelineLayout *layout = smprof_timeline_get_layout (smprof_job_page_get_timeline (page));

  g_assert_nonnull (layout);

  return smprof_timeline_layout_get_n_items (layout);
}

/* Whether one of @document's problems names a path containing @part. */
static gboolean
has_problem (SmvDocument *document,
             const char  *part)
{
  GListModel *problems = smv_document_get_problems (document);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SmvProblem) problem = g_list_model_get_item (problems, i);

      if (strstr (smv_problem_get_path (problem), part) != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
test_refresh (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(GPtrArray) picked = NULL;
  g_auto(GStrv) picked_paths = NULL;
  g_auto(GStrv) page_paths = NULL;
  g_auto(GStrv) timeline_paths = NULL;
  g_auto(GStrv) after_paths = NULL;
  GPtrArray *timeline_after;
  GPtrArray *timeline_before;
  GPtrArray *records;
  SmprofJobPage *page;
  SmprofTimeline *timeline;
  SmprofJob *refreshed_job;
  GtkWidget *window;
  g_autofree char *stray_dir = NULL;
  g_autofree char *subtitle_before = NULL;
  g_autofree char *intervals_text = NULL;
  g_autoptr(GPtrArray) refreshed_problems = NULL;
  g_autoptr(GFile) location = NULL;
  g_autoptr(SmprofSagemakerDocument) document = NULL;
  g_autoptr(SmvDataSource) data_source = NULL;
  double start, end, start_after, end_after;
  guint items_before, items_after;

  fixture_set_up (&fixture);

  /* A folder whose name is no interval's, as a sync may leave half-way: a
   * problem of the job as first listed, gone by the refresh. */
  stray_dir = g_build_filename (fixture.job_dir, CPROFILE_DIR, "0-algo-1", "not-an-interval", NULL);
  g_assert_cmpint (g_mkdir (stray_dir, 0755), ==, 0);

  source = smprof_local_source_new (fixture.job_dir, &error);
  g_assert_no_error (error);
  job = smprof_job_new (source);
  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (records->len, ==, fixture.n_total - fixture.n_held);

  /* The page as the viewer makes it: from the data source, for a document. */
  location = g_file_new_for_path (fixture.job_dir);
  document = smprof_sagemaker_document_new (location, job);
  data_source = g_object_new (SMPROF_TYPE_SAGEMAKER_SOURCE, NULL);
  page = SMPROF_JOB_PAGE (smv_data_source_create_page (data_source, SMV_DOCUMENT (document)));
  window = ui_test_present (GTK_WIDGET (page), 1400, 900);
  timeline = smprof_job_page_get_timeline (page);
  g_assert_true (page_test_wait_until (page_test_idle, page, 0));
  g_assert_false (_smprof_job_page_get_live_refresh (page));
  g_assert_true (has_problem (SMV_DOCUMENT (document), "not-an-interval"));
  subtitle_before = g_strdup (smv_document_get_subtitle (SMV_DOCUMENT (document)));

  /* A selection of three intervals, and the timeline zoomed into the job. */
  picked = g_ptr_array_new ();
  for (guint i = 2; i < 5; i++)
    g_ptr_array_add (picked, g_ptr_array_index (records, i));
  picked_paths = dup_paths (picked);
  smprof_job_page_select_records (page, picked);
  g_assert_true (page_test_wait_until (page_test_idle, page, 0));
  page_paths = dup_paths (smprof_job_page_get_selected_records (page));
  g_assert_true (g_strv_equal ((const char * const *) page_paths, (const char * const *) picked_paths));
  timeline_before = smprof_timeline_get_selected_records (timeline);
  g_assert_nonnull (timeline_before);
  timeline_paths = dup_paths (timeline_before);

  smprof_timeline_zoom_in (timeline);
  smprof_timeline_zoom_in (timeline);
  ui_test_settle ();
  smprof_timeline_get_visible_range (timeline, &start, &end);
  items_before = timeline_items (page);
  g_assert_cmpuint (items_before, ==, records->len);

  /* Nothing new yet: the page keeps its job. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.refresh", NULL));
  g_assert_true (page_test_wait_until (page_test_refreshed, page, 1));
  g_assert_true (smprof_job_page_get_job (page) == job);

  /* The later intervals arrive, the stray folder goes; a refresh shows them. */
  fixture_deliver (&fixture);
  g_assert_cmpint (g_rmdir (stray_dir), ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.refresh", NULL));
  g_assert_true (page_test_wait_until (page_test_refreshed, page, 2));
  g_assert_true (page_test_wait_until (page_test_idle, page, 0));
  ui_test_settle ();

  refreshed_job = smprof_job_page_get_job (page);
  g_assert_true (refreshed_job != job);
  g_assert_cmpuint (smprof_job_get_records (refreshed_job, SMPROF_PROFILER_CPROFILE)->len, ==, fixture.n_total);
  items_after = timeline_items (page);
  g_test_message ("timeline: %u intervals before, %u after", items_before, items_after);

  /* The viewer's document describes the new job: its summary, its problems. */
  g_assert_true (smprof_sagemaker_document_get_job (document) == refreshed_job);
  g_assert_cmpstr (smv_document_get_subtitle (SMV_DOCUMENT (document)), !=, subtitle_before);
  intervals_text = g_strdup_printf ("%u intervals", fixture.n_total);
  g_assert_nonnull (strstr (smv_document_get_subtitle (SMV_DOCUMENT (document)), intervals_text));
  g_assert_false (has_problem (SMV_DOCUMENT (document), "not-an-interval"));
  refreshed_problems = smprof_job_dup_problems (refreshed_job);
  g_assert_cmpuint (g_list_model_get_n_items (smv_document_get_problems (SMV_DOCUMENT (document))), ==,
                    refreshed_problems->len);
  g_assert_cmpuint (items_after, ==, fixture.n_total);
  g_assert_cmpuint (items_after, >, items_before);

  /* The same selection, on the page and on the timeline, and the same view. */
  after_paths = dup_paths (smprof_job_page_get_selected_records (page));
  g_assert_true (g_strv_equal ((const char * const *) after_paths, (const char * const *) picked_paths));
  timeline_after = smprof_timeline_get_selected_records (timeline);
  g_assert_nonnull (timeline_after);
  g_clear_pointer (&after_paths, g_strfreev);
  after_paths = dup_paths (timeline_after);
  g_assert_true (g_strv_equal ((const char * const *) after_paths, (const char * const *) timeline_paths));
  smprof_timeline_get_visible_range (timeline, &start_after, &end_after);
  g_assert_cmpfloat_with_epsilon (start_after, start, 1e-6 * MAX (1, fabs (start)));
  g_assert_cmpfloat_with_epsilon (end_after, end, 1e-6 * MAX (1, fabs (end)));

  {
    g_autoptr(GdkTexture) texture = ui_test_render (GTK_WIDGET (page));

    ui_test_save_local (texture, "job-page-refreshed.png");
  }

  /* The toggle polls on its own, and stops. */
  _smprof_job_page_set_refresh_interval (page, 50);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.live-refresh", NULL));
  g_assert_true (_smprof_job_page_get_live_refresh (page));
  g_assert_true (page_test_wait_until (page_test_refreshed, page, 5));
  g_assert_true (smprof_job_page_get_job (page) == refreshed_job);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.live-refresh", NULL));
  g_assert_false (_smprof_job_page_get_live_refresh (page));

  gtk_window_destroy (GTK_WINDOW (window));
  ui_test_settle ();
  fixture_tear_down (&fixture);
}

/* With the viewer's refresh-interval set, a page polls from the start. */
static void
test_setting (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autoptr(GSettings) s3 = smprof_ui_settings_new ("s3");
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofJob) job = NULL;
  SmprofJobPage *page;
  GtkWidget *window;

  g_assert_nonnull (s3);
  g_settings_set_uint (s3, "refresh-interval", 1);

  source = smprof_local_source_new (path, &error);
  g_assert_no_error (error);
  job = smprof_job_new (source);
  g_assert_true (smprof_job_load (job, NULL, &error));

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1200, 800);
  g_assert_true (_smprof_job_page_get_live_refresh (page));
  g_assert_true (page_test_wait_until (page_test_refreshed, page, 2));
  /* An unchanged folder: the page keeps its job. */
  g_assert_true (smprof_job_page_get_job (page) == job);

  g_settings_reset (s3, "refresh-interval");
  gtk_window_destroy (GTK_WINDOW (window));
  ui_test_settle ();
}

int
main (int   argc,
      char *argv[])
{
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-page/refresh", test_refresh);
  g_test_add_func ("/job-page/refresh/setting", test_setting);

  return g_test_run ();
}
