/* smprof-node-matrix-draw.c: the node matrix's colour scale, geometry and drawing
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "smprof-node-matrix-private.h"
#include "smprof-ui.h"
#include "smprof-ui-format.h"

/* ColorBrewer's RdBu, a diverging scale that colour-blind readers can tell
 * apart end to end: blue faster, red slower than the other nodes. The dark
 * variant keeps the ends and darkens the middle, so a cell like the others
 * blends with a dark background instead of glaring. */
static const guchar light_scale[5][3] = {
  { 0x05, 0x71, 0xb0 }, { 0x92, 0xc5, 0xde }, { 0xf7, 0xf7, 0xf7 }, { 0xf4, 0xa5, 0x82 }, { 0xca, 0x00, 0x20 },
};
static const guchar dark_scale[5][3] = {
  { 0x3a, 0x8f, 0xd0 }, { 0x2a, 0x55, 0x75 }, { 0x3c, 0x3c, 0x3c }, { 0x85, 0x45, 0x38 }, { 0xe0, 0x3a, 0x3a },
};

/**
 * smprof_node_matrix_ratio_color:
 * @ratio: a cell's time over the other nodes' median; NAN when there is none
 * @dark: whether for a dark theme
 * @color: (out): the cell's colour
 *
 * The scale is logarithmic, so twice as slow and twice as fast are as far
 * from the middle; it saturates at #SMPROF_NODE_MATRIX_SCALE_MAX either way
 * (the legend's ends).
 */
void
smprof_node_matrix_ratio_color (double    ratio,
                                gboolean  dark,
                                GdkRGBA  *color)
{
  const guchar (*scale)[3] = dark ? dark_scale : light_scale;
  double t, position, fraction;
  guint below;

  if (isnan (ratio))
    {
      *color = (GdkRGBA) { 0.5, 0.5, 0.5, 0.25 };
      return;
    }

  /* From -1 (1 / SCALE_MAX or less) to 1 (SCALE_MAX or more); 0 and infinity saturate. */
  t = ratio <= 0 ? -1 : CLAMP (log (ratio) / log (SMPROF_NODE_MATRIX_SCALE_MAX), -1, 1);
  position = (t + 1) * 2;
  below = MIN ((guint) floor (position), 3u);
  fraction = position - below;

  color->red = (scale[below][0] + fraction * (scale[below + 1][0] - scale[below][0])) / 255.0;
  color->green = (scale[below][1] + fraction * (scale[below + 1][1] - scale[below][1])) / 255.0;
  color->blue = (scale[below][2] + fraction * (scale[below + 1][2] - scale[below][2])) / 255.0;
  color->alpha = 1;
}

gboolean
_smprof_node_matrix_update_dark (SmprofNodeMatrix *self)
{
  gboolean dark = smprof_ui_widget_is_dark (GTK_WIDGET (self));

  if (dark == self->dark)
    return FALSE;

  self->dark = dark;
  return TRUE;
}

/* The row header is as wide as the longest node id, in bold as a
 * straggler's is drawn. */
void
_smprof_node_matrix_update_geometry (SmprofNodeMatrix *self)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoAttrList) bold = pango_attr_list_new ();
  int widest = 60;

  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, bold);

  for (guint row = 0; row < self->n_nodes; row++)
    {
      int text_width;

      pango_layout_set_text (layout, _smprof_node_matrix_get_node_id (self, row), -1);
      pango_layout_get_pixel_size (layout, &text_width, NULL);
      widest = MAX (widest, text_width);
    }

  self->row_header_width = SMPROF_NODE_MATRIX_MARK_WIDTH + 3 * SMPROF_NODE_MATRIX_PADDING + widest;
}

int
_smprof_node_matrix_cell_width (SmprofNodeMatrix *self,
                                int               width)
{
  guint n_columns = _smprof_node_matrix_n_columns (self);

  if (n_columns == 0)
    return SMPROF_NODE_MATRIX_NAT_CELL;

  return CLAMP ((width - self->row_header_width) / (int) n_columns,
                SMPROF_NODE_MATRIX_MIN_CELL, SMPROF_NODE_MATRIX_MAX_CELL);
}

/* Where a cell is drawn; @col -1 is the row header, @row -1 a column header. */
void
_smprof_node_matrix_get_area (SmprofNodeMatrix *self,
                              int               row,
                              int               col,
                              graphene_rect_t  *area)
{
  int cell_width = _smprof_node_matrix_cell_width (self, gtk_widget_get_width (GTK_WIDGET (self)));
  float x = col < 0 ? 0 : self->row_header_width + col * cell_width;
  float y = row < 0 ? 0 : SMPROF_NODE_MATRIX_HEADER_HEIGHT + row * SMPROF_NODE_MATRIX_CELL_HEIGHT;

  graphene_rect_init (area, x, y,
                      col < 0 ? self->row_header_width : cell_width,
                      row < 0 ? SMPROF_NODE_MATRIX_HEADER_HEIGHT : SMPROF_NODE_MATRIX_CELL_HEIGHT);
}

SmprofNodeMatrixPart
_smprof_node_matrix_hit_test (SmprofNodeMatrix *self,
                              double            x,
                              double            y,
                              int              *row,
                              int              *col)
{
  int cell_width = _smprof_node_matrix_cell_width (self, gtk_widget_get_width (GTK_WIDGET (self)));
  guint n_columns = _smprof_node_matrix_n_columns (self);
  double scroll_x, scroll_y;
  int r, c;

  *row = *col = -1;
  if (x < 0 || y < 0 || n_columns == 0 || self->n_nodes == 0)
    return SMPROF_NODE_MATRIX_NOWHERE;

  /* The headers stay at the view's edges (see the snapshot). */
  _smprof_node_matrix_get_scroll (self, &scroll_x, &scroll_y);
  r = y < scroll_y + SMPROF_NODE_MATRIX_HEADER_HEIGHT ? -1
      : (int) ((y - SMPROF_NODE_MATRIX_HEADER_HEIGHT) / SMPROF_NODE_MATRIX_CELL_HEIGHT);
  c = x < scroll_x + self->row_header_width ? -1 : (int) ((x - self->row_header_width) / cell_width);


  if (r >= (int) self->n_nodes || c >= (int) n_columns || (r < 0 && c < 0))
    return SMPROF_NODE_MATRIX_NOWHERE;

  *row = r;
  *col = c;
  if (r < 0)
    return SMPROF_NODE_MATRIX_COLUMN_HEADER;

  return c < 0 ? SMPROF_NODE_MATRIX_ROW_HEADER : SMPROF_NODE_MATRIX_CELL;
}

static void
append_layout_at (GtkSnapshot   *snapshot,
                  PangoLayout   *layout,
                  float          x,
                  float          y,
                  const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/* Names read bottom to top, ellipsised to the header's height. */
static void
render_column_headers (SmprofNodeMatrix *self,
                       GtkSnapshot      *snapshot,
                       const GdkRGBA    *fg)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  guint n_columns = _smprof_node_matrix_n_columns (self);

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_width (layout, (SMPROF_NODE_MATRIX_HEADER_HEIGHT - 2 * SMPROF_NODE_MATRIX_PADDING) * PANGO_SCALE);

  for (guint c = 0; c < n_columns; c++)
    {
      graphene_rect_t area;
      int text_height;

      _smprof_node_matrix_get_area (self, -1, c, &area);
      pango_layout_set_text (layout, self->names[c], -1);
      pango_layout_get_pixel_size (layout, NULL, &text_height);

      gtk_snapshot_save (snapshot);
      gtk_snapshot_push_clip (snapshot, &area);
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (area.origin.x + (area.size.width - text_height) / 2,
                                                    area.size.height - SMPROF_NODE_MATRIX_PADDING));
      gtk_snapshot_rotate (snapshot, -90);
      gtk_snapshot_append_layout (snapshot, layout, fg);
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_restore (snapshot);
    }
}

/* A straggler's header gets the hottest colour as a strip and a tint, and
 * bold text, so it stands out before reading any cell. */
static void
render_row_headers (SmprofNodeMatrix *self,
                    GtkSnapshot      *snapshot,
                    const GdkRGBA    *fg)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoAttrList) bold = pango_attr_list_new ();
  GdkRGBA hot;

  smprof_node_matrix_ratio_color (INFINITY, self->dark, &hot);
  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);

  for (guint row = 0; row < self->n_nodes; row++)
    {
      gboolean straggler = _smprof_node_matrix_is_straggler (self, row);
      graphene_rect_t area;
      int text_height;

      _smprof_node_matrix_get_area (self, row, -1, &area);
      if (straggler)
        {
          GdkRGBA tint = hot;

          tint.alpha = 0.18;
          gtk_snapshot_append_color (snapshot, &tint,
                                     &GRAPHENE_RECT_INIT (area.origin.x, area.origin.y,
                                                          area.size.width, area.size.height - 1));
          gtk_snapshot_append_color (snapshot, &hot,
                                     &GRAPHENE_RECT_INIT (area.origin.x, area.origin.y,
                                                          SMPROF_NODE_MATRIX_MARK_WIDTH, area.size.height - 1));
        }

      pango_layout_set_text (layout, _smprof_node_matrix_get_node_id (self, row), -1);
      pango_layout_set_attributes (layout, straggler ? bold : NULL);
      pango_layout_set_width (layout, (area.size.width - SMPROF_NODE_MATRIX_MARK_WIDTH
                                       - 2 * SMPROF_NODE_MATRIX_PADDING) * PANGO_SCALE);
      pango_layout_get_pixel_size (layout, NULL, &text_height);
      append_layout_at (snapshot, layout, SMPROF_NODE_MATRIX_MARK_WIDTH + SMPROF_NODE_MATRIX_PADDING,
                        area.origin.y + (area.size.height - text_height) / 2, fg);
    }
}

/* Each cell filled, a pixel apart, with its time per step when it fits. */
static void
render_cells (SmprofNodeMatrix *self,
              GtkSnapshot      *snapshot)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  guint n_columns = _smprof_node_matrix_n_columns (self);

  for (guint row = 0; row < self->n_nodes; row++)
    for (guint c = 0; c < n_columns; c++)
      {
        g_autofree char *text = smprof_ui_format_duration (_smprof_node_matrix_get_value (self, row, c));
        GdkRGBA fill, ink;
        graphene_rect_t area;
        int text_width, text_height;

        _smprof_node_matrix_get_area (self, row, c, &area);
        smprof_node_matrix_ratio_color (_smprof_node_matrix_get_ratio (self, row, c), self->dark, &fill);
        gtk_snapshot_append_color (snapshot, &fill,
                                   &GRAPHENE_RECT_INIT (area.origin.x, area.origin.y,
                                                        area.size.width - 1, area.size.height - 1));

        pango_layout_set_text (layout, text, -1);
        pango_layout_get_pixel_size (layout, &text_width, &text_height);
        if (text_width > area.size.width - 2 * SMPROF_NODE_MATRIX_PADDING)
          continue;

        /* Black or white, whichever reads on the fill */
        if (fill.alpha < 1)
          gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &ink);
        else if (smprof_ui_luminance (&fill) > 0.45)
          ink = (GdkRGBA) { 0, 0, 0, 0.87 };
        else
          ink = (GdkRGBA) { 1, 1, 1, 0.95 };
        append_layout_at (snapshot, layout, area.origin.x + (area.size.width - text_width) / 2,
                          area.origin.y + (area.size.height - text_height) / 2, &ink);
      }
}

/* The headers are drawn over the cells when scrolled: on the view's own
 * background, so the cells do not show through. */
static void
get_background (SmprofNodeMatrix *self,
                GdkRGBA          *background)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  if (!gtk_style_context_lookup_color (context, "view_bg_color", background) &&
      !gtk_style_context_lookup_color (context, "theme_base_color", background))
    *background = self->dark ? (GdkRGBA) { 0.14, 0.14, 0.14, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
  background->alpha = 1;
}

static void
render (SmprofNodeMatrix *self)
{
  GtkSnapshot *snapshot;
  GdkRGBA fg, background;
  graphene_rect_t area;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  get_background (self, &background);

  snapshot = gtk_snapshot_new ();
  render_cells (self, snapshot);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  self->rendered = gtk_snapshot_free_to_node (snapshot);

  snapshot = gtk_snapshot_new ();
  _smprof_node_matrix_get_area (self, -1, (int) _smprof_node_matrix_n_columns (self) - 1, &area);
  gtk_snapshot_append_color (snapshot, &background,
                             &GRAPHENE_RECT_INIT (0, 0, area.origin.x + area.size.width, area.size.height));
  render_column_headers (self, snapshot, &fg);
  g_clear_pointer (&self->rendered_columns, gsk_render_node_unref);
  self->rendered_columns = gtk_snapshot_free_to_node (snapshot);

  snapshot = gtk_snapshot_new ();
  _smprof_node_matrix_get_area (self, (int) self->n_nodes - 1, -1, &area);
  gtk_snapshot_append_color (snapshot, &background,
                             &GRAPHENE_RECT_INIT (0, 0, area.size.width, area.origin.y + area.size.height));
  render_row_headers (self, snapshot, &fg);
  g_clear_pointer (&self->rendered_rows, gsk_render_node_unref);
  self->rendered_rows = gtk_snapshot_free_to_node (snapshot);

  self->rendered_valid = TRUE;
}

static void
draw_outline (GtkSnapshot           *snapshot,
              const graphene_rect_t *area,
              float                  width,
              const GdkRGBA         *color)
{
  GskRoundedRect outline;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };
  graphene_rect_t inner = *area;

  inner.size.width -= 1;
  inner.size.height -= 1;
  gsk_rounded_rect_init_from_rect (&outline, &inner, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

/* The cells come from a cached node; only the hover and focus outlines are
 * drawn each frame, so moving the pointer stays cheap on big jobs. */
void
_smprof_node_matrix_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (widget);
  graphene_rect_t area;
  double scroll_x, scroll_y;
  GdkRGBA fg;

  if (gtk_widget_get_width (widget) <= 0 || self->n_nodes == 0)
    return;

  if (_smprof_node_matrix_update_dark (self))
    _smprof_node_matrix_invalidate (self);
  if (!self->rendered_valid)
    render (self);
  _smprof_node_matrix_get_scroll (self, &scroll_x, &scroll_y);

  if (self->rendered != NULL)
    gtk_snapshot_append_node (snapshot, self->rendered);

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);

  if (self->hover_row >= 0 && self->hover_col >= 0)
    {
      _smprof_node_matrix_get_area (self, self->hover_row, self->hover_col, &area);
      draw_outline (snapshot, &area, 1, &fg);
    }

  /* The headers stay at the view's edges: row headers at its left (the
   * node names while columns scroll), column headers at its top (the
   * function names while rows scroll), the corner over both. */
  if (self->rendered_rows != NULL)
    {
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (scroll_x, 0));
      gtk_snapshot_append_node (snapshot, self->rendered_rows);
      if (self->hover_row >= 0 && self->hover_col < 0)
        {
          _smprof_node_matrix_get_area (self, self->hover_row, -1, &area);
          draw_outline (snapshot, &area, 1, &fg);
        }
      gtk_snapshot_restore (snapshot);
    }
  if (self->rendered_columns != NULL)
    {
      GdkRGBA background;

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, scroll_y));
      gtk_snapshot_append_node (snapshot, self->rendered_columns);
      get_background (self, &background);
      gtk_snapshot_append_color (snapshot, &background,
                                 &GRAPHENE_RECT_INIT (scroll_x, 0, self->row_header_width,
                                                      SMPROF_NODE_MATRIX_HEADER_HEIGHT));
      gtk_snapshot_restore (snapshot);
    }

  /* The text colour outside, its opposite inside: visible on any fill of
   * the scale, blue or red, in either theme. */
  if (gtk_widget_has_visible_focus (widget) && self->focus_row >= 0)
    {
      GdkRGBA inverse = { 1 - fg.red, 1 - fg.green, 1 - fg.blue, 1 };

      _smprof_node_matrix_get_area (self, self->focus_row, self->focus_col, &area);
      draw_outline (snapshot, &area, 3, &fg);
      graphene_rect_inset (&area, 2, 2);
      draw_outline (snapshot, &area, 1, &inverse);
    }
}
