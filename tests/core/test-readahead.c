/* test-readahead.c: the threads that ask for a cold job's files ahead
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_readahead_start() walks every path of a batch exactly once, skips
 * what it cannot open without waiting on it (a missing file, a FIFO), stays
 * within its window of the readers until joined, and starts nothing once
 * cancelled; smprof_readahead_is_cold() tells files just written from files
 * whose pages were let go. Whether the kernel then has the pages is not
 * looked at: that is the benchmark's business (tests/bench/README.md).
 */

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core-test-util.h"
#include "smprof-readahead.h"

#define N_FILES 300

typedef struct
{
  char      *root;
  GPtrArray *paths;       /* relative; every 10th missing, one a FIFO */
  guint      n_regular;   /* how many are regular files */
} Batch;

static void
batch_init (Batch *batch)
{
  g_autoptr(GError) error = NULL;

  batch->root = g_dir_make_tmp ("smprof-readahead-XXXXXX", &error);
  g_assert_no_error (error);
  batch->paths = g_ptr_array_new_with_free_func (g_free);
  batch->n_regular = 0;

  for (guint i = 0; i < N_FILES; i++)
    {
      g_autofree char *relative = g_strdup_printf ("interval-%u/python_stats", i);
      g_autofree char *folder = g_strdup_printf ("%s/interval-%u", batch->root, i);
      g_autofree char *path = g_build_filename (batch->root, relative, NULL);

      g_ptr_array_add (batch->paths, g_steal_pointer (&relative));
      if (i % 10 == 9)
        continue;
      g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
      if (i == 42)
        {
          /* opened without O_NONBLOCK, it would wait for a writer forever */
          g_assert_cmpint (mkfifo (path, 0600), ==, 0);
          continue;
        }
      g_file_set_contents (path, "stats", -1, &error);
      g_assert_no_error (error);
      batch->n_regular++;
    }
}

static void
batch_clear (Batch *batch)
{
  core_test_remove_tree (batch->root);
  g_clear_pointer (&batch->root, g_free);
  g_clear_pointer (&batch->paths, g_ptr_array_unref);
}

/* Joined to finish, with a window of 8 and readers that never said where
 * they are: the walk goes on past the window to the end, and every regular
 * file is advised once, whatever the number of threads. */
static void
test_readahead_walks_all (void)
{
  static const guint n_threads[] = { 1, 4, 16, 400 };

  for (guint t = 0; t < G_N_ELEMENTS (n_threads); t++)
    {
      Batch batch;
      SmprofReadahead *readahead;

      batch_init (&batch);
      readahead = smprof_readahead_start (batch.root, (const char * const *) batch.paths->pdata, batch.paths->len,
                                          n_threads[t], 8, NULL);
      g_assert_nonnull (readahead);
      g_assert_cmpuint (smprof_readahead_join (readahead, FALSE), ==, batch.n_regular);
      batch_clear (&batch);
    }
}

/* Stopped with the readers at 0 and a window of 2: only the first three
 * paths may be advised, and the join does not wait for the readers. */
static void
test_readahead_stops_at_window (void)
{
  Batch batch;
  SmprofReadahead *readahead;

  batch_init (&batch);
  readahead = smprof_readahead_start (batch.root, (const char * const *) batch.paths->pdata, batch.paths->len,
                                      4, 2, NULL);
  g_usleep (20 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpuint (smprof_readahead_join (readahead, TRUE), <=, 3);
  batch_clear (&batch);
}

/* Cancelled first: nothing is opened, and the join returns even though the
 * walk was to go to the end. */
static void
test_readahead_cancelled (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Batch batch;
  SmprofReadahead *readahead;

  batch_init (&batch);
  g_cancellable_cancel (cancellable);
  readahead = smprof_readahead_start (batch.root, (const char * const *) batch.paths->pdata, batch.paths->len,
                                      4, 8, cancellable);
  g_assert_cmpuint (smprof_readahead_join (readahead, FALSE), ==, 0);
  batch_clear (&batch);
}

/* Whether the first page of @path is in memory, as mincore() says. Asking
 * with a read that must not wait (RWF_NOWAIT) would not do: a miss starts
 * reading the file in, and the page could be back before the check that
 * follows looks (seen once in CI). */
static gboolean
first_page_in_memory (const char *path)
{
  long page_size = sysconf (_SC_PAGESIZE);
  unsigned char resident = 0;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  void *map;

  g_assert_cmpint (fd, >=, 0);
  map = mmap (NULL, page_size, PROT_READ, MAP_SHARED, fd, 0);
  close (fd);
  g_assert_true (map != MAP_FAILED);
  g_assert_cmpint (mincore (map, page_size, &resident), ==, 0);
  munmap (map, page_size);

  return (resident & 1) != 0;
}

/* Whether reads can say they would wait, which the cold check relies on. */
static gboolean
has_nowait_reads (const char *path)
{
  char byte;
  struct iovec iov = { &byte, 1 };
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t n;

  g_assert_cmpint (fd, >=, 0);
  n = preadv2 (fd, &iov, 1, 0, RWF_NOWAIT);
  close (fd);

  return !(n < 0 && errno == EOPNOTSUPP);
}

/* Files just written are in memory: not cold. Written to disk and let go
 * (POSIX_FADV_DONTNEED, which needs no root, unlike dropping every cache),
 * one of them is enough for the batch to be cold. */
static void
test_readahead_is_cold (void)
{
  g_autofree char *path = NULL;
  gboolean resident, cold;
  Batch batch;
  int fd;

  batch_init (&batch);
  g_assert_false (smprof_readahead_is_cold (batch.root, (const char * const *) batch.paths->pdata,
                                            batch.paths->len));

  /* the first path is among those looked at */
  path = g_build_filename (batch.root, g_ptr_array_index (batch.paths, 0), NULL);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fdatasync (fd), ==, 0);
  g_assert_cmpint (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), ==, 0);
  close (fd);

  /* Looked at first, before anything reads the file in again. */
  resident = first_page_in_memory (path);
  cold = smprof_readahead_is_cold (batch.root, (const char * const *) batch.paths->pdata, batch.paths->len);

  if (resident || !has_nowait_reads (path))
    g_test_skip ("this file system keeps the pages (tmpfs) or cannot tell (no RWF_NOWAIT)");
  else
    g_assert_true (cold);

  batch_clear (&batch);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/readahead/walks-all", test_readahead_walks_all);
  g_test_add_func ("/readahead/stops-at-window", test_readahead_stops_at_window);
  g_test_add_func ("/readahead/cancelled", test_readahead_cancelled);
  g_test_add_func ("/readahead/is-cold", test_readahead_is_cold);

  return g_test_run ();
}
