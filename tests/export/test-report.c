/* test-report.c: the core's report writer through its async pair, as a viewer calls it
 *
 * The CLI's black-box tests (tests/cli/test_report.py) check the content of
 * reports against the other commands; this checks what only the library
 * offers: smprof_report_write_async() on a worker thread, its copies of the
 * options, and its errors.
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-aggregate.h"
#include "smprof-query.h"
#include "smprof-report.h"

typedef struct
{
  SmprofJob     *job;
  SmprofProfile *profile;
  GPtrArray     *selected;
  char          *tmp;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) node_ids = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  SmprofNodeChoice all_nodes = { SMPROF_NODES_ALL, NULL };
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };
  GPtrArray *records;

  fixture->job = core_test_load_job ("pt-cprofile");
  records = smprof_job_get_records (fixture->job, SMPROF_PROFILER_CPROFILE);
  node_ids = smprof_node_choice_resolve (&all_nodes, records);
  fixture->selected = smprof_select (records, (const char * const *) node_ids, &all);
  g_assert_true (smprof_job_load_stats (fixture->job, fixture->selected, NULL, &error));
  g_assert_no_error (error);
  loaded = smprof_aggregate_loaded (fixture->selected);
  fixture->profile = smprof_profile_new (fixture->job, SMPROF_PROFILER_CPROFILE,
                                         (const char * const *) node_ids, loaded);

  fixture->tmp = g_dir_make_tmp ("smprof-test-report-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  core_test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
  g_clear_pointer (&fixture->selected, g_ptr_array_unref);
  g_clear_object (&fixture->profile);
  g_clear_object (&fixture->job);
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Wait;

static void
on_written (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Wait *wait = user_data;

  wait->ok = smprof_report_write_finish (SMPROF_PROFILE (source), result, &wait->error);
  wait->done = TRUE;
}

static gboolean
write_and_wait (Fixture                   *fixture,
                SmprofReportFormat         format,
                const SmprofReportOptions *options,
                GFile                     *out,
                GError                   **error)
{
  Wait wait = { FALSE, FALSE, NULL };

  smprof_report_write_async (fixture->profile, fixture->selected, NULL, format, options, out, NULL,
                             on_written, &wait);
  while (!wait.done)
    g_main_context_iteration (NULL, TRUE);

  if (wait.error != NULL)
    g_propagate_error (error, wait.error);

  return wait.ok;
}

static char *
read_child (GFile      *folder,
            const char *name)
{
  g_autoptr(GFile) file = g_file_get_child (folder, name);
  char *contents = NULL;

  g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL));

  return contents;
}

/* The options are copied: the caller's strings may go before the worker runs. */
static void
test_async_folder (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->tmp, "folder", NULL);
  g_autoptr(GFile) out = g_file_new_for_path (path);
  g_autoptr(GFile) diff_file = g_file_get_child (out, SMPROF_REPORT_DIFF_FILE);
  g_autofree char *command = g_strdup ("smprof report job --all -o folder");
  g_autofree char *selection = g_strdup ("all intervals");
  g_autofree char *readme = NULL;
  g_autofree char *steps = NULL;
  SmprofReportOptions options;
  static const char *const files[] = {
    SMPROF_REPORT_SUMMARY_FILE, SMPROF_REPORT_FLAME_FILE, SMPROF_REPORT_FUNCTIONS_FILE,
    SMPROF_REPORT_STEPS_FILE, SMPROF_REPORT_STEP_FUNCTIONS_FILE,
  };

  smprof_report_options_init (&options);
  options.command_line = command;
  options.selection = selection;
  options.flame.selection = selection;

  {
    Wait wait = { FALSE, FALSE, NULL };

    smprof_report_write_async (fixture->profile, fixture->selected, NULL, SMPROF_REPORT_FOLDER, &options, out,
                               NULL, on_written, &wait);
    /* Scribble over the caller's strings while the worker may be reading. */
    memset (command, 'x', strlen (command));
    memset (selection, 'y', strlen (selection));
    while (!wait.done)
      g_main_context_iteration (NULL, TRUE);
    g_assert_no_error (wait.error);
    g_assert_true (wait.ok);
  }

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GFile) file = g_file_get_child (out, files[i]);

      g_assert_true (g_file_query_exists (file, NULL));
    }
  g_assert_false (g_file_query_exists (diff_file, NULL));

  readme = read_child (out, SMPROF_REPORT_SUMMARY_FILE);
  g_assert_nonnull (strstr (readme, "smprof report job --all -o folder"));
  g_assert_nonnull (strstr (readme, "all intervals"));
  g_assert_nonnull (strstr (readme, PACKAGE_VERSION));

  /* Both nodes' 20 steps of the real job, one row each. */
  steps = read_child (out, SMPROF_REPORT_STEPS_FILE);
  g_assert_nonnull (strstr (steps, "0-algo-1,train,0,"));
  g_assert_nonnull (strstr (steps, "1-algo-2,train,0,"));
}

static void
test_errors (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *file_path = g_build_filename (fixture->tmp, "a-file", NULL);
  g_autofree char *page_dir = g_build_filename (fixture->tmp, "a-folder.html", NULL);
  g_autoptr(GFile) a_file = g_file_new_for_path (file_path);
  g_autoptr(GFile) a_folder = g_file_new_for_path (page_dir);
  g_autoptr(GError) error = NULL;
  SmprofReportOptions options;

  smprof_report_options_init (&options);
  g_assert_true (g_file_set_contents (file_path, "x", 1, NULL));
  g_assert_cmpint (g_mkdir (page_dir, 0755), ==, 0);

  g_assert_false (write_and_wait (fixture, SMPROF_REPORT_FOLDER, &options, a_file, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
  g_assert_nonnull (strstr (error->message, file_path));
  g_clear_error (&error);

  g_assert_cmpint (smprof_report_format_for_path (page_dir, FALSE), ==, SMPROF_REPORT_HTML);
  g_assert_false (write_and_wait (fixture, SMPROF_REPORT_HTML, &options, a_folder, &error));
  g_assert_nonnull (error);
}

static void
test_format_for_path (void)
{
  g_assert_cmpint (smprof_report_format_for_path ("out", FALSE), ==, SMPROF_REPORT_FOLDER);
  g_assert_cmpint (smprof_report_format_for_path ("out", TRUE), ==, SMPROF_REPORT_HTML);
  g_assert_cmpint (smprof_report_format_for_path ("out.html", FALSE), ==, SMPROF_REPORT_HTML);
  g_assert_cmpint (smprof_report_format_for_path ("out.html/", FALSE), ==, SMPROF_REPORT_FOLDER);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/report/format-for-path", test_format_for_path);
  g_test_add ("/report/async-folder", Fixture, NULL, fixture_set_up, test_async_folder, fixture_tear_down);
  g_test_add ("/report/errors", Fixture, NULL, fixture_set_up, test_errors, fixture_tear_down);

  return g_test_run ();
}
