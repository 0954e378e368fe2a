/* smprof-job.h: the index of one job: every interval of every node and profiler
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-function-keys.h"
#include "smprof-index-cache.h"
#include "smprof-interval-name.h"
#include "smprof-pevents.h"
#include "smprof-pstats.h"
#include "smprof-pyinstrument.h"
#include "smprof-source.h"
#include "smprof-types.h"

G_BEGIN_DECLS

/**
 * SmprofRecord:
 *
 * One interval of one profiler: smdebug's StepPythonProfileStats, less the
 * Pyinstrument HTML twin. Everything but the stats comes from the folder name,
 * so records exist before any stats file is read.
 */
typedef struct
{
  SmprofProfiler      profiler;
  const char         *framework;     /* owned by the record */
  const char         *node_id;       /* owned by the record */
  SmprofIntervalName  name;
  char               *interval;      /* the interval folder name, owned by the record */
  char               *path;          /* the stats file, relative to the job root, owned by the record */
  guint               order;         /* position in smdebug's record order */

  guint64             size;          /* the stats file's, as listed */
  guint64             version;       /* SmprofListingEntry.version, as listed */

  /* Filled by smprof_job_load_stats(); at most one is set. */
  SmprofPstats              *pstats;
  SmprofPyinstrumentSession *session;
  gboolean                   failed; /* the file could not be read: see the job's problems */

  /* private: what owns @pstats or @session, shared with the same interval
   * of the jobs a live refresh lists (smprof_job_open()) */
  gpointer                   stats;
} SmprofRecord;

/**
 * SmprofJobChanges:
 * @SMPROF_JOB_CHANGED_NOTHING: the job is as it was
 * @SMPROF_JOB_CHANGED_INTERVALS: intervals appeared or went, or their stats
 *   files changed
 * @SMPROF_JOB_CHANGED_STATS: stats read before now read otherwise: a file
 *   that could not be read now reads, or one that changed was read again
 * @SMPROF_JOB_CHANGED_PROBLEMS: what the job reports as skipped differs
 * @SMPROF_JOB_CHANGED_STEPS: the framework timelines' steps differ
 *
 * What smprof_job_open() found changed since the job it was given.
 */
typedef enum
{
  SMPROF_JOB_CHANGED_NOTHING   = 0,
  SMPROF_JOB_CHANGED_INTERVALS = 1 << 0,
  SMPROF_JOB_CHANGED_STATS     = 1 << 1,
  SMPROF_JOB_CHANGED_PROBLEMS  = 1 << 2,
  SMPROF_JOB_CHANGED_STEPS     = 1 << 3,
} SmprofJobChanges;

#define SMPROF_TYPE_JOB (smprof_job_get_type ())

G_DECLARE_FINAL_TYPE (SmprofJob, smprof_job, SMPROF, JOB, GObject)

SmprofJob           *smprof_job_new              (SmprofSource          *source);
SmprofJob           *smprof_job_open             (SmprofSource          *source,
                                                  SmprofJob             *previous,
                                                  SmprofJobChanges      *changes,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
gboolean             smprof_job_load             (SmprofJob             *self,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
SmprofSource        *smprof_job_get_source       (SmprofJob             *self);
void                 smprof_job_set_index_cache  (SmprofJob             *self,
                                                  SmprofIndexCache      *cache);
SmprofIndexCache    *smprof_job_get_index_cache  (SmprofJob             *self);
SmprofFunctionKeys  *smprof_job_get_function_keys (SmprofJob             *self);
GPtrArray           *smprof_job_get_records      (SmprofJob             *self,
                                                  SmprofProfiler         profiler);
gboolean             smprof_job_has_profiler     (SmprofJob             *self,
                                                  SmprofProfiler         profiler);
char               **smprof_job_dup_node_ids     (SmprofJob             *self,
                                                  SmprofProfiler         profiler);
GPtrArray           *smprof_job_dup_problems     (SmprofJob             *self);
gboolean             smprof_job_load_for_any_node (SmprofJob             *self,
                                                   const SmprofProfiler  *profiler,
                                                   GCancellable          *cancellable,
                                                   GError               **error);
gboolean             smprof_job_load_for_nodes    (SmprofJob             *self,
                                                   const char * const    *node_ids,
                                                   GCancellable          *cancellable,
                                                   GError               **error);
gboolean             smprof_job_load_node_names   (SmprofJob             *self,
                                                   GCancellable          *cancellable,
                                                   GError               **error);
gboolean             smprof_job_load_stats       (SmprofJob             *self,
                                                  GPtrArray             *records,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
gboolean             smprof_job_load_stats_in_background (SmprofJob     *self,
                                                          GPtrArray     *records,
                                                          GCancellable  *cancellable,
                                                          GError       **error);
guint                smprof_job_count_read_stats (SmprofJob             *self,
                                                  GPtrArray             *records);

/**
 * SmprofStatsFoldFunc:
 * @record: a record whose stats were read (@record->pstats or
 *   @record->session is set)
 * @user_data: what smprof_job_fold_stats() was given
 *
 * What smprof_job_fold_stats() calls for each record read, in order.
 */
typedef void (*SmprofStatsFoldFunc) (SmprofRecord *record,
                                     gpointer      user_data);

gboolean             smprof_job_fold_stats       (SmprofJob             *self,
                                                  GPtrArray             *records,
                                                  SmprofStatsFoldFunc    fold,
                                                  gpointer               user_data,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
gboolean             smprof_job_load_step_events (SmprofJob             *self,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
GArray              *smprof_job_get_step_events  (SmprofJob             *self,
                                                  const char            *node_id);

G_END_DECLS
