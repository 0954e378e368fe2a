/* smprof-index-cache-private.h: what a job and its loader use of the
 * parsed index (smprof-index-cache.c, smprof-job-index.c)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-function-keys.h"
#include "smprof-index-cache.h"

G_BEGIN_DECLS

/* smprof-index-cache.c */
char     *_smprof_index_cache_dup_path   (SmprofIndexCache  *self,
                                          const char        *kind,
                                          const char        *identity);
gboolean  _smprof_index_cache_ensure_dir (SmprofIndexCache  *self,
                                          GError           **error);
void      _smprof_index_cache_mark_used  (SmprofIndexCache  *self,
                                          const char        *path,
                                          gboolean           touch);

/* smprof-job-index.c: what one job keeps of the cache */
typedef struct _SmprofJobIndex SmprofJobIndex;

/**
 * SmprofJobIndexFillFlags:
 * @SMPROF_JOB_INDEX_FILL_DEFAULT: on as many threads as there are cores; the
 *   records not filled count as misses
 * @SMPROF_JOB_INDEX_FILL_ASKED_AGAIN: the records not filled are asked for
 *   again before their stats files are read, and count as misses then
 * @SMPROF_JOB_INDEX_FILL_THIS_THREAD: on the calling thread alone
 */
typedef enum
{
  SMPROF_JOB_INDEX_FILL_DEFAULT = 0,
  SMPROF_JOB_INDEX_FILL_ASKED_AGAIN = 1 << 0,
  SMPROF_JOB_INDEX_FILL_THIS_THREAD = 1 << 1,
} SmprofJobIndexFillFlags;

/**
 * SmprofJobIndexCounts:
 * @hits: intervals read from the cache
 * @misses: intervals the cache could have held but did not (or not
 *   usably): their stats files were read
 * @nodes_written: node files written
 * @keys_written: keys files written
 *
 * What a job's use of the cache came to, for tests and benchmarks.
 */
typedef struct
{
  guint hits;
  guint misses;
  guint nodes_written;
  guint keys_written;
} SmprofJobIndexCounts;

SmprofJobIndex *_smprof_job_index_new        (SmprofIndexCache     *cache,
                                              const char           *location);
void            _smprof_job_index_free       (SmprofJobIndex       *self);
SmprofIndexCache *_smprof_job_index_get_cache (SmprofJobIndex      *self);
void            _smprof_job_index_fill       (SmprofJobIndex       *self,
                                              SmprofFunctionKeys   *table,
                                              GPtrArray            *records,
                                              SmprofJobIndexFillFlags flags,
                                              GCancellable         *cancellable);
void            _smprof_job_index_read_ahead (SmprofJobIndex       *self,
                                              GHashTable           *node_folders);
void            _smprof_job_index_store      (SmprofJobIndex       *self,
                                              SmprofFunctionKeys   *table,
                                              GPtrArray            *job_records,
                                              GPtrArray            *parsed);
void            _smprof_job_index_get_counts (SmprofJobIndex       *self,
                                              SmprofJobIndexCounts *counts);

G_END_DECLS
