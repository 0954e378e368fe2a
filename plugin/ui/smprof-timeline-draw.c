/* smprof-timeline-draw.c: how SmprofTimeline draws itself
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Blocks (with phase ticks and step labels) are recorded into a cached render
 * node covering half a screen around the view, in content coordinates; the
 * selection (shaded range and outlines) into a second one. Both are replayed
 * translated while panning and recorded again when the zoom, the rows, the
 * style or the selection change. The blocks' node is made of tiles (a
 * lane of a row, or its steps, by columns of half a screen), and a frame
 * replays only the tiles in view: GTK's
 * cairo renderer draws every node it is given, and with hundreds of nodes
 * the whole cached area was several times what a frame shows. Each tile in
 * view is replayed as an image of itself, drawn once
 * (smprof-timeline-raster.c). Hover, focus, ruler, node labels and legend
 * are drawn fresh: each is bounded by the pixels, never by the intervals.
 *
 * The ruler, node labels and legend are in smprof-timeline-labels.c, the
 * colours and names in smprof-timeline-colors.c, the tooltips in
 * smprof-timeline-tooltip.c.
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-private.h"
#include "smprof-ui.h"

/* Drawing --------------------------------------------------------------------------- */

/* The step an interval belongs to; initialization and finalization by name. */
static char *
item_label (const SmprofTimelineItem *item)
{
  const SmprofIntervalName *name = &item->record->name;

  if (item->mode == SMPROF_MODE_PRE_STEP_ZERO || item->mode == SMPROF_MODE_POST_HOOK_CLOSE)
    return g_strdup (smprof_timeline_get_mode_label (item->mode));
  if (name->start_step != SMPROF_STEP_ANY_START && name->start_step != SMPROF_STEP_INFINITY)
    return g_strdup_printf ("%" G_GINT64_FORMAT, name->start_step);
  if (name->end_step != SMPROF_STEP_ANY_START && name->end_step != SMPROF_STEP_INFINITY)
    return g_strdup_printf ("%" G_GINT64_FORMAT, name->end_step);

  return g_strdup (smprof_timeline_get_mode_label (item->mode));
}

void
_smprof_timeline_append_rect (GtkSnapshot   *snapshot,
                              const GdkRGBA *color,
                              double         x,
                              double         y,
                              double         w,
                              double         h)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

/* Step start: a tall tick above the block; forward pass end: a short one
 * above; step end: a tall one below. */
void
_smprof_timeline_draw_phase_tick (SmprofTimeline *self,
                                  GtkSnapshot    *snapshot,
                                  SmprofPhase     phase,
                                  double          x,
                                  double          block_y,
                                  double          block_height)
{
  GdkRGBA color = self->fg;

  switch (phase)
    {
    case SMPROF_PHASE_STEP_START:
      color.alpha = 0.9;
      _smprof_timeline_append_rect (snapshot, &color, x - 1, block_y - 6, 2, 6);
      break;

    case SMPROF_PHASE_FORWARD_PASS_END:
      color.alpha = 0.6;
      _smprof_timeline_append_rect (snapshot, &color, x - 1, block_y - 3, 2, 3);
      break;

    case SMPROF_PHASE_STEP_END:
      color.alpha = 0.9;
      _smprof_timeline_append_rect (snapshot, &color, x - 1, block_y + block_height, 2, 6);
      break;

    case SMPROF_PHASE_START:
    case SMPROF_PHASE_END:
    default:
      break;
    }
}

static void
draw_block (SmprofTimeline           *self,
            GtkSnapshot              *snapshot,
            const SmprofTimelineItem *item,
            double                    x0,
            double                    x1,
            double                    y,
            double                    cache_width)
{
  GdkRGBA color;
  double cx0 = MAX (x0, -2);
  double cx1 = MIN (x1, cache_width + 2);

  smprof_timeline_get_mode_color (item->mode, self->dark, &color);

  /* A pixel of background after blocks wide enough, so neighbours read apart */
  _smprof_timeline_append_rect (snapshot, &color, cx0, y, cx1 - cx0 - (x1 - x0 >= 4 && x1 <= cache_width + 2 ? 1 : 0), _smprof_timeline_block_height (self));

  /* Phase ticks where they do not crowd each other */
  if (x1 - x0 >= 6)
    {
      if (x0 >= -2)
        _smprof_timeline_draw_phase_tick (self, snapshot, item->record->name.start_phase, x0, y, _smprof_timeline_block_height (self));
      if (x1 <= cache_width + 2)
        _smprof_timeline_draw_phase_tick (self, snapshot, item->record->name.end_phase, x1, y, _smprof_timeline_block_height (self));
    }

  if (cx1 - cx0 >= 14)
    {
      g_autofree char *label = item_label (item);
      GdkRGBA text_color;
      int w, h;

      pango_layout_set_text (self->small_text, label, -1);
      pango_layout_get_pixel_size (self->small_text, &w, &h);
      if (w + 6 <= cx1 - cx0 && h <= _smprof_timeline_block_height (self) + 2)
        {
          if (smprof_ui_luminance (&color) > 0.5)
            text_color = (GdkRGBA) { 0, 0, 0, 0.85 };
          else
            text_color = (GdkRGBA) { 1, 1, 1, 1 };

          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (floor ((cx0 + cx1 - w) / 2),
                                                                  floor (y + (_smprof_timeline_block_height (self) - h) / 2.0)));
          gtk_snapshot_append_layout (snapshot, self->small_text, &text_color);
          gtk_snapshot_restore (snapshot);
        }
    }
}

typedef struct
{
  gboolean active;
  double   x0;
  double   x1;
  guint8   mode;
} Run;

static void
flush_run (SmprofTimeline *self,
           GtkSnapshot    *snapshot,
           Run            *run,
           double          y)
{
  GdkRGBA color;

  if (!run->active)
    return;

  smprof_timeline_get_mode_color (run->mode, self->dark, &color);
  _smprof_timeline_append_rect (snapshot, &color, run->x0, y, run->x1 - run->x0, _smprof_timeline_block_height (self));
  run->active = FALSE;
}

/* Calls @func for each item of the lane in [start, end] that is at least a
 * pixel wide, and for the first item of each pixel column where they are
 * narrower (the rest of that column is skipped by binary search). */
typedef void (*ItemFunc) (SmprofTimeline           *self,
                          GtkSnapshot              *snapshot,
                          const SmprofTimelineItem *item,
                          double                    x0,
                          double                    x1,
                          gboolean                  merged,
                          gpointer                  user_data);

static void
foreach_drawn_item (SmprofTimeline            *self,
                    const SmprofTimelineCache *cache,
                    guint                      node,
                    guint                      lane,
                    double                     start,
                    double                     end,
                    GtkSnapshot               *snapshot,
                    ItemFunc                   func,
                    gpointer                   user_data)
{
  const SmprofTimelineItem *items;
  SmprofTimelineAxis axis = cache->axis;
  guint n, first, last, i;

  items = smprof_timeline_layout_get_lane (self->layout, node, lane, &n);
  smprof_timeline_layout_lane_range (self->layout, node, lane, axis, start, end, &first, &last);

  i = first;
  while (i < last)
    {
      const SmprofTimelineItem *item = &items[i];
      double x0 = (item->start[axis] - cache->start) * cache->scale;
      double x1 = (item->end[axis] - cache->start) * cache->scale;

      if (x1 - x0 >= 1)
        {
          func (self, snapshot, item, x0, x1, FALSE, user_data);
          i++;
        }
      else
        {
          double column = floor (x0);
          double boundary = cache->start + (column + 1) / cache->scale;
          guint next;

          func (self, snapshot, item, column, column + 1, TRUE, user_data);
          next = smprof_timeline_layout_lane_next_start (self->layout, node, lane, axis, i + 1, boundary);

          /* Items of a lane do not overlap: of those skipped, only the last
           * can reach past this column, and it must still be drawn. */
          if (next > i + 1 && items[next - 1].end[axis] > boundary)
            next--;
          i = MAX (next, i + 1);
        }
    }
}

typedef struct
{
  Run    run;
  double y;
  double width;
  double min_start;  /* the tile draws the items that start in [min_start, max_start) */
  double max_start;
} BlocksData;

static void
blocks_item_cb (SmprofTimeline           *self,
                GtkSnapshot              *snapshot,
                const SmprofTimelineItem *item,
                double                    x0,
                double                    x1,
                gboolean                  merged,
                gpointer                  user_data)
{
  BlocksData *data = user_data;

  if (item->start[self->blocks.axis] < data->min_start || item->start[self->blocks.axis] >= data->max_start)
    return;

  if (!merged)
    {
      flush_run (self, snapshot, &data->run, data->y);
      draw_block (self, snapshot, item, x0, x1, data->y, data->width);
      return;
    }

  if (data->run.active && data->run.mode == item->mode && x0 <= data->run.x1)
    data->run.x1 = MAX (data->run.x1, x1);
  else
    {
      flush_run (self, snapshot, &data->run, data->y);
      data->run = (Run) { TRUE, x0, x1, item->mode };
    }
}

/* A column of the blocks' tiles: axis values [start, end] looked at, and
 * of what is there, the items and steps that start in [min_start,
 * max_start) drawn, whole (tiles do not clip): each is drawn once, by the
 * column it starts in. */
typedef struct
{
  double start;
  double end;
  double min_start;
  double max_start;
} Column;

/* Every step of the row's node, one tick each; where they are narrower than a
 * pixel, one per pixel column (the rest of the column skipped by binary
 * search), so the cost follows the pixels, not the steps. */
static void
draw_steps (SmprofTimeline            *self,
            GtkSnapshot               *snapshot,
            const SmprofTimelineCache *cache,
            const SmprofTimelineRow   *row,
            const Column              *column)
{
  const SmprofTimelineStep *steps;
  SmprofTimelineAxis axis = cache->axis;
  double width = _smprof_timeline_cache_width (cache);
  guint n, first, last, i;

  steps = smprof_timeline_steps_get_node (self->steps, row->node, &n);
  smprof_timeline_steps_range (self->steps, row->node, axis, column->start, column->end, &first, &last);

  i = first;
  while (i < last)
    {
      double x0 = (steps[i].start[axis] - cache->start) * cache->scale;
      double x1 = (steps[i].end[axis] - cache->start) * cache->scale;
      GdkRGBA color;

      /* another column draws it */
      if (steps[i].start[axis] < column->min_start || steps[i].start[axis] >= column->max_start)
        {
          i++;
          continue;
        }

      _smprof_timeline_get_step_color (steps[i].event->mode, self->dark, &color);

      if (x1 - x0 >= 1)
        {
          double cx0 = MAX (x0, -2);
          double cx1 = MIN (x1, width + 2);

          /* a pixel of track after ticks wide enough, so neighbours read apart */
          _smprof_timeline_append_rect (snapshot, &color, cx0, row->steps_y,
                                        cx1 - cx0 - (x1 - x0 >= 4 && x1 <= width + 2 ? 1 : 0), self->metrics.steps_height);
          i++;
        }
      else
        {
          double pixel = floor (x0);
          double boundary = cache->start + (pixel + 1) / cache->scale;
          guint next;

          _smprof_timeline_append_rect (snapshot, &color, pixel, row->steps_y, 1, self->metrics.steps_height);
          next = smprof_timeline_steps_next_start (self->steps, row->node, axis, i + 1, boundary);

          /* a skipped step that reaches past this column must still be drawn */
          if (next > i + 1 && steps[next - 1].end[axis] > boundary)
            next--;
          i = MAX (next, i + 1);
        }
    }
}

#define MAX_TILE_COLUMNS 8

/* For tests: the blocks in @n_columns columns of tiles (4 by default: half
 * a screen each), recorded again; 0: one node, replayed whole, as drawn
 * before there were tiles (what tiles must look the same as). */
void
_smprof_timeline_set_tile_columns (SmprofTimeline *self,
                                   guint           n_columns)
{
  self->tile_columns = MIN (n_columns, MAX_TILE_COLUMNS);
  self->blocks_generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* For tests and benchmarks: tiles replayed as images (the default) or as
 * drawn. */
void
_smprof_timeline_set_raster_tiles (SmprofTimeline *self,
                                   gboolean        raster)
{
  self->raster_tiles = raster;
  _smprof_timeline_rasters_clear (&self->blocks);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The cache's columns, on whole pixels of the cache so that no pixel
 * column of sub-pixel items is split between two tiles. */
static void
tile_columns (const SmprofTimelineCache *cache,
              guint                      n,
              Column                    *columns)
{
  double width = _smprof_timeline_cache_width (cache);

  for (guint c = 0; c < n; c++)
    {
      double x0 = round (width * c / n);
      double x1 = round (width * (c + 1) / n);

      columns[c].start = cache->start + x0 / cache->scale;
      columns[c].end = c + 1 == n ? cache->end : cache->start + x1 / cache->scale;
      columns[c].min_start = c == 0 ? -INFINITY : columns[c].start;
    }
  for (guint c = 0; c < n; c++)
    columns[c].max_start = c + 1 == n ? INFINITY : columns[c + 1].min_start;
}

static void
add_tile (GPtrArray   *tiles,
          GtkSnapshot *snapshot)
{
  GskRenderNode *tile = gtk_snapshot_free_to_node (snapshot);

  if (tile != NULL)
    g_ptr_array_add (tiles, tile);
}

/* One row's tiles, drawn in the order a whole row was: each lane's blocks,
 * the faint track of the steps (where the timeline recorded none), the
 * steps. A lane's or the steps' tiles split them into the @n_columns
 * @columns. */
static void
add_row_tiles (SmprofTimeline            *self,
               const SmprofTimelineCache *cache,
               const SmprofTimelineRow   *row,
               const Column              *columns,
               guint                      n_columns,
               GPtrArray                 *tiles)
{
  guint n_lanes = smprof_timeline_layout_get_n_lanes (self->layout, row->node);
  GtkSnapshot *snapshot;

  for (guint lane = 0; lane < n_lanes; lane++)
    for (guint c = 0; c < n_columns; c++)
      {
        BlocksData data = {
          .y = _smprof_timeline_lane_block_y (self, row, lane),
          .width = _smprof_timeline_cache_width (cache),
          .min_start = columns[c].min_start,
          .max_start = columns[c].max_start,
        };

        snapshot = gtk_snapshot_new ();
        foreach_drawn_item (self, cache, row->node, lane, columns[c].start, columns[c].end,
                            snapshot, blocks_item_cb, &data);
        flush_run (self, snapshot, &data.run, data.y);
        add_tile (tiles, snapshot);
      }

  if (row->steps_y >= 0 && self->steps != NULL && self->metrics.steps_height > 0)
    {
      GdkRGBA track = self->fg;

      track.alpha = 0.06;
      snapshot = gtk_snapshot_new ();
      _smprof_timeline_append_rect (snapshot, &track, -2, row->steps_y, _smprof_timeline_cache_width (cache) + 4,
                                    self->metrics.steps_height);
      add_tile (tiles, snapshot);

      for (guint c = 0; c < n_columns; c++)
        {
          snapshot = gtk_snapshot_new ();
          draw_steps (self, snapshot, cache, row, &columns[c]);
          add_tile (tiles, snapshot);
        }
    }
}

static void
ensure_blocks (SmprofTimeline               *self,
               const SmprofTimelineViewport *vp,
               double                        rows_height)
{
  SmprofTimelineCache *cache = &self->blocks;
  guint first, last;

  if (_smprof_timeline_cache_valid (cache, _smprof_timeline_axis (self), vp, self->vscroll, self->vscroll + rows_height,
                                    self->blocks_generation))
    return;

  _smprof_timeline_cache_prepare (cache, _smprof_timeline_axis (self), vp, self->vscroll, rows_height,
                                  self->blocks_generation);
  _smprof_timeline_cache_rows (self, cache, &first, &last);

  /* Drawn whole, for the tests: one node of every row. */
  if (self->tile_columns == 0)
    {
      g_autoptr(GPtrArray) tiles = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
      Column column;

      tile_columns (cache, 1, &column);
      for (guint r = first; r < last; r++)
        add_row_tiles (self, cache, _smprof_timeline_get_row (self, r), &column, 1, tiles);
      if (tiles->len > 0)
        cache->node = gsk_container_node_new ((GskRenderNode **) tiles->pdata, tiles->len);
      return;
    }

  /* Tiled: each row recorded when a frame first shows it, so that opening
   * or scrolling a job of hundreds of nodes records the rows in view, not
   * the half screens around them too. */
  if (cache->row_tiles == NULL)
    {
      cache->row_tiles = g_array_new (FALSE, TRUE, sizeof (SmprofTimelineRowTiles));
      g_array_set_clear_func (cache->row_tiles, _smprof_timeline_row_tiles_clear);
    }
  cache->first_row = first;
  g_array_set_size (cache->row_tiles, last - first);
}

/* Row @index of the blocks' cache, recorded now if it is not yet. */
static SmprofTimelineRowTiles *
record_row (SmprofTimeline *self,
            guint           index)
{
  SmprofTimelineCache *cache = &self->blocks;
  SmprofTimelineRowTiles *row_tiles = &g_array_index (cache->row_tiles, SmprofTimelineRowTiles, index);

  if (!row_tiles->recorded)
    {
      g_autoptr(GPtrArray) tiles = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
      Column columns[MAX_TILE_COLUMNS];

      tile_columns (cache, self->tile_columns, columns);
      add_row_tiles (self, cache, _smprof_timeline_get_row (self, cache->first_row + index), columns,
                     self->tile_columns, tiles);
      if (tiles->len > 0)
        row_tiles->node = gsk_container_node_new ((GskRenderNode **) tiles->pdata, tiles->len);
      row_tiles->recorded = TRUE;
    }

  return row_tiles;
}

/* How far a row's tiles may reach past its top or bottom (marks and ticks
 * drawn on its edge): rows this close to the view are looked at too, and
 * their tiles' own bounds decide. */
#define ROW_OVERHANG 16

/* What drawing @node costs the cairo renderer, in nodes drawn one by one
 * (a tile is a container of rectangles, maybe nested). */
static guint
tile_cost (GskRenderNode *node)
{
  guint n = 0;

  switch ((int) gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += tile_cost (gsk_container_node_get_child (node, i));
      return n;
    case GSK_TRANSFORM_NODE:
      return tile_cost (gsk_transform_node_get_child (node));
    case GSK_CLIP_NODE:
      return tile_cost (gsk_clip_node_get_child (node));
    default:
      return 1;
    }
}

/* The tiled blocks of the rows shown: each tile that meets the view, as
 * an image when @raster.
 *
 * A tile whose image is not drawn yet is drawn as it is, up to
 * SMPROF_TIMELINE_VECTOR_BUDGET nodes in one frame; past that it is left
 * out of the frame. The first frame of a job of hundreds of nodes, or of
 * rows scrolled into view, otherwise draws tens of thousands of rectangles
 * at once (130 ms at 256 nodes): now such a frame costs a few
 * milliseconds, the tiles left out are drawn first into their images (the
 * queue is taken from its end), and they appear within a few frames. */
static void
blocks_append (SmprofTimeline               *self,
               GtkSnapshot                  *snapshot,
               const SmprofTimelineViewport *vp,
               double                        width,
               double                        rows_height,
               int                           scale,
               gboolean                      raster)
{
  SmprofTimelineCache *cache = &self->blocks;
  graphene_point_t offset;
  graphene_rect_t visible;
  guint vector_nodes = 0;
  guint first;

  if (cache->row_tiles == NULL)
    return;

  _smprof_timeline_cache_placement (cache, vp, self->vscroll, width, rows_height, scale, &offset, &visible);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &offset);

  first = MAX (cache->first_row, _smprof_timeline_row_lower_bound (self, visible.origin.y - ROW_OVERHANG));
  for (guint r = first; r < cache->first_row + cache->row_tiles->len; r++)
    {
      SmprofTimelineRowTiles *row_tiles;

      if (_smprof_timeline_get_row (self, r)->y >= visible.origin.y + visible.size.height + ROW_OVERHANG)
        break;

      row_tiles = record_row (self, r - cache->first_row);
      if (row_tiles->node == NULL)
        continue;

      for (guint i = 0; i < gsk_container_node_get_n_children (row_tiles->node); i++)
        {
          GskRenderNode *tile = gsk_container_node_get_child (row_tiles->node, i);

          if (!_smprof_timeline_node_in_view (tile, &visible))
            continue;
          if (raster)
            {
              GskRenderNode *image = _smprof_timeline_rasters_get (self, row_tiles, i, offset.x, offset.y, scale);

              if (image != NULL)
                tile = image;
              else if (vector_nodes >= SMPROF_TIMELINE_VECTOR_BUDGET)
                continue;
              else
                vector_nodes += tile_cost (tile);
            }
          gtk_snapshot_append_node (snapshot, tile);
        }
    }

  gtk_snapshot_restore (snapshot);
}

/* For tests: every row of the blocks' cache, recorded, in one node. */
GskRenderNode *
_smprof_timeline_dup_blocks_node (SmprofTimeline *self)
{
  SmprofTimelineCache *cache = &self->blocks;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  if (cache->node != NULL)
    return gsk_render_node_ref (cache->node);
  if (cache->row_tiles == NULL)
    return NULL;

  for (guint i = 0; i < cache->row_tiles->len; i++)
    {
      SmprofTimelineRowTiles *row_tiles = record_row (self, i);

      if (row_tiles->node != NULL)
        g_ptr_array_add (rows, row_tiles->node);
    }

  return rows->len > 0 ? gsk_container_node_new ((GskRenderNode **) rows->pdata, rows->len) : NULL;
}

typedef struct
{
  gboolean all;      /* every item passed is selected (a live drag range) */
  gboolean active;
  double   x0;
  double   x1;
  double   y;
} OutlineData;

static void
append_outline (SmprofTimeline *self,
                GtkSnapshot    *snapshot,
                double          x0,
                double          x1,
                double          y,
                double          cache_width)
{
  GskRoundedRect outline;
  GdkRGBA colors[4];
  const float widths[4] = { 2, 2, 2, 2 };

  x0 = MAX (x0, -4);
  x1 = MIN (x1, cache_width + 4);
  for (guint i = 0; i < 4; i++)
    colors[i] = self->fg;

  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x0 - 2, y - 2, x1 - x0 + 4, _smprof_timeline_block_height (self) + 4), 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

static void
flush_outline (SmprofTimeline *self,
               GtkSnapshot    *snapshot,
               OutlineData    *data,
               double          cache_width)
{
  if (data->active)
    append_outline (self, snapshot, data->x0, data->x1, data->y, cache_width);
  data->active = FALSE;
}

typedef struct
{
  OutlineData outline;
  double      width;
} OverlayData;

static void
outline_item_cb (SmprofTimeline           *self,
                 GtkSnapshot              *snapshot,
                 const SmprofTimelineItem *item,
                 double                    x0,
                 double                    x1,
                 gboolean                  merged,
                 gpointer                  user_data)
{
  OverlayData *data = user_data;
  const SmprofTimelineItem *items = smprof_timeline_layout_get_items (self->layout);
  gboolean selected = data->outline.all || (self->selected != NULL && self->selected[item - items]);

  if (!selected)
    {
      flush_outline (self, snapshot, &data->outline, data->width);
      return;
    }

  /* Neighbours closer than the outline share one. */
  if (data->outline.active && x0 <= data->outline.x1 + 1)
    data->outline.x1 = MAX (data->outline.x1, x1);
  else
    {
      flush_outline (self, snapshot, &data->outline, data->width);
      data->outline.active = TRUE;
      data->outline.x0 = x0;
      data->outline.x1 = x1;
    }
}

/* The range being dragged, or the selection's range when it is on this axis. */
gboolean
_smprof_timeline_shaded_range (SmprofTimeline *self,
                               double         *start,
                               double         *end)
{
  SmprofTimelineAxis axis;

  if (self->dragging)
    {
      *start = MIN (self->drag_anchor, self->drag_value);
      *end = MAX (self->drag_anchor, self->drag_value);
      return TRUE;
    }

  return self->selection != NULL &&
         smprof_timeline_selection_get_range (self->selection, &axis, start, end) &&
         axis == _smprof_timeline_axis (self);
}

static void
ensure_overlay (SmprofTimeline               *self,
                const SmprofTimelineViewport *vp,
                double                        rows_height)
{
  SmprofTimelineCache *cache = &self->overlay;
  GtkSnapshot *snapshot;
  double start, end;
  guint first, last;

  if (_smprof_timeline_cache_valid (cache, _smprof_timeline_axis (self), vp, self->vscroll, self->vscroll + rows_height,
                                    self->overlay_generation))
    return;

  _smprof_timeline_cache_prepare (cache, _smprof_timeline_axis (self), vp, self->vscroll, rows_height,
                                  self->overlay_generation);

  if (!self->dragging && self->selection == NULL)
    return;

  snapshot = gtk_snapshot_new ();

  if (_smprof_timeline_shaded_range (self, &start, &end))
    {
      double x0 = MAX ((start - cache->start) * cache->scale, -2);
      double x1 = MIN ((end - cache->start) * cache->scale, _smprof_timeline_cache_width (cache) + 2);
      double y1 = MAX (cache->y1, self->content_height);
      GdkRGBA shade = _smprof_timeline_accent_color (self, 0.18);
      GdkRGBA edge = _smprof_timeline_accent_color (self, 0.9);

      if (x1 - x0 < 1)
        x1 = x0 + 1;
      _smprof_timeline_append_rect (snapshot, &shade, x0, cache->y0, x1 - x0, y1 - cache->y0);
      _smprof_timeline_append_rect (snapshot, &edge, x0, cache->y0, 1, y1 - cache->y0);
      _smprof_timeline_append_rect (snapshot, &edge, x1 - 1, cache->y0, 1, y1 - cache->y0);
    }

  _smprof_timeline_cache_rows (self, cache, &first, &last);
  for (guint r = first; r < last; r++)
    {
      const SmprofTimelineRow *row = _smprof_timeline_get_row (self, r);
      guint n_lanes = smprof_timeline_layout_get_n_lanes (self->layout, row->node);

      for (guint lane = 0; lane < n_lanes; lane++)
        {
          OverlayData data = { .outline.y = _smprof_timeline_lane_block_y (self, row, lane), .width = _smprof_timeline_cache_width (cache) };
          double s = cache->start, e = cache->end;

          if (self->dragging)
            {
              data.outline.all = TRUE;
              s = MAX (s, start);
              e = MIN (e, end);
              if (s > e)
                continue;
            }

          foreach_drawn_item (self, cache, row->node, lane, s, e, snapshot, outline_item_cb, &data);
          flush_outline (self, snapshot, &data.outline, data.width);
        }
    }

  cache->node = gtk_snapshot_free_to_node (snapshot);
}

static void
update_style (SmprofTimeline *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GdkRGBA fg;
  gboolean dark;

  gtk_style_context_get_color (context, &fg);
  dark = smprof_ui_widget_is_dark (GTK_WIDGET (self));

  if (!gdk_rgba_equal (&fg, &self->fg) || dark != self->dark)
    {
      self->fg = fg;
      self->dark = dark;
      self->blocks_generation++;
      self->overlay_generation++;
    }
}

void
_smprof_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);
  double width = gtk_widget_get_width (widget);
  double rows_height = _smprof_timeline_rows_height (self);
  SmprofTimelineViewport vp;
  graphene_rect_t rect;

  update_style (self);
  _smprof_timeline_get_viewport (self, &vp);

  if (self->layout == NULL || self->rows->len == 0)
    {
      GdkRGBA dim = self->fg;
      int w, h;

      dim.alpha = 0.55;
      pango_layout_set_text (self->text, _("No intervals to show"), -1);
      pango_layout_get_pixel_size (self->text, &w, &h);
      _smprof_timeline_append_text (self, snapshot, self->text, _("No intervals to show"),
                                    floor ((width - w) / 2), floor (SMPROF_TIMELINE_RULER_HEIGHT + (rows_height - h) / 2), &dim);
      _smprof_timeline_draw_legend (self, snapshot);
      return;
    }

  _smprof_timeline_draw_row_labels (self, snapshot, rows_height);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (vp.x, SMPROF_TIMELINE_RULER_HEIGHT,
                                                         width - vp.x, rows_height));

  ensure_blocks (self, &vp, rows_height);
  if (self->tile_columns > 0)
    blocks_append (self, snapshot, &vp, width, rows_height, gtk_widget_get_scale_factor (widget),
                   self->raster_tiles);
  else
    _smprof_timeline_cache_append (&self->blocks, snapshot, &vp, self->vscroll, width, rows_height, FALSE,
                                   gtk_widget_get_scale_factor (widget));
  ensure_overlay (self, &vp, rows_height);
  _smprof_timeline_cache_append (&self->overlay, snapshot, &vp, self->vscroll, width, rows_height, TRUE,
                                 gtk_widget_get_scale_factor (widget));
  _smprof_timeline_draw_compare (self, snapshot);
  _smprof_timeline_draw_outliers (self, snapshot);

  if (self->hover_item != NULL && _smprof_timeline_get_block_rect (self, self->hover_item, &rect))
    {
      GdkRGBA light = { 1, 1, 1, self->dark ? 0.18 : 0.3 };
      GdkRGBA colors[4];
      const float widths[4] = { 1, 1, 1, 1 };
      GskRoundedRect outline;

      for (guint i = 0; i < 4; i++)
        colors[i] = self->fg;
      rect.size.width = MAX (rect.size.width, 1);
      gtk_snapshot_append_color (snapshot, &light, &rect);
      gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
      gtk_snapshot_append_border (snapshot, &outline, widths, colors);
    }

  if (self->focus_item != NULL && gtk_widget_has_focus (widget) &&
      _smprof_timeline_get_block_rect (self, self->focus_item, &rect))
    {
      GdkRGBA colors[4];
      const float widths[4] = { 1, 1, 1, 1 };
      GskRoundedRect outline;

      for (guint i = 0; i < 4; i++)
        colors[i] = _smprof_timeline_accent_color (self, 1);
      graphene_rect_inset (&rect, -4, -4);
      gsk_rounded_rect_init_from_rect (&outline, &rect, 3);
      gtk_snapshot_append_border (snapshot, &outline, widths, colors);
    }

  gtk_snapshot_pop (snapshot);

  _smprof_timeline_draw_ruler (self, snapshot, &vp, rows_height);
  _smprof_timeline_draw_legend (self, snapshot);
}
