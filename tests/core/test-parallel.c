/* test-parallel.c: the parallel loop every core library shares
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_parallel_for() runs the job loader, the framework timelines, the
 * local listing, the range index build and the S3 fetches: every item once,
 * on as many threads as asked (the caller's among them), an item's failure
 * its own, and nothing started once cancelled.
 */

#include "config.h"

#include "smprof-parallel.h"

/* Long enough for any machine to start its threads; only reached if the loop
 * does not run as many threads at once as it should. */
#define BARRIER_TIMEOUT_S 20

typedef struct
{
  GMutex        lock;
  GCond         cond;
  guint         n_items;
  int          *runs;            /* per item, atomic */
  GThread     **threads;         /* per item: the thread that ran it */
  GArray       *order;           /* guint: items in the order they started */
  GError      **errors;          /* per item: what failed */
  guint         barrier;         /* the first items wait until this many have arrived */
  guint         arrived;
  gboolean      barrier_timed_out;
  guint         cancel_at;       /* G_MAXUINT: never */
  GCancellable *cancellable;
  int           started_cancelled;
} Run;

static void
run_init (Run   *run,
          guint  n_items)
{
  g_mutex_init (&run->lock);
  g_cond_init (&run->cond);
  run->n_items = n_items;
  run->runs = g_new0 (int, MAX (n_items, 1));
  run->threads = g_new0 (GThread *, MAX (n_items, 1));
  run->order = g_array_new (FALSE, FALSE, sizeof (guint));
  run->errors = g_new0 (GError *, MAX (n_items, 1));
  run->barrier = 0;
  run->arrived = 0;
  run->barrier_timed_out = FALSE;
  run->cancel_at = G_MAXUINT;
  run->cancellable = g_cancellable_new ();
  run->started_cancelled = 0;
}

static void
run_clear (Run *run)
{
  for (guint i = 0; i < run->n_items; i++)
    g_clear_error (&run->errors[i]);
  g_free (run->errors);
  g_free (run->runs);
  g_free (run->threads);
  g_array_unref (run->order);
  g_object_unref (run->cancellable);
  g_cond_clear (&run->cond);
  g_mutex_clear (&run->lock);
}

static void
work (guint    index,
      gpointer user_data)
{
  Run *run = user_data;

  g_assert_cmpuint (index, <, run->n_items);

  if (g_cancellable_is_cancelled (run->cancellable))
    g_atomic_int_inc (&run->started_cancelled);

  /* Items past the one that cancels wait for it, so that none can finish
   * before the cancellation, whatever the threads' timing. */
  if (run->cancel_at != G_MAXUINT && index > run->cancel_at)
    {
      gint64 deadline = g_get_monotonic_time () + BARRIER_TIMEOUT_S * G_TIME_SPAN_SECOND;

      while (!g_cancellable_is_cancelled (run->cancellable) && g_get_monotonic_time () < deadline)
        g_usleep (100);
    }

  g_atomic_int_inc (&run->runs[index]);
  run->threads[index] = g_thread_self ();

  g_mutex_lock (&run->lock);
  g_array_append_val (run->order, index);
  if (run->barrier > 0 && index < run->barrier)
    {
      gint64 deadline = g_get_monotonic_time () + BARRIER_TIMEOUT_S * G_TIME_SPAN_SECOND;

      run->arrived++;
      g_cond_broadcast (&run->cond);
      while (run->arrived < run->barrier && !run->barrier_timed_out)
        if (!g_cond_wait_until (&run->cond, &run->lock, deadline))
          run->barrier_timed_out = TRUE;
    }
  g_mutex_unlock (&run->lock);

  /* Every seventh item fails, in its own slot: the others run all the same. */
  if (index % 7 == 3)
    g_set_error (&run->errors[index], G_IO_ERROR, G_IO_ERROR_FAILED, "item %u failed", index);

  if (index == run->cancel_at)
    g_cancellable_cancel (run->cancellable);
}

static guint
count_threads (Run *run)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < run->n_items; i++)
    if (run->threads[i] != NULL)
      g_hash_table_add (seen, run->threads[i]);

  return g_hash_table_size (seen);
}

static void
test_every_item_once (void)
{
  const guint sizes[] = { 0, 1, 2, 7, 1000 };
  const guint widths[] = { 1, 2, 3, 8, 64 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        Run run;

        run_init (&run, sizes[s]);
        smprof_parallel_for ("test-parallel", sizes[s], widths[w], work, &run, NULL);

        for (guint i = 0; i < sizes[s]; i++)
          g_assert_cmpint (g_atomic_int_get (&run.runs[i]), ==, 1);
        g_assert_cmpuint (run.order->len, ==, sizes[s]);
        g_assert_cmpuint (count_threads (&run), <=, MIN (widths[w], sizes[s]));
        run_clear (&run);
      }
}

/* One thread is the caller's, and it takes the items in order. */
static void
test_one_thread (void)
{
  Run run;

  run_init (&run, 50);
  smprof_parallel_for ("test-parallel", 50, 1, work, &run, NULL);

  for (guint i = 0; i < 50; i++)
    {
      g_assert_true (run.threads[i] == g_thread_self ());
      g_assert_cmpuint (g_array_index (run.order, guint, i), ==, i);
    }
  run_clear (&run);

  /* A single item costs no thread, however many are allowed. */
  run_init (&run, 1);
  smprof_parallel_for ("test-parallel", 1, 16, work, &run, NULL);
  g_assert_true (run.threads[0] == g_thread_self ());
  run_clear (&run);
}

/* The work is split over as many threads as asked, the caller's among them:
 * the first items each wait until as many threads hold one, which only
 * happens if that many run at once. */
static void
test_work_split (void)
{
  struct { guint n_items, n_threads, expected; } cases[] = {
    { 64, 4, 4 },
    { 200, 8, 8 },
    { 3, 8, 3 },     /* never more threads than items */
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Run run;
      gboolean caller_worked = FALSE;

      run_init (&run, cases[c].n_items);
      run.barrier = cases[c].expected;
      smprof_parallel_for ("test-parallel", cases[c].n_items, cases[c].n_threads, work, &run, NULL);

      g_assert_false (run.barrier_timed_out);
      g_assert_cmpuint (count_threads (&run), ==, cases[c].expected);
      for (guint i = 0; i < run.n_items; i++)
        {
          g_assert_cmpint (run.runs[i], ==, 1);
          caller_worked |= run.threads[i] == g_thread_self ();
        }
      g_assert_true (caller_worked);
      run_clear (&run);
    }
}

/* An item's error is its own: every other item runs, and the loop reports
 * nothing. */
static void
test_errors (void)
{
  Run run;
  guint n_failed = 0;

  run_init (&run, 100);
  smprof_parallel_for ("test-parallel", 100, 4, work, &run, NULL);

  for (guint i = 0; i < 100; i++)
    {
      g_assert_cmpint (run.runs[i], ==, 1);
      if (i % 7 == 3)
        {
          g_assert_error (run.errors[i], G_IO_ERROR, G_IO_ERROR_FAILED);
          n_failed++;
        }
      else
        g_assert_no_error (run.errors[i]);
    }
  g_assert_cmpuint (n_failed, ==, 14);
  run_clear (&run);
}

static void
test_cancel (void)
{
  Run run;
  guint n_run = 0;

  /* Cancelled before: nothing runs. */
  run_init (&run, 100);
  g_cancellable_cancel (run.cancellable);
  smprof_parallel_for ("test-parallel", 100, 4, work, &run, run.cancellable);
  g_assert_cmpuint (run.order->len, ==, 0);
  run_clear (&run);

  /* On one thread, exactly the items up to the one that cancels run. */
  run_init (&run, 100);
  run.cancel_at = 10;
  smprof_parallel_for ("test-parallel", 100, 1, work, &run, run.cancellable);
  for (guint i = 0; i < 100; i++)
    g_assert_cmpint (run.runs[i], ==, i <= 10 ? 1 : 0);
  run_clear (&run);

  /* On several, an item another thread took before the cancellation may
   * still run, one per other thread at most; nothing else starts, nothing
   * runs twice, and the loop returns once all have joined. */
  run_init (&run, 10000);
  run.cancel_at = 1000;
  smprof_parallel_for ("test-parallel", 10000, 4, work, &run, run.cancellable);
  for (guint i = 0; i < run.n_items; i++)
    {
      g_assert_cmpint (run.runs[i], <=, 1);
      n_run += run.runs[i];
    }
  g_assert_cmpint (run.runs[1000], ==, 1);
  g_assert_cmpint (run.started_cancelled, <=, 3);
  g_assert_cmpuint (n_run, <=, 1001 + 3);
  g_assert_cmpuint (run.order->len, ==, n_run);
  run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/parallel/every-item-once", test_every_item_once);
  g_test_add_func ("/parallel/one-thread", test_one_thread);
  g_test_add_func ("/parallel/work-split", test_work_split);
  g_test_add_func ("/parallel/errors", test_errors);
  g_test_add_func ("/parallel/cancel", test_cancel);

  return g_test_run ();
}
