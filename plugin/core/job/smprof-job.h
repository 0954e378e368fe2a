/* smprof-job.h: the index of one job: every interval of every node and profiler
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-function-keys.h"
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
  const char         *framework;     /* owned by the job */
  const char         *node_id;       /* owned by the job */
  SmprofIntervalName  name;
  char               *interval;      /* the interval folder name */
  char               *path;          /* the stats file, relative to the job root */
  guint               order;         /* position in smdebug's record order */

  /* Filled by smprof_job_load_stats(); at most one is set. */
  SmprofPstats              *pstats;
  SmprofPyinstrumentSession *session;
  gboolean                   failed; /* the file could not be read: see the job's problems */
} SmprofRecord;

#define SMPROF_TYPE_JOB (smprof_job_get_type ())

G_DECLARE_FINAL_TYPE (SmprofJob, smprof_job, SMPROF, JOB, GObject)

SmprofJob           *smprof_job_new              (SmprofSource          *source);
gboolean             smprof_job_load             (SmprofJob             *self,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
SmprofSource        *smprof_job_get_source       (SmprofJob             *self);
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
gboolean             smprof_job_load_stats       (SmprofJob             *self,
                                                  GPtrArray             *records,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
gboolean             smprof_job_load_step_events (SmprofJob             *self,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
GArray              *smprof_job_get_step_events  (SmprofJob             *self,
                                                  const char            *node_id);

G_END_DECLS
