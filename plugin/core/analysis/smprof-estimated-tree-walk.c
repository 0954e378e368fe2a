/* smprof-estimated-tree-walk.c: from the roots down the call graph, then the sums
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-estimated-tree-private.h"

/* Per tree node, what the walk proposed and what the sums then allow. */
typedef struct
{
  guint32 vertex;
  guint   depth;
  double  inner_share; /* the edge's inner_share, for calls back into the caller */
  double  proposed;    /* the edge's share */
  double  self_share;  /* of the function's self time */
  double  taken_back;  /* calls back into a frame above: + here, - at that frame */
  double  demand;      /* proposed less what calls back into frames above took */
  double  children;    /* the children's demands */
  double  factor;      /* the scale the sums applied */
  double  total;
  double  self;
} Times;

typedef struct
{
  guint32  vertex;
  guint32  node;
  guint    depth;
  gboolean leave;   /* takes the vertex off the path */
} Work;

typedef struct
{
  Graph          *graph;
  SmprofCallTree *tree;
  GArray         *times;     /* Times per tree node */
  guint32        *on_path;   /* per vertex: its node on the current path + 1 */
  guint32        *path;      /* per depth: the node on the current path */
  double          threshold;
} Walk;

static guint32
add_node (Walk    *walk,
          guint32  parent,
          guint32  vertex,
          double   proposed,
          double   inner_share)
{
  const Vertex *v = &g_array_index (walk->graph->vertices, Vertex, vertex);
  guint32 node = smprof_call_tree_ensure_child (walk->tree, parent, v->func);

  if (node >= walk->times->len)
    g_array_set_size (walk->times, node + 1);
  g_array_index (walk->times, Times, node).vertex = vertex;
  g_array_index (walk->times, Times, node).inner_share = inner_share;
  g_array_index (walk->times, Times, node).depth = parent == SMPROF_CALL_TREE_ROOT
                                                   ? 0 : g_array_index (walk->times, Times, parent).depth + 1;
  g_array_index (walk->times, Times, node).proposed += proposed;
  g_array_index (walk->times, Times, node).self_share += proposed * v->self_ratio;

  return node;
}

static void
walk_from (Walk    *walk,
           GArray  *stack,
           guint32  vertex,
           guint32  node)
{
  Graph *graph = walk->graph;
  Work start = { vertex, node, 0, FALSE };

  g_array_append_val (stack, start);

  while (stack->len > 0)
    {
      Work work = g_array_index (stack, Work, stack->len - 1);
      const Vertex *v = &g_array_index (graph->vertices, Vertex, work.vertex);
      double ratio;
      guint first;

      g_array_set_size (stack, stack->len - 1);

      if (work.leave)
        {
          walk->on_path[work.vertex] = 0;
          continue;
        }

      walk->on_path[work.vertex] = work.node + 1;
      walk->path[work.depth] = work.node;
      work.leave = TRUE;
      g_array_append_val (stack, work);

      ratio = v->cumtime > 0 ? g_array_index (walk->times, Times, work.node).proposed / v->cumtime : 0;
      first = stack->len;

      for (guint e = graph->first_edge[work.vertex]; e < graph->first_edge[work.vertex + 1]; e++)
        {
          const Edge *edge = &graph->edges[e];
          guint32 above = walk->on_path[edge->callee];
          double share;

          if (edge->callee == work.vertex)
            continue;

          /* A call back into a frame above: the frame's own edges hold what
           * the inner call called, except its calls of the function below
           * the frame on this path, which was still running (cProfile counts
           * a caller -> callee pair's time once, at its outermost call), so
           * the time of those stays where it is. */
          if (above != 0)
            {
              guint32 below = walk->path[g_array_index (walk->times, Times, above - 1).depth + 1];

              share = edge->raw * ratio * (1 - g_array_index (walk->times, Times, below).inner_share);
              g_array_index (walk->times, Times, work.node).taken_back += share;
              g_array_index (walk->times, Times, above - 1).taken_back -= share;
              continue;
            }

          share = edge->weight * ratio;
          if (share <= walk->threshold || work.depth + 1 >= SMPROF_ESTIMATED_TREE_MAX_DEPTH ||
              smprof_call_tree_get_n_nodes (walk->tree) >= SMPROF_ESTIMATED_TREE_MAX_NODES)
            continue;

          {
            Work child = { edge->callee, add_node (walk, work.node, edge->callee, share, edge->inner_share),
                           work.depth + 1, FALSE };

            g_array_append_val (stack, child);
          }
        }

      /* Edges are sorted largest first; the stack pops the last pushed. */
      for (guint i = first, j = stack->len - 1; i < j; i++, j--)
        {
          Work swap = g_array_index (stack, Work, i);

          g_array_index (stack, Work, i) = g_array_index (stack, Work, j);
          g_array_index (stack, Work, j) = swap;
        }
    }
}

/* Children after their parents in node order: one pass up sums what calls
 * back took and what children need, one pass down scales. */
static void
share_out (Walk   *walk,
           double  total)
{
  SmprofCallTree *tree = walk->tree;
  Times *times = (Times *) (gpointer) walk->times->data;
  guint n_nodes = walk->times->len;
  double roots = 0, root_scale = 1;

  for (guint32 n = n_nodes - 1; n >= 1; n--)
    {
      guint32 parent = smprof_call_tree_get_node (tree, n)->parent;

      times[n].demand = MAX (0.0, times[n].proposed - times[n].taken_back);
      times[parent].taken_back += times[n].taken_back;
      times[parent].children += times[n].demand;
      if (parent == SMPROF_CALL_TREE_ROOT)
        roots += times[n].demand;
    }

  if (roots > total)
    root_scale = total / roots;

  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint32 parent = smprof_call_tree_get_node (tree, n)->parent;

      if (parent == SMPROF_CALL_TREE_ROOT)
        times[n].factor = root_scale;
      else
        {
          const Times *up = &times[parent];
          double up_room = up->demand - MIN (up->self_share, up->demand);

          times[n].factor = up->factor * (up->children > up_room ? up_room / up->children : 1);
        }

      times[n].total = times[n].demand * times[n].factor;
    }
}

static guint32
ensure_unattributed (SmprofCallTree *tree,
                     guint32        *node)
{
  if (*node == SMPROF_CALL_TREE_NONE)
    {
      SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
      guint32 func = smprof_function_keys_intern (table, SMPROF_UNATTRIBUTED_FILE, strlen (SMPROF_UNATTRIBUTED_FILE), 0,
                                                  SMPROF_UNATTRIBUTED_NAME, strlen (SMPROF_UNATTRIBUTED_NAME));

      *node = smprof_call_tree_ensure_child (tree, SMPROF_CALL_TREE_ROOT, func);
    }

  return *node;
}

/* A frame keeps the share of its function's self time (tottime, which
 * cProfile measured) that its share of the edge gave it, and its total is
 * its self times and its children's summed. Since share_out() left every
 * frame at least that much self time, no total grows. Where a function's
 * frames still hold more than its cumulative time (calls from inside a cycle
 * taken for outermost ones), they and everything under them are scaled down
 * to it. What a function's frames do not hold of its self time is its frame
 * under the unattributed root; so each function's frames hold its self time,
 * and the roots the total. Rounding, under a tenth of a microsecond, is that
 * root's own self time. */
static void
settle (Walk   *walk,
        double  total)
{
  SmprofCallTree *tree = walk->tree;
  GArray *vertices = walk->graph->vertices;
  Times *times;
  guint n_nodes;
  g_autofree double *held = g_new0 (double, MAX (vertices->len, 1));
  g_autofree double *cap = g_new0 (double, MAX (vertices->len, 1));
  double placed = 0, left = 0, rounding = 0;
  guint32 unattributed = SMPROF_CALL_TREE_NONE;

  total = time_or_zero (total);
  share_out (walk, total);
  times = (Times *) (gpointer) walk->times->data;
  n_nodes = walk->times->len;

  /* Self times: the frame's share of its function's self time, as its
   * share of the edge made it, within what calls back left it; no more, in
   * all, than the function's self time. */
  for (guint32 n = 1; n < n_nodes; n++)
    {
      times[n].self = times[n].factor * MIN (times[n].self_share, times[n].demand);
      held[times[n].vertex] += times[n].self;
    }
  for (guint32 n = 1; n < n_nodes; n++)
    {
      double tottime = g_array_index (vertices, Vertex, times[n].vertex).tottime;

      if (held[times[n].vertex] > tottime)
        times[n].self *= tottime / held[times[n].vertex];
      times[n].total = 0;
    }
  memset (held, 0, sizeof (double) * vertices->len);

  /* Totals from self times, then each function's frames against its
   * cumulative time (a function is never inside its own frame). */
  for (guint32 n = n_nodes - 1; n >= 1; n--)
    {
      guint32 parent = smprof_call_tree_get_node (tree, n)->parent;

      times[n].total += times[n].self;
      cap[times[n].vertex] += times[n].total;
      times[parent].total += times[n].total;
    }
  for (guint32 v = 0; v < vertices->len; v++)
    {
      const Vertex *vertex = &g_array_index (vertices, Vertex, v);

      cap[v] = v < walk->graph->n_entries && cap[v] > vertex->cumtime ? vertex->cumtime / cap[v] : 1;
    }

  /* The scale of a frame is its own function's and all its callers'. */
  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint32 parent = smprof_call_tree_get_node (tree, n)->parent;

      times[n].factor = cap[times[n].vertex] * (parent == SMPROF_CALL_TREE_ROOT ? 1 : times[parent].factor);
      times[n].self *= times[n].factor;
      held[times[n].vertex] += times[n].self;
      times[n].total = 0;
    }

  for (guint32 n = n_nodes - 1; n >= 1; n--)
    {
      guint32 parent = smprof_call_tree_get_node (tree, n)->parent;

      times[n].total += times[n].self;
      smprof_call_tree_add_time (tree, n, times[n].total, times[n].self);
      if (parent == SMPROF_CALL_TREE_ROOT)
        placed += times[n].total;
      else
        times[parent].total += times[n].total;
    }

  for (guint32 v = 0; v < vertices->len; v++)
    {
      const Vertex *vertex = &g_array_index (vertices, Vertex, v);
      double rest = vertex->tottime - held[v];

      if (rest <= 1e-7)
        {
          rounding += MAX (rest, 0.0);
          continue;
        }

      smprof_call_tree_add_time (tree, smprof_call_tree_ensure_child (tree, ensure_unattributed (tree, &unattributed),
                                                                      vertex->func),
                                 rest, rest);
      left += rest;
    }

  /* pstats' total is the functions' self times summed, so only a file that
   * lies leaves more. */
  rounding = MAX (rounding, total - placed - left);
  if (rounding > 1e-7 || (unattributed != SMPROF_CALL_TREE_NONE && rounding > 0))
    {
      smprof_call_tree_add_time (tree, ensure_unattributed (tree, &unattributed), 0, rounding);
      left += rounding;
    }

  if (unattributed != SMPROF_CALL_TREE_NONE)
    smprof_call_tree_add_time (tree, unattributed, left, 0);
  smprof_call_tree_add_time (tree, SMPROF_CALL_TREE_ROOT, placed + left, 0);
}

/**
 * _smprof_estimated_tree_walk:
 * @graph: the call graph, its roots' times and its edges' weights worked out
 * @tree: the tree to fill
 * @roots: (element-type guint32): the root vertices, largest first
 * @total: the profile's total time (pstats' total_tt)
 *
 * Walks from every root down the graph (see the top of smprof-estimated-tree.c),
 * then settles the frames' times.
 */
void
_smprof_estimated_tree_walk (Graph          *graph,
                             SmprofCallTree *tree,
                             GArray         *roots,
                             double          total)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Work));
  g_autoptr(GArray) times = g_array_new (FALSE, TRUE, sizeof (Times));
  g_autofree guint32 *on_path = g_new0 (guint32, MAX (graph->vertices->len, 1));
  guint32 path[SMPROF_ESTIMATED_TREE_MAX_DEPTH + 1];
  Walk walk = { graph, tree, times, on_path, path, time_or_zero (total) * 1e-6 };

  g_array_set_size (times, 1);

  /* Every root gets its frame before any walk can fill the tree. */
  for (guint k = 0; k < roots->len; k++)
    {
      guint32 vertex = g_array_index (roots, guint32, k);

      add_node (&walk, SMPROF_CALL_TREE_ROOT, vertex, g_array_index (graph->vertices, Vertex, vertex).root_time, 0);
    }

  for (guint k = 0; k < roots->len; k++)
    {
      guint32 vertex = g_array_index (roots, guint32, k);

      walk_from (&walk, stack, vertex, smprof_call_tree_ensure_child (tree, SMPROF_CALL_TREE_ROOT,
                                                                      g_array_index (graph->vertices, Vertex, vertex).func));
    }

  settle (&walk, total);
}
