/* test-job-index.c: the job index over listings in any order
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The index takes a folder's files as one run when the listing gives them
 * one after another, as local folders and sorted S3 listings do. A source
 * may also give one folder's files in two places (a listing merged from
 * pages, a hostile bucket): the folder must then be judged on all its
 * files together, and each problem reported once.
 */

#include "config.h"

#include <string.h>

#include "smprof-job.h"
#include "smprof-source.h"

#define TEST_TYPE_LISTED_SOURCE (test_listed_source_get_type ())
G_DECLARE_FINAL_TYPE (TestListedSource, test_listed_source, TEST, LISTED_SOURCE, GObject)

/* A source that lists the paths it was given, in that order, as files. */
struct _TestListedSource
{
  GObject   parent_instance;
  GStrv     paths;
};

static void test_listed_source_iface_init (SmprofSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestListedSource, test_listed_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMPROF_TYPE_SOURCE, test_listed_source_iface_init))

static void
test_listed_source_finalize (GObject *object)
{
  g_strfreev (TEST_LISTED_SOURCE (object)->paths);
  G_OBJECT_CLASS (test_listed_source_parent_class)->finalize (object);
}

static void
test_listed_source_class_init (TestListedSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_listed_source_finalize;
}

static void
test_listed_source_init (TestListedSource *self)
{
}

static char *
listed_dup_location (SmprofSource *source)
{
  return g_strdup ("test://job");
}

static char *
listed_dup_file_location (SmprofSource *source,
                          const char   *path)
{
  return g_strconcat ("test://job/", path, NULL);
}

static gboolean
listed_list (SmprofSource                *source,
             const SmprofListingOptions  *options,
             SmprofListing               *listing,
             GCancellable                *cancellable,
             GError                     **error)
{
  TestListedSource *self = TEST_LISTED_SOURCE (source);

  for (guint i = 0; self->paths[i] != NULL; i++)
    smprof_listing_add (listing, self->paths[i], SMPROF_LISTING_FILE, 1);

  return TRUE;
}

static GBytes *
listed_load (SmprofSource  *source,
             const char    *path,
             GCancellable  *cancellable,
             GError       **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "the index test reads no file");
  return NULL;
}

static void
test_listed_source_iface_init (SmprofSourceInterface *iface)
{
  iface->dup_location = listed_dup_location;
  iface->dup_file_location = listed_dup_file_location;
  iface->list = listed_list;
  iface->load = listed_load;
}

#define NODE    "framework/pytorch/pyinstrument/0-algo-1/"
#define FOLDER1 "global-1-stepstart-1000.0_global-1-forwardpassend-2000.0"
#define FOLDER2 "global-2-stepstart-3000.0_global-2-forwardpassend-4000.0"
#define BAD     "global-x-stepstart-5000.0_global-x-forwardpassend-6000.0"

/* The job indexed from @paths, in that order. */
static SmprofJob *
index_paths (const char * const *paths)
{
  TestListedSource *source = g_object_new (TEST_TYPE_LISTED_SOURCE, NULL);
  g_autoptr(GError) error = NULL;
  SmprofJob *job;

  source->paths = g_strdupv ((char **) paths);
  job = smprof_job_new (SMPROF_SOURCE (source));
  g_object_unref (source);

  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);

  return job;
}

/* The problems as "path: message" lines, in the order the job gives them. */
static char *
problems_text (SmprofJob *job)
{
  g_autoptr(GPtrArray) problems = smprof_job_dup_problems (job);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < problems->len; i++)
    {
      const SmprofProblem *problem = g_ptr_array_index (problems, i);

      g_string_append_printf (text, "%s: %s\n", problem->path, problem->message);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The HTML page of a folder first, its JSON later, after another folder: one
 * good record, no problem. */
static void
test_folder_in_two_runs (void)
{
  const char *paths[] = {
    NODE FOLDER1 "/python_stats.html",
    NODE FOLDER2 "/python_stats.json",
    NODE FOLDER1 "/python_stats.json",
    NULL
  };
  g_autoptr(SmprofJob) job = index_paths (paths);
  g_autofree char *problems = problems_text (job);

  g_assert_cmpstr (problems, ==, "");
  g_assert_cmpuint (smprof_job_get_records (job, SMPROF_PROFILER_PYINSTRUMENT)->len, ==, 2);
}

/* A folder without a stats file, given in two runs: reported once, with the
 * more telling of its problems (the HTML page without its JSON). */
static void
test_folder_without_stats_reported_once (void)
{
  const char *paths[] = {
    NODE FOLDER1 "/notes.txt",
    NODE FOLDER2 "/python_stats.json",
    NODE FOLDER1 "/python_stats.html",
    NODE FOLDER2 "/python_stats.html",
    NODE FOLDER1 "/other.txt",
    NULL
  };
  g_autoptr(SmprofJob) job = index_paths (paths);
  g_autofree char *problems = problems_text (job);

  g_assert_cmpstr (problems, ==,
                   NODE FOLDER1 ": holds only python_stats.html, without the python_stats.json it renders; skipped\n");
  g_assert_cmpuint (smprof_job_get_records (job, SMPROF_PROFILER_PYINSTRUMENT)->len, ==, 1);
}

/* Folders without stats are reported in path order, after the problems met
 * on the way. */
static void
test_problems_in_order (void)
{
  const char *paths[] = {
    NODE FOLDER2 "/notes.txt",
    NODE BAD "/python_stats.json",
    NODE FOLDER1 "/notes.txt",
    NULL
  };
  g_autoptr(SmprofJob) job = index_paths (paths);
  g_autofree char *problems = problems_text (job);
  g_auto(GStrv) lines = g_strsplit (problems, "\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_true (g_str_has_prefix (lines[0], NODE BAD ": malformed interval folder name, skipped: "));
  g_assert_cmpstr (lines[1], ==, NODE FOLDER1 ": an interval folder without python_stats or python_stats.json; skipped");
  g_assert_cmpstr (lines[2], ==, NODE FOLDER2 ": an interval folder without python_stats or python_stats.json; skipped");
  g_assert_cmpstr (lines[3], ==, "");
}

/* A malformed folder name is one problem, however many of the folder's
 * files are listed and wherever they are. */
static void
test_malformed_folder_reported_once (void)
{
  const char *paths[] = {
    NODE BAD "/python_stats.html",
    NODE BAD "/python_stats.json",
    NODE FOLDER1 "/python_stats.json",
    NODE BAD "/python_stats",
    NULL
  };
  g_autoptr(SmprofJob) job = index_paths (paths);
  g_autofree char *problems = problems_text (job);
  g_auto(GStrv) lines = g_strsplit (problems, "\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_true (g_str_has_prefix (lines[0], NODE BAD ": malformed interval folder name, skipped: "));
  g_assert_cmpuint (smprof_job_get_records (job, SMPROF_PROFILER_PYINSTRUMENT)->len, ==, 1);
  g_assert_cmpuint (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-index/folder-in-two-runs", test_folder_in_two_runs);
  g_test_add_func ("/job-index/folder-without-stats-reported-once", test_folder_without_stats_reported_once);
  g_test_add_func ("/job-index/problems-in-order", test_problems_in_order);
  g_test_add_func ("/job-index/malformed-folder-reported-once", test_malformed_folder_reported_once);

  return g_test_run ();
}
