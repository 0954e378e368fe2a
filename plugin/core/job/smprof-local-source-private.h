/* smprof-local-source-private.h: what smprof-local-source.c,
 * smprof-local-source-listing.c and smprof-local-source-node.c share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sys/stat.h>

#include "smprof-local-source.h"

G_BEGIN_DECLS

struct _SmprofLocalSource
{
  GObject  parent_instance;

  char    *root;   /* the folder that holds framework/, absolute */
  char    *scope;  /* what to list, relative to root: framework[/<fw>[/<profiler>]] */
  guint    scope_depth;
  guint    list_threads;   /* how many listed node folders, the last time */
};

/**
 * SmprofFolderEntry:
 * @name: the entry's name
 * @type: its type as the folder gives it (dirent's d_type: DT_DIR, DT_REG,
 *   DT_LNK, ...), DT_UNKNOWN where the file system does not say
 *
 * One entry of a folder read by _smprof_local_source_read_sorted_fd().
 */
typedef struct
{
  char   *name;
  guint8  type;
} SmprofFolderEntry;

/* smprof-local-source.c */
gboolean _smprof_local_source_is_directory (const char        *path);
guint64  _smprof_local_source_version      (const struct stat *st);

/* smprof-local-source-listing.c */
guint    _smprof_local_source_get_list_threads   (SmprofLocalSource           *self);
void     _smprof_local_source_add_io_problem     (SmprofListing               *listing,
                                                  const char                  *relative,
                                                  GError                      *error);
GArray  *_smprof_local_source_read_sorted_fd     (int                          fd);
GArray  *_smprof_local_source_read_sorted_folder (const char                  *path,
                                                  GError                     **error);
gboolean _smprof_local_source_entry_is_directory (const char                  *folder,
                                                  const SmprofFolderEntry     *entry);
gboolean _smprof_local_source_list               (SmprofSource                *source,
                                                  const SmprofListingOptions  *options,
                                                  SmprofListing               *listing,
                                                  GCancellable                *cancellable,
                                                  GError                     **error);

/* smprof-local-source-node.c */
void _smprof_local_source_list_node_folder (SmprofLocalSource          *self,
                                            const SmprofListingOptions *options,
                                            SmprofListing              *listing,
                                            const char                 *relative,
                                            gboolean                    names_only,
                                            guint                       n_parts,
                                            GCancellable               *cancellable);

G_END_DECLS
