/* smprof-call-tree.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-call-tree.h"

struct _SmprofCallTree
{
  SmprofFuncTable *table;
  GArray          *nodes;     /* SmprofCallTreeNode */
  GHashTable      *children;  /* (parent << 32 | func) -> node index + 1 */
};

static guint
edge_hash (gconstpointer key)
{
  guint64 value = *(const guint64 *) key;

  return (guint) (value ^ (value >> 29) ^ (value >> 32));
}

SmprofCallTree *
smprof_call_tree_new (SmprofFuncTable *table)
{
  SmprofCallTree *self = g_new0 (SmprofCallTree, 1);
  SmprofCallTreeNode root = {
    SMPROF_FUNC_NONE, SMPROF_CALL_TREE_NONE, SMPROF_CALL_TREE_NONE, SMPROF_CALL_TREE_NONE, 0, 0
  };

  self->table = table;
  self->nodes = g_array_new (FALSE, FALSE, sizeof (SmprofCallTreeNode));
  self->children = g_hash_table_new_full (edge_hash, g_int64_equal, g_free, NULL);
  g_array_append_val (self->nodes, root);

  return self;
}

void
smprof_call_tree_free (SmprofCallTree *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->nodes);
  g_hash_table_unref (self->children);
  g_free (self);
}

/* Children are kept in first-seen order until smprof_call_tree_sort(). */
guint32
smprof_call_tree_ensure_child (SmprofCallTree *self,
                               guint32         parent,
                               guint32         func)
{
  guint64 key = ((guint64) parent << 32) | func;
  gpointer found = g_hash_table_lookup (self->children, &key);
  SmprofCallTreeNode node = { func, parent, SMPROF_CALL_TREE_NONE, SMPROF_CALL_TREE_NONE, 0, 0 };
  guint32 index;
  SmprofCallTreeNode *parent_node;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  index = self->nodes->len;
  g_array_append_val (self->nodes, node);
  g_hash_table_insert (self->children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (index + 1));

  parent_node = &g_array_index (self->nodes, SmprofCallTreeNode, parent);
  if (parent_node->first_child == SMPROF_CALL_TREE_NONE)
    parent_node->first_child = index;
  else
    {
      guint32 last = parent_node->first_child;

      while (g_array_index (self->nodes, SmprofCallTreeNode, last).next_sibling != SMPROF_CALL_TREE_NONE)
        last = g_array_index (self->nodes, SmprofCallTreeNode, last).next_sibling;
      g_array_index (self->nodes, SmprofCallTreeNode, last).next_sibling = index;
    }

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

static int
compare_by_total (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  GArray *nodes = user_data;
  double x = g_array_index (nodes, SmprofCallTreeNode, *(const guint32 *) a).total;
  double y = g_array_index (nodes, SmprofCallTreeNode, *(const guint32 *) b).total;

  return x > y ? -1 : x < y ? 1 : 0;
}

/* Orders every node's children by total time, largest first (stable). */
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

      g_array_sort_with_data (siblings, compare_by_total, self->nodes);

      node->first_child = g_array_index (siblings, guint32, 0);
      for (guint i = 0; i < siblings->len; i++)
        g_array_index (self->nodes, SmprofCallTreeNode, g_array_index (siblings, guint32, i)).next_sibling =
          i + 1 < siblings->len ? g_array_index (siblings, guint32, i + 1) : SMPROF_CALL_TREE_NONE;
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

SmprofFuncTable *
smprof_call_tree_get_table (SmprofCallTree *self)
{
  return self->table;
}

