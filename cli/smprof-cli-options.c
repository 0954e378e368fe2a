/* smprof-cli-options.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "smprof-cli-options.h"
#include "smprof-cli-steps.h"

/* GOptionContext cannot take two values for one option (--time START END,
 * --between-modes A B), so the command line is read by hand. */

void
smprof_cli_options_clear (SmprofCliOptions *options)
{
  g_clear_pointer (&options->source, g_free);
  g_clear_pointer (&options->node_list, g_strfreev);
  g_clear_pointer (&options->output, g_free);
  g_clear_pointer (&options->title, g_free);
  g_clear_pointer (&options->compare[0], g_free);
  g_clear_pointer (&options->compare[1], g_free);
  smprof_cli_transforms_clear (&options->transforms);
}

/**
 * smprof_cli_take_value:
 * @cursor: the argument being read
 * @option: its option name, for the error
 * @value: (out): where to store the value
 * @error: a location for a #GError, or %NULL
 *
 * Takes the value of @option: the one after '=', or else the next argument,
 * which @cursor then stands on.
 *
 * Returns: %FALSE, with @error set, when there is none
 */
gboolean
smprof_cli_take_value (SmprofCliCursor  *cursor,
                       const char       *option,
                       const char      **value,
                       GError          **error)
{
  if (cursor->inline_value != NULL)
    {
      *value = cursor->inline_value;
      cursor->inline_value = NULL;
      return TRUE;
    }

  if (cursor->index + 1 >= cursor->argc)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s needs a value"), option);
      return FALSE;
    }

  *value = cursor->argv[++cursor->index];
  return TRUE;
}

static gboolean
parse_integer (const char  *option,
               const char  *text,
               gint64       minimum,
               gint64      *value,
               GError     **error)
{
  if (!g_ascii_string_to_signed (text, 10, minimum, G_MAXINT64 - 1, value, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s takes a whole number, not “%s”"), option, text);
      return FALSE;
    }

  return TRUE;
}

static gboolean
parse_seconds (const char  *option,
               const char  *text,
               double      *value,
               GError     **error)
{
  char *end = NULL;

  *value = g_ascii_strtod (text, &end);
  if (*text == '\0' || end == NULL || *end != '\0' || !isfinite (*value))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s takes seconds since the epoch, not “%s”"), option, text);
      return FALSE;
    }

  return TRUE;
}

static gboolean
parse_mode (const char  *option,
            const char  *text,
            SmprofMode  *mode,
            GError     **error)
{
  if (!smprof_mode_from_string (text, mode))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: “%s” is not a mode (train, eval, predict, global, prestepzero, posthookclose)"),
                   option, text);
      return FALSE;
    }

  return TRUE;
}

static gboolean
parse_phase (const char   *option,
             const char   *text,
             SmprofPhase  *phase,
             GError      **error)
{
  if (!smprof_phase_from_string (text, phase))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: “%s” is not a phase (start, stepstart, forwardpassend, stepend, end)"),
                   option, text);
      return FALSE;
    }

  return TRUE;
}

static gboolean
set_selection (SmprofCliOptions     *options,
               SmprofCliSelectKind   kind,
               SmprofSelectionKind   selection_kind,
               const char           *option,
               GError              **error)
{
  if (options->select_kind != SMPROF_CLI_SELECT_NONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   _("%s: only one selection at a time"), option);
      return FALSE;
    }

  options->select_kind = kind;
  if (selection_kind == SMPROF_SELECT_STEP)
    smprof_selection_init_step (&options->selection, 0);
  else
    options->selection.kind = selection_kind;

  return TRUE;
}

/**
 * smprof_cli_parse_double:
 * @option: the option, for the error
 * @text: its value
 * @minimum: the smallest value allowed
 * @maximum: the largest value allowed
 * @pixels: whether the error speaks of pixels rather than a number
 * @value: (out): where to store the number
 * @error: a location for a #GError, or %NULL
 *
 * Returns: %FALSE, with @error set, unless @text is a whole decimal number
 *   from @minimum to @maximum
 */
gboolean
smprof_cli_parse_double (const char  *option,
                         const char  *text,
                         double       minimum,
                         double       maximum,
                         gboolean     pixels,
                         double      *value,
                         GError     **error)
{
  char *end = NULL;

  *value = g_ascii_strtod (text, &end);
  if (*text == '\0' || end == NULL || *end != '\0' || !(*value >= minimum && *value <= maximum))
    {
      if (pixels)
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("%s takes pixels from %g to %g, not “%s”"), option, minimum, maximum, text);
      else
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("%s takes a number from %g to %g, not “%s”"), option, minimum, maximum, text);
      return FALSE;
    }

  return TRUE;
}

/* The options only `export` takes. */
static gboolean
parse_export_option (SmprofCliOptions  *options,
                     const char        *option,
                     const char        *value,
                     GError           **error)
{
  if (strcmp (option, "--format") == 0)
    {
      if (!smprof_export_format_from_string (value, &options->format))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--format is svg, png, pdf, folded, speedscope, pstats, csv, json or syscap, not “%s”"),
                       value);
          return FALSE;
        }
      options->has_format = TRUE;
    }
  else if (strcmp (option, "--output") == 0 || strcmp (option, "-o") == 0)
    {
      g_free (options->output);
      options->output = g_strdup (value);
    }
  else if (strcmp (option, "--direction") == 0)
    {
      if (strcmp (value, "up") == 0)
        options->export.direction = SMPROF_FLAME_DIRECTION_UP;
      else if (strcmp (value, "down") == 0)
        options->export.direction = SMPROF_FLAME_DIRECTION_DOWN;
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--direction is up (a flame graph) or down (an icicle graph), not “%s”"), value);
          return FALSE;
        }
    }
  else if (strcmp (option, "--width") == 0)
    return smprof_cli_parse_double (option, value, 100, 16384, TRUE, &options->export.width, error);
  else if (strcmp (option, "--min-width") == 0)
    return smprof_cli_parse_double (option, value, 0, 16384, TRUE, &options->export.min_frame_width, error);
  else if (strcmp (option, "--colors") == 0)
    {
      if (!smprof_flame_palette_from_string (value, &options->export.palette))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--colors is default, module or colorblind, not “%s”"), value);
          return FALSE;
        }
    }
  else if (strcmp (option, "--title") == 0)
    {
      g_free (options->title);
      options->title = g_strdup (value);
      options->export.title = options->title;
    }

  return TRUE;
}

static gboolean
is_export_option (const char *option)
{
  static const char *const names[] = {
    "--format", "--output", "-o", "--direction", "--width", "--min-width", "--title", "--colors",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (option, names[i]) == 0)
      return TRUE;

  return FALSE;
}

/* The options only `report` takes; its comparison is read at run time. */
static gboolean
parse_report_option (SmprofCliOptions  *options,
                     SmprofCliCursor   *cursor,
                     const char        *option,
                     GError           **error)
{
  const char *value = NULL;

  if (options->command != SMPROF_CLI_REPORT)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("%s goes with report"), option);
      return FALSE;
    }

  if (strcmp (option, "--html") == 0)
    {
      options->html = TRUE;
      return TRUE;
    }

  if (!smprof_cli_take_value (cursor, option, &value, error))
    return FALSE;

  if (strcmp (option, "--normalize") == 0)
    {
      if (!smprof_diff_normalize_from_string (value, &options->normalize))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--normalize is auto, none, step or interval, not “%s”"), value);
          return FALSE;
        }
    }
  else
    {
      char **compare = &options->compare[option[strlen (option) - 1] == 'a' ? 0 : 1];

      g_free (*compare);
      *compare = g_strdup (value);
    }

  return TRUE;
}

/* The refinements of --step, kept apart so they may come before it. */
typedef struct
{
  gboolean    end_step;
  gboolean    mode;
  gboolean    start_phase;
  gboolean    end_phase;
  gint64      end_step_value;
  SmprofMode  mode_value;
  SmprofPhase start_phase_value;
  SmprofPhase end_phase_value;
} StepExtras;

static gboolean
parse_option (SmprofCliOptions  *options,
              SmprofCliCursor   *cursor,
              const char        *option,
              StepExtras        *extras,
              gboolean          *show_help,
              GError           **error)
{
  SmprofSelection *selection = &options->selection;
  const char *value = NULL;
  const char *second = NULL;
  gboolean takes_value = FALSE;

  if (strcmp (option, "--help") == 0 || strcmp (option, "-h") == 0)
    {
      *show_help = TRUE;
      return TRUE;
    }

  if (smprof_cli_transforms_is_option (option, &takes_value))
    {
      if (options->command != SMPROF_CLI_STATS && options->command != SMPROF_CLI_EXPORT &&
          options->command != SMPROF_CLI_REPORT)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("%s goes with stats, export or report"), option);
          return FALSE;
        }
      if (takes_value && !smprof_cli_take_value (cursor, option, &value, error))
        return FALSE;
      return smprof_cli_transforms_add (&options->transforms, option, value, error);
    }

  if (smprof_cli_step_rule_is_option (option, &takes_value))
    {
      if (options->command != SMPROF_CLI_STEPS && options->command != SMPROF_CLI_OUTLIERS &&
          options->command != SMPROF_CLI_REPORT)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("%s goes with steps, outliers or report"),
                       option);
          return FALSE;
        }
      if (takes_value && !smprof_cli_take_value (cursor, option, &value, error))
        return FALSE;
      return smprof_cli_step_rule_parse (&options->step_rule, option, value, error);
    }

  if (strcmp (option, "--json") == 0)
    options->json = TRUE;
  else if (strcmp (option, "--profiler") == 0)
    {
      if (!smprof_cli_take_value (cursor, option, &value, error))
        return FALSE;
      if (!smprof_profiler_from_string (value, &options->profiler))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--profiler is cprofile or pyinstrument, not “%s”"), value);
          return FALSE;
        }
      options->has_profiler = TRUE;
    }
  else if (strcmp (option, "--node") == 0)
    {
      if (!smprof_cli_take_value (cursor, option, &value, error))
        return FALSE;
      g_clear_pointer (&options->node_list, g_strfreev);
      if (strcmp (value, "any") == 0)
        options->nodes.kind = SMPROF_NODES_ANY;
      else if (strcmp (value, "all") == 0)
        options->nodes.kind = SMPROF_NODES_ALL;
      else if (*value == '\0')
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                               _("--node needs a node id, any or all"));
          return FALSE;
        }
      else
        {
          options->nodes.kind = SMPROF_NODES_LIST;
          options->node_list = g_strsplit (value, ",", 0);
          options->nodes.ids = (const char * const *) options->node_list;
        }
      options->has_nodes = TRUE;
    }
  else if (strcmp (option, "--sort") == 0)
    {
      if (!smprof_cli_take_value (cursor, option, &value, error))
        return FALSE;
      if (!smprof_sort_key_from_string (value, &options->sort))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--sort is tottime, cumtime, ncalls or pcalls, not “%s”"), value);
          return FALSE;
        }
      options->has_sort = TRUE;
    }
  else if (strcmp (option, "--limit") == 0)
    {
      gint64 limit;

      if (!smprof_cli_take_value (cursor, option, &value, error) ||
          !parse_integer (option, value, 0, &limit, error))
        return FALSE;
      options->limit = (int) MIN (limit, G_MAXINT);
    }
  else if (strcmp (option, "--step") == 0)
    {
      gint64 step;

      if (!smprof_cli_take_value (cursor, option, &value, error) ||
          !parse_integer (option, value, G_MININT64, &step, error) ||
          !set_selection (options, SMPROF_CLI_SELECT_ONE, SMPROF_SELECT_STEP, option, error))
        return FALSE;
      selection->start_step = step;
      selection->end_step = step;
    }
  else if (strcmp (option, "--end-step") == 0)
    {
      if (!smprof_cli_take_value (cursor, option, &value, error))
        return FALSE;
      if (strcmp (value, "inf") == 0 || strcmp (value, "*") == 0)
        extras->end_step_value = SMPROF_STEP_INFINITY;
      else if (!parse_integer (option, value, G_MININT64, &extras->end_step_value, error))
        return FALSE;
      extras->end_step = TRUE;
    }
  else if (strcmp (option, "--mode") == 0)
    {
      if (!smprof_cli_take_value (cursor, option, &value, error) ||
          !parse_mode (option, value, &extras->mode_value, error))
        return FALSE;
      extras->mode = TRUE;
    }
  else if (strcmp (option, "--start-phase") == 0)
    {
      if (!smprof_cli_take_value (cursor, option, &value, error) ||
          !parse_phase (option, value, &extras->start_phase_value, error))
        return FALSE;
      extras->start_phase = TRUE;
    }
  else if (strcmp (option, "--end-phase") == 0)
    {
      if (!smprof_cli_take_value (cursor, option, &value, error) ||
          !parse_phase (option, value, &extras->end_phase_value, error))
        return FALSE;
      extras->end_phase = TRUE;
    }
  else if (strcmp (option, "--time") == 0 || strcmp (option, "--between-modes") == 0)
    {
      gboolean is_time = strcmp (option, "--time") == 0;

      if (cursor->inline_value != NULL || cursor->index + 2 >= cursor->argc)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%s needs two values"), option);
          return FALSE;
        }
      value = cursor->argv[++cursor->index];
      second = cursor->argv[++cursor->index];

      if (!set_selection (options, SMPROF_CLI_SELECT_ONE,
                          is_time ? SMPROF_SELECT_TIME : SMPROF_SELECT_BETWEEN_MODES, option, error))
        return FALSE;

      if (is_time)
        {
          double start, end;

          if (!parse_seconds (option, value, &start, error) || !parse_seconds (option, second, &end, error))
            return FALSE;
          /* smdebug multiplies seconds by 1e6 as floats; so do we, for equal bounds */
          selection->start_us = start * 1000000;
          selection->end_us = end * 1000000;
        }
      else if (!parse_mode (option, value, &selection->start_mode, error) ||
               !parse_mode (option, second, &selection->end_mode, error))
        return FALSE;
    }
  else if (strcmp (option, "--refresh") == 0)
    options->refresh = TRUE;
  else if (strcmp (option, "--functions") == 0)
    {
      if (options->command != SMPROF_CLI_STEPS)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("%s goes with steps"), option);
          return FALSE;
        }
      options->functions = TRUE;
    }
  else if (strcmp (option, "--no-sign-request") == 0)
    options->no_sign_request = TRUE;
  else if (strcmp (option, "--no-cache") == 0)
    options->no_cache = TRUE;
  else if (strcmp (option, "--concurrency") == 0)
    {
      gint64 concurrency;

      if (!smprof_cli_take_value (cursor, option, &value, error) ||
          !parse_integer (option, value, 1, &concurrency, error))
        return FALSE;
      if (concurrency > 64)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%s takes 1 to 64 parallel requests, not %s"), option, value);
          return FALSE;
        }
      options->concurrency = (guint) concurrency;
    }
  else if (strcmp (option, "--pre-step-zero") == 0)
    return set_selection (options, SMPROF_CLI_SELECT_ONE, SMPROF_SELECT_PRE_STEP_ZERO, option, error);
  else if (strcmp (option, "--post-hook-close") == 0)
    return set_selection (options, SMPROF_CLI_SELECT_ONE, SMPROF_SELECT_POST_HOOK_CLOSE, option, error);
  else if (strcmp (option, "--all") == 0)
    return set_selection (options, SMPROF_CLI_SELECT_ONE, SMPROF_SELECT_ALL, option, error);
  else if (strcmp (option, "--training-phase") == 0)
    return set_selection (options, SMPROF_CLI_SELECT_TRAINING_PHASE, SMPROF_SELECT_BETWEEN_MODES, option, error);
  else if (strcmp (option, "--job-phase") == 0)
    return set_selection (options, SMPROF_CLI_SELECT_JOB_PHASE, SMPROF_SELECT_TRAINING_LOOP, option, error);
  else if (strcmp (option, "--compare-a") == 0 || strcmp (option, "--compare-b") == 0 ||
           strcmp (option, "--normalize") == 0 || strcmp (option, "--html") == 0)
    return parse_report_option (options, cursor, option, error);
  else if (is_export_option (option))
    {
      gboolean report_output = options->command == SMPROF_CLI_REPORT &&
                               (strcmp (option, "-o") == 0 || strcmp (option, "--output") == 0);

      if (options->command != SMPROF_CLI_EXPORT && !report_output)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("%s goes with export"), option);
          return FALSE;
        }
      return smprof_cli_take_value (cursor, option, &value, error) &&
             parse_export_option (options, option, value, error);
    }
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                   _("unknown option “%s”"), option);
      return FALSE;
    }

  return TRUE;
}

/**
 * smprof_cli_options_parse:
 * @options: (out caller-allocates): where to store what the command line says
 * @argc: the argument count
 * @argv: the arguments, the program name first
 * @show_help: (out): set when --help was asked for
 * @error: a location for a #GError, or %NULL
 *
 * Returns: %FALSE on a usage error
 */
gboolean
smprof_cli_options_parse (SmprofCliOptions  *options,
                          int                argc,
                          char             **argv,
                          gboolean          *show_help,
                          GError           **error)
{
  static const char *commands[] = { "nodes", "list", "stats", "export", "steps", "outliers", "report" };
  SmprofCliCursor cursor = { argc, argv, 2, NULL };
  StepExtras extras = { FALSE };
  gboolean found = FALSE;

  memset (options, 0, sizeof *options);
  options->limit = -1;
  options->nodes.kind = SMPROF_NODES_ANY;
  smprof_export_options_init (&options->export);
  smprof_step_rule_init (&options->step_rule);
  options->normalize = SMPROF_DIFF_NORMALIZE_AUTO;
  *show_help = FALSE;

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      *show_help = argc >= 2;
      if (argc < 2)
        g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("no command given"));
      return argc >= 2;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i]) == 0)
      {
        options->command = i;
        found = TRUE;
      }

  if (!found)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   _("unknown command “%s” (nodes, list, stats, export, steps, outliers, diff or report)"),
                   argv[1]);
      return FALSE;
    }

  for (; cursor.index < argc; cursor.index++)
    {
      const char *arg = argv[cursor.index];

      if (g_str_has_prefix (arg, "--") || strcmp (arg, "-h") == 0 || strcmp (arg, "-o") == 0)
        {
          const char *equals = strchr (arg, '=');
          g_autofree char *option = equals ? g_strndup (arg, equals - arg) : g_strdup (arg);

          cursor.inline_value = equals ? equals + 1 : NULL;
          if (!parse_option (options, &cursor, option, &extras, show_help, error))
            return FALSE;
          if (cursor.inline_value != NULL)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("%s takes no value"), option);
              return FALSE;
            }
          if (*show_help)
            return TRUE;
        }
      else if (options->source == NULL)
        options->source = g_strdup (arg);
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("unexpected argument “%s”: one SOURCE only"), arg);
          return FALSE;
        }
    }

  if (options->source == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("no SOURCE given"));
      return FALSE;
    }

  if ((extras.end_step || extras.mode || extras.start_phase || extras.end_phase) &&
      options->selection.kind != SMPROF_SELECT_STEP)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           _("--end-step, --mode, --start-phase and --end-phase go with --step"));
      return FALSE;
    }

  if (options->selection.kind == SMPROF_SELECT_STEP)
    {
      if (extras.end_step)
        options->selection.end_step = extras.end_step_value;
      if (extras.mode)
        options->selection.mode = extras.mode_value;
      if (extras.start_phase)
        options->selection.start_phase = extras.start_phase_value;
      if (extras.end_phase)
        options->selection.end_phase = extras.end_phase_value;
    }

  if ((options->command == SMPROF_CLI_STATS || options->command == SMPROF_CLI_EXPORT ||
       options->command == SMPROF_CLI_REPORT) &&
      options->select_kind == SMPROF_CLI_SELECT_NONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   _("%s needs a selection, such as --step 5 or --all"), argv[1]);
      return FALSE;
    }

  if (options->command == SMPROF_CLI_EXPORT)
    {
      if (options->select_kind != SMPROF_CLI_SELECT_ONE)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("export writes one selection: --training-phase and --job-phase give several "
                                 "(use --between-modes, --pre-step-zero, ... instead)"));
          return FALSE;
        }
      if (!options->has_format || options->output == NULL)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("export needs --format FORMAT and -o FILE"));
          return FALSE;
        }
      if (options->json || options->has_sort || options->limit >= 0 || options->transforms.tree)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("export takes no --json, --sort, --limit or --tree (--format json writes all "
                                 "functions, and the call tree of a reshaped one)"));
          return FALSE;
        }
      if (options->transforms.invert &&
          (options->format == SMPROF_EXPORT_PSTATS || options->format == SMPROF_EXPORT_CSV ||
           options->format == SMPROF_EXPORT_SYSCAP))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("--invert goes with the call tree's formats (svg, png, pdf, folded, speedscope, json), "
                         "not %s"), smprof_export_format_to_string (options->format));
          return FALSE;
        }
    }

  if (options->command == SMPROF_CLI_REPORT)
    {
      if (options->select_kind != SMPROF_CLI_SELECT_ONE)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("report writes one selection: --training-phase and --job-phase give several "
                                 "(use --between-modes, --pre-step-zero, ... instead)"));
          return FALSE;
        }
      if (options->output == NULL)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("report needs -o OUT"));
          return FALSE;
        }
      if (options->json || options->has_sort || options->limit >= 0 || options->transforms.invert ||
          options->transforms.tree)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("report takes no --json, --sort, --limit, --invert or --tree"));
          return FALSE;
        }
      if ((options->compare[0] == NULL) != (options->compare[1] == NULL))
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("a comparison needs both --compare-a SELECTION and --compare-b SELECTION"));
          return FALSE;
        }
      return TRUE;
    }

  if (options->command == SMPROF_CLI_STEPS || options->command == SMPROF_CLI_OUTLIERS)
    {
      if (options->select_kind == SMPROF_CLI_SELECT_TRAINING_PHASE ||
          options->select_kind == SMPROF_CLI_SELECT_JOB_PHASE || options->has_sort)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("%s takes one selection (not --training-phase or --job-phase) and no --sort"),
                       argv[1]);
          return FALSE;
        }
      if (options->select_kind == SMPROF_CLI_SELECT_NONE)
        {
          options->select_kind = SMPROF_CLI_SELECT_ONE;
          options->selection.kind = SMPROF_SELECT_ALL;
        }
      if (!options->has_nodes)
        options->nodes.kind = SMPROF_NODES_ALL;
      return TRUE;
    }

  if (options->command != SMPROF_CLI_STATS && options->command != SMPROF_CLI_EXPORT &&
      (options->select_kind != SMPROF_CLI_SELECT_NONE || options->has_sort || options->limit >= 0 ||
       options->nodes.kind != SMPROF_NODES_ANY))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   _("%s takes only --profiler and --json"), argv[1]);
      return FALSE;
    }

  return TRUE;
}
