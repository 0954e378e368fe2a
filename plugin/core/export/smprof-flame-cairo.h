/* smprof-flame-cairo.h: a flame graph picture and its legend drawn with cairo
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "smprof-flame-legend.h"
#include "smprof-flame-render.h"

G_BEGIN_DECLS

void smprof_flame_render      (SmprofFlameLayout              *layout,
                               const SmprofFlameRenderOptions *options,
                               cairo_t                        *cr);
void smprof_flame_legend_draw (const SmprofFlameLegend        *self,
                               cairo_t                        *cr,
                               double                          x,
                               double                          y,
                               double                          width,
                               const double                    text_rgb[3]);

/* Private to the two drawing files. */
void _smprof_flame_cairo_fill (cairo_t      *cr,
                               gboolean      dashed,
                               const double  outline_rgb[3]);

G_END_DECLS
