/* fs-spy.h: counts the file system calls the main thread makes on a path
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void  fs_spy_watch           (const char *prefix);
guint fs_spy_get_main_calls  (void);
char *fs_spy_dup_last_call   (void);
void  fs_spy_stop            (void);

G_END_DECLS
