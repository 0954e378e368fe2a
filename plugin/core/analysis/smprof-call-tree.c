/* smprof-call-tree.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-call-tree.h"
#include "smprof-u64-map.h"

struct _SmprofCallTree
{
  SmprofFunctionKeys *table;
  GArray             *nodes;       /* SmprofCallTreeNode */
  GArray             *last_child;  /* guint32 per node, for appending children in O(1) */
  /* (parent << 32 | func) -> child node. An estimated tree can reach
   * hundreds of thousands of nodes and is rebuilt for every range the
   * timeline selects: no allocation per node. */
  SmprofU64Map        children;
};

SmprofCallTree *
smprof_call_tree_new (SmprofFunctionKeys *table)
{
  SmprofCallTree *self = g_new0 (SmprofCallTree, 1);
  SmprofCallTreeNode root = {
    SMPROF_FUNC_NONE, SMPROF_CALL_TREE_NONE, SMPROF_CALL_TREE_NONE, SMPROF_CALL_TREE_NONE, 0, 0
  };
  guint32 none = SMPROF_CALL_TREE_NONE;

  self->table = table;
  self->nodes = g_array_new (FALSE, FALSE, sizeof (SmprofCallTreeNode));
  self->last_child = g_array_new (FALSE, FALSE, sizeof (guint32));
  smprof_u64_map_init (&self->children, 32);
  g_array_append_val (self->nodes, root);
  g_array_append_val (self->last_child, none);

  return self;
}

void
smprof_call_tree_free (SmprofCallTree *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->nodes);
  g_array_unref (self->last_child);
  smprof_u64_map_clear (&self->children);
  g_free (self);
}

/* Children are kept in first-seen order until smprof_call_tree_sort(). */
guint32
smprof_call_tree_ensure_child (SmprofCallTree *self,
                               guint32         parent,
                               guint32         func)
{
  guint64 key = ((guint64) parent << 32) | func;
  SmprofCallTreeNode node = { func, parent, SMPROF_CALL_TREE_NONE, SMPROF_CALL_TREE_NONE, 0, 0 };
  guint32 none = SMPROF_CALL_TREE_NONE;
  guint32 index = self->nodes->len;
  guint32 found;
  guint32 *last;

  found = smprof_u64_map_lookup_or_insert (&self->children, key, index);
  if (found != SMPROF_U64_MAP_NONE)
    return found;

  g_array_append_val (self->nodes, node);
  g_array_append_val (self->last_child, none);

  last = &g_array_index (self->last_child, guint32, parent);
  if (*last == SMPROF_CALL_TREE_NONE)
    g_array_index (self->nodes, SmprofCallTreeNode, parent).first_child = index;
  else
    g_array_index (self->nodes, SmprofCallTreeNode, *last).next_sibling = index;
  *last = index;

  return index;
}

void
smprof_call_tree_add_time (SmprofCallTree *self,
                           guint32         node,
                           double          total,
                           double          self_time)
{
  SmprofCallTreeNode *entry;

  g_return_if_fail (node < self->nodes->len);

  entry = &g_array_index (self->nodes, SmprofCallTreeNode, node);
  entry->total += total;
  entry->self += self_time;
}

/* Merge by path identity, the natural extension of pyinstrument's own
 * aggregate_repeated_calls: the same (function, file, line) under the same
 * merged parent is one node, and its times are summed. */
void
smprof_call_tree_add_session (SmprofCallTree                  *self,
                              const SmprofPyinstrumentSession *session)
{
  g_autofree guint32 *merged = NULL;
  g_autofree guint32 *parents = NULL;

  if (session->n_frames == 0)
    return;

  merged = g_new (guint32, session->n_frames);
  parents = g_new (guint32, session->n_frames);
  parents[0] = SMPROF_CALL_TREE_ROOT;

  for (guint i = 0; i < session->n_frames; i++)
    {
      const SmprofPyFrame *frame = &session->frames[i];
      SmprofCallTreeNode *node;
      guint next;

      merged[i] = smprof_call_tree_ensure_child (self, parents[i], frame->func);
      node = &g_array_index (self->nodes, SmprofCallTreeNode, merged[i]);
      node->total += frame->time;
      node->self += frame->self_time;

      /* Children of frame i are i + 1, then each next sibling by subtree size. */
      for (next = i + 1; next < i + frame->subtree_size; next += session->frames[next].subtree_size)
        parents[next] = merged[i];

      if (parents[i] == SMPROF_CALL_TREE_ROOT)
        g_array_index (self->nodes, SmprofCallTreeNode, SMPROF_CALL_TREE_ROOT).total += frame->time;
    }
}

/* Adds @other's paths and times to @self, merging by path identity. Nodes are
 * created after their parents, so one pass in index order maps them all. */
void
smprof_call_tree_merge (SmprofCallTree *self,
                        SmprofCallTree *other)
{
  g_autofree guint32 *mapped = g_new (guint32, other->nodes->len);
  const SmprofCallTreeNode *other_root = &g_array_index (other->nodes, SmprofCallTreeNode, SMPROF_CALL_TREE_ROOT);

  g_return_if_fail (self->table == other->table);

  mapped[SMPROF_CALL_TREE_ROOT] = SMPROF_CALL_TREE_ROOT;
  smprof_call_tree_add_time (self, SMPROF_CALL_TREE_ROOT, other_root->total, other_root->self);

  for (guint32 i = 1; i < other->nodes->len; i++)
    {
      const SmprofCallTreeNode *node = &g_array_index (other->nodes, SmprofCallTreeNode, i);

      g_assert (node->parent < i);
      mapped[i] = smprof_call_tree_ensure_child (self, mapped[node->parent], node->func);
      smprof_call_tree_add_time (self, mapped[i], node->total, node->self);
    }
}

/* Ties go by function key, so the order the tree was built in never shows. */
static int
compare_by_total (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  SmprofCallTree *self = user_data;
  const SmprofCallTreeNode *x = &g_array_index (self->nodes, SmprofCallTreeNode, *(const guint32 *) a);
  const SmprofCallTreeNode *y = &g_array_index (self->nodes, SmprofCallTreeNode, *(const guint32 *) b);

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;

  return smprof_function_keys_compare (self->table, x->func, y->func);
}

/* Orders every node's children by total time, largest first, then by key. */
void
smprof_call_tree_sort (SmprofCallTree *self)
{
  g_autoptr(GArray) siblings = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 parent = 0; parent < self->nodes->len; parent++)
    {
      SmprofCallTreeNode *node = &g_array_index (self->nodes, SmprofCallTreeNode, parent);
      guint32 child;

      if (node->first_child == SMPROF_CALL_TREE_NONE)
        continue;

      g_array_set_size (siblings, 0);
      for (child = node->first_child; child != SMPROF_CALL_TREE_NONE;
           child = g_array_index (self->nodes, SmprofCallTreeNode, child).next_sibling)
        g_array_append_val (siblings, child);

      g_array_sort_with_data (siblings, compare_by_total, self);

      node->first_child = g_array_index (siblings, guint32, 0);
      for (guint i = 0; i < siblings->len; i++)
        g_array_index (self->nodes, SmprofCallTreeNode, g_array_index (siblings, guint32, i)).next_sibling =
          i + 1 < siblings->len ? g_array_index (siblings, guint32, i + 1) : SMPROF_CALL_TREE_NONE;
      g_array_index (self->last_child, guint32, parent) = g_array_index (siblings, guint32, siblings->len - 1);
    }
}

guint
smprof_call_tree_get_n_nodes (SmprofCallTree *self)
{
  return self->nodes->len;
}

const SmprofCallTreeNode *
smprof_call_tree_get_node (SmprofCallTree *self,
                           guint32         index)
{
  g_return_val_if_fail (index < self->nodes->len, NULL);

  return &g_array_index (self->nodes, SmprofCallTreeNode, index);
}

SmprofFunctionKeys *
smprof_call_tree_get_table (SmprofCallTree *self)
{
  return self->table;
}

