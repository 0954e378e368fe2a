/* test-session.c: the session model with no display, on real jobs, against
 * `smprof stats` and `smprof diff` ($SMPROF_CLI) on the same questions
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A session is what a job page shows, without a widget: these tests load a
 * job, select (presets, steps, nodes, a dragged range), compare and refresh
 * it, spinning the main context the way a page's window would, and check
 * every answer against the command line's.
 */

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "core-test-util.h"
#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"
#include "smprof-function-keys.h"
#include "smprof-release.h"
#include "smprof-session.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Spins the main context until the session holds the answer to its current
 * selection: smprof_session_wait_async(). */
static SmprofProfile *
wait_answer (SmprofSession *session)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  SmprofProfile *profile;

  smprof_session_wait_async (session, NULL, store_result, &result);
  while (result == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }

  profile = smprof_session_wait_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_false (smprof_session_get_busy (session));

  return profile;
}

/* Spins until @done (a boolean property of @object) is %TRUE, or
 * @pointer_property is non-NULL. */
static void
spin_until_set (gpointer    object,
                const char *pointer_property)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  for (;;)
    {
      gpointer value = NULL;

      g_object_get (object, pointer_property, &value, NULL);
      if (value != NULL)
        {
          if (G_IS_OBJECT (value))
            g_object_unref (value);
          return;
        }
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static JsonObject *
run_cli_json (const char * const *args)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status;

  g_assert_nonnull (smprof);
  g_strv_builder_add (builder, smprof);
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);

  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", argv[1], err);

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char *
job_path (const char *name)
{
  if (strchr (name, '/') != NULL)
    return g_strdup (name);
  return g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", name, NULL);
}

/* The profile has `smprof stats JOB ARGS --json`'s totals and intervals
 * (@member of its answer, when it gives several): the same intervals, calls,
 * primitive calls, total time and number of functions. */
static void
check_stats_member (SmprofProfile      *profile,
                    const char         *job,
                    const char * const *args,
                    const char         *member)
{
  g_autofree char *path = job_path (job);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autoptr(JsonObject) root = NULL;
  SmprofCprofileProfile *cprofile;
  JsonArray *intervals;
  JsonArray *functions;
  double total;

  g_strv_builder_add_many (builder, "stats", path, NULL);
  g_strv_builder_addv (builder, (const char **) args);
  g_strv_builder_add (builder, "--json");
  argv = g_strv_builder_end (builder);
  root = run_cli_json ((const char * const *) argv);
  if (member != NULL)
    {
      JsonObject *inner = json_object_ref (json_object_get_object_member (root, member));

      json_object_unref (root);
      root = inner;
    }

  g_assert_nonnull (profile);
  cprofile = smprof_profile_get_cprofile (profile);
  g_assert_nonnull (cprofile);

  intervals = json_object_get_array_member (root, "intervals");
  g_assert_cmpuint (json_array_get_length (intervals), ==, smprof_profile_get_records (profile)->len);
  for (guint i = 0; i < json_array_get_length (intervals); i++)
    {
      const SmprofRecord *record = g_ptr_array_index (smprof_profile_get_records (profile), i);
      g_autofree char *mine = g_strdup_printf ("%s/%s", record->node_id, record->interval);

      g_assert_cmpstr (json_array_get_string_element (intervals, i), ==, mine);
    }

  g_assert_cmpint (json_object_get_int_member (root, "total_calls"), ==,
                   smprof_cprofile_profile_get_total_calls (cprofile));
  g_assert_cmpint (json_object_get_int_member (root, "primitive_calls"), ==,
                   smprof_cprofile_profile_get_prim_calls (cprofile));
  total = json_object_get_double_member (root, "total_time");
  g_assert_cmpfloat_with_epsilon (total, smprof_cprofile_profile_get_total_tt (cprofile), 1e-9 * MAX (total, 1));

  functions = json_object_get_array_member (root, "functions");
  g_assert_cmpuint (json_array_get_length (functions), ==, smprof_profile_get_n_functions (profile));

  g_test_message ("smprof stats %s: %u intervals, %" G_GINT64_FORMAT " calls, %.6f s: equal",
                  args[0], json_array_get_length (intervals),
                  json_object_get_int_member (root, "total_calls"), total);
}

static void
check_stats (SmprofProfile      *profile,
             const char         *job,
             const char * const *args)
{
  check_stats_member (profile, job, args, NULL);
}

static SmprofSession *
session_on (const char *name)
{
  g_autofree char *path = job_path (name);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);

  return smprof_session_new (job);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */

/* A new session aggregates the whole job of every node, cProfile first,
 * as `smprof stats --all --node all`; the job's per-step statistics and the
 * range index follow on their own. */
static void
test_load (void)
{
  g_autoptr(SmprofSession) session = session_on ("pt-cprofile");
  g_autoptr(SmprofProfile) profile = NULL;
  const char *args[] = { "--all", "--node", "all", NULL };

  g_assert_true (smprof_session_get_busy (session));
  g_assert_cmpint (smprof_session_get_preset (session), ==, SMPROF_PRESET_WHOLE_JOB);
  g_assert_cmpint (smprof_session_get_profiler (session), ==, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpstrv (smprof_session_get_all_node_ids (session), ((const char *[]) { "0-algo-1", "1-algo-2", NULL }));
  g_assert_null (smprof_session_get_chosen_node_ids (session));

  profile = wait_answer (session);
  g_assert_true (profile == smprof_session_get_profile (session));
  check_stats (profile, "pt-cprofile", args);
  g_assert_cmpstr (smprof_session_get_description (session), ==, "whole job");
  g_assert_cmpstr (smprof_session_get_slug (session), ==, "whole-job");

  spin_until_set (session, "job-step-stats");
  g_assert_cmpuint (smprof_step_stats_get_n_steps (smprof_session_get_job_step_stats (session)), >, 0);
  spin_until_set (session, "range-index");
}

/* ------------------------------------------------------------------------ */
/* Selecting                                                                */

/* Presets, steps, a mode pair and one node: each answer is the command
 * line's for the same question. */
/* The nodes and steps of the answer's records, which the worker that picked
 * them finds for the status line, are theirs. */
static void
check_selected_summary (SmprofSession *session)
{
  GPtrArray *records = smprof_session_get_selected_records (session);
  g_auto(GStrv) node_ids = smprof_records_dup_node_ids (records);
  g_autofree char *steps = smprof_session_describe_steps (records);

  g_assert_cmpuint (records->len, >, 0);
  g_assert_cmpstrv (smprof_session_get_selected_node_ids (session), node_ids);
  g_assert_cmpstr (smprof_session_get_selected_steps (session), ==, steps);
  g_assert_cmpstr (steps, !=, "no steps");
}

static void
test_selection (void)
{
  g_autoptr(SmprofSession) session = session_on ("tf-cprofile");
  g_autoptr(SmprofProfile) profile = NULL;
  const char *node;

  g_clear_object (&profile);
  profile = wait_answer (session);

  smprof_session_set_step_range (session, 3, 5);
  g_assert_cmpint (smprof_session_get_preset (session), ==, SMPROF_PRESET_STEPS);
  g_clear_object (&profile);
  profile = wait_answer (session);
  check_stats (profile, "tf-cprofile", (const char *[]) { "--step", "3", "--end-step", "5", "--node", "all", NULL });
  g_assert_cmpstr (smprof_session_get_slug (session), ==, "steps-3-5");
  check_selected_summary (session);

  smprof_session_set_mode_pair (session, SMPROF_MODE_TRAIN, SMPROF_MODE_EVAL);
  g_clear_object (&profile);
  profile = wait_answer (session);
  check_stats (profile, "tf-cprofile",
               (const char *[]) { "--between-modes", "train", "eval", "--node", "all", NULL });

  smprof_session_set_preset (session, SMPROF_PRESET_INITIALIZATION);
  g_clear_object (&profile);
  profile = wait_answer (session);
  check_stats (profile, "tf-cprofile", (const char *[]) { "--pre-step-zero", "--node", "all", NULL });

  /* One node: the preset applies to it. */
  node = smprof_session_get_all_node_ids (session)[1];
  smprof_session_set_node_ids (session, (const char *[]) { node, NULL });
  smprof_session_set_step_range (session, 2, 7);
  g_clear_object (&profile);
  profile = wait_answer (session);
  check_stats (profile, "tf-cprofile", (const char *[]) { "--step", "2", "--end-step", "7", "--node", node, NULL });
  g_assert_cmpstrv (smprof_profile_get_node_ids (profile), ((const char *[]) { node, NULL }));
  g_assert_cmpstrv (smprof_session_get_selected_node_ids (session), ((const char *[]) { node, NULL }));
  check_selected_summary (session);

  /* Every node chosen is all nodes. */
  smprof_session_set_node_ids (session, smprof_session_get_all_node_ids (session));
  g_assert_null (smprof_session_get_chosen_node_ids (session));
}

/* The Steps preset on a job whose steps are all GLOBAL (a PyTorch job
 * without a mode set): it is offered, spans the job's global steps, and
 * selects what `smprof stats --mode global` does. */
static void
test_global_steps (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);
  g_autoptr(SmprofSession) session = session_on (path);
  g_autoptr(SmprofProfile) profile = NULL;
  gint64 lowest, highest;

  profile = wait_answer (session);
  g_assert_true (smprof_session_preset_available (session, SMPROF_PRESET_STEPS));
  g_assert_cmpint (smprof_session_get_step_mode (session), ==, SMPROF_MODE_GLOBAL);
  g_assert_true (smprof_session_get_step_bounds (session, &lowest, &highest));
  g_assert_cmpint (lowest, ==, 0);
  g_assert_cmpint (highest, >=, 10);

  smprof_session_set_step_range (session, 4, 6);
  g_clear_object (&profile);
  profile = wait_answer (session);
  g_assert_cmpuint (smprof_profile_get_records (profile)->len, >, 0);
  check_stats (profile, path,
               (const char *[]) { "--step", "4", "--end-step", "6", "--mode", "global", "--node", "all", NULL });
}

/* A dragged range: the session sums exactly the intervals the timeline
 * gives it; once the range index is built, it sums them, with the same
 * totals as `smprof stats --time` on a range where smdebug's by-time rule
 * picks the same intervals. */
static void
test_range (void)
{
  g_autoptr(SmprofSession) session = session_on ("pt-cprofile");
  g_autoptr(SmprofProfile) profile = NULL;
  GPtrArray *records;
  g_autoptr(GPtrArray) overlap = NULL;
  g_autoptr(GPtrArray) by_time = NULL;
  SmprofSelection query = { 0 }, time_query = { 0 };
  const SmprofRecord *first, *last;
  char start_s[G_ASCII_DTOSTR_BUF_SIZE], end_s[G_ASCII_DTOSTR_BUF_SIZE];

  profile = wait_answer (session);
  spin_until_set (session, "range-index");

  /* From the start of the 30th interval to the end of the 50th, in record
   * order: a range of the training loop, longer than any interval in it. */
  records = smprof_job_get_records (smprof_session_get_job (session), SMPROF_PROFILER_CPROFILE);
  first = g_ptr_array_index (records, 30);
  last = g_ptr_array_index (records, 50);
  query.kind = SMPROF_SELECT_OVERLAP;
  query.start_us = first->name.start_time_us;
  query.end_us = last->name.end_time_us;
  time_query = query;
  time_query.kind = SMPROF_SELECT_TIME;
  overlap = smprof_select (records, smprof_session_get_node_ids (session), &query);
  by_time = smprof_select (records, smprof_session_get_node_ids (session), &time_query);
  g_assert_cmpuint (overlap->len, ==, by_time->len);

  smprof_session_select_range (session, &query, NULL, overlap);
  g_assert_cmpint (smprof_session_get_preset (session), ==, SMPROF_PRESET_NONE);
  g_clear_object (&profile);
  profile = wait_answer (session);
  g_assert_true (smprof_session_get_from_range_index (session));
  g_assert_cmpuint (smprof_session_get_selected_records (session)->len, ==, overlap->len);
  check_selected_summary (session);

  g_ascii_formatd (start_s, sizeof start_s, "%.6f", query.start_us / 1e6);
  g_ascii_formatd (end_s, sizeof end_s, "%.6f", query.end_us / 1e6);
  check_stats (profile, "pt-cprofile", (const char *[]) { "--time", start_s, end_s, "--node", "all", NULL });
  g_assert_true (g_str_has_prefix (smprof_session_get_slug (session), "time-"));
}

static void
count_answer_cb (SmprofSession *session,
                 GParamSpec    *pspec,
                 guint         *n_answers)
{
  (*n_answers)++;
}

/* Changes in one main-loop turn make one answer; an answer computed for a
 * selection that changed since is dropped, never shown. */
static void
test_stale_generations (void)
{
  g_autoptr(SmprofSession) session = session_on ("tf-cprofile");
  g_autoptr(SmprofProfile) profile = NULL;
  guint n_answers = 0;
  guint n_before;
  gulong handler;

  profile = wait_answer (session);
  handler = g_signal_connect (session, "notify::profile", G_CALLBACK (count_answer_cb), &n_answers);

  /* Three changes, one turn: one answer. */
  smprof_session_set_preset (session, SMPROF_PRESET_TRAINING_LOOP);
  smprof_session_set_step_range (session, 0, 2);
  smprof_session_set_step_range (session, 1, 4);
  g_clear_object (&profile);
  profile = wait_answer (session);
  g_assert_cmpuint (n_answers, ==, 1);
  check_stats (profile, "tf-cprofile", (const char *[]) { "--step", "1", "--end-step", "4", "--node", "all", NULL });

  /* A change once the worker has started: its answer is dropped, and only
   * the answer to the newest selection is shown. The whole job's answer
   * may already be in when the change comes (a fast worker): it was not
   * stale then, and counts apart. */
  n_answers = 0;
  smprof_session_set_preset (session, SMPROF_PRESET_WHOLE_JOB);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  n_before = n_answers;
  g_assert_cmpuint (n_before, <=, 1);
  smprof_session_set_step_range (session, 5, 9);
  g_clear_object (&profile);
  profile = wait_answer (session);
  g_assert_cmpuint (n_answers - n_before, ==, 1);
  g_assert_cmpint (smprof_session_get_preset (session), ==, SMPROF_PRESET_STEPS);
  check_stats (profile, "tf-cprofile", (const char *[]) { "--step", "5", "--end-step", "9", "--node", "all", NULL });
  g_signal_handler_disconnect (session, handler);
}

/* ------------------------------------------------------------------------ */
/* Comparing                                                                */

static void
check_diff_side (SmprofDiff    *diff,
                 SmprofDiffSide side,
                 JsonObject    *cli_side)
{
  g_assert_cmpint (json_object_get_int_member (cli_side, "n_intervals"), ==,
                   smprof_profile_get_records (smprof_diff_get_profile (diff, side))->len);
  g_assert_cmpint (json_object_get_int_member (cli_side, "n_steps"), ==, smprof_diff_get_n_steps (diff, side));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cli_side, "total_time"),
                                  smprof_diff_get_total_time (diff, side), 1e-9);
}

/* Steps 0–4 as A, steps 5–9 as B: the diff is `smprof diff`'s, side by side
 * and function by function; swapping makes B A. */
static void
test_compare (void)
{
  g_autoptr(SmprofSession) session = session_on ("pt-cprofile");
  g_autoptr(SmprofProfile) profile = NULL;
  g_autofree char *path = job_path ("pt-cprofile");
  g_autoptr(JsonObject) root = NULL;
  JsonArray *functions;
  SmprofDiff *diff;

  profile = wait_answer (session);
  smprof_session_set_step_range (session, 0, 4);
  g_clear_object (&profile);
  profile = wait_answer (session);

  g_assert_true (smprof_session_compare_current (session));
  g_assert_true (smprof_session_get_comparing (session));
  g_assert_true (smprof_session_get_compare_waiting (session));

  smprof_session_set_step_range (session, 5, 9);
  g_clear_object (&profile);
  profile = wait_answer (session);
  g_assert_false (smprof_session_get_compare_waiting (session));
  spin_until_set (session, "diff");
  diff = smprof_session_get_diff (session);

  root = run_cli_json ((const char *[]) { "diff", path, "--a", "--step 0 --end-step 4", "--b", "--step 5 --end-step 9",
                                          "--node", "all", "--format", "json", "-o", "-", NULL });
  check_diff_side (diff, SMPROF_DIFF_A, json_object_get_object_member (root, "a"));
  check_diff_side (diff, SMPROF_DIFF_B, json_object_get_object_member (root, "b"));
  functions = json_object_get_array_member (root, "functions");
  g_assert_cmpuint (json_array_get_length (functions), ==, smprof_diff_get_n_rows (diff));
  g_assert_cmpstr (smprof_session_get_compare_label (session, SMPROF_DIFF_A), ==,
                   json_object_get_string_member (json_object_get_object_member (root, "a"), "selection"));

  smprof_session_swap_comparison (session);
  while (smprof_session_get_diff (session) == diff)
    g_main_context_iteration (NULL, TRUE);
  check_diff_side (smprof_session_get_diff (session), SMPROF_DIFF_A, json_object_get_object_member (root, "b"));

  smprof_session_close_comparison (session);
  g_assert_false (smprof_session_get_comparing (session));
  g_assert_null (smprof_session_get_diff (session));
}

/* An outlier step against its node's median step: A is the median step,
 * aggregated apart; B becomes the selection. */
static void
test_compare_outlier (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);
  g_autoptr(SmprofSession) session = session_on (path);
  g_autoptr(SmprofProfile) profile = NULL;
  SmprofStepStats *stats;
  guint outlier = G_MAXUINT;

  profile = wait_answer (session);
  spin_until_set (session, "job-step-stats");
  stats = smprof_session_get_job_step_stats (session);
  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats) && outlier == G_MAXUINT; i++)
    if (smprof_step_stats_get_step (stats, i)->outlier)
      outlier = i;
  g_assert_cmpuint (outlier, !=, G_MAXUINT);

  g_assert_true (smprof_session_compare_outlier (session, outlier));
  g_clear_object (&profile);
  profile = wait_answer (session);
  g_assert_true (g_str_has_prefix (smprof_session_get_compare_label (session, SMPROF_DIFF_B), "Outlier step"));
  spin_until_set (session, "diff");
  g_assert_cmpuint (smprof_profile_get_records (smprof_session_get_compare_profile (session, SMPROF_DIFF_B))->len, ==,
                    smprof_step_stats_get_step_records (stats, outlier)->len);
  g_assert_cmpuint (smprof_profile_get_records (smprof_session_get_compare_profile (session, SMPROF_DIFF_A))->len, ==,
                    smprof_step_stats_get_step_records (stats, smprof_step_stats_get_step (stats, outlier)->median_step)->len);
}

/* ------------------------------------------------------------------------ */
/* Refreshing                                                               */

static void
copy_tree (const char *from,
           const char *to)
{
  const char *argv[] = { "cp", "-r", from, to, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* A job still training, listed again: the new intervals come in, the
 * selection keeps (a preset is asked of the new job), and the answer is the
 * command line's on the job as it is now. */
static void
test_refresh (void)
{
  g_autofree char *source = job_path ("pt-cprofile");
  g_autofree char *tmp = g_dir_make_tmp ("smprof-session-XXXXXX", NULL);
  g_autofree char *job_dir = g_build_filename (tmp, "job", NULL);
  g_autofree char *node_dir = NULL;
  g_autofree char *held = g_build_filename (tmp, "held", NULL);
  g_autoptr(SmprofSession) session = NULL;
  g_autoptr(SmprofProfile) profile = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  SmprofJob *before;
  guint n_before;
  const char *name;

  g_assert_nonnull (tmp);
  copy_tree (source, job_dir);

  /* Hold back the last ten intervals of one node. */
  node_dir = g_build_filename (job_dir, "framework", "pytorch", "cprofile", "1-algo-2", NULL);
  dir = g_dir_open (node_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_assert_cmpint (g_mkdir (held, 0700), ==, 0);
  for (guint i = names->len - 10; i < names->len; i++)
    {
      g_autofree char *from = g_build_filename (node_dir, g_ptr_array_index (names, i), NULL);
      g_autofree char *to = g_build_filename (held, g_ptr_array_index (names, i), NULL);

      g_assert_cmpint (g_rename (from, to), ==, 0);
    }

  session = session_on (job_dir);
  profile = wait_answer (session);
  smprof_session_set_preset (session, SMPROF_PRESET_TRAINING_LOOP);
  smprof_session_set_node_ids (session, (const char *[]) { "1-algo-2", NULL });
  g_clear_object (&profile);
  profile = wait_answer (session);
  before = smprof_session_get_job (session);
  n_before = smprof_job_get_records (before, SMPROF_PROFILER_CPROFILE)->len;

  /* Nothing new: the job stays. */
  smprof_session_refresh_async (session, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (smprof_session_refresh_finish (session, result, &error));
  g_assert_no_error (error);
  g_assert_true (smprof_session_get_job (session) == before);
  g_clear_object (&result);

  /* The training wrote its last intervals. */
  for (guint i = names->len - 10; i < names->len; i++)
    {
      g_autofree char *from = g_build_filename (held, g_ptr_array_index (names, i), NULL);
      g_autofree char *to = g_build_filename (node_dir, g_ptr_array_index (names, i), NULL);

      g_assert_cmpint (g_rename (from, to), ==, 0);
    }

  smprof_session_refresh_async (session, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (smprof_session_refresh_finish (session, result, &error));
  g_assert_no_error (error);
  g_assert_true (smprof_session_get_job (session) != before);
  g_assert_cmpuint (smprof_job_get_records (smprof_session_get_job (session), SMPROF_PROFILER_CPROFILE)->len, ==,
                    n_before + 10);
  g_assert_cmpint (smprof_session_get_preset (session), ==, SMPROF_PRESET_TRAINING_LOOP);
  g_assert_cmpstrv (smprof_session_get_chosen_node_ids (session), ((const char *[]) { "1-algo-2", NULL }));

  g_clear_object (&profile);
  profile = wait_answer (session);
  g_assert_true (smprof_profile_get_job (profile) == smprof_session_get_job (session));
  check_stats_member (profile, job_dir, (const char *[]) { "--job-phase", "--node", "1-algo-2", NULL },
                      "training_loop");

  g_clear_object (&session);
  core_test_remove_tree (tmp);
}

/* ------------------------------------------------------------------------ */
/* Node names                                                               */

/* Nodes in natural order everywhere: "2-algo-3" before "10-algo-11", in the
 * session and in the command line's answers (the exports' subtitles). */
static void
test_natural_order (void)
{
  static const char * const names[] = { "10-algo-11", "2-algo-3", "1-algo-2", "0-algo-1", "21-algo-22", NULL };
  static const char * const sorted[] = { "0-algo-1", "1-algo-2", "2-algo-3", "10-algo-11", "21-algo-22", NULL };
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "tf-cprofile", "framework",
                                                   "tensorflow", "cprofile", "25644-algo-1", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("smprof-session-XXXXXX", NULL);
  g_autofree char *profiler_dir = g_build_filename (tmp, "framework", "tensorflow", "cprofile", NULL);
  g_autoptr(SmprofSession) session = NULL;
  g_autoptr(SmprofProfile) profile = NULL;
  g_autoptr(JsonObject) root = NULL;
  JsonArray *node_ids;

  g_assert_true (g_file_test (source, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (g_mkdir_with_parents (profiler_dir, 0700), ==, 0);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *to = g_build_filename (profiler_dir, names[i], NULL);

      copy_tree (source, to);
    }

  session = session_on (tmp);
  g_assert_cmpstrv (smprof_session_get_all_node_ids (session), sorted);
  profile = wait_answer (session);
  g_assert_cmpstrv (smprof_profile_get_node_ids (profile), sorted);

  /* Chosen in any order, kept in natural order. */
  smprof_session_set_node_ids (session, (const char *[]) { "10-algo-11", "2-algo-3", NULL });
  g_assert_cmpstrv (smprof_session_get_chosen_node_ids (session), ((const char *[]) { "2-algo-3", "10-algo-11", NULL }));

  root = run_cli_json ((const char *[]) { "stats", tmp, "--all", "--node", "all", "--json", NULL });
  node_ids = json_object_get_array_member (root, "node_ids");
  g_assert_cmpuint (json_array_get_length (node_ids), ==, g_strv_length ((char **) sorted));
  for (guint i = 0; sorted[i] != NULL; i++)
    g_assert_cmpstr (json_array_get_string_element (node_ids, i), ==, sorted[i]);

  g_assert_cmpint (smprof_node_id_compare ("algo-2", "algo-10"), <, 0);
  g_assert_cmpint (smprof_node_id_compare ("007", "7"), !=, 0);
  g_assert_cmpint (smprof_node_id_compare ("node-09", "node-10"), <, 0);
  g_assert_cmpint (smprof_node_id_compare ("b", "a10"), >, 0);

  g_clear_object (&session);
  core_test_remove_tree (tmp);
}

/* ------------------------------------------------------------------------ */
/* Transforms                                                               */

static void
count_signal (gpointer  instance,
              guint    *count)
{
  (*count)++;
}

/* "file:line:function", the key `smprof stats --json` gives a row. */
static char *
dup_row_key (SmprofFunctionKeys *table,
             guint32             func)
{
  return g_strdup_printf ("%s:%" G_GINT64_FORMAT ":%s", smprof_function_keys_get_file (table, func),
                          smprof_function_keys_get_line (table, func), smprof_function_keys_get_name (table, func));
}

/* The view profile is what `smprof stats JOB ARGS OPTIONS --json` gives,
 * OPTIONS being the session's transforms as the command line spells them
 * (smprof_session_dup_transform_options()): the same total time, the same
 * functions with the same self and cumulative times. */
static void
check_view_against_cli (SmprofSession      *session,
                        const char         *job,
                        const char * const *args)
{
  SmprofProfile *view = smprof_session_get_view_profile (session);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (view));
  g_autofree char *path = job_path (job);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) options = smprof_session_dup_transform_options (session);
  g_auto(GStrv) argv = NULL;
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GHashTable) rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonArray *functions;

  g_strv_builder_add_many (builder, "stats", path, NULL);
  g_strv_builder_addv (builder, (const char **) args);
  for (guint i = 0; options[i] != NULL; i++)
    {
      g_auto(GStrv) words = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (g_shell_parse_argv (options[i], NULL, &words, &error));
      g_assert_no_error (error);
      g_strv_builder_addv (builder, (const char **) words);
    }
  g_strv_builder_add (builder, "--json");
  argv = g_strv_builder_end (builder);
  root = run_cli_json ((const char * const *) argv);

  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "transforms")), ==,
                    g_strv_length (options));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (root, "total_time"),
                                  smprof_profile_get_total_time (view), 1e-6);

  for (guint i = 0; i < smprof_profile_get_n_functions (view); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (view, i);

      g_hash_table_insert (rows, dup_row_key (table, row->func), (gpointer) row);
    }

  functions = json_object_get_array_member (root, "functions");
  g_assert_cmpuint (json_array_get_length (functions), ==, smprof_profile_get_n_functions (view));
  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *function = json_array_get_object_element (functions, i);
      g_autofree char *key = g_strdup_printf ("%s:%" G_GINT64_FORMAT ":%s",
                                              json_object_get_string_member (function, "file"),
                                              json_object_get_int_member (function, "line"),
                                              json_object_get_string_member (function, "function"));
      const SmprofFunctionRow *row = g_hash_table_lookup (rows, key);

      g_assert_nonnull (row);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (function, "tottime"), row->tottime, 1e-6);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (function, "cumtime"), row->cumtime, 1e-6);
    }

  g_test_message ("smprof stats %s %s: %.6f s, %u functions: equal", args[0],
                  options[0] != NULL ? options[0] : "", smprof_profile_get_total_time (view),
                  json_array_get_length (functions));
}

/* smprof_session_dup_command_line() run as `smprof stats ... --json`
 * answers what the session's views show: the same intervals, total time
 * and functions. */
static void
check_command_line (SmprofSession *session)
{
  g_autofree char *line = smprof_session_dup_command_line (session, "stats", NULL);
  SmprofProfile *view = smprof_session_get_view_profile (session);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) words = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) root = NULL;

  g_assert_nonnull (line);
  g_assert_true (g_shell_parse_argv (line, NULL, &words, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (words[0], ==, "smprof");
  g_assert_cmpstr (words[1], ==, "stats");
  g_strv_builder_addv (builder, (const char **) words + 1);
  g_strv_builder_add (builder, "--json");
  argv = g_strv_builder_end (builder);
  root = run_cli_json ((const char * const *) argv);

  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "intervals")), ==,
                    smprof_profile_get_records (view)->len);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (root, "total_time"),
                                  smprof_profile_get_total_time (view), 1e-6);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "functions")), ==,
                    smprof_profile_get_n_functions (view));
  g_test_message ("%s: equal", line);
}

/* The function with the most self time, and one that calls others, with
 * the most cumulative time short of the whole (a focus that changes the
 * tree). */
static void
pick_functions (SmprofProfile *profile,
                guint32       *busiest,
                guint32       *middle)
{
  double best_self = -1, best_cum = -1;
  double total = smprof_profile_get_total_time (profile);

  *busiest = *middle = SMPROF_FUNC_NONE;
  for (guint i = 0; i < smprof_profile_get_n_functions (profile); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);

      if (row->tottime > best_self)
        {
          best_self = row->tottime;
          *busiest = row->func;
        }
      if (row->cumtime < 0.6 * total && row->cumtime > 1.5 * row->tottime && row->cumtime > best_cum)
        {
          best_cum = row->cumtime;
          *middle = row->func;
        }
    }
  g_assert_cmpuint (*busiest, !=, SMPROF_FUNC_NONE);
  g_assert_cmpuint (*middle, !=, SMPROF_FUNC_NONE);
}

/* Pushing, popping and cutting the list: each step's view profile is the
 * command line's answer with the same options, the aggregate itself stays,
 * and a new selection keeps the transforms. */
static void
test_transforms (void)
{
  g_autoptr(SmprofSession) session = session_on ("pt-cprofile");
  const char *whole[] = { "--all", "--node", "all", NULL };
  const char *steps[] = { "--step", "3", "--end-step", "5", "--node", "all", NULL };
  g_autoptr(SmprofTransform) merge = NULL;
  g_autoptr(SmprofTransform) focus = NULL;
  SmprofProfile *aggregate;
  guint32 busiest, middle;
  guint n_changed = 0;
  double merged_total;

  /* steps 3 to 5 first: their functions are the whole job's too, and the
   * command line refuses to reshape by a function the selection lacks */
  g_object_unref (wait_answer (session));
  smprof_session_set_step_range (session, 3, 5);
  aggregate = wait_answer (session);
  g_object_unref (aggregate);
  aggregate = smprof_session_get_profile (session);
  g_assert_true (smprof_session_get_view_profile (session) == aggregate);
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 0);
  g_signal_connect (session, "transforms-changed", G_CALLBACK (count_signal), &n_changed);

  pick_functions (aggregate, &busiest, &middle);
  merge = smprof_transform_new_merge (busiest);
  focus = smprof_transform_new_focus_function (middle);

  /* push: merge, then focus */
  smprof_session_push_transform (session, merge);
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_true (smprof_session_get_view_profile (session) != aggregate);
  g_assert_true (smprof_session_get_profile (session) == aggregate);
  check_view_against_cli (session, "pt-cprofile", steps);
  merged_total = smprof_profile_get_total_time (smprof_session_get_view_profile (session));

  smprof_session_push_transform (session, focus);
  g_assert_cmpuint (n_changed, ==, 2);
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 2);
  check_view_against_cli (session, "pt-cprofile", steps);
  check_command_line (session);
  /* the focus keeps only the stacks through @middle: less than the whole */
  g_assert_cmpfloat (smprof_profile_get_total_time (smprof_session_get_view_profile (session)), <, merged_total);

  {
    g_auto(GStrv) options = smprof_session_dup_transform_options (session);
    g_autofree char *described = smprof_session_describe_transform (session, 1);

    g_assert_cmpuint (g_strv_length (options), ==, 2);
    g_assert_true (g_str_has_prefix (options[0], "--merge "));
    g_assert_true (g_str_has_prefix (options[1], "--focus "));
    g_assert_true (g_str_has_prefix (described, "Focus on "));
  }

  /* a new selection keeps them: the whole job's aggregate, reshaped */
  smprof_session_set_preset (session, SMPROF_PRESET_WHOLE_JOB);
  g_object_unref (wait_answer (session));
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 2);
  check_stats (smprof_session_get_profile (session), "pt-cprofile", whole);
  check_view_against_cli (session, "pt-cprofile", whole);
  check_command_line (session);
  smprof_session_set_mode_pair (session, SMPROF_MODE_TRAIN, SMPROF_MODE_EVAL);
  g_object_unref (wait_answer (session));
  check_command_line (session);
  smprof_session_set_node_ids (session, (const char *[]) { smprof_session_get_all_node_ids (session)[1], NULL });
  g_object_unref (wait_answer (session));
  check_command_line (session);
  smprof_session_set_node_ids (session, NULL);
  /* initialization: none of the transforms' functions, which the command
   * line refuses */
  smprof_session_set_preset (session, SMPROF_PRESET_INITIALIZATION);
  g_object_unref (wait_answer (session));
  g_assert_null (smprof_session_dup_command_line (session, "stats", NULL));
  /* the training loop has no one option that selects it */
  smprof_session_set_preset (session, SMPROF_PRESET_TRAINING_LOOP);
  g_object_unref (wait_answer (session));
  g_assert_null (smprof_session_dup_command_line (session, "stats", NULL));
  smprof_session_set_step_range (session, 3, 5);
  g_object_unref (wait_answer (session));

  /* pop: undo the focus */
  g_assert_true (smprof_session_pop_transform (session));
  g_assert_cmpuint (n_changed, ==, 3);
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 1);
  check_view_against_cli (session, "pt-cprofile", steps);

  /* hide libraries: pushed, then taken out with the others kept */
  smprof_session_set_hide_libraries (session, TRUE);
  g_assert_true (smprof_session_get_hide_libraries (session));
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 2);
  check_view_against_cli (session, "pt-cprofile", steps);
  smprof_session_push_transform (session, focus);
  smprof_session_set_hide_libraries (session, FALSE);
  g_assert_false (smprof_session_get_hide_libraries (session));
  g_assert_cmpuint (smprof_session_get_transforms (session)->len, ==, 2);
  g_assert_cmpint (smprof_transform_get_kind (g_ptr_array_index (smprof_session_get_transforms (session), 1)), ==,
                   SMPROF_TRANSFORM_FOCUS_FUNCTION);
  check_view_against_cli (session, "pt-cprofile", steps);

  /* truncate to a crumb, then clear: back to the aggregate itself */
  n_changed = 0;
  smprof_session_truncate_transforms (session, 5);
  g_assert_cmpuint (n_changed, ==, 0);
  smprof_session_truncate_transforms (session, 1);
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_cmpint (smprof_transform_get_kind (g_ptr_array_index (smprof_session_get_transforms (session), 0)), ==,
                   SMPROF_TRANSFORM_MERGE);
  check_view_against_cli (session, "pt-cprofile", steps);
  smprof_session_clear_transforms (session);
  g_assert_cmpuint (n_changed, ==, 2);
  g_assert_true (smprof_session_get_view_profile (session) == smprof_session_get_profile (session));
  g_assert_false (smprof_session_pop_transform (session));
  g_assert_cmpuint (n_changed, ==, 2);

  smprof_session_set_preset (session, SMPROF_PRESET_INITIALIZATION);
  g_object_unref (wait_answer (session));
  check_command_line (session);
}

/* ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------ */
/* Letting go                                                               */

static void
finalized_cb (gpointer  data,
              GObject  *where_the_object_was)
{
  GThread **thread = data;

  g_atomic_pointer_set (thread, g_thread_self ());
}

/* A session let go of with its answer, the job's per-step statistics and
 * its range index made: the job is freed, and not on the thread that let
 * go of the session (freeing a 256-node job froze the viewer's window for
 * a fifth of a second when it closed). */
static void
test_released_off_thread (void)
{
  SmprofSession *session = session_on ("pt-cprofile");
  g_autoptr(SmprofProfile) profile = wait_answer (session);
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  GThread *finalized_on = NULL;

  while (smprof_session_get_job_step_stats (session) == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  spin_until_set (session, "range-index");
  g_object_weak_ref (G_OBJECT (smprof_session_get_job (session)), finalized_cb, &finalized_on);

  g_clear_object (&profile);
  g_object_unref (session);
  smprof_release_wait ();
  while (g_atomic_pointer_get (&finalized_on) == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  g_assert_true (g_atomic_pointer_get (&finalized_on) != g_thread_self ());
}

/* Holds the release thread (smprof-release.c) until opened. */
typedef struct
{
  GMutex   lock;
  GCond    cond;
  gboolean open;
} Gate;

static void
wait_at_gate (gpointer data)
{
  Gate *gate = data;

  g_mutex_lock (&gate->lock);
  while (!gate->open)
    g_cond_wait (&gate->cond, &gate->lock);
  g_mutex_unlock (&gate->lock);
}

static void
open_gate (Gate *gate)
{
  g_mutex_lock (&gate->lock);
  gate->open = TRUE;
  g_cond_broadcast (&gate->cond);
  g_mutex_unlock (&gate->lock);
}

/* A refresh that finds nothing new lets go of the job it listed off the
 * main thread: on a 256-node job, freeing it there froze the window for
 * 20-45 ms at every refresh. With the release thread held, the listed job
 * is still alive once the refresh has answered (it holds the source, as
 * every job of it does), and it goes when the thread goes on. */
static void
test_unchanged_refresh_released_off_thread (void)
{
  g_autoptr(SmprofSession) session = session_on ("pt-cprofile");
  g_autoptr(SmprofProfile) profile = wait_answer (session);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  SmprofSource *source = smprof_job_get_source (smprof_session_get_job (session));
  Gate gate = { 0 };
  guint refs_before;

  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  smprof_release_wait ();
  refs_before = g_atomic_int_get (&G_OBJECT (source)->ref_count);
  smprof_release_in_background (&gate, wait_at_gate);

  smprof_session_refresh_async (session, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (smprof_session_refresh_finish (session, result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_atomic_int_get (&G_OBJECT (source)->ref_count), ==, refs_before + 1);

  open_gate (&gate);
  smprof_release_wait ();
  g_assert_cmpuint (g_atomic_int_get (&G_OBJECT (source)->ref_count), ==, refs_before);
  g_mutex_clear (&gate.lock);
  g_cond_clear (&gate.cond);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/load", test_load);
  g_test_add_func ("/session/selection", test_selection);
  g_test_add_func ("/session/global-steps", test_global_steps);
  g_test_add_func ("/session/range", test_range);
  g_test_add_func ("/session/stale-generations", test_stale_generations);
  g_test_add_func ("/session/compare", test_compare);
  g_test_add_func ("/session/compare-outlier", test_compare_outlier);
  g_test_add_func ("/session/refresh", test_refresh);
  g_test_add_func ("/session/unchanged-refresh-released-off-thread", test_unchanged_refresh_released_off_thread);
  g_test_add_func ("/session/natural-order", test_natural_order);
  g_test_add_func ("/session/transforms", test_transforms);
  g_test_add_func ("/session/released-off-thread", test_released_off_thread);

  return g_test_run ();
}
