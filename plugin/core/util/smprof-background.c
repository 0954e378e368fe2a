/* smprof-background.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the viewer fills in after a job's first answer (the range index of
 * every node, the statistics per step, the node matrix's figures) took both
 * cores for seconds on a 256-node job, at the priority of its main thread:
 * the frame that showed the first answer had the CPU for about half of its
 * 57 ms (29 samples of 57 in a profile). On a thread of its own, at a lower
 * priority, such work takes the CPU the main thread leaves, and does not
 * take it from the frames. Work a user waits for (opening a job, the answer
 * to a selection) held the cores the same way while the page first drew:
 * the main thread had 47 ms of CPU in a 73 ms frame, the answer's threads
 * the rest; it runs below the main thread too, above background work. */

#include "config.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "smprof-background.h"

typedef struct
{
  GTask           *task;
  GTaskThreadFunc  task_func;
  int              nice_steps;
} Background;

static gpointer
background_thread (gpointer data)
{
  Background *background = data;

#ifdef SYS_gettid
  /* Per thread on Linux; nothing is lost where it cannot be done. */
  (void) !setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid),
                       MIN (getpriority (PRIO_PROCESS, 0) + background->nice_steps, 19));
#endif

  background->task_func (background->task, g_task_get_source_object (background->task),
                         g_task_get_task_data (background->task), g_task_get_cancellable (background->task));
  g_object_unref (background->task);
  g_free (background);

  return NULL;
}

static void
run_on_own_thread (GTask           *task,
                   GTaskThreadFunc  task_func,
                   int              nice_steps)
{
  Background *background;
  GThread *thread;

  background = g_new (Background, 1);
  background->task = g_object_ref (task);
  background->task_func = task_func;
  background->nice_steps = nice_steps;

  thread = g_thread_try_new ("smprof-background", background_thread, background, NULL);
  if (thread == NULL)
    {
      g_object_unref (background->task);
      g_free (background);
      g_task_run_in_thread (task, task_func);
      return;
    }

  g_thread_unref (thread);
}

/**
 * smprof_task_run_in_background:
 * @task: a #GTask
 * @task_func: what it runs
 *
 * g_task_run_in_thread() for work that may wait: @task_func runs on a thread
 * of its own whose priority is %SMPROF_BACKGROUND_NICE steps below the
 * caller's (a thread cannot take its priority back, so none of GLib's
 * shared threads is lowered). Threads that @task_func starts inherit that
 * priority. The task returns as with g_task_run_in_thread().
 * Where no thread can be made, g_task_run_in_thread() runs it.
 */
void
smprof_task_run_in_background (GTask           *task,
                               GTaskThreadFunc  task_func)
{
  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (task_func != NULL);

  run_on_own_thread (task, task_func, SMPROF_BACKGROUND_NICE);
}

/**
 * smprof_task_run_awaited:
 * @task: a #GTask
 * @task_func: what it runs
 *
 * As smprof_task_run_in_background(), for work a user waits for (opening a
 * job, the answer to a selection): %SMPROF_AWAITED_NICE steps below the
 * caller, so that it takes the CPU the main thread leaves rather than the
 * main thread's frames, and above background work, so that it comes first.
 */
void
smprof_task_run_awaited (GTask           *task,
                         GTaskThreadFunc  task_func)
{
  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (task_func != NULL);

  run_on_own_thread (task, task_func, SMPROF_AWAITED_NICE);
}
