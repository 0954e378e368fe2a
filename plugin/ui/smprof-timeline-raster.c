/* smprof-timeline-raster.c: the timeline's tiles of blocks, drawn into images
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A tile of a big job holds hundreds of rectangles, and GTK's cairo renderer
 * fills each one again on every frame: at 256 nodes a frame of the timeline
 * was 38,000 nodes and tens of milliseconds, on every step of a scroll or a
 * drag. A tile is drawn into an image once, when a frame first shows it,
 * and replayed as that image.
 *
 * The image is aligned on the device's pixels where the frame puts the
 * tile: a pixel of the image is a pixel of the screen, so the blocks look
 * exactly as drawn directly. When the tile's sub-pixel position on the screen
 * changes (a pan by a fraction of a pixel), the images are drawn again.
 */

#include <math.h>

#include "smprof-timeline-private.h"

/* @tile drawn into an image whose pixels fall on the device's, given that
 * the frame translates the tile by (@dx, @dy) logical pixels at @scale
 * device pixels each. */
static GskRenderNode *
rasterise (GskRenderNode *tile,
           double         dx,
           double         dy,
           int            scale)
{
  GskRenderNode *node;
  graphene_rect_t bounds;
  cairo_surface_t *surface;
  cairo_t *cr;
  double left, top, right, bottom, ox, oy;
  int width, height;

  gsk_render_node_get_bounds (tile, &bounds);
  left = floor ((bounds.origin.x + dx) * scale);
  top = floor ((bounds.origin.y + dy) * scale);
  right = ceil ((bounds.origin.x + bounds.size.width + dx) * scale);
  bottom = ceil ((bounds.origin.y + bounds.size.height + dy) * scale);
  width = (int) (right - left);
  height = (int) (bottom - top);
  if (width <= 0 || height <= 0)
    return NULL;

  /* the image's origin, in the tile's coordinates */
  ox = left / scale - dx;
  oy = top / scale - dy;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  cairo_translate (cr, -ox, -oy);
  gsk_render_node_draw (tile, cr);
  cairo_destroy (cr);

  /* A cairo node that paints the image: GTK's cairo renderer replays it as
   * one copy of its pixels (a texture node would be converted into a new
   * image on every frame); other renderers keep it as a texture. */
  node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (ox, oy, (double) width / scale, (double) height / scale));
  cr = gsk_cairo_node_get_draw_context (node);
  cairo_set_source_surface (cr, surface, ox, oy);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  return node;
}

/* The fractional part, in device pixels, that decides how a tile falls on
 * the pixel grid. */
static double
phase (double offset,
       int    scale)
{
  double device = offset * scale;

  return device - floor (device);
}

/* Tiles not drawn yet are NULL. */
static void
raster_free (gpointer raster)
{
  if (raster != NULL)
    gsk_render_node_unref (raster);
}

void
_smprof_timeline_rasters_clear (SmprofTimelineCache *cache)
{
  g_clear_pointer (&cache->rasters, g_ptr_array_unref);
}

/**
 * _smprof_timeline_rasters_get:
 * @cache: the blocks' cache, a container of tiles
 * @index: a tile of it
 * @dx: @dy: where the frame translates the cache, logical pixels
 * @scale: the widget's scale factor
 *
 * Returns: (transfer none) (nullable): the tile as an image, drawn now if
 *   it was not yet drawn at this sub-pixel position; %NULL for an empty tile
 */
GskRenderNode *
_smprof_timeline_rasters_get (SmprofTimelineCache *cache,
                              guint                index,
                              double               dx,
                              double               dy,
                              int                  scale)
{
  guint n = gsk_container_node_get_n_children (cache->node);
  GskRenderNode *raster;

  if (cache->rasters != NULL &&
      (cache->rasters->len != n || cache->raster_scale != scale ||
       cache->raster_phase_x != phase (dx, scale) || cache->raster_phase_y != phase (dy, scale)))
    _smprof_timeline_rasters_clear (cache);

  if (cache->rasters == NULL)
    {
      cache->rasters = g_ptr_array_new_full (n, raster_free);
      g_ptr_array_set_size (cache->rasters, n);
      cache->raster_scale = scale;
      cache->raster_phase_x = phase (dx, scale);
      cache->raster_phase_y = phase (dy, scale);
    }

  raster = g_ptr_array_index (cache->rasters, index);
  if (raster == NULL)
    {
      raster = rasterise (gsk_container_node_get_child (cache->node, index), dx, dy, scale);
      g_ptr_array_index (cache->rasters, index) = raster;
    }

  return raster;
}
