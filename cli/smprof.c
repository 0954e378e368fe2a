/* smprof.c: the command line over the core, for scripts, CI and reports
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "smprof-aggregate.h"
#include "smprof-cli-diff.h"
#include "smprof-cli-help.h"
#include "smprof-cli-options.h"
#include "smprof-cli-output.h"
#include "smprof-cli-report.h"
#include "smprof-cli-source.h"
#include "smprof-cli-steps.h"
#include "smprof-export.h"
#include "smprof-local-source.h"
#include "smprof-stats-json.h"

/* Exit statuses scripts rely on. */
enum
{
  EXIT_OK = 0,
  EXIT_NOTHING_SELECTED = 1,
  EXIT_USAGE = 2,
  EXIT_SOURCE = 3,
  EXIT_WRITE = 4,      /* export: the output could not be written */
};

typedef struct
{
  SmprofCliOptions  options;
  SmprofJob        *job;
  SmprofProfiler    profiler;
  guint             n_problems_shown;
} Cli;

/* Every skipped file is named once on stderr, as soon as it is known. */
static void
show_new_problems (Cli *cli)
{
  g_autoptr(GPtrArray) problems = smprof_job_dup_problems (cli->job);
  SmprofSource *source = smprof_job_get_source (cli->job);

  for (guint i = cli->n_problems_shown; i < problems->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *location = smprof_source_dup_file_location (source, problem->path);

      g_printerr (_("smprof: warning: %s: %s\n"), smprof_cli_shown (location), smprof_cli_shown (problem->message));
    }

  cli->n_problems_shown = problems->len;
}

static char *
finish_json (SmprofJsonWriter *writer)
{
  return smprof_json_writer_free_to_string (writer);
}

static int
run_nodes (Cli *cli)
{
  g_auto(GStrv) ids = smprof_job_dup_node_ids (cli->job, cli->profiler);

  if (cli->options.json)
    {
      SmprofJsonWriter *writer = smprof_json_writer_new (FALSE);
      g_autofree char *text = NULL;

      smprof_json_writer_begin_array (writer);
      for (guint i = 0; ids[i] != NULL; i++)
        smprof_json_writer_string (writer, ids[i]);
      smprof_json_writer_end_array (writer);
      text = finish_json (writer);
      g_print ("%s\n", text);
    }
  else
    for (guint i = 0; ids[i] != NULL; i++)
      g_print ("%s\n", smprof_cli_shown (ids[i]));

  return EXIT_OK;
}

static int
run_list (Cli *cli)
{
  GPtrArray *records = smprof_job_get_records (cli->job, cli->profiler);

  if (cli->options.json)
    {
      SmprofJsonWriter *writer = smprof_json_writer_new (FALSE);
      g_autofree char *text = NULL;

      smprof_json_writer_begin_array (writer);
      for (guint i = 0; i < records->len; i++)
        smprof_stats_json_write_record (writer, smprof_job_get_source (cli->job), g_ptr_array_index (records, i));
      smprof_json_writer_end_array (writer);
      text = finish_json (writer);
      g_print ("%s\n", text);
    }
  else
    smprof_cli_print_records (stdout, records);

  return EXIT_OK;
}

/* A reshaped aggregate (--merge, ..., --invert, --tree), as JSON or text;
 * %FALSE, having said why, when a transform names what is not there. */
static gboolean
emit_reshaped_stats (Cli                *cli,
                     SmprofJsonWriter   *writer,
                     const char * const *node_ids,
                     GPtrArray          *loaded)
{
  const SmprofCliOptions *options = &cli->options;
  g_autoptr(SmprofProfile) aggregate = smprof_profile_new (cli->job, cli->profiler, node_ids, loaded);
  g_autoptr(SmprofProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  gboolean reshaped = smprof_cli_transforms_reshape (&options->transforms);

  profile = smprof_cli_transforms_apply (&options->transforms, aggregate, &error);
  if (profile == NULL)
    {
      g_printerr ("smprof: %s\n", error->message);
      return FALSE;
    }

  if (writer != NULL)
    smprof_stats_json_write_profile (writer, profile, options->has_sort ? options->sort : SMPROF_SORT_NONE,
                                     options->limit, options->transforms.tree);
  else if (cli->profiler == SMPROF_PROFILER_CPROFILE && !smprof_profile_is_inverted (profile))
    {
      if (reshaped)
        smprof_cli_print_functions (stdout, profile, options->has_sort ? options->sort : SMPROF_SORT_CUMTIME,
                                    options->limit >= 0 ? options->limit : 30);
      else
        smprof_cli_print_cprofile (stdout, smprof_profile_get_cprofile (profile), node_ids, loaded,
                                   options->has_sort ? options->sort : SMPROF_SORT_CUMTIME,
                                   options->limit >= 0 ? options->limit : 30);
      if (options->transforms.tree)
        smprof_cli_print_profile_tree (stdout, profile, -1);
    }
  else
    smprof_cli_print_profile_tree (stdout, profile, options->limit);

  return TRUE;
}

/* One aggregate, as JSON (into @writer) or as text (on stdout); %FALSE,
 * having said why, when a transform names what is not there. */
static gboolean
emit_stats (Cli                *cli,
            SmprofJsonWriter   *writer,
            const char * const *node_ids,
            GPtrArray          *loaded)
{
  const SmprofCliOptions *options = &cli->options;

  if (smprof_cli_transforms_reshape (&options->transforms) || options->transforms.tree)
    return emit_reshaped_stats (cli, writer, node_ids, loaded);

  if (cli->profiler == SMPROF_PROFILER_CPROFILE)
    {
      g_autoptr(SmprofCprofileProfile) profile = smprof_aggregate_cprofile (cli->job, loaded);

      if (writer != NULL)
        smprof_stats_json_write_cprofile (writer, profile, node_ids, loaded,
                                          options->has_sort ? options->sort : SMPROF_SORT_NONE,
                                          options->limit);
      else
        smprof_cli_print_cprofile (stdout, profile, node_ids, loaded,
                                   options->has_sort ? options->sort : SMPROF_SORT_CUMTIME,
                                   options->limit >= 0 ? options->limit : 30);
    }
  else
    {
      g_autoptr(SmprofCallTree) tree = smprof_aggregate_pyinstrument (cli->job, loaded);

      if (writer != NULL)
        smprof_stats_json_write_pyinstrument (writer, tree, node_ids, loaded);
      else
        smprof_cli_print_tree (stdout, tree, node_ids, loaded, NULL, FALSE, options->limit);
    }

  return TRUE;
}

/* Reads what @selected needs and returns what could be read, or NULL (with a
 * message) when nothing was selected. */
static GPtrArray *
load_selected (Cli       *cli,
               GPtrArray *selected)
{
  GPtrArray *loaded;

  if (selected->len == 0)
    return NULL;

  smprof_job_load_stats (cli->job, selected, NULL, NULL);
  show_new_problems (cli);

  loaded = smprof_aggregate_loaded (selected);
  if (loaded->len == 0)
    {
      g_printerr (ngettext ("smprof: the selected interval could not be read\n",
                            "smprof: none of the %u selected intervals could be read\n",
                            selected->len),
                  selected->len);
      g_ptr_array_unref (loaded);
      return NULL;
    }

  return loaded;
}

/* The command line's selection on @node_ids, read; an exit status, having
 * said why, when there is nothing to work on. */
static int
select_and_load (Cli                 *cli,
                 GPtrArray           *records,
                 const char * const  *node_ids,
                 GPtrArray          **selected,
                 GPtrArray          **loaded)
{
  *selected = smprof_select (records, node_ids, &cli->options.selection);
  if ((*selected)->len == 0)
    {
      g_autofree char *what = smprof_selection_describe (&cli->options.selection);

      g_printerr (_("smprof: no stats were found for the requested interval (%s)\n"), smprof_cli_shown (what));
      return EXIT_NOTHING_SELECTED;
    }

  *loaded = load_selected (cli, *selected);
  return *loaded != NULL ? EXIT_OK : EXIT_NOTHING_SELECTED;
}

static void
print_json (SmprofJsonWriter *writer)
{
  g_autofree char *text = finish_json (writer);

  g_print ("%s\n", text);
}

typedef struct
{
  SmprofCprofileProfile *profile;
  GPtrArray             *loaded;
} Sum;

static void
add_to_sum (SmprofRecord *record,
            gpointer      data)
{
  Sum *sum = data;

  if (record->pstats == NULL)
    return;
  smprof_cprofile_profile_add (sum->profile, record->pstats);
  g_ptr_array_add (sum->loaded, record);
}

/* One selection's plain cProfile total: summed in record order while the
 * files are read (smprof_job_fold_stats()), without keeping every
 * interval's arrays; the same answer as emit_stats() gives. */
static int
run_one_sum (Cli                *cli,
             GPtrArray          *records,
             const char * const *node_ids)
{
  const SmprofCliOptions *options = &cli->options;
  g_autoptr(GPtrArray) selected = smprof_select (records, node_ids, &options->selection);
  g_autoptr(GPtrArray) loaded = g_ptr_array_new ();
  g_autoptr(SmprofCprofileProfile) profile = smprof_cprofile_profile_new (smprof_job_get_function_keys (cli->job));
  Sum sum = { profile, loaded };

  if (selected->len == 0)
    {
      g_autofree char *what = smprof_selection_describe (&options->selection);

      g_printerr (_("smprof: no stats were found for the requested interval (%s)\n"), smprof_cli_shown (what));
      return EXIT_NOTHING_SELECTED;
    }

  smprof_job_fold_stats (cli->job, selected, add_to_sum, &sum, NULL, NULL);
  show_new_problems (cli);

  if (loaded->len == 0)
    {
      g_printerr (ngettext ("smprof: the selected interval could not be read\n",
                            "smprof: none of the %u selected intervals could be read\n",
                            selected->len),
                  selected->len);
      return EXIT_NOTHING_SELECTED;
    }

  if (options->json)
    {
      SmprofJsonWriter *writer = smprof_json_writer_new (FALSE);

      smprof_stats_json_write_cprofile (writer, profile, node_ids, loaded,
                                        options->has_sort ? options->sort : SMPROF_SORT_NONE, options->limit);
      print_json (writer);
    }
  else
    smprof_cli_print_cprofile (stdout, profile, node_ids, loaded,
                               options->has_sort ? options->sort : SMPROF_SORT_CUMTIME,
                               options->limit >= 0 ? options->limit : 30);

  return EXIT_OK;
}

static int
run_one_selection (Cli                *cli,
                   GPtrArray          *records,
                   const char * const *node_ids)
{
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  int status;

  if (cli->profiler == SMPROF_PROFILER_CPROFILE && !smprof_cli_transforms_reshape (&cli->options.transforms) &&
      !cli->options.transforms.tree)
    return run_one_sum (cli, records, node_ids);

  status = select_and_load (cli, records, node_ids, &selected, &loaded);
  if (status != EXIT_OK)
    return status;

  if (cli->options.json)
    {
      SmprofJsonWriter *writer = smprof_json_writer_new (FALSE);

      if (!emit_stats (cli, writer, node_ids, loaded))
        {
          smprof_json_writer_free (writer);
          return EXIT_USAGE;
        }
      print_json (writer);
    }
  else if (!emit_stats (cli, NULL, node_ids, loaded))
    return EXIT_USAGE;

  return EXIT_OK;
}

/* fetch_profile_stats_by_training_phase: every non-empty (start mode, end mode)
 * pair, start modes in enum order, end modes nested in the same order. */
static int
run_training_phase (Cli                *cli,
                    GPtrArray          *records,
                    const char * const *node_ids)
{
  SmprofJsonWriter *writer = cli->options.json ? smprof_json_writer_new (FALSE) : NULL;
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_autoptr(GPtrArray) everything = smprof_select (records, node_ids, &all);
  guint n_pairs = 0;
  gboolean ok = TRUE;

  /* Read every file once, in parallel, before the pairs are summed. */
  smprof_job_load_stats (cli->job, everything, NULL, NULL);
  show_new_problems (cli);

  if (writer != NULL)
    {
      smprof_json_writer_begin_object (writer);
      smprof_json_writer_member (writer, "pairs");
      smprof_json_writer_begin_array (writer);
    }

  for (int start = SMPROF_MODE_TRAIN; start <= SMPROF_MODE_POST_HOOK_CLOSE && ok; start++)
    for (int end = SMPROF_MODE_TRAIN; end <= SMPROF_MODE_POST_HOOK_CLOSE && ok; end++)
      {
        SmprofSelection pair = { .kind = SMPROF_SELECT_BETWEEN_MODES, .start_mode = start, .end_mode = end };
        g_autoptr(GPtrArray) selected = smprof_select (records, node_ids, &pair);
        g_autoptr(GPtrArray) loaded = smprof_aggregate_loaded (selected);

        if (loaded->len == 0)
          continue;

        n_pairs++;
        if (writer != NULL)
          {
            smprof_json_writer_begin_object (writer);
            smprof_json_writer_member (writer, "start_mode");
            smprof_json_writer_string (writer, smprof_mode_to_string (start));
            smprof_json_writer_member (writer, "end_mode");
            smprof_json_writer_string (writer, smprof_mode_to_string (end));
            smprof_json_writer_member (writer, "stats");
            ok &= emit_stats (cli, writer, node_ids, loaded);
            smprof_json_writer_end_object (writer);
          }
        else
          {
            g_print ("== %s → %s ==\n", smprof_mode_to_string (start), smprof_mode_to_string (end));
            ok &= emit_stats (cli, NULL, node_ids, loaded);
          }
        if (!ok)
          break;
      }

  if (writer != NULL)
    {
      smprof_json_writer_end_array (writer);
      smprof_json_writer_end_object (writer);
      if (n_pairs == 0 || !ok)
        smprof_json_writer_free (writer);
      else
        print_json (writer);
    }

  if (!ok)
    return EXIT_USAGE;

  if (n_pairs == 0)
    {
      g_printerr (_("smprof: no stats were found for any pair of modes\n"));
      return EXIT_NOTHING_SELECTED;
    }

  return EXIT_OK;
}

/* Job phases with the fixed semantics (see README, "Differences from smdebug"). */
static int
run_job_phase (Cli                *cli,
               GPtrArray          *records,
               const char * const *node_ids)
{
  static const struct { const char *key; const char *title; SmprofSelectionKind kind; gboolean nullable; } phases[] = {
    { "initialization", N_("Initialization"), SMPROF_SELECT_INITIALIZATION, TRUE },
    { "training_loop", N_("Training loop"), SMPROF_SELECT_TRAINING_LOOP, FALSE },
    { "finalization", N_("Finalization"), SMPROF_SELECT_FINALIZATION, TRUE },
  };
  SmprofJsonWriter *writer = cli->options.json ? smprof_json_writer_new (FALSE) : NULL;
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_autoptr(GPtrArray) everything = smprof_select (records, node_ids, &all);
  g_autoptr(GPtrArray) readable = NULL;

  if (everything->len == 0)
    {
      if (writer != NULL)
        smprof_json_writer_free (writer);
      g_printerr (_("smprof: no stats were found for the requested nodes\n"));
      return EXIT_NOTHING_SELECTED;
    }

  smprof_job_load_stats (cli->job, everything, NULL, NULL);
  show_new_problems (cli);

  if (writer != NULL)
    smprof_json_writer_begin_object (writer);

  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      SmprofSelection phase = { .kind = phases[i].kind };
      g_autoptr(GPtrArray) selected = smprof_select (records, node_ids, &phase);
      g_autoptr(GPtrArray) loaded = smprof_aggregate_loaded (selected);

      if (writer != NULL)
        {
          smprof_json_writer_member (writer, phases[i].key);
          if (loaded->len == 0 && phases[i].nullable)
            smprof_json_writer_null (writer);
          else if (!emit_stats (cli, writer, node_ids, loaded))
            {
              smprof_json_writer_free (writer);
              return EXIT_USAGE;
            }
        }
      else
        {
          g_print ("== %s ==\n", _(phases[i].title));
          if (loaded->len == 0)
            g_print ("%s\n\n", _("no intervals"));
          else if (!emit_stats (cli, NULL, node_ids, loaded))
            return EXIT_USAGE;
        }
    }

  if (writer != NULL)
    {
      smprof_json_writer_end_object (writer);
      print_json (writer);
    }

  readable = smprof_aggregate_loaded (everything);
  if (readable->len == 0)
    return EXIT_NOTHING_SELECTED;

  return EXIT_OK;
}

/* The nodes asked for, or an exit status when there is nothing to ask. */
static int
resolve_nodes (Cli        *cli,
               GPtrArray  *records,
               char     ***node_ids)
{
  *node_ids = smprof_node_choice_resolve (&cli->options.nodes, records);

  if (records->len == 0)
    {
      g_printerr (_("smprof: this job has no %s intervals\n"), smprof_profiler_to_string (cli->profiler));
      return EXIT_NOTHING_SELECTED;
    }

  if (cli->options.nodes.kind == SMPROF_NODES_LIST)
    {
      g_auto(GStrv) known = smprof_job_dup_node_ids (cli->job, cli->profiler);

      for (guint i = 0; (*node_ids)[i] != NULL; i++)
        if (!g_strv_contains ((const char * const *) known, (*node_ids)[i]))
          {
            g_autofree char *list = smprof_cli_dup_shown_list ((const char * const *) known);

            g_printerr (_("smprof: no node “%s” in this job (nodes: %s)\n"), smprof_cli_shown ((*node_ids)[i]), list);
            return EXIT_NOTHING_SELECTED;
          }
    }

  return EXIT_OK;
}

static int
run_stats (Cli *cli)
{
  GPtrArray *records = smprof_job_get_records (cli->job, cli->profiler);
  g_auto(GStrv) node_ids = NULL;
  int status = resolve_nodes (cli, records, &node_ids);

  if (status != EXIT_OK)
    return status;

  switch (cli->options.select_kind)
    {
    case SMPROF_CLI_SELECT_ONE:
      return run_one_selection (cli, records, (const char * const *) node_ids);
    case SMPROF_CLI_SELECT_TRAINING_PHASE:
      return run_training_phase (cli, records, (const char * const *) node_ids);
    case SMPROF_CLI_SELECT_JOB_PHASE:
      return run_job_phase (cli, records, (const char * const *) node_ids);
    case SMPROF_CLI_SELECT_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* Writes @profile to the -o file, or to stdout for "-". */
static gboolean
write_export (Cli            *cli,
              SmprofProfile  *profile,
              GError        **error)
{
  const SmprofCliOptions *options = &cli->options;
  g_autoptr(GOutputStream) memory = NULL;
  g_autoptr(GFile) file = NULL;

  if (strcmp (options->output, "-") != 0)
    {
      file = g_file_new_for_commandline_arg (options->output);
      return smprof_export_profile_to_file (profile, options->format, &options->export, file, NULL, error);
    }

  memory = g_memory_output_stream_new_resizable ();
  if (!smprof_export_profile (profile, options->format, &options->export, memory, NULL, error) ||
      !g_output_stream_close (memory, NULL, error))
    return FALSE;

  return smprof_cli_write_to_stdout (G_MEMORY_OUTPUT_STREAM (memory), error);
}

/* One selection, aggregated once and written by the core's exporters. */
static int
run_export (Cli *cli)
{
  SmprofCliOptions *options = &cli->options;
  GPtrArray *records = smprof_job_get_records (cli->job, cli->profiler);
  g_auto(GStrv) node_ids = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(SmprofProfile) aggregate = NULL;
  g_autoptr(SmprofProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *what = smprof_cli_dup_selection_words (&options->selection);
  int status;

  status = resolve_nodes (cli, records, &node_ids);
  if (status == EXIT_OK)
    status = select_and_load (cli, records, (const char * const *) node_ids, &selected, &loaded);
  if (status != EXIT_OK)
    return status;

  aggregate = smprof_profile_new (cli->job, cli->profiler, (const char * const *) node_ids, loaded);
  profile = smprof_cli_transforms_apply (&options->transforms, aggregate, &error);
  if (profile == NULL)
    {
      g_printerr ("smprof: %s\n", error->message);
      return EXIT_USAGE;
    }
  options->export.selection = what;

  if (!write_export (cli, profile, &error))
    {
      g_printerr ("smprof: %s: %s\n", smprof_cli_shown (options->output), smprof_cli_shown (error->message));
      return g_error_matches (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID)
             ? EXIT_USAGE : EXIT_WRITE;
    }

  return EXIT_OK;
}

/* report: one selection, and maybe a comparison, written up by the core. */
static int
run_report (Cli   *cli,
            int    argc,
            char **argv)
{
  SmprofCliOptions *options = &cli->options;
  GPtrArray *records = smprof_job_get_records (cli->job, cli->profiler);
  g_auto(GStrv) node_ids = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  int status = resolve_nodes (cli, records, &node_ids);

  if (status == EXIT_OK)
    status = select_and_load (cli, records, (const char * const *) node_ids, &selected, &loaded);
  if (status != EXIT_OK)
    return status;

  return smprof_cli_report_run (cli->job, cli->profiler, options, (const char * const *) node_ids,
                                selected, loaded, &cli->n_problems_shown, argc, argv);
}

/* steps and outliers: one selection, summed per step from the stats in memory. */
static int
run_steps (Cli *cli)
{
  SmprofCliOptions *options = &cli->options;
  GPtrArray *records = smprof_job_get_records (cli->job, cli->profiler);
  g_auto(GStrv) node_ids = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(SmprofStepStats) stats = NULL;
  int status = resolve_nodes (cli, records, &node_ids);

  if (status == EXIT_OK)
    status = select_and_load (cli, records, (const char * const *) node_ids, &selected, &loaded);
  if (status != EXIT_OK)
    return status;

  /* All of them: an unreadable interval makes its step partial. */
  stats = smprof_step_stats_new_with_rule (cli->job, cli->profiler, (const char * const *) node_ids, selected,
                                           &options->step_rule);
  if (smprof_step_stats_get_n_steps (stats) == 0)
    {
      g_printerr (_("smprof: none of the selected intervals starts at a step\n"));
      return EXIT_NOTHING_SELECTED;
    }

  if (options->command == SMPROF_CLI_OUTLIERS)
    smprof_cli_print_outliers (stdout, stats, options);
  else
    smprof_cli_print_steps (stdout, stats, options);

  return EXIT_OK;
}

/* A query on smdebug's "any" node, or on nodes it names, indexes only the
 * node folders it needs: the listing of every interval folder of every node
 * would cost as much as reading the chosen node's stats. */
static gboolean
load_job (Cli     *cli,
          GError **error)
{
  const SmprofCliOptions *options = &cli->options;

  /* the node ids are the node folders' names: nothing inside them is read */
  if (options->command == SMPROF_CLI_NODES)
    return smprof_job_load_node_names (cli->job, NULL, error);
  if ((options->command == SMPROF_CLI_STATS || options->command == SMPROF_CLI_EXPORT) &&
      options->nodes.kind == SMPROF_NODES_ANY)
    return smprof_job_load_for_any_node (cli->job, options->has_profiler ? &options->profiler : NULL,
                                         NULL, error);
  if ((options->command == SMPROF_CLI_STATS || options->command == SMPROF_CLI_EXPORT) &&
      options->nodes.kind == SMPROF_NODES_LIST)
    return smprof_job_load_for_nodes (cli->job, options->nodes.ids, NULL, error);

  return smprof_job_load (cli->job, NULL, error);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(GError) error = NULL;
  Cli cli = { 0 };
  gboolean show_help = FALSE;
  const char *localedir;
  int status;

  setlocale (LC_ALL, "");
  /* SMPROF_LOCALEDIR: an uninstalled build's po/locale (tests, meson devenv). */
  localedir = g_getenv ("SMPROF_LOCALEDIR");
  if (localedir == NULL || localedir[0] == '\0')
    localedir = LOCALEDIR;
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* diff takes two selections, each as one argument: its own parser. */
  if (argc >= 2 && strcmp (argv[1], "diff") == 0)
    return smprof_cli_diff_main (argc, argv);

  if (!smprof_cli_options_parse (&cli.options, argc, argv, &show_help, &error))
    {
      g_printerr ("smprof: %s\n\n", error->message);
      smprof_cli_help_print_usage (stderr, argc >= 2 ? argv[1] : NULL);
      smprof_cli_options_clear (&cli.options);
      return EXIT_USAGE;
    }

  if (show_help)
    {
      /* `smprof --help` gives the overview, `smprof COMMAND --help` the command's */
      smprof_cli_help_print (stdout, argv[1][0] != '-' ? argv[1] : NULL);
      smprof_cli_options_clear (&cli.options);
      return EXIT_OK;
    }

  source = smprof_cli_open_source (&cli.options, &error);
  if (source != NULL)
    {
      cli.job = smprof_cli_new_job (&cli.options, source);
      if (!load_job (&cli, &error))
        g_clear_object (&cli.job);
    }

  if (cli.job == NULL)
    {
      g_printerr ("smprof: %s\n", smprof_cli_shown (error->message));
      smprof_cli_options_clear (&cli.options);
      return EXIT_SOURCE;
    }

  show_new_problems (&cli);

  if (cli.options.has_profiler)
    cli.profiler = cli.options.profiler;
  else
    cli.profiler = smprof_job_has_profiler (cli.job, SMPROF_PROFILER_CPROFILE) ||
                   !smprof_job_has_profiler (cli.job, SMPROF_PROFILER_PYINSTRUMENT)
                   ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT;

  switch (cli.options.command)
    {
    case SMPROF_CLI_NODES:
      status = run_nodes (&cli);
      break;
    case SMPROF_CLI_LIST:
      status = run_list (&cli);
      break;
    case SMPROF_CLI_STATS:
      status = run_stats (&cli);
      break;
    case SMPROF_CLI_EXPORT:
      status = run_export (&cli);
      break;
    case SMPROF_CLI_STEPS:
    case SMPROF_CLI_OUTLIERS:
      status = run_steps (&cli);
      break;
    case SMPROF_CLI_REPORT:
      status = run_report (&cli, argc, argv);
      break;
    default:
      g_assert_not_reached ();
    }

  g_clear_object (&cli.job);
  smprof_cli_options_clear (&cli.options);

  return status;
}
