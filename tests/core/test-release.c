/* test-release.c: letting go of big objects off the calling thread
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_release_in_background() calls each release once, on a thread that
 * is not the caller's, in the order given; smprof_release_wait() returns
 * once all are done; NULL is nothing to release.
 */

#include "config.h"

#include <glib-object.h>

#include "smprof-release.h"

#define N_ITEMS 200

typedef struct
{
  GMutex    lock;
  GArray   *order;      /* guint: items in the order they were released */
  GThread  *caller;
  gboolean  on_caller;  /* some item was released on the caller's thread */
} Log;

typedef struct
{
  Log   *log;
  guint  index;
} Item;

static void
release_item (gpointer data)
{
  Item *item = data;

  g_mutex_lock (&item->log->lock);
  g_array_append_val (item->log->order, item->index);
  if (g_thread_self () == item->log->caller)
    item->log->on_caller = TRUE;
  g_mutex_unlock (&item->log->lock);
  g_free (item);
}

static void
test_in_background (void)
{
  Log log = { .order = g_array_new (FALSE, FALSE, sizeof (guint)), .caller = g_thread_self () };

  g_mutex_init (&log.lock);

  for (guint i = 0; i < N_ITEMS; i++)
    {
      Item *item = g_new (Item, 1);

      item->log = &log;
      item->index = i;
      smprof_release_in_background (item, release_item);
    }
  smprof_release_in_background (NULL, release_item);
  smprof_release_wait ();

  g_mutex_lock (&log.lock);
  g_assert_cmpuint (log.order->len, ==, N_ITEMS);
  for (guint i = 0; i < N_ITEMS; i++)
    g_assert_cmpuint (g_array_index (log.order, guint, i), ==, i);
  g_assert_false (log.on_caller);
  g_mutex_unlock (&log.lock);

  /* Nothing pending: returns at once. */
  smprof_release_wait ();

  g_array_unref (log.order);
  g_mutex_clear (&log.lock);
}

static void
finalized_cb (gpointer  data,
              GObject  *where_the_object_was)
{
  GThread **thread = data;

  *thread = g_thread_self ();
}

/* An object's last reference: finalized on the releasing thread. */
static void
test_object (void)
{
  GObject *object = g_object_new (G_TYPE_OBJECT, NULL);
  GThread *finalized_on = NULL;

  g_object_weak_ref (object, finalized_cb, &finalized_on);
  smprof_release_in_background (object, g_object_unref);
  smprof_release_wait ();

  g_assert_nonnull (finalized_on);
  g_assert_true (finalized_on != g_thread_self ());
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/release/in-background", test_in_background);
  g_test_add_func ("/release/object", test_object);

  return g_test_run ();
}
