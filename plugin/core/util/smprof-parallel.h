/* smprof-parallel.h: one loop over many items, on several threads
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * SmprofParallelFunc:
 * @index: the item to work on, below the loop's @n_items
 * @user_data: the loop's @user_data
 *
 * Works on one item. Called from several threads at once, each time with
 * another @index: write to a slot of @index's own, or lock.
 */
typedef void (*SmprofParallelFunc) (guint    index,
                                    gpointer user_data);

void smprof_parallel_for (const char         *thread_name,
                          guint               n_items,
                          guint               n_threads,
                          SmprofParallelFunc  func,
                          gpointer            user_data,
                          GCancellable       *cancellable);

G_END_DECLS
