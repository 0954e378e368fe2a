/* smprof-timeline-raster.c: the timeline's tiles of blocks, drawn into images
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A tile of a big job holds hundreds of rectangles, and GTK's cairo renderer
 * fills each one again on every frame: at 256 nodes a frame of the timeline
 * was 38,000 nodes and tens of milliseconds, on every step of a scroll or a
 * drag. The first frame that shows a tile draws it as it is; its image is
 * then drawn once, in the main loop's idle time, and the frames after replay
 * that image.
 *
 * The image is aligned on the device's pixels where the frame puts the
 * tile: a pixel of the image is a pixel of the screen, so the blocks look as
 * drawn directly (antialiased edges may differ by one level). A frame
 * that would draw very many tiles as they are (the first frame of hundreds
 * of rows) draws a budget of them and leaves the others out until their
 * images are drawn (smprof-timeline-draw.c). The frames
 * put the cache on whole device pixels (smprof-timeline-cache.c); should
 * the tiles' sub-pixel position or the scale change, the images are drawn
 * again.
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

/* A tile waiting for its image holds this in its slot. */
#define QUEUED ((gpointer) &queued_marker)
static const char queued_marker = 0;

/* How long the main loop may spend on images in one go: a frame's worth
 * at most, so drawing them never holds anything up. */
#define RASTER_SLICE_US (8 * G_TIME_SPAN_MILLISECOND)

/* Tiles not drawn yet are NULL, or QUEUED. */
static void
raster_free (gpointer raster)
{
  if (raster != NULL && raster != QUEUED)
    gsk_render_node_unref (raster);
}

typedef struct
{
  guint  row;    /* in the cache's rows */
  guint  index;  /* in the row's tiles */
} Queued;

/* Forgets every image, and those waiting: the tiles changed, or moved on
 * the pixel grid. */
void
_smprof_timeline_rasters_clear (SmprofTimelineCache *cache)
{
  if (cache->raster_queue != NULL)
    g_array_set_size (cache->raster_queue, 0);

  if (cache->row_tiles == NULL)
    return;

  for (guint i = 0; i < cache->row_tiles->len; i++)
    g_clear_pointer (&g_array_index (cache->row_tiles, SmprofTimelineRowTiles, i).rasters, g_ptr_array_unref);
}

/* Draws queued images until the slice is spent, on the main loop's spare
 * time; a frame then shows them. */
static gboolean
draw_queued (gpointer data)
{
  SmprofTimeline *self = data;
  SmprofTimelineCache *cache = &self->blocks;
  gint64 deadline = g_get_monotonic_time () + RASTER_SLICE_US;
  gboolean drawn = FALSE;

  while (cache->raster_queue->len > 0 && g_get_monotonic_time () < deadline)
    {
      Queued queued = g_array_index (cache->raster_queue, Queued, cache->raster_queue->len - 1);
      SmprofTimelineRowTiles *row;
      GskRenderNode *tile, *image;

      g_array_set_size (cache->raster_queue, cache->raster_queue->len - 1);
      if (cache->row_tiles == NULL || queued.row >= cache->row_tiles->len)
        continue;
      row = &g_array_index (cache->row_tiles, SmprofTimelineRowTiles, queued.row);
      if (row->rasters == NULL || g_ptr_array_index (row->rasters, queued.index) != QUEUED)
        continue;

      tile = gsk_container_node_get_child (row->node, queued.index);
      image = rasterise (tile, cache->raster_dx, cache->raster_dy, cache->raster_scale);
      /* an empty tile is its own image */
      g_ptr_array_index (row->rasters, queued.index) = image != NULL ? image : gsk_render_node_ref (tile);
      drawn = TRUE;
    }

  if (drawn)
    gtk_widget_queue_draw (GTK_WIDGET (self));
  if (cache->raster_queue->len > 0)
    return G_SOURCE_CONTINUE;

  cache->raster_source = 0;
  return G_SOURCE_REMOVE;
}

/**
 * _smprof_timeline_rasters_get:
 * @self: a timeline
 * @row: a row of the blocks' cache, recorded, with tiles
 * @index: a tile of @row
 * @dx: @dy: where the frame translates the cache, logical pixels
 * @scale: the widget's scale factor
 *
 * The first frame that shows a tile draws it as it is (as fast as drawing
 * it into an image), and its image is drawn afterwards, a slice at a time
 * when the main loop is idle; the frames after it replay the image.
 *
 * Returns: (transfer none) (nullable): the tile as an image; %NULL when
 *   there is none yet (the tile is then queued) or it is empty
 */
GskRenderNode *
_smprof_timeline_rasters_get (SmprofTimeline         *self,
                              SmprofTimelineRowTiles *row,
                              guint                   index,
                              double                  dx,
                              double                  dy,
                              int                     scale)
{
  SmprofTimelineCache *cache = &self->blocks;
  guint n = gsk_container_node_get_n_children (row->node);
  gpointer raster;

  /* the images are drawn where the tiles fall on the pixel grid now */
  if (cache->raster_scale != scale || cache->raster_phase_x != phase (dx, scale) ||
      cache->raster_phase_y != phase (dy, scale))
    {
      _smprof_timeline_rasters_clear (cache);
      cache->raster_scale = scale;
      cache->raster_phase_x = phase (dx, scale);
      cache->raster_phase_y = phase (dy, scale);
    }
  cache->raster_dx = dx;
  cache->raster_dy = dy;

  if (row->rasters == NULL)
    {
      row->rasters = g_ptr_array_new_full (n, raster_free);
      g_ptr_array_set_size (row->rasters, n);
    }

  raster = g_ptr_array_index (row->rasters, index);
  if (raster == QUEUED)
    return NULL;
  if (raster != NULL)
    return raster;

  g_ptr_array_index (row->rasters, index) = QUEUED;
  if (cache->raster_queue == NULL)
    cache->raster_queue = g_array_new (FALSE, FALSE, sizeof (Queued));
  g_array_append_val (cache->raster_queue,
                      ((Queued) { (guint) (row - &g_array_index (cache->row_tiles, SmprofTimelineRowTiles, 0)),
                                  index }));
  if (cache->raster_source == 0)
    cache->raster_source = g_idle_add_full (G_PRIORITY_LOW, draw_queued, self, NULL);

  return NULL;
}

/* For tests: whether images are waiting to be drawn. */
gboolean
_smprof_timeline_rasters_pending (SmprofTimeline *self)
{
  return self->blocks.raster_queue != NULL && self->blocks.raster_queue->len > 0;
}

/* Stops drawing images: the widget goes away. */
void
_smprof_timeline_rasters_dispose (SmprofTimeline *self)
{
  g_clear_handle_id (&self->blocks.raster_source, g_source_remove);
  g_clear_pointer (&self->blocks.raster_queue, g_array_unref);
}
