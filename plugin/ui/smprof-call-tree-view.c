/* smprof-call-tree-view.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-call-tree-view.h"
#include "smprof-function-menu.h"
#include "smprof-item-cell.h"
#include "smprof-tree-item.h"
#include "smprof-ui.h"

struct _SmprofCallTreeView
{
  GtkWidget           parent_instance;

  SmprofProfile      *profile;
  SmprofProfile      *shown;      /* the profile, or its inverted tree */
  GtkSingleSelection *selection;
  gboolean            inverted;

  /* Template widgets */
  GtkColumnView       *column_view;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *self_column;
  GtkLabel            *kind_label;
};

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_SELECTED_NODE,
  PROP_INVERTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofCallTreeView, smprof_call_tree_view, GTK_TYPE_WIDGET)

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  SmprofTreeItem *tree_item = item;

  g_assert (SMPROF_IS_TREE_ITEM (tree_item));

  return smprof_tree_item_list_children (smprof_tree_item_get_profile (tree_item),
                                         smprof_tree_item_get_node (tree_item));
}

static void
selection_changed_cb (SmprofCallTreeView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

static void
smprof_call_tree_view_rebuild (SmprofCallTreeView *self)
{
  g_autoptr(GListModel) roots = NULL;
  GtkTreeListModel *tree_model;
  GtkTreeListRowSorter *row_sorter;
  GtkSortListModel *sort_model;
  GtkSorter *view_sorter;

  if (self->selection != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
      g_clear_object (&self->selection);
    }

  g_clear_object (&self->shown);
  if (self->profile != NULL)
    self->shown = self->inverted ? smprof_profile_new_transformed (self->profile, NULL, TRUE)
                                 : g_object_ref (self->profile);

  if (self->shown != NULL)
    roots = smprof_tree_item_list_children (self->shown, SMPROF_CALL_TREE_ROOT);
  if (roots == NULL)
    roots = G_LIST_MODEL (g_list_store_new (SMPROF_TYPE_TREE_ITEM));

  tree_model = gtk_tree_list_model_new (g_steal_pointer (&roots), FALSE, FALSE,
                                        create_children_cb, NULL, NULL);

  view_sorter = gtk_column_view_get_sorter (self->column_view);
  row_sorter = gtk_tree_list_row_sorter_new (view_sorter != NULL ? g_object_ref (view_sorter) : NULL);
  sort_model = gtk_sort_list_model_new (G_LIST_MODEL (tree_model), GTK_SORTER (row_sorter));

  self->selection = gtk_single_selection_new (G_LIST_MODEL (sort_model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed_cb), self);

  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  /* Inverted, every row's time is its root function's own time, along the
   * callers the row and its parents name; what starts where is no use. */
  gtk_column_view_column_set_title (self->total_column, self->inverted ? _("Self Time") : _("Total"));
  gtk_column_view_column_set_visible (self->self_column, !self->inverted);

  /* A single root frame (the script, the training loop) is opened for the user. */
  if (!self->inverted && g_list_model_get_n_items (gtk_tree_list_model_get_model (tree_model)) == 1)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (tree_model, 0);

      gtk_tree_list_row_set_expanded (row, TRUE);
    }

  if (self->profile == NULL)
    gtk_label_set_label (self->kind_label, "");
  else if (self->inverted)
    gtk_label_set_label (self->kind_label,
                         _("Inverted: the functions that spent time themselves, with their self time; "
                           "below each, who called it"));
  else if (smprof_profile_is_estimated (self->profile))
    gtk_label_set_label (self->kind_label,
                         _("Estimated from cProfile’s call graph: each caller’s time is split "
                           "along the call paths in proportion"));
  else
    gtk_label_set_label (self->kind_label, _("Sampled by Pyinstrument"));
  gtk_widget_set_visible (GTK_WIDGET (self->kind_label), self->profile != NULL);

  selection_changed_cb (self);
}

static void
smprof_call_tree_view_dispose (GObject *object)
{
  SmprofCallTreeView *self = SMPROF_CALL_TREE_VIEW (object);
  GtkWidget *child;

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_CALL_TREE_VIEW);
  /* Template children without a bound field are not unparented for us. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->selection);
  g_clear_object (&self->shown);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (smprof_call_tree_view_parent_class)->dispose (object);
}

static void
smprof_call_tree_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  SmprofCallTreeView *self = SMPROF_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, smprof_call_tree_view_get_profile (self));
      break;

    case PROP_SELECTED_NODE:
      g_value_set_uint (value, smprof_call_tree_view_get_selected_node (self));
      break;

    case PROP_INVERTED:
      g_value_set_boolean (value, self->inverted);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_call_tree_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  SmprofCallTreeView *self = SMPROF_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      smprof_call_tree_view_set_profile (self, g_value_get_object (value));
      break;

    case PROP_INVERTED:
      smprof_call_tree_view_set_inverted (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The functions of @node's frame and its callers, from the root down. */
static GArray *
dup_path (SmprofProfile *profile,
          guint32        node)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  GArray *path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (; node != SMPROF_CALL_TREE_ROOT; node = smprof_call_tree_get_node (tree, node)->parent)
    g_array_prepend_val (path, smprof_call_tree_get_node (tree, node)->func);

  return path;
}

/* The menu of @item's function: its frame's stack for "Focus on Subtree",
 * except in the inverted tree, whose stacks read upwards. */
static void
popup_menu (SmprofCallTreeView    *self,
            SmprofTreeItem        *item,
            const graphene_rect_t *at)
{
  SmprofProfile *profile = smprof_tree_item_get_profile (item);
  guint32 node = smprof_tree_item_get_node (item);
  g_autoptr(GArray) path = self->inverted ? NULL : dup_path (profile, node);
  guint32 func = smprof_call_tree_get_node (smprof_profile_get_call_tree (profile), node)->func;
  g_autoptr(GMenuModel) model = smprof_function_menu_new (smprof_call_tree_get_table (smprof_profile_get_call_tree (profile)),
                                                          func, path != NULL ? (const guint32 *) (gpointer) path->data : NULL,
                                                          path != NULL ? path->len : 0);

  smprof_function_menu_popup (GTK_WIDGET (self), model, at);
}

/* Selects the row of @item, so the menu's function is the one highlighted. */
static void
select_item (SmprofCallTreeView *self,
             SmprofTreeItem     *item)
{
  GListModel *model = G_LIST_MODEL (self->selection);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(SmprofTreeItem) at = gtk_tree_list_row_get_item (row);

      if (at == item)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
}

static void
secondary_pressed_cb (SmprofCallTreeView *self,
                      int                 n_press,
                      double              x,
                      double              y,
                      GtkGestureClick    *click)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->column_view), x, y, GTK_PICK_DEFAULT);
  g_autoptr(GObject) item = picked != NULL ? smprof_item_cell_find_item (picked) : NULL;
  graphene_point_t at;

  if (item == NULL || !SMPROF_IS_TREE_ITEM (item))
    return;

  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
  select_item (self, SMPROF_TREE_ITEM (item));
  if (!gtk_widget_compute_point (GTK_WIDGET (self->column_view), GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &at))
    at = GRAPHENE_POINT_INIT (x, y);
  popup_menu (self, SMPROF_TREE_ITEM (item), &GRAPHENE_RECT_INIT (at.x, at.y, 1, 1));
}

/* The Menu key, Shift+F10: the selected row's menu, at the row that has the focus. */
static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofCallTreeView *self = SMPROF_CALL_TREE_VIEW (widget);
  GtkTreeListRow *row = self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  g_autoptr(SmprofTreeItem) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  graphene_rect_t bounds;

  if (item == NULL)
    return;

  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->column_view)) &&
      gtk_widget_compute_bounds (focus, widget, &bounds))
    popup_menu (self, item, &bounds);
  else
    popup_menu (self, item, NULL);
}

static void
smprof_call_tree_view_class_init (SmprofCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_call_tree_view_dispose;
  object_class->get_property = smprof_call_tree_view_get_property;
  object_class->set_property = smprof_call_tree_view_set_property;

  /**
   * SmprofCallTreeView:profile:
   *
   * The aggregated selection whose call tree is shown.
   */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         SMPROF_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofCallTreeView:selected-node:
   *
   * The call tree node of the selected row, or `SMPROF_CALL_TREE_NONE`.
   */
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL,
                       0, G_MAXUINT32, SMPROF_CALL_TREE_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofCallTreeView:inverted:
   *
   * Whether the tree reads bottom-up (Firefox Profiler's "Invert call stack",
   * Sysprof's callers): the functions that spent time themselves at the roots,
   * with that self time, and below each the frames that called it.
   */
  properties[PROP_INVERTED] =
    g_param_spec_boolean ("inverted", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_property_action (widget_class, "call-tree.inverted", "inverted");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "call-tree.inverted", NULL);
  smprof_function_menu_install_actions (widget_class, menu_action);

  smprof_ui_ensure_resources ();
  g_type_ensure (SMPROF_TYPE_TREE_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofCallTreeView, column_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofCallTreeView, total_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofCallTreeView, self_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofCallTreeView, kind_label);

  gtk_widget_class_set_css_name (widget_class, "smprofcalltree");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
smprof_call_tree_view_init (SmprofCallTreeView *self)
{
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));

  gtk_column_view_sort_by_column (self->column_view, self->total_column, GTK_SORT_DESCENDING);
  smprof_call_tree_view_rebuild (self);
}

GtkWidget *
smprof_call_tree_view_new (void)
{
  return g_object_new (SMPROF_TYPE_CALL_TREE_VIEW, NULL);
}

SmprofProfile *
smprof_call_tree_view_get_profile (SmprofCallTreeView *self)
{
  g_return_val_if_fail (SMPROF_IS_CALL_TREE_VIEW (self), NULL);

  return self->profile;
}

/**
 * smprof_call_tree_view_set_profile:
 * @self: a call tree view
 * @profile: (nullable): the profile to show
 *
 * Shows the call tree of @profile, sorted by total time, with a lone root
 * frame expanded.
 */
void
smprof_call_tree_view_set_profile (SmprofCallTreeView *self,
                                   SmprofProfile      *profile)
{
  g_return_if_fail (SMPROF_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (profile == NULL || SMPROF_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  smprof_call_tree_view_rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

guint32
smprof_call_tree_view_get_selected_node (SmprofCallTreeView *self)
{
  GtkTreeListRow *row;
  g_autoptr(SmprofTreeItem) item = NULL;

  g_return_val_if_fail (SMPROF_IS_CALL_TREE_VIEW (self), SMPROF_CALL_TREE_NONE);

  if (self->selection == NULL)
    return SMPROF_CALL_TREE_NONE;

  row = gtk_single_selection_get_selected_item (self->selection);
  if (row == NULL)
    return SMPROF_CALL_TREE_NONE;

  item = gtk_tree_list_row_get_item (row);
  if (item == NULL)
    return SMPROF_CALL_TREE_NONE;

  return smprof_tree_item_get_node (item);
}

/**
 * smprof_call_tree_view_get_model:
 * @self: a call tree view
 *
 * Returns: (transfer none): the rows as shown, each a #GtkTreeListRow whose
 *   item is a #SmprofTreeItem
 */
GListModel *
smprof_call_tree_view_get_model (SmprofCallTreeView *self)
{
  g_return_val_if_fail (SMPROF_IS_CALL_TREE_VIEW (self), NULL);

  return G_LIST_MODEL (self->selection);
}

gboolean
smprof_call_tree_view_get_inverted (SmprofCallTreeView *self)
{
  g_return_val_if_fail (SMPROF_IS_CALL_TREE_VIEW (self), FALSE);

  return self->inverted;
}

/**
 * smprof_call_tree_view_set_inverted:
 * @self: a call tree view
 * @inverted: whether to show the bottom-up tree
 *
 * Shows the profile's tree bottom-up (the "call-tree.inverted" action,
 * Ctrl+I): the functions that spent time themselves, with that time, and
 * under each the callers of those frames.
 */
void
smprof_call_tree_view_set_inverted (SmprofCallTreeView *self,
                                    gboolean            inverted)
{
  g_return_if_fail (SMPROF_IS_CALL_TREE_VIEW (self));

  inverted = !!inverted;
  if (inverted == self->inverted)
    return;

  self->inverted = inverted;
  smprof_call_tree_view_rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INVERTED]);
}
