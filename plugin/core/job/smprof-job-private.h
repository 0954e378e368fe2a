/* smprof-job-private.h: what smprof-job.c and smprof-job-loader.c share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-job.h"

G_BEGIN_DECLS

struct _SmprofJob
{
  GObject          parent_instance;

  SmprofSource       *source;
  SmprofFunctionKeys *function_keys;
  GStringChunk       *names;                          /* node ids and frameworks */
  GPtrArray          *records[SMPROF_N_PROFILERS];    /* SmprofRecord, record order */
  GMutex              problems_lock;
  GPtrArray          *problems;                       /* SmprofProblem */

  /* Reading stats files fills records in place (smprof-job-loader.c): a
   * caller claims the records it reads; others that need them wait for
   * them, and records nobody reads are claimed by whoever asks. */
  GMutex              stats_lock;
  GCond               stats_cond;
  GHashTable         *stats_loading;                  /* SmprofRecord claimed, being read */

  /* smprof-job-pevents.c */
  GPtrArray       *timeline_paths;                 /* framework timeline files listed */
  GHashTable      *step_events;                    /* node id -> GArray of SmprofStepEvent */
};

void _smprof_job_add_problem (SmprofJob  *self,
                              const char *path,
                              const char *message);

void _smprof_job_index_listing (SmprofJob     *self,
                                SmprofListing *listing);

/* smprof-job-pevents.c */
void _smprof_job_clear_step_events (SmprofJob *self);

G_END_DECLS
