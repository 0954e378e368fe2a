/* smprof-timeline-compare.h: the colours of a comparison's two sides, shared
 * by the timeline's shading and the compare view's swatches
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-diff.h"

G_BEGIN_DECLS

void smprof_timeline_compare_color (SmprofDiffSide  side,
                                    gboolean        dark,
                                    double          alpha,
                                    GdkRGBA        *color);

G_END_DECLS
