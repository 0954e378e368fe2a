/* smprof-report-html.c: a report as one self-contained HTML page
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-export-asset.h"
#include "smprof-query.h"
#include "smprof-report-private.h"
#include "smprof-xml.h"

/* The page reads without a script and without another file: the SVGs are
 * inlined, the CSVs are data: links, the style (report.css) is in the head. */

/* A data: link that downloads @text as @name. */
static void
append_download (GString    *out,
                 const char *name,
                 const char *mime_type,
                 const char *text)
{
  g_autofree char *base64 = g_base64_encode ((const guchar *) text, strlen (text));

  g_string_append_printf (out, "<a download=\"%s\" href=\"data:%s;base64,%s\">%s</a>",
                          name, mime_type, base64, name);
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_';
}

/* The renderers' SVG, made fit to sit in a page next to another one: no XML
 * declaration, no script (two copies would clash, and the page needs none),
 * and ids prefixed, also where its stylesheet names them, as HTML ids are
 * shared by the whole page. */
static void
append_inline_svg (GString    *out,
                   const char *svg,
                   const char *prefix)
{
  const char *start = strstr (svg, "<svg");
  g_autoptr(GString) text = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  const char *p;

  if (start == NULL)
    return;

  text = g_string_new (start);

  if ((p = strstr (text->str, "<script")) != NULL)
    {
      const char *end = strstr (p, "</script>");

      if (end != NULL)
        g_string_erase (text, p - text->str, end + strlen ("</script>\n") - p);
    }

  if ((p = strstr (text->str, " onload=\"")) != NULL)
    {
      const char *end = strchr (p + strlen (" onload=\""), '"');

      if (end != NULL)
        g_string_erase (text, p - text->str, end + 1 - p);
    }

  /* The ids, then the stylesheet's references to them, then the ids themselves. */
  for (p = strstr (text->str, " id=\""); p != NULL; p = strstr (p + 1, " id=\""))
    {
      const char *value = p + strlen (" id=\"");
      const char *end = strchr (value, '"');

      if (end != NULL)
        g_ptr_array_add (ids, g_strndup (value, end - value));
    }

  for (guint i = 0; i < ids->len; i++)
    {
      g_autofree char *reference = g_strconcat ("#", (char *) g_ptr_array_index (ids, i), NULL);
      g_autofree char *replacement = g_strconcat ("#", prefix, "-", (char *) g_ptr_array_index (ids, i), NULL);
      const char *style_end = strstr (text->str, "</style>");
      gsize at = 0;

      while (style_end != NULL && (p = strstr (text->str + at, reference)) != NULL && p < style_end)
        {
          gsize position = p - text->str;

          at = position + strlen (reference);
          if (is_name_char (text->str[at]))
            continue;
          g_string_erase (text, position, strlen (reference));
          g_string_insert (text, position, replacement);
          at = position + strlen (replacement);
          style_end = strstr (text->str, "</style>");
        }
    }

  {
    g_autofree char *prefixed = g_strconcat (" id=\"", prefix, "-", NULL);

    g_string_replace (text, " id=\"", prefixed, 0);
  }

  g_string_append_printf (out, "<div class=\"figure\" id=\"%s\">\n", prefix);
  g_string_append_len (out, text->str, text->len);
  g_string_append (out, "</div>\n");
}

static void
append_fact (GString    *out,
             const char *term,
             const char *value,
             gboolean    code)
{
  g_string_append (out, "<dt>");
  smprof_xml_append_escaped (out, term);
  g_string_append (out, code ? "</dt><dd><code>" : "</dt><dd>");
  smprof_xml_append_escaped (out, value);
  g_string_append (out, code ? "</code></dd>\n" : "</dd>\n");
}

static void
append_facts (GString             *out,
              SmprofReportContent *content)
{
  SmprofProfile *profile = content->profile;
  g_autofree char *nodes = g_strjoinv (", ", (char **) smprof_profile_get_node_ids (profile));
  g_autofree char *timer = smprof_report_dup_timer_note (profile);
  guint n_records = smprof_profile_get_records (profile)->len;
  g_autofree char *intervals = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", n_records), n_records);
  g_autofree char *steps = smprof_records_describe_steps (smprof_profile_get_records (profile));
  g_autofree char *reshaping = smprof_export_dup_reshaping (profile);
  g_autofree char *selection = g_strdup_printf ("%s · %s", content->options->selection != NULL
                                                ? content->options->selection : steps, intervals);
  g_autofree char *total = g_strdup_printf ("%.6f s", smprof_profile_get_total_time (profile));

  g_string_append (out, "<dl>\n");
  append_fact (out, _("Job:"), content->location, TRUE);
  append_fact (out, _("Profiler:"), smprof_profiler_to_string (smprof_profile_get_profiler (profile)), FALSE);
  append_fact (out, _("Nodes:"), nodes, FALSE);
  append_fact (out, _("Selection:"), selection, FALSE);
  append_fact (out, _("Steps:"), steps, FALSE);
  if (reshaping != NULL)
    append_fact (out, _("Call tree reshaped:"), reshaping, FALSE);
  append_fact (out, _("Total time:"), total, FALSE);
  append_fact (out, _("Timer:"), timer, FALSE);
  if (smprof_profile_is_estimated (profile))
    append_fact (out, _("Flame graph:"), _("Call tree estimated from cProfile’s call graph"), FALSE);
  append_fact (out, _("smprof version:"), PACKAGE_VERSION, FALSE);
  g_string_append (out, "</dl>\n");

  if (content->options->command_line != NULL)
    {
      g_string_append_printf (out, "<h2>%s</h2>\n<pre><code>", _("Reproduce"));
      smprof_xml_append_escaped (out, content->options->command_line);
      g_string_append (out, "</code></pre>\n");
    }
}

static void
append_cell (GString    *out,
             const char *text,
             gboolean    number)
{
  g_string_append (out, number ? "<td class=\"num\">" : "<td><code>");
  smprof_xml_append_escaped (out, text);
  g_string_append (out, number ? "</td>" : "</code></td>");
}

/* @digits after the point, a sign when @sign, then @unit; empty when unknown. */
static void
append_number_cell (GString    *out,
                    double      value,
                    int         digits,
                    gboolean    sign,
                    const char *unit)
{
  g_autofree char *text = !isfinite (value) ? g_strdup ("")
                          : sign ? g_strdup_printf ("%+.*f%s", digits, value, unit)
                          : g_strdup_printf ("%.*f%s", digits, value, unit);

  append_cell (out, text, TRUE);
}

static void
append_header (GString            *out,
               const char * const *titles)
{
  g_string_append (out, "<table>\n<thead><tr>");
  for (guint i = 0; titles[i] != NULL; i++)
    {
      g_string_append (out, "<th>");
      smprof_xml_append_escaped (out, titles[i]);
      g_string_append (out, "</th>");
    }
  g_string_append (out, "</tr></thead>\n<tbody>\n");
}

static void
append_functions (GString             *out,
                  SmprofReportContent *content)
{
  SmprofProfile      *profile = content->profile;
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  g_autoptr(GArray) top = smprof_report_top_functions (profile, SMPROF_REPORT_TOP_FUNCTIONS);
  const char *titles[] = { _("Function"), _("Self (s)"), _("Total (s)"), _("Calls"), NULL };

  g_string_append_printf (out, "<h2>%s</h2>\n<p>", _("Functions of most self time"));
  g_string_append_printf (out, _("The whole table: "));
  append_download (out, SMPROF_REPORT_FUNCTIONS_FILE, "text/csv", content->functions_csv);
  g_string_append (out, "</p>\n");

  append_header (out, titles);
  for (guint i = 0; i < top->len; i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, g_array_index (top, guint, i));
      g_autofree char *label = smprof_function_keys_dup_label (table, row->func);

      g_string_append (out, "<tr>");
      append_cell (out, label, FALSE);
      append_number_cell (out, row->tottime, 6, FALSE, "");
      append_number_cell (out, row->cumtime, 6, FALSE, "");
      append_number_cell (out, row->ncalls >= 0 ? (double) row->ncalls : NAN, 0, FALSE, "");
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</tbody>\n</table>\n");
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
  const char *titles[] = { _("Node"), _("Mode"), _("Step"), _("Time (s)"), _("Median (s)"), _("Score"),
                           _("Marks"), NULL };

  for (guint i = 0; i < flagged->len; i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (steps, g_array_index (flagged, guint, i));

      n_outliers += step->outlier;
      n_stragglers += step->straggler;
    }

  g_string_append_printf (out, "<h2>%s</h2>\n<p>", _("Per-step statistics"));
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u step, %u of them outliers", "%u steps, %u of them outliers",
                                         n_steps),
                          n_steps, n_outliers);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "; %u straggler. ", "; %u stragglers. ", n_stragglers), n_stragglers);
  smprof_xml_append_escaped (out, rule);
  g_string_append_c (out, ' ');
  smprof_xml_append_escaped (out, smprof_step_straggler_rule_description ());
  g_string_append (out, "</p>\n<p>");
  append_download (out, SMPROF_REPORT_STEPS_FILE, "text/csv", content->steps_csv);
  g_string_append (out, " · ");
  append_download (out, SMPROF_REPORT_STEP_FUNCTIONS_FILE, "text/csv", content->step_functions_csv);
  g_string_append (out, "</p>\n");

  if (flagged->len == 0)
    return;

  append_header (out, titles);
  for (guint i = 0; i < flagged->len; i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (steps, g_array_index (flagged, guint, i));
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, step->step);
      g_autofree char *marks = smprof_report_dup_step_marks (step);

      g_string_append (out, "<tr>");
      append_cell (out, step->node_id, FALSE);
      append_cell (out, smprof_mode_to_string (step->mode), FALSE);
      append_cell (out, number, TRUE);
      append_number_cell (out, step->total_time, 6, FALSE, "");
      append_number_cell (out, step->median_time, 6, FALSE, "");
      append_number_cell (out, smprof_step_rank_score (step), 2, FALSE, "");
      append_cell (out, marks, FALSE);
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</tbody>\n</table>\n");
}

static void
append_side (GString        *out,
             SmprofDiff     *diff,
             SmprofDiffSide  side,
             const char     *label)
{
  g_autofree char *text = smprof_report_dup_side_summary (diff, side, label);

  append_fact (out, side == SMPROF_DIFF_A ? "A" : "B", text, FALSE);
}

static void
append_comparison (GString             *out,
                   SmprofReportContent *content)
{
  SmprofDiff *diff = content->diff;
  const SmprofDiffExportOptions *options = &content->options->diff;
  SmprofFunctionKeys *table = smprof_diff_get_function_keys (diff);
  g_autoptr(GArray) top = smprof_report_top_changes (diff, options->min_delta, SMPROF_REPORT_TOP_FUNCTIONS);
  const char *titles[] = { _("Function (self time)"), "A (s)", "B (s)", "B − A (s)", "B / A", NULL };

  g_string_append_printf (out, "<h2>%s</h2>\n<dl>\n", _("Comparison"));
  append_side (out, diff, SMPROF_DIFF_A, options->a_label);
  append_side (out, diff, SMPROF_DIFF_B, options->b_label);
  {
    g_autofree char *normalised = g_strconcat (smprof_diff_normalize_to_string (smprof_diff_get_normalize (diff)),
                                               smprof_diff_get_requested_normalize (diff) ==
                                               SMPROF_DIFF_NORMALIZE_AUTO ? " (auto)" : "", NULL);

    append_fact (out, _("Normalised:"), normalised, FALSE);
  }
  g_string_append (out, "</dl>\n");
  append_inline_svg (out, content->diff_svg, "diff-flame-graph");

  g_string_append (out, "<p>");
  append_download (out, SMPROF_REPORT_DIFF_FILE, "text/csv", content->diff_csv);
  g_string_append (out, "</p>\n");
  append_header (out, titles);
  for (guint i = 0; i < top->len; i++)
    {
      const SmprofDiffRow *row = smprof_diff_get_row (diff, g_array_index (top, guint, i));
      g_autofree char *label = smprof_function_keys_dup_label (table, row->func);
      double a = row->tottime[SMPROF_DIFF_A];
      double b = row->tottime[SMPROF_DIFF_B];

      g_string_append (out, "<tr>");
      append_cell (out, label, FALSE);
      append_number_cell (out, a, 6, FALSE, "");
      append_number_cell (out, b, 6, FALSE, "");
      append_number_cell (out, b - a, 6, TRUE, "");
      append_number_cell (out, smprof_diff_ratio (a, b), 2, FALSE, "×");
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</tbody>\n</table>\n");
}

/**
 * smprof_report_dup_html: (skip)
 *
 * Returns: (transfer full): the report as one HTML page
 */
char *
smprof_report_dup_html (SmprofReportContent *content)
{
  GString *out = g_string_new ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");

  smprof_xml_append_escaped (out, _("smprof report"));
  g_string_append (out, ": ");
  smprof_xml_append_escaped (out, content->location);
  g_string_append_printf (out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>",
                          _smprof_export_asset ("report.css"));
  smprof_xml_append_escaped (out, _("smprof report"));
  g_string_append (out, "</h1>\n");

  append_facts (out, content);
  g_string_append_printf (out, "<h2>%s</h2>\n", _("Flame graph"));
  append_inline_svg (out, content->flame_svg, "flame-graph");
  append_functions (out, content);
  append_steps (out, content);
  if (content->diff != NULL)
    append_comparison (out, content);

  g_string_append (out, "</body>\n</html>\n");

  return g_string_free (out, FALSE);
}
