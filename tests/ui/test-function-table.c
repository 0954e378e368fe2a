/* test-function-table.c: the function table, its sorting, filter, callers and callees
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "smprof-function-item.h"
#include "smprof-function-table.h"
#include "smprof-item-cell.h"
#include "smprof-number-label.h"
#include "smprof-ui-format.h"
#include "ui-test-util.h"

static SmprofProfile *cprofile;
static SmprofProfile *pyinstrument;
static SmprofProfile *tf_cprofile;

static SmprofFunctionItem *
item_at (GListModel *model,
         guint       position)
{
  SmprofFunctionItem *item = g_list_model_get_item (model, position);

  g_object_unref (item);   /* the model keeps it */
  return item;
}

/* One row per function, with SmprofProfile's numbers. */
static void
check_rows (SmprofProfile *profile)
{
  SmprofFunctionTable *table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  SmprofFunctionKeys *funcs = smprof_job_get_function_keys (smprof_profile_get_job (profile));
  GListModel *model;
  g_autoptr(GHashTable) rows = g_hash_table_new (NULL, NULL);
  guint n;

  smprof_function_table_set_profile (table, profile);
  g_assert_true (smprof_function_table_get_profile (table) == profile);

  model = smprof_function_table_get_model (table);
  n = smprof_profile_get_n_functions (profile);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n);

  for (guint i = 0; i < n; i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);

      g_assert_false (g_hash_table_contains (rows, GUINT_TO_POINTER (row->func + 1)));
      g_hash_table_insert (rows, GUINT_TO_POINTER (row->func + 1), (gpointer) row);
    }

  for (guint i = 0; i < n; i++)
    {
      SmprofFunctionItem *item = item_at (model, i);
      const SmprofFunctionRow *row = g_hash_table_lookup (rows, GUINT_TO_POINTER (smprof_function_item_get_func (item) + 1));
      g_autofree char *label = smprof_function_keys_dup_label (funcs, row->func);
      g_autofree char *ncalls_text = NULL;

      g_assert_nonnull (row);
      g_assert_cmpstr (smprof_function_item_get_label (item), ==, label);
      g_assert_cmpint (smprof_function_item_get_ncalls (item), ==, row->ncalls);
      g_assert_cmpint (smprof_function_item_get_pcalls (item), ==, row->pcalls);
      g_assert_cmpfloat (smprof_function_item_get_tottime (item), ==, row->tottime);
      g_assert_cmpfloat (smprof_function_item_get_cumtime (item), ==, row->cumtime);

      g_object_get (item, "ncalls-text", &ncalls_text, NULL);
      if (row->ncalls < 0)
        {
          /* Pyinstrument counts no calls. */
          g_assert_cmpstr (ncalls_text, ==, "—");
          g_assert_cmpfloat (smprof_function_item_get_tottime_percall (item), ==, -1);
        }
      else
        {
          g_autofree char *nc = smprof_ui_format_count (row->ncalls);
          g_autofree char *cc = smprof_ui_format_count (row->pcalls);
          g_autofree char *expected = row->ncalls == row->pcalls ? g_strdup (nc) : g_strdup_printf ("%s/%s", nc, cc);

          g_assert_cmpstr (ncalls_text, ==, expected);
          if (row->ncalls > 0)
            g_assert_cmpfloat (smprof_function_item_get_tottime_percall (item), ==, row->tottime / row->ncalls);
          if (row->pcalls > 0)
            g_assert_cmpfloat (smprof_function_item_get_cumtime_percall (item), ==, row->cumtime / row->pcalls);
        }
    }

  g_object_unref (table);
}

static void
test_rows_cprofile (void)
{
  check_rows (cprofile);
}

static void
test_rows_pyinstrument (void)
{
  check_rows (pyinstrument);
}

static void
test_format (void)
{
  g_autofree char *a = smprof_ui_format_count (1234567);
  g_autofree char *b = smprof_ui_format_count (999);
  g_autofree char *c = smprof_ui_format_calls (1200, 1000);
  g_autofree char *d = smprof_ui_format_calls (-1, -1);
  g_autofree char *e = smprof_ui_format_seconds (1.23456);
  g_autofree char *f = smprof_ui_format_seconds (0.0000123);
  g_autofree char *g = smprof_ui_format_duration (0.0456);
  g_autofree char *h = smprof_ui_format_percent (0.1234);

  g_assert_cmpstr (a, ==, "1,234,567");
  g_assert_cmpstr (b, ==, "999");
  g_assert_cmpstr (c, ==, "1,200/1,000");
  g_assert_cmpstr (d, ==, "—");
  g_assert_cmpstr (e, ==, "1.235");
  g_assert_cmpstr (f, ==, "0.0000123");
  g_assert_cmpstr (g, ==, "45.6 ms");
  g_assert_cmpstr (h, ==, "12.3 %");
}

static void
check_sorted (GListModel *model,
              const char *property,
              gboolean    descending)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 1; i < n; i++)
    {
      double previous, current;

      g_object_get (item_at (model, i - 1), property, &previous, NULL);
      g_object_get (item_at (model, i), property, &current, NULL);

      if (descending)
        g_assert_cmpfloat (previous, >=, current);
      else
        g_assert_cmpfloat (previous, <=, current);
    }
}

static void
test_sort (void)
{
  SmprofFunctionTable *table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  GListModel *model = smprof_function_table_get_model (table);
  double max_tottime = 0;

  smprof_function_table_set_profile (table, cprofile);

  /* cumtime, descending, as pstats and the command line default to */
  check_sorted (model, "cumtime", TRUE);

  smprof_function_table_sort_by (table, "tottime", GTK_SORT_DESCENDING);
  check_sorted (model, "tottime", TRUE);
  for (guint i = 0; i < smprof_profile_get_n_functions (cprofile); i++)
    max_tottime = MAX (max_tottime, smprof_profile_get_function (cprofile, i)->tottime);
  g_assert_cmpfloat (smprof_function_item_get_tottime (item_at (model, 0)), ==, max_tottime);

  smprof_function_table_sort_by (table, "tottime", GTK_SORT_ASCENDING);
  check_sorted (model, "tottime", FALSE);
  smprof_function_table_sort_by (table, "cumtime-percall", GTK_SORT_DESCENDING);
  check_sorted (model, "cumtime-percall", TRUE);
  smprof_function_table_sort_by (table, "tottime-percall", GTK_SORT_DESCENDING);
  check_sorted (model, "tottime-percall", TRUE);

  smprof_function_table_sort_by (table, "ncalls", GTK_SORT_DESCENDING);
  for (guint i = 1; i < g_list_model_get_n_items (model); i++)
    g_assert_cmpint (smprof_function_item_get_ncalls (item_at (model, i - 1)), >=,
                     smprof_function_item_get_ncalls (item_at (model, i)));

  smprof_function_table_sort_by (table, "label", GTK_SORT_ASCENDING);
  for (guint i = 1; i < g_list_model_get_n_items (model); i++)
    {
      /* GtkStringSorter ignores case by default. */
      g_autofree char *fa = g_utf8_casefold (smprof_function_item_get_label (item_at (model, i - 1)), -1);
      g_autofree char *fb = g_utf8_casefold (smprof_function_item_get_label (item_at (model, i)), -1);
      g_autofree char *a = g_utf8_collate_key (fa, -1);
      g_autofree char *b = g_utf8_collate_key (fb, -1);

      g_assert_cmpint (strcmp (a, b), <=, 0);
    }

  g_object_unref (table);
}

static guint
count_containing (SmprofProfile *profile,
                  const char    *needle)
{
  SmprofFunctionKeys *funcs = smprof_job_get_function_keys (smprof_profile_get_job (profile));
  g_autofree char *folded_needle = g_utf8_casefold (needle, -1);
  guint count = 0;

  for (guint i = 0; i < smprof_profile_get_n_functions (profile); i++)
    {
      g_autofree char *label = smprof_function_keys_dup_label (funcs, smprof_profile_get_function (profile, i)->func);
      g_autofree char *folded = g_utf8_casefold (label, -1);

      count += strstr (folded, folded_needle) != NULL;
    }

  return count;
}

static void
test_filter (void)
{
  SmprofFunctionTable *table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  GListModel *model = smprof_function_table_get_model (table);
  guint n = smprof_profile_get_n_functions (cprofile);
  const char *needles[] = { "torch", "BUILT-IN", "{method", "module.py", "zzz-nothing" };

  smprof_function_table_set_profile (table, cprofile);

  for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
    {
      g_autofree char *folded_needle = g_utf8_casefold (needles[k], -1);
      guint expected = count_containing (cprofile, needles[k]);

      smprof_function_table_set_filter_text (table, needles[k]);
      g_assert_cmpstr (smprof_function_table_get_filter_text (table), ==, needles[k]);
      g_test_message ("filter %s: %u of %u rows", needles[k], expected, n);
      g_assert_cmpuint (g_list_model_get_n_items (model), ==, expected);

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autofree char *folded = g_utf8_casefold (smprof_function_item_get_label (item_at (model, i)), -1);

          g_assert_nonnull (strstr (folded, folded_needle));
        }
    }
  g_assert_cmpuint (count_containing (cprofile, "torch"), >, 0);
  g_assert_cmpuint (count_containing (cprofile, "torch"), <, n);

  smprof_function_table_set_filter_text (table, "");
  g_assert_null (smprof_function_table_get_filter_text (table));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n);

  g_object_unref (table);
}

static void
check_edges (GListModel *model,
             GArray     *edges)
{
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, edges->len);

  for (guint i = 0; i < edges->len; i++)
    {
      const SmprofEdgeRow *edge = &g_array_index (edges, SmprofEdgeRow, i);
      gboolean found = FALSE;

      for (guint j = 0; j < g_list_model_get_n_items (model) && !found; j++)
        {
          SmprofFunctionItem *item = item_at (model, j);

          if (smprof_function_item_get_func (item) != edge->func)
            continue;

          found = TRUE;
          g_assert_cmpint (smprof_function_item_get_ncalls (item), ==, edge->ncalls);
          g_assert_cmpfloat (smprof_function_item_get_tottime (item), ==, edge->tottime);
          g_assert_cmpfloat (smprof_function_item_get_cumtime (item), ==, edge->cumtime);
        }
      g_assert_true (found);
    }
}

static void
selected_cb (GObject    *object,
             GParamSpec *pspec,
             gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
check_callers_callees (SmprofProfile *profile)
{
  SmprofFunctionTable *table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  GListModel *callers = smprof_function_table_get_callers_model (table);
  GListModel *callees = smprof_function_table_get_callees_model (table);
  guint checked_both = 0, notified = 0;

  smprof_function_table_set_profile (table, profile);
  g_signal_connect (table, "notify::selected-func", G_CALLBACK (selected_cb), &notified);
  g_assert_cmpuint (smprof_function_table_get_selected_func (table), ==, SMPROF_FUNC_NONE);
  g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 0);

  for (guint i = 0; i < smprof_profile_get_n_functions (profile); i++)
    {
      guint32 func = smprof_profile_get_function (profile, i)->func;
      g_autoptr(GArray) expected_callers = smprof_profile_dup_callers (profile, func);
      g_autoptr(GArray) expected_callees = smprof_profile_dup_callees (profile, func);

      smprof_function_table_set_selected_func (table, func);
      g_assert_cmpuint (smprof_function_table_get_selected_func (table), ==, func);
      check_edges (callers, expected_callers);
      check_edges (callees, expected_callees);
      checked_both += expected_callers->len > 0 && expected_callees->len > 0;
    }
  g_assert_cmpuint (checked_both, >, 0);
  g_assert_cmpuint (notified, >=, smprof_profile_get_n_functions (profile) - 1);

  /* Selecting a function the filter hides clears the filter. */
  smprof_function_table_set_filter_text (table, "zzz-nothing");
  smprof_function_table_set_selected_func (table, smprof_profile_get_function (profile, 0)->func);
  g_assert_null (smprof_function_table_get_filter_text (table));
  g_assert_cmpuint (smprof_function_table_get_selected_func (table), ==, smprof_profile_get_function (profile, 0)->func);

  smprof_function_table_set_selected_func (table, SMPROF_FUNC_NONE);
  g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (callees), ==, 0);

  g_object_unref (table);
}

static void
test_callers_cprofile (void)
{
  check_callers_callees (cprofile);
}

static void
test_callers_pyinstrument (void)
{
  check_callers_callees (pyinstrument);
}

/* Drawn in a window: a screenshot with a selected function, and labels that
 * show its numbers. */
static void
test_screenshot (void)
{
  GtkWidget *table = smprof_function_table_new ();
  GtkWidget *window;
  g_autoptr(GdkTexture) texture = NULL;
  GListModel *model;

  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), cprofile);
  /* No row hovered by where Xvfb's pointer happens to rest. */
  gtk_widget_set_can_target (table, FALSE);
  window = ui_test_present (table, 1280, 720);

  model = smprof_function_table_get_model (SMPROF_FUNCTION_TABLE (table));
  smprof_function_table_set_selected_func (SMPROF_FUNCTION_TABLE (table),
                                           smprof_function_item_get_func (item_at (model, 3)));
  ui_test_settle ();

  texture = ui_test_render (window);
  g_assert_cmpuint (ui_test_count_colors (texture), >, 10);
  ui_test_save (texture, "function-table.png");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Cells of @widget's tree that show a function's name in a label. */
static void
collect_name_cells (GtkWidget *widget,
                    GPtrArray *cells)
{
  if (SMPROF_IS_ITEM_CELL (widget) && GTK_IS_LABEL (smprof_item_cell_get_child (SMPROF_ITEM_CELL (widget))) &&
      SMPROF_IS_FUNCTION_ITEM (smprof_item_cell_get_item (SMPROF_ITEM_CELL (widget))))
    {
      SmprofFunctionItem *item = SMPROF_FUNCTION_ITEM (smprof_item_cell_get_item (SMPROF_ITEM_CELL (widget)));
      GtkLabel *label = GTK_LABEL (smprof_item_cell_get_child (SMPROF_ITEM_CELL (widget)));

      if (g_strcmp0 (gtk_label_get_text (label), smprof_function_item_get_label (item)) == 0)
        g_ptr_array_add (cells, widget);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_name_cells (child, cells);
}

/* A long name is ellipsized; resting the pointer on it shows it whole. The
 * tooltip is made when asked for: no row sets one as it is bound (each
 * setting asks the X server where the pointer is). */
static void
test_name_tooltips (void)
{
  GtkWidget *table = smprof_function_table_new ();
  g_autoptr(GPtrArray) cells = g_ptr_array_new ();
  GtkWidget *window;

  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), cprofile);
  window = ui_test_present (table, 1280, 720);
  ui_test_settle ();

  collect_name_cells (table, cells);
  g_test_message ("%u name cells shown", cells->len);
  g_assert_cmpuint (cells->len, >=, 10);
  for (guint i = 0; i < cells->len; i++)
    {
      SmprofItemCell *cell = g_ptr_array_index (cells, i);
      GtkWidget *label = smprof_item_cell_get_child (cell);
      g_autofree char *tooltip = smprof_item_cell_dup_tooltip_text (cell);

      g_assert_true (gtk_widget_get_has_tooltip (GTK_WIDGET (cell)));
      g_assert_cmpstr (tooltip, ==, gtk_label_get_text (GTK_LABEL (label)));
      g_assert_null (gtk_widget_get_tooltip_text (label));
      g_assert_null (gtk_widget_get_tooltip_text (GTK_WIDGET (cell)));
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The numeric cells of the rows GTK keeps bound, in the order drawn. */
static void
collect_number_cells (GtkWidget *widget,
                      GPtrArray *cells)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (SMPROF_IS_NUMBER_LABEL (child))
        g_ptr_array_add (cells, child);
      collect_number_cells (child, cells);
    }
}

/* The first drawn row of the Functions table shows the model's first row. */
static void
check_top_row (SmprofFunctionTable *table,
               const char          *when)
{
  GListModel *model = smprof_function_table_get_model (table);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(GPtrArray) cells = g_ptr_array_new ();
  g_autofree char *cumtime = NULL;
  gboolean found = FALSE;

  g_object_get (item_at (model, 0), "cumtime-text", &cumtime, NULL);
  ui_test_collect_rows (GTK_WIDGET (table), rows);
  g_assert_cmpuint (rows->len, >, 0);
  collect_number_cells (g_ptr_array_index (rows, 0), cells);
  for (guint i = 0; i < cells->len; i++)
    found |= g_strcmp0 (smprof_number_label_get_text (g_ptr_array_index (cells, i)), cumtime) == 0;
  if (!found)
    g_error ("%s, the first row drawn does not show the first row's cumtime, %s", when, cumtime);
}

/* The name cells of @widget's tree: their number, and how many show
 * another text than their row's name. */
static void
count_name_cells (GtkWidget *widget,
                  guint     *n_cells,
                  guint     *n_wrong)
{
  if (SMPROF_IS_ITEM_CELL (widget) && GTK_IS_LABEL (smprof_item_cell_get_child (SMPROF_ITEM_CELL (widget))) &&
      SMPROF_IS_FUNCTION_ITEM (smprof_item_cell_get_item (SMPROF_ITEM_CELL (widget))))
    {
      SmprofFunctionItem *item = SMPROF_FUNCTION_ITEM (smprof_item_cell_get_item (SMPROF_ITEM_CELL (widget)));
      GtkLabel *label = GTK_LABEL (smprof_item_cell_get_child (SMPROF_ITEM_CELL (widget)));

      (*n_cells)++;
      if (g_strcmp0 (gtk_label_get_text (label), smprof_function_item_get_label (item)) != 0)
        (*n_wrong)++;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    count_name_cells (child, n_cells, n_wrong);
}

/* Every bound name cell shows its row's name: a row object takes another
 * function's name in place when the order or the answer changes. */
static void
check_name_cells (GtkWidget  *table,
                  const char *when)
{
  guint n_cells = 0, n_wrong = 0;

  count_name_cells (table, &n_cells, &n_wrong);
  g_test_message ("%s: %u name cells, %u wrong", when, n_cells, n_wrong);
  g_assert_cmpuint (n_cells, >=, 20);
  if (n_wrong != 0)
    g_error ("%s, %u of %u name cells show another name than their row's", when, n_wrong, n_cells);
}

/* A new answer, another job's even, or another order changes the texts of
 * the cells GTK keeps bound, and no row is made again: on a 256-node job,
 * new cells for every row that moved took 50-70 ms of each drag. */
static void
count_notify_cb (guint *count)
{
  (*count)++;
}

static void
test_cells_kept (void)
{
  GtkWidget *table = smprof_function_table_new ();
  g_autoptr(GPtrArray) before = g_ptr_array_new ();
  g_autoptr(GPtrArray) after = g_ptr_array_new ();
  g_autoptr(GHashTable) kept = g_hash_table_new (NULL, NULL);
  GtkWidget *window;

  /* more rows than GTK keeps bound (about 205 here), in both */
  g_assert_cmpuint (smprof_profile_get_n_functions (cprofile), >, 250);
  g_assert_cmpuint (smprof_profile_get_n_functions (tf_cprofile), >, 250);

  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), cprofile);
  gtk_widget_set_can_target (table, FALSE);
  window = ui_test_present (table, 1280, 720);
  ui_test_settle ();
  check_top_row (SMPROF_FUNCTION_TABLE (table), "first profile");
  check_name_cells (table, "first profile");
  collect_number_cells (table, before);
  g_test_message ("%u numeric cells bound", before->len);
  g_assert_cmpuint (before->len, >=, 5 * 20);
  for (guint i = 0; i < before->len; i++)
    g_hash_table_add (kept, g_ptr_array_index (before, i));

  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), tf_cprofile);
  ui_test_settle ();
  check_top_row (SMPROF_FUNCTION_TABLE (table), "another job");
  check_name_cells (table, "another job");
  smprof_function_table_sort_by (SMPROF_FUNCTION_TABLE (table), "tottime", GTK_SORT_DESCENDING);
  ui_test_settle ();
  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), cprofile);
  ui_test_settle ();
  check_sorted (smprof_function_table_get_model (SMPROF_FUNCTION_TABLE (table)), "tottime", TRUE);
  smprof_function_table_sort_by (SMPROF_FUNCTION_TABLE (table), "cumtime", GTK_SORT_DESCENDING);
  ui_test_settle ();

  collect_number_cells (table, after);
  g_assert_cmpuint (after->len, ==, before->len);
  for (guint i = 0; i < after->len; i++)
    if (!g_hash_table_contains (kept, g_ptr_array_index (after, i)))
      g_error ("cell %u of %u was made again", i, after->len);
  /* and the table still starts at the top */
  check_top_row (SMPROF_FUNCTION_TABLE (table), "back, by cumtime");
  check_name_cells (table, "back, by cumtime");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A first answer's rows come in a frame's worth at a time: GTK 4.8's column
 * view binds and measures up to ~200 rows at once, visible or not, and on
 * a 256-node job that frame took 52-55 ms. What each frame bound, in row
 * widgets, as the frame clock updates. */
typedef struct
{
  GtkWidget *table;
  GArray    *bound;    /* guint per frame */
} FrameRows;

static gboolean
count_bound_rows_cb (GtkWidget     *widget,
                     GdkFrameClock *clock,
                     gpointer       user_data)
{
  FrameRows *frames = user_data;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  guint n;

  ui_test_collect_rows (frames->table, rows);
  n = rows->len;
  g_array_append_val (frames->bound, n);

  return G_SOURCE_CONTINUE;
}

static gboolean
set_true_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static GtkColumnView *
function_list (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget) && g_strcmp0 (gtk_widget_get_name (widget), "function-list") == 0)
    return GTK_COLUMN_VIEW (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkColumnView *found = function_list (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
test_rows_come_in (void)
{
  GtkWidget *table = smprof_function_table_new ();
  g_autoptr(GArray) bound = g_array_new (FALSE, FALSE, sizeof (guint));
  FrameRows frames = { table, bound };
  guint n = smprof_profile_get_n_functions (cprofile);
  guint tick, most = 0, first_bound, timeout;
  gboolean timed_out = FALSE;
  GListModel *view_model;
  GtkWidget *window;
  guint32 deep_func;

  g_assert_cmpuint (n, >, 250);
  window = ui_test_present (table, 1280, 720);
  ui_test_settle ();
  view_model = G_LIST_MODEL (gtk_column_view_get_model (function_list (table)));
  g_assert_cmpuint (g_list_model_get_n_items (view_model), ==, 0);

  /* The first frame's worth at once, filling more than the view ... */
  tick = gtk_widget_add_tick_callback (table, count_bound_rows_cb, &frames, NULL);
  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), cprofile);
  g_assert_cmpuint (g_list_model_get_n_items (view_model), >=, 30);
  g_assert_cmpuint (g_list_model_get_n_items (view_model), <=, 50);

  /* ... then the rest over the next frames, until all are in. */
  timeout = g_timeout_add_seconds (30, set_true_cb, &timed_out);
  while (g_list_model_get_n_items (view_model) < n && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (timeout);
  ui_test_settle ();
  gtk_widget_remove_tick_callback (table, tick);

  first_bound = 0;
  for (guint i = 0; i < bound->len; i++)
    {
      guint now = g_array_index (bound, guint, i);
      guint before = i > 0 ? g_array_index (bound, guint, i - 1) : 0;

      if (first_bound == 0)
        first_bound = now;
      if (now > before)
        most = MAX (most, now - before);
    }
  g_test_message ("%u frames; %u rows bound in the first, at most %u more in one, %u at the end",
                  bound->len, first_bound, most, g_array_index (bound, guint, bound->len - 1));
  g_assert_cmpuint (bound->len, >=, 4);
  g_assert_cmpuint (most, <=, 50);
  /* as many as GTK keeps bound in the end (about 205 here) */
  g_assert_cmpuint (g_array_index (bound, guint, bound->len - 1), >=, 150);
  check_top_row (SMPROF_FUNCTION_TABLE (table), "rows come in");

  /* A new answer of a table that has rows changes them where they are. */
  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), tf_cprofile);
  g_assert_cmpuint (g_list_model_get_n_items (view_model), ==, smprof_profile_get_n_functions (tf_cprofile));

  /* Whoever asks for a row by its position gets them all at once: the
   * model, or choosing a function far down the list. */
  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), NULL);
  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), cprofile);
  g_assert_cmpuint (g_list_model_get_n_items (view_model), <=, 50);
  g_assert_cmpuint (g_list_model_get_n_items (smprof_function_table_get_model (SMPROF_FUNCTION_TABLE (table))), ==, n);

  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), NULL);
  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), tf_cprofile);
  g_assert_cmpuint (g_list_model_get_n_items (view_model), <=, 50);
  {
    /* the function last in the table's order */
    SmprofFunctionTable *other = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
    GListModel *all;

    smprof_function_table_set_profile (other, tf_cprofile);
    all = smprof_function_table_get_model (other);
    deep_func = smprof_function_item_get_func (item_at (all, g_list_model_get_n_items (all) - 1));
    g_object_unref (other);
  }
  smprof_function_table_set_selected_func (SMPROF_FUNCTION_TABLE (table), deep_func);
  g_assert_cmpuint (smprof_function_table_get_selected_func (SMPROF_FUNCTION_TABLE (table)), ==, deep_func);
  g_assert_cmpuint (g_list_model_get_n_items (view_model), ==, smprof_profile_get_n_functions (tf_cprofile));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The selected function stays selected when a new order moves its row. */
static void
test_selection_follows_sort (void)
{
  SmprofFunctionTable *table = SMPROF_FUNCTION_TABLE (g_object_ref_sink (smprof_function_table_new ()));
  GListModel *model = smprof_function_table_get_model (table);
  guint32 func;
  guint notified = 0;

  smprof_function_table_set_profile (table, cprofile);
  func = smprof_function_item_get_func (item_at (model, 7));
  smprof_function_table_set_selected_func (table, func);
  g_signal_connect_swapped (table, "notify::selected-func", G_CALLBACK (count_notify_cb), &notified);

  smprof_function_table_sort_by (table, "label", GTK_SORT_ASCENDING);
  g_assert_cmpuint (smprof_function_table_get_selected_func (table), ==, func);
  g_assert_cmpuint (smprof_function_item_get_func (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (model))),
                    ==, func);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), !=, 7);
  /* the same function: no new choice for the page to follow */
  g_assert_cmpuint (notified, ==, 0);

  /* filtered out, it is no longer selected */
  smprof_function_table_set_filter_text (table, "zzz-nothing");
  g_assert_cmpuint (smprof_function_table_get_selected_func (table), ==, SMPROF_FUNC_NONE);
  g_assert_cmpuint (notified, ==, 1);

  g_object_unref (table);
}

/* Every property of @a reads as @b's. */
static void
assert_same_row (SmprofFunctionItem *a,
                 SmprofFunctionItem *b)
{
  g_autofree GParamSpec **specs = NULL;
  guint n_specs;

  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (a), &n_specs);
  for (guint i = 0; i < n_specs; i++)
    {
      g_auto(GValue) va = G_VALUE_INIT;
      g_auto(GValue) vb = G_VALUE_INIT;

      g_value_init (&va, specs[i]->value_type);
      g_value_init (&vb, specs[i]->value_type);
      g_object_get_property (G_OBJECT (a), specs[i]->name, &va);
      g_object_get_property (G_OBJECT (b), specs[i]->name, &vb);
      if (g_param_values_cmp (specs[i], &va, &vb) != 0)
        g_error ("%s differs", specs[i]->name);
    }
}

/* A row object takes another's function and figures; a cell bound to it
 * hears of it, and one nobody watches takes them all the same. */
static void
test_item_assign (void)
{
  SmprofFunctionKeys *funcs = smprof_job_get_function_keys (smprof_profile_get_job (cprofile));
  const SmprofFunctionRow *first = smprof_profile_get_function (cprofile, 0);
  const SmprofFunctionRow *second = smprof_profile_get_function (cprofile, 1);
  g_autoptr(SmprofFunctionItem) source = smprof_function_item_new (funcs, second->func, 7, 5, 0.25, 1.5);
  g_autoptr(SmprofFunctionItem) watched = smprof_function_item_new (funcs, first->func, 1, 1, 0.5, 0.5);
  g_autoptr(SmprofFunctionItem) unwatched = smprof_function_item_new (funcs, first->func, 1, 1, 0.5, 0.5);
  g_autoptr(SmprofFunctionItem) copy = NULL;
  g_autoptr(GArray) series = g_array_new (FALSE, TRUE, sizeof (double));
  SmprofStepFunction steps = { .func = second->func, .count = 3, .min = 0.1, .median = 0.2, .p95 = 0.3, .max = 0.4 };
  guint label_notified = 0, cumtime_notified = 0, series_notified = 0;

  g_array_set_size (series, 3);
  smprof_function_item_set_step_values (source, &steps, series);
  g_signal_connect_swapped (watched, "notify::label", G_CALLBACK (count_notify_cb), &label_notified);
  g_signal_connect_swapped (watched, "notify::cumtime-text", G_CALLBACK (count_notify_cb), &cumtime_notified);
  g_signal_connect_swapped (watched, "notify::step-series", G_CALLBACK (count_notify_cb), &series_notified);

  smprof_function_item_assign (watched, source);
  assert_same_row (watched, source);
  g_assert_cmpuint (label_notified, ==, 1);
  g_assert_cmpuint (cumtime_notified, ==, 1);
  g_assert_cmpuint (series_notified, ==, 1);
  /* nothing changed, nothing said */
  smprof_function_item_assign (watched, source);
  g_assert_cmpuint (label_notified + cumtime_notified + series_notified, ==, 3);

  smprof_function_item_assign (unwatched, source);
  assert_same_row (unwatched, source);
  smprof_function_item_set_values (unwatched, 2, 2, 0.125, 3.0);
  smprof_function_item_set_step_values (unwatched, NULL, NULL);
  g_assert_cmpfloat (smprof_function_item_get_cumtime (unwatched), ==, 3.0);
  g_assert_cmpint (smprof_function_item_get_step_count (unwatched), ==, -1);
  g_assert_null (smprof_function_item_get_step_series (unwatched));

  copy = smprof_function_item_copy (source);
  assert_same_row (copy, source);
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
  tf_cprofile = ui_test_load_profile ("tf-cprofile", SMPROF_PROFILER_CPROFILE);

  g_test_add_func ("/function-table/format", test_format);
  g_test_add_func ("/function-table/rows/cprofile", test_rows_cprofile);
  g_test_add_func ("/function-table/rows/pyinstrument", test_rows_pyinstrument);
  g_test_add_func ("/function-table/sort", test_sort);
  g_test_add_func ("/function-table/filter", test_filter);
  g_test_add_func ("/function-table/callers-callees/cprofile", test_callers_cprofile);
  g_test_add_func ("/function-table/callers-callees/pyinstrument", test_callers_pyinstrument);
  g_test_add_func ("/function-table/screenshot", test_screenshot);
  g_test_add_func ("/function-table/name-tooltips", test_name_tooltips);
  g_test_add_func ("/function-table/cells-kept", test_cells_kept);
  g_test_add_func ("/function-table/rows-come-in", test_rows_come_in);
  g_test_add_func ("/function-table/item-assign", test_item_assign);
  g_test_add_func ("/function-table/selection-follows-sort", test_selection_follows_sort);

  status = g_test_run ();

  g_clear_object (&cprofile);
  g_clear_object (&pyinstrument);
  g_clear_object (&tf_cprofile);

  return status;
}
