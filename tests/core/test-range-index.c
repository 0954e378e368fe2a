/* test-range-index.c: range re-aggregation against the plain record-order merge
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "core-test-util.h"
#include "smprof-aggregate.h"
#include "smprof-query.h"
#include "smprof-range-index-private.h"

/* Checkpoint spacing and cold threshold: every path of the index on small
 * jobs (0 is the automatic spacing, with everything summed directly here). */
static const struct { guint stride; guint cold_max; } tunings[] = {
  { 1, 0 },
  { 2, 1 },
  { 3, 4 },
  { 7, 2 },
  { 0, 4 },
};

static const SmprofCallerStat *
find_caller (const SmprofProfileEntry *entry,
             guint32                   func)
{
  for (guint i = 0; i < entry->callers->len; i++)
    if (g_array_index (entry->callers, SmprofCallerStat, i).caller == func)
      return &g_array_index (entry->callers, SmprofCallerStat, i);

  return NULL;
}

/* @x and @got_records must be what the record-order merge (smprof_profile_new()'s)
 * gives for the same overlap selection: the same records, functions, callers
 * and counts; times within rounding of the total, or identical when @exact. */
static void
assert_same_sums (SmprofJob             *job,
                  const char * const    *node_ids,
                  SmprofCprofileProfile *x,
                  GPtrArray             *got_records,
                  double                 start_us,
                  double                 end_us,
                  gboolean               exact)
{
  SmprofSelection overlap = { .kind = SMPROF_SELECT_OVERLAP, .start_us = start_us, .end_us = end_us };
  g_autoptr(GPtrArray) selected = smprof_select (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE),
                                                 node_ids, &overlap);
  g_autoptr(GPtrArray) want_records = smprof_aggregate_loaded (selected);
  g_autoptr(SmprofCprofileProfile) y = smprof_aggregate_cprofile (job, want_records);
  double tolerance = exact ? 0 : 1e-12 * MAX (smprof_cprofile_profile_get_total_tt (y), 1);

  g_assert_cmpuint (got_records->len, ==, want_records->len);
  for (guint i = 0; i < got_records->len; i++)
    g_assert_true (g_ptr_array_index (got_records, i) == g_ptr_array_index (want_records, i));

  g_assert_cmpint (smprof_cprofile_profile_get_total_calls (x), ==, smprof_cprofile_profile_get_total_calls (y));
  g_assert_cmpint (smprof_cprofile_profile_get_prim_calls (x), ==, smprof_cprofile_profile_get_prim_calls (y));
  g_assert_cmpfloat_with_epsilon (smprof_cprofile_profile_get_total_tt (x),
                                  smprof_cprofile_profile_get_total_tt (y), tolerance + 1e-300);
  g_assert_cmpuint (smprof_cprofile_profile_get_n_entries (x), ==, smprof_cprofile_profile_get_n_entries (y));

  for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (y); i++)
    {
      const SmprofProfileEntry *b = smprof_cprofile_profile_get_entry (y, i);
      const SmprofProfileEntry *a = NULL;

      for (guint j = 0; j < smprof_cprofile_profile_get_n_entries (x) && a == NULL; j++)
        if (smprof_cprofile_profile_get_entry (x, j)->func == b->func)
          a = smprof_cprofile_profile_get_entry (x, j);

      g_assert_nonnull (a);
      g_assert_cmpint (a->nc, ==, b->nc);
      g_assert_cmpint (a->cc, ==, b->cc);
      if (exact)
        {
          g_assert_true (a->tt == b->tt);
          g_assert_true (a->ct == b->ct);
        }
      else
        {
          g_assert_cmpfloat_with_epsilon (a->tt, b->tt, tolerance + 1e-300);
          g_assert_cmpfloat_with_epsilon (a->ct, b->ct, tolerance + 1e-300);
        }

      g_assert_cmpuint (a->callers->len, ==, b->callers->len);
      for (guint c = 0; c < b->callers->len; c++)
        {
          const SmprofCallerStat *want_caller = &g_array_index (b->callers, SmprofCallerStat, c);
          const SmprofCallerStat *got_caller = find_caller (a, want_caller->caller);

          g_assert_nonnull (got_caller);
          g_assert_cmpint (got_caller->nc, ==, want_caller->nc);
          g_assert_cmpint (got_caller->cc, ==, want_caller->cc);
          g_assert_cmpfloat_with_epsilon (got_caller->tt, want_caller->tt, tolerance + 1e-300);
          g_assert_cmpfloat_with_epsilon (got_caller->ct, want_caller->ct, tolerance + 1e-300);
        }
    }
}

/* The whole profile: its stats as above, and what SmprofProfile adds. */
static void
assert_same_profile (SmprofJob          *job,
                     const char * const *node_ids,
                     SmprofProfile      *got,
                     double              start_us,
                     double              end_us,
                     gboolean            exact)
{
  SmprofCprofileProfile *x = smprof_profile_get_cprofile (got);

  assert_same_sums (job, node_ids, x, smprof_profile_get_records (got), start_us, end_us, exact);
  g_assert_cmpuint (smprof_profile_get_n_functions (got), ==, smprof_cprofile_profile_get_n_entries (x));
  g_assert_nonnull (smprof_profile_get_call_tree (got));
  g_assert_cmpfloat (smprof_profile_get_total_time (got), ==, smprof_cprofile_profile_get_total_tt (x));
}

/* Ranges that start and end on, just before and just after interval
 * boundaries, plus random ones, over every node alone and all together.
 * @nodes_per_part: how few nodes a query sums per thread, or 0 for the
 * index's own */
static void
check_ranges (SmprofJob *job,
              guint      n_random,
              guint      nodes_per_part)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_auto(GStrv) all = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      for (int d = -1; d <= 1; d++)
        {
          double start = record->name.start_time_us + d;
          double end = record->name.end_time_us + d;

          g_array_append_val (edges, start);
          g_array_append_val (edges, end);
        }
    }

  for (guint t = 0; t < G_N_ELEMENTS (tunings); t++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SmprofRangeIndex) index = NULL;
      double first, last;

      index = _smprof_range_index_new_tuned (job, SMPROF_PROFILER_CPROFILE, NULL,
                                             tunings[t].stride, tunings[t].cold_max, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (smprof_range_index_get_time_bounds (index, &first, &last));
      if (nodes_per_part != 0)
        index->nodes_per_part = nodes_per_part;

      for (guint n = 0; all[n] != NULL; n++)
        {
          const char *one[] = { all[n], NULL };
          const char * const *sets[] = { one, (const char * const *) all };

          for (guint s = 0; s < G_N_ELEMENTS (sets); s++)
            for (guint i = 0; i < n_random; i++)
              {
                g_autoptr(SmprofProfile) profile = NULL;
                double a, b;

                if (i % 2 == 0)
                  {
                    a = g_array_index (edges, double, g_rand_int_range (rand, 0, edges->len));
                    b = g_array_index (edges, double, g_rand_int_range (rand, 0, edges->len));
                  }
                else
                  {
                    a = g_rand_double_range (rand, first - 1e6, last + 1e6);
                    b = g_rand_double_range (rand, first - 1e6, last + 1e6);
                  }
                if (a > b)
                  {
                    double swap = a;

                    a = b;
                    b = swap;
                  }

                /* The whole profile now and then; its stats every time. */
                if (i % 8 == 0)
                  {
                    profile = smprof_range_index_aggregate (index, sets[s], a, b);
                    assert_same_profile (job, sets[s], profile, a, b, FALSE);
                  }
                else
                  {
                    g_autoptr(GPtrArray) summed = NULL;
                    g_autoptr(SmprofCprofileProfile) sums = NULL;

                    sums = smprof_range_index_aggregate_cprofile (index, sets[s], a, b, &summed);
                    assert_same_sums (job, sets[s], sums, summed, a, b, FALSE);
                  }
              }
        }

      /* The whole job, and nothing at all on either side. */
      {
        g_autoptr(SmprofProfile) whole = smprof_range_index_aggregate (index, NULL, first, last);
        g_autoptr(SmprofProfile) before = smprof_range_index_aggregate (index, NULL, first - 10, first - 1);
        g_autoptr(SmprofProfile) after = smprof_range_index_aggregate (index, NULL, last + 1, last + 10);

        assert_same_profile (job, (const char * const *) all, whole, first, last, FALSE);
        g_assert_cmpuint (smprof_profile_get_records (before)->len, ==, 0);
        g_assert_cmpuint (smprof_profile_get_n_functions (before), ==, 0);
        g_assert_cmpuint (smprof_profile_get_records (after)->len, ==, 0);
        g_assert_cmpfloat (smprof_profile_get_total_time (after), ==, 0);
      }
    }
}

static void
test_real_jobs (void)
{
  const char *names[] = { "pt-cprofile", "tf-cprofile" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(SmprofJob) job = core_test_load_job (names[i]);

      check_ranges (job, 24, 0);
    }
}

/* A short range of one node is summed interval by interval in record order:
 * the same floats as smprof_profile_new(). */
static void
test_short_ranges_exact (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-cprofile");
  g_auto(GStrv) all = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofRangeIndex) index = NULL;
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  index = _smprof_range_index_new_tuned (job, SMPROF_PROFILER_CPROFILE, NULL, 1000, 4, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < records->len; i++)
    for (guint j = i; j < records->len; j += 7)
      {
        const SmprofRecord *a = g_ptr_array_index (records, i);
        const SmprofRecord *b = g_ptr_array_index (records, j);
        const char *one[] = { a->node_id, NULL };
        g_autoptr(GPtrArray) summed = NULL;
        g_autoptr(SmprofCprofileProfile) sums = NULL;

        sums = smprof_range_index_aggregate_cprofile (index, one, a->name.start_time_us, b->name.end_time_us,
                                                      &summed);
        assert_same_sums (job, one, sums, summed, a->name.start_time_us, b->name.end_time_us, TRUE);
      }

  g_assert_nonnull (all[0]);
}

/* Writes a node whose intervals overlap one another (a long one spans many
 * short ones), reusing real stats files. */
static char *
make_overlapping_job (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autoptr(SmprofJob) real = core_test_load_job_at (source);
  GPtrArray *records = smprof_job_get_records (real, SMPROF_PROFILER_CPROFILE);
  char *root = g_dir_make_tmp ("smprof-range-XXXXXX", &error);

  g_assert_no_error (error);

  for (guint node = 0; node < 2; node++)
    for (guint k = 0; k < 24; k++)
      {
        const SmprofRecord *record = g_ptr_array_index (records, (k * 3 + node) % records->len);
        g_autofree char *from = g_build_filename (source, record->path, NULL);
        double start = 1700000000000000.0 + k * 100.0 + node * 7;
        double end = start + (k % 5 == 0 ? 950.0 : k % 3 == 0 ? 40.0 : 90.0);
        g_autofree char *interval = g_strdup_printf ("global-%u-stepstart-%.1f_global-%u-stepend-%.1f",
                                                     k, start, k, end);
        g_autofree char *node_id = g_strdup_printf ("%u-algo-1", node);
        g_autofree char *folder = g_build_filename (root, "framework", "pytorch", "cprofile", node_id, interval, NULL);
        g_autofree char *to = g_build_filename (folder, "python_stats", NULL);
        g_autofree char *contents = NULL;
        gsize length = 0;

        g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
        g_file_get_contents (from, &contents, &length, &error);
        g_assert_no_error (error);
        g_file_set_contents (to, contents, length, &error);
        g_assert_no_error (error);
      }

  return root;
}

static void
test_overlapping_intervals (void)
{
  g_autofree char *root = make_overlapping_job ();
  g_autoptr(SmprofJob) job = core_test_load_job_at (root);

  check_ranges (job, 40, 0);

  g_clear_object (&job);
  core_test_remove_tree (root);
}

/* Writes a job of @n_nodes nodes running in step, reusing real stats files:
 * more nodes than a query sums in one part. */
static char *
make_many_nodes_job (guint n_nodes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autoptr(SmprofJob) real = core_test_load_job_at (source);
  GPtrArray *records = smprof_job_get_records (real, SMPROF_PROFILER_CPROFILE);
  char *root = g_dir_make_tmp ("smprof-range-XXXXXX", &error);

  g_assert_no_error (error);

  for (guint node = 0; node < n_nodes; node++)
    for (guint k = 0; k < 12; k++)
      {
        const SmprofRecord *record = g_ptr_array_index (records, (k * 5 + node * 3) % records->len);
        g_autofree char *from = g_build_filename (source, record->path, NULL);
        double start = 1700000000000000.0 + k * 100.0 + node * 3;
        double end = start + 90.0 + node % 4;
        g_autofree char *interval = g_strdup_printf ("global-%u-stepstart-%.1f_global-%u-stepend-%.1f",
                                                     k, start, k, end);
        g_autofree char *node_id = g_strdup_printf ("%u-algo-1", node);
        g_autofree char *folder = g_build_filename (root, "framework", "pytorch", "cprofile", node_id, interval, NULL);
        g_autofree char *to = g_build_filename (folder, "python_stats", NULL);
        g_autofree char *contents = NULL;
        gsize length = 0;

        g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
        g_file_get_contents (from, &contents, &length, &error);
        g_assert_no_error (error);
        g_file_set_contents (to, contents, length, &error);
        g_assert_no_error (error);
      }

  return root;
}

/* Many nodes are summed in parts, on several threads, and the parts added
 * up: the same records, counts and times as the record-order merge, for
 * every node alone, a subset and all of them, at and around interval edges. */
static void
test_many_nodes (void)
{
  g_autofree char *root = make_many_nodes_job (11);
  g_autoptr(SmprofJob) job = core_test_load_job_at (root);
  g_auto(GStrv) all = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  const char *every_other[] = { all[0], all[2], all[4], all[6], all[8], all[10], NULL };
  g_autoptr(SmprofRangeIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  double first, last;

  g_assert_cmpuint (g_strv_length (all), ==, 11);

  /* Four parts of two or three nodes (two alone would be one part). */
  check_ranges (job, 16, 2);
  check_ranges (job, 4, 0);

  /* Six nodes with nodes left out between them: three parts. */
  index = _smprof_range_index_new_tuned (job, SMPROF_PROFILER_CPROFILE, NULL, 3, 2, NULL, &error);
  g_assert_no_error (error);
  index->nodes_per_part = 2;
  smprof_range_index_get_time_bounds (index, &first, &last);
  for (guint i = 0; i < 64; i++)
    {
      double a = g_rand_double_range (rand, first - 50, last + 50);
      double b = g_rand_double_range (rand, a, last + 50);
      g_autoptr(GPtrArray) summed = NULL;
      g_autoptr(SmprofCprofileProfile) sums = NULL;

      sums = smprof_range_index_aggregate_cprofile (index, every_other, a, b, &summed);
      assert_same_sums (job, every_other, sums, summed, a, b, FALSE);
    }

  g_clear_object (&job);
  core_test_remove_tree (root);
}

static void
on_index (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  SmprofRangeIndex **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = smprof_range_index_new_finish (SMPROF_JOB (object), result, &error);
  g_assert_no_error (error);
}

static void
on_profile (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  SmprofProfile **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = smprof_range_index_aggregate_finish (SMPROF_RANGE_INDEX (object), result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("tf-cprofile");
  g_autoptr(SmprofRangeIndex) index = NULL;
  g_autoptr(SmprofProfile) profile = NULL;
  g_auto(GStrv) all = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  double first, last;

  smprof_range_index_new_async (job, SMPROF_PROFILER_CPROFILE, NULL, NULL, on_index, &index);
  while (index == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpstrv (smprof_range_index_get_node_ids (index), all);
  g_assert_true (smprof_range_index_get_job (index) == job);
  g_assert_cmpint (smprof_range_index_get_profiler (index), ==, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (smprof_range_index_get_memory_size (index), >, 0);
  smprof_range_index_get_time_bounds (index, &first, &last);

  smprof_range_index_aggregate_async (index, NULL, first, (first + last) / 2, NULL, on_profile, &profile);
  while (profile == NULL)
    g_main_context_iteration (NULL, TRUE);

  assert_same_profile (job, (const char * const *) all, profile, first, (first + last) / 2, FALSE);
  g_assert_true (smprof_profile_is_estimated (profile));
  g_assert_nonnull (smprof_profile_get_call_tree (profile));
}

static void
test_pyinstrument_unsupported (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-pyinstrument");
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofRangeIndex) index = NULL;

  index = smprof_range_index_new (job, SMPROF_PROFILER_PYINSTRUMENT, NULL, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_null (index);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/range-index/real-jobs", test_real_jobs);
  g_test_add_func ("/range-index/short-ranges-exact", test_short_ranges_exact);
  g_test_add_func ("/range-index/overlapping-intervals", test_overlapping_intervals);
  g_test_add_func ("/range-index/many-nodes", test_many_nodes);
  g_test_add_func ("/range-index/async", test_async);
  g_test_add_func ("/range-index/pyinstrument-unsupported", test_pyinstrument_unsupported);

  return g_test_run ();
}
