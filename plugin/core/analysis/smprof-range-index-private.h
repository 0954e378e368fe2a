/* smprof-range-index-private.h: what smprof-range-index*.c (and the tests)
 * share: the index's structures, and the index with its trade-offs set by hand
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-range-index.h"

G_BEGIN_DECLS

#define NONE G_MAXUINT32

/* Global column 0 sums the intervals' own totals; functions follow, then
 * caller edges. Local (per node) column 0 is the totals too. */
#define TOTALS_COLUMN 0

/* Set in Node.func_global and Node.edge_global on the columns that are cold
 * in that node. */
#define GLOBAL_COLD 0x80000000u

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
  /* What a query reads: the global column of each node function and edge,
   * straight, with GLOBAL_COLD set on the cold ones. */
  guint32    *func_global; /* node function index -> global column */
  guint32    *edge_global; /* edge -> global column */

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
  guint            nodes_per_part;    /* a query sums at least this many nodes per thread */
};

static inline void
_smprof_range_index_sums_add (Sums       *to,
                              const Sums *from,
                              int         sign)
{
  to->nc += sign * from->nc;
  to->cc += sign * from->cc;
  to->tt += sign * from->tt;
  to->ct += sign * from->ct;
}

static inline guint
_smprof_range_index_find_edge (const Node *node,
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
_smprof_range_index_foreach_column (const Node         *node,
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

          func (data, node->edge_column[_smprof_range_index_find_edge (node, callee, caller->caller)], &edge);
        }
    }
}

/* smprof-range-index-build.c */
SmprofRangeIndex *_smprof_range_index_new_tuned (SmprofJob           *job,
                                                 SmprofProfiler       profiler,
                                                 const char * const  *node_ids,
                                                 guint                stride,
                                                 guint                cold_max,
                                                 GCancellable        *cancellable,
                                                 GError             **error);

/* smprof-range-index-query.c */
void              _smprof_range_index_scratch_free (gpointer data);

G_END_DECLS
