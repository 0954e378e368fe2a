/* smprof-timeline.h: every interval of every node on a shared axis
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-job.h"
#include "smprof-query.h"
#include "smprof-timeline-layout.h"
#include "smprof-timeline-selection.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_TIMELINE (smprof_timeline_get_type ())

G_DECLARE_FINAL_TYPE (SmprofTimeline, smprof_timeline, SMPROF, TIMELINE, GtkWidget)

GtkWidget               *smprof_timeline_new                  (void);
SmprofJob               *smprof_timeline_get_job              (SmprofTimeline          *self);
void                     smprof_timeline_set_job              (SmprofTimeline          *self,
                                                               SmprofJob               *job);
SmprofProfiler           smprof_timeline_get_profiler         (SmprofTimeline          *self);
void                     smprof_timeline_set_profiler         (SmprofTimeline          *self,
                                                               SmprofProfiler           profiler);
const char * const      *smprof_timeline_get_visible_nodes    (SmprofTimeline          *self);
void                     smprof_timeline_set_visible_nodes    (SmprofTimeline          *self,
                                                               const char * const      *node_ids);
gboolean                 smprof_timeline_get_align_by_step    (SmprofTimeline          *self);
void                     smprof_timeline_set_align_by_step    (SmprofTimeline          *self,
                                                               gboolean                 align_by_step);
SmprofTimelineLayout    *smprof_timeline_get_layout           (SmprofTimeline          *self);
double                   smprof_timeline_get_natural_height   (SmprofTimeline          *self);

SmprofTimelineSelection *smprof_timeline_get_selection        (SmprofTimeline          *self);
GPtrArray               *smprof_timeline_get_selected_records (SmprofTimeline          *self);
void                     smprof_timeline_set_selection        (SmprofTimeline          *self,
                                                               const SmprofSelection   *selection,
                                                               const char * const      *node_ids);
void                     smprof_timeline_select_records       (SmprofTimeline          *self,
                                                               GPtrArray               *records);
void                     smprof_timeline_select_time_range    (SmprofTimeline          *self,
                                                               double                   start_us,
                                                               double                   end_us);
void                     smprof_timeline_clear_selection      (SmprofTimeline          *self);
void                     smprof_timeline_set_compare_records  (SmprofTimeline          *self,
                                                               GPtrArray               *records);

void                     smprof_timeline_zoom_in              (SmprofTimeline          *self);
void                     smprof_timeline_zoom_out             (SmprofTimeline          *self);
void                     smprof_timeline_zoom_reset           (SmprofTimeline          *self);
void                     smprof_timeline_frame_training_loop  (SmprofTimeline          *self);
void                     smprof_timeline_get_full_extent      (SmprofTimeline          *self,
                                                               double                  *start,
                                                               double                  *end);
void                     smprof_timeline_zoom_to_selection    (SmprofTimeline          *self);
void                     smprof_timeline_get_visible_range    (SmprofTimeline          *self,
                                                               double                  *start,
                                                               double                  *end);
void                     smprof_timeline_set_visible_range    (SmprofTimeline          *self,
                                                               double                   start,
                                                               double                   end);

void                     smprof_timeline_get_mode_color       (SmprofMode               mode,
                                                               gboolean                 dark,
                                                               GdkRGBA                 *color);
const char              *smprof_timeline_get_mode_label       (SmprofMode               mode);

G_END_DECLS
