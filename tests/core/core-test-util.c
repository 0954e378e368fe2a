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
