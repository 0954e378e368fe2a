/* smprof-timeline-steps.h: where the timeline puts every step of the job (UI-free)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-job.h"
#include "smprof-timeline-layout.h"

G_BEGIN_DECLS

/**
 * SmprofTimelineStep:
 * @event: the step, from the job's framework timeline
 * @start: where it starts, per axis (as #SmprofTimelineItem)
 * @end: where it ends, per axis
 *
 * A node's steps are sorted by start on both axes: the step axis maps a
 * node's times through a non-decreasing function.
 */
typedef struct
{
  const SmprofStepEvent *event;
  double                 start[SMPROF_TIMELINE_N_AXES];
  double                 end[SMPROF_TIMELINE_N_AXES];
} SmprofTimelineStep;

typedef struct _SmprofTimelineSteps SmprofTimelineSteps;

SmprofTimelineSteps      *smprof_timeline_steps_new        (SmprofTimelineLayout  *layout,
                                                            SmprofJob             *job);
void                      smprof_timeline_steps_free       (SmprofTimelineSteps   *self);
SmprofTimelineLayout     *smprof_timeline_steps_get_layout (SmprofTimelineSteps   *self);
const SmprofTimelineStep *smprof_timeline_steps_get_node   (SmprofTimelineSteps   *self,
                                                            guint                  node,
                                                            guint                 *n_steps);
gboolean                  smprof_timeline_steps_get_extent (SmprofTimelineSteps   *self,
                                                            SmprofTimelineAxis     axis,
                                                            guint                  node,
                                                            double                *start,
                                                            double                *end);
void                      smprof_timeline_steps_range      (SmprofTimelineSteps   *self,
                                                            guint                  node,
                                                            SmprofTimelineAxis     axis,
                                                            double                 start,
                                                            double                 end,
                                                            guint                 *first,
                                                            guint                 *last);
guint                     smprof_timeline_steps_next_start (SmprofTimelineSteps   *self,
                                                            guint                  node,
                                                            SmprofTimelineAxis     axis,
                                                            guint                  from,
                                                            double                 value);
const SmprofTimelineStep *smprof_timeline_steps_hit        (SmprofTimelineSteps   *self,
                                                            guint                  node,
                                                            SmprofTimelineAxis     axis,
                                                            double                 value,
                                                            double                 tolerance);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofTimelineSteps, smprof_timeline_steps_free)

G_END_DECLS
