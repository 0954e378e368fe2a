/* smprof-flame-legend-private.h: what the legend's cairo and SVG writers share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-flame-legend.h"

G_BEGIN_DECLS

/* Sizes in pixels, as the rest of the picture. The SVG cannot measure text,
 * so both outputs place the items by an estimate of the text's width (a
 * generous average glyph of DejaVu Sans), and agree. */
#define TEXT_SIZE     12.0
#define GLYPH_WIDTH   (TEXT_SIZE * 0.6)
#define SWATCH        11.0
#define SWATCH_GAP    4.0
#define ITEM_GAP      14.0
#define ROW           17.0
#define MAX_ITEMS     8
#define FONT_FAMILY   "DejaVu Sans"

typedef struct
{
  double    rgb[3];
  gboolean  dashed;
  char     *label;
} Item;

struct _SmprofFlameLegend
{
  char   *title;
  GArray *items;   /* Item */
};

guint _smprof_flame_legend_place (const SmprofFlameLegend *self,
                                  double                   width,
                                  double                  *xs,
                                  guint                   *rows);

G_END_DECLS
