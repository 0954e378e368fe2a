/* smprof-estimated-tree.c: a calling-context tree estimated from cProfile's call graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-estimated-tree-private.h"

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
  double total = smprof_cprofile_profile_get_total_tt (profile);

  graph.vertices = g_array_new (FALSE, FALSE, sizeof (Vertex));
  if (graph.n_entries == 0)
    {
      _smprof_estimated_tree_walk (&graph, tree, roots, total);
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

  _smprof_estimated_tree_walk (&graph, tree, roots, total);
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
