/* test-job-page-nodes.c: the job page's Node Matrix view
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job page under Xvfb on tests/data/corpus-outliers-cprofile, whose
 * manifest names a straggler node: the Node Matrix page shows the page's
 * whole-job step statistics (Ctrl+4 brings it up); activating a node's row
 * opens, per step, the comparison of every other node's steps (A) with that
 * node's (B), whose per-step totals equal the statistics' own; activating a
 * cell does the same and filters the comparison's table to the function.
 */

#include <string.h>

#include <json-glib/json-glib.h>

#include "core-test-util.h"
#include "page-test-util.h"
#include "smprof-compare-view.h"
#include "smprof-diff-item.h"
#include "smprof-job-page-private.h"
#include "smprof-ui-format.h"
#include "ui-test-util.h"

typedef struct
{
  SmprofJob     *job;
  GtkWidget     *window;
  SmprofJobPage *page;
  char          *straggler;   /* the manifest's straggler node */
} Fixture;

static char *
read_straggler (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "corpus-manifest.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *list;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  list = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "planted_outliers");
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *outlier = json_array_get_object_element (list, i);

      if (g_strcmp0 (json_object_get_string_member (outlier, "type"), "straggler") == 0)
        return g_strdup (json_array_get_string_element (json_object_get_array_member (outlier, "nodes"), 0));
    }

  g_assert_not_reached ();
}

static gboolean
wait_for (gboolean (*done) (Fixture *), Fixture *fixture)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (!done (fixture))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return TRUE;
}

static gboolean
page_ready (Fixture *fixture)
{
  return smprof_session_get_job_step_stats (fixture->page->session) != NULL &&
         !smprof_job_page_get_busy (fixture->page) && smprof_job_page_get_profile (fixture->page) != NULL;
}

static gboolean
has_diff (Fixture *fixture)
{
  return smprof_session_get_diff (fixture->page->session) != NULL && !smprof_job_page_get_busy (fixture->page);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);

  fixture->straggler = read_straggler (path);
  fixture->job = core_test_load_job_at (path);
  fixture->page = SMPROF_JOB_PAGE (smprof_job_page_new (fixture->job));
  fixture->window = ui_test_present (GTK_WIDGET (fixture->page), 1400, 900);
  g_assert_true (wait_for (page_ready, fixture));
  ui_test_settle ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->job);
  g_clear_pointer (&fixture->straggler, g_free);
}

static SmprofNodeMatrix *
get_matrix (Fixture *fixture)
{
  return smprof_node_matrix_view_get_matrix (fixture->page->node_matrix_view);
}

/* The matrix shows the session's statistics, its columns computed. */
static gboolean
matrix_ready (Fixture *fixture)
{
  SmprofNodeMatrix *matrix = get_matrix (fixture);

  return smprof_node_matrix_get_step_stats (matrix) != NULL && smprof_node_matrix_get_n_nodes (matrix) > 0;
}

/* The steps' intervals of @node_id, or of every other node. */
static GPtrArray *
step_records (SmprofStepStats *stats,
              const char      *node_id,
              gboolean         others)
{
  GPtrArray *records = g_ptr_array_new ();

  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);

      if ((strcmp (step->node_id, node_id) != 0) != others)
        continue;
      for (guint k = 0; k < smprof_step_stats_get_step_records (stats, i)->len; k++)
        g_ptr_array_add (records, g_ptr_array_index (smprof_step_stats_get_step_records (stats, i), k));
    }

  return records;
}

/* The mean total time of a side's steps, from the statistics. */
static double
mean_step_time (SmprofStepStats *stats,
                const char      *node_id,
                gboolean         others)
{
  double sum = 0;
  guint n = 0;

  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);

      if ((strcmp (step->node_id, node_id) != 0) != others)
        continue;
      sum += step->total_time;
      n++;
    }
  g_assert_cmpuint (n, >, 0);

  return sum / n;
}

static void
check_node_comparison (Fixture    *fixture,
                       const char *node_id)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  g_autoptr(GPtrArray) others = step_records (stats, node_id, TRUE);
  g_autoptr(GPtrArray) mine = step_records (stats, node_id, FALSE);
  GtkWidget *compare_view = _smprof_job_page_get_compare_view (fixture->page);
  SmprofDiff *diff;

  g_assert_true (wait_for (has_diff, fixture));
  diff = smprof_session_get_diff (fixture->page->session);

  g_assert_cmpint (smprof_diff_get_normalize (diff), ==, SMPROF_DIFF_NORMALIZE_STEP);
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_A)),
                                         others));
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_B)),
                                         mine));
  g_assert_nonnull (strstr (smprof_session_get_compare_label (fixture->page->session, SMPROF_DIFF_B), node_id));
  g_assert_true (g_str_has_prefix (smprof_session_get_compare_label (fixture->page->session, SMPROF_DIFF_A), "The other node"));

  /* Per step, each side's total is the mean of its steps' totals. */
  g_assert_cmpfloat_with_epsilon (smprof_diff_get_total_time (diff, SMPROF_DIFF_B),
                                  mean_step_time (stats, node_id, FALSE), 1e-9);
  g_assert_cmpfloat_with_epsilon (smprof_diff_get_total_time (diff, SMPROF_DIFF_A),
                                  mean_step_time (stats, node_id, TRUE), 1e-9);

  g_assert_true (gtk_widget_get_visible (compare_view));
  g_assert_true (gtk_stack_get_visible_child (fixture->page->views_stack) == compare_view);
}

/* The matrix shows the page's statistics, and Ctrl+4 shows the matrix. */
static void
test_shown (Fixture       *fixture,
            gconstpointer  data)
{
  SmprofNodeMatrix *matrix = get_matrix (fixture);
  g_autoptr(GdkTexture) matrix_texture = NULL;
  g_autoptr(GdkTexture) window_texture = NULL;

  /* A hidden matrix does no work: its statistics come when it shows. */
  g_assert_nonnull (smprof_session_get_job_step_stats (fixture->page->session));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fixture->page->views_stack), !=, "node-matrix");
  g_assert_null (smprof_node_matrix_get_step_stats (matrix));
  page_test_press_shortcut (GTK_WIDGET (fixture->page), "<Control>4");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fixture->page->views_stack), ==, "node-matrix");

  g_assert_true (wait_for (matrix_ready, fixture));
  g_assert_true (smprof_node_matrix_get_step_stats (matrix) == smprof_session_get_job_step_stats (fixture->page->session));
  g_assert_cmpuint (smprof_node_matrix_get_n_nodes (matrix), ==,
                    g_strv_length ((char **) smprof_step_stats_get_node_ids (smprof_node_matrix_get_step_stats (matrix))));
  g_assert_cmpuint (smprof_node_matrix_get_n_nodes (matrix), ==, 2);

  /* The matrix drew something: more than the page's few flat colours. */
  ui_test_settle ();
  matrix_texture = ui_test_render (GTK_WIDGET (fixture->page->node_matrix_view));
  g_assert_cmpuint (ui_test_count_colors (matrix_texture), >, 20);
  window_texture = ui_test_render (fixture->window);
  ui_test_save (window_texture, "job-page-node-matrix.png");

  /* Ctrl+5 names the comparison, which is not open: nothing changes. */
  page_test_press_shortcut (GTK_WIDGET (fixture->page), "<Control>5");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fixture->page->views_stack), ==, "node-matrix");
}

/* A node's row: that node against the others, per step. */
static void
test_node_activated (Fixture       *fixture,
                     gconstpointer  data)
{
  g_signal_emit_by_name (get_matrix (fixture), "node-activated", fixture->straggler);
  check_node_comparison (fixture, fixture->straggler);

  /* The straggler's steps take longer than the others' on average. */
  g_assert_cmpfloat (smprof_diff_get_total_time (smprof_session_get_diff (fixture->page->session), SMPROF_DIFF_B), >,
                     smprof_diff_get_total_time (smprof_session_get_diff (fixture->page->session), SMPROF_DIFF_A));
}

/* A cell: the same comparison, its table filtered to the cell's function. */
static void
test_cell_activated (Fixture       *fixture,
                     gconstpointer  data)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  g_autoptr(GArray) top = smprof_step_stats_top_functions (stats, 1);
  guint32 func = smprof_step_stats_get_function (stats, g_array_index (top, guint, 0))->func;
  g_autofree char *name = smprof_ui_dup_func_name (smprof_job_get_function_keys (fixture->job), func);
  SmprofCompareView *view = SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (fixture->page));
  GListModel *rows;
  guint found = 0;

  g_signal_emit_by_name (get_matrix (fixture), "cell-activated", fixture->straggler, (guint) func);
  check_node_comparison (fixture, fixture->straggler);

  rows = smprof_diff_table_get_model (smprof_compare_view_get_table (view));
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 1);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SmprofDiffItem) item = g_list_model_get_item (rows, i);

      g_assert_nonnull (strstr (smprof_diff_item_get_label (item), name));
      found += smprof_diff_item_get_func (item) == func;
    }
  g_assert_cmpuint (found, ==, 1);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/job-page-nodes/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("shown", test_shown);
  ADD ("node-activated", test_node_activated);
  ADD ("cell-activated", test_cell_activated);
#undef ADD

  return g_test_run ();
}
