/* test-estimated-tree.c: one call tree per selection, which adds up
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "core-test-util.h"
#include "smprof-aggregate.h"
#include "smprof-estimated-tree.h"
#include "smprof-profile.h"
#include "smprof-query.h"
#include "smprof-range-index.h"

#define N_SELECTIONS 24

/* Every node's children sum to at most its total, and self + children = total.
 * (Pyinstrument writes times rounded to the microsecond, so a sampled frame's
 * children may pass it by that much.) */
static void
assert_tree_consistent (SmprofCallTree *tree,
                        double          rounding)
{
  for (guint32 i = 0; i < smprof_call_tree_get_n_nodes (tree); i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      double children = 0;

      for (guint32 c = node->first_child; c != SMPROF_CALL_TREE_NONE; c = smprof_call_tree_get_node (tree, c)->next_sibling)
        children += smprof_call_tree_get_node (tree, c)->total;

      g_assert_cmpfloat (node->self, >=, -rounding);
      g_assert_cmpfloat (children, <=, node->total * (1 + 1e-9) + rounding);
      if (i != SMPROF_CALL_TREE_ROOT)
        g_assert_cmpfloat_with_epsilon (node->self + children, node->total, 1e-9 + node->total * 1e-9);
    }
}

/* The properties every tree holds, whatever the selection:
 * - its root frames sum to the selection's total time, within a microsecond;
 * - a function's frames (the outermost ones, for a sampled tree) never hold
 *   more than its cumulative time;
 * - for cProfile, a function's frames hold its self time (tottime) in all,
 *   within a microsecond, so the tree and the function table agree. */
static void
assert_tree_adds_up (SmprofProfile *profile)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  guint n_funcs = smprof_function_keys_get_size (table);
  g_autofree double *inclusive = g_new0 (double, n_funcs);
  g_autofree double *self = g_new0 (double, n_funcs);
  double roots = 0;

  assert_tree_consistent (tree, smprof_profile_is_estimated (profile) ? 1e-12 : 1.5e-6);

  for (guint32 c = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->first_child; c != SMPROF_CALL_TREE_NONE;
       c = smprof_call_tree_get_node (tree, c)->next_sibling)
    roots += smprof_call_tree_get_node (tree, c)->total;
  g_assert_cmpfloat (fabs (roots - smprof_profile_get_total_time (profile)), <=, 1e-6);
  for (guint32 c = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->first_child; c != SMPROF_CALL_TREE_NONE;
       c = smprof_call_tree_get_node (tree, c)->next_sibling)
    if (smprof_function_is_unattributed (table, smprof_call_tree_get_node (tree, c)->func))
      g_test_message ("unattributed: %.6f s of %.6f s (%.2f %%)", smprof_call_tree_get_node (tree, c)->total, roots,
                      100 * smprof_call_tree_get_node (tree, c)->total / roots);
  g_assert_cmpfloat (fabs (smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->total - roots), <=, 1e-9);

  for (guint32 i = 1; i < smprof_call_tree_get_n_nodes (tree); i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      gboolean nested = FALSE;

      for (guint32 up = node->parent; up != SMPROF_CALL_TREE_ROOT && !nested;
           up = smprof_call_tree_get_node (tree, up)->parent)
        nested = smprof_call_tree_get_node (tree, up)->func == node->func;

      if (!nested)
        inclusive[node->func] += node->total;
      self[node->func] += node->self;
    }

  for (guint i = 0; i < smprof_profile_get_n_functions (profile); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);

      if (inclusive[row->func] > row->cumtime * (1 + 1e-9) + 1e-9)
        g_error ("%s: %.9f s in the tree, cumtime %.9f s", smprof_function_keys_get_name (table, row->func),
                 inclusive[row->func], row->cumtime);
      if (smprof_profile_is_estimated (profile) && fabs (self[row->func] - row->tottime) > 1e-6)
        g_error ("%s: self %.9f s in the tree, tottime %.9f s", smprof_function_keys_get_name (table, row->func),
                 self[row->func], row->tottime);
    }
}

/* path of function ids -> total, for comparing trees frame by frame */
static GHashTable *
dup_frames (SmprofCallTree *tree)
{
  GHashTable *frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n_nodes = smprof_call_tree_get_n_nodes (tree);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (paths, g_strdup (""));
  for (guint32 i = 1; i < n_nodes; i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      char *path = g_strdup_printf ("%s/%u", (const char *) g_ptr_array_index (paths, node->parent), node->func);
      double *total = g_new (double, 1);

      *total = node->total;
      g_ptr_array_add (paths, path);
      g_hash_table_insert (frames, g_strdup (path), total);
    }

  return frames;
}

/* Same frames, same times: frames of more than @slack seconds in one tree are
 * in the other, with times within @slack. */
static void
assert_same_frames (SmprofCallTree *a,
                    SmprofCallTree *b,
                    double          slack)
{
  g_autoptr(GHashTable) in_a = dup_frames (a);
  g_autoptr(GHashTable) in_b = dup_frames (b);
  GHashTableIter iter;
  gpointer key, value;

  for (guint pass = 0; pass < 2; pass++)
    {
      g_hash_table_iter_init (&iter, pass == 0 ? in_a : in_b);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          double *other = g_hash_table_lookup (pass == 0 ? in_b : in_a, key);
          double mine = *(double *) value;

          if (fabs (mine - (other != NULL ? *other : 0)) > slack)
            g_error ("frame %s: %.12f s against %.12f s", (const char *) key, mine, other != NULL ? *other : 0);
        }
    }
}

static SmprofProfile *
profile_of_records (SmprofJob      *job,
                    SmprofProfiler  profiler,
                    GPtrArray      *records)
{
  g_autoptr(GHashTable) nodes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree const char **ids = NULL;

  for (guint i = 0; i < records->len; i++)
    g_hash_table_add (nodes, (gpointer) ((SmprofRecord *) g_ptr_array_index (records, i))->node_id);
  ids = (const char **) g_hash_table_get_keys_as_array (nodes, NULL);

  return smprof_profile_new (job, profiler, ids, records);
}

/* A random selection: some of the nodes, then a run of each one's intervals
 * or a random handful of them. */
static GPtrArray *
random_selection (GPtrArray *records)
{
  GPtrArray *chosen = g_ptr_array_new ();
  gboolean run = g_test_rand_bit ();
  guint first = g_test_rand_int_range (0, records->len);
  guint length = g_test_rand_int_range (1, MAX (2, records->len / 2));
  g_autoptr(GHashTable) skipped = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (g_hash_table_contains (skipped, record->node_id) || g_test_rand_int_range (0, 4) == 0)
        {
          g_hash_table_add (skipped, (gpointer) record->node_id);
          continue;
        }
      if (run ? (record->order >= first && record->order < first + length) : g_test_rand_int_range (0, 3) == 0)
        g_ptr_array_add (chosen, record);
    }

  if (chosen->len == 0)
    g_ptr_array_add (chosen, g_ptr_array_index (records, first));

  return chosen;
}

static void
shuffle (GPtrArray *array)
{
  for (guint i = array->len; i > 1; i--)
    {
      guint j = g_test_rand_int_range (0, i);
      gpointer swap = array->pdata[i - 1];

      array->pdata[i - 1] = array->pdata[j];
      array->pdata[j] = swap;
    }
}

/* Random selections of a real job: each tree adds up, and summing the same
 * intervals in another order gives the same tree. */
static void
test_random_selections (gconstpointer data)
{
  const char *path = data;
  g_autofree char *folder = g_test_build_filename (G_TEST_DIST, "data", path, NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (folder);
  SmprofProfiler profiler = smprof_job_has_profiler (job, SMPROF_PROFILER_CPROFILE)
                            ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT;
  GPtrArray *records = smprof_job_get_records (job, profiler);

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));

  for (guint k = 0; k < N_SELECTIONS; k++)
    {
      g_autoptr(GPtrArray) chosen = random_selection (records);
      g_autoptr(GPtrArray) loaded = smprof_aggregate_loaded (chosen);
      g_autoptr(SmprofProfile) profile = NULL;
      g_autoptr(SmprofProfile) reordered = NULL;

      if (loaded->len == 0)
        continue;

      profile = profile_of_records (job, profiler, loaded);
      g_test_message ("%s: %u intervals, total %.6f s, %u frames", path, loaded->len,
                      smprof_profile_get_total_time (profile),
                      smprof_call_tree_get_n_nodes (smprof_profile_get_call_tree (profile)) - 1);
      assert_tree_adds_up (profile);

      shuffle (loaded);
      reordered = profile_of_records (job, profiler, loaded);
      assert_same_frames (smprof_profile_get_call_tree (profile), smprof_profile_get_call_tree (reordered),
                          1e-9 * MAX (1.0, smprof_profile_get_total_time (profile)));
    }
}

/* The timeline's ranges, summed by the range index, give the tree the same
 * intervals give when summed one by one. */
static void
test_range_index (gconstpointer data)
{
  const char *path = data;
  g_autofree char *folder = g_test_build_filename (G_TEST_DIST, "data", path, NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (folder);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofRangeIndex) index = smprof_range_index_new (job, SMPROF_PROFILER_CPROFILE, NULL, NULL, &error);
  double start_us, end_us;

  g_assert_no_error (error);
  g_assert_true (smprof_range_index_get_time_bounds (index, &start_us, &end_us));

  for (guint k = 0; k < N_SELECTIONS; k++)
    {
      double a = g_test_rand_double_range (start_us, end_us);
      double b = g_test_rand_double_range (start_us, end_us);
      g_autoptr(SmprofProfile) ranged = smprof_range_index_aggregate (index, NULL, MIN (a, b), MAX (a, b));
      g_autoptr(SmprofProfile) summed = NULL;
      GPtrArray *records = smprof_profile_get_records (ranged);

      if (records->len == 0)
        continue;

      assert_tree_adds_up (ranged);
      summed = profile_of_records (job, SMPROF_PROFILER_CPROFILE, records);
      assert_same_frames (smprof_profile_get_call_tree (ranged), smprof_profile_get_call_tree (summed),
                          1e-9 * MAX (1.0, smprof_profile_get_total_time (summed)));
    }
}

int
main (int   argc,
      char *argv[])
{
  static const char *jobs[] = {
    "real-smdebug/pt-cprofile", "real-smdebug/tf-cprofile", "corpus-outliers-cprofile",
    "real-smdebug/pt-pyinstrument", "real-smdebug/tf-pyinstrument", "corpus-outliers-pyinstrument",
  };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *name = g_strdup_printf ("/estimated-tree/random-selections/%s", jobs[i]);

      g_test_add_data_func (name, jobs[i], test_random_selections);
    }
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("/estimated-tree/range-index/%s", jobs[i]);

      g_test_add_data_func (name, jobs[i], test_range_index);
    }

  return g_test_run ();
}
