/* smprof-timeline-outliers.h: outlier steps marked on the timeline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-step-stats.h"
#include "smprof-timeline.h"

G_BEGIN_DECLS

void     smprof_timeline_set_outliers          (SmprofTimeline  *self,
                                                SmprofStepStats *stats);
gboolean smprof_timeline_get_show_outliers     (SmprofTimeline  *self);
void     smprof_timeline_set_show_outliers     (SmprofTimeline  *self,
                                                gboolean         show);
guint    smprof_timeline_get_n_outliers        (SmprofTimeline  *self);
guint    smprof_timeline_get_outlier_step      (SmprofTimeline  *self,
                                                guint            outlier);
gboolean smprof_timeline_activate_next_outlier (SmprofTimeline  *self,
                                                gboolean         backwards);
gboolean smprof_timeline_reveal_outlier        (SmprofTimeline  *self,
                                                guint            step);

G_END_DECLS
