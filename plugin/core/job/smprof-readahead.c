/* smprof-readahead.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A cold job is read at the pace of one disk request per file and per
 * parsing thread: with as many parsers as cores, two requests are in flight
 * where the disk would take dozens. A few extra threads that only open each
 * file, ask for its contents with posix_fadvise(POSIX_FADV_WILLNEED) (which
 * starts the reads and does not wait for them) and close it again keep the
 * disk busy ahead of the parsers, which then find the pages in memory. When
 * the files are in memory already, those three system calls a file cost the
 * parsers' cores about 50 ms of a node of 4,002 files (a fifth of its CPU
 * time), which smprof_readahead_is_cold() saves by looking at a few of the
 * files first. */

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smprof-readahead.h"

struct _SmprofReadahead
{
  char               *root;
  const char * const *paths;      /* the caller's, kept until joined */
  guint               n_paths;
  guint               window;
  GCancellable       *cancellable;
  GThread           **threads;
  guint               n_threads;
  int                 next;       /* atomic: the next path to hand out */
  int                 reached;    /* atomic: where the readers are */
  int                 stop;       /* atomic: set when joined to stop */
  int                 draining;   /* atomic: set when joined to finish */
  int                 n_advised;  /* atomic: files opened and advised */
};

/* How long a thread that is a window ahead of the readers sleeps before it
 * looks again: the readers of warm files go through a window of a thousand
 * in tens of milliseconds. */
#define AHEAD_SLEEP_US 1000

static gboolean
stopped (SmprofReadahead *self)
{
  return g_atomic_int_get (&self->stop) || g_cancellable_is_cancelled (self->cancellable);
}

static gpointer
read_ahead (gpointer data)
{
  SmprofReadahead *self = data;
  guint index;

  while ((index = (guint) g_atomic_int_add (&self->next, 1)) < self->n_paths)
    {
      g_autofree char *path = NULL;
      int fd;

      /* Not more than the window ahead of the readers, so that what is read
       * ahead is still in memory when its reader comes. */
      while (index > (guint) g_atomic_int_get (&self->reached) + self->window &&
             !g_atomic_int_get (&self->draining) && !stopped (self))
        g_usleep (AHEAD_SLEEP_US);
      if (stopped (self))
        break;

      /* The readers passed it (warm files go faster than this): too late. */
      if (index < (guint) g_atomic_int_get (&self->reached))
        continue;

      /* O_NONBLOCK: opening a FIFO must not wait for a writer (the reader
       * reports it). */
      path = g_build_filename (self->root, self->paths[index], NULL);
      fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
      if (fd < 0)
        continue;
      if (posix_fadvise (fd, 0, 0, POSIX_FADV_WILLNEED) == 0)
        g_atomic_int_inc (&self->n_advised);
      close (fd);
    }

  return NULL;
}

/* How many files smprof_readahead_is_cold() looks at. */
#define N_SAMPLES 8

/**
 * smprof_readahead_is_cold:
 * @root: the folder @paths are relative to
 * @paths: (array length=n_paths): the files to read
 * @n_paths: how many there are
 *
 * Whether reading @paths ahead is worth its threads: whether the first page
 * of any of a few of them, spread over @paths, is not in memory, as
 * mincore() on a one-page mapping says. A read with RWF_NOWAIT would start
 * reading a missing page in, and on a fast disk could find it there before
 * it returned, calling a cold file warm. A file that cannot be opened or
 * mapped (a FIFO, an empty file) says nothing, so that a job is read ahead
 * only where that is known to help.
 *
 * Returns: %TRUE if some file is known to be on disk only
 */
gboolean
smprof_readahead_is_cold (const char          *root,
                          const char * const  *paths,
                          guint                n_paths)
{
  long page_size = sysconf (_SC_PAGESIZE);

  g_return_val_if_fail (root != NULL, FALSE);
  g_return_val_if_fail (paths != NULL || n_paths == 0, FALSE);

  for (guint i = 0; i < MIN (n_paths, N_SAMPLES); i++)
    {
      g_autofree char *path = g_build_filename (root, paths[(guint64) n_paths * i / MIN (n_paths, N_SAMPLES)], NULL);
      unsigned char resident = 1;
      struct stat st;
      void *map;
      int fd;

      fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
      if (fd < 0)
        continue;
      if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size == 0)
        {
          close (fd);
          continue;
        }
      map = mmap (NULL, page_size, PROT_READ, MAP_SHARED, fd, 0);
      close (fd);
      if (map == MAP_FAILED)
        continue;
      if (mincore (map, page_size, &resident) != 0)
        resident = 1;
      munmap (map, page_size);
      if (!(resident & 1))
        return TRUE;
    }

  return FALSE;
}

/**
 * smprof_readahead_start:
 * @root: the folder @paths are relative to
 * @paths: (array length=n_paths): the files to read ahead, in the order they
 *   will be read; kept, not copied, until smprof_readahead_join()
 * @n_paths: how many there are
 * @n_threads: how many threads read ahead (disk requests in flight)
 * @window: how many files ahead of smprof_readahead_reached() the threads
 *   may go
 * @cancellable: (nullable): a #GCancellable that stops them
 *
 * Starts @n_threads threads that walk @paths in order, each path by one
 * thread, and ask the kernel to read each file into the page cache. A file
 * that cannot be opened is skipped: its reader reports it.
 *
 * Returns: (transfer full): the readahead, for smprof_readahead_join()
 */
SmprofReadahead *
smprof_readahead_start (const char          *root,
                        const char * const  *paths,
                        guint                n_paths,
                        guint                n_threads,
                        guint                window,
                        GCancellable        *cancellable)
{
  SmprofReadahead *self;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (paths != NULL || n_paths == 0, NULL);
  g_return_val_if_fail (n_threads > 0, NULL);
  /* room for every thread's last increment past the end, and for the window */
  g_return_val_if_fail (n_paths <= (guint) G_MAXINT - n_threads, NULL);
  g_return_val_if_fail (window <= (guint) G_MAXINT, NULL);

  self = g_new0 (SmprofReadahead, 1);
  self->root = g_strdup (root);
  self->paths = paths;
  self->n_paths = n_paths;
  self->window = window;
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  self->n_threads = MIN (n_threads, n_paths);
  self->threads = g_new0 (GThread *, MAX (self->n_threads, 1));
  for (guint i = 0; i < self->n_threads; i++)
    self->threads[i] = g_thread_new ("smprof-readahead", read_ahead, self);

  return self;
}

/**
 * smprof_readahead_reached:
 * @self: a readahead
 * @index: the path a reader is about to read
 *
 * Tells the threads where the readers are, so that they stay within their
 * window of them. Called by every reader, from any thread; one that lags a
 * little behind another only narrows the window for a moment.
 */
void
smprof_readahead_reached (SmprofReadahead *self,
                          guint            index)
{
  g_return_if_fail (self != NULL);

  if (index > (guint) g_atomic_int_get (&self->reached))
    g_atomic_int_set (&self->reached, (int) MIN (index, (guint) G_MAXINT - self->window));
}

/**
 * smprof_readahead_join:
 * @self: (transfer full): a readahead
 * @stop: whether to stop the threads where they are (when the readers are
 *   done, nothing is left to read ahead for them) rather than let them walk
 *   to the end of the paths
 *
 * Waits for the threads and frees @self.
 *
 * Returns: how many files were opened and advised, each at most once
 */
guint
smprof_readahead_join (SmprofReadahead *self,
                       gboolean         stop)
{
  guint n_advised;

  g_return_val_if_fail (self != NULL, 0);

  g_atomic_int_set (stop ? &self->stop : &self->draining, TRUE);
  for (guint i = 0; i < self->n_threads; i++)
    g_thread_join (self->threads[i]);

  n_advised = (guint) g_atomic_int_get (&self->n_advised);

  g_clear_object (&self->cancellable);
  g_free (self->threads);
  g_free (self->root);
  g_free (self);

  return n_advised;
}
