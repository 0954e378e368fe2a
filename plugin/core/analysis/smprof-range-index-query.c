/* smprof-range-index-query.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Querying a range index: the sums of a time range from the checkpoints and
 * the cold occurrences, turned into a profile with the records it covers.
 * Apart from building, as a query only reads the index (from any thread). */

#include "config.h"

#include <string.h>

#include "smprof-cprofile-profile-private.h"
#include "smprof-parallel.h"
#include "smprof-profile-private.h"
#include "smprof-range-index-private.h"

/* A query sums its nodes in this many parts at most, each into sums of its
 * own, on as many cores as there are, and adds the parts up in order: a
 * range of many nodes costs a fraction of its time, and as the parts depend
 * on the nodes alone, its floats are the same on every machine. A part has
 * at least SmprofRangeIndex.nodes_per_part nodes: fewer take a few
 * milliseconds, less than threads and separate sums would win back. */
#define QUERY_PARTS 4

/* Each part's sums over every global column. They are large (a job's
 * functions and edges) and a drag issues queries back to back, so one set is
 * kept for the next query rather than handed back to the system each time. */
typedef struct
{
  Sums    *sums[QUERY_PARTS];
  guint32 *seen[QUERY_PARTS];
} Scratch;

void
_smprof_range_index_scratch_free (gpointer data)
{
  Scratch *scratch = data;

  for (guint i = 0; i < QUERY_PARTS; i++)
    {
      g_free (scratch->sums[i]);
      g_free (scratch->seen[i]);
    }
  g_free (scratch);
}

/* The arrays are cleared by the part that uses them, on its own thread. */
static Scratch *
take_scratch (SmprofRangeIndex *self,
              guint             n_parts)
{
  Scratch *scratch = g_atomic_pointer_exchange (&self->scratch, NULL);

  if (scratch == NULL)
    scratch = g_new0 (Scratch, 1);

  for (guint i = 0; i < n_parts; i++)
    if (scratch->sums[i] == NULL)
      {
        scratch->sums[i] = g_new (Sums, MAX (self->n_global, 1));
        scratch->seen[i] = g_new (guint32, MAX (self->n_global, 1));
      }

  return scratch;
}

static void
give_back_scratch (SmprofRangeIndex *self,
                   Scratch          *scratch)
{
  if (!g_atomic_pointer_compare_and_exchange (&self->scratch, NULL, scratch))
    _smprof_range_index_scratch_free (scratch);
}

typedef struct
{
  const Node *node;
  Sums       *sums;      /* global columns */
  guint32    *seen;
  int         sign;
  gboolean    hot_only;
} Query;

static inline void
query_add (Query   *query,
           guint32  global,
           gint64   nc,
           gint64   cc,
           double   tt,
           double   ct)
{
  Sums *to = &query->sums[global];

  to->nc += query->sign * nc;
  to->cc += query->sign * cc;
  to->tt += query->sign * tt;
  to->ct += query->sign * ct;
  query->seen[global] += query->sign;
}

/* Adds (or removes) the intervals at positions [from, to) of @view: what
 * most of a query's time goes to, so each function and edge goes straight
 * from the interval's stats to its global column, in record order as
 * _smprof_range_index_foreach_column() visits them. */
static void
query_add_positions (Query      *query,
                     const View *view,
                     guint       from,
                     guint       to)
{
  const Node *node = query->node;
  /* A cold function's edges are cold too: they are in no more intervals. */
  guint32 skip = query->hot_only ? GLOBAL_COLD : 0;

  for (guint p = from; p < to; p++)
    {
      const SmprofRecord *record = g_ptr_array_index (node->records, view->order ? view->order[p] : p);
      const SmprofPstats *stats = record->pstats;

      query_add (query, TOTALS_COLUMN, stats->total_calls, stats->prim_calls, stats->total_tt, 0);

      for (guint i = 0; i < stats->n_funcs; i++)
        {
          const SmprofFuncStat *stat = &stats->funcs[i];
          guint32 callee = node->func_index[stat->func];
          guint32 global = node->func_global[callee];

          if ((global & skip) != 0)
            continue;

          query_add (query, global & ~GLOBAL_COLD, stat->nc, stat->cc, stat->tt, stat->ct);

          for (guint c = 0; c < stat->n_callers; c++)
            {
              const SmprofCallerStat *caller = &stats->callers[stat->first_caller + c];

              global = node->edge_global[_smprof_range_index_find_edge (node, callee, caller->caller)];
              if ((global & skip) == 0)
                query_add (query, global & ~GLOBAL_COLD, caller->nc, caller->cc, caller->tt, caller->ct);
            }
        }
    }
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

            _smprof_range_index_sums_add (&query->sums[global], &row[c], sign);
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

      _smprof_range_index_sums_add (&query->sums[global], &occurrence->sums, sign);
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
  SmprofFunctionKeys *table = smprof_job_get_function_keys (self->job);
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
  _smprof_cprofile_profile_reserve (profile, n_entries, n_callers, smprof_function_keys_get_size (table));

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

typedef struct
{
  SmprofRangeIndex *self;
  Scratch          *scratch;
  const guint      *nodes;     /* the nodes to sum, ascending */
  guint             n_nodes;
  guint             n_parts;
  double            start_us;
  double            end_us;
  guint            *firsts;    /* by node, as query_node() gives them */
  guint            *lasts;
} Parts;

/* Sums a run of the nodes into sums of the part's own. */
static void
sum_part (guint    part,
          gpointer data)
{
  Parts *parts = data;
  SmprofRangeIndex *self = parts->self;
  Sums *sums = parts->scratch->sums[part];
  guint32 *seen = parts->scratch->seen[part];
  guint from = parts->n_nodes * part / parts->n_parts;
  guint to = parts->n_nodes * (part + 1) / parts->n_parts;

  memset (sums, 0, self->n_global * sizeof (Sums));
  memset (seen, 0, self->n_global * sizeof (guint32));

  for (guint i = from; i < to; i++)
    {
      guint n = parts->nodes[i];
      Query query = { &self->nodes[n], sums, seen, 1, FALSE };

      query_node (&query, parts->start_us, parts->end_us, &parts->firsts[n], &parts->lasts[n]);
    }
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
  SmprofCprofileProfile *cprofile;
  g_autofree gboolean *wanted = NULL;
  g_autofree guint *nodes = NULL;
  g_autofree guint *firsts = NULL;
  g_autofree guint *lasts = NULL;
  g_autoptr(GStrvBuilder) summed_ids = g_strv_builder_new ();
  Parts parts = { self, NULL, NULL, 0, 1, start_us, end_us, NULL, NULL };

  wanted = g_new0 (gboolean, MAX (self->n_nodes, 1));
  nodes = g_new (guint, MAX (self->n_nodes, 1));
  firsts = g_new (guint, MAX (self->n_nodes, 1));
  lasts = g_new (guint, MAX (self->n_nodes, 1));
  memset (firsts, 0xff, MAX (self->n_nodes, 1) * sizeof (guint));
  memset (lasts, 0xff, MAX (self->n_nodes, 1) * sizeof (guint));

  for (guint n = 0; n < self->n_nodes; n++)
    {
      wanted[n] = node_ids == NULL || g_strv_contains (node_ids, self->nodes[n].node_id);
      if (!wanted[n])
        continue;

      g_strv_builder_add (summed_ids, self->nodes[n].node_id);
      nodes[parts.n_nodes++] = n;
    }

  parts.n_parts = CLAMP (parts.n_nodes / self->nodes_per_part, 1, QUERY_PARTS);
  parts.scratch = take_scratch (self, parts.n_parts);
  parts.nodes = nodes;
  parts.firsts = firsts;
  parts.lasts = lasts;
  smprof_parallel_for ("smprof-range-query", parts.n_parts, MIN (g_get_num_processors (), parts.n_parts),
                       sum_part, &parts, NULL);

  /* In order: the same floats however the parts were scheduled. */
  for (guint part = 1; part < parts.n_parts; part++)
    {
      const Sums *sums = parts.scratch->sums[part];
      const guint32 *seen = parts.scratch->seen[part];

      for (guint g = 0; g < self->n_global; g++)
        {
          _smprof_range_index_sums_add (&parts.scratch->sums[0][g], &sums[g], 1);
          parts.scratch->seen[0][g] += seen[g];
        }
    }

  if (out_node_ids != NULL)
    *out_node_ids = g_strv_builder_end (summed_ids);
  if (out_records != NULL)
    *out_records = merge_records (self, wanted, firsts, lasts, start_us, end_us);
  cprofile = emit_cprofile (self, parts.scratch->sums[0], parts.scratch->seen[0]);
  give_back_scratch (self, parts.scratch);

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
