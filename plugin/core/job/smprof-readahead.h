/* smprof-readahead.h: asking the kernel for local files before they are read
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _SmprofReadahead SmprofReadahead;

gboolean         smprof_readahead_is_cold (const char          *root,
                                           const char * const  *paths,
                                           guint                n_paths);
SmprofReadahead *smprof_readahead_start   (const char          *root,
                                           const char * const  *paths,
                                           guint                n_paths,
                                           guint                n_threads,
                                           guint                window,
                                           GCancellable        *cancellable);
void             smprof_readahead_reached (SmprofReadahead     *self,
                                           guint                index);
guint            smprof_readahead_join    (SmprofReadahead     *self,
                                           gboolean             stop);

G_END_DECLS
