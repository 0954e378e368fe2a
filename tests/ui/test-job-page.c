/* test-job-page.c: the job page in a real viewer window: its timeline and
 * flame graph drawn in their colours, and the keyboard
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The viewer opens tests/data/real-smdebug/pt-cprofile through the SageMaker
 * data source, as it does with the plugin module; here the plugin's source
 * and page are linked into the test (and registered on the viewer's
 * extension point by hand), so the test can reach the timeline and the core.
 * test-viewer-open loads the module itself. The selection and the Export
 * menu are tested in test-job-page-selection.c and test-job-page-export.c.
 *
 * Screenshots: viewer-job-page.png (timeline and flame graph) and
 * viewer-functions.png, in the working folder, and in $SMPROF_SCREENSHOTS_DIR
 * when set (data/screenshots/ for the README).
 */

#include <math.h>

#include <smprof-viewer-api.h>

#include "smprof-flame-graph-private.h"
#include "smprof-job-page-private.h"
#include "smprof-sagemaker-source.h"
#include "smprof-session-private.h"
#include "smprof-timeline-private.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "page-test-util.h"
#include "ui-test-util.h"
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

static SmvWindow *
open_job (const char     *name,
          SmprofJobPage **page)
{
  g_autofree char *path = window_test_real_job (name);

  return window_test_open_job (registry, path, WIDTH, HEIGHT, page);
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
      /* An outlier step's block has a red outline and a rim, 3 px, inside
       * its edges; it may be drawn by now (the outlier steps are computed
       * beside the page's first aggregate). */
      int inset = _smprof_timeline_outlier_of_item (timeline, &items[i]) >= 0 ? 4 : 2;

      g_assert_true (_smprof_timeline_get_block_rect (timeline, &items[i], &rect));
      x0 = (int) ceil (origin.x + MAX (rect.origin.x, vp.x)) + inset;
      x1 = (int) floor (origin.x + MIN (rect.origin.x + rect.size.width, vp.x + vp.width)) - inset;
      y0 = (int) ceil (origin.y + rect.origin.y) + inset;
      y1 = (int) floor (origin.y + rect.origin.y + rect.size.height) - inset;
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

  window_test_close (window);
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
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
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

  /* Tab through the presets applies none of them (the focus moves, the
   * selection stays): the dragged range is still the selection. Alt+1:
   * the whole job. */
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_NONE);
  g_assert_cmpint (smprof_job_page_get_selection (page)->kind, ==, SMPROF_SELECT_OVERLAP);
  page_test_press_shortcut (GTK_WIDGET (page), "<Alt>1");
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_WHOLE_JOB);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_null (smprof_timeline_get_selection (timeline));

  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* The busy spinner                                                         */

/* Each wait of the session, and whether the spinner showed during it. The
 * spinner shows once a wait passes 300 ms: a wait well under that must not
 * show it, one well over must, whatever the machine's speed (under ASan a
 * new answer of the sample job takes longer than 300 ms). */
typedef struct
{
  gint64 since;            /* when the current wait began, or 0 */
  gboolean shown_now;      /* the spinner showed in the current wait */
  guint waits;
  guint short_waits;       /* under 250 ms */
  guint short_shown;       /* of which showed the spinner */
  guint long_not_shown;    /* over 400 ms without it */
  guint shown;             /* times the spinner was made visible */
} BusySeen;

static void
count_busy_cb (SmprofSession *session,
               GParamSpec    *pspec,
               BusySeen      *seen)
{
  gint64 now = g_get_monotonic_time ();

  if (smprof_session_get_busy (session))
    {
      if (seen->since == 0)
        seen->since = now;
      return;
    }

  if (seen->since == 0)
    return;
  seen->waits++;
  if (now - seen->since < 250 * G_TIME_SPAN_MILLISECOND)
    {
      seen->short_waits++;
      seen->short_shown += seen->shown_now;
    }
  else if (now - seen->since > 400 * G_TIME_SPAN_MILLISECOND && !seen->shown_now)
    seen->long_not_shown++;
  seen->since = 0;
  seen->shown_now = FALSE;
}

static void
count_shown_cb (GtkWidget  *spinner,
                GParamSpec *pspec,
                BusySeen   *seen)
{
  if (gtk_widget_get_visible (spinner))
    {
      seen->shown++;
      seen->shown_now = TRUE;
    }
}

static gboolean
spinner_shown (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* A short wait shows no spinner (an answer in milliseconds would make it
 * flash for a frame); a long one shows it, spinning, until it ends. */
static void
test_busy_spinner (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *spinner;
  BusySeen seen = { 0 };
  guint shown;
  gulong busy_id, shown_id;
  gint64 first, last;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  spinner = GTK_WIDGET (page->busy_spinner);
  g_assert_false (gtk_widget_get_visible (spinner));
  busy_id = g_signal_connect (page->session, "notify::busy", G_CALLBACK (count_busy_cb), &seen);
  shown_id = g_signal_connect (spinner, "notify::visible", G_CALLBACK (count_shown_cb), &seen);

  /* New step ranges: the session is busy for each answer, briefly on a
   * machine of ordinary speed. */
  g_assert_true (smprof_session_get_step_bounds (page->session, &first, &last));
  g_assert_cmpint (last, >, first);
  for (gint64 step = first; step <= MIN (first + 2, last); step++)
    {
      smprof_session_set_step_range (page->session, step, step);
      g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
      viewer_test_spin (100);
    }
  g_test_message ("%u waits for an answer, %u of them under 250 ms", seen.waits, seen.short_waits);
  g_assert_cmpuint (seen.waits, >=, 1);
  g_assert_cmpuint (seen.short_shown, ==, 0);
  g_assert_cmpuint (seen.long_not_shown, ==, 0);
  g_assert_false (gtk_widget_get_visible (spinner));

  /* A wait that lasts: nothing at first, the spinner after a moment, gone
   * as soon as the wait ends. */
  shown = seen.shown;
  _smprof_session_set_busy (page->session, TRUE);
  viewer_test_spin (100);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_true (viewer_test_wait (spinner_shown, spinner, 5000));
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  g_assert_cmpuint (seen.shown, ==, shown + 1);
  _smprof_session_set_busy (page->session, FALSE);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_false (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));

  /* A wait that ends before the moment leaves nothing behind. */
  _smprof_session_set_busy (page->session, TRUE);
  viewer_test_spin (50);
  _smprof_session_set_busy (page->session, FALSE);
  viewer_test_spin (500);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_cmpuint (seen.shown, ==, shown + 1);
  g_assert_cmpuint (seen.short_shown, ==, 0);

  g_signal_handler_disconnect (page->session, busy_id);
  g_signal_handler_disconnect (spinner, shown_id);
  window_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/job-page/window-timeline", test_window_timeline);
  g_test_add_func ("/job-page/keyboard-and-colours", test_keyboard_and_colours);
  g_test_add_func ("/job-page/busy-spinner", test_busy_spinner);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
