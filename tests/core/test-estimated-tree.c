/* test-estimated-tree.c: the cProfile call tree holds the time cProfile measured
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "core-test-util.h"
#include "smprof-profile.h"
#include "smprof-query.h"

/* Every node's children sum to at most its total, and self + children = total. */
static void
assert_tree_consistent (SmprofCallTree *tree)
{
  for (guint32 i = 1; i < smprof_call_tree_get_n_nodes (tree); i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      double children = 0;

      for (guint32 c = node->first_child; c != SMPROF_CALL_TREE_NONE; c = smprof_call_tree_get_node (tree, c)->next_sibling)
        children += smprof_call_tree_get_node (tree, c)->total;

      g_assert_cmpfloat (children, <=, node->total * (1 + 1e-9) + 1e-12);
      g_assert_cmpfloat_with_epsilon (node->self + children, node->total, 1e-9 + node->total * 1e-9);
    }
}

/* The tree is an estimate, but its root must hold the time cProfile measured
 * (pstats' total_tt): the frames running when profiling began are side-by-side
 * roots, and nothing is counted twice. Times here are quantised to 10 ms. */
static void
test_per_interval (gconstpointer data)
{
  g_autoptr(SmprofJob) job = core_test_load_job (data);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  double sum_of_differences = 0;

  g_assert_cmpuint (records->len, >, 0);
  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);
      g_autoptr(GPtrArray) one = g_ptr_array_new ();
      const char *nodes[] = { record->node_id, NULL };
      g_autoptr(SmprofProfile) profile = NULL;
      double measured, tree_total;

      g_ptr_array_add (one, record);
      profile = smprof_profile_new (job, SMPROF_PROFILER_CPROFILE, nodes, one);
      measured = smprof_profile_get_total_time (profile);
      tree_total = smprof_call_tree_get_node (smprof_profile_get_call_tree (profile), SMPROF_CALL_TREE_ROOT)->total;

      g_test_message ("%s/%s: measured %.3f, tree %.3f", record->node_id, record->interval, measured, tree_total);
      g_assert_cmpfloat (fabs (tree_total - measured), <=, MAX (0.0205, 0.1 * measured));
      assert_tree_consistent (smprof_profile_get_call_tree (profile));
      sum_of_differences += fabs (tree_total - measured);
    }

  g_assert_cmpfloat (sum_of_differences / records->len, <, 0.002);
}

static void
test_whole_job (gconstpointer data)
{
  g_autoptr(SmprofJob) job = core_test_load_job (data);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  SmprofNodeChoice all = { SMPROF_NODES_ALL, NULL };
  SmprofSelection everything = { .kind = SMPROF_SELECT_ALL };
  g_auto(GStrv) nodes = smprof_node_choice_resolve (&all, records);
  g_autoptr(GPtrArray) selected = smprof_select (records, (const char * const *) nodes, &everything);
  g_autoptr(SmprofProfile) profile = NULL;
  double measured, tree_total;

  g_assert_true (smprof_job_load_stats (job, selected, NULL, NULL));
  profile = smprof_profile_new (job, SMPROF_PROFILER_CPROFILE, (const char * const *) nodes, selected);
  measured = smprof_profile_get_total_time (profile);
  tree_total = smprof_call_tree_get_node (smprof_profile_get_call_tree (profile), SMPROF_CALL_TREE_ROOT)->total;

  g_test_message ("%s, all nodes: measured %.3f, tree %.3f", (const char *) data, measured, tree_total);
  g_assert_cmpfloat (fabs (tree_total - measured), <=, 0.05 * measured);
  g_assert_true (smprof_profile_is_estimated (profile));
  assert_tree_consistent (smprof_profile_get_call_tree (profile));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/estimated-tree/per-interval/pt-cprofile", "pt-cprofile", test_per_interval);
  g_test_add_data_func ("/estimated-tree/per-interval/tf-cprofile", "tf-cprofile", test_per_interval);
  g_test_add_data_func ("/estimated-tree/whole-job/pt-cprofile", "pt-cprofile", test_whole_job);
  g_test_add_data_func ("/estimated-tree/whole-job/tf-cprofile", "tf-cprofile", test_whole_job);

  return g_test_run ();
}
