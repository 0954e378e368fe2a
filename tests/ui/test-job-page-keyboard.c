/* test-job-page-keyboard.c: the job page's keys and the bugs found by using
 * it, each with real X key presses (xdotool) in a viewer window
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * - Tab moves through the presets without applying them; Enter applies.
 * - F8 and Shift+F8 reach the page with the focus in a pane (GtkPaned binds
 *   F8 itself).
 * - The Steps preset works for jobs whose steps are GLOBAL (most PyTorch
 *   jobs), with the command line's answer.
 * - A step number typed, then Alt+7 in the field or left with Tab, is
 *   applied.
 * - The function table, sorted by a per-step column, stays sorted when the
 *   selection's time per step arrives and updates its rows in place.
 */

#include <json-glib/json-glib.h>
#include <smprof-viewer-api.h>

#include "smprof-cprofile-profile.h"
#include "smprof-function-item.h"
#include "smprof-item-cell.h"
#include "smprof-job-page-private.h"
#include "smprof-number-label.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-outliers.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "page-test-util.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

static SmvSourceRegistry *registry;

static SmvWindow *
open_job_at (const char     *path,
             SmprofJobPage **page)
{
  SmvWindow *window = window_test_open_job (registry, path, 1280, 800, page);

  ui_test_settle ();
  return window;
}

static SmvWindow *
open_job (const char     *name,
          SmprofJobPage **page)
{
  g_autofree char *path = window_test_real_job (name);

  return open_job_at (path, page);
}

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static gboolean
counted (gpointer data)
{
  return *(guint *) data > 0;
}

/* ------------------------------------------------------------------------ */
/* Presets: Tab moves, Enter applies                                        */

static void
test_presets_tab_enter (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *focus;
  double origin;
  guint n_changes = 0;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);

  /* A dragged range: what Tab must not throw away. */
  origin = smprof_timeline_layout_get_origin_us (smprof_timeline_get_layout (page->timeline));
  smprof_timeline_set_align_by_step (page->timeline, FALSE);
  smprof_timeline_select_time_range (page->timeline, origin + 5.5e6, origin + 6.5e6);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_NONE);

  g_signal_connect (page, "selection-changed", G_CALLBACK (count_cb), &n_changes);
  gtk_widget_grab_focus (GTK_WIDGET (page->whole_job_row));
  ui_test_settle ();
  ui_test_x_keys (GTK_WIDGET (window), "Tab Tab Down");
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_test_message ("focus after Tab Tab Down: %s", gtk_widget_get_name (focus));
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (page->presets_list)));
  g_assert_false (focus == GTK_WIDGET (page->whole_job_row));

  /* The focus moved; nothing was applied. */
  g_assert_cmpuint (n_changes, ==, 0);
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_NONE);
  g_assert_cmpint (smprof_job_page_get_selection (page)->kind, ==, SMPROF_SELECT_OVERLAP);

  /* Enter applies the focused row's preset, once. */
  ui_test_x_keys (GTK_WIDGET (window), "Return");
  g_assert_true (viewer_test_wait (counted, &n_changes, 5000));
  ui_test_settle ();
  g_assert_cmpuint (n_changes, ==, 1);
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_FINALIZATION);
  g_assert_cmpstr (gtk_widget_get_name (focus), ==, "finalization");
  g_assert_true (gtk_widget_get_state_flags (focus) & GTK_STATE_FLAG_SELECTED);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));

  g_signal_handlers_disconnect_by_func (page, count_cb, &n_changes);
  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* F8 with the focus in a pane                                              */

static gboolean
has_outliers (gpointer data)
{
  SmprofJobPage *page = data;

  return smprof_timeline_get_n_outliers (page->timeline) > 0;
}

/* The Compare view is offered while a comparison is open. */
static gboolean
comparing (SmprofJobPage *page)
{
  GtkWidget *view = gtk_stack_get_child_by_name (page->views_stack, "compare");

  return view != NULL && gtk_stack_page_get_visible (gtk_stack_get_page (page->views_stack, view));
}

static void
test_f8_in_panes (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *list;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job_at (path, &page);

  g_assert_true (viewer_test_wait (has_outliers, page, 60000));

  /* The focus in the Functions table: inside the page's panes and the
   * table's own. */
  list = viewer_test_find (GTK_WIDGET (page->function_table), "function-list");
  gtk_widget_grab_focus (list);
  ui_test_settle ();
  g_assert_nonnull (gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_TYPE_PANED));

  g_assert_false (comparing (page));
  ui_test_x_keys (GTK_WIDGET (window), "F8");
  g_assert_true (comparing (page));

  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.close-compare", NULL);
  g_assert_false (comparing (page));
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  gtk_widget_grab_focus (list);
  ui_test_settle ();
  ui_test_x_keys (GTK_WIDGET (window), "shift+F8");
  g_assert_true (comparing (page));

  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* Steps of a GLOBAL job                                                    */

static JsonObject *
cli_stats (const char * const *args)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status;

  g_assert_nonnull (smprof);
  g_strv_builder_add_many (builder, smprof, "stats", NULL);
  g_strv_builder_addv (builder, (const char **) args);
  g_strv_builder_add (builder, "--json");
  argv = g_strv_builder_end (builder);
  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
test_global_steps (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);
  SmprofJobPage *page;
  SmvWindow *window;
  g_autoptr(JsonObject) cli = NULL;
  SmprofCprofileProfile *shown;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job_at (path, &page);

  /* Offered, over the job's global steps. */
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (page->steps_row)));
  g_assert_cmpfloat (gtk_adjustment_get_lower (page->first_step_adjustment), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_upper (page->last_step_adjustment), >=, 10);

  /* Alt+7: steps 0 to the last, as smdebug's by-step query in GLOBAL mode. */
  ui_test_x_keys (GTK_WIDGET (window), "alt+7");
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_STEPS);
  g_assert_cmpint (smprof_job_page_get_selection (page)->mode, ==, SMPROF_MODE_GLOBAL);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));

  smprof_job_page_set_step_range (page, 4, 6);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, >, 0);
  cli = cli_stats ((const char *[]) { path, "--step", "4", "--end-step", "6", "--mode", "global", "--node", "all", NULL });
  shown = smprof_profile_get_cprofile (smprof_job_page_get_profile (page));
  g_assert_cmpint (json_object_get_int_member (cli, "total_calls"), ==,
                   smprof_cprofile_profile_get_total_calls (shown));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cli, "total_time"),
                                  smprof_cprofile_profile_get_total_tt (shown), 1e-9);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (cli, "intervals")), ==,
                    smprof_profile_get_records (smprof_job_page_get_profile (page))->len);

  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* A step number typed and left with Tab, or applied with Alt+7 at once     */

static void
test_step_typed_then_tab (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);

  /* Typed, then Alt+7 with the focus still in the field: the number shown
   * is the one used. */
  gtk_widget_grab_focus (GTK_WIDGET (page->first_step_spin));
  ui_test_settle ();
  ui_test_x_keys (GTK_WIDGET (window), "ctrl+a");
  ui_test_x_type (GTK_WIDGET (window), "2");
  ui_test_x_keys (GTK_WIDGET (window), "alt+7");
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_STEPS);
  g_assert_cmpint (smprof_job_page_get_selection (page)->start_step, ==, 2);

  /* Typed and left with Tab. */
  smprof_job_page_set_preset (page, SMPROF_PRESET_WHOLE_JOB);
  gtk_widget_grab_focus (GTK_WIDGET (page->first_step_spin));
  ui_test_settle ();
  ui_test_x_keys (GTK_WIDGET (window), "ctrl+a");
  ui_test_x_type (GTK_WIDGET (window), "3");
  ui_test_x_keys (GTK_WIDGET (window), "Tab");

  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_STEPS);
  g_assert_cmpint (smprof_job_page_get_selection (page)->start_step, ==, 3);

  /* The next Alt+7 uses it. */
  smprof_job_page_set_preset (page, SMPROF_PRESET_WHOLE_JOB);
  ui_test_x_keys (GTK_WIDGET (window), "alt+7");
  g_assert_cmpint (smprof_job_page_get_selection (page)->start_step, ==, 3);

  window_test_close (window);
}

/* ------------------------------------------------------------------------ */
/* Functions updated in place stay sorted                                   */

/* The column's value of the row at @position (a property of the item). */
static double
item_value (GListModel *model,
            guint       position,
            const char *property)
{
  g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, position);
  double value;

  g_object_get (item, property, &value, NULL);

  return value;
}

static void
check_sorted_by (SmprofFunctionTable *table,
                 const char          *property)
{
  GListModel *model = smprof_function_table_get_model (table);
  guint n = g_list_model_get_n_items (model);

  g_assert_cmpuint (n, >, 10);
  for (guint i = 1; i < n; i++)
    if (item_value (model, i - 1, property) < item_value (model, i, property))
      g_error ("row %u (%.6f s) above row %u (%.6f s): not sorted by %s", i - 1,
               item_value (model, i - 1, property), i, item_value (model, i, property), property);
}

static void
collect_in_row (GtkWidget  *widget,
                GObject   **item,
                GPtrArray  *numbers)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (SMPROF_IS_ITEM_CELL (child))
        *item = smprof_item_cell_get_item (SMPROF_ITEM_CELL (child));
      else if (SMPROF_IS_NUMBER_LABEL (child))
        g_ptr_array_add (numbers, child);
      collect_in_row (child, item, numbers);
    }
}

/* What a person reads in the table: every row drawn shows its own
 * function's figures in every column (the cells follow their row's values
 * when a new answer updates it, and another function's when they are given
 * one), and the rows drawn follow the sorted model, one after the other. */
static void
check_cells_show_rows (SmprofFunctionTable *table)
{
  static const char * const shown[] = {
    "ncalls-text", "tottime-text", "tottime-percall-text", "cumtime-text", "cumtime-percall-text",
    "step-count-text", "step-min-text", "step-median-text", "step-p95-text", "step-max-text",
  };
  GListModel *model = smprof_function_table_get_model (table);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  guint checked = 0;
  guint last_position = G_MAXUINT;

  ui_test_collect_rows (GTK_WIDGET (table), rows);
  for (guint r = 0; r < rows->len; r++)
    {
      g_autoptr(GPtrArray) numbers = g_ptr_array_new ();
      GObject *item = NULL;
      guint position = G_MAXUINT;

      collect_in_row (g_ptr_array_index (rows, r), &item, numbers);
      /* the callers' and callees' rows have four columns */
      if (item == NULL || numbers->len != G_N_ELEMENTS (shown))
        continue;

      for (guint i = 0; i < g_list_model_get_n_items (model) && position == G_MAXUINT; i++)
        {
          g_autoptr(GObject) at = g_list_model_get_item (model, i);

          if (at == item)
            position = i;
        }
      g_assert_cmpuint (position, !=, G_MAXUINT);
      if (last_position != G_MAXUINT)
        g_assert_cmpuint (position, ==, last_position + 1);
      last_position = position;

      for (guint c = 0; c < G_N_ELEMENTS (shown); c++)
        {
          g_autofree char *text = NULL;

          g_object_get (item, shown[c], &text, NULL);
          g_assert_cmpstr (smprof_number_label_get_text (g_ptr_array_index (numbers, c)), ==, text);
        }
      checked++;
    }

  g_test_message ("%u rows read", checked);
  g_assert_cmpuint (checked, >=, 10);
}

/* The selection's time per step has reached the table. */
static gboolean
table_has_step_stats (gpointer data)
{
  SmprofJobPage *page = data;

  return window_test_page_ready (page) && smprof_session_get_step_stats (page->session) != NULL &&
         smprof_function_table_get_step_stats (page->function_table) == smprof_session_get_step_stats (page->session);
}

static void
test_functions_resort (void)
{
  static const char * const columns[][2] = {
    { "cumtime", "cumtime" },
    /* Max/Step arrives after the rows, from another worker, and is set in
     * the rows in place. */
    { "step-max", "step-max" },
  };
  SmprofJobPage *page;
  SmvWindow *window;
  double origin;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  origin = smprof_timeline_layout_get_origin_us (smprof_timeline_get_layout (page->timeline));
  smprof_function_table_set_show_step_columns (page->function_table, TRUE);

  page_test_press_shortcut (GTK_WIDGET (page), "<Control>1");
  ui_test_settle ();
  smprof_timeline_set_align_by_step (page->timeline, FALSE);

  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      smprof_function_table_sort_by (page->function_table, columns[c][0], GTK_SORT_DESCENDING);
      g_assert_true (viewer_test_wait (table_has_step_stats, page, 30000));
      check_sorted_by (page->function_table, columns[c][1]);

      /* Drags: each answer of the same job updates the rows in place. */
      for (guint i = 0; i < 3; i++)
        {
          smprof_timeline_select_time_range (page->timeline, origin + (5.2 + 1.1 * i) * 1e6,
                                             origin + (5.6 + 1.9 * i) * 1e6);
          g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
          g_assert_true (viewer_test_wait (table_has_step_stats, page, 30000));
          ui_test_settle ();
          check_sorted_by (page->function_table, columns[c][1]);
          check_cells_show_rows (page->function_table);
        }
    }

  window_test_close (window);
}

/* ------------------------------------------------------------------------ */

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/keyboard/presets-tab-enter", test_presets_tab_enter);
  g_test_add_func ("/keyboard/f8-in-panes", test_f8_in_panes);
  g_test_add_func ("/keyboard/global-steps", test_global_steps);
  g_test_add_func ("/keyboard/step-typed-then-tab", test_step_typed_then_tab);
  g_test_add_func ("/keyboard/functions-resort", test_functions_resort);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
