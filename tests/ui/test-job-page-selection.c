/* test-job-page-selection.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The job page's selection in a real viewer window: a dragged time range
 * aggregated as the core and the command line answer it (and the time from
 * a drag to updated views), a click on an interval, and the presets, the
 * step range, the node choice and the profiler mirrored on the timeline.
 *
 * The viewer opens a job of tests/data/real-smdebug through the SageMaker
 * data source, as it does with the plugin module; here the plugin's source
 * and page are linked into the test (and registered on the viewer's
 * extension point by hand), as in test-job-page.c.
 */

#include <json-glib/json-glib.h>
#include <smprof-viewer-api.h>

#include "smprof-cprofile-profile.h"
#include "smprof-job-page-private.h"
#include "smprof-session-private.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-private.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "page-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

#define WIDTH  1280
#define HEIGHT 900

#ifdef __SANITIZE_ADDRESS__
const char *__asan_default_options (void);

/* The Export save dialog (GTK's file chooser) reaches libcloudproviders,
 * which leaks a path at exit; LeakSanitizer's fast unwinder stops in GLib and
 * cannot tell, so .ci/lsan.supp's entry for it would not match. Full stacks
 * here (ASAN_OPTIONS still wins). */
const char *
__asan_default_options (void)
{
  return "fast_unwind_on_malloc=0";
}
#endif

static SmvSourceRegistry *registry;

/* ------------------------------------------------------------------------ */
/* Opening the job                                                          */

static gboolean
index_ready (gpointer data)
{
  return smprof_session_get_range_index (SMPROF_JOB_PAGE (data)->session) != NULL;
}

static SmvWindow *
open_job (const char     *name,
          SmprofJobPage **page)
{
  g_autofree char *path = window_test_real_job (name);

  return window_test_open_job (registry, path, WIDTH, HEIGHT, page);
}

/* ------------------------------------------------------------------------ */
/* The core's and the command line's answers                                */

static SmprofProfile *
core_profile (SmprofJob          *job,
              const char * const *node_ids,
              GPtrArray          *records)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (smprof_job_load_stats (job, records, NULL, &error));
  g_assert_no_error (error);

  return smprof_profile_new (job, SMPROF_PROFILER_CPROFILE, node_ids, records);
}

/* `smprof stats JOB --node all --time S E --json`: total_calls, total_time. */
static void
cli_time_totals (const char *job_path,
                 double      start_us,
                 double      end_us,
                 gint64     *total_calls,
                 double     *total_time)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  char start[G_ASCII_DTOSTR_BUF_SIZE], end[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  int status;
  const char *argv[] = { smprof, "stats", job_path, "--node", "all", "--time", start, end, "--json", NULL };

  g_assert_nonnull (smprof);
  g_ascii_dtostr (start, sizeof start, start_us / 1e6);
  g_ascii_dtostr (end, sizeof end, end_us / 1e6);

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  *total_calls = json_object_get_int_member (root, "total_calls");
  *total_time = json_object_get_double_member (root, "total_time");
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

/* A dragged time range: the page aggregates exactly what smprof_select()
 * gives with the overlap rule, with the core's totals (and the command
 * line's, when smdebug's by-time rule selects the same intervals). The time
 * from the selection to updated views is measured. */
static SmprofProfile *
visible_view_profile (SmprofJobPage *page)
{
  const char *view = gtk_stack_get_visible_child_name (page->views_stack);

  if (g_str_equal (view, "functions"))
    return smprof_function_table_get_profile (page->function_table);
  if (g_str_equal (view, "call-tree"))
    return smprof_call_tree_view_get_profile (page->call_tree_view);

  return smprof_flame_graph_view_get_profile (page->flame_graph_view);
}

typedef struct
{
  SmprofJobPage *page;
  GPtrArray     *expected;
} Drag;

static gboolean
drag_done (gpointer data)
{
  Drag *drag = data;
  SmprofProfile *profile = smprof_job_page_get_profile (drag->page);

  return window_test_page_ready (drag->page) &&
         page_test_same_records (smprof_job_page_get_selected_records (drag->page), drag->expected) &&
         profile != NULL &&
         visible_view_profile (drag->page) == profile;
}

typedef struct
{
  GdkFrameClock *clock;
  gint64         frame;
} NextFrame;

static gboolean
frame_drawn (gpointer data)
{
  NextFrame *next = data;

  return gdk_frame_clock_get_frame_counter (next->clock) > next->frame;
}

/* When the worker's answer reached the page (it stops being busy). */
static void
answer_cb (SmprofJobPage *page,
           GParamSpec    *pspec,
           gint64        *when)
{
  if (!smprof_job_page_get_busy (page))
    *when = g_get_monotonic_time ();
}

/* Milliseconds from a drag (a time range selected on the timeline) to: the
 * aggregate back from the worker, the visible view showing it, the next
 * frame drawn. */
typedef struct
{
  double answer;
  double views;
  double frame;
} DragTimes;

static DragTimes
drag_and_wait (SmprofJobPage *page,
               double         start_us,
               double         end_us,
               GPtrArray     *expected)
{
  Drag drag = { page, expected };
  NextFrame next = { gtk_widget_get_frame_clock (GTK_WIDGET (page)), 0 };
  gint64 begin, answered = 0, shown;
  gulong handler;
  DragTimes times;

  handler = g_signal_connect (page, "notify::busy", G_CALLBACK (answer_cb), &answered);
  begin = g_get_monotonic_time ();

  smprof_timeline_select_time_range (smprof_job_page_get_timeline (page), start_us, end_us);
  g_assert_true (viewer_test_wait (drag_done, &drag, 30000));
  shown = g_get_monotonic_time ();

  /* and drawn */
  next.frame = gdk_frame_clock_get_frame_counter (next.clock);
  g_assert_true (viewer_test_wait (frame_drawn, &next, 5000));

  g_signal_handler_disconnect (page, handler);
  times.answer = (answered - begin) / 1000.0;
  times.views = (shown - begin) / 1000.0;
  times.frame = (g_get_monotonic_time () - begin) / 1000.0;

  return times;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
test_drag_selection (void)
{
  g_autofree char *job_path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofTimeline *timeline;
  SmprofJob *job;
  GPtrArray *records;
  SmprofSelection overlap = { .kind = SMPROF_SELECT_OVERLAP };
  SmprofSelection by_time = { .kind = SMPROF_SELECT_TIME };
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) smdebug_rule = NULL;
  g_autoptr(SmprofProfile) core = NULL;
  SmprofProfile *shown;
  double origin, span = 0;
  g_auto(GStrv) all_nodes = NULL;
  g_autofree char *description = NULL;
  g_autofree char *prefix = NULL;
  const char *status;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  timeline = smprof_job_page_get_timeline (page);
  job = smprof_job_page_get_job (page);
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  all_nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  origin = smprof_timeline_layout_get_origin_us (smprof_timeline_get_layout (timeline));
  for (guint i = 0; i < records->len; i++)
    span = MAX (span, ((SmprofRecord *) g_ptr_array_index (records, i))->name.end_time_us - origin);

  /* The training steps in the middle of the job, on both nodes. */
  overlap.start_us = by_time.start_us = origin + 0.72 * span;
  overlap.end_us = by_time.end_us = origin + 0.86 * span;
  expected = smprof_select (records, (const char * const *) all_nodes, &overlap);
  smdebug_rule = smprof_select (records, (const char * const *) all_nodes, &by_time);
  g_assert_cmpuint (expected->len, >, 4);

  g_assert_true (viewer_test_wait (index_ready, page, 60000));
  drag_and_wait (page, overlap.start_us, overlap.end_us, expected);

  /* The timeline outlines those intervals, the page aggregated them. */
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (timeline), expected));
  g_assert_true (page_test_same_records (smprof_job_page_get_selected_records (page), expected));
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_NONE);
  g_assert_cmpint (smprof_job_page_get_selection (page)->kind, ==, SMPROF_SELECT_OVERLAP);
  g_assert_true (smprof_session_get_from_range_index (page->session));

  shown = smprof_job_page_get_profile (page);
  g_assert_true (page_test_same_records (smprof_profile_get_records (shown), expected));
  core = core_profile (job, (const char * const *) all_nodes, expected);
  g_assert_cmpint (smprof_cprofile_profile_get_total_calls (smprof_profile_get_cprofile (shown)), ==,
                   smprof_cprofile_profile_get_total_calls (smprof_profile_get_cprofile (core)));
  g_assert_cmpint (smprof_cprofile_profile_get_prim_calls (smprof_profile_get_cprofile (shown)), ==,
                   smprof_cprofile_profile_get_prim_calls (smprof_profile_get_cprofile (core)));
  g_assert_cmpfloat_with_epsilon (smprof_cprofile_profile_get_total_tt (smprof_profile_get_cprofile (shown)),
                                  smprof_cprofile_profile_get_total_tt (smprof_profile_get_cprofile (core)),
                                  1e-9 * smprof_cprofile_profile_get_total_tt (smprof_profile_get_cprofile (core)));
  g_assert_cmpuint (smprof_profile_get_n_functions (shown), ==, smprof_profile_get_n_functions (core));
  g_test_message ("range: %u intervals, %" G_GINT64_FORMAT " calls, %.6f s",
                  expected->len, smprof_cprofile_profile_get_total_calls (smprof_profile_get_cprofile (shown)),
                  smprof_cprofile_profile_get_total_tt (smprof_profile_get_cprofile (shown)));

  /* smdebug's by-time rule (start or end inside) picks the same intervals
   * here, so the command line answers the same question. */
  if (page_test_same_records (smdebug_rule, expected))
    {
      gint64 calls;
      double total;

      cli_time_totals (job_path, overlap.start_us, overlap.end_us, &calls, &total);
      g_assert_cmpint (calls, ==, smprof_cprofile_profile_get_total_calls (smprof_profile_get_cprofile (shown)));
      g_assert_cmpfloat_with_epsilon (total, smprof_cprofile_profile_get_total_tt (smprof_profile_get_cprofile (shown)),
                                      1e-9 * total);
      g_test_message ("smprof stats --time: %" G_GINT64_FORMAT " calls, %.6f s: equal", calls, total);
    }
  else
    g_test_message ("smdebug's by-time rule selects %u intervals: compared with the core only", smdebug_rule->len);

  status = gtk_label_get_label (page->status_label);
  g_test_message ("status: %s", status);
  g_assert_true (g_str_has_prefix (status, prefix = g_strdup_printf ("%u intervals · ", expected->len)));
  description = smprof_job_page_dup_selection_description (page);
  g_test_message ("selection: %s", description);
  g_assert_true (g_str_has_prefix (description, "time "));

  /* Drag-to-views time on this job: three ranges, with the range index and
   * with the page's general path (select, read, aggregate), with the
   * Functions view then the Flame graph in front. */
  for (guint series = 0; series < 4; series++)
    {
      gboolean use_index = series % 2 == 0;
      const char *view = series < 2 ? "functions" : "flame-graph";
      g_autoptr(GArray) answer = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) views = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) frame = g_array_new (FALSE, FALSE, sizeof (double));

      gtk_stack_set_visible_child_name (page->views_stack, view);
      _smprof_session_set_use_range_index (page->session, use_index);

      for (guint i = 0; i < 3; i++)
        {
          SmprofSelection range = { .kind = SMPROF_SELECT_OVERLAP };
          g_autoptr(GPtrArray) want = NULL;
          DragTimes times;

          range.start_us = origin + (0.1 + 0.2 * i) * span;
          range.end_us = range.start_us + (0.15 + 0.1 * i) * span;
          want = smprof_select (records, (const char * const *) all_nodes, &range);
          times = drag_and_wait (page, range.start_us, range.end_us, want);
          g_assert_cmpint (smprof_session_get_from_range_index (page->session), ==, use_index);
          g_array_append_val (answer, times.answer);
          g_array_append_val (views, times.views);
          g_array_append_val (frame, times.frame);
        }

      _smprof_session_set_use_range_index (page->session, TRUE);

      g_array_sort (answer, compare_doubles);
      g_array_sort (views, compare_doubles);
      g_array_sort (frame, compare_doubles);
      g_test_message ("drag to updated views, pt-cprofile (%u intervals), %s, %s in front: "
                      "aggregate %.1f ms, view updated %.1f ms, drawn %.1f ms (medians of 3; max drawn %.1f ms)",
                      records->len, use_index ? "range index" : "general path", view,
                      g_array_index (answer, double, 1), g_array_index (views, double, 1),
                      g_array_index (frame, double, 1), g_array_index (frame, double, 2));
    }
  gtk_stack_set_visible_child_name (page->views_stack, "functions");

  /* Escape on the timeline: no selection, the whole job. */
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.clear-selection", NULL);
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_WHOLE_JOB);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, ==, records->len);

  window_test_close (window);
}

/* A click on an interval (as a selection of records) is aggregated alone. */
static void
test_click_selection (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofTimeline *timeline;
  GPtrArray *records;
  g_autoptr(GPtrArray) one = g_ptr_array_new ();

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  timeline = smprof_job_page_get_timeline (page);
  records = smprof_job_get_records (smprof_job_page_get_job (page), SMPROF_PROFILER_CPROFILE);

  g_ptr_array_add (one, g_ptr_array_index (records, 10));
  smprof_timeline_select_records (timeline, one);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_true (page_test_same_records (smprof_job_page_get_selected_records (page), one));
  g_assert_true (g_str_has_prefix (gtk_label_get_label (page->status_label), "1 interval · "));

  window_test_close (window);
}

/* Presets, the step range, the node choice and the profiler on the page:
 * the timeline outlines the same intervals, shows the chosen nodes, and
 * follows the profiler. */
static void
test_page_to_timeline (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofTimeline *timeline;
  const char *one_node[] = { "1-algo-2", NULL };
  SmprofSelection steps;
  g_autoptr(GPtrArray) expected = NULL;
  g_autofree char *prefix = NULL;
  const SmprofRecord *first;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  timeline = smprof_job_page_get_timeline (page);

  /* The whole job: nothing outlined, everything counts. */
  g_assert_null (smprof_timeline_get_selection (timeline));

  smprof_job_page_set_step_range (page, 3, 5);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  smprof_selection_init_step (&steps, 3);
  steps.end_step = 5;
  expected = smprof_select (smprof_job_get_records (smprof_job_page_get_job (page), SMPROF_PROFILER_CPROFILE),
                            smprof_job_page_get_node_ids (page), &steps);
  g_assert_cmpuint (expected->len, >, 0);
  g_assert_true (page_test_same_records (smprof_job_page_get_selected_records (page), expected));
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (timeline), expected));
  prefix = g_strdup_printf ("%u intervals · steps 3–5 · ", expected->len);
  g_assert_true (g_str_has_prefix (gtk_label_get_label (page->status_label), prefix));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.preset", "i",
                                             SMPROF_PRESET_FORWARD_PASSES));
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (timeline),
                               smprof_job_page_get_selected_records (page)));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, >, 0);

  /* One node: one row, the preset on that node. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 2);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_nonnull (smprof_timeline_get_visible_nodes (timeline));
  g_assert_true (g_strv_equal (smprof_timeline_get_visible_nodes (timeline), one_node));
  g_assert_cmpuint (timeline->rows->len, ==, 1);
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (timeline),
                               smprof_job_page_get_selected_records (page)));
  for (guint i = 0; i < smprof_job_page_get_selected_records (page)->len; i++)
    g_assert_cmpstr (((SmprofRecord *) g_ptr_array_index (smprof_job_page_get_selected_records (page), i))->node_id,
                     ==, "1-algo-2");

  /* A dragged range on that node follows the node choice back to all. */
  first = g_ptr_array_index (smprof_job_page_get_selected_records (page), 0);
  smprof_timeline_select_time_range (timeline, first->name.start_time_us, first->name.end_time_us);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_cmpint (smprof_job_page_get_selection (page)->kind, ==, SMPROF_SELECT_OVERLAP);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 0);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_null (smprof_timeline_get_visible_nodes (timeline));
  g_assert_cmpuint (timeline->rows->len, ==, 2);
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (timeline),
                               smprof_job_page_get_selected_records (page)));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, >=, 2);

  /* The profiler drives the timeline's (no Pyinstrument in this job). */
  smprof_job_page_set_profiler (page, SMPROF_PROFILER_PYINSTRUMENT);
  g_assert_cmpuint (smprof_timeline_get_profiler (timeline), ==, SMPROF_PROFILER_PYINSTRUMENT);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_cmpuint (timeline->rows->len, ==, 0);
  g_assert_cmpstr (gtk_label_get_label (page->status_label), ==, "No interval matches this selection.");
  smprof_job_page_set_profiler (page, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (smprof_timeline_get_profiler (timeline), ==, SMPROF_PROFILER_CPROFILE);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_cmpuint (timeline->rows->len, ==, 2);

  /* The toolbar: zoom in and back, the align toggle bound to the timeline. */
  {
    double start0, end0, start1, end1;

    smprof_timeline_get_visible_range (timeline, &start0, &end0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.zoom-in", NULL));
    smprof_timeline_get_visible_range (timeline, &start1, &end1);
    g_assert_cmpfloat (end1 - start1, <, end0 - start0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.zoom-fit", NULL));
    smprof_timeline_get_visible_range (timeline, &start1, &end1);
    g_assert_cmpfloat_with_epsilon (end1 - start1, end0 - start0, 1e-6 * (end0 - start0));

    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (viewer_test_find (GTK_WIDGET (page), "align-by-step")), TRUE);
    g_assert_true (smprof_timeline_get_align_by_step (timeline));
    smprof_timeline_set_align_by_step (timeline, FALSE);
    g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (viewer_test_find (GTK_WIDGET (page),
                                                                                       "align-by-step"))));
  }

  window_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/job-page/drag-selection", test_drag_selection);
  g_test_add_func ("/job-page/click-selection", test_click_selection);
  g_test_add_func ("/job-page/page-to-timeline", test_page_to_timeline);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
