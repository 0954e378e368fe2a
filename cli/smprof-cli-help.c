/* smprof-cli-help.c: the command line's help, for --help and the man page
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "smprof-cli-help.h"

/* One bit per command, in the order of the commands table below. */
enum
{
  NODES = 1 << 0,
  LIST = 1 << 1,
  STATS = 1 << 2,
  EXPORT = 1 << 3,
  STEPS = 1 << 4,
  OUTLIERS = 1 << 5,
  DIFF = 1 << 6,
  REPORT = 1 << 7,
  EVERY = 0xff,
};

/* Translators: in the synopses and option values, words in capitals (SOURCE,
 * SELECTION, FILE, ...) are placeholders; the rest is typed as is. */
static const SmprofCliHelpCommand commands[] = {
  { "nodes", N_("SOURCE [--profiler P] [--json]"),
    N_("The node ids of the job, one a line, or as a JSON array."), NULL },
  { "list", N_("SOURCE [--profiler P] [--json]"),
    N_("Every profiled interval, with its node, start, end and duration."),
    N_("With --json, smdebug's twelve list_profile_stats columns per interval.") },
  { "stats", N_("SOURCE [--profiler P] [--node NODES] SELECTION [--json] [--sort KEY] [--limit N] "
                "[TRANSFORMS] [--invert] [--tree]"),
    N_("The functions of a selection, as pstats prints them, or as JSON."),
    N_("The table is pstats' (ncalls tottime percall cumtime percall filename:lineno(function), "
       "ncalls as nc/cc for recursive functions), sorted by cumulative time and cut to 30 rows "
       "unless --sort and --limit say otherwise; a Pyinstrument selection prints its merged "
       "call tree. --json keeps every function, in pstats' merged order unless --sort is "
       "given.") },
  { "export", N_("SOURCE [--profiler P] [--node NODES] SELECTION --format FORMAT -o FILE [--direction up|down] "
                 "[--width PX] [--min-width PX] [--title T] [--colors SCHEME] [TRANSFORMS] [--invert]"),
    N_("One selection as a picture or for another tool."),
    N_("The stack formats and the pictures come from the selection's call tree: Pyinstrument's "
       "sampled tree merged over the intervals, or for cProfile a tree estimated from the call "
       "graph, each function's tottime split among its call paths (the pictures say so).") },
  { "steps", N_("SOURCE [--profiler P] [--node NODES] [SELECTION] [--functions] [--limit N] [--threshold Z] "
                "[--count-teardown] [--json]"),
    N_("The selection summed per node and step, with each step's outlier score."),
    N_("A step is the intervals whose start label is that step in its mode (PyTorch and Keras "
       "write two per step); its time is the profile's total time (cProfile's total of self "
       "times, Pyinstrument's root frame time), its wall time the sum of the intervals' "
       "durations. Intervals that start at no step (before step zero, after the hook closed) "
       "are counted apart, and so by default is an interval that starts at a step and runs "
       "into post-hook-close (the last one when the hook was never closed, which holds the "
       "process's exit), so the steps and the rest add up to stats' total. Every node and "
       "--all unless told.") },
  { "outliers", N_("SOURCE [--profiler P] [--node NODES] [SELECTION] [--threshold Z] [--count-teardown] [--json]"),
    N_("The steps that stand out (outliers and stragglers), with the node's median step to "
       "compare them with, then the straggler nodes alone, each from the largest score down."),
    N_("A step is an outlier when the robust z-score of the logarithm of its time, against its "
       "node's steps of the same mode (the scale pooled over every node and mode), is above 5 "
       "(--threshold); a node is a straggler at a step when its time over the other nodes' there "
       "scores so too. The rule is printed with the results. Every node and --all unless told.") },
  { "diff", N_("SOURCE --a SELECTION --b SELECTION [--a-node NODES] [--b-node NODES] [--node NODES] "
               "[--profiler P] [--normalize auto|none|step|interval] [--format table|json|svg|folded] [-o FILE] "
               "[--min-delta SECONDS] [--metric tottime|cumtime|ncalls] [--sort COLUMN] [--limit N] "
               "[--title T] [--width PX] [--min-width PX] [--direction up|down]"),
    N_("Compares selection B with selection A, function by function."),
    N_("Each SELECTION is one argument holding the selection options of smprof stats, and "
       "optionally --node: --a \"--step 3 --end-step 5\" --b \"--step 12 --end-step 14\", "
       "or --a \"--step 5 --node 0-algo-1\" --b \"--step 5 --node 1-algo-2\". Functions are "
       "matched by file, line and name; a function of one side only has 0 on the other.") },
  { "report", N_("SOURCE [--profiler P] [--node NODES] SELECTION -o OUT [--html] "
                 "[--compare-a SELECTION --compare-b SELECTION] [--normalize auto|none|step|interval] "
                 "[TRANSFORMS] [--threshold Z] [--count-teardown]"),
    N_("Writes a report of the selection that a colleague can read and write again."),
    N_("A folder OUT holding README.md (job, nodes, selection, profiler, version and the "
       "command line that writes the same report, then the top functions, the outlier steps "
       "and the comparison's largest changes), the flame graph, the function table and the "
       "per-step statistics as CSV; or, with --html or an OUT ending in .html, one "
       "self-contained page.") },
};

static const SmprofCliHelpOption selection_options[] = {
  { "--node", N_("ID|any|all|ID,ID..."),
    N_("The node, or the nodes to sum. any is the node whose first interval starts earliest, "
       "as smdebug chooses it (the default, but for steps and outliers: all).") },
  { "--step", N_("START"),
    N_("Steps START to END of one mode, as smdebug's fetch_profile_stats_by_step: the "
       "intervals that start and end in that mode within those steps.") },
  { "--end-step", N_("END"),
    N_("The last step, included (with --step; default START); inf for no upper bound.") },
  { "--mode", N_("M"),
    N_("The mode of the steps (with --step): train (the default), eval, predict, global, "
       "prestepzero, posthookclose, or smdebug's names (TRAIN, PRE_STEP_ZERO, ...).") },
  { "--start-phase", N_("P"),
    N_("The phase step START starts at (with --step): stepstart (the default), "
       "forwardpassend, stepend, start or end (or STEP_START, ...). With forwardpassend or "
       "stepend, an interval of step START that starts at another phase is left out.") },
  { "--end-phase", N_("P"),
    N_("The phase step END ends at (with --step; default stepend). With stepstart, an "
       "interval ending in step END at another phase is left out.") },
  { "--time", N_("START_SECONDS END_SECONDS"),
    N_("The intervals whose start or end lies in that window, in seconds since the epoch "
       "(smdebug's by-time rule: a window inside one interval selects nothing).") },
  { "--between-modes", N_("MODE MODE"),
    N_("The intervals that start in the first mode and end in the second, as smdebug's "
       "fetch_profile_stats_between_modes.") },
  { "--pre-step-zero", NULL, N_("The intervals that start at phase start: before the first step.") },
  { "--post-hook-close", NULL, N_("The intervals that end at phase end: after smdebug's hook closed.") },
  { "--training-phase", NULL, N_("One aggregate per mode pair (stats only, cProfile only).") },
  { "--job-phase", NULL,
    N_("Initialization (intervals starting at phase start), finalization (the others ending at "
       "phase end) and training loop (the rest), three aggregates (stats only, cProfile only).") },
  { "--all", NULL, N_("Every interval.") },
  { NULL }
};

static const SmprofCliHelpOption every_options[] = {
  { "--profiler", N_("cprofile|pyinstrument"),
    N_("Which profiler's files to read; cProfile when the job has it.") },
  { "--no-cache", NULL,
    N_("Parse every stats file again and keep nothing: without it, a local job's parsed cProfile "
       "stats are kept in $XDG_CACHE_HOME/smprof/index and read from there while the files do "
       "not change (also SMPROF_NO_CACHE=1).") },
  { "-h, --help", NULL, N_("Print this help and exit.") },
  { NULL }
};

static const SmprofCliHelpOption nodes_list_options[] = {
  { "--json", NULL, N_("Print JSON instead of text.") },
  { NULL }
};

static const SmprofCliHelpOption stats_options[] = {
  { "--json", NULL,
    N_("Print JSON: for cProfile the totals and every function with its counts, times and "
       "callers; for Pyinstrument the merged tree.") },
  { "--sort", N_("tottime|cumtime|ncalls|pcalls"), N_("Sort the functions by this column.") },
  { "--limit", N_("N"), N_("Print the first N functions only (N tree lines for Pyinstrument).") },
  { "--invert", NULL,
    N_("The bottom-up tree: the functions that spent time themselves at the roots, with their "
       "self time, their callers below.") },
  { "--tree", NULL,
    N_("Add the call tree to --json (a tree member; cProfile's is estimated from the call graph).") },
  { NULL }
};

static const SmprofCliHelpOption export_options[] = {
  { "--format", N_("FORMAT"),
    N_("svg, png or pdf (a flame graph), folded (flamegraph.pl, inferno), speedscope, pstats "
       "(CPython's pstats, snakeviz, tuna), csv (the function table), json (as stats --json) or "
       "syscap (a Sysprof capture).") },
  { "-o, --output", N_("FILE"),
    N_("Where to write; - is standard output. FILE is replaced only once the export has "
       "succeeded.") },
  { "--direction", N_("up|down"), N_("A flame graph (up, the default) or an icicle graph (down).") },
  { "--width", N_("PX"), N_("The picture's width in pixels, 100 to 16384 (1200).") },
  { "--min-width", N_("PX"), N_("Leave out frames narrower than this (0.1).") },
  { "--title", N_("T"), N_("The picture's title (Flame graph).") },
  { "--colors", N_("default|module|colorblind"),
    N_("The flame graph's colours, as the viewer's setting names them: warm hues by package "
       "(default), one hue per file (module), or colours told apart with the common kinds of "
       "colour blindness (colorblind).") },
  { "--invert", NULL,
    N_("The bottom-up tree (svg, png, pdf, folded, speedscope and json): the functions that "
       "spent time themselves at the roots, their callers below.") },
  { NULL }
};

/* TRANSFORMS: FUNC is explained in the man page's TRANSFORMS section. */
static const SmprofCliHelpOption transform_options[] = {
  { "--merge", N_("FUNC"),
    N_("Take FUNC out of every stack: its own time goes to its caller, and what it called to its "
       "caller too. A root has no caller and keeps its own time.") },
  { "--focus", N_("FUNC"),
    N_("Keep only the stacks through FUNC, each from its outermost frame: FUNC is the one root, "
       "all its calls merged; call counts are then unknown (null in JSON).") },
  { "--focus-subtree", N_("PATH"),
    N_("Keep only the frame PATH (functions from a root down, separated by ;) and what it "
       "called, that frame as the root.") },
  { "--collapse-recursion", NULL,
    N_("Fold every function's frames inside one of its own into the outermost (Pyinstrument's "
       "recursive trees; cProfile's estimated tree is folded already).") },
  { "--collapse-recursion-of", N_("FUNC"), N_("The same for FUNC only.") },
  { "--collapse", N_("FILE|PACKAGE"),
    N_("Frames of one source file (its path, or a base name only one file has) or of one "
       "package (the folder under site-packages or dist-packages, or the standard library's "
       "module: torch, json) that call one another become one frame, [FILE] or [PACKAGE].") },
  { "--hide-libraries", NULL,
    N_("Fold the frames of the standard library, of site-packages and dist-packages and of "
       "built-ins into their first user-code caller, as pyinstrument's renderer does; at the top "
       "of a stack, into the outermost of them.") },
  { NULL }
};

static const SmprofCliHelpOption steps_options[] = {
  { "--functions", NULL,
    N_("Add each function's self time per step (steps it ran in, min, median, p95, max; a step "
       "where it did not run counts as 0) for the --limit largest, and the node × function "
       "matrix of the time per step of each node's top 5 functions.") },
  { "--limit", N_("N"), N_("How many functions --functions shows (20).") },
  { "--json", NULL, N_("Print JSON instead of text.") },
  { NULL }
};

static const SmprofCliHelpOption outliers_options[] = {
  { "--json", NULL, N_("Print JSON instead of text.") },
  { NULL }
};

static const SmprofCliHelpOption rule_options[] = {
  { "--threshold", N_("Z"),
    N_("The outlier and straggler threshold, a robust z-score (5; see OUTLIERS in the man "
       "page).") },
  { "--count-teardown", NULL,
    N_("Count an interval that starts at a step and runs into post-hook-close as that step's "
       "time; by default it is counted apart, as the intervals before step zero are.") },
  { NULL }
};

static const SmprofCliHelpOption diff_options[] = {
  { "--a", N_("SELECTION"), N_("Side A, one argument: selection options and optionally --node.") },
  { "--b", N_("SELECTION"), N_("Side B, the same way.") },
  { "--a-node", N_("NODES"), N_("The nodes of side A, outside the quotes (as --node).") },
  { "--b-node", N_("NODES"), N_("The nodes of side B.") },
  { "--node", N_("NODES"), N_("The nodes of both sides.") },
  { "--normalize", N_("auto|none|step|interval"),
    N_("Divide each side's numbers by 1 (none), by the steps its intervals cover (step: distinct "
       "node, mode and step; an interval ending as a step starts does not cover it), or by its "
       "number of intervals (interval). auto, the default: step when A and B cover different "
       "numbers of steps and both some, none otherwise; the answer says which.") },
  { "--format", N_("table|json|svg|folded"),
    N_("table (the default): A, B, B - A and B / A of the functions whose time changed most; "
       "json: both sides, every function and the differential tree; folded: `stack A B` in "
       "microseconds (difffolded.pl's format); svg: a differential flame graph, width from B, "
       "red slower in B, blue faster, grey under --min-delta, frames only in A dashed.") },
  { "-o, --output", N_("FILE"), N_("Where to write (standard output by default).") },
  { "--min-delta", N_("SECONDS"),
    N_("Leave out of the table and the JSON the functions whose self and cumulative times both "
       "changed by less; the SVG greys their frames.") },
  { "--metric", N_("tottime|cumtime|ncalls"), N_("The table's column (tottime).") },
  { "--sort", N_("absdelta|delta|ratio|a|b|function"), N_("The table's order (absdelta).") },
  { "--limit", N_("N"), N_("The table's rows (30).") },
  { "--title", N_("T"), N_("The SVG's title (Differential flame graph).") },
  { "--width", N_("PX"), N_("The SVG's width in pixels (1200).") },
  { "--min-width", N_("PX"), N_("Leave out frames narrower than this (0.1).") },
  { "--direction", N_("up|down"), N_("A flame graph (up, the default) or an icicle graph (down).") },
  { NULL }
};

static const SmprofCliHelpOption report_options[] = {
  { "-o, --output", N_("OUT"), N_("The report's folder (made if needed), or page.") },
  { "--html", NULL, N_("Write one self-contained HTML page: the SVGs inline, the CSVs as data: links.") },
  { "--compare-a", N_("SELECTION"),
    N_("Add a comparison, with --compare-b: each one argument as diff's --a and --b (their nodes "
       "default to --node); it adds a differential flame graph and diff.csv.") },
  { "--compare-b", N_("SELECTION"), N_("The comparison's side B.") },
  { "--normalize", N_("auto|none|step|interval"), N_("The comparison's divisor, as diff's (auto).") },
  { NULL }
};

static const SmprofCliHelpOption s3_options[] = {
  { "--refresh", NULL, N_("List S3 again instead of using the listing cached by an earlier open.") },
  { "--no-sign-request", NULL, N_("Send anonymous requests, for a public bucket.") },
  { "--concurrency", N_("N"), N_("Requests in parallel, 1 to 64 (8, or SMPROF_S3_MAX_CONNECTIONS).") },
  { NULL }
};

static const SmprofCliHelpGroup groups[] = {
  { N_("Options of every command"), EVERY, every_options },
  { N_("Selection (stats, export, steps, outliers, report)"), STATS | EXPORT | STEPS | OUTLIERS | REPORT,
    selection_options },
  { N_("Options of nodes and list"), NODES | LIST, nodes_list_options },
  { N_("Options of stats"), STATS, stats_options },
  { N_("Options of export"), EXPORT, export_options },
  { N_("TRANSFORMS (stats, export, report), applied in the order given"), STATS | EXPORT | REPORT,
    transform_options },
  { N_("Options of steps"), STEPS, steps_options },
  { N_("Options of outliers"), OUTLIERS, outliers_options },
  { N_("The outlier rule (steps, outliers, report)"), STEPS | OUTLIERS | REPORT, rule_options },
  { N_("Options of diff"), DIFF, diff_options },
  { N_("Options of report"), REPORT, report_options },
  { N_("With an s3:// SOURCE"), EVERY, s3_options },
};

static const char *const source_text =
  N_("SOURCE is a job folder (SageMaker's LocalPath, or a downloaded profiler-output/: the "
     "folder that holds framework/), any folder below it down to "
     "framework/<framework>/<profiler>, or the same on S3: "
     "s3://BUCKET/PREFIX/JOB/profiler-output.");

const SmprofCliHelpCommand *
smprof_cli_help_get_commands (guint *n_commands)
{
  *n_commands = G_N_ELEMENTS (commands);
  return commands;
}

const SmprofCliHelpGroup *
smprof_cli_help_get_groups (guint *n_groups)
{
  *n_groups = G_N_ELEMENTS (groups);
  return groups;
}

const char *
smprof_cli_help_get_source (void)
{
  return source_text;
}

/* ------------------------------------------------------------------ printing */

enum { WIDTH = 79 };

/* Whether @word is punctuation French sets after a space (“CSV ;”), which a
 * line must not start with. */
static gboolean
is_spaced_punctuation (const char *word)
{
  return g_str_equal (word, ";") || g_str_equal (word, ":") || g_str_equal (word, "!") ||
         g_str_equal (word, "?") || g_str_equal (word, "»");
}

/* Words separated by spaces, except inside brackets ("[--limit N]" stays
 * whole) and before spaced punctuation. */
static GPtrArray *
split_words (const char *text)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) parts = g_strsplit (text, " ", -1);
  GString *word = NULL;
  int depth = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0')
        continue;
      if (word == NULL)
        word = g_string_new (parts[i]);
      else
        g_string_append_printf (word, " %s", parts[i]);
      for (const char *c = parts[i]; *c != '\0'; c++)
        depth += *c == '[' ? 1 : *c == ']' ? -1 : 0;
      if (depth <= 0)
        {
          if (words->len > 0 && is_spaced_punctuation (word->str))
            {
              char **last = (char **) &g_ptr_array_index (words, words->len - 1);
              char *joined = g_strdup_printf ("%s %s", *last, word->str);

              g_free (*last);
              *last = joined;
              g_string_free (word, TRUE);
            }
          else
            g_ptr_array_add (words, g_string_free (word, FALSE));
          word = NULL;
          depth = 0;
        }
    }
  if (word != NULL)
    g_ptr_array_add (words, g_string_free (word, FALSE));

  return words;
}

/* Prints @text after @first (which takes its own width) and wraps it at WIDTH
 * columns, later lines indented by @indent spaces. Widths count characters,
 * not bytes, for the translations. */
static void
print_wrapped (FILE       *stream,
               const char *first,
               const char *text,
               guint       indent)
{
  g_autoptr(GPtrArray) words = split_words (text);
  glong column = g_utf8_strlen (first, -1);
  gboolean line_empty = TRUE;

  fputs (first, stream);
  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);
      glong length = g_utf8_strlen (word, -1);

      if (!line_empty && column + 1 + length > WIDTH)
        {
          fprintf (stream, "\n%*s", (int) indent, "");
          column = indent;
          line_empty = TRUE;
        }
      if (!line_empty)
        {
          fputc (' ', stream);
          column++;
        }
      fputs (word, stream);
      column += length;
      line_empty = FALSE;
    }
  fputc ('\n', stream);
}

static const SmprofCliHelpCommand *
find_command (const char *name,
              guint      *bit)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_strcmp0 (commands[i].name, name) == 0)
      {
        *bit = 1u << i;
        return &commands[i];
      }

  return NULL;
}

static void
print_synopsis (FILE                       *stream,
                const char                 *first,
                const SmprofCliHelpCommand *command)
{
  g_autofree char *head = g_strdup_printf ("%ssmprof %s ", first, command->name);

  print_wrapped (stream, head, _(command->synopsis), g_utf8_strlen (head, -1));
}

static void
print_option (FILE                      *stream,
              const SmprofCliHelpOption *option)
{
  if (option->value != NULL)
    fprintf (stream, "  %s %s\n", option->name, _(option->value));
  else
    fprintf (stream, "  %s\n", option->name);
  print_wrapped (stream, "        ", _(option->text), 8);
}

/* `smprof --help`: every command's synopsis and summary. */
static void
print_overview (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    print_synopsis (stream, "  ", &commands[i]);

  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *first = g_strdup_printf ("  %-9s ", commands[i].name);

      print_wrapped (stream, first, _(commands[i].summary), 12);
    }

  fputc ('\n', stream);
  print_wrapped (stream, "", _(source_text), 0);
  fputc ('\n', stream);
  print_wrapped (stream, "",
                 _("smprof COMMAND --help describes a command and its options; man smprof says more."), 0);
}

/**
 * smprof_cli_help_print:
 * @stream: where to print
 * @command: (nullable): a command's name, or %NULL for the overview
 *
 * Prints `smprof --help` (@command %NULL) or `smprof COMMAND --help`: the
 * command's synopsis, what it does, SOURCE, then each group of options it takes.
 *
 * Returns: %FALSE when there is no such command
 */
gboolean
smprof_cli_help_print (FILE       *stream,
                       const char *command)
{
  const SmprofCliHelpCommand *found;
  guint bit = 0;

  if (command == NULL)
    {
      print_overview (stream);
      return TRUE;
    }

  found = find_command (command, &bit);
  if (found == NULL)
    return FALSE;

  print_synopsis (stream, _("Usage: "), found);
  fputc ('\n', stream);
  print_wrapped (stream, "", _(found->summary), 0);
  if (found->description != NULL)
    {
      fputc ('\n', stream);
      print_wrapped (stream, "", _(found->description), 0);
    }
  fputc ('\n', stream);
  print_wrapped (stream, "", _(source_text), 0);

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      if ((groups[g].commands & bit) == 0)
        continue;
      fputc ('\n', stream);
      /* Translators: a group of options, such as "Options of stats:" */
      fprintf (stream, _("%s:\n"), _(groups[g].title));
      for (const SmprofCliHelpOption *o = groups[g].options; o->name != NULL; o++)
        print_option (stream, o);
    }

  return TRUE;
}

/**
 * smprof_cli_help_print_usage:
 * @stream: where to print
 * @command: (nullable): the command a usage error is about, or %NULL
 *
 * What follows a usage error: the command's synopsis and where its help is,
 * or, without a known command, the overview.
 */
void
smprof_cli_help_print_usage (FILE       *stream,
                             const char *command)
{
  const SmprofCliHelpCommand *found;
  guint bit = 0;

  found = command != NULL ? find_command (command, &bit) : NULL;
  if (found == NULL)
    {
      print_overview (stream);
      return;
    }

  print_synopsis (stream, _("Usage: "), found);
  fprintf (stream, _("smprof %s --help describes its options.\n"), found->name);
}
