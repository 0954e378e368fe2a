/* test-job-page-compare.c: comparing two selections on the job page
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page on tf-cprofile under Xvfb: train steps 0–4 of one node as A
 * (job-page.compare), steps 5–9 as B; the diff table is compared with
 * `smprof diff … --format json` ($SMPROF_CLI) on the same question, the
 * normalisation with the CLI's step counts, the differential flame graph's
 * pixels with the diff's frames; closing hides the page; a comparison of two
 * explicit record sets (_smprof_job_page_compare_records()); the diff
 * table's sorting by its headers.
 */

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "smprof-compare-view.h"
#include "smprof-diff-export.h"
#include "smprof-diff-item.h"
#include "smprof-flame-graph-private.h"
#include "smprof-job-page-private.h"
#include "smprof-timeline-private.h"
#include "core-test-util.h"
#include "page-test-util.h"
#include "ui-test-util.h"

#define NODE "25644-algo-1"

static gboolean
wait_idle (SmprofJobPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_main_context_iteration (NULL, FALSE);
  while (smprof_job_page_get_busy (page) || smprof_job_page_get_profile (page) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return TRUE;
}

/* Waits for a diff other than @old. */
static SmprofDiff *
wait_diff (SmprofJobPage *page,
           SmprofDiff    *old)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (smprof_session_get_diff (page->session) == NULL || smprof_session_get_diff (page->session) == old)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return smprof_session_get_diff (page->session);
}

static JsonObject *
cli_diff (const char *job_path,
          const char *a,
          const char *b,
          const char *normalize)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status;

  g_assert_nonnull (smprof);
  g_assert_true (g_spawn_sync (NULL,
                               (char **) (const char *[]) { smprof, "diff", job_path, "--a", a, "--b", b,
                                                            "--node", NODE, "--normalize", normalize,
                                                            "--format", "json", "-o", "-", NULL },
                               NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char *
function_key (SmprofFunctionKeys *table,
              guint32             func)
{
  return g_strdup_printf ("%s:%" G_GINT64_FORMAT ":%s", smprof_function_keys_get_file (table, func),
                          smprof_function_keys_get_line (table, func), smprof_function_keys_get_name (table, func));
}

/* Every row of the table is a function of the CLI's answer with the same A
 * and B self times, and no function is missing. */
static void
check_table_against_cli (SmprofDiffTable *table,
                         JsonObject      *cli)
{
  SmprofFunctionKeys *funcs = smprof_diff_get_function_keys (smprof_diff_table_get_diff (table));
  GListModel *model = smprof_diff_table_get_model (table);
  JsonArray *functions = json_object_get_array_member (cli, "functions");
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);
      char *key = g_strdup_printf ("%s:%" G_GINT64_FORMAT ":%s", json_object_get_string_member (f, "file"),
                                   json_object_get_int_member (f, "line"), json_object_get_string_member (f, "function"));

      g_hash_table_insert (by_key, key, f);
    }

  g_assert_cmpuint (n, >, 10);
  g_assert_cmpuint (n, ==, json_array_get_length (functions));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SmprofDiffItem) item = g_list_model_get_item (model, i);
      g_autofree char *key = function_key (funcs, smprof_diff_item_get_func (item));
      JsonObject *f = g_hash_table_lookup (by_key, key);
      double a, b;

      if (f == NULL)
        g_error ("%s is in the table, not in `smprof diff`", key);
      a = json_object_get_double_member (json_object_get_object_member (f, "a"), "tottime");
      b = json_object_get_double_member (json_object_get_object_member (f, "b"), "tottime");
      g_assert_cmpfloat_with_epsilon (smprof_diff_item_get_a (item), a, 1e-9 + 1e-9 * a);
      g_assert_cmpfloat_with_epsilon (smprof_diff_item_get_b (item), b, 1e-9 + 1e-9 * b);
      g_assert_cmpfloat_with_epsilon (smprof_diff_item_get_delta (item), b - a, 1e-9 + 1e-9 * fabs (b - a));
    }
  g_test_message ("diff table: %u functions, equal to `smprof diff --format json`", n);
}

static GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
is_compare_page_visible (SmprofJobPage *page)
{
  GtkStackPage *stack_page = gtk_stack_get_page (page->views_stack, _smprof_job_page_get_compare_view (page));

  return gtk_stack_page_get_visible (stack_page);
}

/* The frame whose time grew most (@grew) or shrank most, drawn at least
 * 8 pixels wide. */
static int
find_frame (SmprofFlameGraph *graph,
            SmprofDiff       *diff,
            gboolean          grew,
            graphene_rect_t  *area)
{
  SmprofFlameLayout *layout = _smprof_flame_graph_get_layout (graph);
  int width = gtk_widget_get_width (GTK_WIDGET (graph));
  int height = gtk_widget_get_height (GTK_WIDGET (graph));
  double best = 0;
  int found = -1;

  for (guint i = 0; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      const SmprofDiffFrame *frame = smprof_diff_get_frame (diff, smprof_flame_layout_get_rect (layout, i)->node);
      double delta = frame->total[SMPROF_DIFF_B] - frame->total[SMPROF_DIFF_A];
      graphene_rect_t rect;

      if (!_smprof_flame_graph_get_rect_area (graph, i, width, height, &rect) || rect.size.width < 8)
        continue;
      if (frame->sides != SMPROF_DIFF_IN_BOTH)
        continue;
      if ((grew && delta > best) || (!grew && delta < best))
        {
          best = delta;
          found = i;
          *area = rect;
        }
    }

  return found;
}

static void
check_flame_colors (SmprofCompareView *view,
                    SmprofDiff        *diff)
{
  SmprofFlameGraph *graph = smprof_compare_view_get_flame_graph (view);
  g_autoptr(GdkTexture) texture = NULL;
  graphene_rect_t grew_area, shrank_area;
  guint32 grew_pixel, shrank_pixel;
  int grew, shrank;

  g_assert_true (smprof_flame_graph_get_diff (graph) == diff);
  texture = ui_test_render (GTK_WIDGET (graph));
  ui_test_save_local (texture, "compare-flame-graph.png");

  grew = find_frame (graph, diff, TRUE, &grew_area);
  shrank = find_frame (graph, diff, FALSE, &shrank_area);
  g_assert_cmpint (grew, >=, 0);
  g_assert_cmpint (shrank, >=, 0);

  grew_pixel = ui_test_pixel (texture, grew_area.origin.x + 2, grew_area.origin.y + 2);
  shrank_pixel = ui_test_pixel (texture, shrank_area.origin.x + 2, shrank_area.origin.y + 2);
  g_test_message ("grew: frame %d, pixel %08x; shrank: frame %d, pixel %08x", grew, grew_pixel, shrank, shrank_pixel);

  /* Red-ish: full red, green and blue lower; blue-ish the other way. */
  g_assert_cmphex ((grew_pixel >> 16) & 0xff, ==, 0xff);
  g_assert_cmphex ((grew_pixel >> 8) & 0xff, <, 0xf0);
  g_assert_cmphex (grew_pixel & 0xff, <, 0xf0);
  g_assert_cmphex (shrank_pixel & 0xff, ==, 0xff);
  g_assert_cmphex ((shrank_pixel >> 16) & 0xff, <, 0xf0);

  /* Under the minimum change, grey; drawn again once, then replayed. */
  {
    g_autoptr(GdkTexture) grey = NULL;
    guint renders = _smprof_flame_graph_get_n_renders (graph);
    guint32 expected = ui_test_rgb_to_pixel ((const double[]) { 0.84, 0.84, 0.84 });

    smprof_compare_view_set_min_delta (view, 1000);
    grey = ui_test_render (GTK_WIDGET (graph));

    g_assert_true (ui_test_pixel_near (ui_test_pixel (grey, grew_area.origin.x + 2, grew_area.origin.y + 2), expected, 1));
    g_assert_true (ui_test_pixel_near (ui_test_pixel (grey, shrank_area.origin.x + 2, shrank_area.origin.y + 2), expected, 1));
    g_assert_cmpuint (_smprof_flame_graph_get_n_renders (graph), ==, renders + 1);
    g_object_unref (ui_test_render (GTK_WIDGET (graph)));
    g_assert_cmpuint (_smprof_flame_graph_get_n_renders (graph), ==, renders + 1);
    /* The table leaves every function out: none changed by 1000 s. */
    g_assert_cmpuint (g_list_model_get_n_items (smprof_diff_table_get_model (smprof_compare_view_get_table (view))), ==, 0);
    smprof_compare_view_set_min_delta (view, 0);
  }

  /* The details name both sides. */
  {
    g_autofree char *details = smprof_flame_graph_dup_node_details (graph, smprof_flame_layout_get_rect (_smprof_flame_graph_get_layout (graph), grew)->node);

    g_assert_nonnull (strstr (details, "A: "));
    g_assert_nonnull (strstr (details, "B: "));
    g_assert_nonnull (strstr (details, "Δ: +"));
  }
}

/* A's intervals are shaded orange on the timeline: the middle of one of
 * its blocks gets redder (and less blue) than it is without the comparison. */
static void
check_timeline_shading (SmprofTimeline *timeline,
                        GPtrArray      *a_records)
{
  SmprofTimelineLayout *layout = smprof_timeline_get_layout (timeline);
  const SmprofTimelineItem *items = smprof_timeline_layout_get_items (layout);
  const SmprofTimelineItem *item = NULL;
  g_autoptr(GdkTexture) with = NULL;
  g_autoptr(GdkTexture) without = NULL;
  graphene_rect_t rect;
  guint32 shaded, plain;
  int x, y;

  for (guint i = 0; item == NULL && i < smprof_timeline_layout_get_n_items (layout); i++)
    for (guint j = 0; j < a_records->len; j++)
      if (items[i].record == g_ptr_array_index (a_records, j))
        {
          item = &items[i];
          break;
        }
  g_assert_nonnull (item);
  g_assert_true (_smprof_timeline_get_block_rect (timeline, item, &rect));
  x = rect.origin.x + rect.size.width / 2;
  y = rect.origin.y + rect.size.height / 2;

  with = ui_test_render (GTK_WIDGET (timeline));
  smprof_timeline_set_compare_records (timeline, NULL);
  without = ui_test_render (GTK_WIDGET (timeline));
  smprof_timeline_set_compare_records (timeline, a_records);

  shaded = ui_test_pixel (with, x, y);
  plain = ui_test_pixel (without, x, y);
  g_test_message ("A's block at %d,%d: %08x shaded, %08x without", x, y, shaded, plain);
  g_assert_cmpuint ((shaded >> 16) & 0xff, >, (plain >> 16) & 0xff);
  g_assert_cmpuint (shaded & 0xff, <, plain & 0xff);
}

static void
test_compare (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "tf-cprofile", NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  g_autoptr(JsonObject) raw = NULL;
  g_autoptr(JsonObject) per_step = NULL;
  const char *node_ids[] = { NODE, NULL };
  SmprofCompareView *view;
  SmprofDiffTable *table;
  g_autoptr(SmprofDiff) diff = NULL;
  SmprofDiff *step_diff;
  SmprofJobPage *page;
  GtkWidget *window;
  GListModel *model;
  guint n_a_records;

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1280, 900);
  g_assert_true (wait_idle (page));
  view = SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (page));
  table = smprof_compare_view_get_table (view);
  g_assert_false (is_compare_page_visible (page));

  /* A: steps 0–4 of one node. */
  smprof_job_page_set_node_ids (page, node_ids);
  smprof_job_page_set_step_range (page, 0, 4);
  g_assert_true (wait_idle (page));
  n_a_records = smprof_job_page_get_selected_records (page)->len;

  /* Ctrl+D: the current answer is A; the bar asks for B. */
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>d");
  g_assert_true (is_compare_page_visible (page));
  g_assert_true (gtk_widget_get_visible (find_named (GTK_WIDGET (page), "compare-bar")));
  g_assert_null (smprof_session_get_diff (page->session));

  /* B: steps 5–9, picked after. */
  smprof_job_page_set_step_range (page, 5, 9);
  g_assert_true (wait_idle (page));
  /* Kept: the page lets it go when the normalisation changes. */
  diff = g_object_ref (wait_diff (page, NULL));
  g_assert_true (gtk_stack_get_visible_child (page->views_stack) == GTK_WIDGET (view));
  g_assert_false (gtk_widget_get_visible (find_named (GTK_WIDGET (page), "compare-bar")));
  g_assert_cmpuint (smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_A))->len, ==, n_a_records);
  g_assert_cmpuint (_smprof_timeline_get_n_compare_items (SMPROF_TIMELINE (smprof_job_page_get_timeline (page))), ==,
                    n_a_records);

  check_timeline_shading (SMPROF_TIMELINE (smprof_job_page_get_timeline (page)),
                         smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_A)));

  raw = cli_diff (path, "--step 0 --end-step 4", "--step 5 --end-step 9", "none");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (raw, "a"), "n_intervals"), ==, n_a_records);
  check_table_against_cli (table, raw);

  {
    g_autoptr(GdkTexture) texture = ui_test_render (GTK_WIDGET (page));
    int page_min, view_min;

    gtk_widget_measure (GTK_WIDGET (page), GTK_ORIENTATION_HORIZONTAL, -1, &page_min, NULL, NULL, NULL);
    gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &view_min, NULL, NULL, NULL);
    g_test_message ("minimum widths: page %d px, compare view %d px", page_min, view_min);

    ui_test_save (texture, "job-page-compare.png");
  }

  /* The differential flame graph: red where B grew, blue where it shrank. */
  check_flame_colors (view, diff);

  /* Per step: each side divided by its steps, as the CLI counts them. */
  smprof_compare_view_set_normalize (view, SMPROF_DIFF_NORMALIZE_STEP);
  step_diff = wait_diff (page, diff);
  per_step = cli_diff (path, "--step 0 --end-step 4", "--step 5 --end-step 9", "step");
  g_assert_cmpuint (smprof_diff_get_n_steps (step_diff, SMPROF_DIFF_A), ==,
                    json_object_get_int_member (json_object_get_object_member (per_step, "a"), "n_steps"));
  g_assert_cmpuint (smprof_diff_get_n_steps (step_diff, SMPROF_DIFF_B), ==,
                    json_object_get_int_member (json_object_get_object_member (per_step, "b"), "n_steps"));
  g_assert_cmpuint (smprof_diff_get_n_steps (step_diff, SMPROF_DIFF_A), ==, 5);
  check_table_against_cli (table, per_step);
  model = smprof_diff_table_get_model (table);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofDiffItem) item = g_list_model_get_item (model, i);
      const SmprofDiffRow *row = NULL;

      for (guint r = 0; r < smprof_diff_get_n_rows (diff); r++)
        if (smprof_diff_get_row (diff, r)->func == smprof_diff_item_get_func (item))
          row = smprof_diff_get_row (diff, r);
      g_assert_nonnull (row);
      g_assert_cmpfloat_with_epsilon (smprof_diff_item_get_a (item),
                                      row->tottime[SMPROF_DIFF_A] / smprof_diff_get_n_steps (step_diff, SMPROF_DIFF_A),
                                      1e-12);
      g_assert_cmpfloat_with_epsilon (smprof_diff_item_get_b (item),
                                      row->tottime[SMPROF_DIFF_B] / smprof_diff_get_n_steps (step_diff, SMPROF_DIFF_B),
                                      1e-12);
    }

  /* Closing hides the page and the timeline's A. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.close-compare", NULL));
  g_assert_false (is_compare_page_visible (page));
  g_assert_null (smprof_session_get_diff (page->session));
  g_assert_false (gtk_stack_get_visible_child (page->views_stack) == GTK_WIDGET (view));
  g_assert_cmpuint (_smprof_timeline_get_n_compare_items (SMPROF_TIMELINE (smprof_job_page_get_timeline (page))), ==, 0);

  /* Cancel in the bar while waiting for B ends the comparison. */
  page_test_press_shortcut (GTK_WIDGET (page), "<Control>d");
  g_assert_true (is_compare_page_visible (page));
  gtk_info_bar_response (GTK_INFO_BAR (find_named (GTK_WIDGET (page), "compare-bar")), GTK_RESPONSE_CANCEL);
  g_assert_false (is_compare_page_visible (page));
  g_assert_false (gtk_widget_get_visible (find_named (GTK_WIDGET (page), "compare-bar")));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
report_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;

  smprof_job_page_export_report_finish (SMPROF_JOB_PAGE (object), result, error);
  g_object_set_data (object, "test-report-done", GINT_TO_POINTER (1));
}

/* Export > Report with a comparison open: the diff's files are in the
 * report's folder, the diff's CSV naming a function of the table. */
static void
check_report (SmprofJobPage *page,
              SmprofDiff    *diff)
{
  g_autofree char *dir = g_dir_make_tmp ("test-compare-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "report", NULL);
  g_autofree char *svg = g_build_filename (out, "diff-flame-graph.svg", NULL);
  g_autofree char *csv = g_build_filename (out, "diff.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (out);
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  const SmprofDiffRow *row;

  g_assert_nonnull (dir);
  smprof_job_page_export_report_async (page, file, NULL, report_done_cb, &error);
  while (g_object_get_data (G_OBJECT (page), "test-report-done") == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  g_assert_no_error (error);

  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_get_contents (csv, &contents, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (smprof_diff_get_n_rows (diff), >, 0);
  row = smprof_diff_get_row (diff, 0);
  g_assert_nonnull (strstr (contents, smprof_function_keys_get_name (smprof_diff_get_function_keys (diff), row->func)));

  page_test_run ((const char *[]) { "rm", "-rf", dir, NULL });
}

static void
test_compare_records (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "tf-cprofile", NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  const char *node_ids[] = { NODE, NULL };
  g_autoptr(GPtrArray) a = NULL;
  g_autoptr(GPtrArray) b = NULL;
  SmprofCompareView *view;
  SmprofJobPage *page;
  GtkWidget *window;
  g_autoptr(SmprofDiff) diff = NULL;

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1280, 900);
  g_assert_true (wait_idle (page));
  view = SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (page));

  smprof_job_page_set_node_ids (page, node_ids);
  smprof_job_page_set_step_range (page, 3, 3);
  g_assert_true (wait_idle (page));
  a = g_ptr_array_copy (smprof_job_page_get_selected_records (page), NULL, NULL);
  smprof_job_page_set_step_range (page, 4, 4);
  g_assert_true (wait_idle (page));
  b = g_ptr_array_copy (smprof_job_page_get_selected_records (page), NULL, NULL);
  /* Somewhere else, so B really is selected by the comparison. */
  smprof_job_page_set_preset (page, SMPROF_PRESET_WHOLE_JOB);
  g_assert_true (wait_idle (page));
  g_assert_cmpuint (a->len, >, 0);
  g_assert_cmpuint (b->len, >, 0);

  smprof_session_compare_records (page->session, a, "step 3", b, "step 4");
  diff = g_object_ref (wait_diff (page, NULL));
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_A)), a));
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_B)), b));
  g_assert_true (page_test_same_records (smprof_job_page_get_selected_records (page), b));
  g_assert_cmpstr (smprof_session_get_compare_label (page->session, SMPROF_DIFF_A), ==, "step 3");
  g_assert_cmpstr (smprof_session_get_compare_label (page->session, SMPROF_DIFF_B), ==, "step 4");
  g_assert_true (is_compare_page_visible (page));
  g_assert_true (gtk_stack_get_visible_child (page->views_stack) == GTK_WIDGET (view));
  g_assert_cmpuint (_smprof_timeline_get_n_compare_items (SMPROF_TIMELINE (smprof_job_page_get_timeline (page))), ==, a->len);
  g_assert_cmpfloat (smprof_diff_get_total_time (diff, SMPROF_DIFF_A), >, 0);
  check_report (page, diff);

  /* Swapping A and B. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.swap-compare", NULL));
  {
    SmprofDiff *swapped = wait_diff (page, diff);

    g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (swapped, SMPROF_DIFF_A)), b));
    g_assert_cmpstr (smprof_session_get_compare_label (page->session, SMPROF_DIFF_A), ==, "step 4");
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether @records are the intervals of @paths' records, by path. */
static gboolean
same_paths (GPtrArray *records,
            GPtrArray *paths)
{
  if (records->len != paths->len)
    return FALSE;

  for (guint i = 0; i < records->len; i++)
    if (g_strcmp0 (((SmprofRecord *) g_ptr_array_index (records, i))->path,
                   ((SmprofRecord *) g_ptr_array_index (paths, i))->path) != 0)
      return FALSE;

  return TRUE;
}

/* A live refresh during a comparison: both sides come from the new job, A
 * found again by path, B the page's answer, the names kept. */
static void
test_compare_refresh (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "tf-cprofile", NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  g_autoptr(SmprofJob) listed_again = core_test_load_job_at (path);
  const char *node_ids[] = { NODE, NULL };
  g_autoptr(GPtrArray) a = NULL;
  g_autoptr(GPtrArray) b = NULL;
  g_autoptr(SmprofDiff) before = NULL;
  SmprofJobPage *page;
  GtkWidget *window;
  SmprofDiff *after;

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1280, 900);
  g_assert_true (wait_idle (page));
  smprof_job_page_set_node_ids (page, node_ids);
  smprof_job_page_set_step_range (page, 3, 3);
  g_assert_true (wait_idle (page));
  a = g_ptr_array_copy (smprof_job_page_get_selected_records (page), NULL, NULL);
  smprof_job_page_set_step_range (page, 4, 4);
  g_assert_true (wait_idle (page));
  b = g_ptr_array_copy (smprof_job_page_get_selected_records (page), NULL, NULL);

  smprof_session_compare_records (page->session, a, "step 3", b, "step 4");
  before = g_object_ref (wait_diff (page, NULL));
  g_assert_true (smprof_profile_get_job (smprof_diff_get_profile (before, SMPROF_DIFF_A)) == job);

  smprof_session_swap_job (page->session, listed_again);
  after = wait_diff (page, before);
  g_assert_true (smprof_job_page_get_job (page) == listed_again);
  g_assert_true (smprof_profile_get_job (smprof_diff_get_profile (after, SMPROF_DIFF_A)) == listed_again);
  g_assert_true (smprof_profile_get_job (smprof_diff_get_profile (after, SMPROF_DIFF_B)) == listed_again);
  g_assert_true (same_paths (smprof_profile_get_records (smprof_diff_get_profile (after, SMPROF_DIFF_A)), a));
  g_assert_true (same_paths (smprof_profile_get_records (smprof_diff_get_profile (after, SMPROF_DIFF_B)), b));
  g_assert_cmpstr (smprof_session_get_compare_label (page->session, SMPROF_DIFF_A), ==, "step 3");
  g_assert_cmpstr (smprof_session_get_compare_label (page->session, SMPROF_DIFF_B), ==, "step 4");
  g_assert_cmpuint (_smprof_timeline_get_n_compare_items (SMPROF_TIMELINE (smprof_job_page_get_timeline (page))), ==, a->len);
  /* the same files: the same numbers */
  g_assert_cmpfloat (smprof_diff_get_total_time (after, SMPROF_DIFF_A), ==, smprof_diff_get_total_time (before, SMPROF_DIFF_A));
  g_assert_cmpfloat (smprof_diff_get_total_time (after, SMPROF_DIFF_B), ==, smprof_diff_get_total_time (before, SMPROF_DIFF_B));
  g_assert_cmpuint (smprof_diff_get_n_rows (after), ==, smprof_diff_get_n_rows (before));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The table sorted by clicking its headers (the column view's sorter). */
static void
check_order (GListModel     *model,
             const char     *property,
             GtkSortType     order)
{
  double previous = order == GTK_SORT_DESCENDING ? INFINITY : -INFINITY;
  guint n = g_list_model_get_n_items (model);

  g_assert_cmpuint (n, >, 2);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      double value;

      g_object_get (item, property, &value, NULL);
      if (order == GTK_SORT_DESCENDING)
        g_assert_cmpfloat (value, <=, previous);
      else
        g_assert_cmpfloat (value, >=, previous);
      previous = value;
    }
}

static void
test_table_sorting (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "tf-cprofile", NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  const char *node_ids[] = { NODE, NULL };
  g_autoptr(SmprofProfile) a = NULL;
  g_autoptr(SmprofDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  SmprofDiffTable *table;
  GtkColumnView *column_view;
  GListModel *columns;
  GListModel *model;
  SmprofJobPage *page;
  GtkWidget *window;
  guint unfiltered;

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1280, 900);
  smprof_job_page_set_node_ids (page, node_ids);
  smprof_job_page_set_step_range (page, 0, 2);
  g_assert_true (wait_idle (page));
  a = g_object_ref (smprof_job_page_get_profile (page));
  smprof_job_page_set_step_range (page, 6, 8);
  g_assert_true (wait_idle (page));
  diff = smprof_diff_new (a, smprof_job_page_get_profile (page), SMPROF_DIFF_NORMALIZE_NONE, &error);
  g_assert_no_error (error);
  gtk_window_destroy (GTK_WINDOW (window));

  table = SMPROF_DIFF_TABLE (smprof_diff_table_new ());
  window = ui_test_present (GTK_WIDGET (table), 900, 600);
  smprof_diff_table_set_diff (table, diff);
  column_view = smprof_diff_table_get_column_view (table);
  columns = gtk_column_view_get_columns (column_view);
  model = smprof_diff_table_get_model (table);
  g_assert_cmpuint (g_list_model_get_n_items (columns), ==, 5);
  unfiltered = g_list_model_get_n_items (model);
  g_assert_cmpuint (unfiltered, ==, smprof_diff_get_n_rows (diff));

  /* Unsorted: largest change first, either way. */
  {
    double previous = INFINITY;

    for (guint i = 0; i < unfiltered; i++)
      {
        g_autoptr(SmprofDiffItem) item = g_list_model_get_item (model, i);

        g_assert_cmpfloat (fabs (smprof_diff_item_get_delta (item)), <=, previous);
        previous = fabs (smprof_diff_item_get_delta (item));
      }
  }

  for (guint c = 1; c < 5; c++)
    {
      static const char * const properties[] = { NULL, "a", "b", "delta", "ratio-key" };
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      gtk_column_view_sort_by_column (column_view, column, GTK_SORT_DESCENDING);
      check_order (model, properties[c], GTK_SORT_DESCENDING);
      gtk_column_view_sort_by_column (column_view, column, GTK_SORT_ASCENDING);
      check_order (model, properties[c], GTK_SORT_ASCENDING);
    }

  /* By name. */
  {
    g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);
    g_autofree char *previous = g_strdup ("");

    gtk_column_view_sort_by_column (column_view, column, GTK_SORT_ASCENDING);
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr(SmprofDiffItem) item = g_list_model_get_item (model, i);
        g_autofree char *folded = g_utf8_casefold (smprof_diff_item_get_label (item), -1);
        g_autofree char *collated = g_utf8_collate_key (folded, -1);

        g_assert_cmpint (g_strcmp0 (previous, collated), <=, 0);
        g_free (previous);
        previous = g_steal_pointer (&collated);
      }
  }

  /* The calls metric: each row's counts. */
  smprof_diff_table_set_metric (table, SMPROF_DIFF_METRIC_NCALLS);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofDiffItem) item = g_list_model_get_item (model, i);

      for (guint r = 0; r < smprof_diff_get_n_rows (diff); r++)
        if (smprof_diff_get_row (diff, r)->func == smprof_diff_item_get_func (item))
          {
            g_assert_cmpfloat (smprof_diff_item_get_a (item), ==, smprof_diff_get_row (diff, r)->ncalls[SMPROF_DIFF_A]);
            g_assert_cmpfloat (smprof_diff_item_get_b (item), ==, smprof_diff_get_row (diff, r)->ncalls[SMPROF_DIFF_B]);
          }
    }
  smprof_diff_table_set_metric (table, SMPROF_DIFF_METRIC_TOTTIME);

  /* The minimum change leaves small ones out. */
  smprof_diff_table_set_min_delta (table, 0.001);
  g_assert_cmpuint (g_list_model_get_n_items (model), <, unfiltered);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofDiffItem) item = g_list_model_get_item (model, i);

      for (guint r = 0; r < smprof_diff_get_n_rows (diff); r++)
        if (smprof_diff_get_row (diff, r)->func == smprof_diff_item_get_func (item))
          g_assert_true (smprof_diff_row_passes (smprof_diff_get_row (diff, r), 0.001));
    }
  g_test_message ("min-delta 1 ms: %u of %u functions", g_list_model_get_n_items (model), unfiltered);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-page/compare/select-a-then-b", test_compare);
  g_test_add_func ("/job-page/compare/records", test_compare_records);
  g_test_add_func ("/job-page/compare/refresh", test_compare_refresh);
  g_test_add_func ("/job-page/compare/table-sorting", test_table_sorting);

  return g_test_run ();
}
