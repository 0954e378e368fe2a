/* smprof-timeline-ruler.h: tick steps and labels for the timeline's ruler (UI-free)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

double  smprof_timeline_ruler_nice_step   (double  span,
                                           double  width,
                                           double  min_spacing,
                                           double  min_step,
                                           guint  *n_minor);
char   *smprof_timeline_ruler_format_time (double  time_us,
                                           double  step_us);

G_END_DECLS
