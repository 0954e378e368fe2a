/* test-job-page.c: the job page in a real viewer window, with its timeline,
 * views and Export menu
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The viewer opens tests/data/real-smdebug/pt-cprofile through the SageMaker
 * data source, as it does with the plugin module; here the plugin's source
 * and page are linked into the test (and registered on the viewer's
 * extension point by hand), so the test can reach the timeline and the core.
 * test-viewer-open loads the module itself.
 *
 * Screenshots: viewer-job-page.png (timeline and flame graph) and
 * viewer-functions.png, in the working folder, and in $SMPROF_SCREENSHOTS_DIR
 * when set (data/screenshots/ for the README).
 */

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <smprof-viewer-api.h>

#include "smprof-cprofile-profile.h"
#include "smprof-flame-graph-private.h"
#include "smprof-job-page-private.h"
#include "smprof-pstats.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-private.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "page-test-util.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"

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
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
shows_document (gpointer data)
{
  return g_strcmp0 (smv_window_get_view_name (data), "document") == 0;
}

static gboolean
page_ready (gpointer data)
{
  SmprofJobPage *page = data;

  return !smprof_job_page_get_busy (page) && smprof_job_page_get_selected_records (page) != NULL;
}

static gboolean
index_ready (gpointer data)
{
  return SMPROF_JOB_PAGE (data)->range_index != NULL;
}

static SmvWindow *
open_job (const char     *name,
          SmprofJobPage **page)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", name, NULL);
  g_autoptr(GFile) job = g_file_new_for_path (path);
  SmvWindow *window = smv_window_new (NULL, registry, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  smv_window_open (window, job);
  g_assert_true (viewer_test_wait (shows_document, window, 30000));

  *page = SMPROF_JOB_PAGE (smv_window_get_page (window));
  g_assert_true (SMPROF_IS_JOB_PAGE (*page));
  g_assert_true (viewer_test_wait (page_ready, *page, 60000));

  return window;
}

static void
close_window (SmvWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

/* The file in the working folder, and in $SMPROF_SCREENSHOTS_DIR. */
static void
save_screenshot (GdkTexture *texture,
                 const char *name)
{
  g_autofree char *local = g_strconcat ("job-page-", name, NULL);
  const char *dir = g_getenv ("SMPROF_SCREENSHOTS_DIR");

  ui_test_save_local (texture, local);
  if (dir != NULL && dir[0] != '\0')
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot saved to %s", path);
    }
}

/* ------------------------------------------------------------------------ */
/* Pixels                                                                   */

/* The window as last drawn, shadows and all, unscaled: a widget paintable
 * scales its node from the widget's bounds to the size asked for, and a
 * window's bounds hold its client-side shadow. Widget coordinates map to the
 * texture's by the window's bounds' origin. */
static GdkTexture *
render_window (SmvWindow *window)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  int width, height;
  GdkTexture *texture;

  viewer_test_wait_transitions (GTK_WIDGET (window));
  paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  snapshot = gtk_snapshot_new ();
  width = gdk_paintable_get_intrinsic_width (paintable);
  height = gdk_paintable_get_intrinsic_height (paintable);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_renderer_unrealize (renderer);

  return texture;
}

/* Where @widget's origin is in @ancestor's rendering. */
static void
texture_origin (GtkWidget        *widget,
                GtkWidget        *ancestor,
                graphene_point_t *origin)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_point (widget, ancestor, &GRAPHENE_POINT_INIT (0, 0), origin));
  g_assert_true (gtk_widget_compute_bounds (ancestor, ancestor, &bounds));
  origin->x -= bounds.origin.x;
  origin->y -= bounds.origin.y;
}

/* The colour a block of @mode shows; the block under the pointer is drawn
 * lighter (white at 0.3, 0.18 in dark mode). */
static guint32
mode_pixel (SmprofTimeline *timeline,
            SmprofMode      mode,
            gboolean        hovered)
{
  GdkRGBA color;
  double rgb[3];
  double light = timeline->dark ? 0.18 : 0.3;

  smprof_timeline_get_mode_color (mode, timeline->dark, &color);
  rgb[0] = color.red;
  rgb[1] = color.green;
  rgb[2] = color.blue;
  if (hovered)
    for (guint c = 0; c < 3; c++)
      rgb[c] = rgb[c] * (1 - light) + light;

  return ui_test_rgb_to_pixel (rgb);
}

/* Every block of @row at least 6 px wide shows its mode's colour in
 * @texture, a rendering of @ancestor (the timeline itself or the window):
 * most points of a grid inside the block, clear of its edges (step numbers,
 * phase ticks and the ruler's grid lines take the rest). Returns how many
 * blocks were checked. */
static guint
check_row_blocks (SmprofTimeline *timeline,
                  guint           row,
                  GtkWidget      *ancestor,
                  GdkTexture     *texture)
{
  SmprofTimelineLayout *layout = smprof_timeline_get_layout (timeline);
  guint node = _smprof_timeline_get_row (timeline, row)->node;
  SmprofTimelineViewport vp;
  const SmprofTimelineItem *items;
  graphene_point_t origin;
  guint n, checked = 0;

  texture_origin (GTK_WIDGET (timeline), ancestor, &origin);
  _smprof_timeline_get_viewport (timeline, &vp);
  items = smprof_timeline_layout_get_lane (layout, node, 0, &n);

  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t rect;
      guint32 expected = mode_pixel (timeline, items[i].mode,
                                     timeline->hover_item == &items[i]);
      guint samples = 0, matching = 0;
      int x0, x1, y0, y1;

      g_assert_true (_smprof_timeline_get_block_rect (timeline, &items[i], &rect));
      x0 = (int) ceil (origin.x + MAX (rect.origin.x, vp.x)) + 2;
      x1 = (int) floor (origin.x + MIN (rect.origin.x + rect.size.width, vp.x + vp.width)) - 2;
      y0 = (int) ceil (origin.y + rect.origin.y) + 2;
      y1 = (int) floor (origin.y + rect.origin.y + rect.size.height) - 2;
      if (x1 - x0 < 2)
        continue;

      for (int y = y0; y <= y1; y += 2)
        for (int x = x0; x <= x1; x += 2)
          {
            samples++;
            if (ui_test_pixel_near (ui_test_pixel (texture, x, y), expected, 4))
              matching++;
          }

      if (matching * 2 < samples)
        {
          /* what was drawn, to see why */
          gdk_texture_save_to_png (texture, "job-page-failed-blocks.png");
          g_error ("%s (%d..%d, %d..%d): %u of %u points in %08x; at %d,%d: %08x",
                 items[i].record->interval, x0, x1, y0, y1, matching, samples, expected,
                   x0, y1, ui_test_pixel (texture, x0, y1));
        }
      checked++;
    }

  return checked;
}

/* Every frame at least 8 px wide has its function's colour 2 px inside its
 * top-left corner. Returns how many were checked. */
static guint
check_frames (SmprofFlameGraph *graph,
              GdkTexture       *texture)
{
  SmprofProfile *profile = smprof_flame_graph_get_profile (graph);
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  guint checked = 0;

  for (guint i = 0; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      graphene_rect_t area;
      double rgb[3];
      guint32 pixel, expected;

      if (!_smprof_flame_graph_get_rect_area (graph, i, width, height, &area) ||
          area.size.width < 8 || area.origin.y < 0)
        continue;

      smprof_flame_color_for_func (smprof_call_tree_get_table (tree),
                                   smprof_call_tree_get_node (tree, smprof_flame_layout_get_rect (layout, i)->node)->func,
                                   _smprof_flame_graph_get_dark (graph), rgb);
      expected = ui_test_rgb_to_pixel (rgb);
      pixel = ui_test_pixel (texture, (int) area.origin.x + 2, (int) area.origin.y + 2);
      if (!ui_test_pixel_near (pixel, expected, 1))
        g_error ("frame %u at %g,%g: %08x, expected %08x", i, area.origin.x + 2, area.origin.y + 2, pixel, expected);
      checked++;
    }

  return checked;
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

/* The page fills the window: one timeline row per node, each block in its
 * mode's colour, seen in a screenshot of the whole window. */
static void
test_window_timeline (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofTimeline *timeline;
  g_autoptr(GdkTexture) texture = NULL;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  timeline = smprof_job_page_get_timeline (page);

  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (timeline), GTK_WIDGET (page)));
  g_assert_true (GTK_IS_SCROLLED_WINDOW (gtk_widget_get_parent (GTK_WIDGET (timeline))) ||
                 GTK_IS_SCROLLED_WINDOW (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (timeline)))));
  g_assert_true (smprof_timeline_get_job (timeline) == smprof_job_page_get_job (page));
  g_assert_cmpuint (timeline->rows->len, ==, 2);
  g_assert_null (smprof_timeline_get_visible_nodes (timeline));

  /* The visible view shows the page's profile, the others once shown. */
  g_assert_nonnull (smprof_job_page_get_profile (page));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (page->views_stack), ==, "functions");
  g_assert_true (smprof_function_table_get_profile (page->function_table) == smprof_job_page_get_profile (page));
  gtk_stack_set_visible_child_name (page->views_stack, "call-tree");
  g_assert_true (smprof_call_tree_view_get_profile (page->call_tree_view) == smprof_job_page_get_profile (page));
  gtk_stack_set_visible_child_name (page->views_stack, "flame-graph");
  g_assert_true (smprof_flame_graph_view_get_profile (page->flame_graph_view) == smprof_job_page_get_profile (page));
  gtk_stack_set_visible_child_name (page->views_stack, "functions");

  ui_test_settle ();
  texture = render_window (window);
  ui_test_save_local (texture, "job-page-window.png");
  g_assert_cmpuint (ui_test_count_colors (texture), >, 20);
  for (guint row = 0; row < timeline->rows->len; row++)
    {
      guint checked = check_row_blocks (timeline, row, GTK_WIDGET (window), texture);

      g_test_message ("row %u (%s): %u blocks in their mode's colour", row,
                      smprof_timeline_layout_get_node_id (smprof_timeline_get_layout (timeline),
                                                          _smprof_timeline_get_row (timeline, row)->node),
                      checked);
      g_assert_cmpuint (checked, >=, 15);
    }

  close_window (window);
}

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

  return page_ready (drag->page) &&
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
  g_autoptr(SmprofRangeIndex) index = NULL;
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
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_JOB_PAGE_PRESET_NONE);
  g_assert_cmpint (smprof_job_page_get_selection (page)->kind, ==, SMPROF_SELECT_OVERLAP);
  g_assert_true (_smprof_job_page_used_range_index (page));

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
      if (!use_index)
        index = g_steal_pointer (&page->range_index);

      for (guint i = 0; i < 3; i++)
        {
          SmprofSelection range = { .kind = SMPROF_SELECT_OVERLAP };
          g_autoptr(GPtrArray) want = NULL;
          DragTimes times;

          range.start_us = origin + (0.1 + 0.2 * i) * span;
          range.end_us = range.start_us + (0.15 + 0.1 * i) * span;
          want = smprof_select (records, (const char * const *) all_nodes, &range);
          times = drag_and_wait (page, range.start_us, range.end_us, want);
          g_assert_cmpint (_smprof_job_page_used_range_index (page), ==, use_index);
          g_array_append_val (answer, times.answer);
          g_array_append_val (views, times.views);
          g_array_append_val (frame, times.frame);
        }

      if (!use_index)
        page->range_index = g_steal_pointer (&index);

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
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_JOB_PAGE_PRESET_WHOLE_JOB);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, ==, records->len);

  close_window (window);
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
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  g_assert_true (page_test_same_records (smprof_job_page_get_selected_records (page), one));
  g_assert_true (g_str_has_prefix (gtk_label_get_label (page->status_label), "1 interval · "));

  close_window (window);
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
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
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
                                             SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES));
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (timeline),
                               smprof_job_page_get_selected_records (page)));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, >, 0);

  /* One node: one row, the preset on that node. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 2);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
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
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  g_assert_cmpint (smprof_job_page_get_selection (page)->kind, ==, SMPROF_SELECT_OVERLAP);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 0);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  g_assert_null (smprof_timeline_get_visible_nodes (timeline));
  g_assert_cmpuint (timeline->rows->len, ==, 2);
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (timeline),
                               smprof_job_page_get_selected_records (page)));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, >=, 2);

  /* The profiler drives the timeline's (no Pyinstrument in this job). */
  smprof_job_page_set_profiler (page, SMPROF_PROFILER_PYINSTRUMENT);
  g_assert_cmpuint (smprof_timeline_get_profiler (timeline), ==, SMPROF_PROFILER_PYINSTRUMENT);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  g_assert_cmpuint (timeline->rows->len, ==, 0);
  g_assert_cmpstr (gtk_label_get_label (page->status_label), ==, "No interval matches this selection.");
  smprof_job_page_set_profiler (page, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (smprof_timeline_get_profiler (timeline), ==, SMPROF_PROFILER_CPROFILE);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
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

  close_window (window);
}

/* Everything by keyboard: Ctrl+1/2/3 switch views, Tab reaches every
 * control of the page; and the flame graph and timeline in the page draw
 * the expected colours. Screenshots for the README (before the Tab walk,
 * which leaves focus marks behind). */
static void
test_keyboard_and_colours (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofTimeline *timeline;
  SmprofFlameGraph *graph;
  g_autoptr(GHashTable) reached = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GdkTexture) texture = NULL;
  const char *must_reach[] = {
    "node-selector", "node-chooser-button", "export-button", "presets", "first-step", "start-mode", "end-mode",
    "zoom-out", "zoom-in", "zoom-fit", "align-by-step", "timeline", "function-table",
  };
  double origin, span = 0;
  GPtrArray *records;
  guint n_frames;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  timeline = smprof_job_page_get_timeline (page);

  page_test_press_shortcut (GTK_WIDGET (page), "<Control>2");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (page->views_stack), ==, "call-tree");
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>1");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (page->views_stack), ==, "functions");

  /* Ctrl+3: the flame graph, drawn in its functions' colours; the timeline
   * (nothing selected: the whole job) in its modes' colours, alone and in
   * the window. */
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>3");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (page->views_stack), ==, "flame-graph");
  ui_test_settle ();
  graph = smprof_flame_graph_view_get_flame_graph (page->flame_graph_view);
  g_assert_true (smprof_flame_graph_get_profile (graph) == smprof_job_page_get_profile (page));
  texture = ui_test_render (GTK_WIDGET (graph));
  n_frames = check_frames (graph, texture);
  g_test_message ("flame graph: %u frames in their functions' colours", n_frames);
  g_assert_cmpuint (n_frames, >=, 5);
  g_clear_object (&texture);

  g_assert_null (smprof_timeline_get_selection (timeline));
  texture = ui_test_render (GTK_WIDGET (timeline));
  g_assert_cmpuint (check_row_blocks (timeline, 0, GTK_WIDGET (timeline), texture), >=, 15);
  g_assert_cmpuint (check_row_blocks (timeline, 1, GTK_WIDGET (timeline), texture), >=, 15);
  g_clear_object (&texture);

  texture = render_window (window);
  g_assert_cmpuint (check_row_blocks (timeline, 0, GTK_WIDGET (window), texture), >=, 15);
  g_assert_cmpuint (check_row_blocks (timeline, 1, GTK_WIDGET (window), texture), >=, 15);
  g_clear_object (&texture);

  /* Screenshots for the README: a dragged range in the training loop, its
   * functions, then its flame graph. */
  records = smprof_job_get_records (smprof_job_page_get_job (page), SMPROF_PROFILER_CPROFILE);
  origin = smprof_timeline_layout_get_origin_us (smprof_timeline_get_layout (timeline));
  for (guint i = 0; i < records->len; i++)
    span = MAX (span, ((SmprofRecord *) g_ptr_array_index (records, i))->name.end_time_us - origin);
  smprof_timeline_select_time_range (timeline, origin + 0.68 * span, origin + 0.9 * span);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  gtk_widget_grab_focus (GTK_WIDGET (timeline));

  page_test_press_shortcut (GTK_WIDGET (page), "<Control>1");
  ui_test_settle ();
  texture = render_window (window);
  save_screenshot (texture, "viewer-functions.png");
  g_clear_object (&texture);

  page_test_press_shortcut (GTK_WIDGET (page), "<Control>3");
  ui_test_settle ();
  g_assert_true (smprof_flame_graph_get_profile (graph) == smprof_job_page_get_profile (page));
  texture = render_window (window);
  save_screenshot (texture, "viewer-job-page.png");
  g_clear_object (&texture);
  texture = ui_test_render (GTK_WIDGET (graph));
  g_assert_cmpuint (check_frames (graph, texture), >=, 5);

  /* Tab from the top of the window to the views (in GTK 4.8 a list then
   * takes Tab row by row). */
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>1");
  gtk_root_set_focus (GTK_ROOT (window), NULL);
  for (guint i = 0; i < 200; i++)
    {
      GtkWidget *focus;

      gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
      focus = gtk_root_get_focus (GTK_ROOT (window));
      if (focus == NULL)
        continue;

      for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
        g_hash_table_add (reached, (gpointer) gtk_widget_get_name (w));

      if (gtk_widget_is_ancestor (focus, GTK_WIDGET (page->views_stack)))
        break;
    }
  for (guint i = 0; i < G_N_ELEMENTS (must_reach); i++)
    if (!g_hash_table_contains (reached, must_reach[i]))
      g_error ("Tab never reaches %s", must_reach[i]);

  /* Tab through the presets selected them one after another (a sidebar
   * follows the keyboard): the last one is the mode pair. Alt+1: the
   * whole job again. */
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES);
  page_test_press_shortcut (GTK_WIDGET (page), "<Alt>1");
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_JOB_PAGE_PRESET_WHOLE_JOB);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  g_assert_null (smprof_timeline_get_selection (timeline));

  close_window (window);
}

/* ------------------------------------------------------------------------ */
/* Export                                                                   */

static gboolean
probe_sensitive (SmprofJobPage *page,
                 const char    *action)
{
  GtkBox *slot = smprof_job_page_get_slot (page, "functions");
  GtkWidget *probe = gtk_button_new ();
  gboolean sensitive;

  gtk_actionable_set_action_name (GTK_ACTIONABLE (probe), action);
  gtk_box_append (slot, probe);
  sensitive = gtk_widget_get_sensitive (probe);
  gtk_box_remove (slot, probe);

  return sensitive;
}

static GtkWidget *
find_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return GTK_WIDGET (window);
    }

  return NULL;
}

/* The drop-down a file chooser shows for the choice labelled @label (the
 * label, then the drop-down, side by side). */
static GtkDropDown *
find_choice_drop_down (GtkWidget  *widget,
                       const char *label)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), label) == 0 &&
      GTK_IS_DROP_DOWN (gtk_widget_get_next_sibling (widget)))
    return GTK_DROP_DOWN (gtk_widget_get_next_sibling (widget));

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkDropDown *found = find_choice_drop_down (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
has_file_chooser (gpointer data)
{
  return find_file_chooser () != NULL;
}

static gboolean
chooser_picks (gpointer data)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (data));
  g_autofree char *expected = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "job-page-export", "selection.svg", NULL);

  return file != NULL && g_strcmp0 (g_file_peek_path (file), expected) == 0;
}

static gboolean
toast_shown (gpointer data)
{
  SmprofJobPage *page = data;

  return gtk_revealer_get_reveal_child (page->toast_revealer) || gtk_info_bar_get_revealed (page->error_bar);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;

  smprof_job_page_export_finish (SMPROF_JOB_PAGE (object), result, error);
  g_object_set_data (object, "test-export-done", GINT_TO_POINTER (1));
}

static gboolean
export_done (gpointer data)
{
  return g_object_get_data (data, "test-export-done") != NULL;
}

typedef struct
{
  gboolean in_svg;
  gboolean has_subtitle;
  guint    n_rects;
  double   width;
  char    *text;
} SvgCheck;

static void
svg_start (GMarkupParseContext  *context,
           const char           *element,
           const char          **names,
           const char          **values,
           gpointer              user_data,
           GError              **error)
{
  SvgCheck *check = user_data;

  if (g_str_equal (element, "svg"))
    {
      check->in_svg = TRUE;
      for (guint i = 0; names[i] != NULL; i++)
        if (g_str_equal (names[i], "width"))
          check->width = g_ascii_strtod (values[i], NULL);
    }
  if (g_str_equal (element, "rect"))
    check->n_rects++;
}

static void
svg_text (GMarkupParseContext  *context,
          const char           *text,
          gsize                 length,
          gpointer              user_data,
          GError              **error)
{
  SvgCheck *check = user_data;
  g_autofree char *chunk = g_strndup (text, length);
  char *joined = g_strconcat (check->text != NULL ? check->text : "", chunk, NULL);

  g_free (check->text);
  check->text = joined;
}

/* Exports the page's selection as an SVG through its API, and parses it. */
static void
export_svg_checked (SmprofJobPage        *page,
                    GFile                *file,
                    const GMarkupParser  *parser,
                    SvgCheck             *check)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  smprof_job_page_export_async (page, SMPROF_EXPORT_SVG, file, NULL, export_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  g_assert_true (g_file_load_contents (file, NULL, &contents, &length, NULL, &error));
  g_assert_no_error (error);
  context = g_markup_parse_context_new (parser, 0, check, NULL);
  g_assert_true (g_markup_parse_context_parse (context, contents, length, &error));
  g_assert_no_error (error);
  g_assert_true (check->in_svg);
}

/* The actions a menu model's items (and its sections' items) name. */
static void
collect_menu_actions (GMenuModel *model,
                      GPtrArray  *actions)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *action = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autoptr(GMenuModel) submenu = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU);

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
        g_ptr_array_add (actions, g_steal_pointer (&action));
      if (section != NULL)
        collect_menu_actions (section, actions);
      if (submenu != NULL)
        collect_menu_actions (submenu, actions);
    }
}

static void
test_export (void)
{
  static const GMarkupParser svg_parser = { svg_start, NULL, svg_text, NULL, NULL };
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *dialog;
  g_autofree char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "job-page-export", NULL);
  g_autofree char *svg_path = g_build_filename (dir, "selection.svg", NULL);
  g_autofree char *png_path = g_build_filename (dir, "selection.png", NULL);
  g_autofree char *suggested = NULL;
  g_autofree char *description = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GFile) png_file = g_file_new_for_path (png_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GdkTexture) png = NULL;
  g_autofree char *n_intervals = NULL;
  SvgCheck check = { 0 };
  gsize length;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_mkdir_with_parents (dir, 0755);
  g_remove (svg_path);
  g_remove (png_path);

  window = open_job ("pt-cprofile", &page);

  /* Steps 3-5 of one node. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 1);
  smprof_job_page_set_step_range (page, 3, 5);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  description = smprof_job_page_dup_selection_description (page);
  g_test_message ("selection: %s", description);
  g_assert_cmpstr (description, ==, "train steps 3 (stepstart) – 5 (stepend)");

  /* Every format is in the Export menu and can be written from a cProfile
   * selection. */
  {
    GtkWidget *button = viewer_test_find (GTK_WIDGET (page), "export-button");
    g_autoptr(GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);

    g_assert_true (GTK_IS_MENU_BUTTON (button));
    collect_menu_actions (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), actions);
    for (guint format = 0; format < SMPROF_EXPORT_N_FORMATS; format++)
      {
        g_autofree char *action = g_strconcat ("job-page.export-", smprof_export_format_to_string (format), NULL);

        g_assert_true (g_ptr_array_find_with_equal_func (actions, action, g_str_equal, NULL));
        g_assert_true (probe_sensitive (page, action));
      }
  }

  /* The Export menu's SVG item: the save dialog suggests a name from the
   * job, the selection and the node; accept it in the build folder. */
  suggested = smprof_job_page_dup_export_name (page, SMPROF_EXPORT_SVG);
  g_assert_cmpstr (suggested, ==, "pt-cprofile-steps-3-5-0-algo-1.svg");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-svg", NULL));
  g_assert_true (viewer_test_wait (has_file_chooser, NULL, 10000));
  dialog = find_file_chooser ();
  {
    g_autofree char *name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));

    g_assert_cmpstr (name, ==, suggested);
  }
  {
    g_autoptr(GFile) folder = g_file_new_for_path (dir);

    /* The chooser loads the folder before it takes it. */
    g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL));
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "selection.svg");
    g_assert_true (viewer_test_wait (chooser_picks, dialog, 10000));
  }
  /* A picture's direction and width are choices in the dialog itself, which
   * opens on the defaults; pick an icicle 800 px wide in its drop-downs. */
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export_dialog), "direction"), ==, "flame");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export_dialog), "width"), ==, "1200");
  {
    GtkDropDown *direction = find_choice_drop_down (dialog, "Draw as");
    GtkDropDown *width = find_choice_drop_down (dialog, "Width");
    GListModel *labels;

    g_assert_nonnull (direction);
    g_assert_nonnull (width);
    labels = gtk_drop_down_get_model (width);
    g_assert_cmpuint (g_list_model_get_n_items (labels), ==, 4);
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (labels), 0), ==, "1200 px wide");
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (labels), 1), ==, "800 px wide");
    gtk_drop_down_set_selected (direction, 1);
    gtk_drop_down_set_selected (width, 1);
  }
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export_dialog), "direction"), ==, "icicle");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export_dialog), "width"), ==, "800");
  /* Accepted, as the portal's or the dialog's Export button answers
   * (GtkFileChooserDialog's own accept path re-reads its entry on its own). */
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export_dialog));
  g_signal_emit_by_name (page->export_dialog, "response", GTK_RESPONSE_ACCEPT);
  g_assert_null (page->export_dialog);
  g_assert_true (viewer_test_wait (toast_shown, page, 30000));
  g_assert_false (gtk_info_bar_get_revealed (page->error_bar));
  g_test_message ("toast: %s", gtk_label_get_label (page->toast_label));
  g_assert_cmpstr (gtk_label_get_label (page->toast_label), ==, "Exported “selection.svg”");

  /* A valid SVG whose subtitle names the job, the node and the selection. */
  g_assert_true (g_file_get_contents (svg_path, &contents, &length, &error));
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&svg_parser, 0, &check, NULL);
  g_assert_true (g_markup_parse_context_parse (context, contents, length, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_true (check.in_svg);
  g_assert_cmpuint (check.n_rects, >, 10);
  g_assert_cmpfloat (check.width, ==, 800);
  g_assert_nonnull (strstr (check.text, "Icicle graph"));

  /* The next picture's dialog opens on the last choices; others have none. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-png", NULL));
  g_assert_true (viewer_test_wait (has_file_chooser, NULL, 10000));
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export_dialog), "direction"), ==, "icicle");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export_dialog), "width"), ==, "800");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-csv", NULL));
  g_assert_true (viewer_test_wait (has_file_chooser, NULL, 10000));
  g_assert_null (find_choice_drop_down (find_file_chooser (), "Width"));
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export_dialog));
  g_signal_emit_by_name (page->export_dialog, "response", GTK_RESPONSE_CANCEL);
  g_assert_null (page->export_dialog);
  g_assert_nonnull (strstr (check.text, "pt-cprofile"));
  g_assert_nonnull (strstr (check.text, "0-algo-1"));
  g_assert_nonnull (strstr (check.text, "train steps 3 (stepstart) – 5 (stepend)"));
  n_intervals = g_strdup_printf ("%u intervals", smprof_job_page_get_selected_records (page)->len);
  g_assert_nonnull (strstr (check.text, n_intervals));
  g_free (check.text);

  /* A PNG through the page's export API: the default width, not blank. */
  smprof_job_page_export_async (page, SMPROF_EXPORT_PNG, png_file, NULL, export_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  png = gdk_texture_new_from_filename (png_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (png), ==, 1200);
  g_assert_cmpint (gdk_texture_get_height (png), >, 100);
  g_assert_cmpuint (ui_test_count_colors (png), >, 10);

  /* The pictures follow the flame graph's zoom: zoomed to the first root
   * frame's first child, the SVG holds fewer frames. */
  {
    SmprofFlameGraph *flame_graph = smprof_flame_graph_view_get_flame_graph (page->flame_graph_view);
    SmprofCallTree *tree = smprof_profile_get_call_tree (page->profile);
    guint32 root = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->first_child;
    guint32 child = smprof_call_tree_get_node (tree, root)->first_child;
    g_autofree char *zoomed_path = g_build_filename (dir, "zoomed.svg", NULL);
    g_autoptr(GFile) zoomed_file = g_file_new_for_path (zoomed_path);
    SvgCheck whole_check = { 0 };
    SvgCheck zoomed_check = { 0 };

    g_assert_cmpuint (child, !=, SMPROF_CALL_TREE_NONE);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "flame-graph"));
    g_assert_true (smprof_flame_graph_get_profile (flame_graph) == page->profile);
    export_svg_checked (page, zoomed_file, &svg_parser, &whole_check);
    smprof_flame_graph_zoom_to_node (flame_graph, child);
    g_assert_cmpuint (smprof_flame_graph_get_zoom_node (flame_graph), ==, child);
    export_svg_checked (page, zoomed_file, &svg_parser, &zoomed_check);
    g_assert_cmpuint (zoomed_check.n_rects, >, 0);
    g_assert_cmpuint (zoomed_check.n_rects, <, whole_check.n_rects);
    /* the page's API draws with the defaults, whatever the dialog chose last */
    g_assert_cmpfloat (whole_check.width, ==, 1200);
    g_assert_null (strstr (whole_check.text, "Icicle graph"));
    g_free (whole_check.text);
    g_free (zoomed_check.text);
    smprof_flame_graph_reset_zoom (flame_graph);
  }

  close_window (window);

  /* Pyinstrument: every format too; its pstats file holds a row per row of
   * the Functions table, with the same cumulative times. */
  window = open_job ("pt-pyinstrument", &page);
  for (guint format = 0; format < SMPROF_EXPORT_N_FORMATS; format++)
    {
      g_autofree char *action = g_strconcat ("job-page.export-", smprof_export_format_to_string (format), NULL);

      g_assert_true (probe_sensitive (page, action));
    }
  {
    g_autofree char *prof_path = g_build_filename (dir, "sampled.prof", NULL);
    g_autoptr(GFile) prof_file = g_file_new_for_path (prof_path);
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(SmprofFuncTable) table = smprof_func_table_new ();
    g_autoptr(SmprofPstats) stats = NULL;
    g_autoptr(SmprofProfile) profile = g_object_ref (page->profile);

    smprof_job_page_export_async (page, SMPROF_EXPORT_PSTATS, prof_file, NULL, export_done_cb, &error);
    g_assert_true (viewer_test_wait (export_done, page, 30000));
    g_assert_no_error (error);
    bytes = g_file_load_bytes (prof_file, NULL, NULL, &error);
    g_assert_no_error (error);
    stats = smprof_pstats_parse (bytes, table, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (stats->n_funcs, ==, smprof_profile_get_n_functions (profile));
    g_assert_cmpuint (stats->n_funcs, >, 10);
    for (guint i = 0; i < stats->n_funcs; i++)
      {
        const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);

        g_assert_cmpstr (smprof_func_table_get_name (table, stats->funcs[i].func), ==,
                         smprof_func_table_get_name (smprof_call_tree_get_table (smprof_profile_get_call_tree (profile)),
                                                     row->func));
        g_assert_cmpfloat_with_epsilon (stats->funcs[i].ct, row->cumtime, 1e-9);
        g_assert_cmpint (stats->funcs[i].nc, >=, stats->funcs[i].cc);
        g_assert_cmpint (stats->funcs[i].cc, >=, 1);
      }
  }
  close_window (window);
}

static void
report_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;

  smprof_job_page_export_report_finish (SMPROF_JOB_PAGE (object), result, error);
  g_object_set_data (object, "test-export-done", GINT_TO_POINTER (1));
}

static void
write_report (SmprofJobPage *page,
              const char    *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  smprof_job_page_export_report_async (page, file, NULL, report_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 60000));
  g_assert_no_error (error);
}

static char *
read_file (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);

  return contents;
}

/* Export > Report: a dialog suggesting a page named from the selection;
 * the report of the selection shown, as a folder whose function table is the
 * page's CSV export and whose summary names the job, node and selection, and
 * as one HTML page with the flame graph inline. */
static void
test_export_report (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *dialog;
  g_autofree char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "job-page-report", NULL);
  g_autofree char *folder = g_build_filename (dir, "report", NULL);
  g_autofree char *html_path = g_build_filename (dir, "report.html", NULL);
  g_autofree char *csv_path = g_build_filename (dir, "functions.csv", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *description = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *functions = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *steps = NULL;
  g_autofree char *html = NULL;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_mkdir_with_parents (dir, 0755);
  window = open_job ("pt-cprofile", &page);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 1);
  smprof_job_page_set_step_range (page, 3, 5);
  g_assert_true (viewer_test_wait (page_ready, page, 30000));
  description = smprof_job_page_dup_selection_description (page);

  g_assert_true (probe_sensitive (page, "job-page.export-report"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-report", NULL));
  g_assert_true (viewer_test_wait (has_file_chooser, NULL, 10000));
  dialog = find_file_chooser ();
  {
    g_autofree char *name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));

    g_assert_cmpstr (name, ==, "pt-cprofile-steps-3-5-0-algo-1-report.html");
  }
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->report_dialog));
  g_signal_emit_by_name (page->report_dialog, "response", GTK_RESPONSE_CANCEL);
  g_assert_null (page->report_dialog);

  /* A folder. */
  write_report (page, folder);
  summary = read_file (folder, "README.md");
  g_assert_nonnull (strstr (summary, "pt-cprofile"));
  g_assert_nonnull (strstr (summary, "0-algo-1"));
  g_assert_nonnull (strstr (summary, description));
  g_assert_null (strstr (summary, "1-algo-2"));
  smprof_job_page_export_async (page, SMPROF_EXPORT_CSV, csv_file, NULL, export_done_cb, &error);
  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  functions = read_file (folder, "functions.csv");
  csv = read_file (dir, "functions.csv");
  g_assert_cmpstr (functions, ==, csv);
  /* one row per step of the selection: train steps 3, 4 and 5 of the node */
  steps = read_file (folder, "steps.csv");
  {
    g_auto(GStrv) lines = g_strsplit (steps, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 5);   /* header, 3 steps, "" */
    g_assert_true (g_str_has_prefix (lines[1], "0-algo-1,train,3,"));
    g_assert_true (g_str_has_prefix (lines[2], "0-algo-1,train,4,"));
    g_assert_true (g_str_has_prefix (lines[3], "0-algo-1,train,5,"));
    g_assert_cmpstr (lines[4], ==, "");
  }
  {
    g_autofree char *svg = read_file (folder, "flame-graph.svg");

    g_assert_nonnull (strstr (svg, "<svg"));
  }

  /* One page. */
  write_report (page, html_path);
  html = read_file (dir, "report.html");
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
  g_assert_nonnull (strstr (html, "<svg"));
  g_assert_nonnull (strstr (html, "0-algo-1"));

  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  const char * const no_dirs[] = { NULL };
  int status;

  viewer_test_init (&argc, &argv);

  /* The plugin's data source, linked in: what g_io_module_load() registers. */
  smv_data_source_ensure_extension_point ();
  g_io_extension_point_implement (SMV_DATA_SOURCE_EXTENSION_POINT_NAME, SMPROF_TYPE_SAGEMAKER_SOURCE,
                                  "sagemaker", 10);
  registry = smv_source_registry_new (no_dirs);

  g_test_add_func ("/job-page/window-timeline", test_window_timeline);
  g_test_add_func ("/job-page/drag-selection", test_drag_selection);
  g_test_add_func ("/job-page/click-selection", test_click_selection);
  g_test_add_func ("/job-page/page-to-timeline", test_page_to_timeline);
  g_test_add_func ("/job-page/keyboard-and-colours", test_keyboard_and_colours);
  g_test_add_func ("/job-page/export", test_export);
  g_test_add_func ("/job-page/export-report", test_export_report);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
