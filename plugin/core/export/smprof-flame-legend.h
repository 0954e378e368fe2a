/* smprof-flame-legend.h: what a flame graph's colours mean, drawn under it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-flame-layout.h"
#include "smprof-flame-palette.h"

G_BEGIN_DECLS

typedef struct _SmprofFlameLegend SmprofFlameLegend;

SmprofFlameLegend *smprof_flame_legend_new             (const char              *title);
SmprofFlameLegend *smprof_flame_legend_new_for_palette (SmprofFlameLayout       *layout,
                                                        SmprofFlamePalette       palette,
                                                        gboolean                 dark);
void               smprof_flame_legend_free            (SmprofFlameLegend       *self);
void               smprof_flame_legend_add             (SmprofFlameLegend       *self,
                                                        const double             rgb[3],
                                                        gboolean                 dashed,
                                                        const char              *label);
guint              smprof_flame_legend_get_n_items     (const SmprofFlameLegend *self);
const char        *smprof_flame_legend_get_label       (const SmprofFlameLegend *self,
                                                        guint                    index);
double             smprof_flame_legend_get_height      (const SmprofFlameLegend *self,
                                                        double                   width);
void               smprof_flame_legend_append_svg      (const SmprofFlameLegend *self,
                                                        GString                 *out,
                                                        double                   x,
                                                        double                   y,
                                                        double                   width);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofFlameLegend, smprof_flame_legend_free)

G_END_DECLS
