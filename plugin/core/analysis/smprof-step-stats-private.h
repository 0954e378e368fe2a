/* smprof-step-stats-private.h: the per-step statistics' fields, shared by the
 * summing (smprof-step-stats.c) and the marking of outliers and stragglers
 * (smprof-step-outliers.c)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-step-stats.h"

G_BEGIN_DECLS

/* A function's time in one step; a function's entries are kept in step order
 * and only for the steps it ran in, so a job of many steps and thousands of
 * functions stays small. */
typedef struct
{
  guint  step;
  double time;
} SeriesEntry;

struct _SmprofStepStats
{
  SmprofJob       *job;
  SmprofProfiler   profiler;
  char           **node_ids;         /* the nodes asked for, as given */
  SmprofStepRule   rule;
  GArray          *steps;            /* SmprofStep, by node, mode, step */
  GPtrArray       *step_records;     /* GPtrArray of SmprofRecord per step */
  GArray          *functions;        /* SmprofStepFunction, by total time, largest first */
  GPtrArray       *series;           /* GArray of SeriesEntry per function */
  double           unassigned_time;
  guint            n_unassigned;
  /* Of the unassigned: intervals that start at a step and run into
   * post-hook-close, left out of their step unless rule.count_teardown. */
  double           teardown_time;
  guint            n_teardown;
  /* Widgets share the stats with the page that computed them. */
  gatomicrefcount  ref_count;
};

int  _smprof_step_compare_doubles (const void      *a,
                                   const void      *b);
void _smprof_step_stats_mark      (SmprofStepStats *self);

G_END_DECLS
