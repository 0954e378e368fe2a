/* smprof-flame-render.h: a flame graph on paper: its geometry and the interactive SVG
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-flame-layout.h"
#include "smprof-flame-legend.h"
#include "smprof-flame-palette.h"

G_BEGIN_DECLS

typedef enum
{
  SMPROF_FLAME_DIRECTION_UP,    /* a flame graph: callers below their callees */
  SMPROF_FLAME_DIRECTION_DOWN,  /* an icicle graph: callers above */
} SmprofFlameDirection;

/* Colours and tooltips for a graph whose colours mean something else than
 * the package (a differential flame graph): @color gives a frame's fill and
 * whether it is outlined with dashes; @describe, when set, writes the
 * tooltip's second line instead of the frame's times. Nodes are the layout's
 * tree's. */
typedef struct
{
  void     (*color)    (guint32   node,
                        double    rgb[3],
                        gboolean *dashed,
                        gpointer  user_data);
  void     (*describe) (guint32   node,
                        GString  *out,
                        gpointer  user_data);
  gpointer   user_data;
} SmprofFlameStyle;

/* What goes around the frames. The layout already holds the zoom and the
 * minimum frame width. The subtitle and the note may hold several lines,
 * separated by newlines. Under the frames, a legend says what the colours
 * mean: @legend, or with no @style the palette's groups. */
typedef struct
{
  const char           *title;
  const char           *subtitle;   /* nullable: the job, nodes and selection */
  const char           *note;       /* nullable: e.g. that the tree is estimated */
  const SmprofFlameLegend *legend;  /* nullable */
  SmprofFlameDirection  direction;
  double                width;      /* pixels; points in a PDF */
  gboolean              dark;
  const SmprofFlameStyle *style;    /* nullable: the package palette */
  SmprofFlamePalette    palette;    /* the package palette's scheme */
} SmprofFlameRenderOptions;

double   smprof_flame_render_get_frames_width (const SmprofFlameRenderOptions *options);
double   smprof_flame_render_get_height       (SmprofFlameLayout              *layout,
                                               const SmprofFlameRenderOptions *options);
gboolean smprof_flame_render_svg              (SmprofFlameLayout              *layout,
                                               const SmprofFlameRenderOptions *options,
                                               GOutputStream                  *stream,
                                               GCancellable                   *cancellable,
                                               GError                        **error);

G_END_DECLS
