/* test-background.c: work that fills in later, below the main thread
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_task_run_in_background() runs a task's function once, on a thread
 * that is not the caller's, SMPROF_BACKGROUND_NICE steps below the caller's
 * priority, with the task's data and cancellable; the task returns to the
 * caller's main context as from g_task_run_in_thread(); the caller's own
 * priority, and that of GLib's shared threads, is left alone.
 * smprof_task_run_awaited() does the same SMPROF_AWAITED_NICE steps below,
 * and the threads such work starts (smprof_parallel_for()) run as low.
 */

#include "config.h"

#include <errno.h>
#include <sys/resource.h>

#include "smprof-background.h"
#include "smprof-parallel.h"

typedef struct
{
  GThread *thread;        /* where the function ran */
  int      nice;          /* at what priority */
  int      helper_nice;   /* and the threads it started */
  gboolean cancelled;     /* whether it saw the task's cancellable cancelled */
  guint    runs;
} Seen;

static int
own_nice (void)
{
  int nice;

  errno = 0;
  nice = getpriority (PRIO_PROCESS, 0);
  g_assert_cmpint (errno, ==, 0);

  return nice;
}

/* Item 0 runs on the calling thread, item 1 on the helper it starts. */
static void
helper_item (guint    index,
             gpointer user_data)
{
  Seen *seen = user_data;

  if (index == 1)
    seen->helper_nice = own_nice ();
}

static void
work (GTask        *task,
      gpointer      source_object,
      gpointer      task_data,
      GCancellable *cancellable)
{
  Seen *seen = task_data;

  seen->thread = g_thread_self ();
  seen->nice = own_nice ();
  smprof_parallel_for ("test-helper", 2, 2, helper_item, seen, NULL);
  seen->cancelled = g_cancellable_is_cancelled (cancellable);
  seen->runs++;
  g_task_return_int (task, 42);
}

static void
done_cb (GObject      *source_object,
         GAsyncResult *result,
         gpointer      user_data)
{
  gssize *answer = user_data;
  g_autoptr(GError) error = NULL;

  *answer = g_task_propagate_int (G_TASK (result), &error);
  g_assert_no_error (error);
}

/* What a shared thread of GLib runs at, from a plain g_task_run_in_thread(). */
static void
shared_work (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_task_return_int (task, own_nice ());
}

typedef void (*RunFunc) (GTask           *task,
                         GTaskThreadFunc  task_func);

static void
check_runs_below (RunFunc run,
                  int     steps)
{
  g_autoptr(GObject) source = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) shared = NULL;
  Seen seen = { NULL, 0, 0, FALSE, 0 };
  gssize answer = -1, shared_nice = -100;
  int caller_nice = own_nice ();

  task = g_task_new (source, cancellable, done_cb, &answer);
  g_task_set_task_data (task, &seen, NULL);
  run (task, work);
  g_clear_object (&task);

  while (answer == -1)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpint (answer, ==, 42);
  g_assert_cmpuint (seen.runs, ==, 1);
  g_assert_nonnull (seen.thread);
  g_assert_true (seen.thread != g_thread_self ());
  g_assert_cmpint (seen.nice, ==, MIN (caller_nice + steps, 19));
  g_assert_cmpint (seen.nice, >, caller_nice);
  g_assert_cmpint (seen.helper_nice, ==, seen.nice);
  g_assert_false (seen.cancelled);

  /* Neither the caller nor GLib's shared threads were lowered. */
  g_assert_cmpint (own_nice (), ==, caller_nice);
  shared = g_task_new (source, NULL, done_cb, &shared_nice);
  g_task_run_in_thread (shared, shared_work);
  g_clear_object (&shared);
  while (shared_nice == -100)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (shared_nice, ==, caller_nice);
}

static void
test_runs_below (void)
{
  check_runs_below (smprof_task_run_in_background, SMPROF_BACKGROUND_NICE);
}

/* Work a user waits for: below the caller, above background work. */
static void
test_awaited_runs_below (void)
{
  g_assert_cmpint (SMPROF_AWAITED_NICE, >, 0);
  g_assert_cmpint (SMPROF_AWAITED_NICE, <, SMPROF_BACKGROUND_NICE);
  check_runs_below (smprof_task_run_awaited, SMPROF_AWAITED_NICE);
}

/* The task's cancellable reaches the function. */
static void
test_cancellable (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GTask) task = NULL;
  Seen seen = { NULL, 0, 0, FALSE, 0 };
  gssize answer = -1;

  g_cancellable_cancel (cancellable);
  task = g_task_new (NULL, cancellable, done_cb, &answer);
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, &seen, NULL);
  smprof_task_run_in_background (task, work);
  g_clear_object (&task);

  while (answer == -1)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpint (answer, ==, 42);
  g_assert_true (seen.cancelled);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/background/runs-below", test_runs_below);
  g_test_add_func ("/background/awaited-runs-below", test_awaited_runs_below);
  g_test_add_func ("/background/cancellable", test_cancellable);

  return g_test_run ();
}
