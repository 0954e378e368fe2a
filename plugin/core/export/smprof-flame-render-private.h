/* smprof-flame-render-private.h: what the cairo and SVG renderers share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-flame-render.h"

G_BEGIN_DECLS

/* One geometry for every output, so the SVG, the PNG and the PDF of a
 * selection look alike. Sizes are in pixels. */
#define PAD           10.0
#define TITLE_SIZE    17.0
#define TEXT_SIZE     12.0
#define FRAME_FONT    11.0
#define ROW_HEIGHT    16.0
#define FRAME_HEIGHT  15.0
#define TITLE_Y       26.0
#define SUBTITLE_Y    46.0
#define LINE_HEIGHT   16.0
#define NOTE_GAP      17.0
#define FOOTER        34.0
/* The SVG cannot measure text before a browser lays it out, so its labels are
 * cut on an average glyph width (flamegraph.pl's 0.59 em, for Verdana). */
#define CHAR_WIDTH    (FRAME_FONT * 0.59)
#define FONT_FAMILY   "DejaVu Sans"

typedef struct
{
  double width;
  double height;
  double frames_top;
  double frames_width;
  double note_y;
  double legend_top;
  guint  n_rows;
} Geometry;

char                    **_smprof_flame_render_split_lines      (const char                     *text,
                                                                 double                          max_width);
void                      _smprof_flame_render_compute_geometry (SmprofFlameLayout              *layout,
                                                                 const SmprofFlameRenderOptions *options,
                                                                 const SmprofFlameLegend        *legend,
                                                                 Geometry                       *geometry);
const SmprofFlameLegend  *_smprof_flame_render_picture_legend   (SmprofFlameLayout              *layout,
                                                                 const SmprofFlameRenderOptions *options,
                                                                 SmprofFlameLegend             **owned);
double                    _smprof_flame_render_row_y            (const Geometry                 *geometry,
                                                                 const SmprofFlameRenderOptions *options,
                                                                 guint                           depth);
void                      _smprof_flame_render_background_color (gboolean                        dark,
                                                                 double                          rgb[3]);
void                      _smprof_flame_render_heading_color    (gboolean                        dark,
                                                                 double                          rgb[3]);
void                      _smprof_flame_render_note_color       (gboolean                        dark,
                                                                 double                          rgb[3]);
gboolean                  _smprof_flame_render_frame_color      (SmprofFlameLayout              *layout,
                                                                 const SmprofFlameRenderOptions *options,
                                                                 guint32                         node,
                                                                 double                          rgb[3]);
char                     *_smprof_flame_render_dup_frame_name   (SmprofFunctionKeys             *table,
                                                                 guint32                         func);

G_END_DECLS
