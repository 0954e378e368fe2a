/* smprof-call-tree-view.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-call-tree-view.h"
#include "smprof-tree-item.h"
#include "smprof-ui.h"

struct _SmprofCallTreeView
{
  GtkWidget           parent_instance;

  SmprofProfile      *profile;
  GtkSingleSelection *selection;

  /* Template widgets */
  GtkColumnView       *column_view;
  GtkColumnViewColumn *total_column;
  GtkLabel            *kind_label;
};

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_SELECTED_NODE,
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

  if (self->profile != NULL)
    roots = smprof_tree_item_list_children (self->profile, SMPROF_CALL_TREE_ROOT);
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

  /* A single root frame (the script, the training loop) is opened for the user. */
  if (g_list_model_get_n_items (gtk_tree_list_model_get_model (tree_model)) == 1)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (tree_model, 0);

      gtk_tree_list_row_set_expanded (row, TRUE);
    }

  if (self->profile == NULL)
    gtk_label_set_label (self->kind_label, "");
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

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
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

  g_object_class_install_properties (object_class, N_PROPS, properties);

  smprof_ui_ensure_resources ();
  g_type_ensure (SMPROF_TYPE_TREE_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofCallTreeView, column_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofCallTreeView, total_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofCallTreeView, kind_label);

  gtk_widget_class_set_css_name (widget_class, "smprofcalltree");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
smprof_call_tree_view_init (SmprofCallTreeView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

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
