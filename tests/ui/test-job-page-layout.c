/* test-job-page-layout.c: the job page's layout in real viewer windows of
 * 1280x800 and 1920x1080, measured from the widgets themselves
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a person sees at the default window size: the Functions table's
 * rows, the Callers and Callees only once a function is chosen, the
 * Compare view's table, the flame graphs' roots, a page never wider than
 * its window, and the timeline of a 64-node job.
 *
 * Screenshots in the working folder: layout-*.png; the README's pictures,
 * job-page-*.png, also into $SMPROF_SCREENSHOTS_DIR.
 */

#include <adwaita.h>
#include <smprof-viewer-api.h>

#include "core-test-util.h"
#include "layout-test-util.h"
#include "smprof-compare-view.h"
#include "smprof-flame-graph-private.h"
#include "smprof-job-page-private.h"
#include "smprof-paned-memory.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-private.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "page-test-util.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

static SmvSourceRegistry *registry;

/* ------------------------------------------------------------------------ */
/* Windows                                                                  */

static SmvWindow *
open_job (const char     *name,
          int             width,
          int             height,
          SmprofJobPage **page)
{
  g_autofree char *path = window_test_real_job (name);

  return layout_test_open_job (registry, path, width, height, page);
}

static void
save (SmvWindow  *window,
      const char *name)
{
  g_autoptr(GdkTexture) texture = NULL;

  viewer_test_wait_transitions (GTK_WIDGET (window));
  texture = ui_test_render (GTK_WIDGET (window));
  ui_test_save_local (texture, name);
}

/* ------------------------------------------------------------------------ */
/* Measures                                                                 */

/* The rows of a column view a person sees whole: below its header, inside
 * its scrolled window. */
static guint
count_visible_rows (GtkColumnView *view)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  double top = 0;
  double bottom;
  guint n = 0;

  g_assert_nonnull (scroller);
  if (!gtk_widget_get_mapped (GTK_WIDGET (view)))
    return 0;
  bottom = gtk_widget_get_height (scroller);

  /* The header row stays on top of the list. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_str_equal (gtk_widget_get_css_name (child), "header"))
      {
        graphene_rect_t header;

        g_assert_true (layout_test_bounds_in (child, scroller, &header));
        top = header.origin.y + header.size.height;
      }

  ui_test_collect_rows (GTK_WIDGET (view), rows);
  for (guint i = 0; i < rows->len; i++)
    {
      graphene_rect_t row;

      if (layout_test_bounds_in (g_ptr_array_index (rows, i), scroller, &row) && row.size.height > 0 &&
          row.origin.y >= top - 0.5 && row.origin.y + row.size.height <= bottom + 0.5)
        n++;
    }

  return n;
}

static GtkColumnView *
find_column_view (GtkWidget  *root,
                  const char *name)
{
  GtkWidget *widget = viewer_test_find (root, name);

  g_assert_true (GTK_IS_COLUMN_VIEW (widget));
  return GTK_COLUMN_VIEW (widget);
}

/* How tall the part of @widget inside its scrolled window is. */
static double
visible_height (GtkWidget *widget)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *clip = scroller != NULL ? scroller : widget;

  return gtk_widget_get_mapped (widget) ? gtk_widget_get_height (clip) : 0;
}

/* ------------------------------------------------------------------------ */
/* Functions                                                                */

static guint
function_rows (SmprofJobPage *page)
{
  return count_visible_rows (find_column_view (GTK_WIDGET (page->function_table), "function-list"));
}

static gboolean
callers_shown (SmprofJobPage *page)
{
  GtkWidget *callers = viewer_test_find (GTK_WIDGET (page->function_table), "callers-list");

  return callers != NULL && gtk_widget_get_mapped (callers) && visible_height (callers) > 0;
}

static void
select_first_function (SmprofJobPage *page)
{
  GtkColumnView *view = find_column_view (GTK_WIDGET (page->function_table), "function-list");
  GtkSelectionModel *model = gtk_column_view_get_model (view);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), >, 0);
  gtk_selection_model_select_item (model, 0, TRUE);
  ui_test_settle ();
}

/* At 1280x800, the default size: at least 15 rows of functions, Callers
 * and Callees only once a function is chosen (and gone again when closed),
 * and more rows at 1920x1080. */
static void
test_functions (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  guint rows_small, rows_large;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", 1280, 800, &page);
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>1");
  ui_test_settle ();
  layout_test_check_width (window, page);

  rows_small = function_rows (page);
  g_test_message ("1280x800: %u function rows visible", rows_small);
  save (window, "layout-functions-1280x800.png");
  g_assert_cmpuint (rows_small, >=, 15);
  g_assert_false (callers_shown (page));

  select_first_function (page);
  g_assert_true (callers_shown (page));
  g_test_message ("1280x800, a function chosen: %u function rows visible", function_rows (page));
  save (window, "layout-functions-callers-1280x800.png");
  g_assert_cmpuint (function_rows (page), >=, 8);

  /* Closing the panel gives the rows back. */
  gtk_widget_activate_action (GTK_WIDGET (page->function_table), "function-table.hide-related", NULL);
  ui_test_settle ();
  g_assert_false (callers_shown (page));
  g_assert_cmpuint (function_rows (page), ==, rows_small);
  window_test_close (window);

  window = open_job ("pt-cprofile", 1920, 1080, &page);
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>1");
  ui_test_settle ();
  rows_large = function_rows (page);
  g_test_message ("1920x1080: %u function rows visible", rows_large);
  save (window, "layout-functions-1920x1080.png");
  g_assert_cmpuint (rows_large, >, rows_small + 8);
  window_test_close (window);
}

/* The Per Step columns at 1280 px: the table scrolls sideways inside the
 * page; the page stays as wide as the window. */
static void
test_per_step_width (void)
{
  SmprofJobPage *page;
  SmvWindow *window;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", 1280, 800, &page);
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>1");
  smprof_function_table_set_show_step_columns (page->function_table, TRUE);
  ui_test_settle ();
  save (window, "layout-per-step-1280x800.png");
  layout_test_check_width (window, page);
  g_assert_cmpuint (function_rows (page), >=, 15);

  /* The functions' names stay in view; the numbers scroll sideways. */
  {
    GtkColumnView *view = find_column_view (GTK_WIDGET (page->function_table), "function-list");
    GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
    GtkWidget *title = layout_test_find_label (GTK_WIDGET (view), "filename:lineno(function)");
    graphene_rect_t bounds;

    g_assert_nonnull (title);
    g_assert_true (layout_test_bounds_in (title, scroller, &bounds));
    g_test_message ("the function column's title at x %.0f–%.0f of a %d px table", bounds.origin.x,
                    bounds.origin.x + bounds.size.width, gtk_widget_get_width (scroller));
    g_assert_cmpfloat (bounds.origin.x, >=, 0);
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (scroller));
  }
  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* Flame graphs and the comparison                                          */

static gboolean
has_diff (gpointer data)
{
  SmprofJobPage *page = data;

  return smprof_session_get_diff (page->session) != NULL &&
         smprof_compare_view_get_diff (SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (page))) != NULL;
}

/* The flame graph's roots on screen in a short view (1280x800), and the
 * Compare view: its table gets at least half its height, the differential
 * graph's roots on screen, at both sizes. */
static void
test_flame_graphs_and_compare (gconstpointer data)
{
  const int *size = data;
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofCompareView *compare;
  GtkWidget *table;
  double table_height, compare_height;
  guint diff_rows;
  g_autofree char *flame_name = g_strdup_printf ("layout-flame-graph-%dx%d.png", size[0], size[1]);
  g_autofree char *compare_name = g_strdup_printf ("layout-compare-%dx%d.png", size[0], size[1]);

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", size[0], size[1], &page);
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>3");
  ui_test_settle ();
  save (window, flame_name);
  g_assert_true (layout_test_root_row_on_screen (smprof_flame_graph_view_get_flame_graph (page->flame_graph_view)));

  /* A short view: the timeline's pane dragged down to leave the graph a
   * few rows. The roots stay in view; scrolled away and back, they come. */
  {
    SmprofFlameGraph *graph = smprof_flame_graph_view_get_flame_graph (page->flame_graph_view);
    GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_SCROLLED_WINDOW);
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
    int short_position = gtk_widget_get_height (GTK_WIDGET (page->timeline_paned)) - 230;

    gtk_paned_set_position (page->timeline_paned, short_position);
    ui_test_settle ();
    g_assert_cmpint (gtk_widget_get_height (scroller), <, gtk_widget_get_height (GTK_WIDGET (graph)));
    g_assert_true (layout_test_root_row_on_screen (graph));
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_lower (adjustment));
    ui_test_settle ();
    g_assert_false (layout_test_root_row_on_screen (graph));
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
    ui_test_settle ();
    g_assert_true (layout_test_root_row_on_screen (graph));
    smprof_paned_memory_forget ("timeline-height");
    smprof_paned_memory_update (page->timeline_paned);
    ui_test_settle ();
  }

  /* Steps 0–4 against 5–9 */
  smprof_job_page_set_step_range (page, 0, 4);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  g_assert_true (smprof_session_compare_current (page->session));
  smprof_job_page_set_step_range (page, 5, 9);
  g_assert_true (viewer_test_wait (has_diff, page, 60000));
  ui_test_settle ();
  compare = SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (page));
  g_assert_true (gtk_stack_get_visible_child (page->views_stack) == GTK_WIDGET (compare));
  save (window, compare_name);
  layout_test_check_width (window, page);

  table = GTK_WIDGET (smprof_compare_view_get_table (compare));
  table_height = gtk_widget_get_height (table);
  compare_height = gtk_widget_get_height (GTK_WIDGET (compare));
  g_test_message ("%dx%d: diff table %.0f px of the Compare view's %.0f", size[0], size[1], table_height,
                  compare_height);
  g_assert_cmpfloat (table_height, >=, compare_height / 2);
  diff_rows = count_visible_rows (find_column_view (table, "diff-list"));
  g_test_message ("%dx%d: %u rows of the diff table visible", size[0], size[1], diff_rows);
  g_assert_cmpuint (diff_rows, >=, size[1] >= 1000 ? 9u : 4u);
  g_assert_true (layout_test_root_row_on_screen (smprof_compare_view_get_flame_graph (compare)));

  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* The README's pictures                                                    */

/* The job page as the README shows it, at the sizes users have and in both
 * styles: a range of steps of the training loop, its flame graph. What a
 * person sees is checked before the picture is kept: the page within the
 * window, the flame graph's roots on screen, the sidebar light or dark. */
static void
test_screenshots (gconstpointer data)
{
  const LayoutTestPicture *picture = data;
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autoptr(GdkTexture) texture = NULL;
  SmprofJobPage *page;
  SmvWindow *window;
  graphene_rect_t sidebar;
  double sidebar_luminance;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  adw_style_manager_set_color_scheme (style, picture->dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
  window = open_job ("pt-cprofile", picture->width, picture->height, &page);
  smprof_job_page_set_step_range (page, 2, 12);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>3");
  ui_test_settle ();
  viewer_test_wait_transitions (GTK_WIDGET (window));

  layout_test_check_width (window, page);
  g_assert_true (layout_test_root_row_on_screen (smprof_flame_graph_view_get_flame_graph (page->flame_graph_view)));

  texture = ui_test_render (GTK_WIDGET (window));
  g_assert_true (layout_test_bounds_in (viewer_test_find (GTK_WIDGET (page), "presets"), GTK_WIDGET (window), &sidebar));
  sidebar_luminance = layout_test_luminance_at (texture, (int) (sidebar.origin.x + sidebar.size.width - 8),
                                    (int) (sidebar.origin.y + sidebar.size.height - 8));
  g_test_message ("%s: sidebar luminance %.2f", picture->name, sidebar_luminance);
  if (picture->dark)
    g_assert_cmpfloat (sidebar_luminance, <, 0.3);
  else
    g_assert_cmpfloat (sidebar_luminance, >, 0.8);
  ui_test_save (texture, picture->name);

  window_test_close (window);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

/* ------------------------------------------------------------------------ */
/* The timeline of many nodes                                               */

/* 64 nodes at 1920x1080: at least 40 node rows in view as the page opens;
 * two nodes at 1280x800: both rows, whole. */
static void
test_timeline_rows (void)
{
  g_autofree char *path = core_test_make_nodes_job ("tf-cprofile", 64);
  g_autofree char *tmp = g_path_get_dirname (path);
  SmprofJobPage *page;
  SmvWindow *window;
  guint visible;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = layout_test_open_job (registry, path, 1920, 1080, &page);
  g_assert_cmpuint (page->timeline->rows->len, ==, 64);
  visible = layout_test_timeline_rows_visible (page->timeline);
  g_test_message ("64 nodes at 1920x1080: %u node rows visible", visible);
  save (window, "layout-timeline-64-1920x1080.png");
  g_assert_cmpuint (visible, >=, 40);
  layout_test_check_width (window, page);
  window_test_close (window);
  core_test_remove_tree (tmp);

  window = open_job ("pt-cprofile", 1280, 800, &page);
  g_assert_cmpuint (layout_test_timeline_rows_visible (page->timeline), ==, 2);
  window_test_close (window);
}

/* The job page on a 64-node job, as the README shows it (layout-test-util.c). */
static void
test_screenshots_64 (gconstpointer data)
{
  VIEWER_TEST_REQUIRE_DISPLAY ();

  layout_test_picture_64 (registry, data);
}

int
main (int   argc,
      char *argv[])
{
  static const int small[] = { 1280, 800 };
  static const int large[] = { 1920, 1080 };
  static const LayoutTestPicture pictures[] = {
    { 1280, 800, FALSE, "job-page-1280x800.png" },
    { 1920, 1080, FALSE, "job-page-1920x1080.png" },
    { 1280, 800, TRUE, "job-page-dark-1280x800.png" },
  };
  /* The least node rows in view whole, above the flame graph at its
   * default height: 27 were at 1280x800 and 45 at 1920x1080 (in both
   * styles), a few rows' slack for another machine's fonts. */
  static const LayoutTestPicture pictures_64[] = {
    { 1280, 800, FALSE, "job-page-64-nodes-1280x800.png", 25 },
    { 1920, 1080, FALSE, "job-page-64-nodes-1920x1080.png", 42 },
    { 1280, 800, TRUE, "job-page-64-nodes-dark-1280x800.png", 25 },
  };
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/layout/functions", test_functions);
  g_test_add_func ("/layout/per-step-width", test_per_step_width);
  g_test_add_data_func ("/layout/flame-graphs-and-compare/1280x800", small, test_flame_graphs_and_compare);
  g_test_add_data_func ("/layout/flame-graphs-and-compare/1920x1080", large, test_flame_graphs_and_compare);
  g_test_add_func ("/layout/timeline-rows", test_timeline_rows);
  g_test_add_data_func ("/layout/screenshots/1280x800", &pictures[0], test_screenshots);
  g_test_add_data_func ("/layout/screenshots/1920x1080", &pictures[1], test_screenshots);
  g_test_add_data_func ("/layout/screenshots/1280x800-dark", &pictures[2], test_screenshots);
  g_test_add_data_func ("/layout/screenshots-64/1280x800", &pictures_64[0], test_screenshots_64);
  g_test_add_data_func ("/layout/screenshots-64/1920x1080", &pictures_64[1], test_screenshots_64);
  g_test_add_data_func ("/layout/screenshots-64/1280x800-dark", &pictures_64[2], test_screenshots_64);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
