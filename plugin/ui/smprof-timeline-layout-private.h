/* smprof-timeline-layout-private.h
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What smprof-timeline-layout*.c share: the layout's data, and the step
 * axis's entry points that smprof_timeline_layout_new() calls. */

#pragma once

#include "smprof-timeline-layout.h"

G_BEGIN_DECLS

typedef struct
{
  guint offset;   /* into items */
  guint n_items;
} Lane;

typedef struct
{
  double time;    /* µs since the job's start */
  double position;
} Anchor;

typedef struct
{
  const char *id;           /* owned by the job */
  guint       first_lane;
  guint       n_lanes;
  double      extent[SMPROF_TIMELINE_N_AXES][2];
  GArray     *anchors;      /* Anchor, strictly increasing in both members */
} Node;

typedef struct
{
  SmprofMode mode;
  gint64     step;
  double     sum;           /* of the key's time since each node's first key */
  guint      count;
  guint      position;
} StepKey;

struct _SmprofTimelineLayout
{
  GObject             parent_instance;

  GPtrArray          *records;
  double              origin_us;

  Node               *nodes;
  guint               n_nodes;
  Lane               *lanes;
  guint               n_lanes;
  SmprofTimelineItem *items;
  guint               n_items;
  guint32            *by_order;    /* record->order → item index, when orders are 0..n-1 */
  GHashTable         *by_record;   /* otherwise SmprofRecord* → SmprofTimelineItem* */

  StepKey            *keys;        /* sorted by position */
  guint               n_keys;
};

/* smprof-timeline-layout-step-axis.c */
void _smprof_timeline_layout_build_step_axis   (SmprofTimelineLayout  *self,
                                               GPtrArray            **per_node);
void _smprof_timeline_layout_map_lane_to_steps (GArray                *anchors,
                                               SmprofTimelineItem    *items,
                                               guint                  n_items);

G_END_DECLS
