/* smprof-range-index.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "smprof-cprofile-profile-private.h"
#include "smprof-profile-private.h"
#include "smprof-range-index-private.h"

#define NONE G_MAXUINT32

/* A column seen in at most this many of a node's intervals is summed from
 * its occurrences instead of being carried through every checkpoint. In real
 * jobs these are most columns (the initialization interval's thousands of
 * functions) but few occurrences. */
#define COLD_MAX_OCCURRENCES 4

/* A node's checkpoints take about this fraction of the memory its stats take:
 * the spacing follows from it, so memory and query time both stay in
 * proportion to the job whatever its shape. */
#define CHECKPOINT_SHARE 16
#define MIN_STRIDE       8

/* Global column 0 sums the intervals' own totals; functions follow, then
 * caller edges. Local (per node) column 0 is the totals too. */
#define TOTALS_COLUMN 0

typedef struct
{
  gint64 nc;   /* calls */
  gint64 cc;   /* primitive calls */
  double tt;
  double ct;
} Sums;

/* A cold column's value in one interval. */
typedef struct
{
  guint32 position;
  guint32 column;    /* local */
  Sums    sums;
} Occurrence;

/* The intervals of a node in one order, with the running sums of the hot
 * columns at every stride-th position. */
typedef struct
{
  guint32 *order;          /* position -> index in Node.records; NULL for the identity */
  Sums    *sums;           /* checkpoint k >= 1 (position min (k * stride, n)) is row k - 1 */
  guint32 *seen;           /* likewise: how many intervals hold the column */
  guint    n_checkpoints;  /* not counting the empty prefix at position 0 */
  GArray  *cold;           /* Occurrence, by position */
} View;

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

typedef struct
{
  const char *node_id;     /* owned by the job */
  GPtrArray  *records;     /* SmprofRecord with stats, record order */
  double     *starts;      /* in record order */
  double     *ends;        /* in by_end order (record order when monotone) */
  gboolean    monotone;    /* ends never decrease in record order */
  guint       stride;
  guint       cold_max;    /* columns seen in at most this many intervals are cold */

  guint       n_table;     /* func ids below this are mapped */
  guint32    *func_index;  /* func id -> node function index, or NONE */
  guint       n_funcs;
  guint32    *func_column; /* node function index -> local column */
  guint32    *edge_first;  /* node function index -> its first edge; n_funcs + 1 long */
  guint32    *edge_caller; /* edge -> caller func id, ascending within a callee */
  guint32    *edge_column; /* edge -> local column */
  guint       n_edges;
  guint       n_columns;
  guint       n_hot;       /* local columns below n_hot are in the checkpoints */
  guint32    *global;      /* local column -> global column */

  View        by_start;
  View        by_end;      /* used only when !monotone */

  /* Only while building. */
  GArray     *funcs;       /* FuncInfo, by node function index */
  GArray     *edges;       /* EdgeInfo, by edge */
} Node;

struct _SmprofRangeIndex
{
  GObject          parent_instance;

  SmprofJob       *job;
  SmprofProfiler   profiler;
  char           **node_ids;
  Node            *nodes;
  guint            n_nodes;

  guint            n_gfuncs;
  guint32         *gfunc_func;        /* global function -> func id */
  guint32         *gfunc_edges_first; /* global function -> first of its edges in gfunc_edges */
  guint32         *gfunc_edges;       /* global edges grouped by callee, in first-seen order */
  guint            n_gedges;
  guint32         *gedge_caller;      /* global edge -> caller func id */
  guint8          *gedge_legacy;
  guint            n_global;          /* 1 + n_gfuncs + n_gedges */

  /* Where each of the job's records (by record order) is: its node and its
   * position there, or NONE for records that are not indexed. */
  guint            n_job_records;
  guint32         *record_node;
  guint32         *record_position;

  double           start_us;
  double           end_us;
  gsize            memory_size;

  gpointer         scratch;           /* atomic: a spare Scratch for the next query */
};

/* A query's sums over every global column. They are large (a job's functions
 * and edges) and a drag issues queries back to back, so one is kept for the
 * next query rather than handed back to the system each time. */
typedef struct
{
  Sums    *sums;
  guint32 *seen;
} Scratch;

G_DEFINE_FINAL_TYPE (SmprofRangeIndex, smprof_range_index, G_TYPE_OBJECT)

/* A small open-addressing map from 64-bit keys to 32-bit values, for building. */
typedef struct
{
  guint64 *keys;
  guint32 *values;   /* value + 1; 0 for an empty bucket */
  guint    mask;
  guint    n_keys;
} KeyMap;

static inline guint
key_hash (guint64 key)
{
  key ^= key >> 31;
  key *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  key ^= key >> 29;
  return (guint) key;
}

static void
key_map_init (KeyMap *map,
              guint   n_buckets)
{
  map->keys = g_new (guint64, n_buckets);
  map->values = g_new0 (guint32, n_buckets);
  map->mask = n_buckets - 1;
  map->n_keys = 0;
}

static void
key_map_clear (KeyMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
}

static inline guint
key_map_bucket (const KeyMap *map,
                guint64       key)
{
  guint i = key_hash (key) & map->mask;

  while (map->values[i] != 0 && map->keys[i] != key)
    i = (i + 1) & map->mask;

  return i;
}

static inline guint32
key_map_lookup (const KeyMap *map,
                guint64       key)
{
  return map->values[key_map_bucket (map, key)] - 1;   /* NONE when absent */
}

static void
key_map_insert (KeyMap  *map,
                guint64  key,
                guint32  value)
{
  guint i;

  if ((map->n_keys + 1) * 2 > map->mask + 1)
    {
      KeyMap bigger;

      key_map_init (&bigger, (map->mask + 1) * 2);
      for (guint b = 0; b <= map->mask; b++)
        if (map->values[b] != 0)
          {
            guint j = key_map_bucket (&bigger, map->keys[b]);

            bigger.keys[j] = map->keys[b];
            bigger.values[j] = map->values[b];
          }
      bigger.n_keys = map->n_keys;
      key_map_clear (map);
      *map = bigger;
    }

  i = key_map_bucket (map, key);
  map->keys[i] = key;
  map->values[i] = value + 1;
  map->n_keys++;
}

static void
view_clear (View *view)
{
  g_clear_pointer (&view->order, g_free);
  g_clear_pointer (&view->sums, g_free);
  g_clear_pointer (&view->seen, g_free);
  g_clear_pointer (&view->cold, g_array_unref);
}

static void
node_clear (Node *node)
{
  g_clear_pointer (&node->records, g_ptr_array_unref);
  g_clear_pointer (&node->starts, g_free);
  g_clear_pointer (&node->ends, g_free);
  g_clear_pointer (&node->func_index, g_free);
  g_clear_pointer (&node->func_column, g_free);
  g_clear_pointer (&node->edge_first, g_free);
  g_clear_pointer (&node->edge_caller, g_free);
  g_clear_pointer (&node->edge_column, g_free);
  g_clear_pointer (&node->global, g_free);
  g_clear_pointer (&node->funcs, g_array_unref);
  g_clear_pointer (&node->edges, g_array_unref);
  view_clear (&node->by_start);
  view_clear (&node->by_end);
}

static void
scratch_free (gpointer data)
{
  Scratch *scratch = data;

  g_free (scratch->sums);
  g_free (scratch->seen);
  g_free (scratch);
}

static Scratch *
take_scratch (SmprofRangeIndex *self)
{
  Scratch *scratch = g_atomic_pointer_exchange (&self->scratch, NULL);

  if (scratch == NULL)
    {
      scratch = g_new0 (Scratch, 1);
      scratch->sums = g_new0 (Sums, self->n_global);
      scratch->seen = g_new0 (guint32, self->n_global);
    }
  else
    {
      memset (scratch->sums, 0, self->n_global * sizeof (Sums));
      memset (scratch->seen, 0, self->n_global * sizeof (guint32));
    }

  return scratch;
}

static void
give_back_scratch (SmprofRangeIndex *self,
                   Scratch          *scratch)
{
  if (!g_atomic_pointer_compare_and_exchange (&self->scratch, NULL, scratch))
    scratch_free (scratch);
}

static void
smprof_range_index_finalize (GObject *object)
{
  SmprofRangeIndex *self = SMPROF_RANGE_INDEX (object);

  for (guint i = 0; i < self->n_nodes; i++)
    node_clear (&self->nodes[i]);
  g_clear_pointer (&self->nodes, g_free);
  g_clear_pointer (&self->gfunc_func, g_free);
  g_clear_pointer (&self->gfunc_edges_first, g_free);
  g_clear_pointer (&self->gfunc_edges, g_free);
  g_clear_pointer (&self->gedge_caller, g_free);
  g_clear_pointer (&self->gedge_legacy, g_free);
  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_pointer (&self->record_node, g_free);
  g_clear_pointer (&self->record_position, g_free);
  g_clear_pointer (&self->scratch, scratch_free);
  g_clear_object (&self->job);

  G_OBJECT_CLASS (smprof_range_index_parent_class)->finalize (object);
}

static void
smprof_range_index_class_init (SmprofRangeIndexClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_range_index_finalize;
}

static void
smprof_range_index_init (SmprofRangeIndex *self)
{
}

static inline void
sums_add (Sums       *to,
          const Sums *from,
          int         sign)
{
  to->nc += sign * from->nc;
  to->cc += sign * from->cc;
  to->tt += sign * from->tt;
  to->ct += sign * from->ct;
}

static inline guint
find_edge (const Node *node,
           guint32     callee,
           guint32     caller)
{
  guint lo = node->edge_first[callee];
  guint hi = node->edge_first[callee + 1];

  /* Most functions have one to three callers. */
  while (hi - lo > 8)
    {
      guint mid = lo + (hi - lo) / 2;

      if (node->edge_caller[mid] < caller)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (; lo < hi; lo++)
    if (node->edge_caller[lo] == caller)
      break;

  /* Every edge of the node's records was discovered when it was built. */
  g_assert (lo < node->edge_first[callee + 1]);

  return lo;
}

/* Where one interval's values go: a column and what it adds. */
typedef void (*ColumnFunc) (gpointer    data,
                            guint32     column,
                            const Sums *sums);

/* Calls @func for every local column @record adds to, totals first. */
static inline void
foreach_column (const Node         *node,
                const SmprofRecord *record,
                ColumnFunc          func,
                gpointer            data)
{
  const SmprofPstats *stats = record->pstats;
  Sums totals = { stats->total_calls, stats->prim_calls, stats->total_tt, 0 };

  func (data, TOTALS_COLUMN, &totals);

  for (guint i = 0; i < stats->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &stats->funcs[i];
      guint32 callee = node->func_index[stat->func];
      Sums sums = { stat->nc, stat->cc, stat->tt, stat->ct };

      func (data, node->func_column[callee], &sums);

      for (guint c = 0; c < stat->n_callers; c++)
        {
          const SmprofCallerStat *caller = &stats->callers[stat->first_caller + c];
          Sums edge = { caller->nc, caller->cc, caller->tt, caller->ct };

          func (data, node->edge_column[find_edge (node, callee, caller->caller)], &edge);
        }
    }
}

/* Building. */

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
  KeyMap edge_ids;
  g_autofree guint32 *fill = NULL;
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (EdgeInfo));

  node->func_index = g_new (guint32, MAX (node->n_table, 1));
  memset (node->func_index, 0xff, node->n_table * sizeof (guint32));
  node->funcs = g_array_new (FALSE, FALSE, sizeof (FuncInfo));
  key_map_init (&edge_ids, 1024);

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
              guint32 id = key_map_lookup (&edge_ids, key);

              if (id == NONE)
                {
                  EdgeInfo info = { callee, caller->caller, 0, caller->legacy,
                                    (guint64) record->order << 32 | place };

                  id = edges->len;
                  key_map_insert (&edge_ids, key, id);
                  g_array_append_val (edges, info);
                }
              g_array_index (edges, EdgeInfo, id).occurrences++;
            }
        }
    }

  key_map_clear (&edge_ids);

  /* Group the edges by callee, callers ascending, for find_edge(). */
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
      guint slot = find_edge (node, info->callee, info->caller);

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
      sums_add (&acc->sums[column], sums, 1);
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
      foreach_column (node, record, accumulate_column, &acc);

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

typedef struct
{
  Node         *nodes;
  guint         n_nodes;
  GCancellable *cancellable;
  int           next;   /* atomic */
} BuildBatch;

static gpointer
build_worker (gpointer data)
{
  BuildBatch *batch = data;
  int i;

  while ((i = g_atomic_int_add (&batch->next, 1)) < (int) batch->n_nodes)
    if (!g_cancellable_is_cancelled (batch->cancellable))
      build_node (&batch->nodes[i]);

  return NULL;
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
  KeyMap gedge_ids;

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

  key_map_init (&gedge_ids, 1024);
  for (guint i = 0; i < seen->len; i++)
    {
      const FirstSeen *item = &g_array_index (seen, FirstSeen, i);
      Node *node = &self->nodes[item->node];
      const EdgeInfo *info = &g_array_index (node->edges, EdgeInfo, item->index);
      guint32 callee = gfunc_of_func[g_array_index (node->funcs, FuncInfo, info->callee).func];
      guint64 key = (guint64) callee << 32 | info->caller;
      guint32 gedge = key_map_lookup (&gedge_ids, key);

      if (gedge == NONE)
        {
          guint8 is_legacy = info->legacy ? 1 : 0;

          gedge = callees->len;
          key_map_insert (&gedge_ids, key, gedge);
          g_array_append_val (callees, callee);
          g_array_append_val (callers, info->caller);
          g_array_append_val (legacy, is_legacy);
        }

      node->global[node->edge_column[item->index]] = 1 + self->n_gfuncs + gedge;
    }
  key_map_clear (&gedge_ids);
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

SmprofRangeIndex *
smprof_range_index_new (SmprofJob           *job,
                        SmprofProfiler       profiler,
                        const char * const  *node_ids,
                        GCancellable        *cancellable,
                        GError             **error)
{
  return _smprof_range_index_new_tuned (job, profiler, node_ids, 0, COLD_MAX_OCCURRENCES, cancellable, error);
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
  g_autoptr(GPtrArray) threads = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  GPtrArray *records;
  BuildBatch batch = { 0 };
  guint n_table;
  guint n_threads;

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

  if (!smprof_job_load_stats (job, wanted, cancellable, error))
    return NULL;

  self->n_nodes = g_strv_length (self->node_ids);
  self->nodes = g_new0 (Node, MAX (self->n_nodes, 1));
  n_table = smprof_func_table_get_size (smprof_job_get_func_table (job));
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

  batch.nodes = self->nodes;
  batch.n_nodes = self->n_nodes;
  batch.cancellable = cancellable;
  threads = g_ptr_array_new ();
  n_threads = MIN (g_get_num_processors (), self->n_nodes);
  for (guint i = 1; i < n_threads; i++)
    g_ptr_array_add (threads, g_thread_new ("smprof-range", build_worker, &batch));
  build_worker (&batch);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  assign_global_columns (self, n_table);
  self->memory_size = compute_memory_size (self);

  return g_steal_pointer (&self);
}

typedef struct
{
  SmprofProfiler   profiler;
  char           **node_ids;
} NewData;

static void
new_data_free (gpointer data)
{
  NewData *new_data = data;

  g_strfreev (new_data->node_ids);
  g_free (new_data);
}

static void
new_in_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  NewData *data = task_data;
  GError *error = NULL;
  SmprofRangeIndex *index;

  index = smprof_range_index_new (source_object, data->profiler,
                                  (const char * const *) data->node_ids, cancellable, &error);
  if (index != NULL)
    g_task_return_pointer (task, index, g_object_unref);
  else
    g_task_return_error (task, error);
}

void
smprof_range_index_new_async (SmprofJob           *job,
                              SmprofProfiler       profiler,
                              const char * const  *node_ids,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  NewData *data;

  g_return_if_fail (SMPROF_IS_JOB (job));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (NewData, 1);
  data->profiler = profiler;
  data->node_ids = g_strdupv ((char **) node_ids);

  task = g_task_new (job, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_range_index_new_async);
  g_task_set_task_data (task, data, new_data_free);
  g_task_run_in_thread (task, new_in_thread);
}

SmprofRangeIndex *
smprof_range_index_new_finish (SmprofJob     *job,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);
  g_return_val_if_fail (g_task_is_valid (result, job), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

SmprofJob *
smprof_range_index_get_job (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), NULL);

  return self->job;
}

SmprofProfiler
smprof_range_index_get_profiler (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

const char * const *
smprof_range_index_get_node_ids (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), NULL);

  return (const char * const *) self->node_ids;
}

gboolean
smprof_range_index_get_time_bounds (SmprofRangeIndex *self,
                                    double           *start_us,
                                    double           *end_us)
{
  gboolean any;

  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), FALSE);

  any = self->start_us <= self->end_us;
  if (start_us != NULL)
    *start_us = any ? self->start_us : 0;
  if (end_us != NULL)
    *end_us = any ? self->end_us : 0;

  return any;
}

gsize
smprof_range_index_get_memory_size (SmprofRangeIndex *self)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), 0);

  return self->memory_size;
}

/* Querying. */

typedef struct
{
  const Node *node;
  Sums       *sums;      /* global columns */
  guint32    *seen;
  int         sign;
  gboolean    hot_only;
} Query;

static void
query_column (gpointer    data,
              guint32     column,
              const Sums *sums)
{
  Query *query = data;
  guint32 global;

  if (query->hot_only && column >= query->node->n_hot)
    return;

  global = query->node->global[column];
  sums_add (&query->sums[global], sums, query->sign);
  query->seen[global] += query->sign;
}

/* Adds (or removes) the intervals at positions [from, to) of @view. */
static void
query_add_positions (Query      *query,
                     const View *view,
                     guint       from,
                     guint       to)
{
  for (guint p = from; p < to; p++)
    foreach_column (query->node, g_ptr_array_index (query->node->records, view->order ? view->order[p] : p),
                    query_column, query);
}

/* Adds @sign times the sums of the hot columns over positions [0, @p). */
static void
query_add_hot_prefix (Query      *query,
                      const View *view,
                      guint       p,
                      int         sign)
{
  const Node *node = query->node;
  guint n = node->records->len;
  guint k = MIN ((p + node->stride / 2) / node->stride, view->n_checkpoints);
  guint at = MIN (k * node->stride, n);

  if (k > 0)
    {
      const Sums *row = view->sums + (gsize) (k - 1) * node->n_hot;
      const guint32 *seen = view->seen + (gsize) (k - 1) * node->n_hot;

      for (guint c = 0; c < node->n_hot; c++)
        if (seen[c] != 0)
          {
            guint32 global = node->global[c];

            sums_add (&query->sums[global], &row[c], sign);
            query->seen[global] += sign * (gint32) seen[c];
          }
    }

  query->hot_only = TRUE;
  query->sign = at < p ? sign : -sign;
  query_add_positions (query, view, MIN (at, p), MAX (at, p));
  query->hot_only = FALSE;
}

static guint
lower_bound_occurrence (const GArray *cold,
                        guint         position)
{
  guint lo = 0;
  guint hi = cold->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (cold, Occurrence, mid).position < position)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Adds @sign times the cold occurrences at positions [from, to). */
static void
query_add_cold (Query      *query,
                const View *view,
                guint       from,
                guint       to,
                int         sign)
{
  guint last = lower_bound_occurrence (view->cold, to);

  for (guint i = lower_bound_occurrence (view->cold, from); i < last; i++)
    {
      const Occurrence *occurrence = &g_array_index (view->cold, Occurrence, i);
      guint32 global = query->node->global[occurrence->column];

      sums_add (&query->sums[global], &occurrence->sums, sign);
      query->seen[global] += sign;
    }
}

/* How many of @values (ascending) are below @value, or at most @value. */
static guint
count_below (const double *values,
             guint         n,
             double        value,
             gboolean      inclusive)
{
  guint lo = 0;
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (values[mid] < value || (inclusive && values[mid] == value))
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Adds the node's intervals that overlap [start_us, end_us]. When the node's
 * intervals do not overlap one another, the selection is the run of
 * positions [*first, *last) in record order; otherwise *first is NONE and the
 * records must be filtered. */
static void
query_node (Query  *query,
            double  start_us,
            double  end_us,
            guint  *first,
            guint  *last)
{
  const Node *node = query->node;
  guint n = node->records->len;
  /* Starting at or before the end, and not ending before the start. */
  guint started = count_below (node->starts, n, end_us, TRUE);
  guint ended = count_below (node->ends, n, start_us, FALSE);

  *first = node->monotone ? MIN (ended, started) : NONE;
  *last = node->monotone ? started : NONE;

  if (started <= ended)
    return;

  if (!node->monotone)
    {
      query_add_hot_prefix (query, &node->by_start, started, 1);
      query_add_hot_prefix (query, &node->by_end, ended, -1);
      query_add_cold (query, &node->by_start, 0, started, 1);
      query_add_cold (query, &node->by_end, 0, ended, -1);
    }
  else if (started - ended <= node->stride)
    {
      /* Short ranges are summed directly, in record order: exact. */
      query->sign = 1;
      query_add_positions (query, &node->by_start, ended, started);
    }
  else
    {
      query_add_hot_prefix (query, &node->by_start, started, 1);
      query_add_hot_prefix (query, &node->by_start, ended, -1);
      query_add_cold (query, &node->by_start, ended, started, 1);
    }
}

static double
time_or_zero (double value)
{
  /* A prefix difference can leave a hair below zero where the true sum is 0. */
  return value > 0 ? value : 0;
}

static SmprofCprofileProfile *
emit_cprofile (SmprofRangeIndex *self,
               const Sums       *sums,
               const guint32    *seen)
{
  SmprofFuncTable *table = smprof_job_get_func_table (self->job);
  SmprofCprofileProfile *profile = smprof_cprofile_profile_new (table);
  const guint32 *edge_seen = seen + 1 + self->n_gfuncs;
  const Sums *edge_sums = sums + 1 + self->n_gfuncs;
  guint n_entries = 0;
  guint n_callers = 0;

  if (seen[TOTALS_COLUMN] == 0)
    return profile;

  _smprof_cprofile_profile_set_totals (profile, sums[TOTALS_COLUMN].nc, sums[TOTALS_COLUMN].cc,
                                       time_or_zero (sums[TOTALS_COLUMN].tt));

  /* Sized once: a range of a whole job has thousands of functions. */
  for (guint g = 0; g < self->n_gfuncs; g++)
    n_entries += seen[1 + g] != 0;
  for (guint e = 0; e < self->n_gedges; e++)
    n_callers += edge_seen[e] != 0;
  _smprof_cprofile_profile_reserve (profile, n_entries, n_callers, smprof_func_table_get_size (table));

  for (guint g = 0; g < self->n_gfuncs; g++)
    {
      const Sums *func = &sums[1 + g];
      guint first = self->gfunc_edges_first[g];
      guint last = self->gfunc_edges_first[g + 1];
      guint present = 0;
      guint entry;

      if (seen[1 + g] == 0)
        continue;

      for (guint i = first; i < last; i++)
        present += edge_seen[self->gfunc_edges[i]] != 0;

      entry = _smprof_cprofile_profile_append_entry (profile, self->gfunc_func[g], present, func->cc, func->nc,
                                                     time_or_zero (func->tt), time_or_zero (func->ct));

      for (guint i = first; i < last; i++)
        {
          guint e = self->gfunc_edges[i];
          const Sums *edge = &edge_sums[e];
          SmprofCallerStat caller = { self->gedge_caller[e], self->gedge_legacy[e], edge->nc, edge->cc,
                                      time_or_zero (edge->tt), time_or_zero (edge->ct) };

          if (edge_seen[e] != 0)
            _smprof_cprofile_profile_append_caller (profile, entry, &caller);
        }
    }

  return profile;
}

/* The records of every node's range, merged back into record order. Nodes
 * run in step, so the records between the first and the last selected, in
 * record order, are nearly all selected: one scan of them, by index, finds
 * the rest without touching a record that is not returned. */
static GPtrArray *
merge_records (SmprofRangeIndex *self,
               const gboolean   *wanted,
               const guint      *firsts,
               const guint      *lasts,
               double            start_us,
               double            end_us)
{
  GPtrArray *job_records = smprof_job_get_records (self->job, self->profiler);
  guint from = G_MAXUINT;
  guint to = 0;
  guint expected = 0;
  GPtrArray *records;

  for (guint n = 0; n < self->n_nodes; n++)
    {
      const Node *node = &self->nodes[n];
      guint first, last;

      if (!wanted[n])
        continue;

      first = firsts[n] == NONE ? 0 : firsts[n];
      last = lasts[n] == NONE ? node->records->len : lasts[n];
      if (first >= last)
        continue;

      from = MIN (from, ((const SmprofRecord *) g_ptr_array_index (node->records, first))->order);
      to = MAX (to, ((const SmprofRecord *) g_ptr_array_index (node->records, last - 1))->order + 1);
      expected += last - first;
    }

  records = g_ptr_array_sized_new (expected);

  for (guint order = from; order < to; order++)
    {
      guint32 n = self->record_node[order];
      guint32 position = self->record_position[order];
      SmprofRecord *record;

      if (n == NONE || !wanted[n])
        continue;

      if (firsts[n] != NONE)
        {
          if (position < firsts[n] || position >= lasts[n])
            continue;
        }
      else
        {
          /* Overlapping intervals: the selection is not one run; filter. */
          const SmprofRecord *candidate = g_ptr_array_index (job_records, order);

          if (candidate->name.start_time_us > end_us || candidate->name.end_time_us < start_us)
            continue;
        }

      record = g_ptr_array_index (job_records, order);
      g_ptr_array_add (records, record);
    }

  return records;
}

/* The sums of a range, with the records summed and the nodes they are from. */
static SmprofCprofileProfile *
aggregate (SmprofRangeIndex    *self,
           const char * const  *node_ids,
           double               start_us,
           double               end_us,
           GPtrArray          **out_records,
           char              ***out_node_ids)
{
  Scratch *scratch;
  SmprofCprofileProfile *cprofile;
  g_autofree gboolean *wanted = NULL;
  g_autofree guint *firsts = NULL;
  g_autofree guint *lasts = NULL;
  g_autoptr(GStrvBuilder) summed_ids = g_strv_builder_new ();

  scratch = take_scratch (self);
  wanted = g_new0 (gboolean, MAX (self->n_nodes, 1));
  firsts = g_new (guint, MAX (self->n_nodes, 1));
  lasts = g_new (guint, MAX (self->n_nodes, 1));
  memset (firsts, 0xff, MAX (self->n_nodes, 1) * sizeof (guint));
  memset (lasts, 0xff, MAX (self->n_nodes, 1) * sizeof (guint));

  for (guint n = 0; n < self->n_nodes; n++)
    {
      Query query = { &self->nodes[n], scratch->sums, scratch->seen, 1, FALSE };

      wanted[n] = node_ids == NULL || g_strv_contains (node_ids, self->nodes[n].node_id);
      if (!wanted[n])
        continue;

      g_strv_builder_add (summed_ids, self->nodes[n].node_id);
      query_node (&query, start_us, end_us, &firsts[n], &lasts[n]);
    }

  if (out_node_ids != NULL)
    *out_node_ids = g_strv_builder_end (summed_ids);
  if (out_records != NULL)
    *out_records = merge_records (self, wanted, firsts, lasts, start_us, end_us);
  cprofile = emit_cprofile (self, scratch->sums, scratch->seen);
  give_back_scratch (self, scratch);

  return cprofile;
}

SmprofProfile *
smprof_range_index_aggregate (SmprofRangeIndex   *self,
                              const char * const *node_ids,
                              double              start_us,
                              double              end_us)
{
  g_auto(GStrv) ids = NULL;
  GPtrArray *records = NULL;
  SmprofCprofileProfile *cprofile;

  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), NULL);

  cprofile = aggregate (self, node_ids, start_us, end_us, &records, &ids);

  return _smprof_profile_new_summed (self->job, self->profiler, (const char * const *) ids, records,
                                     cprofile, NULL);
}

SmprofCprofileProfile *
smprof_range_index_aggregate_cprofile (SmprofRangeIndex    *self,
                                       const char * const  *node_ids,
                                       double               start_us,
                                       double               end_us,
                                       GPtrArray          **records)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), NULL);

  return aggregate (self, node_ids, start_us, end_us, records, NULL);
}

typedef struct
{
  char   **node_ids;
  double   start_us;
  double   end_us;
} AggregateData;

static void
aggregate_data_free (gpointer data)
{
  AggregateData *aggregate = data;

  g_strfreev (aggregate->node_ids);
  g_free (aggregate);
}

static void
aggregate_in_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  AggregateData *data = task_data;
  SmprofProfile *profile;

  if (g_task_return_error_if_cancelled (task))
    return;

  profile = smprof_range_index_aggregate (source_object, (const char * const *) data->node_ids,
                                          data->start_us, data->end_us);
  g_task_return_pointer (task, profile, g_object_unref);
}

void
smprof_range_index_aggregate_async (SmprofRangeIndex    *self,
                                    const char * const  *node_ids,
                                    double               start_us,
                                    double               end_us,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  AggregateData *data;

  g_return_if_fail (SMPROF_IS_RANGE_INDEX (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (AggregateData, 1);
  data->node_ids = g_strdupv ((char **) node_ids);
  data->start_us = start_us;
  data->end_us = end_us;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_range_index_aggregate_async);
  g_task_set_task_data (task, data, aggregate_data_free);
  /* A newer drag selection supersedes this one: once cancelled, the callback
   * gets G_IO_ERROR_CANCELLED even if the profile was ready. */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, aggregate_in_thread);
}

SmprofProfile *
smprof_range_index_aggregate_finish (SmprofRangeIndex  *self,
                                     GAsyncResult      *result,
                                     GError           **error)
{
  g_return_val_if_fail (SMPROF_IS_RANGE_INDEX (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
