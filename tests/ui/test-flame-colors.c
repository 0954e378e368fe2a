/* test-flame-colors.c: the flame graph's colour schemes, from the plugin's
 * setting to the pixels, and the palettes' contrast
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "smprof-flame-graph-private.h"
#include "smprof-flame-graph-view.h"
#include "smprof-flame-palette.h"
#include "smprof-ui-settings.h"
#include "ui-test-util.h"

static SmprofProfile *cprofile;

static double
contrast (const double a[3],
          const double b[3])
{
  double la = smprof_flame_relative_luminance (a) + 0.05;
  double lb = smprof_flame_relative_luminance (b) + 0.05;

  return la > lb ? la / lb : lb / la;
}

/* Each scheme, light and dark: labels stay readable (WCAG 4.5:1), the same
 * function always gets the same colour, and the schemes differ. */
static void
test_palettes (void)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (cprofile));
  guint               n = smprof_function_keys_get_size (table);

  g_assert_cmpuint (n, >, 20);

  for (guint dark = 0; dark <= 1; dark++)
    {
      double text[3];
      guint differs_module = 0, differs_colorblind = 0;
      g_autoptr(GHashTable) colorblind_hues = g_hash_table_new (NULL, NULL);

      smprof_flame_text_color (dark, text);
      for (guint func = 0; func < n; func++)
        {
          double rgb[SMPROF_FLAME_N_PALETTES][3], again[3];

          for (guint p = 0; p < SMPROF_FLAME_N_PALETTES; p++)
            {
              smprof_flame_palette_color (p, table, func, dark, rgb[p]);
              smprof_flame_palette_color (p, table, func, dark, again);
              g_assert_cmpmem (rgb[p], sizeof rgb[p], again, sizeof again);
              if (contrast (rgb[p], text) < 4.5)
                g_error ("scheme %s, %s, function %u: contrast %.2f",
                         smprof_flame_palette_to_string (p), dark ? "dark" : "light", func,
                         contrast (rgb[p], text));
            }

          differs_module += ui_test_rgb_to_pixel (rgb[0]) != ui_test_rgb_to_pixel (rgb[1]);
          differs_colorblind += ui_test_rgb_to_pixel (rgb[0]) != ui_test_rgb_to_pixel (rgb[2]);
          /* The colour-blind palette keeps to Okabe and Ito's hues: the
           * channel order of a colour does not change with its shade. */
          g_hash_table_add (colorblind_hues,
                            GUINT_TO_POINTER ((rgb[2][0] >= rgb[2][1]) << 2 | (rgb[2][1] >= rgb[2][2]) << 1 |
                                              (rgb[2][0] >= rgb[2][2])));
        }

      g_assert_cmpuint (differs_module, >, n * 9 / 10);
      g_assert_cmpuint (differs_colorblind, >, n * 9 / 10);
      g_assert_cmpuint (g_hash_table_size (colorblind_hues), >=, 2);
    }
}

static void
test_names (void)
{
  SmprofFlamePalette palette;

  for (guint p = 0; p < SMPROF_FLAME_N_PALETTES; p++)
    {
      g_assert_true (smprof_flame_palette_from_string (smprof_flame_palette_to_string (p), &palette));
      g_assert_cmpint (palette, ==, p);
    }
  g_assert_false (smprof_flame_palette_from_string ("light", &palette));
  g_assert_false (smprof_flame_palette_from_string (NULL, &palette));
}

/* How many frames of at least 8 px have @palette's colour 2 px inside their
 * top-left corner; fails on a frame with another colour. */
static guint
check_frames (SmprofFlameGraph   *graph,
              SmprofFlamePalette  palette)
{
  g_autoptr(GdkTexture) texture = ui_test_render (GTK_WIDGET (graph));
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  SmprofCallTree *tree = smprof_profile_get_call_tree (cprofile);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gboolean dark = _smprof_flame_graph_get_dark (graph);
  guint checked = 0;

  for (guint i = 0; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      int x0 = (int) round (rect->x * width);
      int x1 = (int) round ((rect->x + rect->width) * width);
      int y = height - (int) (rect->depth + 1) * SMPROF_FLAME_GRAPH_ROW_HEIGHT;
      double rgb[3];
      guint32 pixel, expected;

      if (x1 - x0 < 8 || y < 0)
        continue;

      smprof_flame_palette_color (palette, smprof_call_tree_get_table (tree),
                                  smprof_call_tree_get_node (tree, rect->node)->func, dark, rgb);
      expected = ui_test_rgb_to_pixel (rgb);
      pixel = ui_test_pixel (texture, x0 + 2, y + 2);
      if (!ui_test_pixel_near (pixel, expected, 1))
        g_error ("%s: frame %u: pixel %08x, expected %08x", smprof_flame_palette_to_string (palette),
                 i, pixel, expected);
      checked++;
    }

  return checked;
}

/* The view follows the plugin's setting (memory backend, the build tree's
 * compiled schema), and its flame.color-scheme action writes it. */
static void
test_setting (void)
{
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  GtkWidget *view, *window;
  SmprofFlameGraph *graph;
  g_autofree char *stored = NULL;

  g_assert_nonnull (settings);
  g_settings_reset (settings, "flame-graph-color-scheme");

  view = smprof_flame_graph_view_new ();
  graph = smprof_flame_graph_view_get_flame_graph (SMPROF_FLAME_GRAPH_VIEW (view));
  smprof_flame_graph_view_set_profile (SMPROF_FLAME_GRAPH_VIEW (view), cprofile);
  gtk_widget_set_can_target (GTK_WIDGET (graph), FALSE);
  window = ui_test_present (view, 1000, 600);

  g_assert_cmpstr (smprof_flame_graph_get_color_scheme (graph), ==, "default");
  g_assert_cmpuint (check_frames (graph, SMPROF_FLAME_PALETTE_DEFAULT), >=, 5);

  g_settings_set_string (settings, "flame-graph-color-scheme", "colorblind");
  g_assert_cmpstr (smprof_flame_graph_get_color_scheme (graph), ==, "colorblind");
  g_assert_cmpuint (check_frames (graph, SMPROF_FLAME_PALETTE_COLORBLIND), >=, 5);

  /* The menu's radio items go through the action. */
  g_assert_true (gtk_widget_activate_action (view, "flame.color-scheme", "s", "module"));
  g_assert_cmpstr (smprof_flame_graph_get_color_scheme (graph), ==, "module");
  stored = g_settings_get_string (settings, "flame-graph-color-scheme");
  g_assert_cmpstr (stored, ==, "module");
  g_assert_cmpuint (check_frames (graph, SMPROF_FLAME_PALETTE_MODULE), >=, 5);

  g_settings_reset (settings, "flame-graph-color-scheme");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  cprofile = ui_test_load_profile ("pt-cprofile", SMPROF_PROFILER_CPROFILE);

  g_test_add_func ("/flame-colors/palettes", test_palettes);
  g_test_add_func ("/flame-colors/names", test_names);
  g_test_add_func ("/flame-colors/setting", test_setting);

  status = g_test_run ();

  g_clear_object (&cprofile);

  return status;
}
