/* bench-smprof.c: in-process timings of the core, for tests/bench/run-bench.py
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-smprof cold        SOURCE [--node any|all|ID]
 *   bench-smprof interactive SOURCE [--node any|all|ID] [--ranges N] [--verify N] [--seed S]
 *   bench-smprof memory      SOURCE
 *   bench-smprof flame       SOURCE [--frames N] [--seed S]
 *
 * Each prints one JSON object on stdout. Not a test: nothing here is run by
 * `meson test`; see tests/bench/README.md.
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smprof-aggregate.h"
#include "smprof-estimated-tree.h"
#include "smprof-flame-layout.h"
#include "smprof-flame-cairo.h"
#include "smprof-local-source.h"
#include "smprof-profile.h"
#include "smprof-query.h"
#include "smprof-range-index.h"
#include "smprof-stats-json.h"

typedef struct
{
  const char *mode;
  const char *source;
  const char *node;
  int         ranges;
  int         verify;
  int         frames;
  guint32     seed;
} Options;

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* The process's CPU time: what a query costs even when other work shares the
 * machine and stretches its wall time, counting the threads a query sums
 * nodes on besides the calling one (nothing else runs while queries do). */
static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* VmRSS or VmHWM of this process, in bytes. */
static guint64
read_status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;

  line = strstr (status, field);
  if (line == NULL)
    return 0;

  return g_ascii_strtoull (line + strlen (field) + 1, NULL, 10) * 1024;
}

/* @for_any_node: index as the command line does for a query on smdebug's
 * "any" node: only the node folders that query needs */
static SmprofJob *
open_job (const Options *options,
          gboolean       for_any_node)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (options->source, &error);
  SmprofJob *job;

  if (source == NULL)
    g_error ("%s", error->message);

  job = smprof_job_new (source);
  if (!(for_any_node ? smprof_job_load_for_any_node (job, NULL, NULL, &error) : smprof_job_load (job, NULL, &error)))
    g_error ("%s", error->message);

  return job;
}

/* --node any|all|ID, resolved as the command line resolves it. */
static char **
resolve_nodes (SmprofJob  *job,
               const char *node)
{
  SmprofNodeChoice choice = { SMPROF_NODES_ANY, NULL };
  const char *one[] = { node, NULL };

  if (g_strcmp0 (node, "all") == 0)
    choice.kind = SMPROF_NODES_ALL;
  else if (node != NULL && g_strcmp0 (node, "any") != 0)
    {
      choice.kind = SMPROF_NODES_LIST;
      choice.ids = one;
    }

  return smprof_node_choice_resolve (&choice, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE));
}

/* The command line's `stats --all --json`, phase by phase. */
static int
run_cold (const Options *options)
{
  double t0 = now ();
  g_autoptr(SmprofJob) job = open_job (options, g_strcmp0 (options->node, "any") == 0);
  double t1 = now ();
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_auto(GStrv) nodes = resolve_nodes (job, options->node);
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_autoptr(GPtrArray) selected = smprof_select (records, (const char * const *) nodes, &all);
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(SmprofCprofileProfile) profile = NULL;
  g_autofree char *json = NULL;
  SmprofJsonWriter *writer;
  double t2, t3, t4;

  smprof_job_load_stats (job, selected, NULL, NULL);
  loaded = smprof_aggregate_loaded (selected);
  t2 = now ();
  profile = smprof_aggregate_cprofile (job, loaded);
  t3 = now ();
  writer = smprof_json_writer_new (FALSE);
  smprof_stats_json_write_cprofile (writer, profile, (const char * const *) nodes, loaded, SMPROF_SORT_NONE, -1);
  json = smprof_json_writer_free_to_string (writer);
  t4 = now ();

  g_print ("{\"mode\": \"cold\", \"nodes\": %u, \"intervals\": %u, \"functions\": %u, "
           "\"index_s\": %.4f, \"load_s\": %.4f, \"aggregate_s\": %.4f, \"json_s\": %.4f, "
           "\"total_s\": %.4f, \"total_tt\": %.17g}\n",
           g_strv_length (nodes), loaded->len, smprof_cprofile_profile_get_n_entries (profile),
           t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0,
           smprof_cprofile_profile_get_total_tt (profile));

  return 0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

static double
relative_error (double a,
                double b)
{
  double scale = MAX (fabs (a), fabs (b));

  return scale > 0 ? fabs (a - b) / scale : 0;
}

/* Compares a range profile with smprof_profile_new() on the same records:
 * the same records, functions, callers and counts, and times within rounding.
 * Returns the largest relative time error, or a negative number on a mismatch. */
static double
verify_range (SmprofJob          *job,
              const char * const *nodes,
              SmprofProfile      *range,
              double              start_us,
              double              end_us)
{
  SmprofSelection overlap = { .kind = SMPROF_SELECT_OVERLAP, .start_us = start_us, .end_us = end_us };
  g_autoptr(GPtrArray) selected = smprof_select (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE),
                                                 nodes, &overlap);
  g_autoptr(SmprofProfile) reference = smprof_profile_new (job, SMPROF_PROFILER_CPROFILE, nodes, selected);
  SmprofCprofileProfile *x = smprof_profile_get_cprofile (range);
  SmprofCprofileProfile *y = smprof_profile_get_cprofile (reference);
  GPtrArray *got = smprof_profile_get_records (range);
  GPtrArray *want = smprof_profile_get_records (reference);
  g_autoptr(GHashTable) by_func = g_hash_table_new (NULL, NULL);
  double worst;

  if (got->len != want->len ||
      smprof_cprofile_profile_get_n_entries (x) != smprof_cprofile_profile_get_n_entries (y) ||
      smprof_cprofile_profile_get_total_calls (x) != smprof_cprofile_profile_get_total_calls (y) ||
      smprof_cprofile_profile_get_prim_calls (x) != smprof_cprofile_profile_get_prim_calls (y))
    return -1;

  for (guint i = 0; i < got->len; i++)
    if (g_ptr_array_index (got, i) != g_ptr_array_index (want, i))
      return -1;

  worst = relative_error (smprof_cprofile_profile_get_total_tt (x), smprof_cprofile_profile_get_total_tt (y));

  for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (y); i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (y, i);

      g_hash_table_insert (by_func, GUINT_TO_POINTER (entry->func + 1), (gpointer) entry);
    }

  for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (x); i++)
    {
      const SmprofProfileEntry *a = smprof_cprofile_profile_get_entry (x, i);
      const SmprofProfileEntry *b = g_hash_table_lookup (by_func, GUINT_TO_POINTER (a->func + 1));

      if (b == NULL || a->nc != b->nc || a->cc != b->cc || a->callers->len != b->callers->len)
        return -1;

      /* Relative to the whole profile: a prefix difference is exact to the
       * rounding of the node's total, not of each function's share of it. */
      worst = MAX (worst, fabs (a->tt - b->tt) / MAX (smprof_cprofile_profile_get_total_tt (y), 1e-300));
      worst = MAX (worst, fabs (a->ct - b->ct) / MAX (smprof_cprofile_profile_get_total_tt (y), 1e-300));
    }

  return worst;
}

/* The core call behind the timeline's drag selection, on the loaded job. */
static int
run_interactive (const Options *options)
{
  g_autoptr(SmprofJob) job = open_job (options, FALSE);
  g_auto(GStrv) nodes = resolve_nodes (job, options->node);
  g_autoptr(SmprofRangeIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) rows_latencies = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) rows_cpu_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GRand) rand = g_rand_new_with_seed (options->seed);
  double start_us, end_us, t0, t1;
  double worst_error = 0;
  guint64 rss;
  int mismatches = 0;

  t0 = now ();
  index = smprof_range_index_new (job, SMPROF_PROFILER_CPROFILE, (const char * const *) nodes, NULL, &error);
  t1 = now ();
  if (index == NULL)
    g_error ("%s", error->message);
  rss = read_status_kb ("VmRSS:");

  smprof_range_index_get_time_bounds (index, &start_us, &end_us);

  for (int i = 0; i < options->ranges; i++)
    {
      double a, b, q0, q1, c0, c1, milliseconds;
      g_autoptr(SmprofProfile) profile = NULL;
      g_autoptr(SmprofCprofileProfile) rows = NULL;

      /* Half the ranges have uniform ends (a third of the job on average),
       * half a log-uniform length from 1 ms to the whole job: short drags
       * and long ones alike. */
      if (i % 2 == 0)
        {
          a = g_rand_double_range (rand, start_us, end_us);
          b = g_rand_double_range (rand, start_us, end_us);
        }
      else
        {
          double length = exp (g_rand_double_range (rand, log (1e3), log (end_us - start_us)));

          a = g_rand_double_range (rand, start_us - length / 2, end_us - length / 2);
          b = a + length;
        }
      if (a > b)
        {
          double t = a;

          a = b;
          b = t;
        }

      /* The merged stats alone (the function table's rows and callers)... */
      c0 = cpu_now ();
      q0 = now ();
      rows = smprof_range_index_aggregate_cprofile (index, NULL, a, b, NULL);
      q1 = now ();
      c1 = cpu_now ();
      milliseconds = (q1 - q0) * 1e3;
      g_array_append_val (rows_latencies, milliseconds);
      milliseconds = (c1 - c0) * 1e3;
      g_array_append_val (rows_cpu_times, milliseconds);

      /* ... and the whole SmprofProfile, with its estimated call tree. */
      c0 = cpu_now ();
      q0 = now ();
      profile = smprof_range_index_aggregate (index, NULL, a, b);
      q1 = now ();
      c1 = cpu_now ();
      milliseconds = (q1 - q0) * 1e3;
      g_array_append_val (latencies, milliseconds);
      milliseconds = (c1 - c0) * 1e3;
      g_array_append_val (cpu_times, milliseconds);

      if (i < options->verify)
        {
          double error_bound = verify_range (job, (const char * const *) nodes, profile, a, b);

          if (error_bound < 0)
            mismatches++;
          else
            worst_error = MAX (worst_error, error_bound);
        }
    }

  g_array_sort (latencies, compare_doubles);
  g_array_sort (cpu_times, compare_doubles);
  g_array_sort (rows_latencies, compare_doubles);
  g_array_sort (rows_cpu_times, compare_doubles);

  g_print ("{\"mode\": \"interactive\", \"nodes\": %u, \"build_s\": %.4f, \"index_bytes\": %" G_GSIZE_FORMAT ", "
           "\"rss_bytes\": %" G_GUINT64_FORMAT ", \"ranges\": %d, \"median_ms\": %.4f, \"p99_ms\": %.4f, "
           "\"worst_ms\": %.4f, \"median_cpu_ms\": %.4f, \"worst_cpu_ms\": %.4f, "
           "\"rows_median_ms\": %.4f, \"rows_worst_ms\": %.4f, "
           "\"rows_median_cpu_ms\": %.4f, \"rows_worst_cpu_ms\": %.4f, "
           "\"verified\": %d, \"mismatches\": %d, \"max_relative_error\": %.3g}\n",
           g_strv_length (nodes), t1 - t0, smprof_range_index_get_memory_size (index), rss, options->ranges,
           latencies->len ? g_array_index (latencies, double, latencies->len / 2) : 0,
           latencies->len ? g_array_index (latencies, double, latencies->len * 99 / 100) : 0,
           latencies->len ? g_array_index (latencies, double, latencies->len - 1) : 0,
           cpu_times->len ? g_array_index (cpu_times, double, cpu_times->len / 2) : 0,
           cpu_times->len ? g_array_index (cpu_times, double, cpu_times->len - 1) : 0,
           rows_latencies->len ? g_array_index (rows_latencies, double, rows_latencies->len / 2) : 0,
           rows_latencies->len ? g_array_index (rows_latencies, double, rows_latencies->len - 1) : 0,
           rows_cpu_times->len ? g_array_index (rows_cpu_times, double, rows_cpu_times->len / 2) : 0,
           rows_cpu_times->len ? g_array_index (rows_cpu_times, double, rows_cpu_times->len - 1) : 0,
           MIN (options->verify, options->ranges), mismatches, worst_error);

  return mismatches == 0 ? 0 : 1;
}

/* What a loaded job costs: every interval of every node read, and the range
 * index the viewer keeps for it. */
static int
run_memory (const Options *options)
{
  g_autoptr(SmprofJob) job = open_job (options, FALSE);
  g_autoptr(SmprofRangeIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *records;
  guint64 stats_bytes = 0;
  guint64 rss_loaded;

  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  smprof_job_load_stats (job, records, NULL, NULL);
  rss_loaded = read_status_kb ("VmRSS:");

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->pstats != NULL)
        stats_bytes += sizeof (SmprofPstats) + record->pstats->n_funcs * sizeof (SmprofFuncStat) +
                       record->pstats->n_callers * sizeof (SmprofCallerStat);
    }

  index = smprof_range_index_new (job, SMPROF_PROFILER_CPROFILE, NULL, NULL, &error);
  if (index == NULL)
    g_error ("%s", error->message);

  g_print ("{\"mode\": \"memory\", \"intervals\": %u, \"functions\": %u, \"stats_bytes\": %" G_GUINT64_FORMAT ", "
           "\"index_bytes\": %" G_GSIZE_FORMAT ", \"rss_loaded_bytes\": %" G_GUINT64_FORMAT ", "
           "\"rss_bytes\": %" G_GUINT64_FORMAT ", \"peak_rss_bytes\": %" G_GUINT64_FORMAT "}\n",
           records->len, smprof_function_keys_get_size (smprof_job_get_function_keys (job)), stats_bytes,
           smprof_range_index_get_memory_size (index), rss_loaded,
           read_status_kb ("VmRSS:"), read_status_kb ("VmHWM:"));

  return 0;
}

/* A deterministic tree of @n_frames frames over the job's functions: a few
 * deep paths with bushy tops, the shape of real flame graphs. */
static SmprofCallTree *
synthetic_tree (SmprofFunctionKeys *table,
                guint               n_frames,
                guint32             seed)
{
  SmprofCallTree *tree = smprof_call_tree_new (table);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint   n_funcs = MAX (smprof_function_keys_get_size (table), 1);
  guint32 root = SMPROF_CALL_TREE_ROOT;

  g_array_append_val (open, root);

  while (smprof_call_tree_get_n_nodes (tree) < n_frames + 1)
    {
      guint32 parent = g_array_index (open, guint32, g_rand_int_range (rand, 0, open->len));
      guint32 func = g_rand_int_range (rand, 0, n_funcs);
      guint32 node = smprof_call_tree_ensure_child (tree, parent, func);

      g_array_append_val (open, node);
    }

  /* Self times, then totals bottom up: children come after their parent. */
  for (guint32 i = smprof_call_tree_get_n_nodes (tree); i-- > 1;)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      double self_time = g_rand_double_range (rand, 1e-6, 1e-2);

      smprof_call_tree_add_time (tree, i, self_time, self_time);
      smprof_call_tree_add_time (tree, node->parent, node->total, 0);
    }

  smprof_call_tree_sort (tree);

  return tree;
}

/* Lays out and draws @tree as the exports do (cairo, 1,920 pixels wide). */
static void
time_flame (SmprofCallTree *tree,
            const char     *name,
            gboolean        last)
{
  SmprofFlameRenderOptions render = { "bench", NULL, NULL, SMPROF_FLAME_DIRECTION_UP, 1920, FALSE };
  g_autoptr(SmprofFlameLayout) layout = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  double t0, t1, t2, height;

  t0 = now ();
  layout = smprof_flame_layout_new (tree, SMPROF_CALL_TREE_ROOT, 0);
  t1 = now ();
  height = MIN (smprof_flame_render_get_height (layout, &render), 16384);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, (int) height);
  cr = cairo_create (surface);
  smprof_flame_render (layout, &render, cr);
  cairo_surface_flush (surface);
  t2 = now ();
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  g_print ("\"%s\": {\"frames\": %u, \"rects\": %u, \"layout_ms\": %.3f, \"render_ms\": %.3f}%s",
           name, smprof_call_tree_get_n_nodes (tree) - 1, smprof_flame_layout_get_n_rects (layout),
           (t1 - t0) * 1e3, (t2 - t1) * 1e3, last ? "" : ", ");
}

/* The largest merged tree of the job (every interval of every node, the
 * estimated cProfile tree), and a synthetic tree of --frames frames. */
static int
run_flame (const Options *options)
{
  g_autoptr(SmprofJob) job = open_job (options, FALSE);
  g_auto(GStrv) nodes = resolve_nodes (job, "all");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofCprofileProfile) merged = NULL;
  g_autoptr(SmprofCallTree) tree = NULL;
  g_autoptr(SmprofCallTree) synthetic = NULL;
  double t0, t1;

  smprof_job_load_stats (job, records, NULL, NULL);
  merged = smprof_aggregate_cprofile (job, records);

  t0 = now ();
  tree = smprof_call_tree_new_estimated (merged);
  t1 = now ();

  g_print ("{\"mode\": \"flame\", \"nodes\": %u, \"estimated_tree_ms\": %.3f, ", g_strv_length (nodes), (t1 - t0) * 1e3);
  time_flame (tree, "merged", FALSE);
  synthetic = synthetic_tree (smprof_job_get_function_keys (job), options->frames, options->seed);
  time_flame (synthetic, "synthetic", TRUE);
  g_print ("}\n");

  return 0;
}

int
main (int   argc,
      char *argv[])
{
  Options options = { NULL, NULL, "any", 1000, 20, 100000, 1 };
  int i;

  if (argc < 3)
    {
      g_printerr ("usage: %s cold|interactive|memory|flame SOURCE [--node N] [--ranges N] [--verify N] "
                  "[--frames N] [--seed S]\n", argv[0]);
      return 2;
    }

  options.mode = argv[1];
  options.source = argv[2];
  for (i = 3; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--node") == 0)
        options.node = argv[i + 1];
      else if (strcmp (argv[i], "--ranges") == 0)
        options.ranges = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--verify") == 0)
        options.verify = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--frames") == 0)
        options.frames = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--seed") == 0)
        options.seed = strtoul (argv[i + 1], NULL, 10);
      else
        {
          g_printerr ("%s: unknown option %s\n", argv[0], argv[i]);
          return 2;
        }
    }
  if (i != argc)
    {
      g_printerr ("%s: %s needs a value\n", argv[0], argv[i]);
      return 2;
    }

  if (strcmp (options.mode, "cold") == 0)
    return run_cold (&options);
  if (strcmp (options.mode, "interactive") == 0)
    return run_interactive (&options);
  if (strcmp (options.mode, "memory") == 0)
    return run_memory (&options);
  if (strcmp (options.mode, "flame") == 0)
    return run_flame (&options);

  g_printerr ("%s: unknown mode %s\n", argv[0], options.mode);
  return 2;
}
