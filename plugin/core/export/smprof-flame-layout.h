/* smprof-flame-layout.h: where each frame of a flame graph goes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-call-tree.h"

G_BEGIN_DECLS

/* The one layout the widget, the SVG/PNG/PDF exports and the tests share.
 * Geometry is in fractions of the zoomed frame's width, so a resize needs no
 * new layout; rows are call depths counted from the zoomed frame (depth 0). */
typedef struct
{
  guint32 node;     /* index in the SmprofCallTree */
  guint32 depth;
  double  x;        /* left edge, 0..1 */
  double  width;    /* 0..1 */
} SmprofFlameRect;

typedef struct _SmprofFlameLayout SmprofFlameLayout;

SmprofFlameLayout     *smprof_flame_layout_new           (SmprofCallTree    *tree,
                                                          guint32            zoom_node,
                                                          double             min_width);
void                   smprof_flame_layout_free          (SmprofFlameLayout *self);
SmprofCallTree        *smprof_flame_layout_get_tree      (SmprofFlameLayout *self);
guint32                smprof_flame_layout_get_zoom_node (SmprofFlameLayout *self);
guint                  smprof_flame_layout_get_n_rects   (SmprofFlameLayout *self);
const SmprofFlameRect *smprof_flame_layout_get_rect      (SmprofFlameLayout *self,
                                                          guint              index);
guint                  smprof_flame_layout_get_depth     (SmprofFlameLayout *self);
int                    smprof_flame_layout_hit_test      (SmprofFlameLayout *self,
                                                          double             x,
                                                          guint              depth);
double                 smprof_flame_layout_match         (SmprofFlameLayout *self,
                                                          const char        *needle,
                                                          GArray            *matched);

/* Added for the exports; the widget may use them too. */
double                 smprof_flame_layout_get_total     (SmprofFlameLayout *self);
void                   smprof_flame_colour_key           (const char        *file,
                                                          const char       **key,
                                                          gsize             *len);
void                   smprof_flame_layout_get_row       (SmprofFlameLayout *self,
                                                          guint              depth,
                                                          guint             *first,
                                                          guint             *n_rects);
int                    smprof_flame_layout_get_parent    (SmprofFlameLayout *self,
                                                          guint              index);

/* Colours are stable per package or file: the same function has the same
 * colour in every view and every export. */
void                   smprof_flame_color_for_func       (SmprofFunctionKeys *table,
                                                          guint32             func,
                                                          gboolean            dark,
                                                          double              rgb[3]);
void                   smprof_flame_text_color           (gboolean            dark,
                                                          double              rgb[3]);
double                 smprof_flame_relative_luminance   (const double        rgb[3]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofFlameLayout, smprof_flame_layout_free)

G_END_DECLS
