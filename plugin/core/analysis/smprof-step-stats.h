/* smprof-step-stats.h: time per training step, its distribution, and the steps that stand out
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-job.h"
#include "smprof-query.h"

G_BEGIN_DECLS

/* The default threshold of the robust rules, see
 * smprof_step_outlier_rule_description(): on corpora with planted slow steps
 * and stragglers (tests/cli/test_outlier_rule.py) it flags every one of
 * them and none of the other steps. */
#define SMPROF_STEP_OUTLIER_THRESHOLD 5.0

/**
 * SmprofStepRule:
 * @threshold: a step whose score is above it is an outlier, a node whose
 *   straggler score is above it a straggler
 * @count_teardown: count an interval that starts at a step and runs into
 *   post-hook-close (the last interval when the hook was not closed, which
 *   holds the process's teardown) as its step's time; by default it is
 *   unassigned, as the pre-step-zero intervals are
 *
 * What makes a step stand out. smprof_step_rule_init() gives the default.
 */
typedef struct
{
  double   threshold;
  gboolean count_teardown;
} SmprofStepRule;

/**
 * SmprofStep:
 *
 * One step of one node: the intervals whose start label is (@mode, @step).
 * A PyTorch step gives two (stepstart → forwardpassend, forwardpassend → next
 * stepstart), a Keras step two as well (stepstart → stepend, stepend → next
 * stepstart). Intervals that start at no step (pre-step-zero, post-hook-close,
 * a `*` step) belong to no step; their time is the stats' unassigned time, as
 * is by default the time of an interval that runs into post-hook-close (see
 * #SmprofStepRule).
 */
typedef struct
{
  const char *node_id;        /* owned by the job */
  SmprofMode  mode;
  gint64      step;
  guint       n_intervals;    /* readable intervals summed */
  /* An interval of the step could not be read (smdebug's stand-in for a
   * Pyinstrument failure, a damaged file) or holds a Pyinstrument session
   * without a sample although it lasted 1 ms or more: its time is unknown,
   * not 0, so the step is left out of the comparison between nodes. Its
   * score takes the time that is known, a lower bound. An empty session of
   * a shorter interval (Keras's between-batch intervals) counts as 0 s. */
  gboolean    partial;
  double      start_us;       /* the earliest start of its intervals */
  /* The profile's total time, seconds: cProfile's total_tt (the sum of every
   * function's self time), Pyinstrument's root frame time, summed over the
   * step's intervals. */
  double      total_time;
  /* The sum of the intervals' durations from their folder names, seconds. */
  double      wall_time;

  /* Against the node's other steps of the same mode */
  double      score;          /* robust z-score of log (total_time); 0 without a
                               * scale or for a step of no time */
  gboolean    outlier;        /* score > the rule's threshold */
  guint       median_step;    /* index of the node and mode's median step */
  double      median_time;    /* the node and mode's median total_time */

  /* Against the other nodes at the same step */
  double      others_median;  /* the other nodes' median total_time; NAN when none has it */
  double      straggler_score; /* robust z-score of log (total_time / others_median) */
  gboolean    straggler;
} SmprofStep;

/**
 * SmprofStepFunction:
 *
 * One function's self time per step (cProfile tottime; Pyinstrument the sum
 * of its frames' self time), over every step of the stats, steps where it did
 * not run counting as 0. Quantiles interpolate linearly between the sorted
 * values, as numpy's default does.
 */
typedef struct
{
  guint32 func;     /* id in the job's SmprofFunctionKeys */
  guint   count;    /* steps in which it ran */
  double  total;
  double  min;
  double  median;
  double  p95;
  double  max;
} SmprofStepFunction;

typedef struct _SmprofStepStats SmprofStepStats;

SmprofStepStats          *smprof_step_stats_new              (SmprofJob             *job,
                                                              SmprofProfiler         profiler,
                                                              const char * const    *node_ids,
                                                              GPtrArray             *records);
void                      smprof_step_rule_init              (SmprofStepRule        *rule);
SmprofStepStats          *smprof_step_stats_new_with_rule    (SmprofJob             *job,
                                                              SmprofProfiler         profiler,
                                                              const char * const    *node_ids,
                                                              GPtrArray             *records,
                                                              const SmprofStepRule  *rule);
SmprofStepStats          *smprof_step_stats_compute_with_rule (SmprofJob            *job,
                                                              SmprofProfiler         profiler,
                                                              const char * const    *node_ids,
                                                              const SmprofSelection *selection,
                                                              const SmprofStepRule  *rule,
                                                              GCancellable          *cancellable,
                                                              GError               **error);
SmprofStepStats          *smprof_step_stats_compute          (SmprofJob             *job,
                                                              SmprofProfiler         profiler,
                                                              const char * const    *node_ids,
                                                              const SmprofSelection *selection,
                                                              GCancellable          *cancellable,
                                                              GError               **error);
void                      smprof_step_stats_free             (SmprofStepStats       *self);
SmprofStepStats          *smprof_step_stats_ref              (SmprofStepStats       *self);
void                      smprof_step_stats_unref            (SmprofStepStats       *self);

SmprofJob                *smprof_step_stats_get_job          (SmprofStepStats       *self);
SmprofProfiler            smprof_step_stats_get_profiler     (SmprofStepStats       *self);
const char * const       *smprof_step_stats_get_node_ids     (SmprofStepStats       *self);
guint                     smprof_step_stats_get_n_steps      (SmprofStepStats       *self);
const SmprofStep         *smprof_step_stats_get_step         (SmprofStepStats       *self,
                                                              guint                  index);
GPtrArray                *smprof_step_stats_get_step_records (SmprofStepStats       *self,
                                                              guint                  index);
double                    smprof_step_stats_get_unassigned_time (SmprofStepStats    *self);
guint                     smprof_step_stats_get_n_unassigned (SmprofStepStats       *self);
double                    smprof_step_stats_get_teardown_time (SmprofStepStats      *self,
                                                               guint                *n_intervals);
const SmprofStepRule     *smprof_step_stats_get_rule         (SmprofStepStats       *self);
double                    smprof_step_rank_score             (const SmprofStep      *step);
GArray                   *smprof_step_stats_dup_ranking      (SmprofStepStats       *self,
                                                              gboolean               flagged_only);
SmprofStepStats          *smprof_step_stats_dup_with_threshold (SmprofStepStats     *self,
                                                              double                 threshold);

guint                     smprof_step_stats_get_n_functions  (SmprofStepStats       *self);
const SmprofStepFunction *smprof_step_stats_get_function     (SmprofStepStats       *self,
                                                              guint                  index);
void                      smprof_step_stats_get_series       (SmprofStepStats       *self,
                                                              guint                  function,
                                                              double                *series);
double                    smprof_step_stats_get_node_function_time (SmprofStepStats *self,
                                                                    const char      *node_id,
                                                                    guint            function,
                                                                    guint           *n_steps);
double                   *smprof_step_stats_dup_node_function_times (SmprofStepStats *self,
                                                                     guint          **n_steps);
GArray                   *smprof_step_stats_top_functions    (SmprofStepStats       *self,
                                                              guint                  top_n);

double                    smprof_step_robust_score           (double                 value,
                                                              double                 median,
                                                              double                 scale);
double                    smprof_step_quantile               (const double          *sorted,
                                                              guint                  n,
                                                              double                 q);
const char               *smprof_step_outlier_rule_description (void);
const char               *smprof_step_straggler_rule_description (void);
char                     *smprof_step_outlier_rule_dup_description (const SmprofStepRule *rule);
char                     *smprof_step_straggler_rule_dup_description (const SmprofStepRule *rule);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofStepStats, smprof_step_stats_free)

G_END_DECLS
