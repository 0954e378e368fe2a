/* smprof-job-private.h: what smprof-job.c and smprof-job-loader.c share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-index-cache-private.h"
#include "smprof-job.h"
#include "smprof-record-store-private.h"

G_BEGIN_DECLS

/* What owns a record's parsed stats (SmprofRecord.stats), counted: the
 * records of one interval in the successive listings of a job share it, so
 * a live refresh holds one copy of the stats, not one per listing. */
typedef struct
{
  SmprofPstats              *pstats;
  SmprofPyinstrumentSession *session;
} SmprofRecordStats;

/* The function keys a job's stats are interned in, counted likewise: a
 * refreshed job interns into its predecessor's, since they share stats. */
typedef struct
{
  SmprofFunctionKeys *keys;
} SmprofSharedKeys;

struct _SmprofJob
{
  GObject          parent_instance;

  SmprofSource       *source;
  SmprofSharedKeys   *shared_keys;
  SmprofFunctionKeys *function_keys;                  /* shared_keys->keys */
  GStringChunk       *names;                          /* node ids of node folders and timelines */
  SmprofRecordStore  *record_store;                   /* the records and their strings */
  GPtrArray          *records[SMPROF_N_PROFILERS];    /* SmprofRecord, record order */
  GPtrArray          *node_folders[SMPROF_N_PROFILERS]; /* node ids listed by name (in names), any order */
  GMutex              problems_lock;
  /* smprof_job_dup_node_ids()'s last answer per profiler, and the counts of
   * records and node folders it was made from: both only grow, so the same
   * counts are the same nodes.  A page opening a 256-node job asked for them
   * five times, each a pass over 51,200 records on the main thread. */
  GMutex              node_ids_lock;
  char              **node_ids[SMPROF_N_PROFILERS];
  guint               node_ids_n_records[SMPROF_N_PROFILERS];
  guint               node_ids_n_folders[SMPROF_N_PROFILERS];
  GPtrArray          *problems;                       /* SmprofProblem */
  SmprofJobIndex     *index;                          /* the parsed index, when given a cache */

  /* Reading stats files fills records in place (smprof-job-loader.c): a
   * caller claims the records it reads; others that need them wait for
   * them, and records nobody reads are claimed by whoever asks. */
  GMutex              stats_lock;
  GCond               stats_cond;
  GHashTable         *stats_loading;                  /* SmprofRecord claimed, being read */
  guint               n_foreground_loads;             /* callers a background load gives way to */

  /* smprof_job_fold_stats() (smprof-job-fold.c): its caller waits for each
   * record in turn; readers say when a record is read or failed. */
  GMutex              fold_lock;
  GCond               fold_cond;
  int                 n_folding;                      /* atomic */
  gpointer            fold_awaited;                   /* atomic: the SmprofRecord a folder waits for */

  /* smprof-job-pevents.c */
  GPtrArray       *timeline_paths;                 /* framework timeline files listed */
  GHashTable      *step_events;                    /* node id -> GArray of SmprofStepEvent */
};

SmprofRecordStats *_smprof_record_stats_new     (SmprofPstats              *pstats,
                                                 SmprofPyinstrumentSession *session);
void               _smprof_record_stats_unref   (SmprofRecordStats         *stats);
void               _smprof_record_publish_stats (SmprofRecord              *record,
                                                 SmprofRecordStats         *stats);
SmprofRecordStats *_smprof_record_dup_stats     (SmprofRecord              *record);
void               _smprof_record_drop_stats    (SmprofRecord              *record);
void               _smprof_job_share_keys       (SmprofJob                 *self,
                                                 SmprofJob                 *previous);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofRecordStats, _smprof_record_stats_unref)

void _smprof_job_add_problem (SmprofJob  *self,
                              const char *path,
                              const char *message);

/* smprof-job-loader.c */
gboolean _smprof_job_read_claimed   (SmprofJob     *self,
                                     GPtrArray     *pending,
                                     GPtrArray     *parsed,
                                     GCancellable  *cancellable,
                                     GError       **error);
void     _smprof_job_record_settled (SmprofJob     *self,
                                     SmprofRecord  *record);

void _smprof_job_index_listing (SmprofJob     *self,
                                SmprofListing *listing);

/* smprof-job-pevents.c */
void _smprof_job_clear_step_events (SmprofJob *self);

/* For tests and benchmarks: what the parsed index did, all zero without one. */
void _smprof_job_get_index_counts (SmprofJob            *self,
                                   SmprofJobIndexCounts *counts);

G_END_DECLS
