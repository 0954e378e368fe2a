/* smprof-flame-graph-draw.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-flame-graph-private.h"
#include "smprof-ui.h"
#include "smprof-ui-format.h"

/* The flame graph's geometry and drawing: where a frame is on screen and
 * which one is under a point, the frames rendered once into a node that is
 * replayed until the data, the size, the zoom, the search or the theme
 * change, and the hover and focus outlines drawn over it each frame. */

#define ROW_HEIGHT       SMPROF_FLAME_GRAPH_ROW_HEIGHT
#define LABEL_PADDING    4
#define MIN_LABEL_WIDTH  (2 * LABEL_PADDING + 16)

/* Where rect @index is drawn, in widget pixels, the root row at the bottom.
 * Returns FALSE for frames narrower than a pixel. */
gboolean
_smprof_flame_graph_get_rect_area (SmprofFlameGraph *self,
                                   guint             index,
                                   int               width,
                                   int               height,
                                   graphene_rect_t  *area)
{
  const SmprofFlameRect *rect = smprof_flame_layout_get_rect (self->layout, index);
  double x0 = round (rect->x * width);
  double x1 = round ((rect->x + rect->width) * width);

  graphene_rect_init (area, x0, height - (double) (rect->depth + 1) * ROW_HEIGHT, x1 - x0, ROW_HEIGHT);

  return x1 - x0 >= 1;
}

int
_smprof_flame_graph_hit_test (SmprofFlameGraph *self,
                              double            x,
                              double            y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double from_bottom = height - y;
  int index;
  graphene_rect_t area;

  if (self->layout == NULL || width <= 0 || from_bottom <= 0 || x < 0 || x >= width)
    return -1;

  index = smprof_flame_layout_hit_test (self->layout, x / width, (guint) (from_bottom / ROW_HEIGHT));

  /* Frames too narrow to see cannot be pointed at either. */
  if (index >= 0 && !_smprof_flame_graph_get_rect_area (self, index, width, height, &area))
    return -1;

  return index;
}

static void
rgb_to_rgba (const double  rgb[3],
             double        alpha,
             GdkRGBA      *rgba)
{
  rgba->red = rgb[0];
  rgba->green = rgb[1];
  rgba->blue = rgb[2];
  rgba->alpha = alpha;
}

/* Search dims what does not match toward a neutral grey. */
static void
dim_color (double   rgb[3],
           gboolean dark)
{
  double grey = dark ? 0.22 : 0.86;

  for (guint i = 0; i < 3; i++)
    rgb[i] = rgb[i] * 0.25 + grey * 0.75;
}

static gboolean
rect_is_dimmed (SmprofFlameGraph *self,
                guint             index)
{
  return self->is_matched != NULL && !g_array_index (self->is_matched, gboolean, index);
}

static void
render_empty (SmprofFlameGraph *self,
              GtkSnapshot      *snapshot,
              int               width,
              int               height)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
                                                                  _("No frames in this selection"));
  double text_rgb[3];
  GdkRGBA color;
  int text_width, text_height;

  smprof_flame_text_color (self->dark, text_rgb);
  rgb_to_rgba (text_rgb, 0.55, &color);
  pango_layout_get_pixel_size (layout, &text_width, &text_height);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((width - text_width) / 2.0,
                                                          (height - text_height) / 2.0));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
render_frames (SmprofFlameGraph *self,
               int               width,
               int               height)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  SmprofCallTree *tree = _smprof_flame_graph_get_tree (self);
  guint n_rects = self->layout != NULL ? smprof_flame_layout_get_n_rects (self->layout) : 0;

  if (tree != NULL && n_rects == 0)
    render_empty (self, snapshot, width, height);

  if (n_rects > 0)
    {
      SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
      g_autoptr(PangoLayout) label = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
      double text_rgb[3];
      GdkRGBA text_color, dimmed_text_color;

      pango_layout_set_ellipsize (label, PANGO_ELLIPSIZE_END);
      pango_layout_set_single_paragraph_mode (label, TRUE);
      smprof_flame_text_color (self->dark, text_rgb);
      rgb_to_rgba (text_rgb, 1.0, &text_color);
      rgb_to_rgba (text_rgb, 0.6, &dimmed_text_color);

      for (guint i = 0; i < n_rects; i++)
        {
          const SmprofFlameRect *rect = smprof_flame_layout_get_rect (self->layout, i);
          guint32 func = smprof_call_tree_get_node (tree, rect->node)->func;
          gboolean dimmed = rect_is_dimmed (self, i);
          gboolean dashed = FALSE;
          graphene_rect_t area;
          double rgb[3];
          GdkRGBA fill;

          if (!_smprof_flame_graph_get_rect_area (self, i, width, height, &area))
            continue;

          if (self->diff != NULL)
            _smprof_flame_graph_diff_color (self, rect->node, rgb, &dashed);
          else
            smprof_flame_palette_color (self->palette, table, func, self->dark, rgb);
          if (dimmed)
            dim_color (rgb, self->dark);
          rgb_to_rgba (rgb, 1.0, &fill);

          /* A one-pixel gap between frames, when they are wide enough to spare it. */
          gtk_snapshot_append_color (snapshot, &fill,
                                     &GRAPHENE_RECT_INIT (area.origin.x, area.origin.y,
                                                          area.size.width >= 3 ? area.size.width - 1 : area.size.width,
                                                          area.size.height - 1));
          if (dashed)
            _smprof_flame_graph_diff_draw_dashes (self, snapshot, &area);

          if (area.size.width >= MIN_LABEL_WIDTH)
            {
              g_autofree char *name = smprof_ui_dup_func_name (table, func);
              int text_height;

              pango_layout_set_text (label, name, -1);
              pango_layout_set_width (label, (int) (area.size.width - 2 * LABEL_PADDING) * PANGO_SCALE);
              pango_layout_get_pixel_size (label, NULL, &text_height);

              gtk_snapshot_save (snapshot);
              gtk_snapshot_translate (snapshot,
                                      &GRAPHENE_POINT_INIT (area.origin.x + LABEL_PADDING,
                                                            area.origin.y + floor ((ROW_HEIGHT - 1 - text_height) / 2.0)));
              gtk_snapshot_append_layout (snapshot, label, dimmed ? &dimmed_text_color : &text_color);
              gtk_snapshot_restore (snapshot);
            }
        }
    }

  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  self->rendered = gtk_snapshot_free_to_node (snapshot);
  self->rendered_valid = TRUE;
  self->n_renders++;
}

gboolean
_smprof_flame_graph_update_dark (SmprofFlameGraph *self)
{
  gboolean dark = smprof_ui_widget_is_dark (GTK_WIDGET (self));

  if (dark == self->dark)
    return FALSE;

  self->dark = dark;
  return TRUE;
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

  gsk_rounded_rect_init_from_rect (&outline, area, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

void
_smprof_flame_graph_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double text_rgb[3];
  GdkRGBA text_color;
  graphene_rect_t area;

  if (width <= 0 || height <= 0)
    return;

  if (_smprof_flame_graph_update_dark (self))
    _smprof_flame_graph_invalidate_render (self);

  if (!self->rendered_valid)
    render_frames (self, width, height);

  if (self->rendered != NULL)
    gtk_snapshot_append_node (snapshot, self->rendered);

  smprof_flame_text_color (self->dark, text_rgb);
  rgb_to_rgba (text_rgb, 1.0, &text_color);

  if (self->hover_rect >= 0 && _smprof_flame_graph_get_rect_area (self, self->hover_rect, width, height, &area))
    {
      GdkRGBA veil = { 1, 1, 1, self->dark ? 0.15 : 0.3 };

      area.size.height -= 1;
      gtk_snapshot_append_color (snapshot, &veil, &area);
      draw_outline (snapshot, &area, 2, &text_color);
    }

  if (self->selected_rect >= 0 && gtk_widget_has_visible_focus (widget) &&
      _smprof_flame_graph_get_rect_area (self, self->selected_rect, width, height, &area))
    {
      GdkRGBA focus = { 0.21, 0.52, 0.89, 1 };

      area.size.height -= 1;
      draw_outline (snapshot, &area, 2, &focus);
    }
}
