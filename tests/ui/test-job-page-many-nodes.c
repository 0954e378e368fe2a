/* test-job-page-many-nodes.c: a 64-node job in a real viewer window of
 * 1920x1080: the timeline's first view, its overview strip and its presets'
 * zoom, Choose Nodes, and the Node Matrix
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job: tf-cprofile's node copied 64 times as "0-algo-1" … "63-algo-64",
 * names whose text order ("10-…" before "2-…") differs from their natural
 * order. Screenshots in the working folder: many-nodes-*.png.
 */

#include <json-glib/json-glib.h>
#include <smprof-viewer-api.h>

#include "core-test-util.h"
#include "smprof-job-page-private.h"
#include "smprof-node-matrix-private.h"
#include "smprof-node-matrix-view.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-overview.h"
#include "smprof-timeline-private.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "page-test-util.h"
#include "render-node-count.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

#define N_NODES 64

static SmvSourceRegistry *registry;
static char *job_path;

/* ------------------------------------------------------------------------ */
/* The window                                                               */

static SmvWindow *
open_many (SmprofJobPage **page)
{
  SmvWindow *window = window_test_open_job (registry, job_path, 1920, 1080, page);

  ui_test_settle ();
  return window;
}

/* A button clicked, as a click would (its action or its handler run now). */
static void
click (GtkWidget *button)
{
  g_assert_true (GTK_IS_BUTTON (button));
  g_signal_emit_by_name (button, "clicked");
}

static void
save (GtkWidget  *widget,
      const char *name)
{
  g_autoptr(GdkTexture) texture = NULL;

  viewer_test_wait_transitions (widget);
  texture = ui_test_render (widget);
  ui_test_save_local (texture, name);
}

/* The overview strip as drawn: the share of its pixels in the colour of
 * @mode, and the render nodes of its frame. */
static void
overview_drawn (SmprofTimelineOverview *overview,
                SmprofMode              mode,
                double                 *share,
                guint                  *n_nodes)
{
  GtkWidget *widget = GTK_WIDGET (overview);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) frame = NULL;
  g_autoptr(GdkTexture) texture = ui_test_render (widget);
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height * 4);
  GdkRGBA color;
  guint matching = 0;

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  frame = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (frame);
  *n_nodes = render_node_count (frame);

  smprof_timeline_get_mode_color (mode, FALSE, &color);
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (int i = 0; i < width * height; i++)
    {
      /* Cairo's ARGB32, premultiplied; the strip's colours are opaque. */
      const guint8 *p = pixels + 4 * i;

      matching += ABS (p[2] - color.red * 255) <= 2 && ABS (p[1] - color.green * 255) <= 2 &&
                  ABS (p[0] - color.blue * 255) <= 2 && p[3] == 255;
    }
  *share = (double) matching / ((double) width * height);
}

/* "0-algo-1" … in natural order: the number before the first dash. */
static void
check_natural_order (const char * const *ids,
                     guint               n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *expected = g_strdup_printf ("%u-algo-%u", i, i + 1);

      g_assert_cmpstr (ids[i], ==, expected);
    }
}

/* `smprof stats JOB --all --node all`'s total time. */
static double
cli_total_time (void)
{
  const char *argv[] = { g_getenv ("SMPROF_CLI"), "stats", job_path, "--all", "--node", "all", "--json", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  return json_object_get_double_member (json_node_get_object (json_parser_get_root (parser)), "total_time");
}

/* ------------------------------------------------------------------------ */
/* The first view, Fit, the overview, a preset's zoom                       */

/* The training loop's extent on the axis shown, from the layout's items:
 * every interval but those that start at the job's start or end at its end. */
static void
training_extent (SmprofTimeline *timeline,
                 double         *start,
                 double         *end)
{
  SmprofTimelineLayout *layout = smprof_timeline_get_layout (timeline);
  const SmprofTimelineItem *items = smprof_timeline_layout_get_items (layout);
  SmprofTimelineAxis axis = smprof_timeline_get_align_by_step (timeline) ? SMPROF_TIMELINE_AXIS_STEP
                                                                         : SMPROF_TIMELINE_AXIS_TIME;

  *start = INFINITY;
  *end = -INFINITY;
  for (guint i = 0; i < smprof_timeline_layout_get_n_items (layout); i++)
    {
      const SmprofIntervalName *name = &items[i].record->name;

      if (name->start_phase == SMPROF_PHASE_START || name->end_phase == SMPROF_PHASE_END)
        continue;
      *start = MIN (*start, items[i].start[axis]);
      *end = MAX (*end, items[i].end[axis]);
    }
  g_assert_cmpfloat (*end, >, *start);
}

static void
test_first_view (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofTimelineOverview *overview;
  double view_start, view_end, full_start, full_end, train_start, train_end, x0, x1, width;
  double sel_start, sel_end;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_many (&page);
  overview = SMPROF_TIMELINE_OVERVIEW (page->timeline_overview);
  save (GTK_WIDGET (window), "many-nodes-first-view.png");

  /* Counts of thousands grouped, as in the function table's count: the
   * job's 64 nodes of 40 intervals in the header and the status line. */
  g_test_message ("header: %s; status: %s", gtk_label_get_label (page->job_summary_label),
                  gtk_label_get_label (page->status_label));
  g_assert_cmpstr (gtk_label_get_label (page->job_summary_label), ==, "64 nodes · 2,560 intervals (40 per node)");
  g_assert_true (g_str_has_prefix (gtk_label_get_label (page->status_label), "2,560 intervals · "));

  /* The whole job, as the command line sums it. */
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_WHOLE_JOB);
  g_assert_cmpfloat_with_epsilon (smprof_cprofile_profile_get_total_tt (smprof_profile_get_cprofile (smprof_job_page_get_profile (page))),
                                  cli_total_time (), 1e-6);

  /* Aligned by step: the nodes' clocks differ, their steps line up. */
  g_assert_true (smprof_timeline_get_align_by_step (page->timeline));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (viewer_test_find (GTK_WIDGET (page), "align-by-step"))));

  /* The training loop framed, initialization and finalization left out. */
  smprof_timeline_get_visible_range (page->timeline, &view_start, &view_end);
  smprof_timeline_get_full_extent (page->timeline, &full_start, &full_end);
  training_extent (page->timeline, &train_start, &train_end);
  g_test_message ("first view %.2f–%.2f, training loop %.2f–%.2f, everything %.2f–%.2f", view_start, view_end,
                  train_start, train_end, full_start, full_end);
  g_assert_cmpfloat (view_start, <=, train_start);
  g_assert_cmpfloat (view_end, >=, train_end);
  g_assert_cmpfloat (view_end - view_start, <=, (train_end - train_start) * 1.1);
  g_assert_cmpfloat (full_end - full_start, >, (view_end - view_start) * 1.05);

  /* The overview strip shows everything, the view as a window inside it. */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (overview)));
  width = gtk_widget_get_width (GTK_WIDGET (overview));
  g_assert_true (smprof_timeline_overview_get_window (overview, &x0, &x1));
  g_assert_cmpfloat (x0, >, 1);
  g_assert_cmpfloat (x1, <, width - 1);

  /* Its bands are one image, in the modes' colours: a handful of render
   * nodes however many nodes the job has (there were a rectangle per run
   * of each node's intervals, 1,477 here, and 52.53 % of the pixels in
   * the TRAIN colour, 14.39 % in EVAL's, 1.31 % in PRE_STEP_ZERO's). */
  {
    double train_share;
    guint n_nodes;

    double eval_share, pre_share;
    guint n;

    overview_drawn (overview, SMPROF_MODE_TRAIN, &train_share, &n_nodes);
    overview_drawn (overview, SMPROF_MODE_EVAL, &eval_share, &n);
    overview_drawn (overview, SMPROF_MODE_PRE_STEP_ZERO, &pre_share, &n);
    g_test_message ("overview: %u render nodes, %.2f %% of its pixels in the TRAIN colour, %.2f %% EVAL, %.2f %% PRE", n_nodes,
                    train_share * 100, eval_share * 100, pre_share * 100);
    g_assert_cmpuint (n_nodes, <, 16);
    g_assert_cmpfloat (train_share, >, 0.2);
    /* The bands' pixels are written straight into the image now, not
     * filled through cairo: the shares the cairo version drew, give or take
     * a point for the strip's width. */
    g_assert_cmpfloat_with_epsilon (train_share, 0.5253, 0.01);
    g_assert_cmpfloat_with_epsilon (eval_share, 0.1439, 0.01);
    g_assert_cmpfloat_with_epsilon (pre_share, 0.0131, 0.005);
  }

  /* One click on Fit: everything, initialization and finalization too. */
  click (viewer_test_find (GTK_WIDGET (page), "zoom-fit"));
  ui_test_settle ();
  smprof_timeline_get_visible_range (page->timeline, &view_start, &view_end);
  g_assert_cmpfloat_with_epsilon (view_start, full_start, (full_end - full_start) * 1e-6);
  g_assert_cmpfloat_with_epsilon (view_end, full_end, (full_end - full_start) * 1e-6);
  g_assert_true (smprof_timeline_overview_get_window (overview, &x0, &x1));
  g_assert_cmpfloat (x0, <=, 1);
  g_assert_cmpfloat (x1, >=, width - 1);

  /* The wall clock in full is Align by Step away. */
  click (viewer_test_find (GTK_WIDGET (page), "align-by-step"));
  ui_test_settle ();
  g_assert_false (smprof_timeline_get_align_by_step (page->timeline));
  smprof_timeline_get_visible_range (page->timeline, &view_start, &view_end);
  smprof_timeline_get_full_extent (page->timeline, &full_start, &full_end);
  g_assert_cmpfloat_with_epsilon (view_start, full_start, (full_end - full_start) * 1e-6);
  g_assert_cmpfloat_with_epsilon (view_end, full_end, (full_end - full_start) * 1e-6);
  click (viewer_test_find (GTK_WIDGET (page), "align-by-step"));
  ui_test_settle ();

  /* A click in the overview's first quarter brings the view there. */
  smprof_timeline_zoom_in (page->timeline);
  smprof_timeline_zoom_in (page->timeline);
  ui_test_settle ();
  ui_test_x_click (GTK_WIDGET (overview), width / 4, gtk_widget_get_height (GTK_WIDGET (overview)) / 2.0);
  g_assert_true (smprof_timeline_overview_get_window (overview, &x0, &x1));
  g_test_message ("after a click at %.0f px: window %.0f–%.0f px", width / 4, x0, x1);
  g_assert_cmpfloat (fabs ((x0 + x1) / 2 - width / 4), <, 3);

  /* A preset zooms to what it selects. */
  smprof_job_page_set_preset (page, SMPROF_PRESET_FINALIZATION);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  ui_test_settle ();
  g_assert_true (page->timeline->has_selection_extent[SMPROF_TIMELINE_AXIS_STEP]);
  sel_start = page->timeline->selection_extent[SMPROF_TIMELINE_AXIS_STEP][0];
  sel_end = page->timeline->selection_extent[SMPROF_TIMELINE_AXIS_STEP][1];
  smprof_timeline_get_visible_range (page->timeline, &view_start, &view_end);
  g_test_message ("finalization %.3f–%.3f shown in %.3f–%.3f", sel_start, sel_end, view_start, view_end);
  g_assert_cmpfloat (view_start, <=, sel_start);
  g_assert_cmpfloat (view_end, >=, sel_end);
  g_assert_cmpfloat (view_end - view_start, <, (full_end - full_start) / 2);
  save (GTK_WIDGET (window), "many-nodes-finalization.png");

  /* The whole job preset shows the whole job. */
  smprof_job_page_set_preset (page, SMPROF_PRESET_WHOLE_JOB);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  ui_test_settle ();
  smprof_timeline_get_visible_range (page->timeline, &view_start, &view_end);
  smprof_timeline_get_full_extent (page->timeline, &full_start, &full_end);
  g_assert_cmpfloat_with_epsilon (view_start, full_start, (full_end - full_start) * 1e-6);
  g_assert_cmpfloat_with_epsilon (view_end, full_end, (full_end - full_start) * 1e-6);

  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* Choose Nodes                                                             */

static guint
count_shown_checks (GtkWidget *popover)
{
  guint n = 0;

  for (guint i = 0; i < N_NODES; i++)
    {
      g_autofree char *name = g_strdup_printf ("node-%u-algo-%u", i, i + 1);
      GtkWidget *check = viewer_test_find (popover, name);

      g_assert_nonnull (check);
      n += gtk_widget_get_visible (check);
    }

  return n;
}

/* The chooser's check buttons are made when its popover first shows; the
 * choice set before (the page mirrors its own) is what they then show. */
static void
test_chooser_made_when_shown (void)
{
  const char * const two[] = { "2-algo-3", "40-algo-41", NULL };
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *button, *popover;
  g_auto(GStrv) chosen = NULL;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_many (&page);
  button = viewer_test_find (GTK_WIDGET (page), "node-chooser-button");
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_null (viewer_test_find (popover, "node-0-algo-1"));
  g_assert_null (viewer_test_find (popover, "node-63-algo-64"));

  /* The choice lives without the buttons. */
  smprof_node_chooser_set_chosen (page->node_chooser, two);
  chosen = smprof_node_chooser_dup_chosen (page->node_chooser);
  g_assert_nonnull (chosen);
  g_assert_cmpuint (g_strv_length (chosen), ==, 2);
  g_assert_cmpstr (chosen[0], ==, two[0]);
  g_assert_cmpstr (chosen[1], ==, two[1]);
  g_assert_null (viewer_test_find (popover, "node-0-algo-1"));

  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  ui_test_settle ();
  g_assert_true (gtk_widget_get_mapped (popover));
  g_assert_cmpuint (count_shown_checks (popover), ==, N_NODES);
  for (guint i = 0; i < N_NODES; i++)
    {
      g_autofree char *id = g_strdup_printf ("%u-algo-%u", i, i + 1);
      g_autofree char *name = g_strconcat ("node-", id, NULL);
      GtkWidget *check = viewer_test_find (popover, name);

      g_assert_nonnull (check);
      g_assert_cmpint (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)), ==,
                       g_strv_contains (two, id));
      /* Two chosen: either may be unchecked. */
      g_assert_true (gtk_widget_get_sensitive (check));
    }

  /* Unchecking one from the popover: the other is the last, kept checked. */
  g_assert_true (gtk_widget_activate (viewer_test_find (popover, "node-40-algo-41")));
  ui_test_settle ();
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  g_clear_pointer (&chosen, g_strfreev);
  chosen = smprof_node_chooser_dup_chosen (page->node_chooser);
  g_assert_cmpuint (g_strv_length (chosen), ==, 1);
  g_assert_cmpstr (chosen[0], ==, "2-algo-3");
  g_assert_false (gtk_widget_get_sensitive (viewer_test_find (popover, "node-2-algo-3")));

  /* Set from code while shown: the buttons follow. */
  smprof_node_chooser_set_chosen (page->node_chooser, NULL);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (viewer_test_find (popover, "node-0-algo-1"))));
  g_assert_true (gtk_widget_get_sensitive (viewer_test_find (popover, "node-2-algo-3")));
  g_clear_pointer (&chosen, g_strfreev);
  chosen = smprof_node_chooser_dup_chosen (page->node_chooser);
  g_assert_null (chosen);

  gtk_popover_popdown (GTK_POPOVER (popover));
  window_test_close (window);
}

static void
test_chooser (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *button, *popover, *filter, *first, *previous = NULL;
  graphene_rect_t bounds;
  g_auto(GStrv) chosen = NULL;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_many (&page);
  button = viewer_test_find (GTK_WIDGET (page), "node-chooser-button");
  g_assert_true (gtk_widget_get_sensitive (button));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  ui_test_settle ();
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_true (gtk_widget_get_mapped (popover));
  save (GTK_WIDGET (window), "many-nodes-chooser.png");

  /* Inside the window, however many nodes. */
  g_assert_cmpint (gtk_widget_get_height (popover), <=, gtk_widget_get_height (GTK_WIDGET (window)));
  g_assert_cmpint (gtk_widget_get_height (popover), <=, 600);

  /* In natural order: "2-algo-3" above "10-algo-11". */
  for (guint i = 0; i < N_NODES; i++)
    {
      g_autofree char *name = g_strdup_printf ("node-%u-algo-%u", i, i + 1);
      GtkWidget *check = viewer_test_find (popover, name);

      g_assert_nonnull (check);
      if (previous != NULL)
        {
          g_assert_true (gtk_widget_compute_bounds (check, previous, &bounds));
          g_assert_cmpfloat (bounds.origin.y, >, 0);
        }
      previous = check;
    }

  /* The filter: "1-algo" holds 1-algo-2, 11-, 21-, … 61-algo-62. */
  filter = viewer_test_find (popover, "node-filter");
  g_assert_nonnull (filter);
  gtk_editable_set_text (GTK_EDITABLE (filter), "1-algo");
  g_assert_true (viewer_test_wait ((ViewerTestCondition) gtk_widget_get_mapped, filter, 1000));
  viewer_test_spin (400); /* the search entry's delay */
  g_assert_cmpuint (count_shown_checks (popover), ==, 7);

  /* None unchecks what is shown (the others stay checked), All checks it
   * again. */
  click (viewer_test_find (popover, "node-chooser-none"));
  ui_test_settle ();
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  chosen = smprof_node_chooser_dup_chosen (page->node_chooser);
  g_assert_nonnull (chosen);
  g_assert_cmpuint (g_strv_length (chosen), ==, N_NODES - 7);
  g_assert_false (g_strv_contains ((const char * const *) chosen, "1-algo-2"));
  g_assert_false (g_strv_contains ((const char * const *) chosen, "61-algo-62"));
  g_assert_true (g_strv_contains ((const char * const *) chosen, "2-algo-3"));
  g_assert_cmpuint (g_strv_length ((char **) smprof_job_page_get_node_ids (page)), ==, N_NODES - 7);

  click (viewer_test_find (popover, "node-chooser-all"));
  ui_test_settle ();
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  g_clear_pointer (&chosen, g_strfreev);
  chosen = smprof_node_chooser_dup_chosen (page->node_chooser);
  g_assert_null (chosen);

  /* The filter cleared: every node shown again. */
  gtk_editable_set_text (GTK_EDITABLE (filter), "");
  viewer_test_spin (400);
  g_assert_cmpuint (count_shown_checks (popover), ==, N_NODES);
  first = viewer_test_find (popover, "node-0-algo-1");
  g_assert_true (gtk_widget_get_visible (first));

  gtk_popover_popdown (GTK_POPOVER (popover));
  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* The Node Matrix: only when shown, off the main thread, headers in view   */

static gboolean
matrix_computed (gpointer data)
{
  SmprofNodeMatrix *matrix = data;

  return smprof_node_matrix_get_step_stats (matrix) != NULL && !smprof_node_matrix_get_computing (matrix) &&
         smprof_node_matrix_get_n_nodes (matrix) > 0;
}

static void
test_matrix (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofNodeMatrix *matrix;
  GtkScrolledWindow *scroller;
  GtkAdjustment *vadjustment, *hadjustment;
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  gboolean saw_computing = FALSE;
  int row, col, top;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_many (&page);
  matrix = smprof_node_matrix_view_get_matrix (page->node_matrix_view);

  /* A hidden tab computes nothing. */
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  viewer_test_spin (300);
  g_assert_null (smprof_node_matrix_get_step_stats (matrix));
  g_assert_false (smprof_node_matrix_get_computing (matrix));

  /* Shown: computed on a worker while the main loop turns. */
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>4");
  for (guint i = 0; i < 6000 && !matrix_computed (matrix); i++)
    {
      saw_computing |= smprof_node_matrix_get_computing (matrix);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (matrix_computed (matrix));
  g_assert_true (saw_computing);
  g_assert_cmpuint (smprof_node_matrix_get_n_nodes (matrix), ==, N_NODES);
  ui_test_settle ();

  /* Rows in natural order. */
  for (guint i = 0; i < N_NODES; i++)
    g_ptr_array_add (ids, (gpointer) _smprof_node_matrix_get_node_id (matrix, i));
  check_natural_order ((const char * const *) ids->pdata, N_NODES);

  /* Scrolled down and right, the headers stay where they were. */
  scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (matrix), GTK_TYPE_SCROLLED_WINDOW));
  g_assert_nonnull (scroller);
  vadjustment = gtk_scrolled_window_get_vadjustment (scroller);
  hadjustment = gtk_scrolled_window_get_hadjustment (scroller);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), >, gtk_adjustment_get_page_size (vadjustment) + 200);
  before = ui_test_render (GTK_WIDGET (scroller));
  save (GTK_WIDGET (window), "many-nodes-matrix.png");

  /* Scrolled down: the column headers stay at the top, the same names in
   * the same place (the same pixels), and a pointer there finds them. */
  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_upper (vadjustment));
  ui_test_settle ();
  after = ui_test_render (GTK_WIDGET (scroller));
  save (GTK_WIDGET (window), "many-nodes-matrix-scrolled.png");
  top = (int) gtk_adjustment_get_value (vadjustment);
  g_assert_cmpint (top, >, 200);
  g_assert_true (ui_test_same_pixels (before, after, matrix->row_header_width + 2, 2,
                                      MIN (gdk_texture_get_width (before), gtk_widget_get_width (GTK_WIDGET (matrix))) -
                                        matrix->row_header_width - 20,
                                      SMPROF_NODE_MATRIX_HEADER_HEIGHT - 4));
  g_assert_cmpint (_smprof_node_matrix_hit_test (matrix, matrix->row_header_width + 10, top + 20, &row, &col),
                   ==, SMPROF_NODE_MATRIX_COLUMN_HEADER);
  g_assert_cmpint (_smprof_node_matrix_hit_test (matrix, 10, top + SMPROF_NODE_MATRIX_HEADER_HEIGHT + 40, &row, &col),
                   ==, SMPROF_NODE_MATRIX_ROW_HEADER);
  g_assert_cmpint (row, >, 10);

  /* Scrolled right (when the columns are wider than the view): the row
   * headers stay at the left. */
  if (gtk_adjustment_get_upper (hadjustment) > gtk_adjustment_get_page_size (hadjustment) + 10)
    {
      g_autoptr(GdkTexture) right = NULL;

      gtk_adjustment_set_value (hadjustment, gtk_adjustment_get_upper (hadjustment));
      ui_test_settle ();
      right = ui_test_render (GTK_WIDGET (scroller));
      g_assert_true (ui_test_same_pixels (after, right, 2, SMPROF_NODE_MATRIX_HEADER_HEIGHT + 2,
                                          matrix->row_header_width - 4,
                                          gdk_texture_get_height (after) - SMPROF_NODE_MATRIX_HEADER_HEIGHT - 20));
      g_assert_cmpint (_smprof_node_matrix_hit_test (matrix, gtk_adjustment_get_value (hadjustment) + 10,
                                                     top + SMPROF_NODE_MATRIX_HEADER_HEIGHT + 40, &row, &col),
                       ==, SMPROF_NODE_MATRIX_ROW_HEADER);
    }

  window_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tmp = NULL;
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();
  job_path = core_test_make_nodes_job ("tf-cprofile", N_NODES);
  tmp = g_path_get_dirname (job_path);

  g_test_add_func ("/many-nodes/first-view", test_first_view);
  g_test_add_func ("/many-nodes/chooser-made-when-shown", test_chooser_made_when_shown);
  g_test_add_func ("/many-nodes/chooser", test_chooser);
  g_test_add_func ("/many-nodes/matrix", test_matrix);

  status = g_test_run ();
  core_test_remove_tree (tmp);
  g_clear_pointer (&job_path, g_free);
  g_clear_object (&registry);

  return status;
}
