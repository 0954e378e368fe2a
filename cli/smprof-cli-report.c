/* smprof-cli-report.c: `smprof report SOURCE SELECTION [--compare-a SEL --compare-b SEL] -o OUT`
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-cli-diff.h"
#include "smprof-cli-output.h"
#include "smprof-cli-report.h"
#include "smprof-report.h"

/* The exit statuses of smprof.c. */
enum
{
  EXIT_OK = 0,
  EXIT_NOTHING_SELECTED = 1,
  EXIT_USAGE = 2,
  EXIT_WRITE = 4,
};

/* A word as a POSIX shell reads it back: bare when it is plain, else quoted. */
static void
append_shell_word (GString    *out,
                   const char *word)
{
  gboolean plain = *word != '\0';

  for (const char *p = word; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || strchr ("-_./=,:+@%", *p) != NULL;

  if (plain)
    g_string_append (out, word);
  else
    {
      g_autofree char *quoted = g_shell_quote (word);

      g_string_append (out, quoted);
    }
}

/* A path as the command must give it to work from any folder: absolute,
 * unless it is a URI (s3://...). */
static char *
dup_absolute (const char *path)
{
  g_autofree char *cwd = NULL;

  if (strstr (path, "://") != NULL || g_path_is_absolute (path))
    return g_strdup (path);

  cwd = g_get_current_dir ();
  return g_canonicalize_filename (path, cwd);
}

/* The command as given, run as `smprof` rather than by its path, with the
 * source and the output made absolute, so that it writes the same report
 * again from wherever it is run. */
static char *
dup_command_line (const SmprofCliOptions *options,
                  int                     argc,
                  char                  **argv)
{
  GString *out = g_string_new ("smprof");
  gboolean source_done = FALSE;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      g_autofree char *word = NULL;

      if ((strcmp (arg, "-o") == 0 || strcmp (arg, "--output") == 0) && i + 1 < argc)
        {
          g_autofree char *path = dup_absolute (argv[++i]);

          word = g_strdup_printf ("%s", path);
          g_string_append_printf (out, " %s ", arg);
          append_shell_word (out, word);
          continue;
        }
      if (g_str_has_prefix (arg, "--output="))
        {
          g_autofree char *path = dup_absolute (arg + strlen ("--output="));

          word = g_strconcat ("--output=", path, NULL);
        }
      else if (!source_done && i >= 2 && options->source != NULL && strcmp (arg, options->source) == 0)
        {
          word = dup_absolute (arg);
          source_done = TRUE;
        }
      else
        word = g_strdup (arg);

      g_string_append_c (out, ' ');
      append_shell_word (out, word);
    }

  return g_string_free (out, FALSE);
}

/* --node as given outside the comparison, for the sides that name no node. */
static char *
dup_report_nodes (const SmprofCliOptions *options)
{
  if (!options->has_nodes)
    return NULL;

  switch (options->nodes.kind)
    {
    case SMPROF_NODES_ALL:
      return g_strdup ("all");
    case SMPROF_NODES_LIST:
      return g_strjoinv (",", options->node_list);
    case SMPROF_NODES_ANY:
    default:
      return g_strdup ("any");
    }
}

/* The comparison of --compare-a and --compare-b, or NULL with *@status set. */
static SmprofDiff *
make_diff (SmprofJob               *job,
           SmprofProfiler           profiler,
           const SmprofCliOptions  *options,
           guint                   *n_problems_shown,
           char                   **labels,
           int                     *status)
{
  static const char *const names[] = { "--compare-a", "--compare-b" };
  GPtrArray *records = smprof_job_get_records (job, profiler);
  g_autofree char *nodes = dup_report_nodes (options);
  g_autoptr(SmprofProfile) a = NULL;
  g_autoptr(SmprofProfile) b = NULL;
  SmprofProfile **sides[2] = { &a, &b };
  g_autoptr(GError) error = NULL;
  SmprofDiff *diff;

  for (SmprofDiffSide s = SMPROF_DIFF_A; s <= SMPROF_DIFF_B; s++)
    {
      SmprofCliOptions parsed;
      gboolean ok = smprof_cli_diff_parse_selection (names[s], options->compare[s], &parsed, &error);

      if (ok)
        {
          labels[s] = smprof_cli_dup_selection_words (&parsed.selection);
          *sides[s] = smprof_cli_diff_load_side (job, profiler, records, s, &parsed,
                                                parsed.nodes.kind != SMPROF_NODES_ANY ? NULL : nodes,
                                                n_problems_shown, status);
        }
      smprof_cli_options_clear (&parsed);

      if (!ok)
        {
          g_printerr ("smprof: %s\n", error->message);
          *status = EXIT_USAGE;
          return NULL;
        }
      if (*sides[s] == NULL)
        return NULL;
    }

  diff = smprof_diff_new (a, b, options->normalize, &error);
  if (diff == NULL)
    {
      g_printerr ("smprof: %s\n", error->message);
      *status = EXIT_USAGE;
    }

  return diff;
}

/**
 * smprof_cli_report_run:
 * @job: the loaded job
 * @profiler: the profiler reported on
 * @options: the parsed command line
 * @node_ids: the selection's nodes
 * @selected: every interval of the selection
 * @loaded: those that could be read
 * @n_problems_shown: (inout): the job's problems already on stderr
 * @argc: the argument count, for the command line the report records
 * @argv: the arguments
 *
 * Returns: the exit status
 */
int
smprof_cli_report_run (SmprofJob          *job,
                       SmprofProfiler      profiler,
                       SmprofCliOptions   *options,
                       const char * const *node_ids,
                       GPtrArray          *selected,
                       GPtrArray          *loaded,
                       guint              *n_problems_shown,
                       int                 argc,
                       char              **argv)
{
  g_autoptr(SmprofProfile) aggregate = smprof_profile_new (job, profiler, node_ids, loaded);
  g_autoptr(SmprofProfile) profile = NULL;
  g_autoptr(SmprofDiff) diff = NULL;
  g_autoptr(GFile) out = g_file_new_for_commandline_arg (options->output);
  g_autoptr(GError) error = NULL;
  g_autofree char *what = smprof_cli_dup_selection_words (&options->selection);
  g_autofree char *command_line = dup_command_line (options, argc, argv);
  g_autofree char *a_label = NULL;
  g_autofree char *b_label = NULL;
  SmprofReportOptions report;
  int status = EXIT_OK;

  profile = smprof_cli_transforms_apply (&options->transforms, aggregate, &error);
  if (profile == NULL)
    {
      g_printerr ("smprof: %s\n", error->message);
      return EXIT_USAGE;
    }

  if (options->compare[0] != NULL)
    {
      char *labels[2] = { NULL, NULL };

      diff = make_diff (job, profiler, options, n_problems_shown, labels, &status);
      a_label = labels[0];
      b_label = labels[1];
      if (diff == NULL)
        return status;
    }

  smprof_report_options_init (&report);
  report.selection = what;
  report.command_line = command_line;
  report.steps = options->step_rule;
  report.flame.selection = what;
  report.diff.a_label = a_label;
  report.diff.b_label = b_label;

  if (!smprof_report_write (profile, selected, diff, smprof_report_format_for_path (options->output, options->html),
                            &report, out, NULL, &error))
    {
      g_printerr ("smprof: %s: %s\n", options->output, error->message);
      return EXIT_WRITE;
    }

  return EXIT_OK;
}
