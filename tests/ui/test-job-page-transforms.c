/* test-job-page-transforms.c: reshaping the call tree from the job page, by
 * keyboard, in a viewer window: the function menu, the breadcrumb, Undo
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Real X key presses and clicks (xdotool): the Menu key or Shift+F10 on a
 * Functions row opens its menu, an item of it merges or focuses on the
 * function, the Functions table and the Call Tree show what the core makes
 * of the same selection with the same transform, the breadcrumb names it,
 * Ctrl+Z and Undo take it back, the first crumb clears them all.
 */

#include <string.h>

#include <glib/gstdio.h>
#include <smprof-viewer-api.h>

#include "smprof-function-item.h"
#include "smprof-job-page-private.h"
#include "smprof-node-matrix-private.h"
#include "smprof-sagemaker-source.h"
#include "smprof-tree-item.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "page-test-util.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

static SmvSourceRegistry *registry;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static SmvWindow *
open_job (const char     *name,
          SmprofJobPage **page)
{
  g_autofree char *path = window_test_real_job (name);
  SmvWindow *window = window_test_open_job (registry, path, 1280, 800, page);

  ui_test_settle ();
  return window;
}

static GtkPopover *
find_menu (GtkWidget *widget)
{
  if (GTK_IS_POPOVER_MENU (widget) && gtk_widget_get_visible (widget))
    return GTK_POPOVER (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkPopover *found = find_menu (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
menu_shown (gpointer data)
{
  GtkPopover *popover = find_menu (data);

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

/* The mapped widget of @type whose label (a button's, or a label's as
 * drawn) is @text. */
static GtkWidget *
find_labelled (GtkWidget  *widget,
               GType       type,
               const char *text)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && gtk_widget_get_mapped (widget))
    {
      g_autofree char *label = NULL;

      /* a label's text as drawn: mnemonics' underscores taken out */
      if (GTK_IS_LABEL (widget))
        label = g_strdup (gtk_label_get_text (GTK_LABEL (widget)));
      else if (GTK_IS_BUTTON (widget))
        label = g_strdup (gtk_button_get_label (GTK_BUTTON (widget)));
      if (g_strcmp0 (label, text) == 0)
        return widget;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_labelled (child, type, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The labels of the breadcrumb's crumbs, in order. */
static char *
dup_crumbs (SmprofJobPage *page)
{
  GString *out = g_string_new (NULL);

  if (!gtk_widget_get_mapped (page->transforms_bar))
    return g_string_free (out, FALSE);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (page->crumbs_box)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BUTTON (child) && gtk_widget_get_mapped (child))
      g_string_append_printf (out, "%s%s", out->len > 0 ? " › " : "", gtk_button_get_label (GTK_BUTTON (child)));

  return g_string_free (out, FALSE);
}

/* The Functions table's rows: function id → the row's self and cumulative
 * time, as the table's items hold them. */
static GHashTable *
dup_table_rows (SmprofJobPage *page)
{
  GListModel *model = smprof_function_table_get_model (page->function_table);
  GHashTable *rows = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (model, i);
      SmprofFunctionRow *row = g_new0 (SmprofFunctionRow, 1);

      row->func = smprof_function_item_get_func (item);
      row->tottime = smprof_function_item_get_tottime (item);
      row->cumtime = smprof_function_item_get_cumtime (item);
      g_hash_table_insert (rows, GUINT_TO_POINTER (row->func + 1), row);
    }

  return rows;
}

/* @window drawn with @popover over it where the display shows it: a popover
 * is a surface of its own, which the window's drawing leaves out. */
static GdkTexture *
render_with_popover (GtkWidget  *window,
                     GtkPopover *popover)
{
  g_autoptr(GdkPaintable) window_paintable = gtk_widget_paintable_new (window);
  g_autoptr(GdkPaintable) popover_paintable = gtk_widget_paintable_new (GTK_WIDGET (popover));
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  GdkTexture *texture;
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (popover));
  double window_dx, window_dy, popover_dx, popover_dy;
  int width = gtk_widget_get_width (window), height = gtk_widget_get_height (window);

  ui_test_settle ();
  gtk_native_get_surface_transform (GTK_NATIVE (window), &window_dx, &window_dy);
  gtk_native_get_surface_transform (GTK_NATIVE (popover), &popover_dx, &popover_dy);

  gdk_paintable_snapshot (window_paintable, snapshot, width, height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (gdk_popup_get_position_x (GDK_POPUP (surface)) + popover_dx -
                                                          window_dx,
                                                          gdk_popup_get_position_y (GDK_POPUP (surface)) + popover_dy -
                                                          window_dy));
  gdk_paintable_snapshot (popover_paintable, snapshot, gtk_widget_get_width (GTK_WIDGET (popover)),
                          gtk_widget_get_height (GTK_WIDGET (popover)));
  gtk_snapshot_restore (snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);

  return texture;
}

/* The Functions table shows @expected's rows: the same functions, each with
 * its self and cumulative times. */
static void
check_table_is (SmprofJobPage *page,
                SmprofProfile *expected)
{
  g_autoptr(GHashTable) rows = NULL;

  smprof_function_table_set_filter_text (page->function_table, NULL);
  ui_test_settle ();
  rows = dup_table_rows (page);
  g_assert_cmpuint (g_hash_table_size (rows), ==, smprof_profile_get_n_functions (expected));
  for (guint i = 0; i < smprof_profile_get_n_functions (expected); i++)
    {
      const SmprofFunctionRow *want = smprof_profile_get_function (expected, i);
      const SmprofFunctionRow *shown = g_hash_table_lookup (rows, GUINT_TO_POINTER (want->func + 1));

      g_assert_nonnull (shown);
      g_assert_cmpfloat_with_epsilon (shown->tottime, want->tottime, 1e-9);
      g_assert_cmpfloat_with_epsilon (shown->cumtime, want->cumtime, 1e-9);
    }
}

/* The Call Tree's top rows are @expected's roots: the same functions with
 * the same total times. */
static void
check_call_tree_is (SmprofJobPage *page,
                    SmprofProfile *expected)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (expected);
  GListModel *rows;
  double shown_sum = 0, want_sum = 0;
  guint n_roots = 0, n_want = 0;

  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "call-tree");
  ui_test_settle ();
  g_assert_true (smprof_call_tree_view_get_profile (page->call_tree_view) == smprof_session_get_view_profile (
                   smprof_job_page_get_session (page)));

  for (guint32 child = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->first_child;
       child != SMPROF_CALL_TREE_NONE; child = smprof_call_tree_get_node (tree, child)->next_sibling)
    {
      want_sum += smprof_call_tree_get_node (tree, child)->total;
      n_want++;
    }

  rows = smprof_call_tree_view_get_model (page->call_tree_view);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(SmprofTreeItem) item = NULL;
      const SmprofCallTreeNode *node;

      if (gtk_tree_list_row_get_depth (row) != 0)
        continue;
      item = gtk_tree_list_row_get_item (row);
      node = smprof_call_tree_get_node (smprof_profile_get_call_tree (smprof_tree_item_get_profile (item)),
                                        smprof_tree_item_get_node (item));
      shown_sum += node->total;
      n_roots++;
    }
  g_assert_cmpuint (n_roots, ==, n_want);
  g_assert_cmpfloat_with_epsilon (shown_sum, want_sum, 1e-6);
  g_assert_cmpfloat_with_epsilon (shown_sum, smprof_profile_get_total_time (expected), 1e-6);

  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "functions");
  ui_test_settle ();
}

/* The core's answer for the page's selection with @transform applied. */
static SmprofProfile *
core_transformed (SmprofJobPage   *page,
                  SmprofTransform *transform)
{
  g_autoptr(GPtrArray) transforms = g_ptr_array_new ();

  g_ptr_array_add (transforms, transform);

  return smprof_profile_new_transformed (smprof_session_get_profile (smprof_job_page_get_session (page)),
                                         transforms, FALSE);
}

/* Selects @func's row, gives the table the keyboard, presses @key (real X
 * keys) and activates the menu's item @label. */
static void
menu_by_key (SmvWindow     *window,
             SmprofJobPage *page,
             guint32        func,
             const char    *key,
             const char    *label,
             const char    *screenshot)
{
  GtkPopover *popover;
  GtkWidget *item;

  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "functions");
  smprof_function_table_set_selected_func (page->function_table, func);
  ui_test_settle ();
  g_assert_cmpuint (smprof_function_table_get_selected_func (page->function_table), ==, func);
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (page->function_table), GTK_DIR_TAB_FORWARD));
  {
    /* the focus on the table's rows, not its filter */
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

    while (focus != NULL && GTK_IS_EDITABLE (focus))
      {
        g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD));
        focus = gtk_root_get_focus (GTK_ROOT (window));
      }
  }

  g_assert_null (find_menu (GTK_WIDGET (page->function_table)));
  /* the key alone: the menu that opens takes the keyboard, so
   * ui_test_x_keys()'s closing key would not reach the window; the menu
   * shown is the sign the key arrived */
  ui_test_x_focus (GTK_WIDGET (window));
  page_test_run ((const char *[]) { "xdotool", "key", "--clearmodifiers", key, NULL });
  g_assert_true (viewer_test_wait (menu_shown, page->function_table, 5000));
  popover = find_menu (GTK_WIDGET (page->function_table));

  /* the page offers the reshaping items: they are shown */
  item = find_labelled (GTK_WIDGET (popover), GTK_TYPE_LABEL, label);
  g_assert_nonnull (item);
  g_assert_nonnull (find_labelled (GTK_WIDGET (popover), GTK_TYPE_LABEL, "Show Callers"));
  /* a file's name as it is: an underscore is no mnemonic */
  {
    const char *file = smprof_function_keys_get_file (smprof_job_get_function_keys (smprof_job_page_get_job (page)),
                                                      func);
    g_autofree char *base = g_path_get_basename (file);
    g_autofree char *collapse = g_strdup_printf ("Collapse File %s", base);

    if (file[0] == '/')
      g_assert_nonnull (find_labelled (GTK_WIDGET (popover), GTK_TYPE_LABEL, collapse));
  }
  /* and Compare Across Nodes (the Node Matrix with its column first) */
  g_assert_nonnull (find_labelled (GTK_WIDGET (popover), GTK_TYPE_LABEL, "Compare Across Nodes"));

  if (screenshot != NULL)
    {
      g_autoptr(GdkTexture) texture = render_with_popover (GTK_WIDGET (window), popover);

      ui_test_save (texture, screenshot);
    }

  while (item != NULL && !GTK_IS_BUTTON (item) && !gtk_widget_get_focusable (item))
    item = gtk_widget_get_parent (item);
  g_assert_nonnull (item);
  g_assert_true (gtk_widget_activate (item));
  ui_test_settle ();
}

/* ------------------------------------------------------------------------ */
/* Merge, Focus, Undo, the first crumb                                      */

static void
test_merge_focus_undo (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofSession *session;
  SmprofProfile *aggregate;
  g_autoptr(SmprofProfile) merged = NULL;
  g_autoptr(SmprofProfile) focused = NULL;
  g_autoptr(SmprofTransform) merge = NULL;
  g_autoptr(SmprofTransform) focus = NULL;
  g_autofree char *crumbs = NULL;
  g_autofree char *merge_text = NULL;
  g_autofree char *focus_text = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GHashTable) before = NULL;
  guint32 busiest = SMPROF_FUNC_NONE, caller = SMPROF_FUNC_NONE;
  double best = -1;
  GtkWidget *first;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  session = smprof_job_page_get_session (page);
  aggregate = smprof_session_get_profile (session);
  g_assert_true (smprof_session_get_view_profile (session) == aggregate);
  g_assert_false (gtk_widget_get_visible (page->transforms_bar));

  /* what to merge: the function with the most self time; what to focus on:
   * the busiest function that calls others */
  for (guint i = 0; i < smprof_profile_get_n_functions (aggregate); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (aggregate, i);

      if (row->tottime > best)
        {
          best = row->tottime;
          busiest = row->func;
        }
    }
  best = -1;
  for (guint i = 0; i < smprof_profile_get_n_functions (aggregate); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (aggregate, i);

      if (row->func != busiest && row->cumtime > 1.5 * row->tottime &&
          row->cumtime < 0.6 * smprof_profile_get_total_time (aggregate) && row->cumtime > best)
        {
          best = row->cumtime;
          caller = row->func;
        }
    }
  g_assert_cmpuint (busiest, !=, SMPROF_FUNC_NONE);
  g_assert_cmpuint (caller, !=, SMPROF_FUNC_NONE);

  before = dup_table_rows (page);
  g_assert_true (g_hash_table_contains (before, GUINT_TO_POINTER (busiest + 1)));
  check_table_is (page, aggregate);

  /* Menu, then Merge Function */
  menu_by_key (window, page, busiest, "Menu", "Merge Function", NULL);
  merge = smprof_transform_new_merge (busiest);
  merged = core_transformed (page, merge);
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 1);
  /* the merged function has no row of its own any more */
  check_table_is (page, merged);
  g_assert_false (g_hash_table_contains (dup_table_rows (page), GUINT_TO_POINTER (busiest + 1)));
  check_call_tree_is (page, merged);
  merge_text = smprof_transform_describe (merge, smprof_job_get_function_keys (smprof_job_page_get_job (page)));
  crumbs = dup_crumbs (page);
  expected = g_strdup_printf ("Full profile › %s", merge_text);
  g_assert_cmpstr (crumbs, ==, expected);
  g_clear_pointer (&crumbs, g_free);
  g_clear_pointer (&expected, g_free);

  /* Ctrl+Z: the aggregate's rows again */
  ui_test_x_keys (GTK_WIDGET (window), "ctrl+z");
  ui_test_settle ();
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 0);
  check_table_is (page, aggregate);
  check_call_tree_is (page, aggregate);
  g_assert_false (gtk_widget_get_visible (page->transforms_bar));

  /* Merge again, then Shift+F10 and Focus on Function on the caller (the
   * menu, saved as a picture) */
  menu_by_key (window, page, busiest, "shift+F10", "Merge Function", NULL);
  menu_by_key (window, page, caller, "shift+F10", "Focus on Function", "function-menu.png");
  focus = smprof_transform_new_focus_function (caller);
  {
    g_autoptr(GPtrArray) both = g_ptr_array_new ();

    g_ptr_array_add (both, merge);
    g_ptr_array_add (both, focus);
    focused = smprof_profile_new_transformed (aggregate, both, FALSE);
  }
  check_table_is (page, focused);
  check_call_tree_is (page, focused);
  g_assert_cmpfloat (smprof_profile_get_total_time (focused), <, smprof_profile_get_total_time (merged));
  focus_text = smprof_transform_describe (focus, smprof_job_get_function_keys (smprof_job_page_get_job (page)));
  crumbs = dup_crumbs (page);
  expected = g_strdup_printf ("Full profile › %s › %s", merge_text, focus_text);
  g_assert_cmpstr (crumbs, ==, expected);
  g_clear_pointer (&crumbs, g_free);
  g_clear_pointer (&expected, g_free);

  /* the breadcrumb's long names ellipsized: the page within its window */
  {
    int min_width = 0;

    gtk_widget_measure (GTK_WIDGET (page), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    g_assert_cmpint (min_width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
    g_assert_true (gtk_widget_get_mapped (page->undo_transform_button));
  }

  /* the breadcrumb with two transforms, as a person sees it */
  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "call-tree");
  ui_test_settle ();
  {
    g_autoptr(GdkTexture) texture = ui_test_render (GTK_WIDGET (window));

    g_assert_cmpuint (ui_test_count_colors (texture), >, 10);
    ui_test_save (texture, "transforms.png");
  }
  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "functions");
  ui_test_settle ();

  /* the Undo button: back to the merge alone */
  g_assert_true (gtk_widget_get_mapped (page->undo_transform_button));
  ui_test_x_click (page->undo_transform_button, gtk_widget_get_width (page->undo_transform_button) / 2.0,
                   gtk_widget_get_height (page->undo_transform_button) / 2.0);
  ui_test_settle ();
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 1);
  check_table_is (page, merged);
  crumbs = dup_crumbs (page);
  expected = g_strdup_printf ("Full profile › %s", merge_text);
  g_assert_cmpstr (crumbs, ==, expected);
  g_clear_pointer (&crumbs, g_free);
  g_clear_pointer (&expected, g_free);

  /* the first crumb, clicked: every transform gone */
  menu_by_key (window, page, caller, "Menu", "Focus on Function", NULL);
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 2);
  first = find_labelled (GTK_WIDGET (page->crumbs_box), GTK_TYPE_BUTTON, "Full profile");
  g_assert_nonnull (first);
  ui_test_x_click (first, gtk_widget_get_width (first) / 2.0, gtk_widget_get_height (first) / 2.0);
  ui_test_settle ();
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 0);
  g_assert_true (smprof_session_get_view_profile (session) == aggregate);
  check_table_is (page, aggregate);
  check_call_tree_is (page, aggregate);
  g_assert_false (gtk_widget_get_visible (page->transforms_bar));

  window_test_close (window);
}

/* Hide Libraries: the toggle pushes the transform and takes it out again;
 * the library frames' rows go, the user code's stay. */
static void
test_hide_libraries (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofSession *session;
  g_autoptr(SmprofTransform) hide = smprof_transform_new_hide_libraries ();
  g_autoptr(SmprofProfile) hidden = NULL;
  SmprofProfile *aggregate;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  session = smprof_job_page_get_session (page);
  aggregate = smprof_session_get_profile (session);

  g_assert_false (gtk_toggle_button_get_active (page->hide_libraries_button));
  ui_test_x_click (GTK_WIDGET (page->hide_libraries_button),
                   gtk_widget_get_width (GTK_WIDGET (page->hide_libraries_button)) / 2.0,
                   gtk_widget_get_height (GTK_WIDGET (page->hide_libraries_button)) / 2.0);
  ui_test_settle ();
  g_assert_true (gtk_toggle_button_get_active (page->hide_libraries_button));
  g_assert_true (smprof_session_get_hide_libraries (session));
  hidden = core_transformed (page, hide);
  g_assert_cmpuint (smprof_profile_get_n_functions (hidden), <, smprof_profile_get_n_functions (aggregate));
  check_table_is (page, hidden);
  g_assert_true (gtk_widget_get_visible (page->transforms_bar));

  ui_test_x_click (GTK_WIDGET (page->hide_libraries_button),
                   gtk_widget_get_width (GTK_WIDGET (page->hide_libraries_button)) / 2.0,
                   gtk_widget_get_height (GTK_WIDGET (page->hide_libraries_button)) / 2.0);
  ui_test_settle ();
  g_assert_false (gtk_toggle_button_get_active (page->hide_libraries_button));
  check_table_is (page, aggregate);

  window_test_close (window);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;

  smprof_job_page_export_finish (SMPROF_JOB_PAGE (object), result, error);
  g_object_set_data (object, "test-export-done", GINT_TO_POINTER (1));
}

static void
report_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;

  smprof_job_page_export_report_finish (SMPROF_JOB_PAGE (object), result, error);
  g_object_set_data (object, "test-export-done", GINT_TO_POINTER (1));
}

static gboolean
export_done (gpointer data)
{
  return g_object_get_data (data, "test-export-done") != NULL;
}

/* The page's folded export of a merged view is `smprof export --merge`'s
 * for the same selection, line for line; the menu's moves reach the
 * Functions table's callers and callees. */
static void
test_export_and_moves (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofSession *session;
  SmprofProfile *aggregate;
  g_autofree char *tmp = g_dir_make_tmp ("smprof-transforms-XXXXXX", NULL);
  g_autofree char *mine_path = g_build_filename (tmp, "page.folded", NULL);
  g_autofree char *cli_path = g_build_filename (tmp, "cli.folded", NULL);
  g_autofree char *job = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autoptr(GFile) mine_file = g_file_new_for_path (mine_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *mine = NULL;
  g_autofree char *theirs = NULL;
  g_autofree char *unmerged = NULL;
  g_auto(GStrv) options = NULL;
  g_auto(GStrv) words = NULL;
  guint32 busiest = SMPROF_FUNC_NONE, caller = SMPROF_FUNC_NONE;
  double best = -1;
  GtkWidget *focus;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  session = smprof_job_page_get_session (page);
  aggregate = smprof_session_get_profile (session);
  for (guint i = 0; i < smprof_profile_get_n_functions (aggregate); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (aggregate, i);

      if (row->tottime > best)
        {
          best = row->tottime;
          busiest = row->func;
        }
    }

  /* before: the aggregate's folded stacks */
  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  smprof_job_page_export_async (page, SMPROF_EXPORT_FOLDED, mine_file, NULL, export_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (mine_path, &unmerged, NULL, &error));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "function.merge", "u", busiest));
  ui_test_settle ();
  options = smprof_session_dup_transform_options (session);
  g_assert_cmpuint (g_strv_length (options), ==, 1);
  g_assert_true (g_shell_parse_argv (options[0], NULL, &words, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (words), ==, 2);

  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  smprof_job_page_export_async (page, SMPROF_EXPORT_FOLDED, mine_file, NULL, export_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  page_test_run ((const char *[]) { g_getenv ("SMPROF_CLI"), "export", job, "--all", "--node", "all",
                                    words[0], words[1], "--format", "folded", "-o", cli_path, NULL });
  g_assert_true (g_file_get_contents (mine_path, &mine, NULL, &error));
  g_assert_true (g_file_get_contents (cli_path, &theirs, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mine, ==, theirs);
  g_assert_cmpstr (mine, !=, unmerged);

  /* the report names the merge and gives the command that writes it again,
   * the merge included */
  {
    g_autofree char *report_path = g_build_filename (tmp, "report.html", NULL);
    g_autoptr(GFile) report_file = g_file_new_for_path (report_path);
    g_autofree char *html = NULL;
    g_autofree char *described = smprof_session_describe_transform (session, 0);
    g_autofree char *command = smprof_session_dup_command_line (session, "report", report_path);

    g_assert_nonnull (command);
    g_assert_nonnull (strstr (command, options[0]));
    g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
    smprof_job_page_export_report_async (page, report_file, NULL, report_done_cb, &error);
    g_assert_true (viewer_test_wait (export_done, page, 60000));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (report_path, &html, NULL, &error));
    g_assert_no_error (error);
    g_assert_nonnull (strstr (html, described));
    g_assert_nonnull (strstr (html, "smprof report "));
    g_assert_nonnull (strstr (html, "--merge "));
    g_assert_nonnull (strstr (html, "--node all --all"));
    g_unlink (report_path);
  }

  /* Show Callees: the Functions table, the row, its callees' list focused */
  best = -1;
  for (guint i = 0; i < smprof_profile_get_n_functions (aggregate); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (aggregate, i);

      if (row->func != busiest && row->cumtime > 1.5 * row->tottime && row->cumtime > best &&
          row->cumtime < 0.6 * smprof_profile_get_total_time (aggregate))
        {
          best = row->cumtime;
          caller = row->func;
        }
    }
  g_assert_cmpuint (caller, !=, SMPROF_FUNC_NONE);
  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "call-tree");
  ui_test_settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "function.show-callees", "u", caller));
  ui_test_settle ();
  g_assert_true (gtk_stack_get_visible_child (page->views_stack) == GTK_WIDGET (page->functions_slot));
  g_assert_cmpuint (smprof_function_table_get_selected_func (page->function_table), ==, caller);
  g_assert_cmpuint (g_list_model_get_n_items (smprof_function_table_get_callees_model (page->function_table)), >, 0);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (page->function_table)));
  g_assert_nonnull (gtk_widget_get_ancestor (focus, GTK_TYPE_COLUMN_VIEW));
  g_assert_cmpstr (gtk_widget_get_name (gtk_widget_get_ancestor (focus, GTK_TYPE_COLUMN_VIEW)), ==, "callees-list");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "function.show-callers", "u", caller));
  ui_test_settle ();
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_cmpstr (gtk_widget_get_name (gtk_widget_get_ancestor (focus, GTK_TYPE_COLUMN_VIEW)), ==, "callers-list");

  window_test_close (window);
  g_unlink (mine_path);
  g_unlink (cli_path);
  g_rmdir (tmp);
}

/* ------------------------------------------------------------------------ */
/* Compare Across Nodes                                                     */

static gboolean
has_job_step_stats (gpointer data)
{
  return smprof_session_get_job_step_stats (smprof_job_page_get_session (data)) != NULL;
}

static gboolean
matrix_ready (gpointer data)
{
  return !smprof_node_matrix_get_computing (data) && smprof_node_matrix_get_n_columns (data) > 0;
}

/* From a Functions row's menu, a function that is none of the top ones:
 * the Node Matrix comes up with its column first, each node's cell its
 * self time per step there. */
static void
test_compare_nodes (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  SmprofNodeMatrix *matrix;
  SmprofStepStats *stats;
  g_autoptr(GArray) top = NULL;
  g_autofree double *times = NULL;
  g_autofree guint *n_steps = NULL;
  guint n_functions, index = G_MAXUINT;
  guint32 func;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = open_job ("pt-cprofile", &page);
  g_assert_true (viewer_test_wait (has_job_step_stats, page, 60000));
  stats = smprof_session_get_job_step_stats (smprof_job_page_get_session (page));
  matrix = smprof_node_matrix_view_get_matrix (page->node_matrix_view);
  top = smprof_step_stats_top_functions (stats, smprof_node_matrix_get_top_n (matrix));
  times = smprof_step_stats_dup_node_function_times (stats, &n_steps);
  n_functions = smprof_step_stats_get_n_functions (stats);

  /* the first function with self time on the first node, of the others */
  for (guint i = 0; i < n_functions && index == G_MAXUINT; i++)
    {
      gboolean in_top = FALSE;

      for (guint c = 0; c < top->len; c++)
        in_top |= g_array_index (top, guint, c) == i;
      if (!in_top && times[i] > 0)
        index = i;
    }
  g_assert_cmpuint (index, !=, G_MAXUINT);
  func = smprof_step_stats_get_function (stats, index)->func;

  menu_by_key (window, page, func, "shift+F10", "Compare Across Nodes", NULL);
  g_assert_true (gtk_stack_get_visible_child (page->views_stack) == GTK_WIDGET (page->node_matrix_view));
  g_assert_cmpuint (smprof_node_matrix_get_pinned_function (matrix), ==, func);
  g_assert_true (viewer_test_wait (matrix_ready, matrix, 30000));

  g_assert_cmpuint (smprof_node_matrix_get_n_columns (matrix), ==, top->len + 1);
  g_assert_cmpuint (_smprof_node_matrix_get_column_function (matrix, 0), ==, index);
  for (guint row = 0; row < smprof_node_matrix_get_n_nodes (matrix); row++)
    {
      /* the scan of one node's steps, not the matrix's one pass */
      guint steps = 0;
      double time = smprof_step_stats_get_node_function_time (stats, _smprof_node_matrix_get_node_id (matrix, row),
                                                             index, &steps);
      double expected = time / steps;

      g_test_message ("%s: %.6f s per step", _smprof_node_matrix_get_node_id (matrix, row), expected);
      g_assert_cmpfloat_with_epsilon (_smprof_node_matrix_get_value (matrix, row, 0), expected, 1e-12);
    }

  window_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/transforms/merge-focus-undo", test_merge_focus_undo);
  g_test_add_func ("/transforms/hide-libraries", test_hide_libraries);
  g_test_add_func ("/transforms/export-and-moves", test_export_and_moves);
  g_test_add_func ("/transforms/compare-nodes", test_compare_nodes);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
