/* test-function-table-steps.c: the function table's per-step columns, the
 * sparkline, and the job page computing the steps of its selection
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On tests/data/real-smdebug's PyTorch jobs (two nodes, 20 steps each): the
 * columns against the core's SmprofStepFunction and against
 * `smprof steps --functions --json` ($SMPROF_CLI) for the same selection.
 */

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "smprof-function-item.h"
#include "smprof-function-table.h"
#include "smprof-job-page-private.h"
#include "smprof-sparkline.h"
#include "smprof-step-stats.h"
#include "smprof-ui-format.h"
#include "core-test-util.h"
#include "ui-test-util.h"

typedef struct
{
  SmprofJob       *job;
  SmprofProfile   *profile;
  char            *path;
} Fixture;

static void
fixture_clear (Fixture *fixture)
{
  g_clear_object (&fixture->profile);
  g_clear_object (&fixture->job);
  g_clear_pointer (&fixture->path, g_free);
}

/* Every interval of every node: what `smprof steps` reads unless told. */
static void
fixture_load (Fixture        *fixture,
              const char     *name,
              SmprofProfiler  profiler)
{
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };

  fixture->path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", name, NULL);
  fixture->job = core_test_load_job_at (fixture->path);
  fixture->profile = core_test_profile_of (fixture->job, profiler, &all);
}

static SmprofStepStats *
stats_of (SmprofProfile *profile)
{
  return smprof_step_stats_new (smprof_profile_get_job (profile), smprof_profile_get_profiler (profile),
                                smprof_profile_get_node_ids (profile), smprof_profile_get_records (profile));
}

static SmprofFunctionItem *
item_of (SmprofFunctionTable *table,
         guint32              func)
{
  GListModel *model = smprof_function_table_get_model (table);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);

      if (smprof_function_item_get_func (item) == func)
        return item;   /* the model keeps it */
    }

  return NULL;
}

static char *
item_text (SmprofFunctionItem *item,
           const char         *property)
{
  char *text = NULL;

  g_object_get (item, property, &text, NULL);
  return text;
}

/* Each row holds the core's figures for its function, as text too; a
 * function of the profile in no step has zeros. Returns how many rows ran in
 * a step. */
static guint
check_rows_match_core (SmprofFunctionTable *table,
                       SmprofStepStats     *stats)
{
  GListModel *model = smprof_function_table_get_model (table);
  guint n_steps = smprof_step_stats_get_n_steps (stats);
  g_autofree double *series = g_new (double, n_steps);
  guint with_steps = 0;

  g_assert_cmpuint (g_list_model_get_n_items (model), >, 0);
  for (guint i = 0; i < smprof_step_stats_get_n_functions (stats); i++)
    {
      const SmprofStepFunction *function = smprof_step_stats_get_function (stats, i);
      SmprofFunctionItem *item = item_of (table, function->func);
      g_autofree char *median_text = NULL;
      g_autofree char *expected_median = smprof_ui_format_seconds (function->median);
      g_autofree char *count_text = NULL;
      g_autofree char *expected_count = smprof_ui_format_count (function->count);
      GArray *shown;

      /* every function with time in a step is a row of the profile */
      g_assert_nonnull (item);
      g_assert_cmpint (smprof_function_item_get_step_count (item), ==, function->count);
      g_assert_cmpfloat (smprof_function_item_get_step_min (item), ==, function->min);
      g_assert_cmpfloat (smprof_function_item_get_step_median (item), ==, function->median);
      g_assert_cmpfloat (smprof_function_item_get_step_p95 (item), ==, function->p95);
      g_assert_cmpfloat (smprof_function_item_get_step_max (item), ==, function->max);

      median_text = item_text (item, "step-median-text");
      g_assert_cmpstr (median_text, ==, expected_median);
      count_text = item_text (item, "step-count-text");
      g_assert_cmpstr (count_text, ==, expected_count);

      shown = smprof_function_item_get_step_series (item);
      g_assert_nonnull (shown);
      g_assert_cmpuint (shown->len, ==, n_steps);
      smprof_step_stats_get_series (stats, i, series);
      g_assert_cmpmem (shown->data, n_steps * sizeof (double), series, n_steps * sizeof (double));
      with_steps++;
    }

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);

      g_assert_true (smprof_function_item_has_steps (item));
      if (smprof_function_item_get_step_count (item) == 0)
        {
          g_assert_cmpfloat (smprof_function_item_get_step_max (item), ==, 0);
          g_assert_cmpuint (smprof_function_item_get_step_series (item)->len, ==, n_steps);
        }
    }

  return with_steps;
}

/* `smprof steps PATH --all --functions --json --limit N` on every node. */
static JsonParser *
cli_steps (const char *path,
           const char *profiler,
           guint       limit)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  g_autofree char *limit_text = g_strdup_printf ("%u", limit);
  const char *argv[] = { smprof, "steps", path, "--profiler", profiler, "--node", "all", "--all",
                         "--functions", "--limit", limit_text, "--json", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  JsonParser *parser = json_parser_new ();
  int status;

  g_assert_nonnull (smprof);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  return parser;
}

/* The command line's functions, looked up by name, file and line: the rows
 * show the same figures. */
static void
check_rows_match_cli (SmprofFunctionTable *table,
                      SmprofStepStats     *stats,
                      const char          *path,
                      const char          *profiler)
{
  SmprofFunctionKeys *funcs = smprof_job_get_function_keys (smprof_step_stats_get_job (stats));
  guint               n = smprof_step_stats_get_n_functions (stats);
  g_autoptr(JsonParser) parser = cli_steps (path, profiler, n);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  JsonArray *functions = json_object_get_array_member (root, "functions");
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GListModel *model = smprof_function_table_get_model (table);

  g_assert_cmpuint (json_array_get_length (functions), ==, n);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "steps")), ==,
                    smprof_step_stats_get_n_steps (stats));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      SmprofFunctionItem *item = g_list_model_get_item (model, i);
      guint32 func = smprof_function_item_get_func (item);
      char *key = g_strdup_printf ("%s:%" G_GINT64_FORMAT "(%s)", smprof_function_keys_get_file (funcs, func),
                                   (gint64) smprof_function_keys_get_line (funcs, func),
                                   smprof_function_keys_get_name (funcs, func));

      g_hash_table_insert (by_key, key, item);
      g_object_unref (item);
    }

  for (guint i = 0; i < n; i++)
    {
      JsonObject *function = json_array_get_object_element (functions, i);
      g_autofree char *key = g_strdup_printf ("%s:%" G_GINT64_FORMAT "(%s)",
                                              json_object_get_string_member (function, "file"),
                                              json_object_get_int_member (function, "line"),
                                              json_object_get_string_member (function, "function"));
      SmprofFunctionItem *item = g_hash_table_lookup (by_key, key);
      JsonArray *series = json_object_get_array_member (function, "series");
      GArray *shown;

      g_assert_nonnull (item);
      g_assert_cmpint (smprof_function_item_get_step_count (item), ==, json_object_get_int_member (function, "count"));
      /* the command line writes doubles that read back exactly */
      g_assert_cmpfloat (smprof_function_item_get_step_min (item), ==, json_object_get_double_member (function, "min"));
      g_assert_cmpfloat (smprof_function_item_get_step_median (item), ==,
                         json_object_get_double_member (function, "median"));
      g_assert_cmpfloat (smprof_function_item_get_step_p95 (item), ==, json_object_get_double_member (function, "p95"));
      g_assert_cmpfloat (smprof_function_item_get_step_max (item), ==, json_object_get_double_member (function, "max"));

      shown = smprof_function_item_get_step_series (item);
      g_assert_cmpuint (shown->len, ==, json_array_get_length (series));
      for (guint s = 0; s < shown->len; s++)
        g_assert_cmpfloat (g_array_index (shown, double, s), ==, json_array_get_double_element (series, s));
    }

  g_test_message ("%s: %u functions, %u steps: as `smprof steps --functions` says",
                  profiler, n, smprof_step_stats_get_n_steps (stats));
}

static void
check_columns (const char     *name,
               SmprofProfiler  profiler,
               const char     *profiler_name)
{
  Fixture fixture = { NULL, };
  SmprofFunctionTable *table = NULL;
  SmprofStepStats *stats;
  g_autofree char *text = NULL;
  GListModel *model;
  SmprofFunctionItem *first;
  gint64 start, computed;

  fixture_load (&fixture, name, profiler);
  table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  smprof_function_table_set_profile (table, fixture.profile);
  model = smprof_function_table_get_model (table);

  /* Before the statistics: "—", and sorts as nothing. */
  first = g_list_model_get_item (model, 0);
  g_object_unref (first);
  g_assert_false (smprof_function_item_has_steps (first));
  g_assert_cmpint (smprof_function_item_get_step_count (first), ==, -1);
  text = item_text (first, "step-p95-text");
  g_assert_cmpstr (text, ==, "—");
  g_assert_null (smprof_function_item_get_step_series (first));

  start = g_get_monotonic_time ();
  stats = stats_of (fixture.profile);
  computed = g_get_monotonic_time ();
  g_assert_cmpuint (smprof_step_stats_get_n_steps (stats), >, 1);
  smprof_function_table_set_step_stats (table, stats);
  g_assert_true (smprof_function_table_get_step_stats (table) == stats);
  /* figures for the report, not limits: machines differ */
  g_test_message ("%s: %u rows x %u steps: stats computed in %.2f ms, set on the rows in %.2f ms",
                  profiler_name, g_list_model_get_n_items (model), smprof_step_stats_get_n_steps (stats),
                  (computed - start) / 1000.0, (g_get_monotonic_time () - computed) / 1000.0);

  g_assert_cmpuint (check_rows_match_core (table, stats), >, 0);
  check_rows_match_cli (table, stats, fixture.path, profiler_name);

  /* In place: the very row objects, values gone back to "—". */
  smprof_function_table_set_step_stats (table, NULL);
  g_assert_true (g_list_model_get_item (model, 0) == (gpointer) first);
  g_object_unref (first);
  g_clear_pointer (&text, g_free);
  text = item_text (first, "step-max-text");
  g_assert_cmpstr (text, ==, "—");

  g_object_unref (table);
  fixture_clear (&fixture);
}

static void
test_columns_cprofile (void)
{
  check_columns ("pt-cprofile", SMPROF_PROFILER_CPROFILE, "cprofile");
}

static void
test_columns_pyinstrument (void)
{
  check_columns ("pt-pyinstrument", SMPROF_PROFILER_PYINSTRUMENT, "pyinstrument");
}

/* A new selection reuses the rows (the table's speed fix) and gives them
 * that selection's steps once they are set. */
static void
test_rows_reused (void)
{
  Fixture fixture = { NULL, };
  SmprofFunctionTable *table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  SmprofSelection first_steps = { .kind = SMPROF_SELECT_STEP, .start_step = 0, .end_step = 4,
                                  .mode = SMPROF_MODE_TRAIN, .start_phase = SMPROF_PHASE_STEP_START,
                                  .end_phase = SMPROF_PHASE_STEP_END };
  g_autoptr(SmprofProfile) part = NULL;
  g_autoptr(GHashTable) before = g_hash_table_new (NULL, NULL);
  GListModel *model;
  SmprofStepStats *stats;
  guint reused = 0;

  fixture_load (&fixture, "pt-cprofile", SMPROF_PROFILER_CPROFILE);
  smprof_function_table_set_profile (table, fixture.profile);
  smprof_function_table_set_step_stats (table, stats_of (fixture.profile));
  model = smprof_function_table_get_model (table);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);

      g_hash_table_add (before, item);
    }

  part = core_test_profile_of (fixture.job, SMPROF_PROFILER_CPROFILE, &first_steps);
  smprof_function_table_set_step_stats (table, NULL);
  smprof_function_table_set_profile (table, part);
  stats = stats_of (part);
  g_assert_cmpuint (smprof_step_stats_get_n_steps (stats), <, 40);
  g_assert_cmpuint (smprof_step_stats_get_n_steps (stats), >, 1);
  smprof_function_table_set_step_stats (table, stats);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);

      if (g_hash_table_contains (before, item))
        reused++;
      g_assert_cmpuint (smprof_function_item_get_step_series (item)->len, ==, smprof_step_stats_get_n_steps (stats));
    }
  g_assert_cmpuint (reused, >, 0);
  check_rows_match_core (table, stats);
  g_test_message ("%u of %u rows reused for steps 0-4", reused, g_list_model_get_n_items (model));

  g_object_unref (table);
  fixture_clear (&fixture);
}

static void
check_sorted (GListModel *model,
              GtkSortType order)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 1; i < n; i++)
    {
      g_autoptr(SmprofFunctionItem) a = g_list_model_get_item (model, i - 1);
      g_autoptr(SmprofFunctionItem) b = g_list_model_get_item (model, i);

      if (order == GTK_SORT_DESCENDING)
        g_assert_cmpfloat (smprof_function_item_get_step_median (a), >=, smprof_function_item_get_step_median (b));
      else
        g_assert_cmpfloat (smprof_function_item_get_step_median (a), <=, smprof_function_item_get_step_median (b));
    }
}

static void
test_sort_by_median (void)
{
  Fixture fixture = { NULL, };
  SmprofFunctionTable *table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  SmprofStepStats *stats;
  GListModel *model;
  double largest = 0;
  g_autoptr(SmprofFunctionItem) top = NULL;
  g_autoptr(SmprofFunctionItem) spread_top = NULL;

  fixture_load (&fixture, "pt-cprofile", SMPROF_PROFILER_CPROFILE);
  smprof_function_table_set_profile (table, fixture.profile);
  stats = stats_of (fixture.profile);
  for (guint i = 0; i < smprof_step_stats_get_n_functions (stats); i++)
    largest = MAX (largest, smprof_step_stats_get_function (stats, i)->median);
  g_assert_cmpfloat (largest, >, 0);
  smprof_function_table_set_step_stats (table, stats);
  model = smprof_function_table_get_model (table);

  smprof_function_table_sort_by (table, "step-median", GTK_SORT_DESCENDING);
  check_sorted (model, GTK_SORT_DESCENDING);
  top = g_list_model_get_item (model, 0);
  g_assert_cmpfloat (smprof_function_item_get_step_median (top), ==, largest);

  smprof_function_table_sort_by (table, "step-median", GTK_SORT_ASCENDING);
  check_sorted (model, GTK_SORT_ASCENDING);

  /* the sparkline column: the largest max − median first */
  smprof_function_table_sort_by (table, "per-step", GTK_SORT_DESCENDING);
  spread_top = g_list_model_get_item (model, 0);
  for (guint i = 1; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);

      g_assert_cmpfloat (smprof_function_item_get_step_max (spread_top) - smprof_function_item_get_step_median (spread_top),
                         >=, smprof_function_item_get_step_max (item) - smprof_function_item_get_step_median (item));
    }

  g_object_unref (table);
  fixture_clear (&fixture);
}

static void
collect_sparklines (GtkWidget *widget,
                    GPtrArray *found)
{
  if (SMPROF_IS_SPARKLINE (widget))
    g_ptr_array_add (found, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_sparklines (child, found);
}

static GtkWidget *
find_toggle_button (GtkWidget *widget)
{
  if (GTK_IS_TOGGLE_BUTTON (widget))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_toggle_button (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_tooltip (GtkWidget  *widget,
              const char *text)
{
  const char *tooltip = gtk_widget_get_tooltip_text (widget);

  if (tooltip != NULL && strstr (tooltip, text) != NULL)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_tooltip (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Pixels drawn (not transparent), and their mean luminance. */
static guint
count_drawn (GdkTexture *texture,
             double     *luminance)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  double sum = 0;
  guint drawn = 0;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint32 pixel = ui_test_pixel (texture, x, y);

        /* cairo's premultiplied ARGB32 */
        if ((pixel >> 24) > 0x40)
          {
            double a = (pixel >> 24) / 255.0;

            sum += (0.2126 * ((pixel >> 16) & 0xff) + 0.7152 * ((pixel >> 8) & 0xff) + 0.0722 * (pixel & 0xff)) / 255.0 / a;
            drawn++;
          }
      }

  *luminance = drawn > 0 ? sum / drawn : 0;
  return drawn;
}

static guint
draw_and_count (SmprofSparkline *sparkline,
                double          *luminance)
{
  g_autoptr(GdkTexture) texture = NULL;

  ui_test_settle ();
  texture = ui_test_render (GTK_WIDGET (sparkline));
  return count_drawn (texture, luminance);
}

/* The largest value has a dot in the accent colour (blue in Adwaita), where
 * the line, in the text colour, is grey. */
static void
check_max_marked (SmprofSparkline *sparkline,
                  const double    *series,
                  guint            n)
{
  g_autoptr(GdkTexture) texture = ui_test_render (GTK_WIDGET (sparkline));
  int width = gtk_widget_get_width (GTK_WIDGET (sparkline));
  guint max = 0;
  int x;
  gboolean blue = FALSE;

  for (guint i = 1; i < n; i++)
    if (series[i] > series[max])
      max = i;
  x = (int) round (2 + max * (width - 4.0) / (n - 1));

  /* the dot: radius 2 around (x, 2), the top of the drawing */
  for (int dx = -1; dx <= 1; dx++)
    for (int y = 1; y <= 3; y++)
      {
        guint32 pixel;

        if (x + dx < 0 || x + dx >= width)
          continue;
        pixel = ui_test_pixel (texture, x + dx, y);
        if ((pixel >> 24) > 0x80 && (int) (pixel & 0xff) > (int) ((pixel >> 16) & 0xff) + 0x40)
          blue = TRUE;
      }
  g_assert_true (blue);
}

/* The sparkline alone: a value per step, drawn, said in words, in the text
 * colour of the light and the dark style. */
static void
test_sparkline (void)
{
  Fixture fixture = { NULL, };
  g_autoptr(SmprofStepStats) stats = NULL;
  GtkWidget *sparkline = smprof_sparkline_new ();
  GtkWidget *window;
  guint n_steps, n_values;
  g_autofree double *series = NULL;
  g_autofree char *description = NULL;
  g_autofree char *max_text = NULL;
  g_autofree char *of_steps = NULL;
  const double *values;
  double light, dark;
  guint drawn;
  GtkSettings *settings = gtk_settings_get_default ();

  fixture_load (&fixture, "pt-cprofile", SMPROF_PROFILER_CPROFILE);
  stats = stats_of (fixture.profile);
  n_steps = smprof_step_stats_get_n_steps (stats);
  series = g_new (double, n_steps);
  smprof_step_stats_get_series (stats, 0, series);

  values = smprof_sparkline_get_values (SMPROF_SPARKLINE (sparkline), &n_values);
  g_assert_null (values);
  g_assert_cmpuint (n_values, ==, 0);
  description = smprof_sparkline_dup_description (SMPROF_SPARKLINE (sparkline));
  g_assert_cmpstr (description, ==, "No steps");
  g_clear_pointer (&description, g_free);

  smprof_sparkline_set_values (SMPROF_SPARKLINE (sparkline), series, n_steps);
  values = smprof_sparkline_get_values (SMPROF_SPARKLINE (sparkline), &n_values);
  g_assert_cmpuint (n_values, ==, n_steps);
  g_assert_cmpmem (values, n_values * sizeof (double), series, n_steps * sizeof (double));

  description = smprof_sparkline_dup_description (SMPROF_SPARKLINE (sparkline));
  max_text = smprof_ui_format_seconds (smprof_step_stats_get_function (stats, 0)->max);
  g_assert_nonnull (strstr (description, max_text));
  of_steps = g_strdup_printf ("of %u", n_steps);
  g_assert_true (g_str_has_suffix (description, of_steps));
  g_test_message ("sparkline: %s", description);

  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  window = ui_test_present (sparkline, 200, 40);
  drawn = draw_and_count (SMPROF_SPARKLINE (sparkline), &light);
  g_assert_cmpuint (drawn, >, 50);
  check_max_marked (SMPROF_SPARKLINE (sparkline), series, n_steps);

  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  g_assert_cmpuint (draw_and_count (SMPROF_SPARKLINE (sparkline), &dark), >, 50);
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  g_test_message ("sparkline: %u pixels drawn, luminance %.2f light, %.2f dark", drawn, light, dark);
  g_assert_cmpfloat (dark, >, light + 0.2);

  gtk_window_destroy (GTK_WINDOW (window));
  fixture_clear (&fixture);
}

/* The table shown: sparklines in the rows with their row's series, and the
 * rule of steps on the headers. */
static void
test_table_shown (void)
{
  Fixture fixture = { NULL, };
  SmprofFunctionTable *table;
  GtkWidget *window;
  SmprofStepStats *stats;
  g_autoptr(GPtrArray) sparklines = g_ptr_array_new ();
  g_autoptr(GHashTable) row_series = g_hash_table_new (NULL, NULL);
  GListModel *model;
  g_autoptr(GdkTexture) texture = NULL;
  GtkWidget *header;
  guint n_steps, with_series = 0;
  double luminance;
  GtkWidget *shown = NULL;
  GtkWidget *button;

  fixture_load (&fixture, "pt-cprofile", SMPROF_PROFILER_CPROFILE);
  table = SMPROF_FUNCTION_TABLE (smprof_function_table_new ());
  window = ui_test_present (GTK_WIDGET (table), 1400, 700);
  smprof_function_table_set_profile (table, fixture.profile);
  stats = stats_of (fixture.profile);
  n_steps = smprof_step_stats_get_n_steps (stats);
  smprof_function_table_set_step_stats (table, stats);
  smprof_function_table_sort_by (table, "step-median", GTK_SORT_DESCENDING);
  ui_test_settle ();

  /* Hidden at first, nothing of them drawn; the Per Step button shows them. */
  g_assert_false (smprof_function_table_get_show_step_columns (table));
  collect_sparklines (GTK_WIDGET (table), sparklines);
  for (guint i = 0; i < sparklines->len; i++)
    g_assert_false (gtk_widget_is_drawable (g_ptr_array_index (sparklines, i)));
  g_ptr_array_set_size (sparklines, 0);
  button = find_toggle_button (GTK_WIDGET (table));
  g_assert_nonnull (button);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
  /* a keyboard activation clicks after a moment */
  g_assert_true (gtk_widget_activate (button));
  ui_test_settle ();
  ui_test_settle ();
  g_assert_true (smprof_function_table_get_show_step_columns (table));

  model = smprof_function_table_get_model (table);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);

      g_hash_table_add (row_series, smprof_function_item_get_step_series (item));
    }

  collect_sparklines (GTK_WIDGET (table), sparklines);
  g_assert_cmpuint (sparklines->len, >, 0);
  for (guint i = 0; i < sparklines->len; i++)
    {
      SmprofSparkline *sparkline = g_ptr_array_index (sparklines, i);
      guint n;

      smprof_sparkline_get_values (sparkline, &n);
      if (n == 0)
        continue;
      g_assert_cmpuint (n, ==, n_steps);
      /* a row's own series, bound from the row */
      g_assert_true (g_hash_table_contains (row_series, smprof_sparkline_get_series (sparkline)));
      with_series++;
      if (shown == NULL && gtk_widget_get_mapped (GTK_WIDGET (sparkline)) &&
          gtk_widget_get_width (GTK_WIDGET (sparkline)) > 0)
        shown = GTK_WIDGET (sparkline);
    }
  g_assert_cmpuint (with_series, >, 0);

  g_assert_nonnull (shown);

  /* For the report: another selection's steps on the shown rows, in place. */
  {
    SmprofStepStats *again = stats_of (fixture.profile);
    gint64 start = g_get_monotonic_time ();

    gint64 cleared;

    smprof_function_table_set_step_stats (table, NULL);
    cleared = g_get_monotonic_time ();
    smprof_function_table_set_step_stats (table, again);
    g_test_message ("shown table, %u rows x %u steps: cleared in %.2f ms, set again in %.2f ms",
                    g_list_model_get_n_items (model), n_steps, (cleared - start) / 1000.0,
                    (g_get_monotonic_time () - cleared) / 1000.0);
    ui_test_settle ();
  }

  texture = ui_test_render (shown);
  g_assert_cmpuint (count_drawn (texture, &luminance), >, 0);

  header = find_tooltip (GTK_WIDGET (table), "A step is");
  g_assert_nonnull (header);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (header), "Steps where the function did not run count as 0"));

  g_clear_object (&texture);
  texture = ui_test_render (GTK_WIDGET (table));
  ui_test_save (texture, "function-table-steps.png");

  /* and hides them again */
  g_assert_true (gtk_widget_activate (button));
  ui_test_settle ();
  ui_test_settle ();
  g_assert_false (smprof_function_table_get_show_step_columns (table));
  g_ptr_array_set_size (sparklines, 0);
  collect_sparklines (GTK_WIDGET (table), sparklines);
  for (guint i = 0; i < sparklines->len; i++)
    g_assert_false (gtk_widget_is_drawable (g_ptr_array_index (sparklines, i)));

  gtk_window_destroy (GTK_WINDOW (window));
  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------------ */
/* The job page                                                             */

static gboolean
wait_for_steps (SmprofJobPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_main_context_iteration (NULL, FALSE);
  while (smprof_job_page_get_busy (page) || smprof_job_page_get_profile (page) == NULL ||
         smprof_function_table_get_step_stats (page->function_table) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return TRUE;
}

static gboolean
wait_for_idle (SmprofJobPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (smprof_job_page_get_busy (page) || smprof_job_page_get_profile (page) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  /* a worker started by the answer would have been queued by now */
  ui_test_settle ();

  return TRUE;
}

static gboolean
wait_for_index (SmprofJobPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (smprof_session_get_range_index (page->session) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return TRUE;
}

/* The table's steps are those of the page's selected records, no more, no less. */
static void
check_page_steps (SmprofJobPage *page)
{
  GPtrArray *selected = smprof_job_page_get_selected_records (page);
  SmprofStepStats *shown = smprof_function_table_get_step_stats (page->function_table);
  g_auto(GStrv) node_ids = smprof_records_dup_node_ids (selected);
  g_autoptr(SmprofStepStats) expected = smprof_step_stats_new (smprof_job_page_get_job (page),
                                                               smprof_job_page_get_profiler (page),
                                                               (const char * const *) node_ids, selected);
  g_autoptr(GHashTable) in_selection = g_hash_table_new (NULL, NULL);
  guint n_step_records = 0, in_steps = 0;

  g_assert_nonnull (shown);
  g_assert_cmpuint (smprof_step_stats_get_n_steps (shown), ==, smprof_step_stats_get_n_steps (expected));
  g_assert_cmpuint (smprof_step_stats_get_n_functions (shown), ==, smprof_step_stats_get_n_functions (expected));
  for (guint i = 0; i < smprof_step_stats_get_n_functions (shown); i++)
    g_assert_cmpmem (smprof_step_stats_get_function (shown, i), sizeof (SmprofStepFunction),
                     smprof_step_stats_get_function (expected, i), sizeof (SmprofStepFunction));

  for (guint i = 0; i < selected->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (selected, i);

      g_hash_table_add (in_selection, (gpointer) record);
      /* smprof-step-stats.h's rule: a step of a training mode, readable, not
       * running into post-hook-close (the default SmprofStepRule) */
      if (record->name.start_step >= 0 && record->name.start_step != SMPROF_STEP_INFINITY &&
          (record->name.start_mode == SMPROF_MODE_TRAIN || record->name.start_mode == SMPROF_MODE_EVAL ||
           record->name.start_mode == SMPROF_MODE_PREDICT || record->name.start_mode == SMPROF_MODE_GLOBAL) &&
          record->name.end_mode != SMPROF_MODE_POST_HOOK_CLOSE &&
          (record->pstats != NULL || record->session != NULL))
        in_steps++;
    }
  for (guint s = 0; s < smprof_step_stats_get_n_steps (shown); s++)
    {
      GPtrArray *records = smprof_step_stats_get_step_records (shown, s);

      for (guint r = 0; r < records->len; r++)
        g_assert_true (g_hash_table_contains (in_selection, g_ptr_array_index (records, r)));
      n_step_records += records->len;
    }
  /* every selected interval of a step is in a step */
  g_assert_cmpuint (n_step_records, ==, in_steps);

  check_rows_match_core (page->function_table, shown);
}

static void
check_no_steps (SmprofFunctionTable *table)
{
  GListModel *model = smprof_function_table_get_model (table);

  g_assert_cmpuint (g_list_model_get_n_items (model), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);
      g_autofree char *text = item_text (item, "step-median-text");

      g_assert_false (smprof_function_item_has_steps (item));
      g_assert_cmpstr (text, ==, "—");
    }
}

static void
test_job_page (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  SmprofSelection range = { .kind = SMPROF_SELECT_OVERLAP };
  const SmprofRecord *from, *to;
  SmprofStepStats *whole;
  SmprofJobPage *page;
  GtkWidget *window;
  guint whole_steps;

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1400, 900);
  /* Hidden columns cost nothing: no figures until the Per Step button. */
  g_assert_true (wait_for_idle (page));
  g_assert_null (smprof_function_table_get_step_stats (page->function_table));
  g_assert_null (smprof_session_get_step_stats (page->session));
  g_assert_false (smprof_session_get_want_step_stats (page->session));
  smprof_function_table_set_show_step_columns (page->function_table, TRUE);
  g_assert_true (wait_for_steps (page));
  /* held, so that its address cannot come back as the next statistics' */
  whole = smprof_step_stats_ref (smprof_function_table_get_step_stats (page->function_table));
  whole_steps = smprof_step_stats_get_n_steps (whole);
  check_page_steps (page);

  /* A dragged range, once the range index sums ranges: its answer reads no
   * file, the steps' worker reads what it needs. */
  g_assert_true (wait_for_index (page));
  g_assert_cmpuint (records->len, >, 20);
  from = g_ptr_array_index (records, 4);
  to = g_ptr_array_index (records, 15);
  range.start_us = from->name.start_time_us;
  range.end_us = to->name.start_time_us;
  smprof_job_page_set_selection (page, &range);
  /* the old steps go at once with the new answer */
  g_assert_true (wait_for_steps (page));
  g_assert_true (smprof_function_table_get_step_stats (page->function_table) != whole);
  g_assert_true (smprof_session_get_from_range_index (page->session));
  check_page_steps (page);
  g_assert_cmpuint (smprof_step_stats_get_n_steps (smprof_function_table_get_step_stats (page->function_table)), <,
                    whole_steps);
  g_test_message ("whole job %u steps; range of %u intervals, %u steps", whole_steps,
                  smprof_job_page_get_selected_records (page)->len,
                  smprof_step_stats_get_n_steps (smprof_function_table_get_step_stats (page->function_table)));

  /* Two ranges in a row: the first one's steps, if computed, are dropped. */
  range.end_us = ((const SmprofRecord *) g_ptr_array_index (records, 9))->name.start_time_us;
  smprof_job_page_set_selection (page, &range);
  g_main_context_iteration (NULL, FALSE);
  range.end_us = to->name.start_time_us;
  range.start_us = ((const SmprofRecord *) g_ptr_array_index (records, 2))->name.start_time_us;
  smprof_job_page_set_selection (page, &range);
  g_assert_true (wait_for_steps (page));
  check_page_steps (page);

  /* Before step 0: intervals of no step, "—" everywhere. */
  smprof_job_page_set_preset (page, SMPROF_PRESET_INITIALIZATION);
  g_assert_true (wait_for_steps (page));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, >, 0);
  g_assert_cmpuint (smprof_step_stats_get_n_steps (smprof_function_table_get_step_stats (page->function_table)), ==, 0);
  check_no_steps (page->function_table);

  smprof_step_stats_unref (whole);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/function-table-steps/columns/cprofile", test_columns_cprofile);
  g_test_add_func ("/function-table-steps/columns/pyinstrument", test_columns_pyinstrument);
  g_test_add_func ("/function-table-steps/rows-reused", test_rows_reused);
  g_test_add_func ("/function-table-steps/sort-by-median", test_sort_by_median);
  g_test_add_func ("/function-table-steps/sparkline", test_sparkline);
  g_test_add_func ("/function-table-steps/table-shown", test_table_shown);
  g_test_add_func ("/function-table-steps/job-page", test_job_page);

  return g_test_run ();
}
