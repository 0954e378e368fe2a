/* test-local-source.c: a local job's listing is the same whether its folders
 * say what their entries are (d_type) or the source has to stat() them; its
 * node folders are listed on more threads than cores only from the disk
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* syncfs() */
#define _GNU_SOURCE

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core-test-util.h"
#include "smprof-local-source-private.h"

/* The depths below a job root: framework/ is 1, framework/<framework> 2,
 * its profiler folders 3, node folders 4, interval folders 5. */
#define DEPTH_FRAMEWORK 2
#define DEPTH_INTERVAL  5

/* Rebuilds the tree at @from in @to, with real folders down to @link_depth
 * and, there (or sooner, for a file), a symbolic link to the original: the
 * folder gives its type as DT_LNK, so the source falls back to stat(),
 * which follows the link to the same files (same sizes, times, inodes). */
static void
mirror_tree (const char *from,
             const char *to,
             guint       depth,
             guint       link_depth)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (from, 0, &error);
  const char *name;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);

      if (depth == link_depth || !g_file_test (source, G_FILE_TEST_IS_DIR))
        g_assert_cmpint (symlink (source, target), ==, 0);
      else
        mirror_tree (source, target, depth + 1, link_depth);
    }
}

/* Other tests hard-link the files of tests/data, which changes their
 * change times (and so their listed versions) at any moment: a private copy
 * keeps them still. */
static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (from, 0, &error);
  const char *name;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (g_file_test (source, G_FILE_TEST_IS_DIR))
        {
          copy_tree (source, target);
          continue;
        }

      g_file_get_contents (source, &contents, &length, &error);
      g_assert_no_error (error);
      g_file_set_contents (target, contents, length, &error);
      g_assert_no_error (error);
    }
}

static SmprofListing *
list_job (const char                 *path,
          const SmprofListingOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (path, &error);
  SmprofListing *listing = smprof_listing_new ();

  g_assert_no_error (error);
  g_assert_true (smprof_source_list (source, options, listing, NULL, &error));
  g_assert_no_error (error);

  return listing;
}

static void
assert_same_listing (const SmprofListing *want,
                     const SmprofListing *got)
{
  g_assert_cmpuint (got->entries->len, ==, want->entries->len);
  for (guint i = 0; i < want->entries->len; i++)
    {
      const SmprofListingEntry *a = g_ptr_array_index (want->entries, i);
      const SmprofListingEntry *b = g_ptr_array_index (got->entries, i);

      g_assert_cmpstr (b->path, ==, a->path);
      g_assert_cmpint (b->kind, ==, a->kind);
      g_assert_cmpuint (b->size, ==, a->size);
      g_assert_cmpuint (b->version, ==, a->version);
    }

  g_assert_cmpuint (got->problems->len, ==, want->problems->len);
  for (guint i = 0; i < want->problems->len; i++)
    {
      const SmprofProblem *a = g_ptr_array_index (want->problems, i);
      const SmprofProblem *b = g_ptr_array_index (got->problems, i);

      g_assert_cmpstr (b->path, ==, a->path);
      g_assert_cmpstr (b->message, ==, a->message);
    }
}

static guint
count_kind (const SmprofListing *listing,
            SmprofListingKind    kind)
{
  guint n = 0;

  for (guint i = 0; i < listing->entries->len; i++)
    n += ((const SmprofListingEntry *) g_ptr_array_index (listing->entries, i))->kind == kind;

  return n;
}

/* Every way of listing, on every real job and a corpus job, with the
 * folders of each depth behind links: the listing of the job itself. */
static void
test_links_list_the_same (void)
{
  static const char * const jobs[] = {
    "real-smdebug/pt-cprofile", "real-smdebug/pt-pyinstrument", "real-smdebug/tf-cprofile",
    "real-smdebug/tf-pyinstrument", "corpus-outliers-cprofile",
  };
  const SmprofListingOptions ways[] = {
    { 0 },
    { .stats_only = TRUE },
    { .stats_only = TRUE, .names_only = TRUE },
    { .stats_only = TRUE, .nodes_only = TRUE },
  };

  for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
    {
      g_autofree char *data = g_test_build_filename (G_TEST_DIST, "data", jobs[j], "framework", NULL);
      g_autofree char *tmp = g_dir_make_tmp ("smprof-local-source-XXXXXX", NULL);
      g_autofree char *job = g_build_filename (tmp, "job", NULL);
      g_autofree char *job_framework = g_build_filename (job, "framework", NULL);

      g_assert_nonnull (tmp);
      copy_tree (data, job_framework);

      for (guint depth = DEPTH_FRAMEWORK; depth <= DEPTH_INTERVAL; depth++)
        {
          g_autofree char *name = g_strdup_printf ("linked-at-%u", depth);
          g_autofree char *linked = g_build_filename (tmp, name, NULL);
          g_autofree char *from = g_build_filename (job, "framework", NULL);
          g_autofree char *to = g_build_filename (linked, "framework", NULL);

          mirror_tree (from, to, DEPTH_FRAMEWORK, depth);

          for (guint w = 0; w < G_N_ELEMENTS (ways); w++)
            {
              g_autoptr(SmprofListing) want = list_job (job, &ways[w]);
              g_autoptr(SmprofListing) got = list_job (linked, &ways[w]);

              /* the job's own listing is no empty one */
              g_assert_cmpuint (count_kind (want, ways[w].nodes_only || ways[w].names_only
                                                  ? SMPROF_LISTING_FOLDER : SMPROF_LISTING_FILE), >, 0);
              assert_same_listing (want, got);
            }
        }

      core_test_remove_tree (tmp);
    }
}

/* Listed by their names, the node folders are every folder in a profiler
 * folder, links to folders included, and nothing below them. */
static void
test_node_folders_by_name (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("smprof-local-source-XXXXXX", NULL);
  g_autofree char *job = g_build_filename (tmp, "job", NULL);
  g_autofree char *profiler = g_build_filename (job, "framework", "pytorch", "cprofile", NULL);
  g_autofree char *elsewhere = g_build_filename (tmp, "elsewhere", "train-0-stepstart-1.0_train-0-stepend-2.0",
                                                 NULL);
  g_autofree char *node = g_build_filename (profiler, "0-algo-1", "not-an-interval", NULL);
  g_autofree char *linked = g_build_filename (profiler, "2-algo-3", NULL);
  g_autofree char *dangling = g_build_filename (profiler, "3-algo-4", NULL);
  g_autofree char *stray = g_build_filename (profiler, "stray-file", NULL);
  g_autofree char *pevents = g_build_filename (job, "framework", "pevents", "2026112921", NULL);
  g_autofree char *elsewhere_node = g_path_get_dirname (elsewhere);
  SmprofListingOptions options = { .stats_only = TRUE, .nodes_only = TRUE };
  g_autoptr(SmprofListing) listing = NULL;
  static const char * const want[][2] = {
    { "framework/pytorch/cprofile/0-algo-1", "folder" },
    { "framework/pytorch/cprofile/2-algo-3", "folder" },
    { "framework/pytorch/cprofile/3-algo-4", "file" },
    { "framework/pytorch/cprofile/stray-file", "file" },
  };
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (node, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (elsewhere, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (pevents, 0755), ==, 0);
  g_assert_cmpint (symlink (elsewhere_node, linked), ==, 0);
  g_assert_cmpint (symlink ("nowhere", dangling), ==, 0);
  g_file_set_contents (stray, "", 0, &error);
  g_assert_no_error (error);

  listing = list_job (job, &options);
  g_assert_cmpuint (listing->problems->len, ==, 0);
  g_assert_cmpuint (listing->entries->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const SmprofListingEntry *entry = g_ptr_array_index (listing->entries, i);

      g_assert_cmpstr (entry->path, ==, want[i][0]);
      g_assert_cmpint (entry->kind, ==, strcmp (want[i][1], "folder") == 0 ? SMPROF_LISTING_FOLDER
                                                                           : SMPROF_LISTING_FILE);
    }

  core_test_remove_tree (tmp);
}

/* A job of @n_nodes node folders, each a copy of a real job's first: copies,
 * not links, so that the real job's files keep their change times, which
 * other tests running at the same time key their parsed index on. Returns
 * the job's folder, in a temporary folder of its own. */
static char *
make_copied_job (guint n_nodes)
{
  g_autofree char *from = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", "framework",
                                                 "pytorch", "cprofile", "0-algo-1", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("smprof-local-source-XXXXXX", NULL);
  char *job = g_build_filename (tmp, "job", NULL);

  for (guint i = 0; i < n_nodes; i++)
    {
      g_autofree char *name = g_strdup_printf ("%u-algo-%u", i, i + 1);
      g_autofree char *to = g_build_filename (job, "framework", "pytorch", "cprofile", name, NULL);

      copy_tree (from, to);
    }

  return job;
}

/* The threads the node folders of @job were listed on. */
static guint
list_threads_of (const char *job)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (job, &error);
  g_autoptr(SmprofListing) listing = smprof_listing_new ();
  SmprofListingOptions options = { .stats_only = TRUE };

  g_assert_no_error (error);
  g_assert_true (smprof_source_list (source, &options, listing, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_kind (listing, SMPROF_LISTING_FILE), >, 0);

  return _smprof_local_source_get_list_threads (SMPROF_LOCAL_SOURCE (source));
}

/* Folders in memory are listed on as many threads as there are cores: more
 * would only take the CPU from the rest of the program (in the viewer, the
 * main thread; 48 listing threads kept it from running for tens of ms). */
static void
test_threads_for_folders_in_memory (void)
{
  g_autofree char *job = make_copied_job (8);
  g_autofree char *tmp = g_path_get_dirname (job);

  list_threads_of (job);
  g_assert_cmpuint (list_threads_of (job), ==, g_get_num_processors ());

  core_test_remove_tree (tmp);
}

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/* Folders read from the disk are listed on more threads than cores, so that
 * more reads are in flight at once. */
static void
test_threads_for_folders_on_disk (void)
{
  g_autofree char *job = NULL;
  g_autofree char *tmp = NULL;
  struct statfs fs;
  int fd;

  if (access ("/proc/sys/vm/drop_caches", W_OK) != 0)
    {
      g_test_skip ("dropping the kernel's caches takes root");
      return;
    }
  if (g_get_num_processors () >= 48)
    {
      g_test_skip ("this machine has as many cores as the listing has threads for a disk");
      return;
    }

  job = make_copied_job (8);
  tmp = g_path_get_dirname (job);
  if (statfs (tmp, &fs) != 0 || fs.f_type == TMPFS_MAGIC)
    {
      g_test_skip ("the temporary folder is in memory");
      core_test_remove_tree (tmp);
      return;
    }

  /* Written out, then dropped from memory: folders are read from the disk. */
  fd = open (tmp, O_RDONLY | O_DIRECTORY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (syncfs (fd), ==, 0);
  close (fd);
  fd = open ("/proc/sys/vm/drop_caches", O_WRONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "3", 1), ==, 1);
  close (fd);

  g_assert_cmpuint (list_threads_of (job), >, g_get_num_processors ());
  g_assert_cmpuint (list_threads_of (job), ==, g_get_num_processors ());

  core_test_remove_tree (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/local-source/links-list-the-same", test_links_list_the_same);
  g_test_add_func ("/local-source/node-folders-by-name", test_node_folders_by_name);
  g_test_add_func ("/local-source/threads-for-folders-in-memory", test_threads_for_folders_in_memory);
  g_test_add_func ("/local-source/threads-for-folders-on-disk", test_threads_for_folders_on_disk);

  return g_test_run ();
}
