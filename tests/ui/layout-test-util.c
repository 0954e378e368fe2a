/* layout-test-util.c: the job page in a real viewer window, measured as a
 * person sees it, and the README's pictures of a 64-node job
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by test-job-page-layout.c (the pictures in English, light and
 * dark) and test-job-page-l10n.c (in French: the language is the
 * process's, set by its environment before it starts).
 */

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <smprof-viewer-api.h>

#include "core-test-util.h"
#include "layout-test-util.h"
#include "smprof-flame-graph-private.h"
#include "smprof-job-page-private.h"
#include "smprof-timeline-private.h"
#include "page-test-util.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

/* ------------------------------------------------------------------------ */
/* Windows                                                                  */

/* The outlier steps looked for: the toolbar's label holds their count. */
static gboolean
outliers_counted (gpointer data)
{
  SmprofJobPage *page = data;

  return smprof_session_get_job_step_stats (page->session) != NULL;
}

/* The viewer's window of @width x @height on the job in @path. */
SmvWindow *
layout_test_open_job (SmvSourceRegistry  *registry,
                      const char         *path,
                      int                 width,
                      int                 height,
                      SmprofJobPage     **page)
{
  SmvWindow *window = window_test_open_job (registry, path, width, height, page);

  ui_test_settle ();
  /* The window is the size asked for (no window manager to say otherwise). */
  g_assert_cmpint (gdk_surface_get_width (gtk_native_get_surface (GTK_NATIVE (window))), ==, width);
  g_assert_cmpint (gdk_surface_get_height (gtk_native_get_surface (GTK_NATIVE (window))), ==, height);

  return window;
}

/* ------------------------------------------------------------------------ */
/* Measures                                                                 */

gboolean
layout_test_bounds_in (GtkWidget       *widget,
                       GtkWidget       *target,
                       graphene_rect_t *bounds)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_compute_bounds (widget, target, bounds);
}

GtkWidget *
layout_test_find_label (GtkWidget  *widget,
                        const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = layout_test_find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The flame graph's roots (its bottom row, flames going up) lie inside the
 * part of it its scrolled window shows. */
gboolean
layout_test_root_row_on_screen (SmprofFlameGraph *graph)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;
  double root_top, root_bottom;

  g_assert_nonnull (scroller);
  g_assert_true (layout_test_bounds_in (GTK_WIDGET (graph), scroller, &bounds));
  root_bottom = bounds.origin.y + bounds.size.height;
  root_top = root_bottom - SMPROF_FLAME_GRAPH_ROW_HEIGHT;
  g_test_message ("flame graph %.0f px tall, its root row at %.0f–%.0f in a %d px view",
                  bounds.size.height, root_top, root_bottom, gtk_widget_get_height (scroller));

  return root_top >= -0.5 && root_bottom <= gtk_widget_get_height (scroller) + 0.5;
}

/* The page is never wider than its window. */
void
layout_test_check_width (SmvWindow     *window,
                         SmprofJobPage *page)
{
  graphene_rect_t bounds;
  int min_width = 0;

  g_assert_true (layout_test_bounds_in (GTK_WIDGET (page), GTK_WIDGET (window), &bounds));
  gtk_widget_measure (GTK_WIDGET (page), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  g_test_message ("page: %.0f px wide at x %.0f, minimum %d, in a %d px window", bounds.size.width,
                  bounds.origin.x, min_width, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpint (min_width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
}

/* @label shows its whole text in @window: not ellipsized, and its layout
 * (wrapped to the label's width when it wraps) within the label's
 * allocation, so that neither a line too long for its room nor a line below
 * the height it was given is cut off; the label itself within the window. */
void
layout_test_check_label_whole (SmvWindow *window,
                               GtkLabel  *label)
{
  PangoLayout *layout;
  PangoRectangle logical;
  graphene_rect_t bounds;
  int x, y;

  g_assert_true (layout_test_bounds_in (GTK_WIDGET (label), GTK_WIDGET (window), &bounds));
  layout = gtk_label_get_layout (label);
  gtk_label_get_layout_offsets (label, &x, &y);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  g_test_message ("label \"%s\": %d line(s) of %d x %d px at %d,%d in %.0f x %.0f px at %.0f,%.0f%s",
                  gtk_label_get_label (label), pango_layout_get_line_count (layout), logical.width,
                  logical.height, x + logical.x, y + logical.y, bounds.size.width, bounds.size.height,
                  bounds.origin.x, bounds.origin.y, pango_layout_is_ellipsized (layout) ? ", ellipsized" : "");

  g_assert_cmpstr (pango_layout_get_text (layout), ==, gtk_label_get_text (label));
  g_assert_false (pango_layout_is_ellipsized (layout));
  g_assert_cmpint (x + logical.x, >=, 0);
  g_assert_cmpint (y + logical.y, >=, 0);
  g_assert_cmpint (x + logical.x + logical.width, <=, gtk_widget_get_width (GTK_WIDGET (label)));
  g_assert_cmpint (y + logical.y + logical.height, <=, gtk_widget_get_height (GTK_WIDGET (label)));
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (GTK_WIDGET (window)));
}

/* Node rows of the timeline a person sees whole, without scrolling. */
guint
layout_test_timeline_rows_visible (SmprofTimeline *timeline)
{
  double top = timeline->vscroll;
  double bottom = top + _smprof_timeline_rows_height (timeline);
  guint n = 0;

  for (guint i = 0; i < timeline->rows->len; i++)
    {
      const SmprofTimelineRow *row = _smprof_timeline_get_row (timeline, i);

      if (row->y >= top - 0.5 && row->y + row->height <= bottom + 0.5)
        n++;
    }

  return n;
}

/* Relative luminance of a pixel of @texture, 0 (black) to 1 (white). */
double
layout_test_luminance_at (GdkTexture *texture,
                          int         x,
                          int         y)
{
  guint32 pixel = ui_test_pixel (texture, x, y);

  return (0.2126 * ((pixel >> 16) & 0xff) + 0.7152 * ((pixel >> 8) & 0xff) + 0.0722 * (pixel & 0xff)) / 255.0;
}

/* The share of @bounds' pixels in colour (not grey): the timeline's blocks,
 * where the background, grid and labels are grey in both styles. */
static double
colored_share (GdkTexture            *texture,
               const graphene_rect_t *bounds)
{
  int x0 = (int) bounds->origin.x, y0 = (int) bounds->origin.y;
  int x1 = MIN ((int) (bounds->origin.x + bounds->size.width), gdk_texture_get_width (texture));
  int y1 = MIN ((int) (bounds->origin.y + bounds->size.height), gdk_texture_get_height (texture));
  guint colored = 0, all = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        guint32 pixel = ui_test_pixel (texture, x, y);
        int r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff;

        all++;
        if (MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) >= 40)
          colored++;
      }

  return all > 0 ? (double) colored / all : 0;
}

static gboolean
rasters_drawn (gpointer data)
{
  return !_smprof_timeline_rasters_pending (data);
}

/* The first frame that shows a tile of the timeline draws its blocks as
 * they are; their images are drawn after it, in idle time, and the frames
 * after replay them. Waits for the images, then for a frame that shows them
 * (a widget paintable replays the last frame), which asks for none more. */
void
layout_test_wait_timeline_drawn (SmvWindow     *window,
                                 SmprofJobPage *page)
{
  viewer_test_wait_transitions (GTK_WIDGET (window));
  g_assert_true (viewer_test_wait (rasters_drawn, page->timeline, 30000));
  viewer_test_wait_transitions (GTK_WIDGET (window));
  g_assert_false (_smprof_timeline_rasters_pending (page->timeline));
}

/* ------------------------------------------------------------------------ */
/* The README's pictures of a 64-node job                                   */

/* The job page as a user of a big job sees it: 64 nodes (tf-cprofile's
 * node copied, as test-job-page-many-nodes.c does), steps 2–12 of the
 * training loop chosen on the timeline, their flame graph below. What a
 * person sees is checked before the picture is kept: enough node rows
 * whole, the timeline's blocks drawn, the page within the window, the
 * outlier steps' label whole, the flame graph's roots on screen, the
 * sidebar light or dark, and in French a French label. */
void
layout_test_picture_64 (SmvSourceRegistry       *registry,
                        const LayoutTestPicture *picture)
{
  g_autofree char *path = core_test_make_nodes_job ("tf-cprofile", 64);
  g_autofree char *tmp = g_path_get_dirname (path);
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autoptr(GdkTexture) texture = NULL;
  SmprofJobPage *page;
  SmvWindow *window;
  graphene_rect_t sidebar, timeline;
  double sidebar_luminance, colored;
  guint rows;

  adw_style_manager_set_color_scheme (style, picture->dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
  window = layout_test_open_job (registry, path, picture->width, picture->height, &page);
  g_assert_cmpuint (page->timeline->rows->len, ==, 64);
  smprof_job_page_set_step_range (page, 2, 12);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 60000));
  g_assert_true (viewer_test_wait (outliers_counted, page, 60000));
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>3");
  ui_test_settle ();
  layout_test_wait_timeline_drawn (window, page);

  layout_test_check_width (window, page);
  /* The outlier steps' count and rule, the longest label of the timeline's
   * toolbar (a third longer in French): whole beside its buttons. */
  layout_test_check_label_whole (window, page->outliers_label);
  layout_test_check_label_whole (window, page->status_label);
  g_assert_true (layout_test_root_row_on_screen (smprof_flame_graph_view_get_flame_graph (page->flame_graph_view)));
  rows = layout_test_timeline_rows_visible (page->timeline);
  g_test_message ("%s: %u of 64 node rows visible", picture->name, rows);
  g_assert_cmpuint (rows, >=, picture->min_rows);

  texture = ui_test_render (GTK_WIDGET (window));

  g_assert_true (layout_test_bounds_in (viewer_test_find (GTK_WIDGET (page), "presets"), GTK_WIDGET (window),
                                        &sidebar));
  sidebar_luminance = layout_test_luminance_at (texture, (int) (sidebar.origin.x + sidebar.size.width - 8),
                                                (int) (sidebar.origin.y + sidebar.size.height - 8));
  g_test_message ("%s: sidebar luminance %.2f", picture->name, sidebar_luminance);
  if (picture->dark)
    g_assert_cmpfloat (sidebar_luminance, <, 0.3);
  else
    g_assert_cmpfloat (sidebar_luminance, >, 0.8);

  /* Not a blank timeline: the blocks of the steps' rows in colour, 42–50 %
   * of its pixels in both styles; without them, the overview strip and
   * the legend alone are under a tenth. */
  g_assert_true (layout_test_bounds_in (GTK_WIDGET (page->timeline), GTK_WIDGET (window), &timeline));
  colored = colored_share (texture, &timeline);
  g_test_message ("%s: %.0f %% of the timeline's pixels in colour", picture->name, colored * 100);
  g_assert_cmpfloat (colored, >=, 0.3);

  if (picture->translated != NULL)
    {
      const char *french = g_dgettext (picture->domain, picture->translated);
      GtkWidget *label;
      graphene_rect_t bounds;

      g_test_message ("%s: \"%s\" shown as \"%s\"", picture->name, picture->translated, french);
      g_assert_cmpstr (french, !=, picture->translated);
      label = layout_test_find_label (GTK_WIDGET (page), french);
      g_assert_nonnull (label);
      g_assert_true (layout_test_bounds_in (label, GTK_WIDGET (window), &bounds));
      g_assert_cmpfloat (bounds.size.width, >, 0);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, picture->width);
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, picture->height);
    }

  ui_test_save (texture, picture->name);

  window_test_close (window);
  core_test_remove_tree (tmp);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}
