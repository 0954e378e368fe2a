/* test-view-menus.c: the inverted call tree, the columns a profile has, one
 * time format per view, and every view's context menu
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "page-test-util.h"
#include "smprof-call-tree-view.h"
#include "smprof-diff-item.h"
#include "smprof-diff-table.h"
#include "smprof-export.h"
#include "smprof-flame-graph-private.h"
#include "smprof-function-item.h"
#include "smprof-function-menu.h"
#include "smprof-function-table.h"
#include "smprof-tree-item.h"
#include "smprof-ui-format.h"
#include "ui-test-util.h"

static SmprofProfile *cprofile;
static SmprofProfile *pyinstrument;

/* ------------------------------------------------------------------ helpers */

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The mapped label showing @text, under @widget. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkPopover *
find_popover (GtkWidget *view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (view); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child) && gtk_widget_get_visible (child))
      return GTK_POPOVER (child);

  return NULL;
}

/* The items of a menu model, sections flattened: "label|action|target". */
static GPtrArray *
dup_menu_items (GMenuModel *model)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_free);

  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      GMenuModel *section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);

      if (section != NULL)
        {
          g_autoptr(GPtrArray) inner = dup_menu_items (section);

          for (guint j = 0; j < inner->len; j++)
            g_ptr_array_add (items, g_strdup (g_ptr_array_index (inner, j)));
          g_object_unref (section);
        }
      else
        {
          g_autofree char *label = NULL;
          g_autofree char *action = NULL;
          g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (model, i, G_MENU_ATTRIBUTE_TARGET, NULL);
          g_autofree char *printed = target != NULL ? g_variant_print (target, FALSE) : g_strdup ("");

          g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
          g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action);
          g_ptr_array_add (items, g_strdup_printf ("%s|%s|%s", label, action, printed));
        }
    }

  return items;
}

static gboolean
has_item (GPtrArray  *items,
          const char *wanted)
{
  for (guint i = 0; i < items->len; i++)
    if (strcmp (g_ptr_array_index (items, i), wanted) == 0)
      return TRUE;

  return FALSE;
}

typedef struct
{
  char     *action;
  GVariant *target;
} Activated;

static void
page_action_cb (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  Activated *last = user_data;

  g_free (last->action);
  g_clear_pointer (&last->target, g_variant_unref);
  last->action = g_strdup (g_action_get_name (G_ACTION (action)));
  last->target = parameter != NULL ? g_variant_ref (parameter) : NULL;
}

/* What the page provides: the "function" group, recording what it is asked. */
static void
insert_page_actions (GtkWidget *window,
                     Activated *last)
{
  static const struct { const char *name; const char *type; } actions[] = {
    { "focus", "u" }, { "focus-subtree", "au" }, { "merge", "u" }, { "collapse-recursion", "u" },
    { "collapse-file", "s" }, { "collapse-package", "s" }, { "show-in-functions", "u" },
    { "show-callers", "u" }, { "show-callees", "u" }, { "compare-nodes", "u" },
  };
  GSimpleActionGroup *group = g_simple_action_group_new ();

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      g_autoptr(GSimpleAction) action = g_simple_action_new (actions[i].name, G_VARIANT_TYPE (actions[i].type));

      g_signal_connect (action, "activate", G_CALLBACK (page_action_cb), last);
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
    }
  gtk_widget_insert_action_group (window, SMPROF_FUNCTION_ACTION_GROUP, G_ACTION_GROUP (group));
  g_object_unref (group);
}

static void
clipboard_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
}

static char *
read_clipboard (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, clipboard_cb, &text);
  while (text == NULL)
    g_main_context_iteration (NULL, TRUE);

  return text;
}

/* Opens @view's menu by the key, then checks what it shows and that its items
 * reach the clipboard and the page: "Copy Name" copies @name, "Focus on
 * Function" asks the page to focus on @func. */
static void
check_menu_by_key (GtkWidget  *view,
                   const char *key,
                   guint32     func,
                   const char *name,
                   Activated  *last)
{
  GtkPopover *popover;
  GMenuModel *model;
  g_autoptr(GPtrArray) items = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *focus = NULL;
  g_autofree char *copied = NULL;
  g_autoptr(GdkTexture) drawn = NULL;

  page_test_press_shortcut (view, key);
  ui_test_settle ();

  popover = find_popover (view);
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));

  /* the menu a person sees: its labels, drawn */
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "Copy Name"));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "Focus on Function"));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "Merge Function"));
  drawn = ui_test_render (GTK_WIDGET (popover));
  g_assert_cmpuint (ui_test_count_colors (drawn), >, 2);

  model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  items = dup_menu_items (model);
  copy = g_strdup_printf ("Copy Name|function-view.copy|'%s'", name);
  focus = g_strdup_printf ("Focus on Function|function.focus|%u", func);
  g_assert_true (has_item (items, copy));
  g_assert_true (has_item (items, focus));

  /* the items work: through the popover, as a click on them would */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (popover), "function-view.copy", "s", name));
  copied = read_clipboard (view);
  g_assert_cmpstr (copied, ==, name);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (popover), "function.focus", "u", func));
  g_assert_cmpstr (last->action, ==, "focus");
  g_assert_cmpuint (g_variant_get_uint32 (last->target), ==, func);

  gtk_popover_popdown (popover);
  ui_test_settle ();
  g_assert_null (find_popover (view));
}

/* ------------------------------------------------------------------ the inverted tree */

/* Inverted, the view's roots are the functions that spent time themselves,
 * each with its self time summed over the upright tree, largest first, and
 * below each the callers of those frames. */
static void
test_inverted (void)
{
  GtkWidget *view = smprof_call_tree_view_new ();
  GtkWidget *window;
  SmprofCallTree *tree = smprof_profile_get_call_tree (cprofile);
  g_autoptr(GHashTable) self_of = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  GListModel *rows;
  double roots = 0, previous = G_MAXDOUBLE;
  guint n_roots = 0;
  g_autoptr(GdkTexture) texture = NULL;
  GtkWidget *button;

  for (guint32 n = 1; n < smprof_call_tree_get_n_nodes (tree); n++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, n);
      double *sum = g_hash_table_lookup (self_of, GUINT_TO_POINTER (node->func + 1));

      if (sum == NULL)
        g_hash_table_insert (self_of, GUINT_TO_POINTER (node->func + 1), sum = g_new0 (double, 1));
      *sum += node->self;
    }

  gtk_widget_set_can_target (view, FALSE);
  smprof_call_tree_view_set_profile (SMPROF_CALL_TREE_VIEW (view), cprofile);
  window = ui_test_present (view, 1100, 700);

  /* Ctrl+I, the key */
  page_test_press_shortcut (view, "<Control>i");
  ui_test_settle ();
  g_assert_true (smprof_call_tree_view_get_inverted (SMPROF_CALL_TREE_VIEW (view)));

  rows = smprof_call_tree_view_get_model (SMPROF_CALL_TREE_VIEW (view));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(SmprofTreeItem) item = gtk_tree_list_row_get_item (row);
      SmprofProfile *shown = smprof_tree_item_get_profile (item);
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (smprof_profile_get_call_tree (shown),
                                                                  smprof_tree_item_get_node (item));
      double *sum;

      if (gtk_tree_list_row_get_depth (row) != 0)
        continue;

      sum = g_hash_table_lookup (self_of, GUINT_TO_POINTER (node->func + 1));
      g_assert_nonnull (sum);
      g_assert_cmpfloat_with_epsilon (node->total, *sum, 1e-9);
      g_assert_cmpfloat (node->total, <=, previous);
      previous = node->total;
      roots += node->total;
      n_roots++;
    }
  {
    GHashTableIter iter;
    gpointer sum;
    guint spent = 0;

    g_hash_table_iter_init (&iter, self_of);
    while (g_hash_table_iter_next (&iter, NULL, &sum))
      spent += *(double *) sum != 0;
    g_assert_cmpuint (n_roots, ==, spent);
  }
  g_assert_cmpfloat_with_epsilon (roots, smprof_profile_get_total_time (cprofile), 1e-6);

  /* what a person sees: the largest self time's function first, drawn, and
   * the Inverted button pressed */
  {
    g_autoptr(GtkTreeListRow) first = g_list_model_get_item (rows, 0);
    g_autoptr(SmprofTreeItem) item = gtk_tree_list_row_get_item (first);
    g_autofree char *name = NULL;

    g_object_get (item, "name", &name, NULL);
    g_assert_nonnull (find_label (view, name));
  }
  button = find_descendant (view, GTK_TYPE_TOGGLE_BUTTON);
  g_assert_nonnull (button);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
  texture = ui_test_render (window);
  g_assert_cmpuint (ui_test_count_colors (texture), >, 10);
  ui_test_save (texture, "call-tree-inverted.png");

  /* and back */
  gtk_widget_activate_action (view, "call-tree.inverted", NULL);
  ui_test_settle ();
  g_assert_false (smprof_call_tree_view_get_inverted (SMPROF_CALL_TREE_VIEW (view)));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------ the view and the CLI */

/* The call tree the view shows, every row expanded, is the tree of the
 * command line's folded export of the same selection, frame for frame. */
static void
test_view_is_cli_tree (void)
{
  GtkWidget *view = smprof_call_tree_view_new ();
  GtkWidget *window;
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (cprofile));
  g_autoptr(GHashTable) frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) folded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *job = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autofree char *out = NULL;
  const char *argv[] = { g_getenv ("SMPROF_CLI"), "export", job, "--all", "--format", "folded", "-o", "-", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GListModel *rows;
  GHashTableIter iter;
  gpointer key, value;
  int status;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  /* inclusive time of every stack prefix, in µs, from the folded lines */
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      char *space = strrchr (lines[i], ' ');
      g_auto(GStrv) stack = NULL;
      g_autoptr(GString) prefix = g_string_new (NULL);
      double weight;

      g_assert_nonnull (space);
      *space = '\0';
      weight = g_ascii_strtod (space + 1, NULL);
      stack = g_strsplit (lines[i], ";", -1);
      for (guint d = 0; stack[d] != NULL; d++)
        {
          double *sum;

          g_string_append_printf (prefix, "%s%s", d > 0 ? ";" : "", stack[d]);
          sum = g_hash_table_lookup (folded, prefix->str);
          if (sum == NULL)
            g_hash_table_insert (folded, g_strdup (prefix->str), sum = g_new0 (double, 1));
          *sum += weight;
        }
    }

  gtk_widget_set_can_target (view, FALSE);
  smprof_call_tree_view_set_profile (SMPROF_CALL_TREE_VIEW (view), cprofile);
  window = ui_test_present (view, 1100, 700);

  /* every row opened, as a person would, one by one */
  rows = smprof_call_tree_view_get_model (SMPROF_CALL_TREE_VIEW (view));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);

      gtk_tree_list_row_set_expanded (row, TRUE);
    }
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GString) path = g_string_new (NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      double *total = g_new (double, 1);
      GtkTreeListRow *up = g_object_ref (row);

      while (up != NULL)
        {
          g_autoptr(SmprofTreeItem) item = gtk_tree_list_row_get_item (up);
          SmprofCallTree *tree = smprof_profile_get_call_tree (smprof_tree_item_get_profile (item));
          guint32 func = smprof_call_tree_get_node (tree, smprof_tree_item_get_node (item))->func;
          GtkTreeListRow *parent = gtk_tree_list_row_get_parent (up);
          char *label = smprof_export_dup_frame_label (table, func);

          g_strdelimit (label, ";", ',');
          g_ptr_array_insert (names, 0, label);
          g_object_unref (up);
          up = parent;
        }
      for (guint d = 0; d < names->len; d++)
        g_string_append_printf (path, "%s%s", d > 0 ? ";" : "", (char *) g_ptr_array_index (names, d));
      {
        g_autoptr(SmprofTreeItem) item = gtk_tree_list_row_get_item (row);

        g_object_get (item, "total", total, NULL);
      }
      g_hash_table_insert (frames, g_string_free (g_steal_pointer (&path), FALSE), total);
    }

  /* the same frames both ways, times within the folded export's rounding
   * (half a microsecond per stack below the frame) */
  g_hash_table_iter_init (&iter, folded);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      double *shown = g_hash_table_lookup (frames, key);

      if (shown == NULL)
        g_error ("the folded export has %s, the view has not", (char *) key);
      g_assert_cmpfloat (fabs (*shown * 1e6 - *(double *) value), <=, 0.5 * g_hash_table_size (folded) + 1);
    }
  g_hash_table_iter_init (&iter, frames);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (*(double *) value >= 0.5e-6 * 2 && !g_hash_table_contains (folded, key))
      g_error ("the view has %s (%g s), the folded export has not", (char *) key, *(double *) value);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------ columns and formats */

static gboolean
header_shows (GtkWidget  *table,
              const char *title)
{
  return find_label (table, title) != NULL;
}

/* Pyinstrument counts no calls: the table shows no ncalls or per-call
 * columns (no column of dashes); cProfile's shows them. */
static void
test_columns (void)
{
  SmprofProfile *profiles[] = { cprofile, pyinstrument };

  for (guint k = 0; k < G_N_ELEMENTS (profiles); k++)
    {
      GtkWidget *table = smprof_function_table_new ();
      GtkWidget *window;
      gboolean counted = smprof_profile_get_profiler (profiles[k]) == SMPROF_PROFILER_CPROFILE;
      g_autoptr(GdkTexture) texture = NULL;

      gtk_widget_set_can_target (table, FALSE);
      smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), profiles[k]);
      window = ui_test_present (table, 1280, 720);

      g_assert_cmpint (header_shows (table, "ncalls"), ==, counted);
      g_assert_cmpint (header_shows (table, "percall"), ==, counted);
      g_assert_true (header_shows (table, "tottime"));
      g_assert_true (header_shows (table, "cumtime"));

      if (!counted)
        {
          /* no cell of dashes where a count would be */
          g_assert_null (find_label (table, "—"));
          texture = ui_test_render (window);
          ui_test_save (texture, "function-table-pyinstrument.png");
        }
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* One spelling of no time per view: the table's seconds, the tree's durations. */
static void
test_time_formats (void)
{
  g_autofree char *a = smprof_ui_format_seconds (0);
  g_autofree char *b = smprof_ui_format_seconds (3e-10);
  g_autofree char *c = smprof_ui_format_seconds (2e-9);
  g_autofree char *d = smprof_ui_format_duration (0);
  g_autofree char *e = smprof_ui_format_duration (3e-9);
  g_autofree char *f = smprof_ui_format_duration (-1e-6);
  g_autofree char *g = smprof_ui_format_duration (2e-8);
  g_autofree char *h = smprof_ui_format_seconds (-1e-6);

  g_assert_cmpstr (a, ==, "0.000");
  g_assert_cmpstr (b, ==, "0.000");
  g_assert_cmpstr (c, ==, "0.000000002");
  g_assert_cmpstr (d, ==, "0 s");
  g_assert_cmpstr (e, ==, "0 s");
  g_assert_cmpstr (f, ==, "0 s");
  g_assert_cmpstr (g, ==, "0.02 µs");
  g_assert_cmpstr (h, ==, "0.000");

  /* every time the function table would show is one of its forms */
  for (guint i = 0; i < smprof_profile_get_n_functions (pyinstrument); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (pyinstrument, i);
      g_autofree char *text = smprof_ui_format_seconds (row->tottime);

      g_assert_false (g_str_has_prefix (text, "0.000000000"));
    }
}

/* ------------------------------------------------------------------ menus */

static void
test_call_tree_menu (void)
{
  GtkWidget *view = smprof_call_tree_view_new ();
  GtkWidget *window;
  Activated last = { NULL, NULL };
  GListModel *rows;
  GtkWidget *expander;
  g_autoptr(SmprofTreeItem) item = NULL;
  g_autofree char *name = NULL;
  guint func;
  graphene_rect_t bounds;
  GtkPopover *popover;

  smprof_call_tree_view_set_profile (SMPROF_CALL_TREE_VIEW (view), cprofile);
  window = ui_test_present (view, 1100, 700);
  insert_page_actions (window, &last);

  rows = smprof_call_tree_view_get_model (SMPROF_CALL_TREE_VIEW (view));
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (rows), 0);
  {
    g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, 0);

    item = gtk_tree_list_row_get_item (row);
  }
  g_object_get (item, "name", &name, "func", &func, NULL);

  check_menu_by_key (view, "Menu", func, name, &last);
  check_menu_by_key (view, "<Shift>F10", func, name, &last);

  /* a secondary click on a row: that row selected, its menu where the click was */
  expander = find_descendant (view, GTK_TYPE_TREE_EXPANDER);
  g_assert_nonnull (expander);
  g_assert_true (gtk_widget_compute_bounds (expander, find_descendant (view, GTK_TYPE_COLUMN_VIEW), &bounds));
  {
    GtkWidget *column_view = find_descendant (view, GTK_TYPE_COLUMN_VIEW);
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (column_view);
    GtkGesture *secondary = NULL;
    g_autoptr(SmprofTreeItem) clicked = NULL;
    GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander));
    g_autoptr(GPtrArray) items = NULL;

    for (guint i = 0; i < g_list_model_get_n_items (controllers) && secondary == NULL; i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (GTK_IS_GESTURE_CLICK (controller) &&
            gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (controller)) == GDK_BUTTON_SECONDARY)
          secondary = GTK_GESTURE (controller);
      }
    g_assert_nonnull (secondary);
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (rows), GTK_INVALID_LIST_POSITION);
    g_signal_emit_by_name (secondary, "pressed", 1, bounds.origin.x + bounds.size.width / 2,
                           bounds.origin.y + bounds.size.height / 2);
    ui_test_settle ();

    clicked = gtk_tree_list_row_get_item (row);
    g_assert_cmpuint (smprof_call_tree_view_get_selected_node (SMPROF_CALL_TREE_VIEW (view)), ==,
                      smprof_tree_item_get_node (clicked));
    popover = find_popover (view);
    g_assert_nonnull (popover);
    items = dup_menu_items (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover)));
    /* a frame's menu offers its subtree; the path is its stack */
    g_assert_true (g_str_has_prefix (g_ptr_array_index (items, 3), "Focus on Subtree|function.focus-subtree|"));
    gtk_popover_popdown (popover);
    ui_test_settle ();
    g_assert_null (find_popover (view));
  }

  g_free (last.action);
  g_clear_pointer (&last.target, g_variant_unref);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_function_table_menu (void)
{
  GtkWidget *table = smprof_function_table_new ();
  GtkWidget *window;
  Activated last = { NULL, NULL };
  GListModel *model;
  g_autoptr(SmprofFunctionItem) item = NULL;
  g_autofree char *name = NULL;
  SmprofFunctionKeys *keys = smprof_job_get_function_keys (smprof_profile_get_job (cprofile));

  smprof_function_table_set_profile (SMPROF_FUNCTION_TABLE (table), cprofile);
  window = ui_test_present (table, 1280, 720);
  insert_page_actions (window, &last);

  model = smprof_function_table_get_model (SMPROF_FUNCTION_TABLE (table));
  item = g_list_model_get_item (model, 2);
  smprof_function_table_set_selected_func (SMPROF_FUNCTION_TABLE (table), smprof_function_item_get_func (item));
  name = smprof_ui_dup_func_name (keys, smprof_function_item_get_func (item));

  check_menu_by_key (table, "Menu", smprof_function_item_get_func (item), name, &last);

  g_free (last.action);
  g_clear_pointer (&last.target, g_variant_unref);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_flame_graph_menu (void)
{
  GtkWidget *graph = smprof_flame_graph_new ();
  GtkWidget *window;
  Activated last = { NULL, NULL };
  SmprofCallTree *tree = smprof_profile_get_call_tree (cprofile);
  guint32 node, func;
  g_autofree char *name = NULL;

  smprof_flame_graph_set_profile (SMPROF_FLAME_GRAPH (graph), cprofile);
  window = ui_test_present (graph, 1100, 500);
  insert_page_actions (window, &last);

  /* the arrows select a frame, as a person would */
  gtk_widget_grab_focus (graph);
  gtk_widget_activate_action (graph, "flamegraph.move", "(ii)", 1, 0);
  node = smprof_flame_graph_get_selected_node (SMPROF_FLAME_GRAPH (graph));
  g_assert_cmpuint (node, !=, SMPROF_CALL_TREE_NONE);
  func = smprof_call_tree_get_node (tree, node)->func;
  name = smprof_ui_dup_func_name (smprof_call_tree_get_table (tree), func);

  check_menu_by_key (graph, "Menu", func, name, &last);

  g_free (last.action);
  g_clear_pointer (&last.target, g_variant_unref);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_diff_table_menu (void)
{
  GtkWidget *table = smprof_diff_table_new ();
  GtkWidget *window;
  Activated last = { NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofDiff) diff = smprof_diff_new (cprofile, cprofile, SMPROF_DIFF_NORMALIZE_NONE, &error);
  GtkWidget *column_view;
  GtkSelectionModel *selection;
  g_autoptr(GObject) item = NULL;
  guint func;
  g_autofree char *name = NULL;

  g_assert_no_error (error);
  smprof_diff_table_set_diff (SMPROF_DIFF_TABLE (table), diff);
  window = ui_test_present (table, 1100, 600);
  insert_page_actions (window, &last);

  column_view = find_descendant (table, GTK_TYPE_COLUMN_VIEW);
  selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view));
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), 0);
  item = g_list_model_get_item (G_LIST_MODEL (selection), 0);
  g_object_get (item, "name", &name, NULL);
  func = smprof_diff_item_get_func (SMPROF_DIFF_ITEM (item));

  check_menu_by_key (table, "<Shift>F10", func, name, &last);

  g_free (last.action);
  g_clear_pointer (&last.target, g_variant_unref);
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

  g_test_add_func ("/views/call-tree/inverted", test_inverted);
  g_test_add_func ("/views/call-tree/is-the-cli-tree", test_view_is_cli_tree);
  g_test_add_func ("/views/function-table/columns", test_columns);
  g_test_add_func ("/views/time-formats", test_time_formats);
  g_test_add_func ("/views/menu/call-tree", test_call_tree_menu);
  g_test_add_func ("/views/menu/function-table", test_function_table_menu);
  g_test_add_func ("/views/menu/flame-graph", test_flame_graph_menu);
  g_test_add_func ("/views/menu/diff-table", test_diff_table_menu);

  status = g_test_run ();

  g_object_unref (cprofile);
  g_object_unref (pyinstrument);

  return status;
}
