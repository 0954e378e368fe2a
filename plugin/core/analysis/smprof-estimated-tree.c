/* smprof-estimated-tree.c: a calling-context tree estimated from cProfile's call graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-estimated-tree.h"

/* cProfile records, per function, the time spent in it on calls from each
 * direct caller, not whole stacks, and nothing of the frames that were already
 * running when the profiler was enabled: the calls those frames made afterwards
 * are recorded without a caller (or, rarely, under a caller that has no entry
 * of its own). Those calls are the roots, side by side, and together they hold
 * all the time measured. From each root the tree follows the caller edges
 * downwards, giving a child the share of the edge's cumulative time that the
 * parent's own share allows (its time over the function's total cumulative
 * time). A function already on the path is not entered again, so recursion
 * folds into its outermost frame. This is an estimate, and the UI and the
 * exports say so. */

typedef struct
{
  guint32 callee;   /* vertex */
  double  cumtime;
} Edge;

typedef struct
{
  guint32  vertex;
  guint32  parent;  /* tree node */
  double   time;
  guint    depth;
  gboolean leave;   /* pops the vertex off the current path */
} Work;

/* The graph: vertices 0..n_entries-1 are the profile's entries; the ones after
 * are functions seen only as callers. */
typedef struct
{
  SmprofCprofileProfile *profile;
  guint                  n_entries;
  GArray                *func;        /* guint32 per vertex */
  GArray                *cumtime;     /* double per vertex */
  GArray                *first_edge;  /* guint per vertex, plus one */
  GArray                *edges;       /* Edge, grouped by caller */
} Graph;

typedef struct
{
  guint32 caller;
  Edge    edge;
} PendingEdge;

static int
compare_pending (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = ((const PendingEdge *) a)->caller;
  guint32 y = ((const PendingEdge *) b)->caller;

  return x < y ? -1 : x > y ? 1 : 0;
}

static int
compare_vertices (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  GArray *cumtime = user_data;
  double x = g_array_index (cumtime, double, *(const guint32 *) a);
  double y = g_array_index (cumtime, double, *(const guint32 *) b);

  return x > y ? -1 : x < y ? 1 : 0;
}

static void
build_graph (Graph  *graph,
             GArray *roots)
{
  SmprofCprofileProfile *profile = graph->profile;
  g_autoptr(GHashTable) vertex_of_func = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (PendingEdge));
  g_autoptr(GArray) outer = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) inner = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_vertices;

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, i);

      g_array_append_val (graph->func, entry->func);
      g_array_append_val (graph->cumtime, entry->ct);
      g_hash_table_insert (vertex_of_func, GUINT_TO_POINTER (entry->func + 1), GUINT_TO_POINTER (i + 1));
    }

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, i);

      if (entry->callers->len == 0)
        g_array_append_val (inner, i);

      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);
          guint32 vertex = GPOINTER_TO_UINT (g_hash_table_lookup (vertex_of_func, GUINT_TO_POINTER (caller->caller + 1)));
          PendingEdge edge = { 0, { i, caller->ct } };

          if (vertex == 0)
            {
              double zero = 0;

              g_array_append_val (graph->func, caller->caller);
              g_array_append_val (graph->cumtime, zero);
              vertex = graph->func->len;
              g_hash_table_insert (vertex_of_func, GUINT_TO_POINTER (caller->caller + 1), GUINT_TO_POINTER (vertex));
              g_array_append_val (outer, (guint32) { vertex - 1 });
            }

          edge.caller = vertex - 1;
          g_array_append_val (pending, edge);
          if (edge.caller >= graph->n_entries)
            g_array_index (graph->cumtime, double, edge.caller) += caller->ct;
        }
    }

  n_vertices = graph->func->len;

  /* A graph that is all cycles has no start; the function with the largest
   * cumulative time stands in. */
  if (outer->len == 0 && inner->len == 0 && graph->n_entries > 0)
    {
      guint32 best = 0;

      for (guint32 i = 1; i < graph->n_entries; i++)
        if (g_array_index (graph->cumtime, double, i) > g_array_index (graph->cumtime, double, best))
          best = i;
      g_array_append_val (inner, best);
    }

  g_array_sort_with_data (outer, compare_vertices, graph->cumtime);
  g_array_sort_with_data (inner, compare_vertices, graph->cumtime);
  g_array_append_vals (roots, outer->data, outer->len);
  g_array_append_vals (roots, inner->data, inner->len);

  /* Group the edges by caller, keeping each caller's edges in profile order. */
  g_array_sort (pending, compare_pending);
  g_array_set_size (graph->first_edge, n_vertices + 1);
  for (guint v = 0, e = 0; v <= n_vertices; v++)
    {
      g_array_index (graph->first_edge, guint, v) = graph->edges->len;
      for (; v < n_vertices && e < pending->len && g_array_index (pending, PendingEdge, e).caller == v; e++)
        g_array_append_val (graph->edges, g_array_index (pending, PendingEdge, e).edge);
    }
}

typedef struct
{
  Graph          *graph;
  SmprofCallTree *tree;
  GArray         *stack;     /* Work */
  guint          *on_path;   /* per vertex */
  gboolean       *visited;   /* per vertex */
  double          threshold;
} Walk;

/* A walk from an extra root (@fresh_only) stays out of what is already in the
 * tree, so no time is counted twice. */
static void
walk_from (Walk     *walk,
           guint32   vertex,
           double    time,
           gboolean  fresh_only)
{
  Graph *graph = walk->graph;
  SmprofCallTree *tree = walk->tree;
  Work start = { vertex, SMPROF_CALL_TREE_ROOT, time, 0, FALSE };

  g_array_append_val (walk->stack, start);

  while (walk->stack->len > 0)
    {
      Work work = g_array_index (walk->stack, Work, walk->stack->len - 1);
      Work leave = work;
      double cumtime, ratio, children = 0;
      guint32 node;

      g_array_set_size (walk->stack, walk->stack->len - 1);

      if (work.leave)
        {
          walk->on_path[work.vertex]--;
          continue;
        }

      if (smprof_call_tree_get_n_nodes (tree) >= SMPROF_ESTIMATED_TREE_MAX_NODES)
        continue;

      node = smprof_call_tree_ensure_child (tree, work.parent, g_array_index (graph->func, guint32, work.vertex));
      smprof_call_tree_add_time (tree, node, work.time, 0);
      if (work.parent == SMPROF_CALL_TREE_ROOT)
        smprof_call_tree_add_time (tree, SMPROF_CALL_TREE_ROOT, work.time, 0);

      leave.leave = TRUE;
      g_array_append_val (walk->stack, leave);
      walk->on_path[work.vertex]++;
      walk->visited[work.vertex] = TRUE;

      cumtime = g_array_index (graph->cumtime, double, work.vertex);
      ratio = cumtime > 0 ? work.time / cumtime : 0;
      if (work.depth < SMPROF_ESTIMATED_TREE_MAX_DEPTH)
        {
          guint first_child = walk->stack->len;

          for (guint e = g_array_index (graph->first_edge, guint, work.vertex);
               e < g_array_index (graph->first_edge, guint, work.vertex + 1); e++)
            {
              const Edge *edge = &g_array_index (graph->edges, Edge, e);
              Work child = { edge->callee, node, edge->cumtime * ratio, work.depth + 1, FALSE };

              if (walk->on_path[edge->callee] > 0 || child.time <= walk->threshold ||
                  (fresh_only && walk->visited[edge->callee]))
                continue;

              children += child.time;
              g_array_append_val (walk->stack, child);
            }

          /* Recursion through other functions makes callee edges count the
           * same time more than once; children never get more than the frame. */
          if (children > work.time)
            {
              double scale = work.time / children;

              for (guint k = first_child; k < walk->stack->len; k++)
                g_array_index (walk->stack, Work, k).time *= scale;
              children = work.time;
            }
        }

      smprof_call_tree_add_time (tree, node, 0, MAX (0.0, work.time - children));
    }
}

/* Functions the roots never reach (their callers form a cycle of their own)
 * would vanish from the tree. The outermost of them become roots too: first
 * those that no unreached function calls, then, to break a cycle, the one with
 * the largest cumulative time. Functions with a caller in the tree were only
 * cut as too small or recursive, and stay out. */
static gboolean
is_reachable_from (Walk                     *walk,
                   const SmprofProfileEntry *entry,
                   GHashTable               *vertex_of_func,
                   gboolean                  visited)
{
  for (guint c = 0; c < entry->callers->len; c++)
    {
      guint32 caller = g_array_index (entry->callers, SmprofCallerStat, c).caller;
      guint vertex = GPOINTER_TO_UINT (g_hash_table_lookup (vertex_of_func, GUINT_TO_POINTER (caller + 1)));

      if (vertex != 0 && walk->visited[vertex - 1] == visited)
        return TRUE;
    }

  return FALSE;
}

/* From an unreached function up through unreached callers, as far as they go
 * before coming round: the outermost frame of that part of the graph. */
static guint32
climb (Walk                  *walk,
       SmprofCprofileProfile *profile,
       guint32                vertex,
       GHashTable            *vertex_of_func)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (;;)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, vertex);
      guint32 up = vertex;

      g_hash_table_add (seen, GUINT_TO_POINTER (vertex + 1));
      for (guint c = 0; c < entry->callers->len && up == vertex; c++)
        {
          guint32 caller = g_array_index (entry->callers, SmprofCallerStat, c).caller;
          guint found = GPOINTER_TO_UINT (g_hash_table_lookup (vertex_of_func, GUINT_TO_POINTER (caller + 1)));

          if (found != 0 && found - 1 < walk->graph->n_entries && !walk->visited[found - 1] &&
              !g_hash_table_contains (seen, GUINT_TO_POINTER (found)))
            up = found - 1;
        }

      if (up == vertex)
        return vertex;
      vertex = up;
    }
}

static void
walk_unreached (Walk                  *walk,
                SmprofCprofileProfile *profile,
                GArray                *by_cumtime,
                GHashTable            *vertex_of_func)
{
  for (;;)
    {
      gboolean walked = FALSE;
      int cycle = -1;

      for (guint k = 0; k < by_cumtime->len; k++)
        {
          guint32 vertex = g_array_index (by_cumtime, guint32, k);
          const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, vertex);

          if (walk->visited[vertex] || entry->ct <= walk->threshold ||
              is_reachable_from (walk, entry, vertex_of_func, TRUE))
            continue;

          if (!is_reachable_from (walk, entry, vertex_of_func, FALSE))
            {
              walk_from (walk, vertex, entry->ct, TRUE);
              walked = TRUE;
            }
          else if (cycle < 0)
            cycle = vertex;
        }

      if (walked)
        continue;
      if (cycle < 0)
        return;

      {
        guint32 top = climb (walk, profile, cycle, vertex_of_func);

        walk_from (walk, top, smprof_cprofile_profile_get_entry (profile, top)->ct, TRUE);
      }
    }
}

SmprofCallTree *
smprof_call_tree_new_estimated (SmprofCprofileProfile *profile)
{
  SmprofCallTree *tree = smprof_call_tree_new (smprof_cprofile_profile_get_table (profile));
  Graph graph = { profile, smprof_cprofile_profile_get_n_entries (profile), NULL, NULL, NULL, NULL };
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Work));
  g_autoptr(GArray) by_cumtime = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) vertex_of_func = g_hash_table_new (NULL, NULL);
  g_autofree guint *on_path = NULL;
  g_autofree gboolean *visited = NULL;
  Walk walk = { &graph, tree, stack, NULL, NULL, 0 };
  double total = 0;

  if (graph.n_entries == 0)
    return tree;

  graph.func = g_array_new (FALSE, FALSE, sizeof (guint32));
  graph.cumtime = g_array_new (FALSE, FALSE, sizeof (double));
  graph.first_edge = g_array_new (FALSE, TRUE, sizeof (guint));
  graph.edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  build_graph (&graph, roots);
  walk.on_path = on_path = g_new0 (guint, graph.func->len);
  walk.visited = visited = g_new0 (gboolean, graph.func->len);

  for (guint k = 0; k < roots->len; k++)
    total += g_array_index (graph.cumtime, double, g_array_index (roots, guint32, k));
  walk.threshold = total * 1e-6;

  for (guint k = 0; k < roots->len; k++)
    {
      guint32 root = g_array_index (roots, guint32, k);

      walk_from (&walk, root, g_array_index (graph.cumtime, double, root), FALSE);
    }

  for (guint32 i = 0; i < graph.n_entries; i++)
    {
      g_array_append_val (by_cumtime, i);
      g_hash_table_insert (vertex_of_func, GUINT_TO_POINTER (g_array_index (graph.func, guint32, i) + 1),
                           GUINT_TO_POINTER (i + 1));
    }
  g_array_sort_with_data (by_cumtime, compare_vertices, graph.cumtime);
  walk_unreached (&walk, profile, by_cumtime, vertex_of_func);

  g_array_unref (graph.func);
  g_array_unref (graph.cumtime);
  g_array_unref (graph.first_edge);
  g_array_unref (graph.edges);

  smprof_call_tree_sort (tree);

  return tree;
}
