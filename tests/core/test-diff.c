/* test-diff.c: the comparison of two selections (the numbers against
 * `smprof stats` are checked end to end in tests/cli/test_diff.py)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-aggregate.h"
#include "smprof-diff.h"
#include "smprof-query.h"

static guint
count_names (const char * const *names)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; names[i] != NULL; i++)
    {
      SmprofRecord *record = g_new0 (SmprofRecord, 1);
      g_autoptr(GError) error = NULL;
      const char *slash = strchr (names[i], '/');
      g_autofree char *node_id = g_strndup (names[i], slash - names[i]);

      record->node_id = g_intern_string (node_id);
      g_assert_true (smprof_interval_name_parse (slash + 1, &record->name, &error));
      g_assert_no_error (error);
      g_ptr_array_add (records, record);
    }

  return smprof_diff_count_steps (records);
}

static void
test_count_steps (void)
{
  const char *ends_as_next_starts[] = { "n1/train-5-forwardpassend-1.0_train-6-stepstart-2.0", NULL };
  const char *one_step_twice[] = {
    "n1/train-5-stepstart-1.0_train-5-forwardpassend-2.0",
    "n1/train-5-forwardpassend-2.0_train-6-stepstart-3.0",
    NULL
  };
  const char *before_zero[] = { "n1/prestepzero-*-start-1.0_train-0-stepstart-2.0", NULL };
  const char *three[] = { "n1/train-3-stepstart-1.0_train-5-stepend-2.0", NULL };
  const char *modes_and_nodes[] = {
    "n1/train-3-stepstart-1.0_train-3-stepend-2.0",
    "n1/eval-3-stepstart-3.0_eval-3-stepend-4.0",
    "n2/train-3-stepstart-1.0_train-3-stepend-2.0",
    NULL
  };
  const char *to_the_end[] = { "n1/eval-19-forwardpassend-1.0_posthookclose-*-end-2.0", NULL };
  const char *mode_change[] = { "n1/train-7-forwardpassend-1.0_eval-8-stepstart-2.0", NULL };

  g_assert_cmpuint (count_names (ends_as_next_starts), ==, 1);
  g_assert_cmpuint (count_names (one_step_twice), ==, 1);
  g_assert_cmpuint (count_names (before_zero), ==, 0);
  g_assert_cmpuint (count_names (three), ==, 3);
  g_assert_cmpuint (count_names (modes_and_nodes), ==, 3);
  g_assert_cmpuint (count_names (to_the_end), ==, 1);
  g_assert_cmpuint (count_names (mode_change), ==, 1);
}

static void
test_ratio (void)
{
  g_assert_true (isnan (smprof_diff_ratio (0, 0)));
  g_assert_true (isinf (smprof_diff_ratio (0, 2)) && smprof_diff_ratio (0, 2) > 0);
  g_assert_cmpfloat (smprof_diff_ratio (2, 1), ==, 0.5);
  g_assert_cmpfloat (smprof_diff_ratio (2, 0), ==, 0);
}

/* A selection against itself: nothing changed, everything is on both sides. */
static void
check_self (const char     *job_name,
            SmprofProfiler  profiler)
{
  g_autoptr(SmprofJob) job = core_test_load_job (job_name);
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_autoptr(SmprofProfile) profile = core_test_profile_of (job, profiler, &all);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofDiff) diff = smprof_diff_new (profile, profile, SMPROF_DIFF_NORMALIZE_NONE, &error);
  SmprofCallTree *tree;

  g_assert_no_error (error);
  g_assert_cmpuint (smprof_diff_get_n_rows (diff), ==, smprof_profile_get_n_functions (profile));
  for (guint i = 0; i < smprof_diff_get_n_rows (diff); i++)
    {
      const SmprofDiffRow *row = smprof_diff_get_row (diff, i);

      g_assert_cmpint (row->sides, ==, SMPROF_DIFF_IN_BOTH);
      g_assert_cmpfloat (row->tottime[SMPROF_DIFF_A], ==, row->tottime[SMPROF_DIFF_B]);
      g_assert_cmpfloat (row->cumtime[SMPROF_DIFF_A], ==, row->cumtime[SMPROF_DIFF_B]);
    }

  tree = smprof_diff_get_tree (diff);
  g_assert_cmpuint (smprof_call_tree_get_n_nodes (tree), ==,
                    smprof_call_tree_get_n_nodes (smprof_profile_get_call_tree (profile)));
  for (guint32 i = 1; i < smprof_call_tree_get_n_nodes (tree); i++)
    {
      const SmprofDiffFrame *frame = smprof_diff_get_frame (diff, i);

      g_assert_cmpint (frame->sides, ==, SMPROF_DIFF_IN_BOTH);
      g_assert_cmpfloat (frame->total[SMPROF_DIFF_A], ==, frame->total[SMPROF_DIFF_B]);
      g_assert_cmpfloat (smprof_call_tree_get_node (tree, i)->total, ==, frame->total[SMPROF_DIFF_B]);
    }
}

static void
test_self_cprofile (void)
{
  check_self ("tf-cprofile", SMPROF_PROFILER_CPROFILE);
}

static void
test_self_pyinstrument (void)
{
  check_self ("pt-pyinstrument", SMPROF_PROFILER_PYINSTRUMENT);
}

/* Two different selections: widths come from B, stacks only in A keep their
 * A time, and no frame is wider than its caller. */
static void
test_drawn_tree (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-pyinstrument");
  SmprofSelection before = { .kind = SMPROF_SELECT_PRE_STEP_ZERO };
  SmprofSelection step;
  g_autoptr(SmprofProfile) a = core_test_profile_of (job, SMPROF_PROFILER_PYINSTRUMENT, &before);
  g_autoptr(SmprofProfile) b = NULL;
  g_autoptr(SmprofDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  SmprofCallTree *tree;
  guint n_a_only = 0, n_b_only = 0;
  double a_roots = 0, b_roots = 0, a_only_roots = 0;

  smprof_selection_init_step (&step, 7);
  b = core_test_profile_of (job, SMPROF_PROFILER_PYINSTRUMENT, &step);
  diff = smprof_diff_new (a, b, SMPROF_DIFF_NORMALIZE_INTERVAL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (smprof_diff_get_divisor (diff, SMPROF_DIFF_A), ==, smprof_profile_get_records (a)->len);
  tree = smprof_diff_get_tree (diff);

  for (guint32 i = 1; i < smprof_call_tree_get_n_nodes (tree); i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      const SmprofDiffFrame *frame = smprof_diff_get_frame (diff, i);
      double children = 0;

      for (guint32 c = node->first_child; c != SMPROF_CALL_TREE_NONE;
           c = smprof_call_tree_get_node (tree, c)->next_sibling)
        children += smprof_call_tree_get_node (tree, c)->total;
      g_assert_cmpfloat (children, <=, node->total * (1 + 1e-9) + 1e-12);

      if (frame->sides == SMPROF_DIFF_IN_A)
        {
          n_a_only++;
          g_assert_cmpfloat (node->total, ==, frame->total[SMPROF_DIFF_A]);
          g_assert_cmpfloat (frame->total[SMPROF_DIFF_B], ==, 0);
        }
      else
        {
          n_b_only += frame->sides == SMPROF_DIFF_IN_B;
          g_assert_cmpfloat (node->total, >=, frame->total[SMPROF_DIFF_B]);
        }

      if (node->parent == SMPROF_CALL_TREE_ROOT)
        {
          a_roots += frame->total[SMPROF_DIFF_A];
          b_roots += frame->total[SMPROF_DIFF_B];
          if (frame->sides == SMPROF_DIFF_IN_A)
            a_only_roots += frame->total[SMPROF_DIFF_A];
        }
    }

  /* Both sides have stacks of their own, and every A frame is kept. */
  g_assert_cmpuint (n_a_only, >, 0);
  g_assert_cmpuint (n_b_only, >, 0);
  g_assert_cmpfloat_with_epsilon (a_roots, smprof_diff_get_total_time (diff, SMPROF_DIFF_A), 1e-9);
  g_assert_cmpfloat_with_epsilon (b_roots, smprof_diff_get_total_time (diff, SMPROF_DIFF_B), 1e-9);
  g_assert_cmpfloat_with_epsilon (smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->total,
                                  MAX (b_roots + a_only_roots, 0), 1e-9);
}

static void
test_no_steps (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("tf-cprofile");
  SmprofSelection before = { .kind = SMPROF_SELECT_PRE_STEP_ZERO };
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  g_autoptr(SmprofProfile) a = core_test_profile_of (job, SMPROF_PROFILER_CPROFILE, &before);
  g_autoptr(SmprofProfile) b = core_test_profile_of (job, SMPROF_PROFILER_CPROFILE, &all);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofDiff) diff = smprof_diff_new (a, b, SMPROF_DIFF_NORMALIZE_STEP, &error);

  g_assert_null (diff);
  g_assert_error (error, SMPROF_DIFF_ERROR, SMPROF_DIFF_ERROR_NO_STEPS);
}

/* AUTO: per step when the sides cover different numbers of steps, both
 * some; raw totals otherwise. What smprof_diff_new() resolved is kept, and
 * what was asked for. */
static void
test_auto (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("tf-cprofile");
  SmprofSelection before = { .kind = SMPROF_SELECT_PRE_STEP_ZERO };
  SmprofSelection short_range, long_range;
  g_autoptr(SmprofProfile) a = NULL;
  g_autoptr(SmprofProfile) b = NULL;
  g_autoptr(SmprofProfile) none = NULL;
  g_autoptr(SmprofDiff) diff = NULL;
  g_autoptr(SmprofDiff) same = NULL;
  g_autoptr(SmprofDiff) no_steps = NULL;
  g_autoptr(GError) error = NULL;
  SmprofDiffNormalize parsed;

  g_assert_cmpint (smprof_diff_normalize_resolve (SMPROF_DIFF_NORMALIZE_AUTO, 4, 8), ==, SMPROF_DIFF_NORMALIZE_STEP);
  g_assert_cmpint (smprof_diff_normalize_resolve (SMPROF_DIFF_NORMALIZE_AUTO, 4, 4), ==, SMPROF_DIFF_NORMALIZE_NONE);
  g_assert_cmpint (smprof_diff_normalize_resolve (SMPROF_DIFF_NORMALIZE_AUTO, 0, 4), ==, SMPROF_DIFF_NORMALIZE_NONE);
  g_assert_cmpint (smprof_diff_normalize_resolve (SMPROF_DIFF_NORMALIZE_INTERVAL, 4, 8), ==,
                   SMPROF_DIFF_NORMALIZE_INTERVAL);
  g_assert_true (smprof_diff_normalize_from_string ("auto", &parsed));
  g_assert_cmpint (parsed, ==, SMPROF_DIFF_NORMALIZE_AUTO);
  g_assert_cmpstr (smprof_diff_normalize_to_string (SMPROF_DIFF_NORMALIZE_AUTO), ==, "auto");

  smprof_selection_init_step (&short_range, 0);
  short_range.end_step = 1;
  smprof_selection_init_step (&long_range, 10);
  long_range.end_step = 13;
  a = core_test_profile_of (job, SMPROF_PROFILER_CPROFILE, &short_range);
  b = core_test_profile_of (job, SMPROF_PROFILER_CPROFILE, &long_range);
  none = core_test_profile_of (job, SMPROF_PROFILER_CPROFILE, &before);

  diff = smprof_diff_new (a, b, SMPROF_DIFF_NORMALIZE_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (smprof_diff_get_normalize (diff), ==, SMPROF_DIFF_NORMALIZE_STEP);
  g_assert_cmpint (smprof_diff_get_requested_normalize (diff), ==, SMPROF_DIFF_NORMALIZE_AUTO);
  g_assert_cmpfloat (smprof_diff_get_divisor (diff, SMPROF_DIFF_A), ==, 4);   /* 2 steps on 2 nodes */
  g_assert_cmpfloat (smprof_diff_get_divisor (diff, SMPROF_DIFF_B), ==, 8);

  same = smprof_diff_new (a, a, SMPROF_DIFF_NORMALIZE_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (smprof_diff_get_normalize (same), ==, SMPROF_DIFF_NORMALIZE_NONE);
  g_assert_cmpfloat (smprof_diff_get_divisor (same, SMPROF_DIFF_A), ==, 1);

  /* no error where per step would give one: a side of no step */
  no_steps = smprof_diff_new (none, b, SMPROF_DIFF_NORMALIZE_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (smprof_diff_get_normalize (no_steps), ==, SMPROF_DIFF_NORMALIZE_NONE);
}

/* Sorted by growth: deltas never increase, and every row is listed once. */
static void
test_sorted (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("tf-cprofile");
  SmprofSelection early, late;
  g_autoptr(SmprofProfile) a = NULL;
  g_autoptr(SmprofProfile) b = NULL;
  g_autoptr(SmprofDiff) diff = NULL;
  g_autoptr(GArray) order = NULL;
  g_autoptr(GError) error = NULL;
  double previous = INFINITY;

  smprof_selection_init_step (&early, 0);
  early.end_step = 3;
  smprof_selection_init_step (&late, 10);
  late.end_step = 13;
  a = core_test_profile_of (job, SMPROF_PROFILER_CPROFILE, &early);
  b = core_test_profile_of (job, SMPROF_PROFILER_CPROFILE, &late);
  diff = smprof_diff_new (a, b, SMPROF_DIFF_NORMALIZE_STEP, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (smprof_diff_get_n_steps (diff, SMPROF_DIFF_A), ==, 8);   /* 4 steps on 2 nodes */

  order = smprof_diff_sorted (diff, SMPROF_DIFF_METRIC_CUMTIME, SMPROF_DIFF_COLUMN_DELTA);
  g_assert_cmpuint (order->len, ==, smprof_diff_get_n_rows (diff));
  for (guint i = 0; i < order->len; i++)
    {
      const SmprofDiffRow *row = smprof_diff_get_row (diff, g_array_index (order, guint, i));
      double delta = row->cumtime[SMPROF_DIFF_B] - row->cumtime[SMPROF_DIFF_A];

      g_assert_cmpfloat (delta, <=, previous);
      previous = delta;
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/diff/count-steps", test_count_steps);
  g_test_add_func ("/diff/ratio", test_ratio);
  g_test_add_func ("/diff/self/cprofile", test_self_cprofile);
  g_test_add_func ("/diff/self/pyinstrument", test_self_pyinstrument);
  g_test_add_func ("/diff/drawn-tree", test_drawn_tree);
  g_test_add_func ("/diff/no-steps", test_no_steps);
  g_test_add_func ("/diff/auto", test_auto);
  g_test_add_func ("/diff/sorted", test_sorted);

  return g_test_run ();
}
