/* test-job-any.c: indexing for smdebug's "any" node, or for nodes a query
 * names, gives the answers of the full index; so do the node folders by name
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "core-test-util.h"
#include "smprof-job.h"
#include "smprof-local-source.h"

typedef enum
{
  LOAD_FULL,
  LOAD_ANY,
} LoadKind;

static SmprofJob *
load_job (const char           *path,
          LoadKind              kind,
          const SmprofProfiler *profiler)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (path, &error);
  SmprofJob *job;
  gboolean ok;

  g_assert_no_error (error);
  job = smprof_job_new (source);
  if (kind == LOAD_FULL)
    ok = smprof_job_load (job, NULL, &error);
  else
    ok = smprof_job_load_for_any_node (job, profiler, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  return job;
}

/* The command line's default profiler (cli/smprof.c). */
static SmprofProfiler
default_profiler (SmprofJob *job)
{
  return smprof_job_has_profiler (job, SMPROF_PROFILER_CPROFILE) ||
         !smprof_job_has_profiler (job, SMPROF_PROFILER_PYINSTRUMENT)
         ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT;
}

/* Returns how many problems of @full the lazy index left out. */
static guint
assert_same_answers (const char           *path,
                     const SmprofProfiler *profiler)
{
  g_autoptr(SmprofJob) full = load_job (path, LOAD_FULL, NULL);
  g_autoptr(SmprofJob) lazy = load_job (path, LOAD_ANY, profiler);
  SmprofProfiler p = profiler != NULL ? *profiler : default_profiler (full);
  GPtrArray *full_records = smprof_job_get_records (full, p);
  GPtrArray *lazy_records = smprof_job_get_records (lazy, p);
  g_autoptr(GPtrArray) full_problems = smprof_job_dup_problems (full);
  g_autoptr(GPtrArray) lazy_problems = smprof_job_dup_problems (lazy);
  const char *node_id;
  guint j = 0;

  if (profiler == NULL)
    g_assert_cmpint (default_profiler (lazy), ==, p);

  g_assert_cmpuint (lazy_records->len, <=, full_records->len);
  g_assert_cmpuint (full_records->len == 0, ==, lazy_records->len == 0);
  if (full_records->len > 0)
    {
      g_autoptr(GPtrArray) want = g_ptr_array_new ();
      g_autoptr(GPtrArray) got = g_ptr_array_new ();

      node_id = ((SmprofRecord *) g_ptr_array_index (full_records, 0))->node_id;
      g_assert_cmpstr (((SmprofRecord *) g_ptr_array_index (lazy_records, 0))->node_id, ==, node_id);

      /* the chosen node's records: the same files, in the same order */
      for (guint i = 0; i < full_records->len; i++)
        if (strcmp (((SmprofRecord *) g_ptr_array_index (full_records, i))->node_id, node_id) == 0)
          g_ptr_array_add (want, g_ptr_array_index (full_records, i));
      for (guint i = 0; i < lazy_records->len; i++)
        if (strcmp (((SmprofRecord *) g_ptr_array_index (lazy_records, i))->node_id, node_id) == 0)
          g_ptr_array_add (got, g_ptr_array_index (lazy_records, i));

      g_assert_cmpuint (got->len, ==, want->len);
      for (guint i = 0; i < want->len; i++)
        {
          const SmprofRecord *a = g_ptr_array_index (want, i);
          const SmprofRecord *b = g_ptr_array_index (got, i);

          g_assert_cmpstr (b->path, ==, a->path);
          g_assert_cmpstr (b->framework, ==, a->framework);
          g_assert_cmpfloat (b->name.start_time_us, ==, a->name.start_time_us);
        }
    }

  /* The lazy index's problems are the full index's, in the same order, less
   * what only looking into the other nodes' interval folders finds. */
  for (guint i = 0; i < lazy_problems->len; i++)
    {
      const SmprofProblem *problem = g_ptr_array_index (lazy_problems, i);

      while (j < full_problems->len &&
             (strcmp (((SmprofProblem *) g_ptr_array_index (full_problems, j))->path, problem->path) != 0 ||
              strcmp (((SmprofProblem *) g_ptr_array_index (full_problems, j))->message, problem->message) != 0))
        j++;
      if (j == full_problems->len)
        g_error ("%s: problem not in the full index, or out of order: %s: %s", path, problem->path, problem->message);
      j++;
    }

  return full_problems->len - lazy_problems->len;
}

static void
test_real_jobs (void)
{
  static const char * const jobs[] = { "pt-cprofile", "pt-pyinstrument", "tf-cprofile", "tf-pyinstrument" };
  static const SmprofProfiler profilers[] = { SMPROF_PROFILER_CPROFILE, SMPROF_PROFILER_PYINSTRUMENT };

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", jobs[i], NULL);

      assert_same_answers (path, NULL);
      for (guint k = 0; k < G_N_ELEMENTS (profilers); k++)
        assert_same_answers (path, &profilers[k]);
    }
}

static void
make_file (const char *root,
           const char *relative)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_file_set_contents (path, "", 0, &error);
  g_assert_no_error (error);
}

static void
make_folder (const char *root,
             const char *relative)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
}

#define CP "framework/pytorch/cprofile/"
#define IV(s, t) "train-" #s "-stepstart-" #t ".0_train-" #s "-stepend-" #t "9.0"

static guint
count_problems_under (GPtrArray  *problems,
                      const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    n += g_str_has_prefix (((SmprofProblem *) g_ptr_array_index (problems, i))->path, prefix);

  return n;
}

/* Node a with two intervals and a malformed name; node b with a malformed
 * name and a file where interval folders belong. */
static SmprofJob *
load_job_after_making (const char *root)
{
  g_assert_nonnull (root);
  make_file (root, CP "a/" IV (0, 100) "/python_stats");
  make_file (root, CP "a/" IV (1, 300) "/python_stats");
  make_folder (root, CP "a/not-an-interval");
  make_file (root, CP "b/" IV (0, 150) "/python_stats");
  make_folder (root, CP "b/not-an-interval");
  make_file (root, CP "b/stray-file");

  return load_job (root, LOAD_FULL, NULL);
}

/* The node folder whose interval folder starts first has no stats there; the
 * chosen node has a folder in a second framework folder; a late node has a
 * damaged folder the lazy index never looks into, and a malformed name it
 * reports all the same. */
static void
test_tricky_job (void)
{
  g_autofree char *root = g_dir_make_tmp ("smprof-job-any-XXXXXX", NULL);
  g_autoptr(SmprofJob) lazy = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  GPtrArray *records;
  SmprofProfiler cprofile = SMPROF_PROFILER_CPROFILE;
  SmprofProfiler pyinstrument = SMPROF_PROFILER_PYINSTRUMENT;
  gboolean saw_malformed = FALSE;

  g_assert_nonnull (root);
  make_folder (root, CP "a/" IV (0, 100));
  make_file (root, CP "a/" IV (1, 300) "/python_stats");
  make_file (root, CP "b/" IV (0, 150) "/python_stats");
  make_file (root, CP "b/" IV (1, 500) "/python_stats");
  make_file (root, CP "c/" IV (0, 1000) "/python_stats");
  make_folder (root, CP "c/" IV (5, 2000));
  make_folder (root, CP "c/not-an-interval");
  make_file (root, CP "d/" IV (0, 120) "/python_stats.json");
  make_file (root, "framework/tensorflow/cprofile/b/" IV (9, 9000) "/python_stats");

  /* every folder that can hold the first record is looked into, in vain
   * for a and d; the second framework folder's b is in */
  g_assert_cmpuint (assert_same_answers (root, &cprofile), ==, 1);
  g_assert_cmpuint (assert_same_answers (root, NULL), ==, 1);
  /* the profiler no node folder listed in full has: every one is */
  g_assert_cmpuint (assert_same_answers (root, &pyinstrument), ==, 0);

  lazy = load_job (root, LOAD_ANY, &cprofile);
  records = smprof_job_get_records (lazy, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (records->len, >=, 3);
  g_assert_cmpstr (((SmprofRecord *) g_ptr_array_index (records, 0))->node_id, ==, "b");
  for (guint i = 0; i < records->len; i++)
    g_assert_cmpstr (((SmprofRecord *) g_ptr_array_index (records, i))->node_id, !=, "c");

  problems = smprof_job_dup_problems (lazy);
  for (guint i = 0; i < problems->len; i++)
    {
      const SmprofProblem *problem = g_ptr_array_index (problems, i);

      g_assert_false (g_str_has_prefix (problem->path, CP "c/" IV (5, 2000)));
      saw_malformed |= strcmp (problem->path, CP "c/not-an-interval") == 0;
    }
  g_assert_true (saw_malformed);

  core_test_remove_tree (root);
}

/* A node folder whose name is not UTF-8 is listed in full, so its problems
 * name the same files; a node folder that cannot be read is named. */
static void
test_odd_node_folders (void)
{
  g_autofree char *root = g_dir_make_tmp ("smprof-job-any-XXXXXX", NULL);
  SmprofProfiler cprofile = SMPROF_PROFILER_CPROFILE;

  make_file (root, CP "node-\xff/" IV (0, 10) "/python_stats");
  make_file (root, CP "node-\xff/" IV (1, 20) "/python_stats");
  make_file (root, CP "ok/" IV (0, 30) "/python_stats");
  make_file (root, CP "stray-file");
  make_file (root, CP "ok/stray-file");

  g_assert_cmpuint (assert_same_answers (root, &cprofile), ==, 0);
  g_assert_cmpuint (assert_same_answers (root, NULL), ==, 0);

  core_test_remove_tree (root);
}

/* smprof_job_load_for_nodes() on @node_ids: every profiler's records are
 * those of the full index on these nodes, in the same order, and none of
 * another node (or, when a node has no folder, the full index's). */
static void
assert_named_nodes (const char         *path,
                    const char * const *node_ids,
                    gboolean            all_found)
{
  g_autoptr(SmprofJob) full = load_job (path, LOAD_FULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (path, &error);
  g_autoptr(SmprofJob) named = NULL;

  g_assert_no_error (error);
  named = smprof_job_new (source);
  g_assert_true (smprof_job_load_for_nodes (named, node_ids, NULL, &error));
  g_assert_no_error (error);

  for (SmprofProfiler p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      GPtrArray *full_records = smprof_job_get_records (full, p);
      GPtrArray *named_records = smprof_job_get_records (named, p);
      guint j = 0;

      for (guint i = 0; i < full_records->len; i++)
        {
          const SmprofRecord *want = g_ptr_array_index (full_records, i);
          const SmprofRecord *got;

          if (all_found && !g_strv_contains (node_ids, want->node_id))
            continue;
          g_assert_cmpuint (j, <, named_records->len);
          got = g_ptr_array_index (named_records, j++);
          g_assert_cmpstr (got->node_id, ==, want->node_id);
          g_assert_cmpstr (got->path, ==, want->path);
          g_assert_cmpstr (got->interval, ==, want->interval);
        }
      g_assert_cmpuint (j, ==, named_records->len);
    }
}

static void
test_named_nodes (void)
{
  static const char * const jobs[] = { "pt-cprofile", "pt-pyinstrument", "tf-cprofile", "tf-pyinstrument" };
  g_autofree char *many = core_test_make_nodes_job ("tf-cprofile", 5);
  g_autofree char *many_root = g_path_get_dirname (many);
  const char * const two[] = { "3-algo-4", "1-algo-2", NULL };
  const char * const missing[] = { "1-algo-2", "9-algo-10", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", jobs[i], NULL);
      g_autoptr(SmprofJob) full = load_job (path, LOAD_FULL, NULL);
      g_auto(GStrv) ids = smprof_job_dup_node_ids (full, SMPROF_PROFILER_CPROFILE);
      g_auto(GStrv) pyinstrument_ids = smprof_job_dup_node_ids (full, SMPROF_PROFILER_PYINSTRUMENT);
      char **node_ids = g_strv_length (ids) > 0 ? ids : pyinstrument_ids;

      g_assert_cmpuint (g_strv_length (node_ids), >=, 2);
      for (guint n = 0; node_ids[n] != NULL; n++)
        {
          const char * const one[] = { node_ids[n], NULL };

          assert_named_nodes (path, one, TRUE);
        }
    }

  assert_named_nodes (many, two, TRUE);
  assert_named_nodes (many, missing, FALSE);
  core_test_remove_tree (many_root);
}

/* A query on named nodes looks into no other node folder: what is wrong
 * there (a malformed interval folder name, a file where interval folders
 * belong) is not its problem, and costs it no read. Before, every other
 * node folder was read for its interval folders' names. */
static void
test_named_nodes_look_nowhere_else (void)
{
  g_autofree char *root = g_dir_make_tmp ("smprof-job-any-XXXXXX", NULL);
  g_autoptr(SmprofJob) full = load_job_after_making (root);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (root, &error);
  g_autoptr(SmprofJob) named = NULL;
  g_autoptr(GPtrArray) full_problems = NULL;
  g_autoptr(GPtrArray) named_problems = NULL;
  const char * const node_ids[] = { "a", NULL };
  GPtrArray *records;

  g_assert_no_error (error);
  named = smprof_job_new (source);
  g_assert_true (smprof_job_load_for_nodes (named, node_ids, NULL, &error));
  g_assert_no_error (error);

  /* the full index reports the other node's two problems and a's own */
  full_problems = smprof_job_dup_problems (full);
  g_assert_cmpuint (count_problems_under (full_problems, CP "b/"), ==, 2);
  g_assert_cmpuint (count_problems_under (full_problems, CP "a/"), ==, 1);

  named_problems = smprof_job_dup_problems (named);
  g_assert_cmpuint (count_problems_under (named_problems, CP "b/"), ==, 0);
  g_assert_cmpuint (count_problems_under (named_problems, CP "a/"), ==, 1);

  records = smprof_job_get_records (named, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (records->len, ==, 2);
  for (guint i = 0; i < records->len; i++)
    g_assert_cmpstr (((SmprofRecord *) g_ptr_array_index (records, i))->node_id, ==, "a");

  core_test_remove_tree (root);
}

static SmprofJob *
load_node_names (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (path, &error);
  SmprofJob *job;

  g_assert_no_error (error);
  job = smprof_job_new (source);
  g_assert_true (smprof_job_load_node_names (job, NULL, &error));
  g_assert_no_error (error);

  return job;
}

/* smprof_job_load_node_names() on a job smdebug wrote: each profiler's node
 * ids and the profilers there are as the full index says, and no record. */
static void
assert_same_node_ids (const char *path)
{
  g_autoptr(SmprofJob) full = load_job (path, LOAD_FULL, NULL);
  g_autoptr(SmprofJob) names = load_node_names (path);
  g_autoptr(GPtrArray) problems = smprof_job_dup_problems (names);

  g_assert_cmpint (default_profiler (names), ==, default_profiler (full));
  for (SmprofProfiler p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      g_auto(GStrv) want = smprof_job_dup_node_ids (full, p);
      g_auto(GStrv) got = smprof_job_dup_node_ids (names, p);

      g_assert_cmpint (smprof_job_has_profiler (names, p), ==, smprof_job_has_profiler (full, p));
      g_assert_cmpstrv (got, want);
      g_assert_cmpuint (smprof_job_get_records (names, p)->len, ==, 0);
    }
  g_assert_cmpuint (problems->len, ==, 0);
}

static void
test_node_names (void)
{
  static const char * const jobs[] = {
    "real-smdebug/pt-cprofile", "real-smdebug/pt-pyinstrument", "real-smdebug/tf-cprofile",
    "real-smdebug/tf-pyinstrument", "corpus-outliers-cprofile", "corpus-outliers-pyinstrument",
  };
  g_autofree char *many = core_test_make_nodes_job ("pt-cprofile", 12);
  g_autofree char *many_root = g_path_get_dirname (many);

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", jobs[i], NULL);

      assert_same_node_ids (path);
    }

  assert_same_node_ids (many);
  core_test_remove_tree (many_root);
}

static const char *
problem_message (GPtrArray  *problems,
                 const char *path)
{
  for (guint i = 0; i < problems->len; i++)
    if (strcmp (((SmprofProblem *) g_ptr_array_index (problems, i))->path, path) == 0)
      return ((SmprofProblem *) g_ptr_array_index (problems, i))->message;

  return NULL;
}

static gboolean
has_problem (GPtrArray  *problems,
             const char *path)
{
  return problem_message (problems, path) != NULL;
}

/* By name, node folders are not looked into: what the full index reports
 * about their entries is not reported, and a node folder counts whatever it
 * holds. What is wrong with the node folders themselves still is. */
static void
test_node_names_look_nowhere (void)
{
  g_autofree char *root = g_dir_make_tmp ("smprof-job-any-XXXXXX", NULL);
  g_autofree char *elsewhere = g_build_filename (root, "elsewhere", NULL);
  g_autofree char *dangling = g_build_filename (root, CP "a/" IV (4, 800), NULL);
  g_autofree char *dangling_stats = g_build_filename (root, CP "a/" IV (5, 900) "/python_stats", NULL);
  g_autofree char *linked = g_build_filename (root, CP "linked", NULL);
  g_autoptr(SmprofJob) full = NULL;
  g_autoptr(SmprofJob) names = NULL;
  g_autoptr(GPtrArray) full_problems = NULL;
  g_autoptr(GPtrArray) names_problems = NULL;
  g_auto(GStrv) full_ids = NULL;
  g_auto(GStrv) names_ids = NULL;
  static const char * const inside[] = {
    CP "a/" IV (2, 700), CP "a/not-an-interval", CP "a/" IV (3, 750), CP "a/" IV (4, 800),
    CP "a/" IV (5, 900) "/python_stats",
  };
  const char * const want_full[] = { "a", "b", "linked", NULL };
  const char * const want_names[] = { "a", "b", "empty", "linked", NULL };

  g_assert_nonnull (root);
  make_file (root, CP "a/" IV (0, 100) "/python_stats");
  make_file (root, CP "a/" IV (2, 700));                   /* a file named as an interval folder */
  make_folder (root, CP "a/not-an-interval");              /* a malformed name */
  make_folder (root, CP "a/" IV (3, 750));                 /* no stats file */
  make_folder (root, CP "a/" IV (5, 900));
  g_assert_cmpint (symlink ("nowhere", dangling), ==, 0);  /* a dangling link */
  g_assert_cmpint (symlink ("nowhere", dangling_stats), ==, 0);
  make_file (root, CP "b/" IV (0, 150) "/python_stats");
  make_folder (root, CP "empty");
  make_file (root, "elsewhere/" IV (0, 200) "/python_stats");
  g_assert_cmpint (symlink (elsewhere, linked), ==, 0);    /* a node folder behind a link */
  make_file (root, CP "stray-file");
  make_file (root, CP "node-\xff/" IV (0, 10) "/python_stats");

  full = load_job (root, LOAD_FULL, NULL);
  names = load_node_names (root);
  full_problems = smprof_job_dup_problems (full);
  names_problems = smprof_job_dup_problems (names);

  /* the full index sees every one of them */
  for (guint i = 0; i < G_N_ELEMENTS (inside); i++)
    g_assert_true (has_problem (full_problems, inside[i]));

  /* by name, the stray file and the node folder whose name is not UTF-8
   * alone, with the full index's words */
  g_assert_cmpuint (names_problems->len, ==, 2);
  g_assert_cmpstr (((SmprofProblem *) g_ptr_array_index (names_problems, 0))->path, ==, CP "node-\xef\xbf\xbd");
  g_assert_true (has_problem (full_problems, CP "node-\xef\xbf\xbd/" IV (0, 10) "/python_stats"));
  g_assert_cmpstr (((SmprofProblem *) g_ptr_array_index (names_problems, 0))->message, ==,
                   problem_message (full_problems, CP "node-\xef\xbf\xbd/" IV (0, 10) "/python_stats"));
  g_assert_cmpstr (((SmprofProblem *) g_ptr_array_index (names_problems, 1))->path, ==, CP "stray-file");
  g_assert_cmpstr (((SmprofProblem *) g_ptr_array_index (names_problems, 1))->message, ==,
                   problem_message (full_problems, CP "stray-file"));

  /* the node folder without stats counts by name; the linked one both ways */
  full_ids = smprof_job_dup_node_ids (full, SMPROF_PROFILER_CPROFILE);
  names_ids = smprof_job_dup_node_ids (names, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpstrv (full_ids, want_full);
  g_assert_cmpstrv (names_ids, want_names);
  g_assert_false (smprof_job_has_profiler (names, SMPROF_PROFILER_PYINSTRUMENT));

  core_test_remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-any/real-jobs", test_real_jobs);
  g_test_add_func ("/job-any/tricky-job", test_tricky_job);
  g_test_add_func ("/job-any/odd-node-folders", test_odd_node_folders);
  g_test_add_func ("/job-any/named-nodes", test_named_nodes);
  g_test_add_func ("/job-any/named-nodes-look-nowhere-else", test_named_nodes_look_nowhere_else);
  g_test_add_func ("/job-any/node-names", test_node_names);
  g_test_add_func ("/job-any/node-names-look-nowhere", test_node_names_look_nowhere);

  return g_test_run ();
}
