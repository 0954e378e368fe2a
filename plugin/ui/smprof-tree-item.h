/* smprof-tree-item.h: one node of the call tree, for list models
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-profile.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_TREE_ITEM (smprof_tree_item_get_type ())

G_DECLARE_FINAL_TYPE (SmprofTreeItem, smprof_tree_item, SMPROF, TREE_ITEM, GObject)

SmprofTreeItem *smprof_tree_item_new                (SmprofProfile  *profile,
                                                     guint32         node);
SmprofProfile  *smprof_tree_item_get_profile        (SmprofTreeItem *self);
guint32         smprof_tree_item_get_node           (SmprofTreeItem *self);
guint32         smprof_tree_item_get_func           (SmprofTreeItem *self);
double          smprof_tree_item_get_total          (SmprofTreeItem *self);
double          smprof_tree_item_get_self           (SmprofTreeItem *self);
double          smprof_tree_item_get_total_fraction (SmprofTreeItem *self);
GListModel     *smprof_tree_item_list_children      (SmprofProfile  *profile,
                                                     guint32         node);

G_END_DECLS
