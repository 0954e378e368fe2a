/* smprof-parallel.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-parallel.h"

typedef struct
{
  SmprofParallelFunc  func;
  gpointer            user_data;
  GCancellable       *cancellable;
  guint               n_items;
  int                 next;   /* atomic: the next item to hand out */
} Loop;

static gpointer
run_items (gpointer data)
{
  Loop *loop = data;
  guint index;

  while ((index = (guint) g_atomic_int_add (&loop->next, 1)) < loop->n_items)
    {
      if (g_cancellable_is_cancelled (loop->cancellable))
        break;

      loop->func (index, loop->user_data);
    }

  return NULL;
}

/**
 * smprof_parallel_for:
 * @thread_name: what the threads are called in a debugger
 * @n_items: how many items there are
 * @n_threads: at most this many threads work, the calling thread among them
 * @func: (scope call): works on one item
 * @user_data: for @func
 * @cancellable: (nullable): a #GCancellable
 *
 * Calls @func once for every index below @n_items, on MIN (@n_threads,
 * @n_items) threads: the calling thread and as many new ones as it takes, so
 * that a single item costs no thread. Each thread takes the next item not
 * yet taken, in increasing order, as soon as it is free, so that uneven
 * items still keep every thread busy; which thread takes which item, and
 * which finishes first, is not known: @func writes its result to a place of
 * the item's own, and the caller reads them in index order once this
 * returns, so that its result does not depend on the threads.
 *
 * The loop knows no errors: an item that fails records it where its result
 * would go, and the other items run all the same. Once @cancellable is
 * cancelled no item starts; those already running finish. Returns when
 * every thread has finished.
 */
void
smprof_parallel_for (const char         *thread_name,
                     guint               n_items,
                     guint               n_threads,
                     SmprofParallelFunc  func,
                     gpointer            user_data,
                     GCancellable       *cancellable)
{
  Loop loop = { func, user_data, cancellable, n_items, 0 };
  g_autofree GThread **threads = NULL;

  g_return_if_fail (thread_name != NULL);
  g_return_if_fail (func != NULL);
  g_return_if_fail (n_threads > 0);
  /* room for every thread's last increment past the end */
  g_return_if_fail (n_items <= (guint) G_MAXINT - n_threads);

  n_threads = MIN (n_threads, n_items);
  if (n_threads > 1)
    threads = g_new (GThread *, n_threads - 1);
  for (guint i = 1; i < n_threads; i++)
    threads[i - 1] = g_thread_new (thread_name, run_items, &loop);

  run_items (&loop);

  for (guint i = 1; i < n_threads; i++)
    g_thread_join (threads[i - 1]);
}
