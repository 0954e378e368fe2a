/* bench-job-page.c: the job page on a big job, in a real viewer window:
 * how long the main loop is ever kept from running while the page opens,
 * scrolls the node rows, shows each view and follows a drag, and how long
 * a drag's release takes to reach updated views
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark, run on demand (tests/bench/README.md): a timing is no test.
 *
 *   xvfb-run -a -s '-screen 0 1920x1200x24' bench-job-page JOB [--drags N] [--size WxH] [--view NAME]
 *                                                              [--vector-tiles]
 *
 * --vector-tiles replays the timeline's tiles as drawn instead of as images
 * (the way before they were drawn into images), for a comparison in one session.
 *
 * The drags are made with the view NAME shown (functions, call-tree,
 * flame-graph, ...; functions by default).
 *
 * The main loop's stalls are measured as a user meets them
 * (bench-main-loop.c): a 2 ms timeout of high priority notes when it runs;
 * the longest gap between two of its runs is the longest the window could
 * not react (input, redraw). It counts everything that keeps the main
 * thread busy, drawing included. Prints one JSON object.
 */

#include <stdio.h>
#include <stdlib.h>

#include <smprof-viewer-api.h>

#include "bench-main-loop.h"
#include "render-node-count.h"
#include "smprof-job-page-private.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-private.h"
#include "smv-source-registry.h"
#include "smv-window.h"

/* The slowest frame, by phase. GTK's own handlers of the frame clock's
 * signals run before these (they were connected first), so "layout" is
 * noted when the layout is done, "paint" when the window is drawn. */
typedef struct
{
  gint64 before_paint;
  gint64 layout;
  gint64 paint;
  double worst_ms;
  double worst_layout_ms;   /* update and layout */
  double worst_draw_ms;     /* snapshot and rendering */
} Frames;

static Frames frames;
static const char *phase = "start";   /* what main() is doing */
static const char *worst_phase = "";

/* Notes the phase; with SMPROF_BENCH_STALL_LOG set, on stderr too, beside
 * the stalls bench-main-loop.c writes there. */
static void
set_phase (const char *name)
{
  /* A view's name belongs to its stack page, gone with the window before
   * the figures are printed. */
  phase = g_intern_string (name);
  if (g_getenv ("SMPROF_BENCH_STALL_LOG") != NULL)
    g_printerr ("phase %s at %" G_GINT64_FORMAT "\n", name, g_get_monotonic_time ());
}

static void
before_paint_cb (GdkFrameClock *clock)
{
  frames.before_paint = g_get_monotonic_time ();
  frames.layout = frames.paint = 0;
}

static void
layout_cb (GdkFrameClock *clock)
{
  frames.layout = g_get_monotonic_time ();
}

static void
paint_cb (GdkFrameClock *clock)
{
  frames.paint = g_get_monotonic_time ();
}

static void
frame_done_cb (GdkFrameClock *clock)
{
  gint64 now = g_get_monotonic_time ();
  double total = (now - frames.before_paint) / 1000.0;

  if (frames.before_paint == 0 || frames.layout == 0 || frames.paint == 0 || total <= frames.worst_ms)
    return;
  frames.worst_ms = total;
  worst_phase = phase;
  frames.worst_layout_ms = (frames.layout - frames.before_paint) / 1000.0;
  frames.worst_draw_ms = (frames.paint - frames.layout) / 1000.0;
}

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

typedef struct
{
  SmprofJobPage *page;
  SmprofProfile *before;
} Answer;

static gboolean
answer_changed (gpointer data)
{
  Answer *answer = data;

  return !smprof_job_page_get_busy (answer->page) && smprof_job_page_get_profile (answer->page) != NULL
         && smprof_job_page_get_profile (answer->page) != answer->before;
}

typedef struct
{
  SmprofJobPage *page;
  guint          n_refreshes;   /* done by then */
} Refresh;

static gboolean
refreshed (gpointer data)
{
  Refresh *refresh = data;

  return _smprof_job_page_get_n_refreshes (refresh->page) >= refresh->n_refreshes &&
         !smprof_job_page_get_busy (refresh->page);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static double
max_of (const double *values,
        guint         n)
{
  double worst = 0;

  for (guint i = 0; i < n; i++)
    worst = MAX (worst, values[i]);
  return worst;
}

/* What GTK's cairo renderer does with @node each frame: ms per draw into
 * an image the size of the widget, median of 5. */
static double
draw_ms (GskRenderNode *node,
         int            width,
         int            height)
{
  double times[5];

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      cairo_t *cr = cairo_create (surface);
      gint64 t0 = g_get_monotonic_time ();

      gsk_render_node_draw (node, cr);
      cairo_surface_flush (surface);
      times[i] = (g_get_monotonic_time () - t0) / 1000.0;
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }

  return median (times, G_N_ELEMENTS (times));
}

/* The render nodes of @widget's last frame, and ms to draw them with cairo. */
static void
frame_cost (GtkWidget *widget,
            guint     *n_nodes,
            double    *ms)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) frame = NULL;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  frame = gtk_snapshot_free_to_node (snapshot);
  *n_nodes = frame != NULL ? render_node_count (frame) : 0;
  *ms = frame != NULL ? draw_ms (frame, width, height) : 0;
}

/* Scrolls the node rows from the top to the bottom and back, a frame per
 * step, as a wheel would. Returns the steps taken. */
static guint
scroll_rows (SmprofTimeline *timeline)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (timeline));
  double lower, range;
  guint steps = 0;

  if (adjustment == NULL)
    return 0;
  lower = gtk_adjustment_get_lower (adjustment);
  range = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - lower;
  if (range <= 0)
    return 0;
  for (int i = 0; i <= 80; i++, steps++)
    {
      double t = i <= 40 ? i / 40.0 : (80 - i) / 40.0;

      gtk_adjustment_set_value (adjustment, lower + t * range);
      bench_wait_frame (GTK_WIDGET (timeline));
    }

  return steps;
}

int
main (int   argc,
      char *argv[])
{
  const char * const no_dirs[] = { NULL };
  g_autoptr(SmvSourceRegistry) registry = NULL;
  g_autoptr(GFile) job = NULL;
  g_autofree char *load_before = NULL, *load_after = NULL;
  g_autofree double *drag_ms = NULL, *drag_stall = NULL;
  g_autoptr(GString) views = g_string_new (NULL);
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofTimeline *timeline;
  GListModel *pages;
  int width = 1920, height = 1080;
  guint drags = 5, scroll_steps, timeline_nodes, overview_nodes, view_nodes, window_nodes;
  double timeline_draw, overview_draw, view_draw, window_draw;
  gint64 t0;
  double to_document, to_ready, open_stall, settle_stall, scroll_stall, views_stall = 0, close_stall;
  double refresh_stall;
  const char *renderer_name;
  const char *path = NULL, *drag_view = "functions";
  gboolean vector_tiles = FALSE;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--drags") && i + 1 < argc)
        {
          long n = strtol (argv[++i], NULL, 10);

          drags = (guint) MAX (1, n);
        }
      else if (g_str_equal (argv[i], "--view") && i + 1 < argc)
        drag_view = argv[++i];
      else if (g_str_equal (argv[i], "--vector-tiles"))
        vector_tiles = TRUE;
      else if (g_str_equal (argv[i], "--size") && i + 1 < argc)
        {
          if (sscanf (argv[++i], "%dx%d", &width, &height) != 2)
            g_error ("--size WIDTHxHEIGHT");
        }
      else if (path == NULL)
        path = argv[i];
      else
        g_error ("usage: bench-job-page JOB [--drags N] [--size WxH] [--view NAME] [--vector-tiles]");
    }
  if (path == NULL)
    g_error ("usage: bench-job-page JOB [--drags N] [--size WxH] [--view NAME] [--vector-tiles]");

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_init ();
  smv_data_source_ensure_extension_point ();
  g_io_extension_point_implement (SMV_DATA_SOURCE_EXTENSION_POINT_NAME, SMPROF_TYPE_SAGEMAKER_SOURCE,
                                  "sagemaker", 10);
  registry = smv_source_registry_new (no_dirs);
  load_before = bench_load_average ();

  window = smv_window_new (NULL, registry, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  if (!bench_wait_for (is_mapped, window, 10000))
    g_error ("the window was never mapped");
  bench_spin (500);

  bench_stalls_start ();
  {
    GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));

    g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
    g_signal_connect (clock, "layout", G_CALLBACK (layout_cb), NULL);
    g_signal_connect (clock, "paint", G_CALLBACK (paint_cb), NULL);
    g_signal_connect_after (clock, "after-paint", G_CALLBACK (frame_done_cb), NULL);
  }

  /* Open: from the call to the page on screen, then to the first answer. */
  job = g_file_new_for_path (path);
  set_phase ("open");
  bench_stalls_begin ();
  t0 = g_get_monotonic_time ();
  smv_window_open (window, job);
  if (!bench_wait_for (shows_document, window, 600000))
    g_error ("%s: the job page never came", path);
  to_document = (g_get_monotonic_time () - t0) / 1000.0;
  page = SMPROF_JOB_PAGE (smv_window_get_page (window));
  if (vector_tiles)
    _smprof_timeline_set_raster_tiles (smprof_job_page_get_timeline (page), FALSE);
  if (!bench_wait_for (page_ready, page, 600000))
    g_error ("%s: the page never had an answer", path);
  bench_wait_frame (GTK_WIDGET (page));
  to_ready = (g_get_monotonic_time () - t0) / 1000.0;
  open_stall = bench_stalls_end ();

  /* What the page still does after its first answer (statistics per step,
   * outliers, the node matrix's figures): two seconds. */
  set_phase ("settle");
  bench_stalls_begin ();
  bench_spin (2000);
  settle_stall = bench_stalls_end ();

  timeline = smprof_job_page_get_timeline (page);
  set_phase ("scroll");
  bench_stalls_begin ();
  scroll_steps = scroll_rows (timeline);
  scroll_stall = bench_stalls_end ();

  /* Each view in turn, drawn, then a second for what it fills in later. */
  pages = G_LIST_MODEL (gtk_stack_get_pages (page->views_stack));
  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (pages, i);
      GtkStackPage *stack_page = GTK_STACK_PAGE (item);
      double worst;

      if (!gtk_widget_get_visible (gtk_stack_page_get_child (stack_page)))
        continue;
      set_phase (gtk_stack_page_get_name (stack_page));
      bench_stalls_begin ();
      gtk_stack_set_visible_child (page->views_stack, gtk_stack_page_get_child (stack_page));
      bench_wait_frame (GTK_WIDGET (page));
      bench_spin (1000);
      worst = bench_stalls_end ();
      views_stall = MAX (views_stall, worst);
      g_string_append_printf (views, "%s\"%s\": %.1f", views->len > 0 ? ", " : "",
                              gtk_stack_page_get_name (stack_page), worst);
    }
  g_object_unref (pages);
  if (gtk_stack_get_child_by_name (page->views_stack, drag_view) != NULL)
    gtk_stack_set_visible_child_name (page->views_stack, drag_view);
  bench_wait_frame (GTK_WIDGET (page));

  /* Drags over the node rows, each a different range: release to the views
   * updated (the new answer in, a frame drawn with it). */
  drag_ms = g_new0 (double, drags);
  drag_stall = g_new0 (double, drags);
  for (guint i = 0; i < drags; i++)
    {
      GtkWidget *widget = GTK_WIDGET (timeline);
      double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
      double x0 = w * (0.25 + 0.05 * i), x1 = x0 + w * (0.08 + 0.03 * i), y = h * 0.4;
      Answer answer = { page, smprof_job_page_get_profile (page) };

      set_phase ("drag");
      bench_stalls_begin ();
      _smprof_timeline_drag_begin (timeline, x0, y, FALSE);
      for (int s = 1; s <= 10; s++)
        {
          _smprof_timeline_drag_update (timeline, x0 + (x1 - x0) * s / 10.0, y);
          bench_wait_frame (widget);
        }
      t0 = g_get_monotonic_time ();
      _smprof_timeline_drag_end (timeline, x1, y);
      if (!bench_wait_for (answer_changed, &answer, 120000))
        g_error ("drag %u: no new answer in 2 minutes", i + 1);
      bench_wait_frame (GTK_WIDGET (page));
      drag_ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
      drag_stall[i] = bench_stalls_end ();
      bench_spin (300);
    }

  /* A refresh, as the Refresh button or a live poll asks for one: the job
   * listed again on a worker, found as it was; then a second for what the
   * page does with it. */
  set_phase ("refresh");
  bench_stalls_begin ();
  {
    Refresh refresh = { page, _smprof_job_page_get_n_refreshes (page) + 1 };

    if (!gtk_widget_activate_action (GTK_WIDGET (page), "page.refresh", NULL))
      g_error ("the page has no page.refresh action");
    if (!bench_wait_for (refreshed, &refresh, 120000))
      g_error ("no refresh in 2 minutes");
    bench_wait_frame (GTK_WIDGET (page));
    bench_spin (1000);
  }
  refresh_stall = bench_stalls_end ();

  /* One frame of the timeline as it is now: what the renderer is given;
   * the same for the rest of what the page shows. */
  frame_cost (GTK_WIDGET (timeline), &timeline_nodes, &timeline_draw);
  frame_cost (page->timeline_overview, &overview_nodes, &overview_draw);
  frame_cost (gtk_stack_get_visible_child (page->views_stack), &view_nodes, &view_draw);
  frame_cost (GTK_WIDGET (window), &window_nodes, &window_draw);
  load_after = bench_load_average ();
  renderer_name = G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window)));

  /* Close: the window, its page and its job let go, as when a user closes
   * the window; what is freed on the main thread stops it. */
  set_phase ("close");
  bench_stalls_begin ();
  gtk_window_destroy (GTK_WINDOW (window));
  bench_spin (500);
  close_stall = bench_stalls_end ();

  printf ("{\"job\": \"%s\", \"size\": \"%dx%d\", \"load_before\": \"%s\", \"load_after\": \"%s\",\n"
          " \"to_page_ms\": %.1f, \"to_first_answer_ms\": %.1f, \"worst_stall_open_ms\": %.1f,\n"
          " \"worst_stall_settle_ms\": %.1f, \"worst_stall_scroll_ms\": %.1f, \"scroll_frames\": %u,\n"
          " \"worst_stall_views_ms\": %.1f, \"views\": {%s},\n"
          " \"drag_to_views_ms\": [",
          path, width, height, load_before, load_after, to_document, to_ready, open_stall,
          settle_stall, scroll_stall, scroll_steps, views_stall, views->str);
  for (guint i = 0; i < drags; i++)
    printf ("%s%.1f", i > 0 ? ", " : "", drag_ms[i]);
  printf ("], \"worst_stall_drag_ms\": %.1f, \"worst_stall_refresh_ms\": %.1f, \"worst_stall_close_ms\": %.1f,\n",
          max_of (drag_stall, drags), refresh_stall, close_stall);
  printf (" \"drag_to_views_median_ms\": %.1f, \"timeline_frame_nodes\": %u, \"timeline_frame_draw_ms\": %.1f,\n",
          median (drag_ms, drags), timeline_nodes, timeline_draw);
  printf (" \"overview_frame_nodes\": %u, \"overview_frame_draw_ms\": %.1f, \"view_frame_nodes\": %u, \"view_frame_draw_ms\": %.1f,\n",
          overview_nodes, overview_draw, view_nodes, view_draw);
  printf (" \"window_frame_nodes\": %u, \"window_frame_draw_ms\": %.1f,\n", window_nodes, window_draw);
  printf (" \"slowest_frame_ms\": %.1f, \"its_layout_ms\": %.1f, \"its_drawing_ms\": %.1f, \"while\": \"%s\",\n",
          frames.worst_ms, frames.worst_layout_ms, frames.worst_draw_ms, worst_phase);
  printf (" \"renderer\": \"%s\", \"tiles\": \"%s\"}\n",
          renderer_name, vector_tiles ? "vector" : "images");

  return 0;
}
