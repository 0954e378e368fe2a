/* smprof-release.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Freeing a 256-node job (51,200 records, their stats, the timeline's
 * layout) and its step statistics took 150-230 ms: on the viewer's main
 * thread, closing the window or its page froze it that long. The viewer
 * hands such objects' last references here instead, and one thread of its
 * own lets go of them, in the order they came. */

#include "config.h"

#include "smprof-release.h"

typedef struct
{
  gpointer       data;
  GDestroyNotify release;
} Pending;

static GMutex lock;
static GCond idle_cond;
static GThreadPool *pool;   /* under lock; one thread, made on first use */
static guint n_pending;     /* under lock: pushed and not yet released */

static void
release_pending (gpointer item,
                 gpointer user_data)
{
  Pending *pending = item;

  pending->release (pending->data);
  g_free (pending);

  g_mutex_lock (&lock);
  if (--n_pending == 0)
    g_cond_broadcast (&idle_cond);
  g_mutex_unlock (&lock);
}

/**
 * smprof_release_in_background:
 * @data: (transfer full) (nullable): what to let go of
 * @release: what lets go of it (g_object_unref(), a type's unref)
 *
 * Calls @release on @data on a thread of its own, soon, so that the caller
 * does not wait for a big object to be freed. @data must not need the
 * calling thread (nothing of GTK, no main context of its own): the core's
 * jobs, profiles and statistics are such. Where no thread can be made,
 * @release is called here.
 */
void
smprof_release_in_background (gpointer       data,
                              GDestroyNotify release)
{
  Pending *pending;

  g_return_if_fail (release != NULL);

  if (data == NULL)
    return;

  pending = g_new (Pending, 1);
  pending->data = data;
  pending->release = release;

  g_mutex_lock (&lock);
  if (pool == NULL)
    pool = g_thread_pool_new (release_pending, NULL, 1, FALSE, NULL);
  if (pool != NULL)
    {
      n_pending++;
      /* Cannot fail: the pool is not exclusive, its thread made on demand. */
      g_thread_pool_push (pool, pending, NULL);
      pending = NULL;
    }
  g_mutex_unlock (&lock);

  if (pending != NULL)
    {
      release (data);
      g_free (pending);
    }
}

/**
 * smprof_release_wait:
 *
 * Returns once everything handed to smprof_release_in_background() so far
 * has been let go of: for tests that check what was freed, and for a
 * program that wants its memory back before it goes on.
 */
void
smprof_release_wait (void)
{
  g_mutex_lock (&lock);
  while (n_pending > 0)
    g_cond_wait (&idle_cond, &lock);
  g_mutex_unlock (&lock);
}
