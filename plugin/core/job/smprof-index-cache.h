/* smprof-index-cache.h: the persistent parsed index, where parsed stats are
 * kept between runs
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* 1 GiB; SMPROF_INDEX_CACHE_MAX_SIZE overrides it */
#define SMPROF_INDEX_CACHE_DEFAULT_MAX_SIZE (G_GUINT64_CONSTANT (1) << 30)

#define SMPROF_TYPE_INDEX_CACHE (smprof_index_cache_get_type ())

/**
 * SmprofIndexCache:
 *
 * A folder of parsed stats: for each job, its function keys, and for each
 * node folder of it, the arrays that reading its cProfile stats files gave
 * (smprof-index-file.h), each interval keyed by its stats file's size and
 * version (a local file's times and inode, an S3 object's ETag). A job given
 * a cache (smprof_job_set_index_cache()) reads from it every interval whose
 * file is unchanged, in place where the file is mapped, and writes there
 * what it had to parse. Damaged, truncated, stale or foreign files are
 * misses, never wrong answers: the stats files are read instead.
 *
 * Files are written atomically (a temporary file renamed), and the folder is
 * kept under its size limit, the least recently used files going first.
 * Safe to use from several threads and processes at once.
 */
G_DECLARE_FINAL_TYPE (SmprofIndexCache, smprof_index_cache, SMPROF, INDEX_CACHE, GObject)

char             *smprof_index_cache_dup_default_dir (void);
SmprofIndexCache *smprof_index_cache_new             (const char        *dir,
                                                      guint64            max_size);
SmprofIndexCache *smprof_index_cache_new_default     (void);
const char       *smprof_index_cache_get_dir         (SmprofIndexCache  *self);
guint64           smprof_index_cache_get_max_size    (SmprofIndexCache  *self);
gboolean          smprof_index_cache_trim            (SmprofIndexCache  *self,
                                                      GError           **error);
gboolean          smprof_parse_size                  (const char        *text,
                                                      guint64           *size);

G_END_DECLS
