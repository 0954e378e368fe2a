/* smprof-timeline-overview.h: the whole job in a strip, with the timeline's
 * view as a window to move
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-timeline.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_TIMELINE_OVERVIEW (smprof_timeline_overview_get_type ())

G_DECLARE_FINAL_TYPE (SmprofTimelineOverview, smprof_timeline_overview, SMPROF, TIMELINE_OVERVIEW, GtkWidget)

GtkWidget      *smprof_timeline_overview_new          (void);
SmprofTimeline *smprof_timeline_overview_get_timeline (SmprofTimelineOverview *self);
void            smprof_timeline_overview_set_timeline (SmprofTimelineOverview *self,
                                                       SmprofTimeline         *timeline);
gboolean        smprof_timeline_overview_get_window   (SmprofTimelineOverview *self,
                                                       double                 *x0,
                                                       double                 *x1);

G_END_DECLS
