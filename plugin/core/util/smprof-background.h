/* smprof-background.h: work that fills in later, below the main thread
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How many nice steps below its caller background work runs: enough that a
 * busy main thread gets a core (CFS weights 1024 against 110 at 10), and not
 * the lowest, at which a lock such a thread holds could wait long for it. */
#define SMPROF_BACKGROUND_NICE 10

/* Work a user waits for runs between the two: CFS weights 1024 for the main
 * thread against 335 at 5, and 335 against 110 for background work. */
#define SMPROF_AWAITED_NICE 5

void smprof_task_run_in_background (GTask           *task,
                                    GTaskThreadFunc  task_func);

void smprof_task_run_awaited       (GTask           *task,
                                    GTaskThreadFunc  task_func);

G_END_DECLS
