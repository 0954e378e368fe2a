/* smprof-timeline-layout.h: where the timeline puts every interval (UI-free)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "smprof-job.h"
#include "smprof-query.h"

G_BEGIN_DECLS

/**
 * SmprofTimelineAxis:
 * @SMPROF_TIMELINE_AXIS_TIME: wall clock, in microseconds since the job's start
 *   (the earliest interval start of any node)
 * @SMPROF_TIMELINE_AXIS_STEP: step positions, see below
 *
 * The step axis ("align by step") lines nodes up by step instead of by clock.
 * Every distinct (mode, step) pair the job reached with a finite step number is
 * a "step key"; keys are numbered 0, 1, 2... in the order the job reached them
 * (the mean, over the nodes that have the key, of its time since the node's
 * first key). On each node, key k is anchored at position k at the time of its
 * `stepstart`: where an interval starts at it (else where one ends at it, else
 * the step's earliest boundary), so the intervals that start a step begin at
 * the same x on every node. Two more anchors close the
 * loop: the node's last boundary with a finite step sits one unit after the
 * node's last key, and the node's end one unit after that; the node's first
 * start sits one unit before its first key. Between anchors, times map
 * linearly, so phases keep their proportions inside a step: pre-step-zero
 * spans [-1, 0] (relative to the first key), the training loop [0, K], and
 * finalization the last unit.
 *
 * PyTorch numbers steps globally, so keys follow the step numbers; TensorFlow
 * numbers train and eval steps separately, so `eval 0` gets its own key after
 * the train steps it followed. smprof_timeline_layout_get_step_label() gives a
 * key's label.
 */
typedef enum
{
  SMPROF_TIMELINE_AXIS_TIME,
  SMPROF_TIMELINE_AXIS_STEP,
} SmprofTimelineAxis;

#define SMPROF_TIMELINE_N_AXES 2

/**
 * SmprofTimelineItem:
 * @record: the interval
 * @start: where it starts, per axis (µs since the job's start, or step position)
 * @end: where it ends, per axis
 * @node: the node's index in the layout
 * @lane: the lane inside the node's row (intervals of one node that overlap
 *   go to separate lanes; in smdebug's output there is one lane)
 * @mode: the mode whose colour the block gets
 *
 * Inside one lane, items are sorted by start and do not overlap, on both axes,
 * so both @start and @end are sorted and ranges are found by binary search.
 */
typedef struct
{
  const SmprofRecord *record;
  double              start[SMPROF_TIMELINE_N_AXES];
  double              end[SMPROF_TIMELINE_N_AXES];
  guint32             node;
  guint16             lane;
  guint8              mode;
} SmprofTimelineItem;

/**
 * SmprofTimelineViewport:
 * @x: the widget x of the plot's left edge
 * @width: the plot's width in pixels
 * @start: the axis value at @x
 * @span: the axis values across @width
 *
 * Pixels to axis values and back: the one conversion the widget, its input
 * handling and the tests share.
 */
typedef struct
{
  double x;
  double width;
  double start;
  double span;
} SmprofTimelineViewport;

static inline double
smprof_timeline_viewport_x_to_value (const SmprofTimelineViewport *viewport,
                                     double                        x)
{
  return viewport->start + (x - viewport->x) * viewport->span / viewport->width;
}

static inline double
smprof_timeline_viewport_value_to_x (const SmprofTimelineViewport *viewport,
                                     double                        value)
{
  return viewport->x + (value - viewport->start) * viewport->width / viewport->span;
}

#define SMPROF_TYPE_TIMELINE_LAYOUT (smprof_timeline_layout_get_type ())

G_DECLARE_FINAL_TYPE (SmprofTimelineLayout, smprof_timeline_layout, SMPROF, TIMELINE_LAYOUT, GObject)

SmprofTimelineLayout     *smprof_timeline_layout_new             (GPtrArray                  *records);
SmprofTimelineLayout     *smprof_timeline_layout_dup_for_job     (SmprofJob                  *job,
                                                                  SmprofProfiler              profiler);
GPtrArray                *smprof_timeline_layout_get_records     (SmprofTimelineLayout       *self);
double                    smprof_timeline_layout_get_origin_us   (SmprofTimelineLayout       *self);
guint                     smprof_timeline_layout_get_n_nodes     (SmprofTimelineLayout       *self);
const char               *smprof_timeline_layout_get_node_id     (SmprofTimelineLayout       *self,
                                                                  guint                       node);
int                       smprof_timeline_layout_find_node       (SmprofTimelineLayout       *self,
                                                                  const char                 *node_id);
guint                     smprof_timeline_layout_get_n_lanes     (SmprofTimelineLayout       *self,
                                                                  guint                       node);
const SmprofTimelineItem *smprof_timeline_layout_get_lane        (SmprofTimelineLayout       *self,
                                                                  guint                       node,
                                                                  guint                       lane,
                                                                  guint                      *n_items);
guint                     smprof_timeline_layout_get_n_items     (SmprofTimelineLayout       *self);
const SmprofTimelineItem *smprof_timeline_layout_get_items       (SmprofTimelineLayout       *self);
const SmprofTimelineItem *smprof_timeline_layout_lookup_record   (SmprofTimelineLayout       *self,
                                                                  const SmprofRecord         *record);
gboolean                  smprof_timeline_layout_get_extent      (SmprofTimelineLayout       *self,
                                                                  SmprofTimelineAxis          axis,
                                                                  const guint                *nodes,
                                                                  guint                       n_nodes,
                                                                  double                     *start,
                                                                  double                     *end);
void                      smprof_timeline_layout_lane_range      (SmprofTimelineLayout       *self,
                                                                  guint                       node,
                                                                  guint                       lane,
                                                                  SmprofTimelineAxis          axis,
                                                                  double                      start,
                                                                  double                      end,
                                                                  guint                      *first,
                                                                  guint                      *last);
guint                     smprof_timeline_layout_lane_next_start (SmprofTimelineLayout       *self,
                                                                  guint                       node,
                                                                  guint                       lane,
                                                                  SmprofTimelineAxis          axis,
                                                                  guint                       from,
                                                                  double                      value);
const SmprofTimelineItem *smprof_timeline_layout_hit             (SmprofTimelineLayout       *self,
                                                                  guint                       node,
                                                                  guint                       lane,
                                                                  SmprofTimelineAxis          axis,
                                                                  double                      value,
                                                                  double                      tolerance);
const SmprofTimelineItem *smprof_timeline_layout_nearest         (SmprofTimelineLayout       *self,
                                                                  guint                       node,
                                                                  SmprofTimelineAxis          axis,
                                                                  double                      value);
GPtrArray                *smprof_timeline_layout_select_range    (SmprofTimelineLayout       *self,
                                                                  SmprofTimelineAxis          axis,
                                                                  double                      start,
                                                                  double                      end,
                                                                  const guint                *nodes,
                                                                  guint                       n_nodes,
                                                                  SmprofSelection            *query);
guint                     smprof_timeline_layout_get_n_steps     (SmprofTimelineLayout       *self);
char                     *smprof_timeline_layout_dup_step_label  (SmprofTimelineLayout       *self,
                                                                  guint                       key);
double                    smprof_timeline_layout_time_to_step    (SmprofTimelineLayout       *self,
                                                                  guint                       node,
                                                                  double                      time);

G_END_DECLS
