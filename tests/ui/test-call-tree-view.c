/* test-call-tree-view.c: the call tree as a tree list model, sorted and expanded
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-call-tree-view.h"
#include "smprof-tree-item.h"
#include "ui-test-util.h"

static SmprofProfile *cprofile;
static SmprofProfile *pyinstrument;

static GtkTreeListRow *
row_at (GListModel *model,
        guint       position)
{
  GtkTreeListRow *row = g_list_model_get_item (model, position);

  g_object_unref (row);   /* the model keeps it */
  return row;
}

static SmprofTreeItem *
item_of (GtkTreeListRow *row)
{
  SmprofTreeItem *item = gtk_tree_list_row_get_item (row);

  g_object_unref (item);
  return item;
}

/* The children of @node, as the core's tree has them, largest total first. */
static GArray *
children_by_total (SmprofCallTree *tree,
                   guint32         node)
{
  GArray *children = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 child = smprof_call_tree_get_node (tree, node)->first_child;
       child != SMPROF_CALL_TREE_NONE;
       child = smprof_call_tree_get_node (tree, child)->next_sibling)
    g_array_append_val (children, child);

  return children;
}

/* Rows @first.. at @depth are exactly @node's children, with their totals,
 * sorted by total, descending. Returns the position after them. */
static guint
check_children (GListModel     *model,
                SmprofCallTree *tree,
                guint           first,
                guint           depth,
                guint32         node)
{
  g_autoptr(GArray) children = children_by_total (tree, node);
  g_autoptr(GHashTable) expected = g_hash_table_new (NULL, NULL);
  guint position = first;
  double previous_total = G_MAXDOUBLE;

  for (guint i = 0; i < children->len; i++)
    g_hash_table_add (expected, GUINT_TO_POINTER (g_array_index (children, guint32, i) + 1));

  for (guint seen = 0; seen < children->len; seen++)
    {
      GtkTreeListRow *row;
      SmprofTreeItem *item;
      const SmprofCallTreeNode *entry;

      /* Skip the rows of an expanded sibling. */
      while (gtk_tree_list_row_get_depth (row_at (model, position)) > depth)
        position++;

      row = row_at (model, position);
      item = item_of (row);
      entry = smprof_call_tree_get_node (tree, smprof_tree_item_get_node (item));

      g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, depth);
      g_assert_true (g_hash_table_remove (expected, GUINT_TO_POINTER (smprof_tree_item_get_node (item) + 1)));
      g_assert_cmpuint (entry->parent, ==, node);
      g_assert_cmpfloat (smprof_tree_item_get_total (item), ==, entry->total);
      g_assert_cmpfloat (smprof_tree_item_get_self (item), ==, entry->self);
      g_assert_cmpfloat (entry->total, <=, previous_total);
      g_assert_cmpint (gtk_tree_list_row_is_expandable (row), ==, entry->first_child != SMPROF_CALL_TREE_NONE);
      previous_total = entry->total;
      position++;
    }

  g_assert_cmpuint (g_hash_table_size (expected), ==, 0);

  return position;
}

static void
check_tree (SmprofProfile *profile)
{
  SmprofCallTreeView *view = SMPROF_CALL_TREE_VIEW (g_object_ref_sink (smprof_call_tree_view_new ()));
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  GListModel *model;
  g_autoptr(GArray) roots = children_by_total (tree, SMPROF_CALL_TREE_ROOT);
  guint expanded = 0;

  smprof_call_tree_view_set_profile (view, profile);
  g_assert_true (smprof_call_tree_view_get_profile (view) == profile);
  model = smprof_call_tree_view_get_model (view);
  g_assert_cmpuint (roots->len, >, 0);

  /* The root rows are the tree's root frames. */
  check_children (model, tree, 0, 0, SMPROF_CALL_TREE_ROOT);

  /* Expanding each root row gives its children, with their totals; and one
   * level further under the first of them. */
  for (guint position = 0; position < g_list_model_get_n_items (model); position++)
    {
      GtkTreeListRow *row = row_at (model, position);
      guint32 node;

      if (gtk_tree_list_row_get_depth (row) != 0 || !gtk_tree_list_row_is_expandable (row))
        continue;

      node = smprof_tree_item_get_node (item_of (row));
      gtk_tree_list_row_set_expanded (row, TRUE);
      check_children (model, tree, position + 1, 1, node);
      expanded++;

      if (expanded == 1)
        {
          GtkTreeListRow *child = row_at (model, position + 1);

          if (gtk_tree_list_row_is_expandable (child))
            {
              gtk_tree_list_row_set_expanded (child, TRUE);
              check_children (model, tree, position + 2, 2, smprof_tree_item_get_node (item_of (child)));
            }
        }
    }
  g_assert_cmpuint (expanded, >, 0);

  /* Percentages are of the whole tree. */
  {
    SmprofTreeItem *item = item_of (row_at (model, 0));
    double root_total = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->total;
    g_autofree char *percent = NULL;

    g_assert_cmpfloat_with_epsilon (smprof_tree_item_get_total_fraction (item),
                                    smprof_tree_item_get_total (item) / root_total, 1e-12);
    g_object_get (item, "percent-text", &percent, NULL);
    g_assert_nonnull (percent);
  }

  g_object_unref (view);
}

static void
test_tree_cprofile (void)
{
  check_tree (cprofile);
}

static void
test_tree_pyinstrument (void)
{
  check_tree (pyinstrument);
}

static void
test_screenshot (void)
{
  GtkWidget *view = smprof_call_tree_view_new ();
  GtkWidget *window;
  GListModel *model;
  g_autoptr(GdkTexture) texture = NULL;

  smprof_call_tree_view_set_profile (SMPROF_CALL_TREE_VIEW (view), pyinstrument);
  /* No row hovered by where Xvfb's pointer happens to rest. */
  gtk_widget_set_can_target (view, FALSE);
  window = ui_test_present (view, 1000, 640);

  /* Open the heaviest path a few levels down, as a user would. */
  model = smprof_call_tree_view_get_model (SMPROF_CALL_TREE_VIEW (view));
  for (guint position = 0, depth = 0; depth < 6 && position < g_list_model_get_n_items (model); depth++)
    {
      GtkTreeListRow *row = row_at (model, position);

      if (!gtk_tree_list_row_is_expandable (row))
        break;
      gtk_tree_list_row_set_expanded (row, TRUE);
      position++;
    }
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 2);
  g_assert_cmpuint (smprof_call_tree_view_get_selected_node (SMPROF_CALL_TREE_VIEW (view)), ==,
                    smprof_tree_item_get_node (item_of (row_at (model, 2))));
  ui_test_settle ();

  texture = ui_test_render (window);
  g_assert_cmpuint (ui_test_count_colors (texture), >, 10);
  ui_test_save (texture, "call-tree.png");

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
  pyinstrument = ui_test_load_profile ("pt-pyinstrument", SMPROF_PROFILER_PYINSTRUMENT);

  g_test_add_func ("/call-tree/rows/cprofile", test_tree_cprofile);
  g_test_add_func ("/call-tree/rows/pyinstrument", test_tree_pyinstrument);
  g_test_add_func ("/call-tree/screenshot", test_screenshot);

  status = g_test_run ();

  g_clear_object (&cprofile);
  g_clear_object (&pyinstrument);

  return status;
}
