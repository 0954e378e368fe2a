/* smprof-range-index-build.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Building a range index: each node's columns, checkpoints and cold
 * occurrences (nodes in parallel), then the global columns that every query
 * sums into. Apart from querying, which only reads what is built here. */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "smprof-parallel.h"
#include "smprof-range-index-private.h"
#include "smprof-u64-map.h"

/* A node's checkpoints take about this fraction of the memory its stats take:
 * the spacing follows from it, so memory and query time both stay in
 * proportion to the job whatever its shape. A query's worst case reads the
 * stats of a whole spacing of intervals on every node, so the worst drag of
 * a 256-node job is in proportion to it: an eighth (rather than a sixteenth)
 * halves it, for 5 % more memory there (an index of 200 MB instead of 120
 * beside 1.5 GB of stats). */
#define CHECKPOINT_SHARE 8
#define MIN_STRIDE       8

/* A query of fewer nodes than this sums them on one thread (tests set less,
 * to reach the parts on small jobs). */
#define NODES_PER_PART   16

typedef struct
{
  guint32 func;
  guint32 occurrences;
  guint64 first;           /* record order << 32 | place in the record */
} FuncInfo;

typedef struct
{
  guint32 callee;          /* node function index */
  guint32 caller;          /* func id */
  guint32 occurrences;
  gboolean legacy;
  guint64 first;
} EdgeInfo;

static int
compare_doubles (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const double *values = user_data;
  double x = values[*(const guint32 *) a];
  double y = values[*(const guint32 *) b];

  return x < y ? -1 : x > y ? 1 : 0;
}

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* First pass: every function and edge of the node, with where it is first
 * seen and how often. */
static void
discover_columns (Node *node)
{
  SmprofU64Map edge_ids;
  g_autofree guint32 *fill = NULL;
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (EdgeInfo));

  node->func_index = g_new (guint32, MAX (node->n_table, 1));
  memset (node->func_index, 0xff, node->n_table * sizeof (guint32));
  node->funcs = g_array_new (FALSE, FALSE, sizeof (FuncInfo));
  smprof_u64_map_init (&edge_ids, 512);

  for (guint r = 0; r < node->records->len; r++)
    {
      const SmprofRecord *record = g_ptr_array_index (node->records, r);
      const SmprofPstats *stats = record->pstats;
      guint32 place = 0;

      for (guint i = 0; i < stats->n_funcs; i++)
        {
          const SmprofFuncStat *stat = &stats->funcs[i];
          guint32 callee = node->func_index[stat->func];

          if (callee == NONE)
            {
              FuncInfo info = { stat->func, 0, (guint64) record->order << 32 | i };

              callee = node->funcs->len;
              node->func_index[stat->func] = callee;
              g_array_append_val (node->funcs, info);
            }
          g_array_index (node->funcs, FuncInfo, callee).occurrences++;

          for (guint c = 0; c < stat->n_callers; c++, place++)
            {
              const SmprofCallerStat *caller = &stats->callers[stat->first_caller + c];
              guint64 key = (guint64) callee << 32 | caller->caller;
              guint32 id = smprof_u64_map_lookup_or_insert (&edge_ids, key, edges->len);

              if (id == SMPROF_U64_MAP_NONE)
                {
                  EdgeInfo info = { callee, caller->caller, 0, caller->legacy,
                                    (guint64) record->order << 32 | place };

                  id = edges->len;
                  g_array_append_val (edges, info);
                }
              g_array_index (edges, EdgeInfo, id).occurrences++;
            }
        }
    }

  smprof_u64_map_clear (&edge_ids);

  /* Group the edges by callee, callers ascending, for _smprof_range_index_find_edge(). */
  node->n_funcs = node->funcs->len;
  node->n_edges = edges->len;
  node->edge_first = g_new0 (guint32, node->n_funcs + 1);
  for (guint e = 0; e < edges->len; e++)
    node->edge_first[g_array_index (edges, EdgeInfo, e).callee + 1]++;
  for (guint f = 0; f < node->n_funcs; f++)
    node->edge_first[f + 1] += node->edge_first[f];

  fill = g_memdup2 (node->edge_first, sizeof (guint32) * (node->n_funcs + 1));
  node->edge_caller = g_new (guint32, MAX (edges->len, 1));
  for (guint e = 0; e < edges->len; e++)
    {
      const EdgeInfo *info = &g_array_index (edges, EdgeInfo, e);

      node->edge_caller[fill[info->callee]++] = info->caller;
    }
  for (guint f = 0; f < node->n_funcs; f++)
    qsort (node->edge_caller + node->edge_first[f], node->edge_first[f + 1] - node->edge_first[f],
           sizeof (guint32), compare_guint32);

  /* EdgeInfo in slot order: find the slot of each edge by its caller again. */
  node->edges = g_array_sized_new (FALSE, FALSE, sizeof (EdgeInfo), edges->len);
  g_array_set_size (node->edges, edges->len);
  for (guint e = 0; e < edges->len; e++)
    {
      const EdgeInfo *info = &g_array_index (edges, EdgeInfo, e);
      guint slot = _smprof_range_index_find_edge (node, info->callee, info->caller);

      g_array_index (node->edges, EdgeInfo, slot) = *info;
    }
}

/* Local columns: the totals, the hot functions and edges, then the cold. */
static void
assign_columns (Node *node)
{
  guint column = 1;

  node->func_column = g_new (guint32, MAX (node->n_funcs, 1));
  node->edge_column = g_new (guint32, MAX (node->n_edges, 1));

  for (int hot = 1; hot >= 0; hot--)
    {
      for (guint f = 0; f < node->n_funcs; f++)
        if ((g_array_index (node->funcs, FuncInfo, f).occurrences > node->cold_max) == hot)
          node->func_column[f] = column++;
      for (guint e = 0; e < node->n_edges; e++)
        if ((g_array_index (node->edges, EdgeInfo, e).occurrences > node->cold_max) == hot)
          node->edge_column[e] = column++;
      if (hot)
        node->n_hot = column;
    }

  node->n_columns = column;
}

typedef struct
{
  const Node *node;
  Sums       *sums;
  guint32    *seen;
  GArray     *cold;
  guint32     position;
} Accumulator;

static void
accumulate_column (gpointer    data,
                   guint32     column,
                   const Sums *sums)
{
  Accumulator *acc = data;

  if (column < acc->node->n_hot)
    {
      _smprof_range_index_sums_add (&acc->sums[column], sums, 1);
      acc->seen[column]++;
    }
  else
    {
      Occurrence occurrence = { acc->position, column, *sums };

      g_array_append_val (acc->cold, occurrence);
    }
}

static void
build_view (Node *node,
            View *view)
{
  guint n = node->records->len;
  g_autofree Sums *running = g_new0 (Sums, node->n_hot);
  g_autofree guint32 *seen = g_new0 (guint32, node->n_hot);
  Accumulator acc = { node, running, seen, NULL, 0 };

  view->n_checkpoints = (n + node->stride - 1) / node->stride;
  view->sums = g_new (Sums, (gsize) MAX (view->n_checkpoints, 1) * node->n_hot);
  view->seen = g_new (guint32, (gsize) MAX (view->n_checkpoints, 1) * node->n_hot);
  view->cold = g_array_new (FALSE, FALSE, sizeof (Occurrence));
  acc.cold = view->cold;

  for (guint p = 0; p < n; p++)
    {
      const SmprofRecord *record = g_ptr_array_index (node->records, view->order ? view->order[p] : p);

      acc.position = p;
      _smprof_range_index_foreach_column (node, record, accumulate_column, &acc);

      if ((p + 1) % node->stride == 0 || p + 1 == n)
        {
          guint row = p / node->stride;

          memcpy (view->sums + (gsize) row * node->n_hot, running, node->n_hot * sizeof (Sums));
          memcpy (view->seen + (gsize) row * node->n_hot, seen, node->n_hot * sizeof (guint32));
        }
    }
}

static gsize
view_memory_size (const Node *node,
                  const View *view)
{
  return (gsize) view->n_checkpoints * node->n_hot * (sizeof (Sums) + sizeof (guint32)) +
         (view->cold != NULL ? view->cold->len * sizeof (Occurrence) : 0) +
         (view->order != NULL ? node->records->len * sizeof (guint32) : 0);
}

static void
build_node (Node *node)
{
  guint n = node->records->len;
  gsize stats_size = 0;
  gsize row_size;
  guint max_checkpoints;

  discover_columns (node);
  assign_columns (node);

  node->starts = g_new (double, MAX (n, 1));
  node->ends = g_new (double, MAX (n, 1));
  node->monotone = TRUE;
  for (guint r = 0; r < n; r++)
    {
      const SmprofRecord *record = g_ptr_array_index (node->records, r);

      node->starts[r] = record->name.start_time_us;
      node->ends[r] = record->name.end_time_us;
      if (r > 0 && node->ends[r] < node->ends[r - 1])
        node->monotone = FALSE;
      stats_size += record->pstats->n_funcs * sizeof (SmprofFuncStat) +
                    record->pstats->n_callers * sizeof (SmprofCallerStat);
    }

  if (node->stride == 0)
    {
      row_size = node->n_hot * (sizeof (Sums) + sizeof (guint32));
      max_checkpoints = MAX (1, stats_size / CHECKPOINT_SHARE / MAX (row_size, 1));
      node->stride = MAX (MIN_STRIDE, (n + max_checkpoints - 1) / max_checkpoints);
    }

  build_view (node, &node->by_start);

  /* Overlapping intervals: the ones that end before a range are then not a
   * prefix of the start order, so they get an order of their own. */
  if (!node->monotone)
    {
      g_autofree double *ends = node->ends;

      node->by_end.order = g_new (guint32, MAX (n, 1));
      for (guint r = 0; r < n; r++)
        node->by_end.order[r] = r;
      g_qsort_with_data (node->by_end.order, n, sizeof (guint32), compare_doubles, ends);

      node->ends = g_new (double, MAX (n, 1));
      for (guint p = 0; p < n; p++)
        node->ends[p] = ends[node->by_end.order[p]];

      build_view (node, &node->by_end);
    }
}

static void
build_node_at (guint    i,
               gpointer data)
{
  Node *nodes = data;

  build_node (&nodes[i]);
}

typedef struct
{
  guint64 first;
  guint32 node;
  guint32 index;   /* node function index, or edge */
} FirstSeen;

static int
compare_first_seen (gconstpointer a,
                    gconstpointer b)
{
  const FirstSeen *x = a;
  const FirstSeen *y = b;

  return x->first < y->first ? -1 : x->first > y->first ? 1 : 0;
}

/* Global columns in the order pstats' merge of every indexed interval would
 * list them: by where each is first seen in record order. */
static void
assign_global_columns (SmprofRangeIndex *self,
                       guint             n_table)
{
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (FirstSeen));
  g_autofree guint32 *gfunc_of_func = g_new (guint32, MAX (n_table, 1));
  g_autofree guint32 *gedge_callee = NULL;
  g_autoptr(GArray) gfuncs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) callees = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) callers = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) legacy = g_array_new (FALSE, FALSE, sizeof (guint8));
  SmprofU64Map gedge_ids;

  memset (gfunc_of_func, 0xff, n_table * sizeof (guint32));

  for (guint n = 0; n < self->n_nodes; n++)
    {
      Node *node = &self->nodes[n];

      node->global = g_new (guint32, MAX (node->n_columns, 1));
      node->global[TOTALS_COLUMN] = TOTALS_COLUMN;
      for (guint f = 0; f < node->n_funcs; f++)
        {
          FirstSeen item = { g_array_index (node->funcs, FuncInfo, f).first, n, f };

          g_array_append_val (seen, item);
        }
    }

  g_array_sort (seen, compare_first_seen);
  for (guint i = 0; i < seen->len; i++)
    {
      const FirstSeen *item = &g_array_index (seen, FirstSeen, i);
      guint32 func = g_array_index (self->nodes[item->node].funcs, FuncInfo, item->index).func;

      if (gfunc_of_func[func] == NONE)
        {
          gfunc_of_func[func] = gfuncs->len;
          g_array_append_val (gfuncs, func);
        }
    }
  self->n_gfuncs = gfuncs->len;

  for (guint n = 0; n < self->n_nodes; n++)
    {
      Node *node = &self->nodes[n];

      for (guint f = 0; f < node->n_funcs; f++)
        node->global[node->func_column[f]] = 1 + gfunc_of_func[g_array_index (node->funcs, FuncInfo, f).func];
    }

  g_array_set_size (seen, 0);
  for (guint n = 0; n < self->n_nodes; n++)
    for (guint e = 0; e < self->nodes[n].n_edges; e++)
      {
        FirstSeen item = { g_array_index (self->nodes[n].edges, EdgeInfo, e).first, n, e };

        g_array_append_val (seen, item);
      }
  g_array_sort (seen, compare_first_seen);

  smprof_u64_map_init (&gedge_ids, 512);
  for (guint i = 0; i < seen->len; i++)
    {
      const FirstSeen *item = &g_array_index (seen, FirstSeen, i);
      Node *node = &self->nodes[item->node];
      const EdgeInfo *info = &g_array_index (node->edges, EdgeInfo, item->index);
      guint32 callee = gfunc_of_func[g_array_index (node->funcs, FuncInfo, info->callee).func];
      guint64 key = (guint64) callee << 32 | info->caller;
      guint32 gedge = smprof_u64_map_lookup_or_insert (&gedge_ids, key, callees->len);

      if (gedge == SMPROF_U64_MAP_NONE)
        {
          guint8 is_legacy = info->legacy ? 1 : 0;

          gedge = callees->len;
          g_array_append_val (callees, callee);
          g_array_append_val (callers, info->caller);
          g_array_append_val (legacy, is_legacy);
        }

      node->global[node->edge_column[item->index]] = 1 + self->n_gfuncs + gedge;
    }
  smprof_u64_map_clear (&gedge_ids);

  for (guint n = 0; n < self->n_nodes; n++)
    {
      Node *node = &self->nodes[n];

      node->func_global = g_new (guint32, MAX (node->n_funcs, 1));
      for (guint f = 0; f < node->n_funcs; f++)
        node->func_global[f] = node->global[node->func_column[f]] |
                               (node->func_column[f] >= node->n_hot ? GLOBAL_COLD : 0);
      node->edge_global = g_new (guint32, MAX (node->n_edges, 1));
      for (guint e = 0; e < node->n_edges; e++)
        node->edge_global[e] = node->global[node->edge_column[e]] |
                               (node->edge_column[e] >= node->n_hot ? GLOBAL_COLD : 0);
    }

  self->n_gedges = callees->len;
  self->n_global = 1 + self->n_gfuncs + self->n_gedges;

  self->gfunc_func = g_array_steal (gfuncs, NULL);
  self->gedge_caller = g_array_steal (callers, NULL);
  self->gedge_legacy = g_array_steal (legacy, NULL);
  gedge_callee = g_array_steal (callees, NULL);

  /* Each function's edges, in first-seen order. */
  self->gfunc_edges_first = g_new0 (guint32, self->n_gfuncs + 1);
  self->gfunc_edges = g_new (guint32, MAX (self->n_gedges, 1));
  for (guint e = 0; e < self->n_gedges; e++)
    self->gfunc_edges_first[gedge_callee[e] + 1]++;
  for (guint g = 0; g < self->n_gfuncs; g++)
    self->gfunc_edges_first[g + 1] += self->gfunc_edges_first[g];
  {
    g_autofree guint32 *fill = g_memdup2 (self->gfunc_edges_first, sizeof (guint32) * (self->n_gfuncs + 1));

    for (guint e = 0; e < self->n_gedges; e++)
      self->gfunc_edges[fill[gedge_callee[e]]++] = e;
  }

  for (guint n = 0; n < self->n_nodes; n++)
    {
      g_clear_pointer (&self->nodes[n].funcs, g_array_unref);
      g_clear_pointer (&self->nodes[n].edges, g_array_unref);
    }
}

static gsize
compute_memory_size (SmprofRangeIndex *self)
{
  gsize size = sizeof *self + self->n_nodes * sizeof (Node);

  size += self->n_gfuncs * sizeof (guint32) * 2 + self->n_gedges * (sizeof (guint32) * 2 + 1);
  size += self->n_job_records * sizeof (guint32) * 2;

  for (guint n = 0; n < self->n_nodes; n++)
    {
      const Node *node = &self->nodes[n];

      size += node->records->len * (sizeof (gpointer) + sizeof (double) * 2);
      size += node->n_table * sizeof (guint32);
      size += node->n_funcs * sizeof (guint32) * 2 + node->n_edges * sizeof (guint32) * 2;
      size += node->n_columns * sizeof (guint32);
      size += (node->n_funcs + node->n_edges) * sizeof (guint32);
      size += view_memory_size (node, &node->by_start);
      if (!node->monotone)
        size += view_memory_size (node, &node->by_end);
    }

  return size;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/*
 * _smprof_range_index_new_tuned:
 * @stride: the checkpoint spacing, or 0 to derive it from the memory budget
 * @cold_max: columns seen in at most this many of a node's intervals are
 *   kept out of the checkpoints
 *
 * smprof_range_index_new() with its two trade-offs set by hand, so that tests
 * can reach every path on small jobs.
 */
SmprofRangeIndex *
_smprof_range_index_new_tuned (SmprofJob           *job,
                               SmprofProfiler       profiler,
                               const char * const  *node_ids,
                               guint                stride,
                               guint                cold_max,
                               GCancellable        *cancellable,
                               GError             **error)
{
  g_autoptr(SmprofRangeIndex) self = NULL;
  g_autoptr(GPtrArray) wanted = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  GPtrArray *records;
  guint n_table;

  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (profiler != SMPROF_PROFILER_CPROFILE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Range re-aggregation is available for cProfile stats only"));
      return NULL;
    }

  self = g_object_new (SMPROF_TYPE_RANGE_INDEX, NULL);
  self->job = g_object_ref (job);
  self->profiler = profiler;
  self->nodes_per_part = NODES_PER_PART;

  records = smprof_job_get_records (job, profiler);

  if (node_ids == NULL)
    self->node_ids = smprof_job_dup_node_ids (job, profiler);
  else
    {
      ids = g_ptr_array_new ();
      for (guint i = 0; node_ids[i] != NULL; i++)
        {
          gboolean duplicate = FALSE;

          for (guint j = 0; j < ids->len && !duplicate; j++)
            duplicate = strcmp (g_ptr_array_index (ids, j), node_ids[i]) == 0;
          if (!duplicate)
            g_ptr_array_add (ids, g_strdup (node_ids[i]));
        }
      g_ptr_array_sort (ids, compare_strings);
      g_ptr_array_add (ids, NULL);
      self->node_ids = (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
    }

  wanted = g_ptr_array_new ();
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (g_strv_contains ((const char * const *) self->node_ids, record->node_id))
        g_ptr_array_add (wanted, record);
    }

  /* Built for later drags, while the user waits for a selection's answer. */
  if (!smprof_job_load_stats_in_background (job, wanted, cancellable, error))
    return NULL;

  self->n_nodes = g_strv_length (self->node_ids);
  self->nodes = g_new0 (Node, MAX (self->n_nodes, 1));
  n_table = smprof_function_keys_get_size (smprof_job_get_function_keys (job));
  for (guint n = 0; n < self->n_nodes; n++)
    {
      self->nodes[n].node_id = self->node_ids[n];
      self->nodes[n].records = g_ptr_array_new ();
      self->nodes[n].n_table = n_table;
      self->nodes[n].stride = stride;
      self->nodes[n].cold_max = cold_max;
    }

  self->start_us = G_MAXDOUBLE;
  self->end_us = -G_MAXDOUBLE;
  for (guint i = 0; i < wanted->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (wanted, i);

      if (record->pstats == NULL)
        continue;

      for (guint n = 0; n < self->n_nodes; n++)
        if (strcmp (self->nodes[n].node_id, record->node_id) == 0)
          {
            g_ptr_array_add (self->nodes[n].records, record);
            break;
          }

      self->start_us = MIN (self->start_us, record->name.start_time_us);
      self->end_us = MAX (self->end_us, record->name.end_time_us);
    }

  self->n_job_records = records->len;
  self->record_node = g_new (guint32, MAX (records->len, 1));
  self->record_position = g_new (guint32, MAX (records->len, 1));
  memset (self->record_node, 0xff, records->len * sizeof (guint32));
  for (guint n = 0; n < self->n_nodes; n++)
    for (guint p = 0; p < self->nodes[n].records->len; p++)
      {
        const SmprofRecord *record = g_ptr_array_index (self->nodes[n].records, p);

        self->record_node[record->order] = n;
        self->record_position[record->order] = p;
      }

  smprof_parallel_for ("smprof-range", self->n_nodes, g_get_num_processors (), build_node_at, self->nodes,
                       cancellable);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  assign_global_columns (self, n_table);
  self->memory_size = compute_memory_size (self);

  return g_steal_pointer (&self);
}
