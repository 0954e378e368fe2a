/* smprof-tree-item.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-tree-item.h"
#include "smprof-ui-format.h"

struct _SmprofTreeItem
{
  GObject        parent_instance;

  SmprofProfile *profile;
  guint32        node;
};

enum {
  PROP_0,
  PROP_NODE,
  PROP_FUNC,
  PROP_NAME,
  PROP_LOCATION,
  PROP_TOTAL,
  PROP_SELF,
  PROP_TOTAL_FRACTION,
  PROP_SELF_FRACTION,
  PROP_TOTAL_TEXT,
  PROP_SELF_TEXT,
  PROP_PERCENT_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofTreeItem, smprof_tree_item, G_TYPE_OBJECT)

static const SmprofCallTreeNode *
get_node (SmprofTreeItem *self)
{
  return smprof_call_tree_get_node (smprof_profile_get_call_tree (self->profile), self->node);
}

static double
fraction_of_root (SmprofTreeItem *self,
                  double          value)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (self->profile);
  double root = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->total;

  return root > 0 ? MAX (value / root, 0.0) : 0;
}

static void
smprof_tree_item_dispose (GObject *object)
{
  SmprofTreeItem *self = SMPROF_TREE_ITEM (object);

  g_clear_object (&self->profile);

  G_OBJECT_CLASS (smprof_tree_item_parent_class)->dispose (object);
}

static void
smprof_tree_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SmprofTreeItem     *self = SMPROF_TREE_ITEM (object);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (self->profile));

  switch (prop_id)
    {
    case PROP_NODE:
      g_value_set_uint (value, self->node);
      break;

    case PROP_FUNC:
      g_value_set_uint (value, get_node (self)->func);
      break;

    case PROP_NAME:
      g_value_take_string (value, smprof_ui_dup_func_name (table, get_node (self)->func));
      break;

    case PROP_LOCATION:
      g_value_take_string (value, smprof_ui_dup_func_location (table, get_node (self)->func));
      break;

    case PROP_TOTAL:
      g_value_set_double (value, get_node (self)->total);
      break;

    case PROP_SELF:
      g_value_set_double (value, get_node (self)->self);
      break;

    case PROP_TOTAL_FRACTION:
      g_value_set_double (value, fraction_of_root (self, get_node (self)->total));
      break;

    case PROP_SELF_FRACTION:
      g_value_set_double (value, fraction_of_root (self, get_node (self)->self));
      break;

    case PROP_TOTAL_TEXT:
      g_value_take_string (value, smprof_ui_format_duration (get_node (self)->total));
      break;

    case PROP_SELF_TEXT:
      g_value_take_string (value, smprof_ui_format_duration (get_node (self)->self));
      break;

    case PROP_PERCENT_TEXT:
      g_value_take_string (value, smprof_ui_format_percent (fraction_of_root (self, get_node (self)->total)));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_tree_item_class_init (SmprofTreeItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->dispose = smprof_tree_item_dispose;
  object_class->get_property = smprof_tree_item_get_property;

  properties[PROP_NODE] =
    g_param_spec_uint ("node", NULL, NULL, 0, G_MAXUINT32, 0, flags);
  properties[PROP_FUNC] =
    g_param_spec_uint ("func", NULL, NULL, 0, G_MAXUINT32, SMPROF_FUNC_NONE, flags);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_LOCATION] =
    g_param_spec_string ("location", NULL, NULL, NULL, flags);
  properties[PROP_TOTAL] =
    g_param_spec_double ("total", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_SELF] =
    g_param_spec_double ("self", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  /* Of the whole tree's total */
  properties[PROP_TOTAL_FRACTION] =
    g_param_spec_double ("total-fraction", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_SELF_FRACTION] =
    g_param_spec_double ("self-fraction", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_TOTAL_TEXT] =
    g_param_spec_string ("total-text", NULL, NULL, NULL, flags);
  properties[PROP_SELF_TEXT] =
    g_param_spec_string ("self-text", NULL, NULL, NULL, flags);
  properties[PROP_PERCENT_TEXT] =
    g_param_spec_string ("percent-text", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smprof_tree_item_init (SmprofTreeItem *self)
{
}

/**
 * smprof_tree_item_new:
 * @profile: the profile whose call tree holds @node
 * @node: a node of the call tree
 *
 * Returns: (transfer full): a new item; it keeps @profile alive
 */
SmprofTreeItem *
smprof_tree_item_new (SmprofProfile *profile,
                      guint32        node)
{
  SmprofTreeItem *self;

  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (node < smprof_call_tree_get_n_nodes (smprof_profile_get_call_tree (profile)), NULL);

  self = g_object_new (SMPROF_TYPE_TREE_ITEM, NULL);
  self->profile = g_object_ref (profile);
  self->node = node;

  return self;
}

SmprofProfile *
smprof_tree_item_get_profile (SmprofTreeItem *self)
{
  g_return_val_if_fail (SMPROF_IS_TREE_ITEM (self), NULL);

  return self->profile;
}

guint32
smprof_tree_item_get_node (SmprofTreeItem *self)
{
  g_return_val_if_fail (SMPROF_IS_TREE_ITEM (self), SMPROF_CALL_TREE_NONE);

  return self->node;
}

guint32
smprof_tree_item_get_func (SmprofTreeItem *self)
{
  g_return_val_if_fail (SMPROF_IS_TREE_ITEM (self), SMPROF_FUNC_NONE);

  return get_node (self)->func;
}

double
smprof_tree_item_get_total (SmprofTreeItem *self)
{
  g_return_val_if_fail (SMPROF_IS_TREE_ITEM (self), 0);

  return get_node (self)->total;
}

double
smprof_tree_item_get_self (SmprofTreeItem *self)
{
  g_return_val_if_fail (SMPROF_IS_TREE_ITEM (self), 0);

  return get_node (self)->self;
}

double
smprof_tree_item_get_total_fraction (SmprofTreeItem *self)
{
  g_return_val_if_fail (SMPROF_IS_TREE_ITEM (self), 0);

  return fraction_of_root (self, get_node (self)->total);
}

/**
 * smprof_tree_item_list_children:
 * @profile: a profile
 * @node: a node of its call tree
 *
 * Returns: (transfer full) (nullable): the children of @node as
 *   #SmprofTreeItem, in the tree's order, or %NULL for a leaf
 */
GListModel *
smprof_tree_item_list_children (SmprofProfile *profile,
                                guint32        node)
{
  SmprofCallTree *tree;
  GListStore *store;
  g_autoptr(GPtrArray) items = NULL;

  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), NULL);

  tree = smprof_profile_get_call_tree (profile);
  g_return_val_if_fail (node < smprof_call_tree_get_n_nodes (tree), NULL);

  if (smprof_call_tree_get_node (tree, node)->first_child == SMPROF_CALL_TREE_NONE)
    return NULL;

  items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint32 child = smprof_call_tree_get_node (tree, node)->first_child;
       child != SMPROF_CALL_TREE_NONE;
       child = smprof_call_tree_get_node (tree, child)->next_sibling)
    g_ptr_array_add (items, smprof_tree_item_new (profile, child));

  store = g_list_store_new (SMPROF_TYPE_TREE_ITEM);
  g_list_store_splice (store, 0, 0, items->pdata, items->len);

  return G_LIST_MODEL (store);
}
