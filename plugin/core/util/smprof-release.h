/* smprof-release.h: letting go of big objects off the calling thread
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void smprof_release_in_background (gpointer       data,
                                   GDestroyNotify release);
void smprof_release_wait          (void);

G_END_DECLS
