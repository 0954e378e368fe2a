/* smprof-estimated-tree.c: a calling-context tree estimated from cProfile's call graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-estimated-tree.h"

/* cProfile records, per function, its calls from each direct caller, not
 * whole stacks. The tree is estimated from those figures alone, so a
 * selection's tree depends on its summed stats and not on how, or in which
 * order, they were summed:
 *
 * - Roots. A call made while no profiled frame ran (the frames already running
 *   when the profiler was enabled made it) has no caller edge, so a
 *   function's root calls are its calls minus its callers' calls. When all of
 *   its outermost (primitive) calls are root calls, all of its cumulative time
 *   is root time; when none is, none; otherwise its root time is its
 *   cumulative time less what its callers account for. A caller from outside
 *   its cycle of mutual recursion always made outermost calls, whose time the
 *   edge holds exactly; calls from inside the cycle are outermost only as
 *   often as the primitive call counts leave room for.
 * - Frames. From each root the tree follows the caller edges downwards,
 *   giving a child the share of the edge's cumulative time that the parent's
 *   own share allows (its time over the function's cumulative time).
 * - Recursion. A function already on the path is not entered again: its calls
 *   fold into the outermost frame, whose own edges hold what the inner calls
 *   called. The time of such a call is taken back from the frames between the
 *   two, which would otherwise hold it twice.
 * - Sums. Children that would need more than their frame are scaled down, and
 *   so are roots that would need more than the measured total (pstats'
 *   total_tt). Then each frame keeps the share of its function's self time
 *   that its time is of the function's cumulative time, and frames' totals are
 *   their self times summed; where a function's frames would still hold more
 *   than its cumulative time, they are scaled down to it. What a function's
 *   frames do not hold of its self time goes under one more root,
 *   SMPROF_UNATTRIBUTED_NAME. So the roots always sum to the total, each
 *   function's frames hold its self time, none holds more than its cumulative
 *   time, and nothing is counted twice.
 *
 * This is an estimate, and the UI and the exports say so. */

typedef struct
{
  guint32 callee;      /* vertex */
  double  weight;      /* time entering the callee may give it, at ratio 1 */
  double  raw;         /* cProfile's cumulative time on these calls */
  gint64  calls;
  double  inner_share; /* of the caller's calls made inside its own, those that made this one */
} Edge;

typedef struct
{
  guint32 func;
  gint64  calls;
  gint64  prim_calls;
  double  cumtime;
  double  tottime;
  double  self_ratio;  /* tottime / cumtime */
  double  root_time;
} Vertex;

/* Vertices 0..n_entries-1 are the profile's entries; the ones after are
 * functions seen only as callers, roots holding their callees' time. */
typedef struct
{
  SmprofCprofileProfile *profile;
  SmprofFunctionKeys    *table;
  guint                  n_entries;
  GArray                *vertices;    /* Vertex */
  guint32               *vertex_of;   /* func id -> vertex + 1 */
  guint                  n_funcs;
  guint                 *first_edge;  /* per vertex, plus one */
  Edge                  *edges;       /* grouped by caller */
  guint                  n_edges;
  guint32               *component;   /* per vertex: its strongly connected component */
} Graph;

/* A damaged file may hold anything: negative, infinite or NaN times count as none. */
static inline double
time_or_zero (double seconds)
{
  return isfinite (seconds) && seconds > 0 ? seconds : 0;
}

static guint32
vertex_of_func (Graph   *graph,
                guint32  func)
{
  return func < graph->n_funcs ? graph->vertex_of[func] : 0;
}

/* cProfile's cumulative time on a caller's calls; the legacy `profile`
 * module only counted the calls, so their share of the callee's time stands in. */
static double
edge_time (const SmprofProfileEntry *entry,
           const SmprofCallerStat   *caller)
{
  if (!caller->legacy)
    return time_or_zero (caller->ct);

  return entry->nc > 0 ? time_or_zero (entry->ct * (double) caller->nc / (double) entry->nc) : 0;
}

static void
add_vertices (Graph *graph)
{
  guint32 max_func = 0;

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (graph->profile, i);

      max_func = MAX (max_func, entry->func);
      for (guint c = 0; c < entry->callers->len; c++)
        max_func = MAX (max_func, g_array_index (entry->callers, SmprofCallerStat, c).caller);
    }

  graph->n_funcs = max_func + 1;
  graph->vertex_of = g_new0 (guint32, graph->n_funcs);

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (graph->profile, i);
      Vertex vertex = { entry->func, entry->nc, entry->cc, time_or_zero (entry->ct), time_or_zero (entry->tt), 1, 0 };

      if (vertex.cumtime > 0)
        vertex.self_ratio = MIN (vertex.tottime / vertex.cumtime, 1.0);
      g_array_append_val (graph->vertices, vertex);
      graph->vertex_of[entry->func] = i + 1;
    }

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (graph->profile, i);

      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);
          guint32 found = graph->vertex_of[caller->caller];
          Vertex *vertex;

          if (found == 0)
            {
              Vertex fresh = { caller->caller, 0, 0, 0, 0, 0, 0 };

              g_array_append_val (graph->vertices, fresh);
              found = graph->vertices->len;
              graph->vertex_of[caller->caller] = found;
            }

          /* A caller without an entry of its own ran, unprofiled, around its
           * calls: a root that holds exactly their time. */
          vertex = &g_array_index (graph->vertices, Vertex, found - 1);
          if (found - 1 >= graph->n_entries)
            {
              vertex->cumtime += edge_time (entry, caller);
              vertex->root_time = vertex->cumtime;
            }
        }
    }
}

/* The caller -> callee edges in compressed rows; weights come later. */
static void
add_edges (Graph *graph)
{
  guint n_vertices = graph->vertices->len;
  g_autofree guint *fill = g_new0 (guint, n_vertices + 1);

  graph->first_edge = g_new0 (guint, n_vertices + 1);

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (graph->profile, i);

      for (guint c = 0; c < entry->callers->len; c++)
        graph->first_edge[vertex_of_func (graph, g_array_index (entry->callers, SmprofCallerStat, c).caller)]++;
    }

  /* Each vertex's count sits one place up: summed, first_edge[v + 1] is
   * where v's edges end. */
  for (guint v = 1; v <= n_vertices; v++)
    graph->first_edge[v] += graph->first_edge[v - 1];
  graph->n_edges = graph->first_edge[n_vertices];
  memcpy (fill, graph->first_edge, sizeof (guint) * (n_vertices + 1));
  graph->edges = g_new0 (Edge, MAX (graph->n_edges, 1));

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (graph->profile, i);

      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);
          guint32 from = vertex_of_func (graph, caller->caller) - 1;
          Edge *edge = &graph->edges[fill[from]++];

          edge->callee = i;
          edge->raw = edge_time (entry, caller);
          edge->calls = caller->nc;
        }
    }
}

/* Tarjan's strongly connected components, without recursion: a deep call
 * graph must not overflow the stack. */
typedef struct
{
  guint32 vertex;
  guint   next_edge;
} Frame;

static void
find_components (Graph *graph)
{
  guint n_vertices = graph->vertices->len;
  g_autofree guint *index = g_new0 (guint, n_vertices);    /* visit order + 1 */
  g_autofree guint *low = g_new0 (guint, n_vertices);
  g_autofree gboolean *on_stack = g_new0 (gboolean, n_vertices);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  guint counter = 0;

  graph->component = g_new0 (guint32, n_vertices);

  for (guint32 start = 0; start < n_vertices; start++)
    {
      Frame first = { start, graph->first_edge[start] };

      if (index[start] != 0)
        continue;

      index[start] = low[start] = ++counter;
      g_array_append_val (stack, start);
      on_stack[start] = TRUE;
      g_array_append_val (frames, first);

      while (frames->len > 0)
        {
          Frame *frame = &g_array_index (frames, Frame, frames->len - 1);
          guint32 v = frame->vertex;

          if (frame->next_edge < graph->first_edge[v + 1])
            {
              guint32 w = graph->edges[frame->next_edge++].callee;

              if (index[w] == 0)
                {
                  Frame next = { w, graph->first_edge[w] };

                  index[w] = low[w] = ++counter;
                  g_array_append_val (stack, w);
                  on_stack[w] = TRUE;
                  g_array_append_val (frames, next);
                }
              else if (on_stack[w])
                low[v] = MIN (low[v], index[w]);
              continue;
            }

          if (low[v] == index[v])
            {
              guint32 w;

              do
                {
                  w = g_array_index (stack, guint32, stack->len - 1);
                  g_array_set_size (stack, stack->len - 1);
                  on_stack[w] = FALSE;
                  graph->component[w] = v;
                }
              while (w != v);
            }

          g_array_set_size (frames, frames->len - 1);
          if (frames->len > 0)
            {
              guint32 parent = g_array_index (frames, Frame, frames->len - 1).vertex;

              low[parent] = MIN (low[parent], low[v]);
            }
        }
    }
}

typedef struct
{
  double outside_time;  /* edges from outside the function's cycle */
  gint64 outside_calls;
  double inside_time;   /* edges from inside it, the function's own excepted */
  gint64 inside_prim;
} Inflow;

static Inflow
sum_inflow (Graph                    *graph,
            guint32                   vertex,
            const SmprofProfileEntry *entry)
{
  Inflow inflow = { 0, 0, 0, 0 };

  for (guint c = 0; c < entry->callers->len; c++)
    {
      const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);
      guint32 from = vertex_of_func (graph, caller->caller) - 1;

      if (from == vertex)
        continue;

      if (graph->component[from] != graph->component[vertex])
        {
          inflow.outside_time += edge_time (entry, caller);
          inflow.outside_calls += caller->nc;
        }
      else
        {
          inflow.inside_time += edge_time (entry, caller);
          inflow.inside_prim += caller->cc;
        }
    }

  return inflow;
}

static double
estimate_root_time (const SmprofProfileEntry *entry,
                    double                    cumtime,
                    const Inflow             *inflow)
{
  gint64 root_calls = entry->nc;
  gint64 inside_outermost;
  double inside_time = 0;

  for (guint c = 0; c < entry->callers->len; c++)
    root_calls -= g_array_index (entry->callers, SmprofCallerStat, c).nc;

  if (root_calls <= 0 || cumtime <= 0)
    return 0;
  if (entry->cc <= root_calls)
    return cumtime;

  /* Outermost calls from inside the cycle, at the average time of a call the
   * edges count as their callers' outermost. */
  inside_outermost = entry->cc - root_calls - inflow->outside_calls;
  if (inside_outermost > 0 && inflow->inside_prim > 0)
    inside_time = inflow->inside_time * MIN (1.0, (double) inside_outermost / (double) inflow->inside_prim);

  return MAX (0.0, cumtime - inflow->outside_time - inside_time);
}

/* Edges from outside a function's cycle hold exactly the time of outermost
 * calls, and never more than its cumulative time less its root time. Edges
 * from inside it may hold calls made while it already ran; the walk takes
 * those back where it meets them, and settle() caps what is left. */
static void
weigh_edges (Graph *graph)
{
  guint n_vertices = graph->vertices->len;
  g_autofree double *outside_scale = g_new (double, n_vertices);

  for (guint32 i = 0; i < graph->n_entries; i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (graph->profile, i);
      Vertex *vertex = &g_array_index (graph->vertices, Vertex, i);
      Inflow inflow = sum_inflow (graph, i, entry);
      double budget;

      vertex->root_time = estimate_root_time (entry, vertex->cumtime, &inflow);
      budget = MAX (0.0, vertex->cumtime - vertex->root_time);
      outside_scale[i] = inflow.outside_time > budget ? budget / inflow.outside_time : 1;
    }

  for (guint32 v = 0; v < n_vertices; v++)
    for (guint e = graph->first_edge[v]; e < graph->first_edge[v + 1]; e++)
      {
        Edge *edge = &graph->edges[e];
        gboolean inside = graph->component[edge->callee] == graph->component[v];
        const Vertex *caller = &g_array_index (graph->vertices, Vertex, v);
        gint64 inner_calls = caller->calls - caller->prim_calls;

        edge->weight = inside ? edge->raw : edge->raw * outside_scale[edge->callee];

        /* At most the caller's outermost calls made these calls; the rest
         * were made by its calls inside its own. */
        edge->inner_share = inner_calls > 0
                            ? CLAMP ((double) (edge->calls - MIN (edge->calls, caller->prim_calls)) / (double) inner_calls, 0.0, 1.0)
                            : 0;
      }
}

/* Larger first, then by function key: the order of the summed stats'
 * entries, which depends on the order they were summed in, never shows. */
static int
compare_edges (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  Graph *graph = user_data;
  const Edge *x = a;
  const Edge *y = b;

  if (x->weight != y->weight)
    return x->weight > y->weight ? -1 : 1;

  return smprof_function_keys_compare (graph->table,
                                       g_array_index (graph->vertices, Vertex, x->callee).func,
                                       g_array_index (graph->vertices, Vertex, y->callee).func);
}

static int
compare_roots (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  Graph *graph = user_data;
  const Vertex *x = &g_array_index (graph->vertices, Vertex, *(const guint32 *) a);
  const Vertex *y = &g_array_index (graph->vertices, Vertex, *(const guint32 *) b);

  if (x->root_time != y->root_time)
    return x->root_time > y->root_time ? -1 : 1;

  return smprof_function_keys_compare (graph->table, x->func, y->func);
}

static void
sort_edges (Graph *graph)
{
  for (guint32 v = 0; v < graph->vertices->len; v++)
    if (graph->first_edge[v + 1] - graph->first_edge[v] > 1)
      g_qsort_with_data (&graph->edges[graph->first_edge[v]], graph->first_edge[v + 1] - graph->first_edge[v],
                         sizeof (Edge), compare_edges, graph);
}

static void
graph_clear (Graph *graph)
{
  g_clear_pointer (&graph->vertices, g_array_unref);
  g_clear_pointer (&graph->vertex_of, g_free);
  g_clear_pointer (&graph->first_edge, g_free);
  g_clear_pointer (&graph->edges, g_free);
  g_clear_pointer (&graph->component, g_free);
}

/* ------------------------------------------------------------------ the walk */

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
 * smprof_call_tree_new_estimated:
 * @profile: summed cProfile stats
 *
 * Estimates the calling-context tree of @profile (see the comment at the top
 * of this file). Its root frames sum to pstats' total_tt; a function's frames
 * never sum to more than its cumulative time.
 *
 * Returns: (transfer full): the tree, children sorted by time
 */
SmprofCallTree *
smprof_call_tree_new_estimated (SmprofCprofileProfile *profile)
{
  SmprofFunctionKeys *table = smprof_cprofile_profile_get_table (profile);
  SmprofCallTree *tree = smprof_call_tree_new (table);
  Graph graph = { profile, table, smprof_cprofile_profile_get_n_entries (profile), NULL, NULL, 0, NULL, NULL, 0, NULL };
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Work));
  g_autoptr(GArray) times = g_array_new (FALSE, TRUE, sizeof (Times));
  g_autofree guint32 *on_path = NULL;
  guint32 path[SMPROF_ESTIMATED_TREE_MAX_DEPTH + 1];
  double total = smprof_cprofile_profile_get_total_tt (profile);
  Walk walk = { &graph, tree, times, NULL, path, 0 };

  g_array_set_size (times, 1);
  graph.vertices = g_array_new (FALSE, FALSE, sizeof (Vertex));
  if (graph.n_entries == 0)
    {
      settle (&walk, total);
      graph_clear (&graph);
      return tree;
    }

  add_vertices (&graph);
  add_edges (&graph);
  find_components (&graph);
  weigh_edges (&graph);
  sort_edges (&graph);

  for (guint32 v = 0; v < graph.vertices->len; v++)
    if (g_array_index (graph.vertices, Vertex, v).root_time > 0)
      g_array_append_val (roots, v);
  g_array_sort_with_data (roots, compare_roots, &graph);

  walk.on_path = on_path = g_new0 (guint32, graph.vertices->len);
  walk.threshold = time_or_zero (total) * 1e-6;

  /* Every root gets its frame before any walk can fill the tree. */
  for (guint k = 0; k < roots->len; k++)
    {
      guint32 vertex = g_array_index (roots, guint32, k);

      add_node (&walk, SMPROF_CALL_TREE_ROOT, vertex, g_array_index (graph.vertices, Vertex, vertex).root_time, 0);
    }

  for (guint k = 0; k < roots->len; k++)
    {
      guint32 vertex = g_array_index (roots, guint32, k);

      walk_from (&walk, stack, vertex, smprof_call_tree_ensure_child (tree, SMPROF_CALL_TREE_ROOT,
                                                                      g_array_index (graph.vertices, Vertex, vertex).func));
    }

  settle (&walk, total);
  graph_clear (&graph);
  smprof_call_tree_sort (tree);

  return tree;
}

/**
 * smprof_function_is_unattributed:
 * @table: a function table
 * @func: a function id
 *
 * Returns: whether @func is the estimated tree's frame of time it could not place
 */
gboolean
smprof_function_is_unattributed (SmprofFunctionKeys *table,
                                 guint32             func)
{
  g_return_val_if_fail (table != NULL, FALSE);

  if (func >= smprof_function_keys_get_size (table))
    return FALSE;

  return smprof_function_keys_get_line (table, func) == 0 &&
         strcmp (smprof_function_keys_get_file (table, func), SMPROF_UNATTRIBUTED_FILE) == 0 &&
         strcmp (smprof_function_keys_get_name (table, func), SMPROF_UNATTRIBUTED_NAME) == 0;
}
