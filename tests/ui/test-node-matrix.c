/* test-node-matrix.c: the node × function matrix on real multi-node jobs, under Xvfb
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cells must be the core's numbers (smprof_step_stats_get_node_function_time()
 * over the node's steps), the columns smprof_step_stats_top_functions(), and
 * the straggler planted by make-corpus.py (read from the corpus manifest)
 * must stand out: flagged row header, and its hotspot cell the reddest.
 */

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-node-matrix-private.h"
#include "smprof-node-matrix-view.h"
#include "smprof-ui-format.h"
#include "ui-test-util.h"

static SmprofStepStats *
compute_stats (const char * const *path_parts,
               SmprofProfiler      profiler,
               gboolean            first_node_only)
{
  g_autofree char *rel = g_build_filenamev ((char **) path_parts);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", rel, NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_auto(GStrv) node_ids = smprof_job_dup_node_ids (job, profiler);
  g_autoptr(GError) error = NULL;
  SmprofStepStats *stats;

  g_assert_cmpuint (g_strv_length (node_ids), >=, 2);
  if (first_node_only)
    g_clear_pointer (&node_ids[1], g_free);

  stats = smprof_step_stats_compute (job, profiler, (const char * const *) node_ids, &all, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stats);

  return stats;
}

static SmprofStepStats *
corpus_stats (void)
{
  const char *parts[] = { "corpus-outliers-cprofile", NULL };

  return compute_stats (parts, SMPROF_PROFILER_CPROFILE, FALSE);
}

/* The planted straggler: its node and its hotspot function, from the manifest. */
static void
read_planted_straggler (char **node_id,
                        char **function)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile",
                                                 "corpus-manifest.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *planted;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  planted = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "planted_outliers");

  *node_id = *function = NULL;
  for (guint p = 0; p < json_array_get_length (planted); p++)
    {
      JsonObject *outlier = json_array_get_object_element (planted, p);
      JsonObject *hotspot;

      if (g_strcmp0 (json_object_get_string_member (outlier, "type"), "straggler") != 0)
        continue;

      *node_id = g_strdup (json_array_get_string_element (json_object_get_array_member (outlier, "nodes"), 0));
      hotspot = json_object_get_object_member (json_object_get_object_member (outlier, "hotspots"), *node_id);
      *function = g_strdup (json_object_get_string_member (hotspot, "cprofile_function"));
      return;
    }

  g_assert_not_reached ();
}

/* The matrix computes its columns on a worker: wait for them. */
static void
wait_computed (SmprofNodeMatrix *matrix)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (smprof_node_matrix_get_computing (matrix))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static SmprofNodeMatrix *
present_matrix (SmprofStepStats  *stats,
                GtkWidget       **window)
{
  SmprofNodeMatrix *matrix = SMPROF_NODE_MATRIX (smprof_node_matrix_new ());

  smprof_node_matrix_set_step_stats (matrix, stats);
  wait_computed (matrix);
  gtk_widget_set_halign (GTK_WIDGET (matrix), GTK_ALIGN_START);
  gtk_widget_set_valign (GTK_WIDGET (matrix), GTK_ALIGN_START);
  *window = ui_test_present (GTK_WIDGET (matrix), 900, 400);

  return matrix;
}

/* The cells are the core's time per step, in the core's column order. */
static void
check_cells (SmprofNodeMatrix *matrix,
             SmprofStepStats  *stats,
             guint             top_n)
{
  const char * const *node_ids = smprof_step_stats_get_node_ids (stats);
  g_autoptr(GArray) columns = smprof_step_stats_top_functions (stats, top_n);

  g_assert_cmpuint (smprof_node_matrix_get_n_nodes (matrix), ==, g_strv_length ((char **) node_ids));
  g_assert_cmpuint (smprof_node_matrix_get_n_columns (matrix), ==, columns->len);
  g_assert_cmpuint (columns->len, >=, top_n);

  for (guint c = 0; c < columns->len; c++)
    g_assert_cmpuint (_smprof_node_matrix_get_column_function (matrix, c), ==, g_array_index (columns, guint, c));

  for (guint row = 0; node_ids[row] != NULL; row++)
    {
      guint n_steps = 0;

      g_assert_cmpstr (_smprof_node_matrix_get_node_id (matrix, row), ==, node_ids[row]);
      smprof_step_stats_get_node_function_time (stats, node_ids[row], G_MAXUINT, &n_steps);
      g_assert_cmpuint (n_steps, >, 0);

      for (guint c = 0; c < columns->len; c++)
        {
          double time = smprof_step_stats_get_node_function_time (stats, node_ids[row],
                                                                  g_array_index (columns, guint, c), NULL);

          g_assert_cmpfloat_with_epsilon (_smprof_node_matrix_get_value (matrix, row, c), time / n_steps, 1e-12);
        }
    }

  /* Two nodes: each cell against the other node's. */
  if (g_strv_length ((char **) node_ids) == 2)
    for (guint c = 0; c < columns->len; c++)
      {
        double a = _smprof_node_matrix_get_value (matrix, 0, c);
        double b = _smprof_node_matrix_get_value (matrix, 1, c);

        if (a > 0 && b > 0)
          {
            g_assert_cmpfloat_with_epsilon (_smprof_node_matrix_get_ratio (matrix, 0, c), a / b, 1e-9);
            g_assert_cmpfloat_with_epsilon (_smprof_node_matrix_get_ratio (matrix, 1, c), b / a, 1e-9);
          }
      }
}

static void
test_values (gconstpointer data)
{
  const char * const *parts = data;
  SmprofProfiler profiler = strstr (parts[1] != NULL ? parts[1] : parts[0], "pyinstrument") != NULL
                            ? SMPROF_PROFILER_PYINSTRUMENT : SMPROF_PROFILER_CPROFILE;
  SmprofStepStats *stats = compute_stats (parts, profiler, FALSE);
  GtkWidget *window;
  SmprofNodeMatrix *matrix = present_matrix (stats, &window);
  g_autoptr(GdkTexture) texture = NULL;

  /* The matrix keeps its own reference: dropping ours must not free them. */
  smprof_step_stats_unref (stats);
  g_assert_true (smprof_node_matrix_get_step_stats (matrix) == stats);

  g_assert_cmpuint (smprof_node_matrix_get_top_n (matrix), ==, SMPROF_NODE_MATRIX_DEFAULT_TOP_N);
  check_cells (matrix, stats, SMPROF_NODE_MATRIX_DEFAULT_TOP_N);

  smprof_node_matrix_set_top_n (matrix, 2);
  wait_computed (matrix);
  check_cells (matrix, stats, 2);
  smprof_node_matrix_set_top_n (matrix, 8);
  wait_computed (matrix);
  check_cells (matrix, stats, 8);

  texture = ui_test_render (GTK_WIDGET (matrix));
  g_assert_cmpuint (ui_test_count_colors (texture), >, 10);

  gtk_window_destroy (GTK_WINDOW (window));
}

static int
row_of (SmprofNodeMatrix *matrix,
        const char       *node_id)
{
  for (guint row = 0; row < smprof_node_matrix_get_n_nodes (matrix); row++)
    if (strcmp (_smprof_node_matrix_get_node_id (matrix, row), node_id) == 0)
      return row;

  g_assert_not_reached ();
}

static int
column_of (SmprofNodeMatrix *matrix,
           const char       *label)
{
  for (guint c = 0; c < smprof_node_matrix_get_n_columns (matrix); c++)
    {
      g_autofree char *text = _smprof_node_matrix_dup_function_label (matrix, c);

      if (strcmp (text, label) == 0)
        return c;
    }

  return -1;
}

static guint32
color_pixel (const GdkRGBA *color)
{
  const double rgb[3] = { color->red, color->green, color->blue };

  return ui_test_rgb_to_pixel (rgb);
}

/* A point of a cell's fill away from its centred text. */
static guint32
cell_fill_pixel (SmprofNodeMatrix *matrix,
                 GdkTexture       *texture,
                 int               row,
                 int               col)
{
  graphene_rect_t area;

  _smprof_node_matrix_get_area (matrix, row, col, &area);
  return ui_test_pixel (texture, (int) area.origin.x + 3, (int) area.origin.y + 3);
}

static void
check_straggler (gboolean dark)
{
  g_autoptr(SmprofStepStats) stats = corpus_stats ();
  g_autofree char *node_id = NULL;
  g_autofree char *function = NULL;
  GtkWidget *window;
  SmprofNodeMatrix *matrix = present_matrix (stats, &window);
  g_autoptr(GdkTexture) texture = NULL;
  GdkRGBA hot;
  int straggler_row, hot_col;
  graphene_rect_t area;
  guint n_hot = 0;

  read_planted_straggler (&node_id, &function);
  straggler_row = row_of (matrix, node_id);
  hot_col = column_of (matrix, function);
  g_assert_cmpint (hot_col, >=, 0);
  g_test_message ("planted straggler %s, hotspot %s: %g s/step, ×%.3f the other node",
                  node_id, function, _smprof_node_matrix_get_value (matrix, straggler_row, hot_col),
                  _smprof_node_matrix_get_ratio (matrix, straggler_row, hot_col));

  for (guint row = 0; row < smprof_node_matrix_get_n_nodes (matrix); row++)
    for (guint c = 0; c < smprof_node_matrix_get_n_columns (matrix); c++)
      g_test_message ("%s × %s: %g s/step, ratio %.3f", _smprof_node_matrix_get_node_id (matrix, row), matrix->names[c],
                      _smprof_node_matrix_get_value (matrix, row, c), _smprof_node_matrix_get_ratio (matrix, row, c));

  /* Flagged by the core's rule, and only the planted node */
  for (guint row = 0; row < smprof_node_matrix_get_n_nodes (matrix); row++)
    g_assert_cmpint (_smprof_node_matrix_is_straggler (matrix, row), ==, (int) row == straggler_row);

  /* The hotspot cell is the slowest against the other nodes, by a wide margin. */
  for (guint row = 0; row < smprof_node_matrix_get_n_nodes (matrix); row++)
    for (guint c = 0; c < smprof_node_matrix_get_n_columns (matrix); c++)
      if ((int) row != straggler_row || (int) c != hot_col)
        g_assert_cmpfloat (_smprof_node_matrix_get_ratio (matrix, row, c), <,
                           _smprof_node_matrix_get_ratio (matrix, straggler_row, hot_col));
  g_assert_cmpfloat (_smprof_node_matrix_get_ratio (matrix, straggler_row, hot_col), >=, SMPROF_NODE_MATRIX_SCALE_MAX);

  texture = ui_test_render (GTK_WIDGET (matrix));
  ui_test_save_local (texture, dark ? "node-matrix-dark.png" : "node-matrix.png");
  g_assert_cmpint (_smprof_node_matrix_update_dark (matrix), ==, FALSE);
  g_assert_cmpint (matrix->dark, ==, dark);

  /* Drawn in the scale's hottest colour, every cell in its ratio's colour,
   * and no other cell that hot: make-corpus.py runs the same code on every
   * node at a step, so elsewhere the nodes differ only by timing noise. */
  smprof_node_matrix_ratio_color (INFINITY, dark, &hot);
  g_assert_true (ui_test_pixel_near (cell_fill_pixel (matrix, texture, straggler_row, hot_col), color_pixel (&hot), 2));
  for (guint row = 0; row < smprof_node_matrix_get_n_nodes (matrix); row++)
    for (guint c = 0; c < smprof_node_matrix_get_n_columns (matrix); c++)
      {
        GdkRGBA expected;

        smprof_node_matrix_ratio_color (_smprof_node_matrix_get_ratio (matrix, row, c), dark, &expected);
        g_assert_true (ui_test_pixel_near (cell_fill_pixel (matrix, texture, row, c), color_pixel (&expected), 2));
        n_hot += ui_test_pixel_near (cell_fill_pixel (matrix, texture, row, c), color_pixel (&hot), 2);
      }
  g_assert_cmpuint (n_hot, ==, 1);

  /* The straggler's row header carries the hot strip; the others do not. */
  for (guint row = 0; row < smprof_node_matrix_get_n_nodes (matrix); row++)
    {
      _smprof_node_matrix_get_area (matrix, row, -1, &area);
      g_assert_cmpint (ui_test_pixel_near (ui_test_pixel (texture, 2, (int) area.origin.y + 4), color_pixel (&hot), 2),
                       ==, (int) row == straggler_row);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_straggler (void)
{
  check_straggler (FALSE);
}

static void
test_straggler_dark (void)
{
  GtkSettings *settings = gtk_settings_get_default ();

  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  check_straggler (TRUE);
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  ui_test_settle ();
}

/* Logarithmic and diverging: ×1 neutral, ×k and ×1/k as far from it, saturating at SCALE_MAX. */
static void
test_scale (void)
{
  for (guint dark = 0; dark < 2; dark++)
    {
      GdkRGBA neutral, slow, fast, slower, faster, hottest, coldest, none;

      smprof_node_matrix_ratio_color (1, dark, &neutral);
      smprof_node_matrix_ratio_color (sqrt (SMPROF_NODE_MATRIX_SCALE_MAX), dark, &slow);
      smprof_node_matrix_ratio_color (1 / sqrt (SMPROF_NODE_MATRIX_SCALE_MAX), dark, &fast);
      smprof_node_matrix_ratio_color (SMPROF_NODE_MATRIX_SCALE_MAX, dark, &slower);
      smprof_node_matrix_ratio_color (1 / SMPROF_NODE_MATRIX_SCALE_MAX, dark, &faster);
      smprof_node_matrix_ratio_color (INFINITY, dark, &hottest);
      smprof_node_matrix_ratio_color (0, dark, &coldest);
      smprof_node_matrix_ratio_color (NAN, dark, &none);

      g_assert_true (gdk_rgba_equal (&slower, &hottest));
      g_assert_true (gdk_rgba_equal (&faster, &coldest));
      g_assert_cmpfloat (fabs (neutral.red - neutral.blue), <, 0.01);
      g_assert_cmpfloat (slow.red, >, slow.blue);
      g_assert_cmpfloat (hottest.red - hottest.blue, >, slow.red - slow.blue);
      g_assert_cmpfloat (fast.blue, >, fast.red);
      g_assert_cmpfloat (coldest.blue - coldest.red, >, fast.blue - fast.red);
      g_assert_cmpfloat (none.alpha, <, 1);
      /* The middle follows the theme: light on light, dark on dark. */
      g_assert_cmpint (neutral.green > 0.5, ==, !dark);
    }
}

static guint
count_emissions (GObject    *object,
                 const char *signal)
{
  return GPOINTER_TO_UINT (g_object_get_data (object, signal));
}

static void
node_activated_cb (SmprofNodeMatrix *matrix,
                   const char       *node_id,
                   char            **last)
{
  g_free (*last);
  *last = g_strdup (node_id);
  g_object_set_data (G_OBJECT (matrix), "node-activated",
                     GUINT_TO_POINTER (count_emissions (G_OBJECT (matrix), "node-activated") + 1));
}

static void
cell_activated_cb (SmprofNodeMatrix *matrix,
                   const char       *node_id,
                   guint             func,
                   guint            *last_func)
{
  *last_func = func;
  g_object_set_data (G_OBJECT (matrix), "cell-activated",
                     GUINT_TO_POINTER (count_emissions (G_OBJECT (matrix), "cell-activated") + 1));
}

/* Whether the class binds @key to @action, as its shortcut controller holds it. */
static gboolean
key_runs_action (GtkWidget  *widget,
                 guint       key,
                 const char *action)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *named = gtk_shortcut_get_action (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == key &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == 0 &&
              GTK_IS_NAMED_ACTION (named) && g_strcmp0 (gtk_named_action_get_action_name (GTK_NAMED_ACTION (named)), action) == 0)
            return TRUE;
        }
    }

  return FALSE;
}

/* A click on a row header, or Enter on it, asks to compare that node; on a
 * cell, it activates the cell with the function's id. */
static void
test_activate (void)
{
  const char *parts[] = { "real-smdebug", "pt-cprofile", NULL };
  g_autoptr(SmprofStepStats) stats = compute_stats (parts, SMPROF_PROFILER_CPROFILE, FALSE);
  const char * const *node_ids = smprof_step_stats_get_node_ids (stats);
  GtkWidget *window;
  SmprofNodeMatrix *matrix = present_matrix (stats, &window);
  g_autofree char *last = NULL;
  guint last_func = G_MAXUINT;
  graphene_rect_t area;
  int row, col;

  g_signal_connect (matrix, "node-activated", G_CALLBACK (node_activated_cb), &last);
  g_signal_connect (matrix, "cell-activated", G_CALLBACK (cell_activated_cb), &last_func);

  /* Click the second row's header */
  _smprof_node_matrix_get_area (matrix, 1, -1, &area);
  g_assert_cmpint (_smprof_node_matrix_hit_test (matrix, area.origin.x + area.size.width / 2,
                                                 area.origin.y + area.size.height / 2, &row, &col),
                   ==, SMPROF_NODE_MATRIX_ROW_HEADER);
  g_assert_cmpint (row, ==, 1);
  _smprof_node_matrix_click_at (matrix, area.origin.x + area.size.width / 2, area.origin.y + area.size.height / 2);
  g_assert_cmpstr (last, ==, node_ids[1]);
  g_assert_cmpuint (count_emissions (G_OBJECT (matrix), "node-activated"), ==, 1);

  /* A column header explains, activates nothing */
  _smprof_node_matrix_get_area (matrix, -1, 0, &area);
  _smprof_node_matrix_click_at (matrix, area.origin.x + 4, area.origin.y + 4);
  g_assert_cmpuint (count_emissions (G_OBJECT (matrix), "node-activated"), ==, 1);
  g_assert_cmpuint (count_emissions (G_OBJECT (matrix), "cell-activated"), ==, 0);

  /* The keyboard: focus on node 1's header after the click; up to node 0, Enter */
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (matrix)));
  g_assert_true (key_runs_action (GTK_WIDGET (matrix), GDK_KEY_Return, "nodematrix.activate"));
  g_assert_true (key_runs_action (GTK_WIDGET (matrix), GDK_KEY_Up, "nodematrix.move"));
  g_assert_true (key_runs_action (GTK_WIDGET (matrix), GDK_KEY_Right, "nodematrix.move"));
  g_assert_false (key_runs_action (GTK_WIDGET (matrix), GDK_KEY_Tab, "nodematrix.activate"));
  gtk_widget_grab_focus (GTK_WIDGET (matrix));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (matrix), "nodematrix.move", "(ii)", 0, -1));
  g_assert_cmpint (matrix->focus_row, ==, 0);
  g_assert_cmpint (matrix->focus_col, ==, -1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (matrix), "nodematrix.activate", NULL));
  g_assert_cmpstr (last, ==, node_ids[0]);
  g_assert_cmpuint (count_emissions (G_OBJECT (matrix), "node-activated"), ==, 2);

  /* Moves stop at the edges */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (matrix), "nodematrix.move", "(ii)", -1, -1));
  g_assert_cmpint (matrix->focus_row, ==, 0);
  g_assert_cmpint (matrix->focus_col, ==, -1);

  /* Right into the cells, Enter activates the cell */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (matrix), "nodematrix.move", "(ii)", 1, 0));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (matrix), "nodematrix.move", "(ii)", 1, 1));
  g_assert_cmpint (matrix->focus_row, ==, 1);
  g_assert_cmpint (matrix->focus_col, ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (matrix), "nodematrix.activate", NULL));
  g_assert_cmpuint (count_emissions (G_OBJECT (matrix), "cell-activated"), ==, 1);
  g_assert_cmpuint (last_func, ==, smprof_step_stats_get_function (stats, _smprof_node_matrix_get_column_function (matrix, 1))->func);
  g_assert_cmpuint (count_emissions (G_OBJECT (matrix), "node-activated"), ==, 2);

  /* A click on a cell moves the focus there and activates it */
  _smprof_node_matrix_get_area (matrix, 0, 2, &area);
  _smprof_node_matrix_click_at (matrix, area.origin.x + 5, area.origin.y + 5);
  g_assert_cmpint (matrix->focus_row, ==, 0);
  g_assert_cmpint (matrix->focus_col, ==, 2);
  g_assert_cmpuint (last_func, ==, smprof_step_stats_get_function (stats, _smprof_node_matrix_get_column_function (matrix, 2))->func);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The hovered cell gets an outline in the text colour over its fill. */
static void
test_hover (void)
{
  const char *parts[] = { "real-smdebug", "pt-cprofile", NULL };
  g_autoptr(SmprofStepStats) stats = compute_stats (parts, SMPROF_PROFILER_CPROFILE, FALSE);
  GtkWidget *window;
  SmprofNodeMatrix *matrix = present_matrix (stats, &window);
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  graphene_rect_t area;
  GdkRGBA fill;

  _smprof_node_matrix_get_area (matrix, 1, 1, &area);
  before = ui_test_render (GTK_WIDGET (matrix));
  smprof_node_matrix_ratio_color (_smprof_node_matrix_get_ratio (matrix, 1, 1), matrix->dark, &fill);
  g_assert_true (ui_test_pixel_near (ui_test_pixel (before, (int) area.origin.x, (int) area.origin.y + 5),
                                     color_pixel (&fill), 2));

  _smprof_node_matrix_hover_at (matrix, area.origin.x + 4, area.origin.y + 4);
  g_assert_cmpint (matrix->hover_row, ==, 1);
  g_assert_cmpint (matrix->hover_col, ==, 1);
  after = ui_test_render (GTK_WIDGET (matrix));
  g_assert_false (ui_test_pixel_near (ui_test_pixel (after, (int) area.origin.x, (int) area.origin.y + 5),
                                      color_pixel (&fill), 16));
  /* The inside of the cell is untouched */
  g_assert_true (ui_test_pixel_near (ui_test_pixel (after, (int) area.origin.x + 3, (int) area.origin.y + 5),
                                     color_pixel (&fill), 2));

  _smprof_node_matrix_hover_at (matrix, -1, -1);
  g_assert_cmpint (matrix->hover_row, ==, -1);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
contains_escaped (const char *markup,
                  const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  return strstr (markup, escaped) != NULL;
}

static void
test_tooltip (void)
{
  g_autoptr(SmprofStepStats) stats = corpus_stats ();
  g_autofree char *node_id = NULL;
  g_autofree char *function = NULL;
  GtkWidget *window;
  SmprofNodeMatrix *matrix = present_matrix (stats, &window);
  int row, col, other;
  g_autofree char *cell = NULL;
  g_autofree char *header = NULL;
  g_autofree char *other_header = NULL;
  g_autofree char *column = NULL;
  g_autofree char *time = NULL;
  g_autofree char *ratio = NULL;
  g_autofree char *description = NULL;

  read_planted_straggler (&node_id, &function);
  row = row_of (matrix, node_id);
  other = 1 - row;
  col = column_of (matrix, function);

  cell = _smprof_node_matrix_dup_tooltip (matrix, row, col);
  g_test_message ("cell tooltip: %s", cell);
  time = smprof_ui_format_duration (_smprof_node_matrix_get_value (matrix, row, col));
  ratio = g_strdup_printf ("×%.2f", _smprof_node_matrix_get_ratio (matrix, row, col));
  g_assert_true (contains_escaped (cell, node_id));
  g_assert_true (contains_escaped (cell, function));
  g_assert_nonnull (strstr (cell, time));
  g_assert_nonnull (strstr (cell, ratio));
  g_assert_true (pango_parse_markup (cell, -1, 0, NULL, NULL, NULL, NULL));

  /* The straggler's header states the rule; the other node's does not */
  header = _smprof_node_matrix_dup_tooltip (matrix, row, -1);
  other_header = _smprof_node_matrix_dup_tooltip (matrix, other, -1);
  g_test_message ("row tooltip: %s", header);
  g_assert_true (contains_escaped (header, node_id));
  g_assert_true (contains_escaped (header, smprof_step_straggler_rule_description ()));
  g_assert_false (contains_escaped (other_header, smprof_step_straggler_rule_description ()));
  g_assert_true (contains_escaped (other_header, _smprof_node_matrix_get_node_id (matrix, other)));

  /* The column header: the function's full name */
  column = _smprof_node_matrix_dup_tooltip (matrix, -1, col);
  g_assert_true (contains_escaped (column, function));
  g_assert_null (_smprof_node_matrix_dup_tooltip (matrix, -1, -1));

  /* The focus cell is what assistive technologies read */
  _smprof_node_matrix_set_focus (matrix, row, col);
  g_assert_true (pango_parse_markup (cell, -1, 0, NULL, &description, NULL, NULL));
  g_assert_nonnull (strstr (description, node_id));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The view shows the matrix for several nodes, an explanation for one. */
static void
test_view (void)
{
  const char *parts[] = { "real-smdebug", "tf-cprofile", NULL };
  g_autoptr(SmprofStepStats) both = compute_stats (parts, SMPROF_PROFILER_CPROFILE, FALSE);
  g_autoptr(SmprofStepStats) one = compute_stats (parts, SMPROF_PROFILER_CPROFILE, TRUE);
  GtkWidget *view = smprof_node_matrix_view_new ();
  SmprofNodeMatrix *matrix = smprof_node_matrix_view_get_matrix (SMPROF_NODE_MATRIX_VIEW (view));
  GtkWidget *window = ui_test_present (view, 900, 500);
  g_autoptr(GdkTexture) texture = NULL;

  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (matrix)));

  smprof_node_matrix_view_set_step_stats (SMPROF_NODE_MATRIX_VIEW (view), both);
  wait_computed (matrix);
  ui_test_settle ();
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (matrix)));
  check_cells (matrix, both, SMPROF_NODE_MATRIX_DEFAULT_TOP_N);
  texture = ui_test_render (view);
  ui_test_save (texture, "node-matrix-view.png");

  smprof_node_matrix_view_set_step_stats (SMPROF_NODE_MATRIX_VIEW (view), one);
  wait_computed (matrix);
  ui_test_settle ();
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (matrix)));
  g_assert_cmpuint (smprof_node_matrix_get_n_nodes (matrix), ==, 1);

  smprof_node_matrix_view_set_step_stats (SMPROF_NODE_MATRIX_VIEW (view), NULL);
  ui_test_settle ();
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (matrix)));
  g_assert_cmpuint (smprof_node_matrix_get_n_nodes (matrix), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  static const char *pt_cprofile[] = { "real-smdebug", "pt-cprofile", NULL };
  static const char *tf_cprofile[] = { "real-smdebug", "tf-cprofile", NULL };
  static const char *pt_pyinstrument[] = { "real-smdebug", "pt-pyinstrument", NULL };
  static const char *corpus[] = { "corpus-outliers-cprofile", NULL };

  /* Numbers as the C locale writes them, whatever the machine's. */
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/node-matrix/values/pt-cprofile", pt_cprofile, test_values);
  g_test_add_data_func ("/node-matrix/values/tf-cprofile", tf_cprofile, test_values);
  g_test_add_data_func ("/node-matrix/values/pt-pyinstrument", pt_pyinstrument, test_values);
  g_test_add_data_func ("/node-matrix/values/corpus", corpus, test_values);
  g_test_add_func ("/node-matrix/scale", test_scale);
  g_test_add_func ("/node-matrix/straggler", test_straggler);
  g_test_add_func ("/node-matrix/straggler-dark", test_straggler_dark);
  g_test_add_func ("/node-matrix/activate", test_activate);
  g_test_add_func ("/node-matrix/hover", test_hover);
  g_test_add_func ("/node-matrix/tooltip", test_tooltip);
  g_test_add_func ("/node-matrix/view", test_view);

  return g_test_run ();
}
