/* test-flame-graph.c: the flame graph widget drawn from real profiles, pixel by pixel
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "smprof-flame-graph-private.h"
#include "smprof-flame-graph-view.h"
#include "smprof-flame-layout.h"
#include "smprof-ui-format.h"
#include "ui-test-util.h"

#define ROW_HEIGHT SMPROF_FLAME_GRAPH_ROW_HEIGHT

static SmprofProfile *cprofile;
static SmprofProfile *pyinstrument;

typedef struct
{
  int x;
  int y;
  int width;
} Area;

/* Where the layout says rect @index goes: the root row at the bottom. */
static Area
area_of (SmprofFlameLayout *layout,
         guint              index,
         int                width,
         int                height)
{
  const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, index);
  int x0 = (int) round (rect->x * width);
  int x1 = (int) round ((rect->x + rect->width) * width);

  return (Area) { x0, height - (int) (rect->depth + 1) * ROW_HEIGHT, x1 - x0 };
}

static guint32
frame_color (SmprofProfile *profile,
             guint32        node,
             gboolean       dark)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  double rgb[3];

  smprof_flame_color_for_func (smprof_call_tree_get_table (tree),
                               smprof_call_tree_get_node (tree, node)->func, dark, rgb);

  return ui_test_rgb_to_pixel (rgb);
}

/* The widest rect on @depth, or -1. */
static int
widest_on_row (SmprofFlameLayout *layout,
               guint              depth)
{
  guint first, n;
  int best = -1;

  smprof_flame_layout_get_row (layout, depth, &first, &n);
  for (guint i = first; i < first + n; i++)
    if (best < 0 || smprof_flame_layout_get_rect (layout, i)->width >
                    smprof_flame_layout_get_rect (layout, best)->width)
      best = i;

  return best;
}

/* Every frame at least 8 px wide has its function's colour, 2 px inside its
 * top-left corner (left of the label's padding). Returns how many were checked. */
static guint
check_frame_colors (SmprofFlameGraph *graph,
                    GdkTexture       *texture,
                    gboolean          dark)
{
  SmprofProfile *profile = smprof_flame_graph_get_profile (graph);
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  guint checked = 0;

  for (guint i = 0; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      Area area = area_of (layout, i, width, height);
      guint32 expected, pixel;

      if (area.width < 8 || area.y < 0)
        continue;

      expected = frame_color (profile, smprof_flame_layout_get_rect (layout, i)->node, dark);
      pixel = ui_test_pixel (texture, area.x + 2, area.y + 2);
      if (!ui_test_pixel_near (pixel, expected, 1))
        g_error ("frame %u at %d,%d: pixel %08x, expected %08x", i, area.x + 2, area.y + 2, pixel, expected);
      checked++;
    }

  return checked;
}

static SmprofFlameGraph *
present_graph (SmprofProfile  *profile,
               GtkWidget     **window)
{
  GtkWidget *graph = smprof_flame_graph_new ();

  smprof_flame_graph_set_profile (SMPROF_FLAME_GRAPH (graph), profile);
  /* Xvfb's pointer rests where the window opens: keep it from hovering
   * frames; the tests hover through _smprof_flame_graph_hover_at(). */
  gtk_widget_set_can_target (graph, FALSE);
  *window = ui_test_present (graph, 1000, 600);

  return SMPROF_FLAME_GRAPH (graph);
}

static void
check_render (SmprofProfile *profile,
              const char    *png)
{
  GtkWidget *window;
  SmprofFlameGraph *graph = present_graph (profile, &window);
  g_autoptr(GdkTexture) texture = ui_test_render (GTK_WIDGET (graph));
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  guint checked;

  ui_test_save_local (texture, png);

  g_assert_nonnull (layout);
  g_assert_cmpuint (smprof_flame_layout_get_zoom_node (layout), ==, SMPROF_CALL_TREE_ROOT);
  g_assert_cmpuint (smprof_flame_layout_get_n_rects (layout), >, 10);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (graph)), >=,
                   (int) smprof_flame_layout_get_depth (layout) * ROW_HEIGHT);

  /* Not blank: frames of many colours, with labels. */
  g_assert_cmpuint (ui_test_count_colors (texture), >, 20);

  checked = check_frame_colors (graph, texture, _smprof_flame_graph_get_dark (graph));
  g_test_message ("%s: %u frames, %u checked by colour", png, smprof_flame_layout_get_n_rects (layout), checked);
  g_assert_cmpuint (checked, >=, 5);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_render_cprofile (void)
{
  g_assert_true (smprof_profile_is_estimated (cprofile));
  check_render (cprofile, "flame-graph-cprofile.png");
}

static void
test_render_pyinstrument (void)
{
  g_assert_false (smprof_profile_is_estimated (pyinstrument));
  check_render (pyinstrument, "flame-graph-pyinstrument.png");
}

/* The hover highlight is drawn over the cached frames, without redrawing them. */
static void
test_hover (void)
{
  GtkWidget *window;
  SmprofFlameGraph *graph = present_graph (cprofile, &window);
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  int width = gtk_widget_get_width (GTK_WIDGET (graph));
  int height = gtk_widget_get_height (GTK_WIDGET (graph));
  int target = widest_on_row (layout, 1);
  int other = widest_on_row (layout, 0);
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  Area area, other_area;
  guint renders;

  g_assert_cmpint (target, >=, 0);
  g_assert_cmpint (other, >=, 0);
  area = area_of (layout, target, width, height);
  other_area = area_of (layout, other, width, height);
  g_assert_cmpint (area.width, >=, 20);

  g_assert_cmpint (_smprof_flame_graph_get_hover_rect (graph), ==, -1);
  before = ui_test_render (GTK_WIDGET (graph));
  renders = _smprof_flame_graph_get_n_renders (graph);

  _smprof_flame_graph_hover_at (graph, area.x + area.width / 2.0, area.y + ROW_HEIGHT / 2.0);
  g_assert_cmpint (_smprof_flame_graph_get_hover_rect (graph), ==, target);

  after = ui_test_render (GTK_WIDGET (graph));
  g_assert_cmpuint (_smprof_flame_graph_get_n_renders (graph), ==, renders);
  ui_test_save_local (after, "flame-graph-hover.png");

  /* Inside the hovered frame: lighter; on its left edge: the outline. */
  g_assert_cmphex (ui_test_pixel (before, area.x + 2, area.y + 2), ==, frame_color (cprofile, smprof_flame_layout_get_rect (layout, target)->node, FALSE));
  g_assert_cmphex (ui_test_pixel (after, area.x + 2, area.y + 2), !=, ui_test_pixel (before, area.x + 2, area.y + 2));
  g_assert_cmphex (ui_test_pixel (after, area.x, area.y + ROW_HEIGHT / 2), ==, 0xff000000);
  /* Elsewhere, nothing moved. */
  g_assert_cmphex (ui_test_pixel (after, other_area.x + 2, other_area.y + 2), ==,
                   ui_test_pixel (before, other_area.x + 2, other_area.y + 2));

  /* Above the graph's frames there is nothing to hover. */
  _smprof_flame_graph_hover_at (graph, 5, 1);
  g_assert_cmpint (_smprof_flame_graph_get_hover_rect (graph), ==, -1);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static gboolean
func_contains (SmprofFunctionKeys *table,
               guint32             func,
               const char         *needle)
{
  g_autofree char *folded_needle = g_utf8_casefold (needle, -1);
  g_autofree char *name = g_utf8_casefold (smprof_function_keys_get_name (table, func), -1);
  g_autofree char *file = g_utf8_casefold (smprof_function_keys_get_file (table, func), -1);

  return strstr (name, folded_needle) != NULL || strstr (file, folded_needle) != NULL;
}

/* Search highlights exactly the matching frames and reports the layout's share. */
static void
test_search (void)
{
  GtkWidget *window;
  SmprofFlameGraph *graph = present_graph (cprofile, &window);
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  SmprofCallTree *tree = smprof_profile_get_call_tree (cprofile);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  int width = gtk_widget_get_width (GTK_WIDGET (graph));
  int height = gtk_widget_get_height (GTK_WIDGET (graph));
  int pick = widest_on_row (layout, 2);
  g_autofree char *needle = NULL;
  g_autoptr(SmprofFlameLayout) reference = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  const GArray *matched;
  double expected;
  guint notified = 0, renders, n_matched_checked = 0, n_dimmed_checked = 0;

  g_assert_cmpint (pick, >=, 0);
  needle = g_ascii_strup (smprof_function_keys_get_name (table, smprof_call_tree_get_node (tree, smprof_flame_layout_get_rect (layout, pick)->node)->func), -1);
  g_test_message ("searching for %s", needle);

  g_signal_connect (graph, "notify::matched-fraction", G_CALLBACK (count_notify_cb), &notified);
  g_object_unref (ui_test_render (GTK_WIDGET (graph)));
  renders = _smprof_flame_graph_get_n_renders (graph);

  smprof_flame_graph_set_search_text (graph, needle);
  g_assert_cmpstr (smprof_flame_graph_get_search_text (graph), ==, needle);
  g_assert_cmpuint (notified, ==, 1);

  reference = smprof_flame_layout_new (tree, SMPROF_CALL_TREE_ROOT, 0);
  expected = smprof_flame_layout_match (reference, needle, NULL);
  g_assert_cmpfloat (expected, >, 0);
  g_assert_cmpfloat_with_epsilon (smprof_flame_graph_get_matched_fraction (graph), expected, 1e-12);

  /* The widget's matches are the layout's, and are what contains the text. */
  matched = _smprof_flame_graph_get_matched (graph);
  g_assert_cmpuint (matched->len, >, 0);
  for (guint i = 0, m = 0; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      guint32 func = smprof_call_tree_get_node (tree, smprof_flame_layout_get_rect (layout, i)->node)->func;
      gboolean is_match = m < matched->len && g_array_index (matched, guint, m) == i;

      g_assert_cmpint (is_match, ==, func_contains (table, func, needle));
      if (is_match)
        m++;
    }

  texture = ui_test_render (GTK_WIDGET (graph));
  g_assert_cmpuint (_smprof_flame_graph_get_n_renders (graph), ==, renders + 1);
  ui_test_save_local (texture, "flame-graph-search.png");

  for (guint i = 0, m = 0; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      Area area = area_of (layout, i, width, height);
      gboolean is_match = m < matched->len && g_array_index (matched, guint, m) == i;
      guint32 full = frame_color (cprofile, smprof_flame_layout_get_rect (layout, i)->node, FALSE);
      guint32 pixel;

      if (is_match)
        m++;
      if (area.width < 8)
        continue;

      pixel = ui_test_pixel (texture, area.x + 2, area.y + 2);
      if (is_match)
        {
          g_assert_true (ui_test_pixel_near (pixel, full, 1));
          n_matched_checked++;
        }
      else
        {
          g_assert_false (ui_test_pixel_near (pixel, full, 8));
          n_dimmed_checked++;
        }
    }
  g_assert_cmpuint (n_matched_checked, >, 0);
  g_assert_cmpuint (n_dimmed_checked, >, 0);

  /* No search: every frame in its colour again. */
  smprof_flame_graph_set_search_text (graph, "");
  g_assert_null (smprof_flame_graph_get_search_text (graph));
  g_assert_cmpfloat (smprof_flame_graph_get_matched_fraction (graph), ==, 0);
  g_clear_object (&texture);
  texture = ui_test_render (GTK_WIDGET (graph));
  check_frame_colors (graph, texture, FALSE);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Zooming makes a frame the full-width root; back and reset return. */
static void
test_zoom (void)
{
  GtkWidget *window;
  SmprofFlameGraph *graph = present_graph (cprofile, &window);
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  int target = widest_on_row (layout, 1);
  guint32 node = smprof_flame_layout_get_rect (layout, target)->node;
  guint32 deeper;
  g_autoptr(GdkTexture) texture = NULL;
  const SmprofFlameRect *root;
  int width, height;
  guint zoom_notified = 0;

  g_signal_connect (graph, "notify::zoom-node", G_CALLBACK (count_notify_cb), &zoom_notified);
  g_assert_false (smprof_flame_graph_get_can_zoom_out (graph));

  smprof_flame_graph_zoom_to_node (graph, node);
  g_assert_cmpuint (zoom_notified, ==, 1);
  g_assert_cmpuint (smprof_flame_graph_get_zoom_node (graph), ==, node);
  g_assert_true (smprof_flame_graph_get_can_zoom_out (graph));

  layout = _smprof_flame_graph_get_layout (graph);
  root = smprof_flame_layout_get_rect (layout, 0);
  g_assert_cmpuint (root->node, ==, node);
  g_assert_cmpuint (root->depth, ==, 0);
  g_assert_cmpfloat (root->x, ==, 0);
  g_assert_cmpfloat (root->width, ==, 1);

  ui_test_settle ();
  width = gtk_widget_get_width (GTK_WIDGET (graph));
  height = gtk_widget_get_height (GTK_WIDGET (graph));
  texture = ui_test_render (GTK_WIDGET (graph));
  ui_test_save_local (texture, "flame-graph-zoom.png");
  g_assert_cmphex (ui_test_pixel (texture, 2, height - ROW_HEIGHT + 2), ==, frame_color (cprofile, node, FALSE));
  g_assert_cmphex (ui_test_pixel (texture, width - 4, height - ROW_HEIGHT + 2), ==, frame_color (cprofile, node, FALSE));
  check_frame_colors (graph, texture, FALSE);

  /* Deeper, then back one step, then back to the whole tree. */
  deeper = smprof_flame_layout_get_rect (layout, widest_on_row (layout, 1))->node;
  smprof_flame_graph_zoom_to_node (graph, deeper);
  g_assert_cmpuint (smprof_flame_graph_get_zoom_node (graph), ==, deeper);
  g_assert_true (smprof_flame_graph_zoom_out (graph));
  g_assert_cmpuint (smprof_flame_graph_get_zoom_node (graph), ==, node);
  g_assert_true (smprof_flame_graph_zoom_out (graph));
  g_assert_cmpuint (smprof_flame_graph_get_zoom_node (graph), ==, SMPROF_CALL_TREE_ROOT);
  g_assert_false (smprof_flame_graph_zoom_out (graph));
  g_assert_false (smprof_flame_graph_get_can_zoom_out (graph));

  /* The class action behind Escape. */
  smprof_flame_graph_zoom_to_node (graph, node);
  smprof_flame_graph_zoom_to_node (graph, deeper);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.reset-zoom", NULL));
  g_assert_cmpuint (smprof_flame_graph_get_zoom_node (graph), ==, SMPROF_CALL_TREE_ROOT);
  g_assert_false (smprof_flame_graph_zoom_out (graph));

  /* Zoom survives a search, and the share is then of the zoomed frame. */
  smprof_flame_graph_zoom_to_node (graph, node);
  smprof_flame_graph_set_search_text (graph, "torch");
  {
    g_autoptr(SmprofFlameLayout) reference = smprof_flame_layout_new (smprof_profile_get_call_tree (cprofile), node, 0);

    g_assert_cmpfloat_with_epsilon (smprof_flame_graph_get_matched_fraction (graph),
                                    smprof_flame_layout_match (reference, "torch", NULL), 1e-12);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Arrows move between frames (class actions behind the key bindings), Enter
 * zooms into the selected frame, Backspace comes back. */
static void
test_keyboard (void)
{
  GtkWidget *window;
  SmprofFlameGraph *graph = present_graph (cprofile, &window);
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  SmprofCallTree *tree = smprof_profile_get_call_tree (cprofile);
  guint32 first, child, next;

  g_assert_cmpuint (smprof_flame_graph_get_selected_node (graph), ==, SMPROF_CALL_TREE_NONE);

  /* The first move selects the first root frame. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.move", "(ii)", 1, 0));
  first = smprof_flame_graph_get_selected_node (graph);
  g_assert_cmpuint (first, ==, smprof_flame_layout_get_rect (layout, 0)->node);

  /* Up: a callee of it; Down: back to it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.move", "(ii)", 0, 1));
  child = smprof_flame_graph_get_selected_node (graph);
  g_assert_cmpuint (child, !=, first);
  g_assert_cmpuint (smprof_call_tree_get_node (tree, child)->parent, ==, first);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.move", "(ii)", 0, -1));
  g_assert_cmpuint (smprof_flame_graph_get_selected_node (graph), ==, first);

  /* Right: the next root frame. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.move", "(ii)", 1, 0));
  next = smprof_flame_graph_get_selected_node (graph);
  g_assert_cmpuint (next, !=, first);
  g_assert_cmpuint (smprof_call_tree_get_node (tree, next)->parent, ==, SMPROF_CALL_TREE_ROOT);

  /* Enter, then Backspace. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.zoom-in", NULL));
  g_assert_cmpuint (smprof_flame_graph_get_zoom_node (graph), ==, next);
  g_assert_cmpuint (smprof_flame_graph_get_selected_node (graph), ==, next);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flamegraph.zoom-out", NULL));
  g_assert_cmpuint (smprof_flame_graph_get_zoom_node (graph), ==, SMPROF_CALL_TREE_ROOT);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A dark theme gives the dark colour variants (white labels). */
static void
test_dark (void)
{
  GtkSettings *settings = gtk_settings_get_default ();
  GtkWidget *window;
  SmprofFlameGraph *graph;
  g_autoptr(GdkTexture) texture = NULL;

  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  graph = present_graph (pyinstrument, &window);

  texture = ui_test_render (GTK_WIDGET (graph));
  ui_test_save_local (texture, "flame-graph-dark.png");
  g_assert_true (_smprof_flame_graph_get_dark (graph));
  g_assert_cmpuint (check_frame_colors (graph, texture, TRUE), >=, 5);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  ui_test_settle ();
}

/* The view: search entry, matched share, zoom path, and the estimated note. */
static void
test_view (void)
{
  GtkWidget *view = smprof_flame_graph_view_new ();
  SmprofFlameGraph *graph = smprof_flame_graph_view_get_flame_graph (SMPROF_FLAME_GRAPH_VIEW (view));
  GtkWidget *window;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *percent = NULL;
  g_autofree char *matched_text = NULL;
  gboolean found_match_label = FALSE, found_kind_label = FALSE;
  SmprofFlameLayout *layout;

  smprof_flame_graph_view_set_profile (SMPROF_FLAME_GRAPH_VIEW (view), cprofile);
  g_assert_true (smprof_flame_graph_get_profile (graph) == cprofile);
  gtk_widget_set_can_target (GTK_WIDGET (graph), FALSE);
  window = ui_test_present (view, 1200, 720);

  gtk_editable_set_text (GTK_EDITABLE (smprof_flame_graph_view_get_search_entry (SMPROF_FLAME_GRAPH_VIEW (view))), "torch");
  /* The entry waits a moment before it searches. */
  for (guint i = 0; i < 20 && smprof_flame_graph_get_search_text (graph) == NULL; i++)
    ui_test_settle ();
  g_assert_cmpstr (smprof_flame_graph_get_search_text (graph), ==, "torch");

  layout = _smprof_flame_graph_get_layout (graph);
  smprof_flame_graph_zoom_to_node (graph, smprof_flame_layout_get_rect (layout, widest_on_row (layout, 0))->node);
  ui_test_settle ();

  percent = smprof_ui_format_percent (smprof_flame_graph_get_matched_fraction (graph));
  matched_text = g_strdup_printf ("Matched: %s", percent);

  /* Find the labels by their text: the view's children are private. */
  for (GtkWidget *w = gtk_widget_get_first_child (view); w != NULL; )
    {
      if (GTK_IS_LABEL (w))
        {
          const char *text = gtk_label_get_label (GTK_LABEL (w));

          found_match_label |= gtk_widget_get_visible (w) && g_strcmp0 (text, matched_text) == 0;
          found_kind_label |= g_strcmp0 (text, "Estimated from cProfile’s call graph") == 0;
        }

      if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != view && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          w = w == view ? NULL : gtk_widget_get_next_sibling (w);
        }
    }
  g_assert_true (found_match_label);
  g_assert_true (found_kind_label);

  /* The window, so the screenshot has the theme's background. */
  texture = ui_test_render (window);
  g_assert_cmpuint (ui_test_count_colors (texture), >, 20);
  ui_test_save (texture, "flame-graph.png");

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Numbers as the C locale writes them, whatever the machine's. */
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  cprofile = ui_test_load_profile ("pt-cprofile", SMPROF_PROFILER_CPROFILE);
  pyinstrument = ui_test_load_profile ("pt-pyinstrument", SMPROF_PROFILER_PYINSTRUMENT);

  g_test_add_func ("/flame-graph/render/cprofile", test_render_cprofile);
  g_test_add_func ("/flame-graph/render/pyinstrument", test_render_pyinstrument);
  g_test_add_func ("/flame-graph/hover", test_hover);
  g_test_add_func ("/flame-graph/search", test_search);
  g_test_add_func ("/flame-graph/zoom", test_zoom);
  g_test_add_func ("/flame-graph/keyboard", test_keyboard);
  g_test_add_func ("/flame-graph/dark", test_dark);
  g_test_add_func ("/flame-graph/view", test_view);

  status = g_test_run ();

  g_clear_object (&cprofile);
  g_clear_object (&pyinstrument);

  return status;
}
