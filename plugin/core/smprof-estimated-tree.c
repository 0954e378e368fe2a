/* smprof-estimated-tree.c: a calling-context tree estimated from cProfile's call graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-profile.h"

/* cProfile records, per function, the time spent in it on calls from each
 * direct caller, not the full stacks. The tree below walks from the functions
 * nobody called (the frames already running when profiling started) down the
 * caller edges, and gives each child the share of the edge's cumulative time
 * that the parent's own share allows (its time over the function's total
 * cumulative time). A function already on the path is not entered again, so
 * recursion folds into its outermost frame. This is an estimate, and the UI and
 * exports say so. */

typedef struct
{
  guint32 callee;   /* entry index */
  double  cumtime;
} Edge;

typedef struct
{
  guint32  entry;
  guint32  parent;  /* tree node */
  double   time;
  guint    depth;
  gboolean leave;   /* pops the entry off the current path */
} Work;

SmprofCallTree *
smprof_call_tree_new_estimated (SmprofCprofileProfile *profile)
{
  SmprofFuncTable *table = smprof_cprofile_profile_get_table (profile);
  SmprofCallTree *tree = smprof_call_tree_new (table);
  guint n_entries = smprof_cprofile_profile_get_n_entries (profile);
  guint n_funcs = smprof_func_table_get_size (table);
  /* func id -> entry + 1: the profile's functions are ids of its job's table. */
  g_autofree guint *entry_of_func = g_new0 (guint, MAX (n_funcs, 1));
  g_autofree guint *first_edge = g_new0 (guint, n_entries + 1);
  g_autofree guint *on_path = g_new0 (guint, n_entries);
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Work));
  g_autoptr(GArray) by_caller = NULL;
  double total = 0;
  double threshold;

  if (n_entries == 0)
    return tree;

  for (guint i = 0; i < n_entries; i++)
    {
      guint32 func = smprof_cprofile_profile_get_entry (profile, i)->func;

      g_return_val_if_fail (func < n_funcs, tree);
      entry_of_func[func] = i + 1;
    }

  /* Turn callee -> callers into caller -> callees, grouped by caller. */
  by_caller = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  for (guint i = 0; i < n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, i);

      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);
          guint caller_entry = (caller->caller < n_funcs ? entry_of_func[caller->caller] : 0);

          if (caller_entry != 0)
            first_edge[caller_entry - 1]++;
        }
    }
  for (guint i = 0, sum = 0; i <= n_entries; i++)
    {
      guint count = i < n_entries ? first_edge[i] : 0;

      first_edge[i] = sum;
      sum += count;
    }
  g_array_set_size (edges, first_edge[n_entries]);
  {
    g_autofree guint *fill = g_memdup2 (first_edge, sizeof (guint) * (n_entries + 1));

    for (guint i = 0; i < n_entries; i++)
      {
        const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, i);

        for (guint c = 0; c < entry->callers->len; c++)
          {
            const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);
            guint caller_entry = (caller->caller < n_funcs ? entry_of_func[caller->caller] : 0);
            Edge edge = { i, caller->ct };

            if (caller_entry != 0)
              g_array_index (edges, Edge, fill[caller_entry - 1]++) = edge;
          }
      }
  }

  /* Roots: functions with no caller. A graph that is all cycles has none; then
   * the function with the largest cumulative time stands in. */
  for (guint i = n_entries; i > 0; i--)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, i - 1);

      if (entry->callers->len == 0)
        {
          Work work = { i - 1, SMPROF_CALL_TREE_ROOT, entry->ct, 0, FALSE };

          g_array_append_val (stack, work);
          total += entry->ct;
        }
    }
  if (stack->len == 0)
    {
      guint best = 0;

      for (guint i = 1; i < n_entries; i++)
        if (smprof_cprofile_profile_get_entry (profile, i)->ct > smprof_cprofile_profile_get_entry (profile, best)->ct)
          best = i;
      {
        Work work = { best, SMPROF_CALL_TREE_ROOT, smprof_cprofile_profile_get_entry (profile, best)->ct, 0, FALSE };

        g_array_append_val (stack, work);
        total = work.time;
      }
    }

  threshold = total * 1e-6;

  while (stack->len > 0)
    {
      Work work = g_array_index (stack, Work, stack->len - 1);
      const SmprofProfileEntry *entry;
      Work leave = work;
      double ratio, children = 0;
      guint32 node;

      g_array_set_size (stack, stack->len - 1);

      if (work.leave)
        {
          on_path[work.entry]--;
          continue;
        }

      if (smprof_call_tree_get_n_nodes (tree) >= SMPROF_ESTIMATED_TREE_MAX_NODES)
        continue;

      entry = smprof_cprofile_profile_get_entry (profile, work.entry);
      node = smprof_call_tree_ensure_child (tree, work.parent, entry->func);
      smprof_call_tree_add_time (tree, node, work.time, 0);
      if (work.parent == SMPROF_CALL_TREE_ROOT)
        smprof_call_tree_add_time (tree, SMPROF_CALL_TREE_ROOT, work.time, 0);

      leave.leave = TRUE;
      g_array_append_val (stack, leave);
      on_path[work.entry]++;

      ratio = entry->ct > 0 ? work.time / entry->ct : 0;
      if (work.depth < SMPROF_ESTIMATED_TREE_MAX_DEPTH)
        for (guint e = first_edge[work.entry]; e < first_edge[work.entry + 1]; e++)
          {
            const Edge *edge = &g_array_index (edges, Edge, e);
            Work child = { edge->callee, node, edge->cumtime * ratio, work.depth + 1, FALSE };

            if (on_path[edge->callee] > 0 || child.time <= threshold)
              continue;

            children += child.time;
            g_array_append_val (stack, child);
          }

      smprof_call_tree_add_time (tree, node, 0, MAX (0.0, work.time - children));
    }

  smprof_call_tree_sort (tree);

  return tree;
}
