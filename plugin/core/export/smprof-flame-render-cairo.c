/* smprof-flame-render-cairo.c: the flame graph picture drawn with cairo (PNG, PDF)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Apart from the geometry the SVG shares (smprof-flame-render.c) so that the
 * command line loads cairo only for a picture (cli/smprof-cli-modules.c). */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "smprof-flame-cairo.h"
#include "smprof-flame-render-private.h"

static char *
dup_frame_label (SmprofFlameLayout     *layout,
                 const SmprofFlameRect *rect)
{
  SmprofCallTree *tree = smprof_flame_layout_get_tree (layout);

  return _smprof_flame_render_dup_frame_name (smprof_call_tree_get_table (tree), smprof_call_tree_get_node (tree, rect->node)->func);
}

/* The longest prefix of @text, with "..", that fits @max_width. */
static char *
fit_text_cairo (cairo_t    *cr,
                const char *text,
                double      max_width)
{
  cairo_text_extents_t extents;
  glong n_chars, lo, hi;

  cairo_text_extents (cr, text, &extents);
  if (extents.x_advance <= max_width)
    return g_strdup (text);

  n_chars = g_utf8_strlen (text, -1);
  lo = 0;
  hi = n_chars;
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      const char *end = g_utf8_offset_to_pointer (text, mid);
      g_autofree char *candidate = g_strdup_printf ("%.*s..", (int) (end - text), text);

      cairo_text_extents (cr, candidate, &extents);
      if (extents.x_advance <= max_width)
        lo = mid;
      else
        hi = mid - 1;
    }

  if (lo < 2)
    return NULL;

  return g_strdup_printf ("%.*s..", (int) (g_utf8_offset_to_pointer (text, lo) - text), text);
}

static void show_line (cairo_t    *cr,
                       const char *text,
                       double      x,
                       double      y,
                       double      max_width,
                       gboolean    centered);

/* Each line of @text, @spacing apart. */
static void
show_lines (cairo_t    *cr,
            const char *text,
            double      x,
            double      y,
            double      max_width)
{
  g_auto(GStrv) lines = _smprof_flame_render_split_lines (text, max_width);

  for (guint i = 0; lines[i] != NULL; i++)
    show_line (cr, lines[i], x, y + i * LINE_HEIGHT, max_width, TRUE);
}

static void
show_line (cairo_t    *cr,
           const char *text,
           double      x,
           double      y,
           double      max_width,
           gboolean    centered)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *fitted = fit_text_cairo (cr, valid, max_width);
  cairo_text_extents_t extents;

  if (fitted == NULL)
    return;

  cairo_text_extents (cr, fitted, &extents);
  cairo_move_to (cr, centered ? x - extents.x_advance / 2 : x, y);
  cairo_show_text (cr, fitted);
}

/**
 * smprof_flame_render:
 * @layout: the frames
 * @options: what goes around them
 * @cr: where to draw, at least @options' width wide and
 *   smprof_flame_render_get_height() high, in pixels
 *
 * Draws the title, subtitle, note and every frame of @layout with its label,
 * cut to fit the frame.
 */
void
smprof_flame_render (SmprofFlameLayout              *layout,
                     const SmprofFlameRenderOptions *options,
                     cairo_t                        *cr)
{
  g_autoptr(SmprofFlameLegend) owned = NULL;
  const SmprofFlameLegend *legend;
  Geometry geometry;
  double rgb[3], text_rgb[3];
  guint n_rects;

  g_return_if_fail (layout != NULL);
  g_return_if_fail (options != NULL);
  g_return_if_fail (cr != NULL);

  n_rects = smprof_flame_layout_get_n_rects (layout);
  legend = _smprof_flame_render_picture_legend (layout, options, &owned);
  _smprof_flame_render_compute_geometry (layout, options, legend, &geometry);

  cairo_save (cr);

  _smprof_flame_render_background_color (options->dark, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (cr, 0, 0, geometry.width, geometry.height);
  cairo_fill (cr);

  _smprof_flame_render_heading_color (options->dark, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, TITLE_SIZE);
  if (options->title != NULL)
    show_line (cr, options->title, geometry.width / 2, TITLE_Y, geometry.frames_width, TRUE);

  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, TEXT_SIZE);
  if (options->subtitle != NULL)
    show_lines (cr, options->subtitle, geometry.width / 2, SUBTITLE_Y, geometry.frames_width);

  if (options->note != NULL)
    {
      _smprof_flame_render_note_color (options->dark, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_ITALIC, CAIRO_FONT_WEIGHT_NORMAL);
      show_lines (cr, options->note, geometry.width / 2, geometry.note_y, geometry.frames_width);
    }

  if (n_rects == 0)
    {
      _smprof_flame_render_heading_color (options->dark, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      show_line (cr, _("No time was recorded in this selection"), geometry.width / 2,
                 geometry.frames_top + ROW_HEIGHT - 4, geometry.frames_width, TRUE);
    }

  /* Frames first, then labels, so the font is set once. The labels' colour
   * also outlines the dashed frames. */
  smprof_flame_text_color (options->dark, text_rgb);
  for (guint i = 0; i < n_rects; i++)
    {
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      double x = PAD + rect->x * geometry.frames_width;
      double w = rect->width * geometry.frames_width;
      gboolean dashed = _smprof_flame_render_frame_color (layout, options, rect->node, rgb);

      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, x, _smprof_flame_render_row_y (&geometry, options, rect->depth), w > 1 ? w - 0.5 : w, FRAME_HEIGHT);
      _smprof_flame_cairo_fill (cr, dashed, text_rgb);
    }

  cairo_set_source_rgb (cr, text_rgb[0], text_rgb[1], text_rgb[2]);
  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, FRAME_FONT);
  for (guint i = 0; i < n_rects; i++)
    {
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      double x = PAD + rect->x * geometry.frames_width;
      double w = rect->width * geometry.frames_width;
      double y = _smprof_flame_render_row_y (&geometry, options, rect->depth);

      if (w < 3 * CHAR_WIDTH)
        continue;

      {
        g_autofree char *label = dup_frame_label (layout, rect);

        cairo_save (cr);
        cairo_rectangle (cr, x, y, w, FRAME_HEIGHT);
        cairo_clip (cr);
        show_line (cr, label, x + 3, y + FRAME_HEIGHT - 4, w - 6, FALSE);
        cairo_restore (cr);
      }
    }

  _smprof_flame_render_heading_color (options->dark, rgb);
  smprof_flame_legend_draw (legend, cr, PAD, geometry.legend_top, geometry.frames_width, rgb);

  cairo_restore (cr);
}

/* Fills the current path with the current source. A dashed frame (in a
 * diff, a function only in A) and its legend swatch are then outlined in
 * @outline_rgb: shared by the picture and its legend so the two match. */
void
_smprof_flame_cairo_fill (cairo_t      *cr,
                          gboolean      dashed,
                          const double  outline_rgb[3])
{
  static const double dashes[] = { 2.0, 2.0 };

  if (!dashed)
    {
      cairo_fill (cr);
      return;
    }

  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, outline_rgb[0], outline_rgb[1], outline_rgb[2]);
  cairo_set_line_width (cr, 1.0);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}
