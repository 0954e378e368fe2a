/* smprof-cli-steps.c: per-step totals, function distributions, outlier steps and stragglers
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "smprof-cli-output.h"
#include "smprof-cli-steps.h"
#include "smprof-json-writer.h"

/* Functions in the text table when --limit is not given; columns per node in the matrix. */
#define DEFAULT_FUNCTIONS 20
#define MATRIX_TOP_N      5

static guint
function_limit (SmprofStepStats        *stats,
                const SmprofCliOptions *options)
{
  guint n = smprof_step_stats_get_n_functions (stats);

  return MIN (n, options->limit >= 0 ? (guint) options->limit : DEFAULT_FUNCTIONS);
}

static void
write_step_identity (SmprofJsonWriter *writer,
                     const SmprofStep *step)
{
  smprof_json_writer_member (writer, "node_id");
  smprof_json_writer_string (writer, step->node_id);
  smprof_json_writer_member (writer, "mode");
  smprof_json_writer_string (writer, smprof_mode_to_string (step->mode));
  smprof_json_writer_member (writer, "step");
  smprof_json_writer_int (writer, step->step);
}

static void
write_median_step (SmprofJsonWriter *writer,
                   SmprofStepStats  *stats,
                   const SmprofStep *step)
{
  smprof_json_writer_member (writer, "median_step");
  smprof_json_writer_begin_object (writer);
  write_step_identity (writer, smprof_step_stats_get_step (stats, step->median_step));
  smprof_json_writer_end_object (writer);
  smprof_json_writer_member (writer, "median_time");
  smprof_json_writer_double (writer, step->median_time);
}

static void
write_step (SmprofJsonWriter *writer,
            SmprofStepStats  *stats,
            const SmprofStep *step)
{
  smprof_json_writer_begin_object (writer);
  write_step_identity (writer, step);
  smprof_json_writer_member (writer, "intervals");
  smprof_json_writer_int (writer, step->n_intervals);
  smprof_json_writer_member (writer, "partial");
  smprof_json_writer_boolean (writer, step->partial);
  smprof_json_writer_member (writer, "start_time_since_epoch_in_micros");
  smprof_json_writer_double (writer, step->start_us);
  smprof_json_writer_member (writer, "total_time");
  smprof_json_writer_double (writer, step->total_time);
  smprof_json_writer_member (writer, "wall_time");
  smprof_json_writer_double (writer, step->wall_time);
  smprof_json_writer_member (writer, "score");
  smprof_json_writer_double (writer, step->score);
  smprof_json_writer_member (writer, "outlier");
  smprof_json_writer_boolean (writer, step->outlier);
  write_median_step (writer, stats, step);
  smprof_json_writer_member (writer, "others_median");
  if (isnan (step->others_median))
    smprof_json_writer_null (writer);
  else
    smprof_json_writer_double (writer, step->others_median);
  smprof_json_writer_member (writer, "straggler_score");
  smprof_json_writer_double (writer, step->straggler_score);
  smprof_json_writer_member (writer, "straggler");
  smprof_json_writer_boolean (writer, step->straggler);
  smprof_json_writer_end_object (writer);
}

static void
write_rules (SmprofJsonWriter *writer,
             SmprofStepStats  *stats)
{
  const SmprofStepRule *rule = smprof_step_stats_get_rule (stats);
  g_autofree char *text = smprof_step_outlier_rule_dup_description (rule);
  guint n_teardown;
  double teardown = smprof_step_stats_get_teardown_time (stats, &n_teardown);

  smprof_json_writer_member (writer, "rule");
  smprof_json_writer_string (writer, text);
  smprof_json_writer_member (writer, "straggler_rule");
  smprof_json_writer_string (writer, smprof_step_straggler_rule_description ());
  smprof_json_writer_member (writer, "threshold");
  smprof_json_writer_double (writer, rule->threshold);
  smprof_json_writer_member (writer, "count_teardown");
  smprof_json_writer_boolean (writer, rule->count_teardown);
  smprof_json_writer_member (writer, "teardown_time");
  smprof_json_writer_double (writer, teardown);
  smprof_json_writer_member (writer, "teardown_intervals");
  smprof_json_writer_int (writer, n_teardown);
}

/* The rules, and the teardown left out when there was some. */
static void
print_rules (FILE            *stream,
             SmprofStepStats *stats)
{
  g_autofree char *text = smprof_step_outlier_rule_dup_description (smprof_step_stats_get_rule (stats));
  guint n_teardown;
  double teardown = smprof_step_stats_get_teardown_time (stats, &n_teardown);

  fprintf (stream, "%s\n%s\n", text, smprof_step_straggler_rule_description ());
  if (n_teardown > 0)
    smprof_cli_fputs_free (stream, g_strdup_printf (ngettext ("Left out: %.6f s in %u interval that runs into "
                                                              "post-hook-close (--count-teardown counts it).\n",
                                                              "Left out: %.6f s in %u intervals that run into "
                                                              "post-hook-close (--count-teardown counts them).\n",
                                                              n_teardown),
                                                    teardown, n_teardown));
}

static void
write_function_key (SmprofJsonWriter   *writer,
                    SmprofFunctionKeys *table,
                    guint32             func)
{
  smprof_json_writer_member (writer, "function");
  smprof_json_writer_string (writer, smprof_function_keys_get_name (table, func));
  smprof_json_writer_member (writer, "file");
  smprof_json_writer_string (writer, smprof_function_keys_get_file (table, func));
  smprof_json_writer_member (writer, "line");
  smprof_json_writer_int (writer, smprof_function_keys_get_line (table, func));
}

static void
write_functions (SmprofJsonWriter       *writer,
                 SmprofStepStats        *stats,
                 const SmprofCliOptions *options)
{
  SmprofFunctionKeys *table = smprof_job_get_function_keys (smprof_step_stats_get_job (stats));
  guint               n_steps = smprof_step_stats_get_n_steps (stats);
  g_autofree double *series = g_new (double, MAX (n_steps, 1));
  guint n = function_limit (stats, options);

  smprof_json_writer_member (writer, "functions");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < n; i++)
    {
      const SmprofStepFunction *function = smprof_step_stats_get_function (stats, i);

      smprof_json_writer_begin_object (writer);
      write_function_key (writer, table, function->func);
      smprof_json_writer_member (writer, "count");
      smprof_json_writer_int (writer, function->count);
      smprof_json_writer_member (writer, "total");
      smprof_json_writer_double (writer, function->total);
      smprof_json_writer_member (writer, "min");
      smprof_json_writer_double (writer, function->min);
      smprof_json_writer_member (writer, "median");
      smprof_json_writer_double (writer, function->median);
      smprof_json_writer_member (writer, "p95");
      smprof_json_writer_double (writer, function->p95);
      smprof_json_writer_member (writer, "max");
      smprof_json_writer_double (writer, function->max);
      smprof_json_writer_member (writer, "series");
      smprof_step_stats_get_series (stats, i, series);
      smprof_json_writer_begin_array (writer);
      for (guint s = 0; s < n_steps; s++)
        smprof_json_writer_double (writer, series[s]);
      smprof_json_writer_end_array (writer);
      smprof_json_writer_end_object (writer);
    }
  smprof_json_writer_end_array (writer);
}

/* The node × function matrix: time per step of each node's top functions. */
static void
write_matrix (SmprofJsonWriter *writer,
              SmprofStepStats  *stats)
{
  SmprofFunctionKeys *table = smprof_job_get_function_keys (smprof_step_stats_get_job (stats));
  const char * const *node_ids = smprof_step_stats_get_node_ids (stats);
  g_autoptr(GArray) columns = smprof_step_stats_top_functions (stats, MATRIX_TOP_N);

  smprof_json_writer_member (writer, "matrix");
  smprof_json_writer_begin_object (writer);
  smprof_json_writer_member (writer, "top_n");
  smprof_json_writer_int (writer, MATRIX_TOP_N);
  smprof_json_writer_member (writer, "functions");
  smprof_json_writer_begin_array (writer);
  for (guint c = 0; c < columns->len; c++)
    {
      smprof_json_writer_begin_object (writer);
      write_function_key (writer, table,
                          smprof_step_stats_get_function (stats, g_array_index (columns, guint, c))->func);
      smprof_json_writer_end_object (writer);
    }
  smprof_json_writer_end_array (writer);

  smprof_json_writer_member (writer, "nodes");
  smprof_json_writer_begin_array (writer);
  for (guint n = 0; node_ids[n] != NULL; n++)
    {
      guint n_steps = 0;

      smprof_step_stats_get_node_function_time (stats, node_ids[n], G_MAXUINT, &n_steps);
      smprof_json_writer_begin_object (writer);
      smprof_json_writer_member (writer, "node_id");
      smprof_json_writer_string (writer, node_ids[n]);
      smprof_json_writer_member (writer, "steps");
      smprof_json_writer_int (writer, n_steps);
      smprof_json_writer_member (writer, "time_per_step");
      smprof_json_writer_begin_array (writer);
      for (guint c = 0; c < columns->len; c++)
        {
          double time = smprof_step_stats_get_node_function_time (stats, node_ids[n],
                                                                  g_array_index (columns, guint, c), NULL);

          smprof_json_writer_double (writer, n_steps > 0 ? time / n_steps : 0);
        }
      smprof_json_writer_end_array (writer);
      smprof_json_writer_end_object (writer);
    }
  smprof_json_writer_end_array (writer);
  smprof_json_writer_end_object (writer);
}

static void
print_json (FILE             *stream,
            SmprofJsonWriter *writer)
{
  g_autofree char *text = smprof_json_writer_free_to_string (writer);

  fprintf (stream, "%s\n", text);
}

static char *
step_marks (const SmprofStep *step)
{
  g_autoptr(GPtrArray) marks = g_ptr_array_new ();

  if (step->outlier)
    g_ptr_array_add (marks, (gpointer) _("outlier"));
  if (step->straggler)
    g_ptr_array_add (marks, (gpointer) _("straggler"));
  if (step->partial)
    /* Translators: a step one of whose intervals has no data */
    g_ptr_array_add (marks, (gpointer) _("partial"));
  g_ptr_array_add (marks, NULL);

  return g_strjoinv (", ", (char **) marks->pdata);
}

static void
print_function_table (FILE                   *stream,
                      SmprofStepStats        *stats,
                      const SmprofCliOptions *options)
{
  SmprofFunctionKeys *table = smprof_job_get_function_keys (smprof_step_stats_get_job (stats));
  guint               n = function_limit (stats, options);

  fprintf (stream, "\n%s\n", _("Self time per step, seconds (steps where a function did not run count as 0):"));
  fprintf (stream, "%6s %10s %10s %10s %10s %10s  %s\n",
           _("COUNT"), _("MIN"), _("MEDIAN"), _("P95"), _("MAX"), _("TOTAL"), _("FUNCTION"));
  for (guint i = 0; i < n; i++)
    {
      const SmprofStepFunction *function = smprof_step_stats_get_function (stats, i);
      g_autofree char *label = smprof_function_keys_dup_label (table, function->func);

      fprintf (stream, "%6u %10.6f %10.6f %10.6f %10.6f %10.6f  %s\n", function->count, function->min,
               function->median, function->p95, function->max, function->total, smprof_cli_shown (label));
    }
}

static void
print_matrix (FILE            *stream,
              SmprofStepStats *stats)
{
  SmprofFunctionKeys *table = smprof_job_get_function_keys (smprof_step_stats_get_job (stats));
  const char * const *node_ids = smprof_step_stats_get_node_ids (stats);
  g_autoptr(GArray) columns = smprof_step_stats_top_functions (stats, MATRIX_TOP_N);
  g_autofree guint *n_steps = g_new0 (guint, g_strv_length ((char **) node_ids) + 1);

  fprintf (stream, "\n");
  fprintf (stream, _("Time per step of each node's top %d functions, seconds (node × function):\n"), MATRIX_TOP_N);
  for (guint n = 0; node_ids[n] != NULL; n++)
    {
      smprof_step_stats_get_node_function_time (stats, node_ids[n], G_MAXUINT, &n_steps[n]);
      fprintf (stream, "%14s ", smprof_cli_shown (node_ids[n]));
    }
  fprintf (stream, " %s\n", _("FUNCTION"));

  for (guint c = 0; c < columns->len; c++)
    {
      guint index = g_array_index (columns, guint, c);
      g_autofree char *label = smprof_function_keys_dup_label (table, smprof_step_stats_get_function (stats, index)->func);

      for (guint n = 0; node_ids[n] != NULL; n++)
        {
          double time = smprof_step_stats_get_node_function_time (stats, node_ids[n], index, NULL);

          fprintf (stream, "%14.6f ", n_steps[n] > 0 ? time / n_steps[n] : 0);
        }
      fprintf (stream, " %s\n", smprof_cli_shown (label));
    }
}

/**
 * smprof_cli_print_steps:
 * @stream: where to write
 * @stats: the per-step statistics
 * @options: the command line (--json, --functions, --limit)
 *
 * One row per step with its marks, the rule, and with --functions the
 * functions' distributions and the node × function matrix.
 */
void
smprof_cli_print_steps (FILE                   *stream,
                        SmprofStepStats        *stats,
                        const SmprofCliOptions *options)
{
  guint n_steps = smprof_step_stats_get_n_steps (stats);
  double total = 0;

  for (guint i = 0; i < n_steps; i++)
    total += smprof_step_stats_get_step (stats, i)->total_time;

  if (options->json)
    {
      SmprofJsonWriter *writer = smprof_json_writer_new (FALSE);

      smprof_json_writer_begin_object (writer);
      write_rules (writer, stats);
      smprof_json_writer_member (writer, "total_time");
      smprof_json_writer_double (writer, total);
      smprof_json_writer_member (writer, "unassigned_time");
      smprof_json_writer_double (writer, smprof_step_stats_get_unassigned_time (stats));
      smprof_json_writer_member (writer, "unassigned_intervals");
      smprof_json_writer_int (writer, smprof_step_stats_get_n_unassigned (stats));
      smprof_json_writer_member (writer, "steps");
      smprof_json_writer_begin_array (writer);
      for (guint i = 0; i < n_steps; i++)
        write_step (writer, stats, smprof_step_stats_get_step (stats, i));
      smprof_json_writer_end_array (writer);
      if (options->functions)
        {
          write_functions (writer, stats, options);
          write_matrix (writer, stats);
        }
      smprof_json_writer_end_object (writer);
      print_json (stream, writer);
      return;
    }

  fprintf (stream, "%-16s %-8s %8s %9s %12s %12s %8s %8s  %s\n", _("NODE"), _("MODE"), _("STEP"),
           _("INTERVALS"), _("TIME (s)"), _("WALL (s)"), _("SCORE"), _("VS NODES"), _("MARKS"));
  for (guint i = 0; i < n_steps; i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);
      g_autofree char *marks = step_marks (step);

      fprintf (stream, "%-16s %-8s %8" G_GINT64_FORMAT " %9u %12.6f %12.6f %8.2f %8.2f  %s\n",
               smprof_cli_shown (step->node_id), smprof_mode_to_string (step->mode), step->step, step->n_intervals,
               step->total_time, step->wall_time, step->score, step->straggler_score, marks);
    }

  smprof_cli_fputs_free (stream, g_strdup_printf (ngettext ("\n%.6f s in %u step", "\n%.6f s in %u steps", n_steps), total, n_steps));
  smprof_cli_fputs_free (stream, g_strdup_printf (ngettext ("; %.6f s in %u interval outside any step\n",
                             "; %.6f s in %u intervals outside any step\n",
                             smprof_step_stats_get_n_unassigned (stats)),
           smprof_step_stats_get_unassigned_time (stats), smprof_step_stats_get_n_unassigned (stats)));
  print_rules (stream, stats);

  if (options->functions)
    {
      print_function_table (stream, stats, options);
      print_matrix (stream, stats);
    }
}

typedef struct
{
  SmprofStepStats *stats;
  gboolean         stragglers;
} ScoreOrder;

/* Outliers by their rank score, stragglers by their score against the
 * other nodes, the largest first; ties in step order. */
static int
compare_scores (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const ScoreOrder *order = user_data;
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;
  const SmprofStep *sx = smprof_step_stats_get_step (order->stats, x);
  const SmprofStep *sy = smprof_step_stats_get_step (order->stats, y);
  double kx = order->stragglers ? sx->straggler_score : smprof_step_rank_score (sx);
  double ky = order->stragglers ? sy->straggler_score : smprof_step_rank_score (sy);

  if (kx != ky)
    return kx < ky ? 1 : -1;

  return (x > y) - (x < y);
}

/* The outlier steps (@stragglers false) or the straggler steps, as rows of
 * the table or objects of the JSON array already begun, the one that stands
 * out most first. Returns how many. The outliers are the ranking the job
 * page lists: a straggler's step stands out too, and is one to look into
 * even when, against the node's own steps that vary a lot, it would not
 * score above the threshold; its score there is the larger of its two. */
static guint
print_flagged_steps (FILE             *stream,
                     SmprofJsonWriter *writer,
                     SmprofStepStats  *stats,
                     gboolean          stragglers)
{
  g_autoptr(GArray) ranking = smprof_step_stats_dup_ranking (stats, TRUE);
  ScoreOrder order = { stats, stragglers };
  guint n_flagged = 0;

  g_array_sort_with_data (ranking, compare_scores, &order);

  for (guint r = 0; r < ranking->len; r++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, g_array_index (ranking, guint, r));
      double reference = stragglers ? step->others_median : step->median_time;
      double score = stragglers ? step->straggler_score : smprof_step_rank_score (step);

      if (!(stragglers ? step->straggler : step->outlier || step->straggler))
        continue;
      n_flagged++;

      if (writer == NULL)
        {
          fprintf (stream, "%-16s %-8s %8" G_GINT64_FORMAT " %12.6f %12.6f %8.2f", smprof_cli_shown (step->node_id),
                   smprof_mode_to_string (step->mode), step->step, step->total_time, reference, score);
          if (!stragglers)
            fprintf (stream, "  %" G_GINT64_FORMAT, smprof_step_stats_get_step (stats, step->median_step)->step);
          fputc ('\n', stream);
          continue;
        }

      smprof_json_writer_begin_object (writer);
      write_step_identity (writer, step);
      smprof_json_writer_member (writer, "total_time");
      smprof_json_writer_double (writer, step->total_time);
      if (stragglers)
        {
          smprof_json_writer_member (writer, "others_median");
          smprof_json_writer_double (writer, reference);
        }
      smprof_json_writer_member (writer, "score");
      smprof_json_writer_double (writer, score);
      if (!stragglers)
        {
          smprof_json_writer_member (writer, "straggler");
          smprof_json_writer_boolean (writer, step->straggler);
          write_median_step (writer, stats, step);
        }
      smprof_json_writer_end_object (writer);
    }

  return n_flagged;
}

/**
 * smprof_cli_print_outliers:
 * @stream: where to write
 * @stats: the per-step statistics
 * @options: the command line (--json)
 *
 * The outlier steps of each node, then the stragglers.
 */
void
smprof_cli_print_outliers (FILE                   *stream,
                           SmprofStepStats        *stats,
                           const SmprofCliOptions *options)
{
  guint n_steps = smprof_step_stats_get_n_steps (stats);
  SmprofJsonWriter *writer = options->json ? smprof_json_writer_new (FALSE) : NULL;
  guint n_outliers, n_stragglers;

  if (writer != NULL)
    {
      smprof_json_writer_begin_object (writer);
      write_rules (writer, stats);
      smprof_json_writer_member (writer, "steps");
      smprof_json_writer_int (writer, n_steps);
      smprof_json_writer_member (writer, "outliers");
      smprof_json_writer_begin_array (writer);
    }
  else
    fprintf (stream, "%s\n%-16s %-8s %8s %12s %12s %8s  %s\n", _("Outlier steps:"), _("NODE"), _("MODE"),
             _("STEP"), _("TIME (s)"), _("MEDIAN (s)"), _("SCORE"), _("MEDIAN STEP"));

  n_outliers = print_flagged_steps (stream, writer, stats, FALSE);

  if (writer != NULL)
    {
      smprof_json_writer_end_array (writer);
      smprof_json_writer_member (writer, "stragglers");
      smprof_json_writer_begin_array (writer);
    }
  else
    fprintf (stream, "\n%s\n%-16s %-8s %8s %12s %12s %8s\n", _("Straggler nodes:"), _("NODE"), _("MODE"),
             _("STEP"), _("TIME (s)"), _("OTHERS (s)"), _("SCORE"));

  n_stragglers = print_flagged_steps (stream, writer, stats, TRUE);

  if (writer != NULL)
    {
      smprof_json_writer_end_array (writer);
      smprof_json_writer_end_object (writer);
      print_json (stream, writer);
      return;
    }

  smprof_cli_fputs_free (stream, g_strdup_printf (ngettext ("\n%u outlier step and ", "\n%u outlier steps and ", n_outliers), n_outliers));
  smprof_cli_fputs_free (stream, g_strdup_printf (ngettext ("%u straggler ", "%u stragglers ", n_stragglers), n_stragglers));
  smprof_cli_fputs_free (stream, g_strdup_printf (ngettext ("among %u step.\n", "among %u steps.\n", n_steps), n_steps));
  print_rules (stream, stats);
}

/**
 * smprof_cli_step_rule_is_option:
 * @option: an option's name
 * @takes_value: (out): whether a value follows it
 *
 * Returns: whether @option sets the outlier rule (--threshold Z,
 *   --count-teardown), which steps, outliers and report take
 */
gboolean
smprof_cli_step_rule_is_option (const char *option,
                                gboolean   *takes_value)
{
  *takes_value = strcmp (option, "--threshold") == 0;

  return *takes_value || strcmp (option, "--count-teardown") == 0;
}

/**
 * smprof_cli_step_rule_parse:
 * @rule: the rule to change
 * @option: an option smprof_cli_step_rule_is_option() accepts
 * @value: (nullable): its value
 * @error: a location for a #GError, or %NULL
 *
 * Returns: %FALSE, with @error set, for a threshold that is not a positive number
 */
gboolean
smprof_cli_step_rule_parse (SmprofStepRule  *rule,
                            const char      *option,
                            const char      *value,
                            GError         **error)
{
  char *end = NULL;
  double threshold;

  if (strcmp (option, "--count-teardown") == 0)
    {
      rule->count_teardown = TRUE;
      return TRUE;
    }

  threshold = g_ascii_strtod (value, &end);
  if (*value == '\0' || end == NULL || *end != '\0' || !isfinite (threshold) || threshold <= 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s takes a positive number (a robust z-score, default %g), not “%s”"),
                   option, SMPROF_STEP_OUTLIER_THRESHOLD, value);
      return FALSE;
    }
  rule->threshold = threshold;

  return TRUE;
}
