/* smprof-step-outliers.c: the steps that stand out, against the node's other
 * steps (outliers) and against the other nodes at the same step (stragglers),
 * and the rules' text
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smprof-step-stats-private.h"

int
_smprof_step_compare_doubles (const void *a,
                              const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/**
 * smprof_step_quantile:
 * @sorted: (array length=n): values in increasing order
 * @n: how many
 * @q: the quantile, from 0 to 1
 *
 * Returns: the value at rank @q × (@n − 1), interpolated linearly; 0 when @n is 0
 */
double
smprof_step_quantile (const double *sorted,
                      guint         n,
                      double        q)
{
  double position, fraction;
  guint below;

  if (n == 0)
    return 0;

  position = q * (n - 1);
  below = (guint) floor (position);
  if (below + 1 >= n)
    return sorted[n - 1];
  fraction = position - below;

  return sorted[below] + (sorted[below + 1] - sorted[below]) * fraction;
}

/* The rule's threshold as people write it: 5, 4.5. */
static char *
format_threshold (double threshold)
{
  return g_strdup_printf ("%g", threshold);
}

/**
 * smprof_step_outlier_rule_dup_description:
 * @rule: (nullable): the rule; %NULL for the default
 *
 * The outlier rule in two sentences, for the UI and reports.
 *
 * A step is an outlier when its robust z-score, (x − m) / s, is above the
 * threshold, where x is the logarithm of the step's total time, m the median
 * of x over the node's steps of the same mode, and s = 1.4826 × MAD, MAD the
 * median absolute deviation of every step's x from its own node and mode's m
 * (Iglewicz and Hoaglin's modified z-score, on logarithms, the scale pooled
 * over the nodes and the modes), computed a second time without the
 * deviations above 3.5 times the first s (one-step reweighting). 1.4826 × MAD estimates the standard deviation of normal
 * data while ignoring the outliers themselves, which the mean and the
 * standard deviation would not. When more than half of the deviations are 0
 * (MAD = 0), 1.2533 × the mean absolute deviation stands in for it. s is at
 * least 0.05 (SMPROF_STEP_MIN_SCALE): a step within 28 % of its median is
 * never an outlier at the default threshold. "0" is to a relative 10⁻⁶
 * (SMPROF_STEP_RESOLUTION). A node with fewer than 3 steps of a mode, a job
 * with fewer than 10 such steps, and a step of no time get no
 * score. Only slow steps are flagged: a fast step is
 * not a problem to look into.
 *
 * The default threshold, 5, is above Iglewicz and Hoaglin's 3.5: over
 * thousands of node-steps, 3.5 flags ordinary steps of most nodes even on
 * logarithms (the steps of a job are not normal), while the steps that
 * matter are several times slower than the median, far beyond 5.
 *
 * Returns: (transfer full): a translated text
 */
char *
smprof_step_outlier_rule_dup_description (const SmprofStepRule *rule)
{
  SmprofStepRule fallback;
  g_autofree char *threshold = NULL;
  g_autofree char *first = NULL;

  if (rule == NULL)
    {
      smprof_step_rule_init (&fallback);
      rule = &fallback;
    }
  threshold = format_threshold (rule->threshold);

  /* TRANSLATORS: %s is the threshold, a number such as 5 */
  first = g_strdup_printf (_("A step is an outlier when (ln t − m) / s > %s, where t is the step's time, "
                             "m the median of ln t over the node's steps of the same mode, and s = 1.4826 × "
                             "the median absolute deviation of ln t from its m over every node and mode "
                             "(1.2533 × the mean absolute deviation when that is 0), at least 0.05, "
                             "computed again without the deviations above 3.5 s."),
                           threshold);

  return g_strdup_printf ("%s %s", first,
                          rule->count_teardown
                          ? _("A step's time leaves out the intervals that start before step 0; an interval "
                              "that runs into post-hook-close counts as its step's.")
                          : _("A step's time leaves out the intervals that start before step 0 or run into "
                              "post-hook-close."));
}

/**
 * smprof_step_outlier_rule_description:
 *
 * smprof_step_outlier_rule_dup_description() of the default rule.
 *
 * Returns: (transfer none): a translated text
 */
const char *
smprof_step_outlier_rule_description (void)
{
  static gsize once;
  static char *text;

  if (g_once_init_enter (&once))
    {
      text = smprof_step_outlier_rule_dup_description (NULL);
      g_once_init_leave (&once, 1);
    }

  return text;
}

/**
 * smprof_step_straggler_rule_description:
 *
 * A node is a straggler at a step when the logarithm of its time there over
 * the other nodes' median time at that step scores above the threshold by
 * the same rule: against the node's median log ratio at that mode, over the
 * scale pooled over the nodes. Comparing each node to the others keeps the
 * steps that are slow everywhere out, and works from two nodes on; a partial
 * step, or a step of no time on either side, gets no score.
 *
 * Returns: (transfer none): a translated sentence
 */
const char *
smprof_step_straggler_rule_description (void)
{
  return _("A node is a straggler at a step when the logarithm of its time over the "
           "other nodes' median time at that step is an outlier, by the same rule, among "
           "its log ratios at all its steps of that mode.");
}

/**
 * smprof_step_robust_score:
 * @value: the value
 * @median: the median of its set
 * @scale: the set's robust scale
 *
 * Returns: (@value − @median) / @scale, or 0 when @scale is 0
 */
double
smprof_step_robust_score (double value,
                          double median,
                          double scale)
{
  return scale > 0 ? (value - median) / scale : 0;
}

/* Deviations below this count as none. A coarse profiler timer (TensorFlow's
 * cProfile ticks every 10 ms) leaves step times like 0.029999999 and
 * 0.030000001: jitter of 1e-9 is no deviation. Times are recorded to the
 * microsecond (timestamps, Pyinstrument's six decimals); on logarithms it is
 * a relative difference of 1e-6. */
#define SMPROF_STEP_RESOLUTION 1e-6

/* The least scale, on logarithms: with the default threshold a step must take
 * e^(5 × 0.05) = 1.28 times its node's median to be an outlier, and a node
 * 1.28 times the others' median to be a straggler, however alike the other
 * steps are. Steps that differ by less are not worth looking into, and a few
 * steps of a mode that happen to be very alike would otherwise make the
 * slightest difference score high. */
#define SMPROF_STEP_MIN_SCALE 0.05

/* A group of steps (a node's at a mode) needs this many scored values for a
 * median, and a mode this many values with a median, over all its nodes, for
 * a scale: the few eval steps of a short job say little about the spread (on
 * a real job whose timer ticks every 10 ms, 2 nodes × 4 eval steps of one
 * tick and one of two would make that one score 6). */
#define SMPROF_STEP_MIN_GROUP 3
#define SMPROF_STEP_MIN_POOL  10

/* Iglewicz and Hoaglin's mark of a possible outlier: the deviations that
 * score above it at first are left out of the scale's second estimate. */
#define SMPROF_STEP_REWEIGHT_CUT 3.5

/* Calls @func on each run of steps sharing a node and mode: [first, end). */
typedef void (*GroupFunc) (SmprofStepStats *self,
                           guint            first,
                           guint            end,
                           gpointer         user_data);

static void
for_each_group (SmprofStepStats *self,
                GroupFunc        func,
                gpointer         user_data)
{
  guint first = 0;

  /* a group ends at the last step or where the next step is of another
   * node or mode */
  for (guint i = 1; i <= self->steps->len; i++)
    {
      if (i < self->steps->len)
        {
          const SmprofStep *a = &g_array_index (self->steps, SmprofStep, first);
          const SmprofStep *b = &g_array_index (self->steps, SmprofStep, i);

          if (strcmp (a->node_id, b->node_id) == 0 && a->mode == b->mode)
            continue;
        }

      func (self, first, i, user_data);
      first = i;
    }
}

/* What a rule scores, per step: NAN where a step has no value. */
typedef double (*ValueFunc) (const SmprofStep *step);

typedef struct
{
  double *values;   /* per step */
  double *centers;  /* per step: its node and mode's median value; NAN for a group too small */
} Scoring;

/* A step of no time has no logarithm, and is not slow. A partial step is
 * scored by the time that is known: if that is slow, the step is. */
static double
log_time (const SmprofStep *step)
{
  return step->total_time > 0 ? log (step->total_time) : NAN;
}

static gboolean
has_ratio (const SmprofStep *step)
{
  return !step->partial && !isnan (step->others_median) && step->others_median > 0 && step->total_time > 0;
}

/* Ratios, not differences: a step slow on every node multiplies the usual
 * differences between nodes by its slowness, and would make the node that is
 * a little slower at every step a straggler at that one. */
static double
log_ratio (const SmprofStep *step)
{
  return has_ratio (step) ? log (step->total_time / step->others_median) : NAN;
}

static void
find_centers (SmprofStepStats *self,
              guint            first,
              guint            end,
              gpointer         user_data)
{
  Scoring *scoring = user_data;
  g_autofree double *values = g_new (double, MAX (end - first, 1));
  guint n = 0;
  double center;

  for (guint i = first; i < end; i++)
    if (!isnan (scoring->values[i]))
      values[n++] = scoring->values[i];
  qsort (values, n, sizeof (double), _smprof_step_compare_doubles);
  center = n >= SMPROF_STEP_MIN_GROUP ? smprof_step_quantile (values, n, 0.5) : NAN;

  for (guint i = first; i < end; i++)
    scoring->centers[i] = center;
}

/* The absolute deviations of the steps from their node and mode's median,
 * those whose first score is at most @cut over @scale (all when @scale is 0),
 * 0 below SMPROF_STEP_RESOLUTION. */
static GArray *
collect_deviations (SmprofStepStats *self,
                    const Scoring   *scoring,
                    double           scale,
                    double           cut)
{
  GArray *deviations = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < self->steps->len; i++)
    {
      double deviation;

      if (isnan (scoring->values[i]) || isnan (scoring->centers[i]))
        continue;
      deviation = fabs (scoring->values[i] - scoring->centers[i]);
      if (scale > 0 && deviation > cut * scale)
        continue;
      if (deviation < SMPROF_STEP_RESOLUTION)
        deviation = 0;
      g_array_append_val (deviations, deviation);
    }

  return deviations;
}

/* 1.4826 × the median of @deviations (MAD), or 1.2533 × their mean when that
 * is 0, and at least SMPROF_STEP_MIN_SCALE; 0 (no score) with fewer than
 * SMPROF_STEP_MIN_POOL of them. */
static double
scale_of (GArray *deviations)
{
  double mad, mean = 0;

  if (deviations->len < SMPROF_STEP_MIN_POOL)
    return 0;
  for (guint i = 0; i < deviations->len; i++)
    mean += g_array_index (deviations, double, i);
  mean /= deviations->len;
  g_array_sort (deviations, _smprof_step_compare_doubles);
  mad = smprof_step_quantile ((double *) (gpointer) deviations->data, deviations->len, 0.5);

  return MAX (mad > 0 ? 1.4826 * mad : 1.2533 * mean, SMPROF_STEP_MIN_SCALE);
}

/* The job's scale: pooled over its nodes, which run the same code, and its
 * modes, each deviation taken from its own node and mode's median. A mode of
 * few steps (a job's eval steps) alone gives a scale as unsteady as they are
 * few: on one generated job, 21 eval steps nearly alike made an ordinary one
 * 3.7 times their median score 5. Then computed again without the
 * deviations that scored above SMPROF_STEP_REWEIGHT_CUT (one-step
 * reweighting): the MAD ignores the anomalies' values but not their number,
 * and the slow steps of a short job, there on every node, widened the scale
 * enough to hide themselves (a step 13 times the median of steps that vary 5
 * times over scored 4.995). */
static double
pooled_scale (SmprofStepStats *self,
              const Scoring   *scoring)
{
  g_autoptr(GArray) all = collect_deviations (self, scoring, 0, 0);
  g_autoptr(GArray) kept = NULL;
  double first = scale_of (all);

  if (first == 0)
    return 0;
  kept = collect_deviations (self, scoring, first, SMPROF_STEP_REWEIGHT_CUT);

  return kept->len >= SMPROF_STEP_MIN_POOL ? scale_of (kept) : first;
}

/* Scores every step by @value against its node and mode's median, over the
 * mode's pooled scale. Returns the scores, per step. */
static double *
score_steps (SmprofStepStats *self,
             ValueFunc        value)
{
  guint n = self->steps->len;
  Scoring scoring = { g_new (double, MAX (n, 1)), g_new (double, MAX (n, 1)) };
  double scale;
  double *scores = g_new (double, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    scoring.values[i] = value (&g_array_index (self->steps, SmprofStep, i));
  for_each_group (self, find_centers, &scoring);
  scale = pooled_scale (self, &scoring);

  for (guint i = 0; i < n; i++)
    scores[i] = isnan (scoring.values[i]) || isnan (scoring.centers[i])
                ? 0 : smprof_step_robust_score (scoring.values[i], scoring.centers[i], scale);

  g_free (scoring.values);
  g_free (scoring.centers);

  return scores;
}

/* The median time and the median step (the one whose time is the lower
 * median) of a node and mode, for "this step against the median step". */
static void
find_median_step (SmprofStepStats *self,
                  guint            first,
                  guint            end,
                  gpointer         user_data)
{
  guint n = end - first;
  g_autofree double *values = g_new (double, MAX (n, 1));
  double median;
  guint median_step = first;

  for (guint i = 0; i < n; i++)
    values[i] = g_array_index (self->steps, SmprofStep, first + i).total_time;
  qsort (values, n, sizeof (double), _smprof_step_compare_doubles);
  median = smprof_step_quantile (values, n, 0.5);
  for (guint i = first; i < end; i++)
    if (g_array_index (self->steps, SmprofStep, i).total_time == values[(n - 1) / 2])
      {
        median_step = i;
        break;
      }

  for (guint i = first; i < end; i++)
    {
      SmprofStep *step = &g_array_index (self->steps, SmprofStep, i);

      step->median_time = median;
      step->median_step = median_step;
    }
}

/* Logarithms: step times are skewed to the right, as durations are, and a
 * step twice as slow is as far above the median as one twice as fast is below
 * it. On a linear scale, the long right tail of a node's ordinary steps
 * scores as high as a planted slow step does. */
static void
mark_outliers (SmprofStepStats *self)
{
  g_autofree double *scores = score_steps (self, log_time);

  for_each_group (self, find_median_step, NULL);
  for (guint i = 0; i < self->steps->len; i++)
    {
      SmprofStep *step = &g_array_index (self->steps, SmprofStep, i);

      step->score = scores[i];
      step->outlier = step->score > self->rule.threshold;
    }
}

/* The other nodes' median at each step. Steps are sorted by node first, so
 * the same (mode, step) of other nodes is found through a table. */
static void
find_others_medians (SmprofStepStats *self)
{
  g_autoptr(GHashTable) by_step = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_array_unref);
  g_autoptr(GArray) others = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < self->steps->len; i++)
    {
      SmprofStep *step = &g_array_index (self->steps, SmprofStep, i);
      char *key = g_strdup_printf ("%d/%" G_GINT64_FORMAT, step->mode, step->step);
      GArray *indices = g_hash_table_lookup (by_step, key);

      if (indices == NULL)
        {
          indices = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_step, key, indices);
        }
      else
        g_free (key);
      g_array_append_val (indices, i);
    }

  for (guint i = 0; i < self->steps->len; i++)
    {
      SmprofStep *step = &g_array_index (self->steps, SmprofStep, i);
      g_autofree char *key = g_strdup_printf ("%d/%" G_GINT64_FORMAT, step->mode, step->step);
      GArray *indices = g_hash_table_lookup (by_step, key);

      if (step->partial)
        continue;
      g_array_set_size (others, 0);
      for (guint j = 0; j < indices->len; j++)
        if (g_array_index (indices, guint, j) != i &&
            !g_array_index (self->steps, SmprofStep, g_array_index (indices, guint, j)).partial)
          g_array_append_val (others, g_array_index (self->steps, SmprofStep,
                                                     g_array_index (indices, guint, j)).total_time);
      if (others->len == 0)
        continue;
      qsort (others->data, others->len, sizeof (double), _smprof_step_compare_doubles);
      step->others_median = smprof_step_quantile ((double *) (gpointer) others->data, others->len, 0.5);
    }
}

static void
mark_stragglers (SmprofStepStats *self)
{
  g_autofree double *scores = score_steps (self, log_ratio);

  for (guint i = 0; i < self->steps->len; i++)
    {
      SmprofStep *step = &g_array_index (self->steps, SmprofStep, i);

      step->straggler_score = scores[i];
      step->straggler = has_ratio (step) && step->straggler_score > self->rule.threshold;
    }
}

/**
 * smprof_step_rank_score:
 * @step: a step
 *
 * Returns: how far the step stands out: the larger of its score against the
 *   node's other steps and its score against the other nodes
 */
double
smprof_step_rank_score (const SmprofStep *step)
{
  return MAX (step->score, step->straggler_score);
}

static int
compare_rank (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  GArray *steps = user_data;
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;
  double rx = smprof_step_rank_score (&g_array_index (steps, SmprofStep, x));
  double ry = smprof_step_rank_score (&g_array_index (steps, SmprofStep, y));

  if (rx != ry)
    return rx < ry ? 1 : -1;

  return (x > y) - (x < y);
}

/**
 * smprof_step_stats_dup_ranking:
 * @self: per-step statistics
 * @flagged_only: only the outliers and the stragglers
 *
 * The steps from the one that stands out most (smprof_step_rank_score()),
 * ties in step order (node, mode, step): the ranked list of a report or a
 * page.
 *
 * Returns: (transfer full) (element-type guint): step indices
 */
GArray *
smprof_step_stats_dup_ranking (SmprofStepStats *self,
                               gboolean         flagged_only)
{
  GArray *ranking = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < self->steps->len; i++)
    {
      const SmprofStep *step = &g_array_index (self->steps, SmprofStep, i);

      if (!flagged_only || step->outlier || step->straggler)
        g_array_append_val (ranking, i);
    }
  g_array_sort_with_data (ranking, compare_rank, self->steps);

  return ranking;
}

/**
 * smprof_step_stats_dup_with_threshold:
 * @self: per-step statistics
 * @threshold: the threshold of the new rule
 *
 * The same statistics flagged against another threshold: the scores do not
 * depend on it, so the steps are flagged again from their scores and nothing
 * is summed or scored again (a page's threshold follows its spin button at
 * once, even on a job of thousands of steps). The records, the functions and
 * their series are shared with @self, which never changes them.
 *
 * Returns: (transfer full): new statistics
 */
SmprofStepStats *
smprof_step_stats_dup_with_threshold (SmprofStepStats *self,
                                      double           threshold)
{
  SmprofStepStats *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (SmprofStepStats, 1);
  *copy = *self;
  g_atomic_ref_count_init (&copy->ref_count);
  copy->job = g_object_ref (self->job);
  copy->node_ids = g_strdupv (self->node_ids);
  copy->rule.threshold = threshold;
  copy->steps = g_array_copy (self->steps);
  copy->step_records = g_ptr_array_ref (self->step_records);
  copy->functions = g_array_ref (self->functions);
  copy->series = g_ptr_array_ref (self->series);

  for (guint i = 0; i < copy->steps->len; i++)
    {
      SmprofStep *step = &g_array_index (copy->steps, SmprofStep, i);

      step->outlier = step->score > threshold;
      step->straggler = has_ratio (step) && step->straggler_score > threshold;
    }

  return copy;
}

/* Marks the outliers, then the stragglers. */
void
_smprof_step_stats_mark (SmprofStepStats *self)
{
  mark_outliers (self);
  find_others_medians (self);
  mark_stragglers (self);
}
