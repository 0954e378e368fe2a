/* core-test-util.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "core-test-util.h"
#include "smprof-aggregate.h"
#include "smprof-local-source.h"
#include "smprof-query.h"

/* The job in the folder @path, listed (not its stats); the test fails when
 * the folder cannot be opened or listed. */
SmprofJob *
core_test_load_job_at (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (path, &error);
  SmprofJob *job;

  g_assert_no_error (error);
  job = smprof_job_new (source);
  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);

  return job;
}

/* core_test_load_job_at() for the copy of a real job, tests/data/real-smdebug/@name. */
SmprofJob *
core_test_load_job (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", name, NULL);

  return core_test_load_job_at (path);
}

/* The profile of @selection on every node of @job, its stats read; the test
 * fails when they cannot be read or nothing is selected. */
SmprofProfile *
core_test_profile_of (SmprofJob             *job,
                      SmprofProfiler         profiler,
                      const SmprofSelection *selection)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_auto(GStrv) node_ids = NULL;
  SmprofNodeChoice all_nodes = { SMPROF_NODES_ALL, NULL };
  GPtrArray *records = smprof_job_get_records (job, profiler);

  node_ids = smprof_node_choice_resolve (&all_nodes, records);
  selected = smprof_select (records, (const char * const *) node_ids, selection);
  g_assert_true (smprof_job_load_stats (job, selected, NULL, &error));
  g_assert_no_error (error);
  loaded = smprof_aggregate_loaded (selected);
  g_assert_cmpuint (loaded->len, >, 0);

  return smprof_profile_new (job, profiler, (const char * const *) node_ids, loaded);
}

/* Removes the folder @path and all in it, without following links, for a
 * test's temporary copy of a job. */
void
core_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          core_test_remove_tree (child);
        else
          g_unlink (child);
      }

  g_rmdir (path);
}

/* For g_ptr_array_sort(), which passes pointers to the elements. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* A job of @n_nodes nodes made of the first node of the real job @name
 * (tests/data/real-smdebug/@name), copied as "0-algo-1" … "N-algo-N+1"
 * with hard links (nothing is copied): a large multi-node job for the
 * layout and timeline tests, from data the tree holds. Each node's interval
 * folders are its source's, so the nodes overlap exactly. Returns the job's
 * folder, in a temporary folder the caller removes with
 * core_test_remove_tree() on its parent. */
char *
core_test_make_nodes_job (const char *name,
                          guint       n_nodes)
{
  g_autofree char *framework_root = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", name, "framework",
                                                           NULL);
  g_autofree char *tmp = g_dir_make_tmp ("smprof-nodes-XXXXXX", NULL);
  g_autofree char *job = NULL;
  g_autoptr(GDir) frameworks = NULL;
  g_autoptr(GError) error = NULL;
  const char *framework = NULL;
  const char *profiler;
  g_autoptr(GDir) profilers = NULL;
  g_autofree char *framework_dir = NULL;

  g_assert_nonnull (tmp);
  job = g_build_filename (tmp, name, NULL);

  frameworks = g_dir_open (framework_root, 0, &error);
  g_assert_no_error (error);
  while ((framework = g_dir_read_name (frameworks)) != NULL && g_str_equal (framework, "pevents"))
    ;
  g_assert_nonnull (framework);
  framework_dir = g_build_filename (framework_root, framework, NULL);

  profilers = g_dir_open (framework_dir, 0, &error);
  g_assert_no_error (error);
  while ((profiler = g_dir_read_name (profilers)) != NULL)
    {
      g_autofree char *profiler_dir = g_build_filename (framework_dir, profiler, NULL);
      g_autofree char *target_dir = g_build_filename (job, "framework", framework, profiler, NULL);
      g_autoptr(GDir) nodes = g_dir_open (profiler_dir, 0, &error);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *node;

      g_assert_no_error (error);
      while ((node = g_dir_read_name (nodes)) != NULL)
        g_ptr_array_add (names, g_strdup (node));
      g_ptr_array_sort (names, compare_names);
      g_assert_cmpuint (names->len, >, 0);
      g_assert_cmpint (g_mkdir_with_parents (target_dir, 0700), ==, 0);

      for (guint i = 0; i < n_nodes; i++)
        {
          g_autofree char *from = g_build_filename (profiler_dir, g_ptr_array_index (names, 0), NULL);
          g_autofree char *node_name = g_strdup_printf ("%u-algo-%u", i, i + 1);
          g_autofree char *to = g_build_filename (target_dir, node_name, NULL);
          const char *argv[] = { "cp", "-al", from, to, NULL };
          int status = 0;

          g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                                       &status, &error));
          g_assert_no_error (error);
          g_assert_true (g_spawn_check_wait_status (status, NULL));
        }
    }

  return g_steal_pointer (&job);
}
