/* smprof-report-markdown.c: the README.md of a report folder
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-query.h"
#include "smprof-report-private.h"

/* A code span in a table cell: no backtick can end it early and no pipe can
 * split the cell. */
static void
append_code (GString    *out,
             const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  g_string_append_c (out, '`');
  for (const char *p = valid; *p != '\0'; p++)
    {
      if (*p == '`')
        g_string_append_c (out, '\'');
      else if (*p == '|')
        g_string_append (out, "\\|");
      else if (*p == '\n' || *p == '\r')
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '`');
}

static void
append_function (GString            *out,
                 SmprofFunctionKeys *table,
                 guint32             func)
{
  g_autofree char *label = smprof_function_keys_dup_label (table, func);

  append_code (out, label);
}

static void
append_facts (GString             *out,
              SmprofReportContent *content)
{
  SmprofProfile *profile = content->profile;
  const char * const *node_ids = smprof_profile_get_node_ids (profile);
  g_autofree char *nodes = g_strjoinv (", ", (char **) node_ids);
  g_autofree char *timer = smprof_report_dup_timer_note (profile);
  g_autofree char *steps = smprof_records_describe_steps (smprof_profile_get_records (profile));
  g_autofree char *reshaping = smprof_export_dup_reshaping (profile);
  guint n_records = smprof_profile_get_records (profile)->len;

  g_string_append_printf (out, "- **%s** ", _("Job:"));
  append_code (out, content->location);
  g_string_append_printf (out, "\n- **%s** %s\n", _("Profiler:"),
                          smprof_profiler_to_string (smprof_profile_get_profiler (profile)));
  g_string_append_printf (out, "- **%s** %s\n", _("Nodes:"), nodes);
  g_string_append_printf (out, "- **%s** %s · ", _("Selection:"),
                          content->options->selection != NULL ? content->options->selection : steps);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", n_records), n_records);
  g_string_append_printf (out, "\n- **%s** %s\n", _("Steps:"), steps);
  if (reshaping != NULL)
    g_string_append_printf (out, "- **%s** %s\n", _("Call tree reshaped:"), reshaping);
  g_string_append_printf (out, "- **%s** %.6f s\n", _("Total time:"), smprof_profile_get_total_time (profile));
  g_string_append_printf (out, "- **%s** %s\n", _("Timer:"), timer);
  if (smprof_profile_is_estimated (profile))
    g_string_append_printf (out, "- **%s** %s\n", _("Flame graph:"),
                            _("Call tree estimated from cProfile’s call graph"));
  g_string_append_printf (out, "- **%s** %s\n\n", _("smprof version:"), PACKAGE_VERSION);
}

static void
append_files (GString             *out,
              SmprofReportContent *content)
{
  g_string_append_printf (out, "## %s\n\n", _("Files"));
  g_string_append_printf (out, "- [%s](%s): %s\n", SMPROF_REPORT_FLAME_FILE, SMPROF_REPORT_FLAME_FILE,
                          _("the flame graph of the selection"));
  g_string_append_printf (out, "- [%s](%s): %s\n", SMPROF_REPORT_FUNCTIONS_FILE, SMPROF_REPORT_FUNCTIONS_FILE,
                          _("the Functions table, every function"));
  g_string_append_printf (out, "- [%s](%s): %s\n", SMPROF_REPORT_STEPS_FILE, SMPROF_REPORT_STEPS_FILE,
                          _("the total time of every step, with its outlier and straggler marks"));
  g_string_append_printf (out, "- [%s](%s): %s\n", SMPROF_REPORT_STEP_FUNCTIONS_FILE,
                          SMPROF_REPORT_STEP_FUNCTIONS_FILE,
                          _("each function’s self time per step: count, total, min, median, p95, max"));
  if (content->diff != NULL)
    {
      g_string_append_printf (out, "- [%s](%s): %s\n", SMPROF_REPORT_DIFF_FLAME_FILE,
                              SMPROF_REPORT_DIFF_FLAME_FILE, _("the differential flame graph, B against A"));
      g_string_append_printf (out, "- [%s](%s): %s\n", SMPROF_REPORT_DIFF_FILE, SMPROF_REPORT_DIFF_FILE,
                              _("the diff table, every function, the largest change first"));
    }
  g_string_append_c (out, '\n');
}

static void
append_top_functions (GString             *out,
                      SmprofReportContent *content)
{
  SmprofProfile      *profile = content->profile;
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  g_autoptr(GArray) top = smprof_report_top_functions (profile, SMPROF_REPORT_TOP_FUNCTIONS);

  g_string_append_printf (out, "## %s\n\n", _("Functions of most self time"));
  g_string_append_printf (out, "| %s | %s | %s | %s |\n|---|--:|--:|--:|\n",
                          _("Function"), _("Self (s)"), _("Total (s)"), _("Calls"));
  for (guint i = 0; i < top->len; i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, g_array_index (top, guint, i));

      g_string_append (out, "| ");
      append_function (out, table, row->func);
      g_string_append_printf (out, " | %.6f | %.6f | ", row->tottime, row->cumtime);
      if (row->ncalls >= 0)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, row->ncalls);
      g_string_append (out, " |\n");
    }
  g_string_append_c (out, '\n');
}

/* The rules' text and the outliers and stragglers, the one that stands out most first. */
static void
append_steps (GString             *out,
              SmprofReportContent *content)
{
  SmprofStepStats *steps = content->steps;
  g_autoptr(GArray) flagged = smprof_report_outlier_steps (steps);
  g_autofree char *rule = smprof_step_outlier_rule_dup_description (smprof_step_stats_get_rule (steps));
  guint n_steps = smprof_step_stats_get_n_steps (steps);
  guint n_outliers = 0, n_stragglers = 0;

  for (guint i = 0; i < flagged->len; i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (steps, g_array_index (flagged, guint, i));

      n_outliers += step->outlier;
      n_stragglers += step->straggler;
    }

  g_string_append_printf (out, "## %s\n\n", _("Per-step statistics"));
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u step, %u of them outliers", "%u steps, %u of them outliers",
                                         n_steps),
                          n_steps, n_outliers);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "; %u straggler. ", "; %u stragglers. ", n_stragglers), n_stragglers);
  g_string_append_printf (out, "%s %s\n\n", rule, smprof_step_straggler_rule_description ());
  if (flagged->len == 0)
    return;

  g_string_append_printf (out, "| %s | %s | %s | %s | %s | %s | %s |\n|---|---|--:|--:|--:|--:|---|\n",
                          _("Node"), _("Mode"), _("Step"), _("Time (s)"), _("Median (s)"), _("Score"), _("Marks"));
  for (guint i = 0; i < flagged->len; i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (steps, g_array_index (flagged, guint, i));
      g_autofree char *marks = smprof_report_dup_step_marks (step);

      g_string_append (out, "| ");
      append_code (out, step->node_id);
      g_string_append_printf (out, " | %s | %" G_GINT64_FORMAT " | %.6f | %.6f | %.2f | %s |\n",
                              smprof_mode_to_string (step->mode), step->step, step->total_time, step->median_time,
                              smprof_step_rank_score (step), marks);
    }
  g_string_append_c (out, '\n');
}

static void
append_side (GString        *out,
             SmprofDiff     *diff,
             SmprofDiffSide  side,
             const char     *label)
{
  g_autofree char *text = smprof_report_dup_side_summary (diff, side, label);

  g_string_append_printf (out, "- **%s:** %s\n", side == SMPROF_DIFF_A ? "A" : "B", text);
}

static void
append_comparison (GString             *out,
                   SmprofReportContent *content)
{
  SmprofDiff *diff = content->diff;
  const SmprofDiffExportOptions *options = &content->options->diff;
  SmprofFunctionKeys *table = smprof_diff_get_function_keys (diff);
  g_autoptr(GArray) top = smprof_report_top_changes (diff, options->min_delta, SMPROF_REPORT_TOP_FUNCTIONS);

  g_string_append_printf (out, "## %s\n\n", _("Comparison"));
  append_side (out, diff, SMPROF_DIFF_A, options->a_label);
  append_side (out, diff, SMPROF_DIFF_B, options->b_label);
  g_string_append_printf (out, "- **%s** %s%s\n\n", _("Normalised:"),
                          smprof_diff_normalize_to_string (smprof_diff_get_normalize (diff)),
                          smprof_diff_get_requested_normalize (diff) == SMPROF_DIFF_NORMALIZE_AUTO ? " (auto)" : "");

  g_string_append_printf (out, "| %s | A (s) | B (s) | B − A (s) | B / A |\n|---|--:|--:|--:|--:|\n",
                          _("Function (self time)"));
  for (guint i = 0; i < top->len; i++)
    {
      const SmprofDiffRow *row = smprof_diff_get_row (diff, g_array_index (top, guint, i));
      double a = row->tottime[SMPROF_DIFF_A];
      double b = row->tottime[SMPROF_DIFF_B];
      double ratio = smprof_diff_ratio (a, b);

      g_string_append (out, "| ");
      append_function (out, table, row->func);
      g_string_append_printf (out, " | %.6f | %.6f | %+.6f | ", a, b, b - a);
      if (isfinite (ratio))
        g_string_append_printf (out, "%.2f×", ratio);
      g_string_append (out, " |\n");
    }
  g_string_append_c (out, '\n');
}

/**
 * smprof_report_dup_markdown: (skip)
 *
 * Returns: (transfer full): the README.md of a report folder
 */
char *
smprof_report_dup_markdown (SmprofReportContent *content)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "# %s\n\n", _("smprof report"));
  append_facts (out, content);

  if (content->options->command_line != NULL)
    g_string_append_printf (out, "## %s\n\n```sh\n%s\n```\n\n", _("Reproduce"), content->options->command_line);

  append_files (out, content);
  append_top_functions (out, content);
  append_steps (out, content);
  if (content->diff != NULL)
    append_comparison (out, content);

  return g_string_free (out, FALSE);
}
