/* smprof-cli-diff.c: `smprof diff SOURCE --a SELECTION --b SELECTION`
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "smprof-aggregate.h"
#include "smprof-cli-diff.h"
#include "smprof-cli-help.h"
#include "smprof-cli-options.h"
#include "smprof-cli-output.h"
#include "smprof-cli-source.h"
#include "smprof-diff-export.h"

/* The exit statuses of smprof.c. */
enum
{
  EXIT_OK = 0,
  EXIT_NOTHING_SELECTED = 1,
  EXIT_USAGE = 2,
  EXIT_SOURCE = 3,
  EXIT_WRITE = 4,
};

typedef enum
{
  FORMAT_TABLE,
  FORMAT_JSON,
  FORMAT_SVG,
  FORMAT_FOLDED,
} Format;

/* One side: the words of its --a or --b, parsed by the `stats` parser. */
typedef struct
{
  char             *text;
  SmprofCliOptions  parsed;
  gboolean          has_parsed;
  char             *node_override;   /* --a-node, --b-node */
} Side;

typedef struct
{
  SmprofCliOptions         source;   /* only SOURCE and the S3 options */
  Side                     sides[2];
  char                    *both_nodes; /* --node */
  SmprofDiffNormalize      normalize;
  Format                   format;
  char                    *output;
  char                    *title;
  SmprofDiffExportOptions  export;
  SmprofJob               *job;
  SmprofProfiler           profiler;
  guint                    n_problems_shown;
} Diff;

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->text, g_free);
  g_clear_pointer (&side->node_override, g_free);
  if (side->has_parsed)
    smprof_cli_options_clear (&side->parsed);
  side->has_parsed = FALSE;
}

static void
diff_clear (Diff *diff)
{
  smprof_cli_options_clear (&diff->source);
  side_clear (&diff->sides[SMPROF_DIFF_A]);
  side_clear (&diff->sides[SMPROF_DIFF_B]);
  g_clear_pointer (&diff->both_nodes, g_free);
  g_clear_pointer (&diff->output, g_free);
  g_clear_pointer (&diff->title, g_free);
  g_clear_object (&diff->job);
}

/* ------------------------------------------------------------------ parsing */

/**
 * smprof_cli_diff_parse_selection:
 * @option: the option that gave @text, for the messages
 * @text: one side's selection, as one argument
 * @parsed: (out caller-allocates): the selection; clear it with
 *   smprof_cli_options_clear() whatever this returns
 * @error: a location for a #GError, or %NULL
 *
 * A SELECTION is read by the parser of `smprof stats`, so both take the same
 * words and give the same messages; only a selection and --node may be in it.
 * `smprof report` reads its --compare-a and --compare-b with it too.
 *
 * Returns: %FALSE on a usage error
 */
gboolean
smprof_cli_diff_parse_selection (const char        *option,
                                 const char        *text,
                                 SmprofCliOptions  *parsed,
                                 GError           **error)
{
  g_auto(GStrv) words = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) local_error = NULL;
  gboolean show_help = FALSE;
  int n_words;

  memset (parsed, 0, sizeof *parsed);
  if (!g_shell_parse_argv (text, &n_words, &words, &local_error))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: “%s” is not a selection (%s); write it as the options of smprof stats, "
                     "such as \"--step 3 --end-step 5\""),
                   option, text, local_error->message);
      return FALSE;
    }

  g_ptr_array_add (argv, (char *) "smprof");
  g_ptr_array_add (argv, (char *) "stats");
  g_ptr_array_add (argv, (char *) "SOURCE");
  for (int i = 0; i < n_words; i++)
    {
      if (!g_str_has_prefix (words[i], "-"))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%s: unexpected “%s” in “%s”; a selection is options only, such as \"--step 3\""),
                       option, words[i], text);
          return FALSE;
        }
      g_ptr_array_add (argv, words[i]);
      /* Values follow their option: let the parser take them. */
      while (i + 1 < n_words && !g_str_has_prefix (words[i + 1], "--"))
        g_ptr_array_add (argv, words[++i]);
    }

  if (!smprof_cli_options_parse (parsed, argv->len, (char **) argv->pdata, &show_help, &local_error))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s “%s”: %s"), option, text, local_error->message);
      return FALSE;
    }

  if (show_help || parsed->json || parsed->has_sort || parsed->limit >= 0 ||
      parsed->has_profiler || parsed->refresh || parsed->no_sign_request ||
      parsed->no_cache || parsed->concurrency != 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s “%s”: only selection options and --node go inside a selection"),
                   option, text);
      return FALSE;
    }

  if (parsed->select_kind != SMPROF_CLI_SELECT_ONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s “%s”: a side is one selection; --training-phase and --job-phase give several "
                     "(use --between-modes, --pre-step-zero, ... instead)"),
                   option, text);
      return FALSE;
    }

  return TRUE;
}

static gboolean
parse_option (Diff        *diff,
              const char  *option,
              const char  *value,
              GError     **error)
{
  double number;

  if (strcmp (option, "--a") == 0 || strcmp (option, "--b") == 0)
    {
      Side *side = &diff->sides[option[2] == 'a' ? SMPROF_DIFF_A : SMPROF_DIFF_B];

      g_free (side->text);
      side->text = g_strdup (value);
    }
  else if (strcmp (option, "--a-node") == 0 || strcmp (option, "--b-node") == 0)
    {
      Side *side = &diff->sides[option[2] == 'a' ? SMPROF_DIFF_A : SMPROF_DIFF_B];

      g_free (side->node_override);
      side->node_override = g_strdup (value);
    }
  else if (strcmp (option, "--node") == 0)
    {
      g_free (diff->both_nodes);
      diff->both_nodes = g_strdup (value);
    }
  else if (strcmp (option, "--profiler") == 0)
    {
      if (!smprof_profiler_from_string (value, &diff->source.profiler))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--profiler is cprofile or pyinstrument, not “%s”"), value);
          return FALSE;
        }
      diff->source.has_profiler = TRUE;
    }
  else if (strcmp (option, "--normalize") == 0)
    {
      if (!smprof_diff_normalize_from_string (value, &diff->normalize))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--normalize is auto, none, step or interval, not “%s”"), value);
          return FALSE;
        }
    }
  else if (strcmp (option, "--format") == 0)
    {
      static const char *const names[] = { "table", "json", "svg", "folded" };
      gboolean found = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_ascii_strcasecmp (value, names[i]) == 0)
          {
            diff->format = i;
            found = TRUE;
          }
      if (!found)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--format is table, json, svg or folded, not “%s”"), value);
          return FALSE;
        }
    }
  else if (strcmp (option, "--output") == 0 || strcmp (option, "-o") == 0)
    {
      g_free (diff->output);
      diff->output = g_strdup (value);
    }
  else if (strcmp (option, "--min-delta") == 0)
    return smprof_cli_parse_double (option, value, 0, G_MAXDOUBLE, FALSE, &diff->export.min_delta, error);
  else if (strcmp (option, "--metric") == 0)
    {
      if (!smprof_diff_metric_from_string (value, &diff->export.metric))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--metric is tottime, cumtime or ncalls, not “%s”"), value);
          return FALSE;
        }
    }
  else if (strcmp (option, "--sort") == 0)
    {
      if (!smprof_diff_column_from_string (value, &diff->export.sort))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--sort is absdelta, delta, ratio, a, b or function, not “%s”"), value);
          return FALSE;
        }
    }
  else if (strcmp (option, "--limit") == 0)
    {
      if (!smprof_cli_parse_double (option, value, 0, G_MAXINT, FALSE, &number, error) || number != floor (number))
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("%s takes a whole number, not “%s”"), option, value);
          return FALSE;
        }
      diff->export.limit = (int) number;
    }
  else if (strcmp (option, "--title") == 0)
    {
      g_free (diff->title);
      diff->title = g_strdup (value);
      diff->export.title = diff->title;
    }
  else if (strcmp (option, "--width") == 0)
    return smprof_cli_parse_double (option, value, 100, 16384, FALSE, &diff->export.width, error);
  else if (strcmp (option, "--min-width") == 0)
    return smprof_cli_parse_double (option, value, 0, 16384, FALSE, &diff->export.min_frame_width, error);
  else if (strcmp (option, "--direction") == 0)
    {
      if (strcmp (value, "up") == 0)
        diff->export.direction = SMPROF_FLAME_DIRECTION_UP;
      else if (strcmp (value, "down") == 0)
        diff->export.direction = SMPROF_FLAME_DIRECTION_DOWN;
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--direction is up (a flame graph) or down (an icicle graph), not “%s”"), value);
          return FALSE;
        }
    }
  else if (strcmp (option, "--concurrency") == 0)
    {
      if (!smprof_cli_parse_double (option, value, 1, 64, FALSE, &number, error))
        return FALSE;
      diff->source.concurrency = (guint) number;
    }
  else
    g_assert_not_reached ();

  return TRUE;
}

static gboolean
parse_command_line (Diff        *diff,
                    int          argc,
                    char       **argv,
                    gboolean    *show_help,
                    GError     **error)
{
  static const char *const with_value[] = {
    "--a", "--b", "--a-node", "--b-node", "--node", "--profiler", "--normalize", "--format", "--output", "-o",
    "--min-delta", "--metric", "--sort", "--limit", "--title", "--width", "--min-width", "--direction",
    "--concurrency",
  };

  for (int i = 2; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *equals = g_str_has_prefix (arg, "--") ? strchr (arg, '=') : NULL;
      g_autofree char *option = equals ? g_strndup (arg, equals - arg) : g_strdup (arg);
      gboolean known = FALSE;

      if (strcmp (option, "--help") == 0 || strcmp (option, "-h") == 0)
        {
          *show_help = TRUE;
          return TRUE;
        }

      if (strcmp (option, "--refresh") == 0 || strcmp (option, "--no-sign-request") == 0 ||
          strcmp (option, "--no-cache") == 0)
        {
          if (equals != NULL)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s takes no value"), option);
              return FALSE;
            }
          if (option[2] == 'r')
            diff->source.refresh = TRUE;
          else if (strcmp (option, "--no-cache") == 0)
            diff->source.no_cache = TRUE;
          else
            diff->source.no_sign_request = TRUE;
          continue;
        }

      for (guint k = 0; k < G_N_ELEMENTS (with_value); k++)
        known |= strcmp (option, with_value[k]) == 0;

      if (known)
        {
          SmprofCliCursor cursor = { argc, argv, i, equals ? equals + 1 : NULL };
          const char *value = NULL;

          if (!smprof_cli_take_value (&cursor, option, &value, error) ||
              !parse_option (diff, option, value, error))
            return FALSE;
          i = cursor.index;
        }
      else if (g_str_has_prefix (arg, "-"))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                       _("unknown option “%s” (a selection's options go inside --a \"...\" and --b \"...\")"),
                       option);
          return FALSE;
        }
      else if (diff->source.source == NULL)
        diff->source.source = g_strdup (arg);
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("unexpected argument “%s”: one SOURCE only"), arg);
          return FALSE;
        }
    }

  if (diff->source.source == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("no SOURCE given"));
      return FALSE;
    }

  for (SmprofDiffSide s = SMPROF_DIFF_A; s <= SMPROF_DIFF_B; s++)
    {
      const char *option = s == SMPROF_DIFF_A ? "--a" : "--b";

      if (diff->sides[s].text == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("diff needs %s SELECTION, such as %s \"--step 5\""), option, option);
          return FALSE;
        }
      diff->sides[s].has_parsed = TRUE;
      if (!smprof_cli_diff_parse_selection (option, diff->sides[s].text, &diff->sides[s].parsed, error))
        return FALSE;
    }

  if (diff->format != FORMAT_TABLE && diff->output == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           _("--format json, svg and folded need -o FILE (-o - for standard output)"));
      return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------ running */

static void
show_problems_since (SmprofJob *job,
                     guint     *n_shown)
{
  g_autoptr(GPtrArray) problems = smprof_job_dup_problems (job);
  SmprofSource *source = smprof_job_get_source (job);

  for (guint i = *n_shown; i < problems->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *location = smprof_source_dup_file_location (source, problem->path);

      g_printerr (_("smprof: warning: %s: %s\n"), smprof_cli_shown (location), smprof_cli_shown (problem->message));
    }

  *n_shown = problems->len;
}

static void
show_new_problems (Diff *diff)
{
  show_problems_since (diff->job, &diff->n_problems_shown);
}

/* The nodes of a side: @text (--a-node, or --node when the selection names
 * none) else --node inside its selection, else smdebug's "any". */
static char **
resolve_nodes (SmprofJob              *job,
               SmprofProfiler          profiler,
               SmprofDiffSide          s,
               const SmprofCliOptions *parsed,
               const char             *text,
               GPtrArray              *records,
               int                    *status)
{
  g_auto(GStrv) list = NULL;
  SmprofNodeChoice choice = parsed->nodes;
  g_auto(GStrv) known = smprof_job_dup_node_ids (job, profiler);
  char **node_ids;

  if (text != NULL)
    {
      if (strcmp (text, "all") == 0)
        choice.kind = SMPROF_NODES_ALL;
      else if (strcmp (text, "any") == 0)
        choice.kind = SMPROF_NODES_ANY;
      else
        {
          list = g_strsplit (text, ",", 0);
          choice.kind = SMPROF_NODES_LIST;
          choice.ids = (const char * const *) list;
        }
    }

  node_ids = smprof_node_choice_resolve (&choice, records);
  if (choice.kind == SMPROF_NODES_LIST)
    for (guint i = 0; node_ids[i] != NULL; i++)
      if (!g_strv_contains ((const char * const *) known, node_ids[i]))
        {
          g_autofree char *all = smprof_cli_dup_shown_list ((const char * const *) known);

          g_printerr (_("smprof: selection %s: no node “%s” in this job (nodes: %s)\n"),
                      s == SMPROF_DIFF_A ? "A" : "B", smprof_cli_shown (node_ids[i]), all);
          g_strfreev (node_ids);
          *status = EXIT_NOTHING_SELECTED;
          return NULL;
        }

  return node_ids;
}

/**
 * smprof_cli_diff_load_side:
 * @job: the loaded job
 * @profiler: the profiler compared
 * @records: @job's records of @profiler
 * @s: which side, for the messages
 * @parsed: the side's selection, from smprof_cli_diff_parse_selection()
 * @nodes: (nullable): the nodes given outside the selection, as --node takes them
 * @n_problems_shown: (inout): the job's problems already on stderr
 * @status: (out): the exit status when this returns %NULL
 *
 * Selects, reads and aggregates one side, saying on stderr what went wrong.
 *
 * Returns: (transfer full) (nullable): the side's profile
 */
SmprofProfile *
smprof_cli_diff_load_side (SmprofJob              *job,
                           SmprofProfiler          profiler,
                           GPtrArray              *records,
                           SmprofDiffSide          s,
                           const SmprofCliOptions *parsed,
                           const char             *nodes,
                           guint                  *n_problems_shown,
                           int                    *status)
{
  const SmprofSelection *selection = &parsed->selection;
  const char *name = s == SMPROF_DIFF_A ? "A" : "B";
  g_auto(GStrv) node_ids = resolve_nodes (job, profiler, s, parsed, nodes, records, status);
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;

  if (node_ids == NULL)
    return NULL;

  selected = smprof_select (records, (const char * const *) node_ids, selection);
  if (selected->len == 0)
    {
      g_autofree char *what = smprof_selection_describe (selection);

      g_printerr (_("smprof: selection %s: no stats were found for the requested interval (%s)\n"), name, what);
      *status = EXIT_NOTHING_SELECTED;
      return NULL;
    }

  smprof_job_load_stats (job, selected, NULL, NULL);
  show_problems_since (job, n_problems_shown);
  loaded = smprof_aggregate_loaded (selected);
  if (loaded->len == 0)
    {
      g_printerr (_("smprof: selection %s: none of the %u selected intervals could be read\n"), name, selected->len);
      *status = EXIT_NOTHING_SELECTED;
      return NULL;
    }

  return smprof_profile_new (job, profiler, (const char * const *) node_ids, loaded);
}

static SmprofProfile *
profile_side (Diff            *diff,
              SmprofDiffSide   s,
              GPtrArray       *records,
              int             *status)
{
  Side *side = &diff->sides[s];
  const char *nodes = side->node_override != NULL ? side->node_override
                      : side->parsed.nodes.kind != SMPROF_NODES_ANY ? NULL
                      : diff->both_nodes;

  return smprof_cli_diff_load_side (diff->job, diff->profiler, records, s, &side->parsed, nodes,
                                    &diff->n_problems_shown, status);
}

/* Seconds, or calls, with a sign when asked, in a fixed width. */
static void
format_value (char             *buffer,
              gsize             size,
              double            value,
              SmprofDiffMetric  metric,
              gboolean          sign)
{
  if (value < 0 && metric == SMPROF_DIFF_METRIC_NCALLS && !sign)
    g_strlcpy (buffer, "-", size);
  else if (metric == SMPROF_DIFF_METRIC_NCALLS)
    g_snprintf (buffer, size, sign ? "%+.2f" : "%.2f", value);
  else
    g_snprintf (buffer, size, sign ? "%+.6f" : "%.6f", value);
}

static void
format_ratio (char                *buffer,
              gsize                size,
              const SmprofDiffRow *row,
              const double         v[2])
{
  double ratio = smprof_diff_ratio (v[SMPROF_DIFF_A], v[SMPROF_DIFF_B]);

  if (row->sides == SMPROF_DIFF_IN_B)
    g_strlcpy (buffer, _("new"), size);
  else if (row->sides == SMPROF_DIFF_IN_A)
    g_strlcpy (buffer, _("gone"), size);
  else if (isnan (ratio))
    g_strlcpy (buffer, "-", size);
  else if (isinf (ratio))
    g_strlcpy (buffer, ratio > 0 ? "inf" : "-inf", size);
  else
    g_snprintf (buffer, size, "%.2fx", ratio);
}

static void
print_side (FILE            *stream,
            SmprofDiff      *result,
            SmprofDiffSide   s,
            const char      *what)
{
  SmprofProfile *profile = smprof_diff_get_profile (result, s);
  g_autofree char *nodes = smprof_cli_dup_shown_list (smprof_profile_get_node_ids (profile));

  fprintf (stream, "%s: %s · ", s == SMPROF_DIFF_A ? "A" : "B", smprof_cli_shown (what));
  smprof_cli_fputs_free (stream, g_strdup_printf (ngettext ("node %s", "nodes %s", g_strv_length ((char **) smprof_profile_get_node_ids (profile))),
           nodes));
  fprintf (stream, " · ");
  smprof_cli_fputs_free (stream, smprof_diff_dup_side_counts (result, s));
  fprintf (stream, "\n");
}

static void
print_table (FILE       *stream,
             Diff       *diff,
             SmprofDiff *result)
{
  const SmprofDiffExportOptions *options = &diff->export;
  SmprofFunctionKeys            *table = smprof_diff_get_function_keys (result);
  g_autoptr(GArray) order = smprof_diff_sorted (result, options->metric, options->sort);
  int limit = options->limit >= 0 ? options->limit : 30;
  double ta = smprof_diff_get_total_time (result, SMPROF_DIFF_A);
  double tb = smprof_diff_get_total_time (result, SMPROF_DIFF_B);
  char a[32], b[32], delta[32], ratio[32];
  int shown = 0;

  print_side (stream, result, SMPROF_DIFF_A, options->a_label);
  print_side (stream, result, SMPROF_DIFF_B, options->b_label);
  if (smprof_diff_get_requested_normalize (result) == SMPROF_DIFF_NORMALIZE_AUTO)
    fprintf (stream, smprof_diff_get_normalize (result) == SMPROF_DIFF_NORMALIZE_STEP
             ? _("--normalize auto: A and B cover different numbers of steps (%u, %u).\n")
             : _("--normalize auto: A and B cover as many steps (%u, %u), or one none.\n"),
             smprof_diff_get_n_steps (result, SMPROF_DIFF_A), smprof_diff_get_n_steps (result, SMPROF_DIFF_B));
  switch (smprof_diff_get_normalize (result))
    {
    case SMPROF_DIFF_NORMALIZE_STEP:
      fprintf (stream, _("Normalised per step: A ÷ %g, B ÷ %g\n"),
               smprof_diff_get_divisor (result, SMPROF_DIFF_A), smprof_diff_get_divisor (result, SMPROF_DIFF_B));
      break;
    case SMPROF_DIFF_NORMALIZE_INTERVAL:
      fprintf (stream, _("Normalised per interval: A ÷ %g, B ÷ %g\n"),
               smprof_diff_get_divisor (result, SMPROF_DIFF_A), smprof_diff_get_divisor (result, SMPROF_DIFF_B));
      break;
    case SMPROF_DIFF_NORMALIZE_AUTO: /* resolved by smprof_diff_new() */
    case SMPROF_DIFF_NORMALIZE_NONE:
    default:
      fprintf (stream, "%s\n", _("Raw totals (not normalised)"));
      break;
    }
  fprintf (stream, _("Total time: A %.6f s, B %.6f s, B - A %+.6f s\n\n"), ta, tb, tb - ta);

  fprintf (stream, "%14s %14s %14s %9s  %s (%s)\n", "A", "B", "B - A", "B / A", _("function"),
           smprof_diff_metric_to_string (options->metric));

  for (guint i = 0; i < order->len && shown < limit; i++)
    {
      const SmprofDiffRow *row = smprof_diff_get_row (result, g_array_index (order, guint, i));
      g_autofree char *label = NULL;
      double v[2];

      if (!smprof_diff_row_passes (row, options->min_delta))
        continue;

      smprof_diff_row_get (row, options->metric, v);
      format_value (a, sizeof a, v[SMPROF_DIFF_A], options->metric, FALSE);
      format_value (b, sizeof b, v[SMPROF_DIFF_B], options->metric, FALSE);
      if (v[SMPROF_DIFF_A] < 0 || v[SMPROF_DIFF_B] < 0)
        g_strlcpy (delta, "-", sizeof delta);
      else
        format_value (delta, sizeof delta, v[SMPROF_DIFF_B] - v[SMPROF_DIFF_A], options->metric, TRUE);
      format_ratio (ratio, sizeof ratio, row, v);
      label = smprof_function_keys_dup_label (table, row->func);
      fprintf (stream, "%14s %14s %14s %9s  %s\n", a, b, delta, ratio, smprof_cli_shown (label));
      shown++;
    }
}

static gboolean
write_output (Diff        *diff,
              SmprofDiff  *result,
              GError     **error)
{
  g_autoptr(GOutputStream) stream = NULL;
  g_autoptr(GFile) file = NULL;
  gboolean to_stdout = strcmp (diff->output, "-") == 0;
  gboolean ok;

  if (to_stdout)
    stream = g_memory_output_stream_new_resizable ();
  else
    {
      file = g_file_new_for_commandline_arg (diff->output);
      stream = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error));
      if (stream == NULL)
        return FALSE;
    }

  switch (diff->format)
    {
    case FORMAT_JSON:
      ok = smprof_diff_write_json (result, &diff->export, stream, NULL, error);
      break;
    case FORMAT_FOLDED:
      ok = smprof_diff_write_folded (result, stream, NULL, error);
      break;
    case FORMAT_SVG:
      ok = smprof_diff_write_svg (result, &diff->export, stream, NULL, error);
      break;
    case FORMAT_TABLE:
    default:
      g_assert_not_reached ();
    }

  if (!ok || !g_output_stream_close (stream, NULL, error))
    return FALSE;

  return !to_stdout || smprof_cli_write_to_stdout (G_MEMORY_OUTPUT_STREAM (stream), error);
}

static int
run (Diff *diff)
{
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofProfile) a = NULL;
  g_autoptr(SmprofProfile) b = NULL;
  g_autoptr(SmprofDiff) result = NULL;
  g_autofree char *a_label = smprof_selection_describe (&diff->sides[SMPROF_DIFF_A].parsed.selection);
  g_autofree char *b_label = smprof_selection_describe (&diff->sides[SMPROF_DIFF_B].parsed.selection);
  GPtrArray *records;
  int status = EXIT_OK;

  source = smprof_cli_open_source (&diff->source, &error);
  if (source != NULL)
    {
      diff->job = smprof_cli_new_job (&diff->source, source);
      if (!smprof_job_load (diff->job, NULL, &error))
        g_clear_object (&diff->job);
    }
  if (diff->job == NULL)
    {
      g_printerr ("smprof: %s\n", smprof_cli_shown (error->message));
      return EXIT_SOURCE;
    }
  show_new_problems (diff);

  if (diff->source.has_profiler)
    diff->profiler = diff->source.profiler;
  else
    diff->profiler = smprof_job_has_profiler (diff->job, SMPROF_PROFILER_CPROFILE) ||
                     !smprof_job_has_profiler (diff->job, SMPROF_PROFILER_PYINSTRUMENT)
                     ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT;

  records = smprof_job_get_records (diff->job, diff->profiler);
  if (records->len == 0)
    {
      g_printerr (_("smprof: this job has no %s intervals\n"), smprof_profiler_to_string (diff->profiler));
      return EXIT_NOTHING_SELECTED;
    }

  if ((a = profile_side (diff, SMPROF_DIFF_A, records, &status)) == NULL ||
      (b = profile_side (diff, SMPROF_DIFF_B, records, &status)) == NULL)
    return status;

  result = smprof_diff_new (a, b, diff->normalize, &error);
  if (result == NULL)
    {
      g_printerr ("smprof: %s\n", error->message);
      return EXIT_USAGE;
    }

  /* A picture says a time range by its steps and modes, not by seconds since
   * the epoch: the core does, given no words. */
  diff->export.a_label = diff->format == FORMAT_SVG && smprof_cli_selection_is_time (
                           &diff->sides[SMPROF_DIFF_A].parsed.selection) ? NULL : a_label;
  diff->export.b_label = diff->format == FORMAT_SVG && smprof_cli_selection_is_time (
                           &diff->sides[SMPROF_DIFF_B].parsed.selection) ? NULL : b_label;

  if (diff->format == FORMAT_TABLE && (diff->output == NULL || strcmp (diff->output, "-") == 0))
    print_table (stdout, diff, result);
  else if (diff->format == FORMAT_TABLE)
    {
      FILE *stream = fopen (diff->output, "w");

      if (stream == NULL)
        {
          g_printerr ("smprof: %s: %s\n", diff->output, g_strerror (errno));
          return EXIT_WRITE;
        }
      print_table (stream, diff, result);
      if (fclose (stream) != 0)
        {
          g_printerr ("smprof: %s: %s\n", diff->output, g_strerror (errno));
          return EXIT_WRITE;
        }
    }
  else if (!write_output (diff, result, &error))
    {
      g_printerr ("smprof: %s: %s\n", diff->output, error->message);
      return EXIT_WRITE;
    }

  return EXIT_OK;
}

/**
 * smprof_cli_diff_main:
 * @argc: the argument count
 * @argv: the arguments: the program, "diff", then the diff's own
 *
 * Returns: the exit status
 */
int
smprof_cli_diff_main (int    argc,
                      char **argv)
{
  g_autoptr(GError) error = NULL;
  gboolean show_help = FALSE;
  Diff diff = { 0 };
  int status;

  diff.source.nodes.kind = SMPROF_NODES_ANY;
  diff.source.limit = -1;
  diff.normalize = SMPROF_DIFF_NORMALIZE_AUTO;
  smprof_diff_export_options_init (&diff.export);

  if (!parse_command_line (&diff, argc, argv, &show_help, &error))
    {
      g_printerr ("smprof: %s\n\n", error->message);
      smprof_cli_help_print_usage (stderr, "diff");
      diff_clear (&diff);
      return EXIT_USAGE;
    }

  if (show_help)
    {
      smprof_cli_help_print (stdout, "diff");
      diff_clear (&diff);
      return EXIT_OK;
    }

  status = run (&diff);
  diff_clear (&diff);

  return status;
}
