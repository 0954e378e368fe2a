/* smprof-timeline-cache.c: the timeline's cached render nodes: what a
 * cache covers, when it is still good, and how a frame replays it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The blocks and the selection are recorded for half a screen around the
 * view (smprof-timeline-draw.c) and replayed translated while panning.
 */

#include <math.h>

#include "smprof-timeline-private.h"

gboolean
_smprof_timeline_cache_valid (const SmprofTimelineCache    *cache,
                              SmprofTimelineAxis            axis,
                              const SmprofTimelineViewport *vp,
                              double                        y0,
                              double                        y1,
                              guint                         generation)
{
  return cache->scale == vp->width / vp->span &&
         cache->axis == axis &&
         cache->generation == generation &&
         cache->start <= vp->start && vp->start + vp->span <= cache->end &&
         cache->y0 <= y0 && y1 <= cache->y1;
}

void
_smprof_timeline_row_tiles_clear (gpointer data)
{
  SmprofTimelineRowTiles *row = data;

  g_clear_pointer (&row->node, gsk_render_node_unref);
  g_clear_pointer (&row->rasters, g_ptr_array_unref);
  row->recorded = FALSE;
}

void
_smprof_timeline_cache_forget (SmprofTimelineCache *cache)
{
  g_clear_pointer (&cache->node, gsk_render_node_unref);
  _smprof_timeline_rasters_clear (cache);
  if (cache->row_tiles != NULL)
    g_array_set_size (cache->row_tiles, 0);
}

void
_smprof_timeline_cache_prepare (SmprofTimelineCache          *cache,
                                SmprofTimelineAxis            axis,
                                const SmprofTimelineViewport *vp,
                                double                        vscroll,
                                double                        rows_height,
                                guint                         generation)
{
  _smprof_timeline_cache_forget (cache);
  cache->n_prepared++;
  cache->axis = axis;
  cache->scale = vp->width / vp->span;
  /* Half a screen around what is shown: a pan replays the node. */
  cache->start = vp->start - vp->span / 2;
  cache->end = vp->start + 1.5 * vp->span;
  cache->y0 = MAX (0, vscroll - rows_height / 2);
  cache->y1 = vscroll + 1.5 * rows_height;
  cache->generation = generation;
}

double
_smprof_timeline_cache_width (const SmprofTimelineCache *cache)
{
  return (cache->end - cache->start) * cache->scale;
}

void
_smprof_timeline_cache_clear (SmprofTimelineCache *cache)
{
  _smprof_timeline_cache_forget (cache);
  g_clear_pointer (&cache->row_tiles, g_array_unref);
  cache->scale = 0;
}

/* Whether @node, in the cache's coordinates, meets @visible. */
gboolean
_smprof_timeline_node_in_view (GskRenderNode         *node,
                               const graphene_rect_t *visible)
{
  graphene_rect_t bounds;

  gsk_render_node_get_bounds (node, &bounds);
  return graphene_rect_intersection (&bounds, visible, NULL);
}

/* Where a frame puts the cache's content: the translation, rounded to the
 * device's pixels (@scale per logical one), since a pan or a scroll by a
 * fraction of a pixel would otherwise draw every image of the blocks
 * again; and the content shown (@width x @rows_height of the widget, right
 * of the labels), in the cache's coordinates. */
void
_smprof_timeline_cache_placement (const SmprofTimelineCache    *cache,
                                  const SmprofTimelineViewport *vp,
                                  double                        vscroll,
                                  double                        width,
                                  double                        rows_height,
                                  int                           scale,
                                  graphene_point_t             *offset,
                                  graphene_rect_t              *visible)
{
  offset->x = round ((vp->x + (cache->start - vp->start) * cache->scale) * scale) / scale;
  offset->y = round ((SMPROF_TIMELINE_RULER_HEIGHT - vscroll) * scale) / scale;
  *visible = GRAPHENE_RECT_INIT (vp->x - offset->x, vscroll, width - vp->x, rows_height);
}

/* The cache's node, translated to where the view is now; of a container,
 * when @cull, only the children that meet the rows shown. */
void
_smprof_timeline_cache_append (SmprofTimelineCache          *cache,
                               GtkSnapshot                  *snapshot,
                               const SmprofTimelineViewport *vp,
                               double                        vscroll,
                               double                        width,
                               double                        rows_height,
                               gboolean                      cull,
                               int                           scale)
{
  graphene_point_t offset;
  graphene_rect_t visible;

  if (cache->node == NULL)
    return;

  _smprof_timeline_cache_placement (cache, vp, vscroll, width, rows_height, scale, &offset, &visible);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &offset);
  if (cull && gsk_render_node_get_node_type (cache->node) == GSK_CONTAINER_NODE)
    {
      for (guint i = 0; i < gsk_container_node_get_n_children (cache->node); i++)
        {
          GskRenderNode *child = gsk_container_node_get_child (cache->node, i);

          if (_smprof_timeline_node_in_view (child, &visible))
            gtk_snapshot_append_node (snapshot, child);
        }
    }
  else
    gtk_snapshot_append_node (snapshot, cache->node);
  gtk_snapshot_restore (snapshot);
}

/* The rows the cache covers: [first, last) */
void
_smprof_timeline_cache_rows (SmprofTimeline            *self,
                             const SmprofTimelineCache *cache,
                             guint                     *first,
                             guint                     *last)
{
  *first = _smprof_timeline_row_lower_bound (self, cache->y0);
  *last = *first;
  while (*last < self->rows->len && _smprof_timeline_get_row (self, *last)->y < cache->y1)
    (*last)++;
}
