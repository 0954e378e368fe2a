/* smprof-paned-memory.h: paned handles placed by a rule until the user
 * drags them, then where the user left them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef int (*SmprofPanedPositionFunc) (GtkPaned *paned,
                                        int       size,
                                        gpointer  user_data);

void smprof_paned_memory_attach (GtkPaned                *paned,
                                 const char              *key,
                                 SmprofPanedPositionFunc  func,
                                 gpointer                 user_data,
                                 GDestroyNotify           destroy);
void smprof_paned_memory_update (GtkPaned                *paned);
void smprof_paned_memory_forget (const char              *key);

G_END_DECLS
