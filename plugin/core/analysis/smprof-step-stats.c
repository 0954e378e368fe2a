/* smprof-step-stats.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smprof-aggregate.h"
#include "smprof-step-stats-private.h"

static double
record_total_time (const SmprofRecord *record)
{
  if (record->pstats != NULL)
    return record->pstats->total_tt;
  if (record->session != NULL && record->session->n_frames > 0)
    return record->session->frames[0].time;

  return 0;
}

static gboolean
is_step_record (const SmprofRecord *record)
{
  SmprofMode mode = record->name.start_mode;

  return record->name.start_step >= 0 && record->name.start_step != SMPROF_STEP_INFINITY &&
         (mode == SMPROF_MODE_TRAIN || mode == SMPROF_MODE_EVAL ||
          mode == SMPROF_MODE_PREDICT || mode == SMPROF_MODE_GLOBAL);
}

/* Pyinstrument samples the stack every millisecond (its default interval,
 * smdebug's too): a session without a sample in an interval shorter than that
 * took less, and counts as 0 s, as Keras's between-batch intervals do. A
 * longer one lost its samples (real jobs have 10 ms intervals without any);
 * its time is unknown. */
#define SMPROF_STEP_EMPTY_SESSION_MAX 0.001

/* An interval that starts at a step and ends at post-hook-close: without
 * hook.close(), the last step's last interval runs on to the process's exit,
 * and holds the teardown (saving, the interpreter's exit) as well. */
static gboolean
is_teardown_record (const SmprofRecord *record)
{
  return record->name.end_mode == SMPROF_MODE_POST_HOOK_CLOSE;
}

static int
compare_steps (const void *a,
               const void *b)
{
  const SmprofStep *x = a;
  const SmprofStep *y = b;
  int by_node = strcmp (x->node_id, y->node_id);

  if (by_node != 0)
    return by_node;
  if (x->mode != y->mode)
    return (int) x->mode - (int) y->mode;

  return (x->step > y->step) - (x->step < y->step);
}

/* Groups the readable step records into steps, in (node, mode, step) order. */
static void
collect_steps (SmprofStepStats *self,
               GPtrArray       *records)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) order = NULL;
  g_autoptr(GPtrArray) unsorted_records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);
      g_autofree char *key = NULL;
      gpointer found;
      SmprofStep *step;
      guint index;

      if (!is_step_record (record) || (is_teardown_record (record) && !self->rule.count_teardown))
        {
          if (record->pstats == NULL && record->session == NULL)
            continue;

          self->unassigned_time += record_total_time (record);
          self->n_unassigned++;
          if (is_step_record (record))
            {
              self->teardown_time += record_total_time (record);
              self->n_teardown++;
            }
          continue;
        }

      key = g_strdup_printf ("%s/%d/%" G_GINT64_FORMAT, record->node_id, record->name.start_mode,
                             record->name.start_step);
      if (g_hash_table_lookup_extended (by_key, key, NULL, &found))
        index = GPOINTER_TO_UINT (found);
      else
        {
          SmprofStep empty = {
            .node_id = record->node_id,
            .mode = record->name.start_mode,
            .step = record->name.start_step,
            .start_us = record->name.start_time_us,
            .others_median = NAN,
          };

          index = self->steps->len;
          g_array_append_val (self->steps, empty);
          g_ptr_array_add (unsorted_records, g_ptr_array_new ());
          g_hash_table_insert (by_key, g_steal_pointer (&key), GUINT_TO_POINTER (index));
        }

      step = &g_array_index (self->steps, SmprofStep, index);
      if (record->pstats == NULL && record->session == NULL)
        {
          step->partial = TRUE;
          continue;
        }
      if (record->session != NULL && record->session->n_frames == 0 &&
          (record->name.end_time_us - record->name.start_time_us) / 1e6 >= SMPROF_STEP_EMPTY_SESSION_MAX)
        step->partial = TRUE;
      step->n_intervals++;
      step->start_us = MIN (step->start_us, record->name.start_time_us);
      step->total_time += record_total_time (record);
      step->wall_time += (record->name.end_time_us - record->name.start_time_us) / 1e6;
      g_ptr_array_add (g_ptr_array_index (unsorted_records, index), record);
    }

  /* Sort the steps, carrying their records along through a saved position. */
  order = g_array_sized_new (FALSE, FALSE, sizeof (SmprofStep), self->steps->len);
  for (guint i = 0; i < self->steps->len; i++)
    {
      SmprofStep step = g_array_index (self->steps, SmprofStep, i);

      step.median_step = i;
      g_array_append_val (order, step);
    }
  /* No step (e.g. only the initialization's intervals): an empty array's
   * data may be NULL, which qsort must not be given. */
  if (order->len > 1)
    qsort (order->data, order->len, sizeof (SmprofStep), compare_steps);

  for (guint i = 0; i < order->len; i++)
    {
      SmprofStep *step = &g_array_index (order, SmprofStep, i);

      g_ptr_array_add (self->step_records, g_ptr_array_ref (g_ptr_array_index (unsorted_records, step->median_step)));
      g_array_index (self->steps, SmprofStep, i) = *step;
    }
}

static void
series_free (gpointer data)
{
  g_array_unref (data);
}

/* Sums each function's self time per step, from the stats in memory. */
static void
collect_series (SmprofStepStats *self)
{
  guint n_funcs = smprof_function_keys_get_size (smprof_job_get_function_keys (self->job));
  g_autofree double *scratch = g_new0 (double, n_funcs);
  g_autofree guint *slot = g_new (guint, n_funcs);
  g_autoptr(GArray) touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree gboolean *seen = g_new0 (gboolean, n_funcs);

  for (guint i = 0; i < n_funcs; i++)
    slot[i] = G_MAXUINT;

  for (guint s = 0; s < self->steps->len; s++)
    {
      GPtrArray *records = g_ptr_array_index (self->step_records, s);

      for (guint r = 0; r < records->len; r++)
        {
          const SmprofRecord *record = g_ptr_array_index (records, r);
          guint n = record->pstats ? record->pstats->n_funcs : record->session->n_frames;

          for (guint k = 0; k < n; k++)
            {
              guint32 func = record->pstats ? record->pstats->funcs[k].func : record->session->frames[k].func;
              double time = record->pstats ? record->pstats->funcs[k].tt : record->session->frames[k].self_time;

              if (!seen[func])
                {
                  seen[func] = TRUE;
                  g_array_append_val (touched, func);
                }
              scratch[func] += time;
            }
        }

      for (guint t = 0; t < touched->len; t++)
        {
          guint32 func = g_array_index (touched, guint32, t);
          SeriesEntry entry = { s, scratch[func] };

          if (slot[func] == G_MAXUINT)
            {
              SmprofStepFunction function = { .func = func };

              slot[func] = self->functions->len;
              g_array_append_val (self->functions, function);
              g_ptr_array_add (self->series, g_array_new (FALSE, FALSE, sizeof (SeriesEntry)));
            }
          g_array_append_val (g_ptr_array_index (self->series, slot[func]), entry);
          scratch[func] = 0;
          seen[func] = FALSE;
        }
      g_array_set_size (touched, 0);
    }
}

/* The value of rank @i among @values (sorted) and @n_zeros implicit zeros,
 * which sit after the @n_negative negative values. */
static double
value_at (const double *values,
          guint         n_negative,
          guint         n_zeros,
          guint         i)
{
  if (i < n_negative)
    return values[i];
  if (i < n_negative + n_zeros)
    return 0;

  return values[i - n_zeros];
}

static double
sparse_quantile (const double *values,
                 guint         n_negative,
                 guint         n_zeros,
                 guint         n,
                 double        q)
{
  double position = q * (n - 1);
  guint below = (guint) floor (position);
  double low = value_at (values, n_negative, n_zeros, below);

  if (below + 1 >= n)
    return low;

  return low + (value_at (values, n_negative, n_zeros, below + 1) - low) * (position - below);
}

static void
describe_function (SmprofStepFunction *function,
                   GArray             *series,
                   guint               n_steps)
{
  g_autofree double *values = g_new (double, MAX (series->len, 1));
  guint n_negative = 0;
  guint n_zeros = n_steps - series->len;

  function->count = series->len;
  function->total = 0;
  for (guint i = 0; i < series->len; i++)
    {
      values[i] = g_array_index (series, SeriesEntry, i).time;
      function->total += values[i];
    }
  qsort (values, series->len, sizeof (double), _smprof_step_compare_doubles);
  while (n_negative < series->len && values[n_negative] < 0)
    n_negative++;

  function->min = value_at (values, n_negative, n_zeros, 0);
  function->max = value_at (values, n_negative, n_zeros, n_steps - 1);
  function->median = sparse_quantile (values, n_negative, n_zeros, n_steps, 0.5);
  function->p95 = sparse_quantile (values, n_negative, n_zeros, n_steps, 0.95);
}

typedef struct
{
  SmprofStepFunction function;
  GArray            *series;
} Sortable;

static int
compare_by_total (const void *a,
                  const void *b,
                  void       *table)
{
  const Sortable *x = a;
  const Sortable *y = b;

  if (x->function.total != y->function.total)
    return x->function.total < y->function.total ? 1 : -1;

  return smprof_function_keys_compare (table, x->function.func, y->function.func);
}

static void
describe_functions (SmprofStepStats *self)
{
  guint n = self->functions->len;
  g_autofree Sortable *sortable = g_new (Sortable, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      sortable[i].function = g_array_index (self->functions, SmprofStepFunction, i);
      sortable[i].series = g_ptr_array_index (self->series, i);
      describe_function (&sortable[i].function, sortable[i].series, self->steps->len);
    }
  g_qsort_with_data (sortable, n, sizeof (Sortable), compare_by_total,
                     smprof_job_get_function_keys (self->job));

  for (guint i = 0; i < n; i++)
    {
      g_array_index (self->functions, SmprofStepFunction, i) = sortable[i].function;
      self->series->pdata[i] = sortable[i].series;
    }
}

/**
 * smprof_step_rule_init:
 * @rule: (out caller-allocates): a rule to fill
 *
 * The default rule: threshold %SMPROF_STEP_OUTLIER_THRESHOLD, the intervals
 * that run into post-hook-close left out of their step.
 */
void
smprof_step_rule_init (SmprofStepRule *rule)
{
  rule->threshold = SMPROF_STEP_OUTLIER_THRESHOLD;
  rule->count_teardown = FALSE;
}

/**
 * smprof_step_stats_new:
 * @job: the job @records belong to
 * @profiler: their profiler
 * @node_ids: (array zero-terminated=1): the nodes selected
 * @records: (element-type SmprofRecord): selected records, in record order,
 *   after smprof_job_load_stats(); those that could not be read make their
 *   step partial
 *
 * smprof_step_stats_new_with_rule() with the default rule.
 *
 * Returns: (transfer full): the per-step statistics
 */
SmprofStepStats *
smprof_step_stats_new (SmprofJob          *job,
                       SmprofProfiler      profiler,
                       const char * const *node_ids,
                       GPtrArray          *records)
{
  return smprof_step_stats_new_with_rule (job, profiler, node_ids, records, NULL);
}

/**
 * smprof_step_stats_new_with_rule:
 * @job: the job @records belong to
 * @profiler: their profiler
 * @node_ids: (array zero-terminated=1): the nodes selected
 * @records: (element-type SmprofRecord): selected records, in record order,
 *   after smprof_job_load_stats(); those that could not be read make their
 *   step partial
 * @rule: (nullable): the threshold and what a step's time holds; %NULL for
 *   the default (smprof_step_rule_init())
 *
 * Sums @records per step from the stats already in memory (no file is read),
 * then marks the outliers and the stragglers. @records must stay alive as
 * long as the result: they belong to @job, which the result holds.
 *
 * Returns: (transfer full): the per-step statistics
 */
SmprofStepStats *
smprof_step_stats_new_with_rule (SmprofJob            *job,
                                 SmprofProfiler        profiler,
                                 const char * const   *node_ids,
                                 GPtrArray            *records,
                                 const SmprofStepRule *rule)
{
  SmprofStepStats *self = g_new0 (SmprofStepStats, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->job = g_object_ref (job);
  self->profiler = profiler;
  self->node_ids = g_strdupv ((char **) node_ids);
  if (rule != NULL)
    self->rule = *rule;
  else
    smprof_step_rule_init (&self->rule);
  self->steps = g_array_new (FALSE, FALSE, sizeof (SmprofStep));
  self->step_records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  self->functions = g_array_new (FALSE, FALSE, sizeof (SmprofStepFunction));
  self->series = g_ptr_array_new_with_free_func (series_free);

  collect_steps (self, records);
  _smprof_step_stats_mark (self);
  collect_series (self);
  describe_functions (self);

  return self;
}

/**
 * smprof_step_stats_compute:
 * @job: a loaded job
 * @profiler: the profiler whose records to use
 * @node_ids: (array zero-terminated=1): the nodes, as smprof_node_choice_resolve() gives them
 * @selection: the intervals to consider
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * smprof_step_stats_compute_with_rule() with the default rule.
 *
 * Returns: (transfer full) (nullable): the statistics, or %NULL if cancelled
 */
SmprofStepStats *
smprof_step_stats_compute (SmprofJob              *job,
                           SmprofProfiler          profiler,
                           const char * const     *node_ids,
                           const SmprofSelection  *selection,
                           GCancellable           *cancellable,
                           GError                **error)
{
  return smprof_step_stats_compute_with_rule (job, profiler, node_ids, selection, NULL, cancellable, error);
}

/**
 * smprof_step_stats_compute_with_rule:
 * @job: a loaded job
 * @profiler: the profiler whose records to use
 * @node_ids: (array zero-terminated=1): the nodes, as smprof_node_choice_resolve() gives them
 * @selection: the intervals to consider
 * @rule: (nullable): see smprof_step_stats_new_with_rule()
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Selects, reads the stats not read yet (once, in parallel) and calls
 * smprof_step_stats_new_with_rule(). Blocks: call it from a worker thread in a UI.
 *
 * Returns: (transfer full) (nullable): the statistics, or %NULL if cancelled
 */
SmprofStepStats *
smprof_step_stats_compute_with_rule (SmprofJob              *job,
                                     SmprofProfiler          profiler,
                                     const char * const     *node_ids,
                                     const SmprofSelection  *selection,
                                     const SmprofStepRule   *rule,
                                     GCancellable           *cancellable,
                                     GError                **error)
{
  g_autoptr(GPtrArray) selected = smprof_select (smprof_job_get_records (job, profiler), node_ids, selection);
  if (!smprof_job_load_stats (job, selected, cancellable, error))
    return NULL;

  return smprof_step_stats_new_with_rule (job, profiler, node_ids, selected, rule);
}

/**
 * smprof_step_stats_ref:
 * @self: per-step statistics
 *
 * The stats never change once computed, so several views can hold them.
 *
 * Returns: (transfer full): @self
 */
SmprofStepStats *
smprof_step_stats_ref (SmprofStepStats *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * smprof_step_stats_unref:
 * @self: (nullable): per-step statistics
 *
 * Drops a reference; the last one frees the stats.
 */
void
smprof_step_stats_unref (SmprofStepStats *self)
{
  smprof_step_stats_free (self);
}

/**
 * smprof_step_stats_free:
 * @self: (nullable): per-step statistics
 *
 * The same as smprof_step_stats_unref(): a caller that never took another
 * reference frees the stats, as before they were shared.
 */
void
smprof_step_stats_free (SmprofStepStats *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->functions, g_array_unref);
  g_clear_pointer (&self->step_records, g_ptr_array_unref);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_object (&self->job);
  g_free (self);
}

SmprofJob *
smprof_step_stats_get_job (SmprofStepStats *self)
{
  return self->job;
}

SmprofProfiler
smprof_step_stats_get_profiler (SmprofStepStats *self)
{
  return self->profiler;
}

const char * const *
smprof_step_stats_get_node_ids (SmprofStepStats *self)
{
  return (const char * const *) self->node_ids;
}

guint
smprof_step_stats_get_n_steps (SmprofStepStats *self)
{
  return self->steps->len;
}

const SmprofStep *
smprof_step_stats_get_step (SmprofStepStats *self,
                            guint            index)
{
  g_return_val_if_fail (index < self->steps->len, NULL);

  return &g_array_index (self->steps, SmprofStep, index);
}

/**
 * smprof_step_stats_get_step_records:
 * @self: per-step statistics
 * @index: a step
 *
 * The step's intervals, for an aggregate of that step alone: what "this step
 * versus the median step" compares (see #SmprofStep.median_step).
 *
 * Returns: (transfer none) (element-type SmprofRecord): the step's records, in record order
 */
GPtrArray *
smprof_step_stats_get_step_records (SmprofStepStats *self,
                                    guint            index)
{
  g_return_val_if_fail (index < self->step_records->len, NULL);

  return g_ptr_array_index (self->step_records, index);
}

/**
 * smprof_step_stats_get_unassigned_time:
 * @self: per-step statistics
 *
 * Returns: the total time of the selected intervals that start at no step
 *   (pre-step-zero, post-hook-close), and of those that run into
 *   post-hook-close unless the rule counts them (see
 *   smprof_step_stats_get_teardown_time()): with the steps' times, the
 *   selection's total
 */
double
smprof_step_stats_get_unassigned_time (SmprofStepStats *self)
{
  return self->unassigned_time;
}

guint
smprof_step_stats_get_n_unassigned (SmprofStepStats *self)
{
  return self->n_unassigned;
}

/**
 * smprof_step_stats_get_teardown_time:
 * @self: per-step statistics
 * @n_intervals: (out) (optional): how many intervals
 *
 * Returns: the part of the unassigned time in intervals that start at a step
 *   and run into post-hook-close, left out of their step by the rule (0 when
 *   the rule counts them)
 */
double
smprof_step_stats_get_teardown_time (SmprofStepStats *self,
                                     guint           *n_intervals)
{
  if (n_intervals != NULL)
    *n_intervals = self->n_teardown;

  return self->teardown_time;
}

/**
 * smprof_step_stats_get_rule:
 * @self: per-step statistics
 *
 * Returns: (transfer none): the rule the steps were marked by
 */
const SmprofStepRule *
smprof_step_stats_get_rule (SmprofStepStats *self)
{
  return &self->rule;
}

guint
smprof_step_stats_get_n_functions (SmprofStepStats *self)
{
  return self->functions->len;
}

const SmprofStepFunction *
smprof_step_stats_get_function (SmprofStepStats *self,
                                guint            index)
{
  g_return_val_if_fail (index < self->functions->len, NULL);

  return &g_array_index (self->functions, SmprofStepFunction, index);
}

/**
 * smprof_step_stats_get_series:
 * @self: per-step statistics
 * @function: a function index
 * @series: (array) (out caller-allocates): smprof_step_stats_get_n_steps() values
 *
 * The function's self time at each step, 0 where it did not run: a sparkline.
 */
void
smprof_step_stats_get_series (SmprofStepStats *self,
                              guint            function,
                              double          *series)
{
  GArray *entries;

  g_return_if_fail (function < self->series->len);

  entries = g_ptr_array_index (self->series, function);
  memset (series, 0, sizeof (double) * self->steps->len);
  for (guint i = 0; i < entries->len; i++)
    series[g_array_index (entries, SeriesEntry, i).step] = g_array_index (entries, SeriesEntry, i).time;
}

/* The index in self->node_ids of each step's node: one hash of the ids, then
 * a pointer or a string compare per step, so that per-node sums are one pass
 * over the steps instead of one per node. Steps of a node not asked for
 * get G_MAXUINT. */
static guint *
dup_step_nodes (SmprofStepStats *self)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  guint *step_nodes = g_new (guint, MAX (1, self->steps->len));
  const char *last_id = NULL;
  guint last_node = G_MAXUINT;

  for (guint n = 0; self->node_ids[n] != NULL; n++)
    g_hash_table_insert (index, self->node_ids[n], GUINT_TO_POINTER (n + 1));

  for (guint i = 0; i < self->steps->len; i++)
    {
      const char *id = g_array_index (self->steps, SmprofStep, i).node_id;

      /* steps are by node: the last one's node nearly always */
      if (id != last_id)
        {
          last_id = id;
          last_node = GPOINTER_TO_UINT (g_hash_table_lookup (index, id)) - 1;
        }
      step_nodes[i] = last_node;
    }

  return step_nodes;
}

/**
 * smprof_step_stats_dup_node_function_times:
 * @self: per-step statistics
 * @n_steps: (out) (optional) (array) (transfer full): each node's number of
 *   steps, in smprof_step_stats_get_node_ids() order
 *
 * Every function's self time summed over each node's steps, in one pass over
 * the statistics (the node × function matrix of a job of hundreds of nodes).
 * Divide by the node's step count for its time per step.
 *
 * Returns: (transfer full): n_nodes × n_functions seconds, row-major (a row
 *   per node, a column per function index)
 */
double *
smprof_step_stats_dup_node_function_times (SmprofStepStats  *self,
                                           guint           **n_steps)
{
  guint n_nodes = g_strv_length (self->node_ids);
  guint n_functions = self->series->len;
  g_autofree guint *step_nodes = dup_step_nodes (self);
  double *times = g_new0 (double, MAX (1, (gsize) n_nodes * n_functions));

  if (n_steps != NULL)
    {
      *n_steps = g_new0 (guint, MAX (1, n_nodes));
      for (guint i = 0; i < self->steps->len; i++)
        if (step_nodes[i] != G_MAXUINT)
          (*n_steps)[step_nodes[i]]++;
    }

  for (guint f = 0; f < n_functions; f++)
    {
      GArray *entries = g_ptr_array_index (self->series, f);

      for (guint i = 0; i < entries->len; i++)
        {
          const SeriesEntry *entry = &g_array_index (entries, SeriesEntry, i);
          guint node = step_nodes[entry->step];

          if (node != G_MAXUINT)
            times[(gsize) node * n_functions + f] += entry->time;
        }
    }

  return times;
}

/**
 * smprof_step_stats_get_node_function_time:
 * @self: per-step statistics
 * @node_id: a node
 * @function: a function index; one past the last gives 0 and the step count
 * @n_steps: (out) (optional): the node's number of steps
 *
 * Divide by @n_steps for the node × function matrix's time per step. For
 * every node and function at once, smprof_step_stats_dup_node_function_times().
 *
 * Returns: the function's self time summed over the node's steps
 */
double
smprof_step_stats_get_node_function_time (SmprofStepStats *self,
                                          const char      *node_id,
                                          guint            function,
                                          guint           *n_steps)
{
  GArray *entries;
  double total = 0;

  if (n_steps != NULL)
    {
      *n_steps = 0;
      for (guint i = 0; i < self->steps->len; i++)
        if (strcmp (g_array_index (self->steps, SmprofStep, i).node_id, node_id) == 0)
          (*n_steps)++;
    }

  /* Any index past the last function counts the steps alone. */
  if (function >= self->series->len)
    return 0;

  entries = g_ptr_array_index (self->series, function);
  for (guint i = 0; i < entries->len; i++)
    {
      const SeriesEntry *entry = &g_array_index (entries, SeriesEntry, i);

      if (strcmp (g_array_index (self->steps, SmprofStep, entry->step).node_id, node_id) == 0)
        total += entry->time;
    }

  return total;
}

/**
 * smprof_step_stats_top_functions:
 * @self: per-step statistics
 * @top_n: how many functions per node
 *
 * The columns of the node × function matrix: each node's @top_n functions by
 * self time, merged, so a function that only a straggler spends time in is
 * there. One pass over the statistics, then a partial sort per node.
 *
 * Returns: (transfer full) (element-type guint): function indices, increasing
 *   (largest total first)
 */
GArray *
smprof_step_stats_top_functions (SmprofStepStats *self,
                                 guint            top_n)
{
  guint n = self->functions->len;
  guint n_nodes = g_strv_length (self->node_ids);
  g_autofree double *times = smprof_step_stats_dup_node_function_times (self, NULL);
  g_autofree gboolean *chosen = g_new0 (gboolean, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  GArray *columns = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint node = 0; node < n_nodes; node++)
    {
      const double *totals = times + (gsize) node * n;

      for (guint f = 0; f < n; f++)
        order[f] = f;

      /* A partial selection sort: top_n is small. */
      for (guint k = 0; k < MIN (top_n, n); k++)
        {
          guint best = k;
          guint swap;

          for (guint f = k + 1; f < n; f++)
            if (totals[order[f]] > totals[order[best]])
              best = f;
          if (totals[order[best]] <= 0)
            break;
          chosen[order[best]] = TRUE;
          swap = order[best];
          order[best] = order[k];
          order[k] = swap;
        }
    }

  for (guint f = 0; f < n; f++)
    if (chosen[f])
      g_array_append_val (columns, f);

  return columns;
}
