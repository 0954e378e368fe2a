/* smprof-flame-legend-cairo.c: the legend drawn with cairo (PNG, PDF)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-flame-cairo.h"
#include "smprof-flame-legend-private.h"

void
smprof_flame_legend_draw (const SmprofFlameLegend *self,
                          cairo_t                 *cr,
                          double                   x,
                          double                   y,
                          double                   width,
                          const double             text_rgb[3])
{
  g_autofree double *xs = NULL;
  g_autofree guint *rows = NULL;

  if (self == NULL || self->items->len == 0)
    return;

  xs = g_new (double, self->items->len);
  rows = g_new (guint, self->items->len);
  _smprof_flame_legend_place (self, width, xs, rows);

  cairo_save (cr);
  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, TEXT_SIZE);

  if (self->title != NULL)
    {
      cairo_set_source_rgb (cr, text_rgb[0], text_rgb[1], text_rgb[2]);
      cairo_move_to (cr, x, y + ROW - 5);
      cairo_show_text (cr, self->title);
    }

  for (guint i = 0; i < self->items->len; i++)
    {
      const Item *item = &g_array_index (self->items, Item, i);
      double ix = x + xs[i], iy = y + rows[i] * ROW;
      double tx = ix;

      if (item->rgb[0] >= 0)
        {
          cairo_rectangle (cr, ix, iy + ROW - 5 - SWATCH + 1, SWATCH, SWATCH);
          cairo_set_source_rgb (cr, item->rgb[0], item->rgb[1], item->rgb[2]);
          _smprof_flame_cairo_fill (cr, item->dashed, text_rgb);
          tx += SWATCH + SWATCH_GAP;
        }

      cairo_set_source_rgb (cr, text_rgb[0], text_rgb[1], text_rgb[2]);
      cairo_move_to (cr, tx, iy + ROW - 5);
      cairo_show_text (cr, item->label);
    }

  cairo_restore (cr);
}
