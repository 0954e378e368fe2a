/* test-step-stats.c: per-step statistics through the core API
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The black-box checks against `smprof stats` are in tests/cli/test_steps.py;
 * these check what only the API shows: the step records, the median step's
 * identity, the series, the matrix columns, partial steps, the rule's
 * threshold, the ranking and cancellation. The rule on generated corpora
 * with planted outliers is tests/cli/test_outlier_rule.py.
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-step-stats.h"

static SmprofJob *
open_corpus (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);

  return core_test_load_job_at (path);
}

/* The corpus's manifest (make-corpus.py): what was generated and planted. */
static JsonObject *
read_manifest (const char  *name,
               JsonParser **parser)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, "corpus-manifest.json", NULL);
  g_autoptr(GError) error = NULL;

  *parser = json_parser_new ();
  json_parser_load_from_file (*parser, path, &error);
  g_assert_no_error (error);

  return json_node_get_object (json_parser_get_root (*parser));
}

/* Steps of every node: the manifest's profiled steps on each of its nodes. */
static guint
manifest_n_steps (JsonObject *manifest)
{
  return json_object_get_int_member (manifest, "steps") *
         json_array_get_length (json_object_get_array_member (manifest, "nodes"));
}

static SmprofStepStats *
compute_all (SmprofJob      *job,
             SmprofProfiler  profiler)
{
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_auto(GStrv) node_ids = smprof_job_dup_node_ids (job, profiler);
  g_autoptr(GError) error = NULL;
  SmprofStepStats *stats = smprof_step_stats_compute (job, profiler, (const char * const *) node_ids,
                                                      &all, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (stats);

  return stats;
}

static void
test_quantile (void)
{
  const double values[] = { 1, 2, 3, 4 };
  const double one[] = { 7 };

  /* numpy.quantile's default, linear interpolation */
  g_assert_cmpfloat_with_epsilon (smprof_step_quantile (values, 4, 0.5), 2.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (smprof_step_quantile (values, 4, 0.95), 3.85, 1e-12);
  g_assert_cmpfloat (smprof_step_quantile (values, 4, 0), ==, 1);
  g_assert_cmpfloat (smprof_step_quantile (values, 4, 1), ==, 4);
  g_assert_cmpfloat (smprof_step_quantile (one, 1, 0.95), ==, 7);
  g_assert_cmpfloat (smprof_step_quantile (NULL, 0, 0.5), ==, 0);

  g_assert_cmpfloat (smprof_step_robust_score (10, 1, 0), ==, 0);
  g_assert_cmpfloat_with_epsilon (smprof_step_robust_score (10, 1, 2), 4.5, 1e-12);
  g_assert_nonnull (strstr (smprof_step_outlier_rule_description (), "1.4826"));
}

/* Each step holds the records whose start label it is, and sums their totals. */
static void
test_steps_and_records (void)
{
  g_autoptr(SmprofJob) job = open_corpus ("corpus-outliers-cprofile");
  g_autoptr(SmprofStepStats) stats = compute_all (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *manifest = read_manifest ("corpus-outliers-cprofile", &parser);
  JsonObject *kinds = json_object_get_object_member (manifest, "interval_kinds");
  guint n_nodes = json_array_get_length (json_object_get_array_member (manifest, "nodes"));
  guint n = smprof_step_stats_get_n_steps (stats);

  g_assert_cmpuint (n, ==, manifest_n_steps (manifest));
  for (guint i = 0; i < n; i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);
      const SmprofStep *median = smprof_step_stats_get_step (stats, step->median_step);
      GPtrArray *records = smprof_step_stats_get_step_records (stats, i);
      double total = 0;

      g_assert_cmpuint (records->len, ==, step->n_intervals);
      g_assert_cmpuint (records->len, ==, 2);
      for (guint r = 0; r < records->len; r++)
        {
          const SmprofRecord *record = g_ptr_array_index (records, r);

          g_assert_cmpstr (record->node_id, ==, step->node_id);
          g_assert_cmpint (record->name.start_step, ==, step->step);
          g_assert_cmpint (record->name.start_mode, ==, step->mode);
          total += record->pstats->total_tt;
        }
      g_assert_cmpfloat_with_epsilon (total, step->total_time, 1e-12);
      g_assert_cmpstr (median->node_id, ==, step->node_id);
      g_assert_cmpint (median->mode, ==, step->mode);
      g_assert_false (step->partial);
      if (i > 0)
        {
          const SmprofStep *previous = smprof_step_stats_get_step (stats, i - 1);

          g_assert_true (g_strcmp0 (previous->node_id, step->node_id) < 0 ||
                         (g_strcmp0 (previous->node_id, step->node_id) == 0 && previous->step < step->step));
        }
    }

  /* the pre-step-zero and finalization intervals of every node */
  g_assert_cmpuint (smprof_step_stats_get_n_unassigned (stats), ==,
                    n_nodes * (json_object_get_int_member (kinds, "init") + json_object_get_int_member (kinds, "final")));
  g_assert_cmpfloat (smprof_step_stats_get_unassigned_time (stats), >, 0);
}

/* The planted steps, read from the manifest, are flagged. */
static void
test_planted (void)
{
  g_autoptr(SmprofJob) job = open_corpus ("corpus-outliers-cprofile");
  g_autoptr(SmprofStepStats) stats = compute_all (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(JsonParser) parser = NULL;
  JsonArray *planted = json_object_get_array_member (read_manifest ("corpus-outliers-cprofile", &parser),
                                                     "planted_outliers");
  guint found = 0;
  guint expected = 0;

  g_assert_cmpuint (json_array_get_length (planted), >=, 2);

  for (guint p = 0; p < json_array_get_length (planted); p++)
    {
      JsonObject *outlier = json_array_get_object_element (planted, p);
      JsonArray *nodes = json_object_get_array_member (outlier, "nodes");
      gboolean straggler = g_strcmp0 (json_object_get_string_member (outlier, "type"), "straggler") == 0;
      gint64 number = json_object_get_int_member (outlier, "step");

      expected += json_array_get_length (nodes);
      for (guint k = 0; k < json_array_get_length (nodes); k++)
        for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
          {
            const SmprofStep *step = smprof_step_stats_get_step (stats, i);

            if (step->step != number || g_strcmp0 (step->node_id, json_array_get_string_element (nodes, k)) != 0)
              continue;
            /* a slow step against the node's other steps; a straggler
             * against the other nodes (its own steps may vary as much) */
            if (straggler)
              {
                g_assert_true (step->straggler);
                g_assert_cmpfloat (step->straggler_score, >, SMPROF_STEP_OUTLIER_THRESHOLD);
              }
            else
              {
                g_assert_true (step->outlier);
                g_assert_cmpfloat (step->score, >, SMPROF_STEP_OUTLIER_THRESHOLD);
              }
            g_assert_cmpfloat (step->total_time, >, step->median_time);
            found++;
          }
    }
  /* each planted node and step once */
  g_assert_cmpuint (found, ==, expected);
}

/* Series add up to the totals, and the matrix columns hold each node's largest function. */
static void
test_functions (void)
{
  g_autoptr(SmprofJob) job = open_corpus ("corpus-outliers-pyinstrument");
  g_autoptr(SmprofStepStats) stats = compute_all (job, SMPROF_PROFILER_PYINSTRUMENT);
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *manifest = read_manifest ("corpus-outliers-pyinstrument", &parser);
  guint n_steps = smprof_step_stats_get_n_steps (stats);
  g_autofree double *series = g_new (double, n_steps);
  const char * const *node_ids = smprof_step_stats_get_node_ids (stats);
  g_autoptr(GArray) columns = smprof_step_stats_top_functions (stats, 3);
  double all_functions = 0, all_steps = 0;
  guint n_partial = 0;

  g_assert_cmpuint (n_steps, ==, manifest_n_steps (manifest));
  for (guint f = 0; f < smprof_step_stats_get_n_functions (stats); f++)
    {
      const SmprofStepFunction *function = smprof_step_stats_get_function (stats, f);
      double sum = 0;
      guint ran = 0;

      smprof_step_stats_get_series (stats, f, series);
      for (guint s = 0; s < n_steps; s++)
        {
          sum += series[s];
          ran += series[s] != 0;
          g_assert_cmpfloat (series[s], >=, function->min);
          g_assert_cmpfloat (series[s], <=, function->max);
        }
      g_assert_cmpfloat_with_epsilon (sum, function->total, 1e-9);
      g_assert_cmpuint (ran, <=, function->count);
      g_assert_cmpfloat (function->min, <=, function->median);
      g_assert_cmpfloat (function->median, <=, function->p95);
      g_assert_cmpfloat (function->p95, <=, function->max);
      if (f > 0)
        g_assert_cmpfloat (smprof_step_stats_get_function (stats, f - 1)->total, >=, function->total);
      all_functions += function->total;
    }

  /* Self times add up to the root frames' time (Pyinstrument rounds self time to 1e-6). */
  for (guint s = 0; s < n_steps; s++)
    {
      all_steps += smprof_step_stats_get_step (stats, s)->total_time;
      n_partial += smprof_step_stats_get_step (stats, s)->partial;
    }
  g_assert_cmpfloat (fabs (all_functions - all_steps), <, 1e-3);
  /* the corpus's empty sessions and its failure pairs, each in a step of its own at most */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (manifest, "pyinstrument_failure_pairs")), >=, 1);
  g_assert_cmpuint (n_partial, >=, 1);
  g_assert_cmpuint (n_partial, <=,
                    json_array_get_length (json_object_get_array_member (manifest, "pyinstrument_empty_sessions")) +
                    json_array_get_length (json_object_get_array_member (manifest, "pyinstrument_failure_pairs")));

  g_assert_cmpuint (columns->len, >=, 3);
  for (guint n = 0; node_ids[n] != NULL; n++)
    {
      guint best = 0;
      double best_time = -1;
      gboolean present = FALSE;

      for (guint f = 0; f < smprof_step_stats_get_n_functions (stats); f++)
        {
          double time = smprof_step_stats_get_node_function_time (stats, node_ids[n], f, NULL);

          if (time > best_time)
            {
              best_time = time;
              best = f;
            }
        }
      for (guint c = 0; c < columns->len; c++)
        present |= g_array_index (columns, guint, c) == best;
      g_assert_true (present);
    }
}

/* The rule's threshold: a lower one flags a superset, an unreachable one
 * nothing; the ranking goes from the largest score down, the flagged steps
 * first; the text names the threshold. */
static void
test_rule_and_ranking (void)
{
  g_autoptr(SmprofJob) job = open_corpus ("corpus-outliers-pyinstrument");
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_auto(GStrv) node_ids = smprof_job_dup_node_ids (job, SMPROF_PROFILER_PYINSTRUMENT);
  g_autoptr(SmprofStepStats) stats = compute_all (job, SMPROF_PROFILER_PYINSTRUMENT);
  g_autoptr(SmprofStepStats) low = NULL;
  g_autoptr(SmprofStepStats) none = NULL;
  g_autoptr(GArray) ranking = smprof_step_stats_dup_ranking (stats, FALSE);
  g_autoptr(GArray) flagged = smprof_step_stats_dup_ranking (stats, TRUE);
  g_autofree char *text = NULL;
  SmprofStepRule rule;
  guint n_flagged = 0, n_low = 0;

  smprof_step_rule_init (&rule);
  g_assert_cmpfloat (rule.threshold, ==, SMPROF_STEP_OUTLIER_THRESHOLD);
  g_assert_false (rule.count_teardown);
  g_assert_cmpfloat (smprof_step_stats_get_rule (stats)->threshold, ==, SMPROF_STEP_OUTLIER_THRESHOLD);

  rule.threshold = 2.5;
  low = smprof_step_stats_compute_with_rule (job, SMPROF_PROFILER_PYINSTRUMENT, (const char * const *) node_ids,
                                             &all, &rule, NULL, NULL);
  rule.threshold = 1e9;
  none = smprof_step_stats_compute_with_rule (job, SMPROF_PROFILER_PYINSTRUMENT, (const char * const *) node_ids,
                                              &all, &rule, NULL, NULL);
  g_assert_cmpuint (smprof_step_stats_get_n_steps (low), ==, smprof_step_stats_get_n_steps (stats));

  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);
      const SmprofStep *lower = smprof_step_stats_get_step (low, i);
      const SmprofStep *never = smprof_step_stats_get_step (none, i);

      /* the scores do not depend on the threshold */
      g_assert_cmpfloat (lower->score, ==, step->score);
      g_assert_cmpfloat (lower->straggler_score, ==, step->straggler_score);
      g_assert_true (!step->outlier || lower->outlier);
      g_assert_true (!step->straggler || lower->straggler);
      g_assert_false (never->outlier || never->straggler);
      n_flagged += step->outlier || step->straggler;
      n_low += lower->outlier || lower->straggler;
    }
  g_assert_cmpuint (n_flagged, >=, 3);
  g_assert_cmpuint (n_low, >, n_flagged);

  g_assert_cmpuint (ranking->len, ==, smprof_step_stats_get_n_steps (stats));
  g_assert_cmpuint (flagged->len, ==, n_flagged);
  for (guint r = 0; r < ranking->len; r++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, g_array_index (ranking, guint, r));

      g_assert_cmpfloat (smprof_step_rank_score (step), ==, MAX (step->score, step->straggler_score));
      if (r > 0)
        g_assert_cmpfloat (smprof_step_rank_score (smprof_step_stats_get_step (stats, g_array_index (ranking, guint, r - 1))),
                           >=, smprof_step_rank_score (step));
      /* the flagged steps are the ranking's head */
      if (r < flagged->len)
        g_assert_cmpuint (g_array_index (flagged, guint, r), ==, g_array_index (ranking, guint, r));
    }

  rule.threshold = 4.5;
  rule.count_teardown = TRUE;
  text = smprof_step_outlier_rule_dup_description (&rule);
  g_assert_nonnull (strstr (text, "> 4.5"));
  g_assert_nonnull (strstr (text, "counts as its step"));
  g_assert_nonnull (strstr (smprof_step_outlier_rule_description (), "> 5,"));
  g_assert_nonnull (strstr (smprof_step_outlier_rule_description (), "run into post-hook-close"));
}

/* Stats flagged again at another threshold are those computed at it: the
 * same steps, scores and flags, with the records shared; the stats they come
 * from keep their flags. Both corpora, each threshold the spin button offers
 * from 2 to 8, and back to the default. */
static void
test_dup_with_threshold (void)
{
  static const char * const corpora[] = { "corpus-outliers-cprofile", "corpus-outliers-pyinstrument" };
  static const SmprofProfiler profilers[] = { SMPROF_PROFILER_CPROFILE, SMPROF_PROFILER_PYINSTRUMENT };

  for (guint c = 0; c < G_N_ELEMENTS (corpora); c++)
    {
      g_autoptr(SmprofJob) job = open_corpus (corpora[c]);
      SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
      g_auto(GStrv) node_ids = smprof_job_dup_node_ids (job, profilers[c]);
      g_autoptr(SmprofStepStats) stats = compute_all (job, profilers[c]);
      guint n_default = 0, n_changed = 0;

      for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
        n_default += smprof_step_stats_get_step (stats, i)->outlier;

      for (double threshold = 2.0; threshold <= 8.0; threshold += 0.5)
        {
          g_autoptr(SmprofStepStats) flagged = smprof_step_stats_dup_with_threshold (stats, threshold);
          g_autoptr(SmprofStepStats) fresh = NULL;
          g_autoptr(SmprofStepStats) back = smprof_step_stats_dup_with_threshold (flagged, SMPROF_STEP_OUTLIER_THRESHOLD);
          SmprofStepRule rule;
          guint n_outliers = 0;

          smprof_step_rule_init (&rule);
          rule.threshold = threshold;
          fresh = smprof_step_stats_compute_with_rule (job, profilers[c], (const char * const *) node_ids, &all, &rule,
                                                       NULL, NULL);
          g_assert_cmpfloat (smprof_step_stats_get_rule (flagged)->threshold, ==, threshold);
          g_assert_true (smprof_step_stats_get_job (flagged) == job);
          g_assert_cmpuint (smprof_step_stats_get_n_steps (flagged), ==, smprof_step_stats_get_n_steps (fresh));
          g_assert_cmpuint (smprof_step_stats_get_n_functions (flagged), ==, smprof_step_stats_get_n_functions (stats));

          for (guint i = 0; i < smprof_step_stats_get_n_steps (fresh); i++)
            {
              const SmprofStep *got = smprof_step_stats_get_step (flagged, i);
              const SmprofStep *want = smprof_step_stats_get_step (fresh, i);
              const SmprofStep *original = smprof_step_stats_get_step (stats, i);

              g_assert_cmpstr (got->node_id, ==, want->node_id);
              g_assert_cmpint (got->step, ==, want->step);
              g_assert_cmpfloat (got->score, ==, want->score);
              g_assert_cmpfloat (got->straggler_score, ==, want->straggler_score);
              g_assert_cmpint (got->outlier, ==, want->outlier);
              g_assert_cmpint (got->straggler, ==, want->straggler);
              g_assert_true (smprof_step_stats_get_step_records (flagged, i) == smprof_step_stats_get_step_records (stats, i));
              /* the original's flags are its own threshold's */
              g_assert_cmpint (original->outlier, ==, original->score > SMPROF_STEP_OUTLIER_THRESHOLD);
              g_assert_cmpint (smprof_step_stats_get_step (back, i)->outlier, ==, original->outlier);
              g_assert_cmpint (smprof_step_stats_get_step (back, i)->straggler, ==, original->straggler);
              n_outliers += got->outlier;
            }
          n_changed += n_outliers != n_default;
        }
      /* the thresholds tried flag other numbers of steps than the default's */
      g_assert_cmpuint (n_changed, >, 0);
    }
}

static void
test_cancelled (void)
{
  g_autoptr(SmprofJob) job = open_corpus ("corpus-outliers-cprofile");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_auto(GStrv) node_ids = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GError) error = NULL;
  SmprofStepStats *stats;

  g_cancellable_cancel (cancellable);
  stats = smprof_step_stats_compute (job, SMPROF_PROFILER_CPROFILE, (const char * const *) node_ids,
                                     &all, cancellable, &error);
  g_assert_null (stats);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/step-stats/quantile", test_quantile);
  g_test_add_func ("/step-stats/steps-and-records", test_steps_and_records);
  g_test_add_func ("/step-stats/planted", test_planted);
  g_test_add_func ("/step-stats/functions", test_functions);
  g_test_add_func ("/step-stats/rule-and-ranking", test_rule_and_ranking);
  g_test_add_func ("/step-stats/dup-with-threshold", test_dup_with_threshold);
  g_test_add_func ("/step-stats/cancelled", test_cancelled);

  return g_test_run ();
}
