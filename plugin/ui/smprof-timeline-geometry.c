/* smprof-timeline-geometry.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smprof-timeline-private.h"

/* Where things are: which nodes show as rows and how tall each row is, the
 * plot's place in the widget, and the row, interval or step under a point
 * and the rectangle of each. Input, drawing, tooltips and the marks all
 * turn pixels into rows and back through these. */

/* Geometry ---------------------------------------------------------------- */

static double
plot_x (SmprofTimeline *self)
{
  return self->label_width;
}

double
_smprof_timeline_plot_width (SmprofTimeline *self)
{
  return MAX (1, gtk_widget_get_width (GTK_WIDGET (self)) - self->label_width - SMPROF_TIMELINE_RIGHT_PAD);
}

double
_smprof_timeline_rows_height (SmprofTimeline *self)
{
  return MAX (0, gtk_widget_get_height (GTK_WIDGET (self)) -
                 SMPROF_TIMELINE_RULER_HEIGHT - _smprof_timeline_legend_height (self));
}

void
_smprof_timeline_get_viewport (SmprofTimeline         *self,
                               SmprofTimelineViewport *viewport)
{
  viewport->x = plot_x (self);
  viewport->width = _smprof_timeline_plot_width (self);
  viewport->start = self->view_start;
  viewport->span = self->view_span;
}

/* The first row whose bottom is below content y. */
guint
_smprof_timeline_row_lower_bound (SmprofTimeline *self,
                 double          y)
{
  guint lo = 0, hi = self->rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SmprofTimelineRow *r = _smprof_timeline_get_row (self, mid);

      if (r->y + r->height <= y)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Returns: the row under widget y, or -1; @lane gets the lane */
int
_smprof_timeline_row_at_y (SmprofTimeline *self,
                           double          y,
                           guint          *lane)
{
  const SmprofTimelineRow *r;
  double cy;
  guint row;
  int l;

  if (y < SMPROF_TIMELINE_RULER_HEIGHT || y >= SMPROF_TIMELINE_RULER_HEIGHT + _smprof_timeline_rows_height (self))
    return -1;

  cy = y - SMPROF_TIMELINE_RULER_HEIGHT + self->vscroll;
  row = _smprof_timeline_row_lower_bound (self, cy);
  if (row >= self->rows->len)
    return -1;

  r = _smprof_timeline_get_row (self, row);
  if (cy < r->y)
    return -1;

  l = (int) floor ((cy - r->y - self->metrics.row_pad) / self->metrics.lane_height);
  if (lane != NULL)
    *lane = CLAMP (l, 0, (int) smprof_timeline_layout_get_n_lanes (self->layout, r->node) - 1);

  return row;
}

int
_smprof_timeline_row_of_node (SmprofTimeline *self,
                              guint           node)
{
  if (self->row_of_node == NULL || node >= self->row_of_node->len)
    return -1;

  return g_array_index (self->row_of_node, int, node);
}

/* A row's rectangle in widget coordinates (whether on screen or not). */
gboolean
_smprof_timeline_get_row_rect (SmprofTimeline  *self,
                               guint            row,
                               graphene_rect_t *rect)
{
  const SmprofTimelineRow *r;

  if (row >= self->rows->len)
    return FALSE;

  r = _smprof_timeline_get_row (self, row);
  graphene_rect_init (rect, 0, SMPROF_TIMELINE_RULER_HEIGHT + r->y - self->vscroll,
                      gtk_widget_get_width (GTK_WIDGET (self)), r->height);

  return TRUE;
}

/* An item's block in widget coordinates, unclipped. */
gboolean
_smprof_timeline_get_block_rect (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item,
                                 graphene_rect_t          *rect)
{
  SmprofTimelineViewport vp;
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  int row;
  double x0, x1;

  if (item == NULL || self->layout == NULL)
    return FALSE;

  row = _smprof_timeline_row_of_node (self, item->node);
  if (row < 0)
    return FALSE;

  _smprof_timeline_get_viewport (self, &vp);
  x0 = smprof_timeline_viewport_value_to_x (&vp, item->start[axis]);
  x1 = smprof_timeline_viewport_value_to_x (&vp, item->end[axis]);
  graphene_rect_init (rect, x0,
                      SMPROF_TIMELINE_RULER_HEIGHT - self->vscroll + _smprof_timeline_lane_block_y (self, _smprof_timeline_get_row (self, row), item->lane),
                      x1 - x0, _smprof_timeline_block_height (self));

  return TRUE;
}

const SmprofTimelineItem *
_smprof_timeline_item_at (SmprofTimeline *self,
                          double          x,
                          double          y)
{
  SmprofTimelineViewport vp;
  guint lane;
  int row;

  if (self->layout == NULL || x < plot_x (self))
    return NULL;

  row = _smprof_timeline_row_at_y (self, y, &lane);
  if (row < 0)
    return NULL;

  /* The strip of steps under the lanes holds no interval. */
  {
    const SmprofTimelineRow *r = _smprof_timeline_get_row (self, row);

    if (r->steps_y >= 0 && y - SMPROF_TIMELINE_RULER_HEIGHT + self->vscroll >= r->steps_y - 1)
      return NULL;
  }

  _smprof_timeline_get_viewport (self, &vp);

  return smprof_timeline_layout_hit (self->layout, _smprof_timeline_get_row (self, row)->node, lane, _smprof_timeline_axis (self),
                                     smprof_timeline_viewport_x_to_value (&vp, x),
                                     2 * vp.span / vp.width);
}

/* The step under widget (x, y) in a node's strip of steps, or NULL; @node
 * gets its node. */
const SmprofTimelineStep *
_smprof_timeline_step_at (SmprofTimeline *self,
                          double          x,
                          double          y,
                          guint          *node)
{
  const SmprofTimelineRow *r;
  SmprofTimelineViewport vp;
  double cy;
  int row;

  if (self->steps == NULL || x < plot_x (self))
    return NULL;

  row = _smprof_timeline_row_at_y (self, y, NULL);
  if (row < 0)
    return NULL;

  r = _smprof_timeline_get_row (self, row);
  cy = y - SMPROF_TIMELINE_RULER_HEIGHT + self->vscroll;
  if (r->steps_y < 0 || self->metrics.steps_height <= 0 ||
      cy < r->steps_y - 1 || cy > r->steps_y + self->metrics.steps_height + 1)
    return NULL;

  _smprof_timeline_get_viewport (self, &vp);
  if (node != NULL)
    *node = r->node;

  return smprof_timeline_steps_hit (self->steps, r->node, _smprof_timeline_axis (self),
                                    smprof_timeline_viewport_x_to_value (&vp, x),
                                    2 * vp.span / vp.width);
}

/* A step's tick in widget coordinates, unclipped (at least a pixel wide). */
gboolean
_smprof_timeline_get_step_rect (SmprofTimeline           *self,
                                guint                     node,
                                const SmprofTimelineStep *step,
                                graphene_rect_t          *rect)
{
  SmprofTimelineViewport vp;
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  const SmprofTimelineRow *r;
  int row = _smprof_timeline_row_of_node (self, node);
  double x0, x1;

  if (step == NULL || row < 0)
    return FALSE;

  r = _smprof_timeline_get_row (self, row);
  if (r->steps_y < 0)
    return FALSE;

  _smprof_timeline_get_viewport (self, &vp);
  x0 = smprof_timeline_viewport_value_to_x (&vp, step->start[axis]);
  x1 = smprof_timeline_viewport_value_to_x (&vp, step->end[axis]);
  graphene_rect_init (rect, x0, SMPROF_TIMELINE_RULER_HEIGHT - self->vscroll + r->steps_y,
                      MAX (1, x1 - x0), self->metrics.steps_height);

  return TRUE;
}

/* Nodes and rows ------------------------------------------------------------ */

static gboolean
node_is_visible (SmprofTimeline *self,
                 const char     *node_id)
{
  return self->visible_nodes == NULL || g_strv_contains ((const char * const *) self->visible_nodes, node_id);
}

/* The comfortable sizes, then smaller ones as rows must fit in less
 * height: lanes down to SMPROF_TIMELINE_MIN_LANE_HEIGHT, pads in
 * proportion, the strip of steps gone once lanes are under 16 px. */
static SmprofTimelineMetrics
metrics_for_lane (double lane)
{
  SmprofTimelineMetrics m;

  if (lane >= SMPROF_TIMELINE_LANE_HEIGHT)
    return (SmprofTimelineMetrics) { SMPROF_TIMELINE_LANE_HEIGHT, SMPROF_TIMELINE_ROW_PAD,
                                     SMPROF_TIMELINE_BLOCK_INSET, SMPROF_TIMELINE_STEPS_HEIGHT,
                                     SMPROF_TIMELINE_STEPS_PAD };

  m.lane_height = lane;
  m.row_pad = MAX (1, floor (lane * SMPROF_TIMELINE_ROW_PAD / SMPROF_TIMELINE_LANE_HEIGHT));
  m.block_inset = lane >= 14 ? SMPROF_TIMELINE_BLOCK_INSET : 1;
  m.steps_height = lane >= 16 ? floor (lane * SMPROF_TIMELINE_STEPS_HEIGHT / SMPROF_TIMELINE_LANE_HEIGHT) : 0;
  m.steps_pad = m.steps_height > 0 ? 2 : 0;

  return m;
}

static double
rows_height_with (SmprofTimeline              *self,
                  const SmprofTimelineMetrics *m)
{
  double height = 0;

  for (guint r = 0; r < self->rows->len; r++)
    {
      const SmprofTimelineRow *row = _smprof_timeline_get_row (self, r);

      height += 2 * m->row_pad + smprof_timeline_layout_get_n_lanes (self->layout, row->node) * m->lane_height;
      if (row->steps_y >= 0 && m->steps_height > 0)
        height += m->steps_height + m->steps_pad;
    }

  return height;
}

/* Places the rows one under the other at the current metrics. A row keeps
 * steps_y >= 0 while its node has steps, even when the strip is not drawn. */
static void
place_rows (SmprofTimeline *self)
{
  self->content_height = 0;
  for (guint r = 0; r < self->rows->len; r++)
    {
      SmprofTimelineRow *row = &g_array_index (self->rows, SmprofTimelineRow, r);

      row->y = self->content_height;
      row->height = 2 * self->metrics.row_pad +
                    smprof_timeline_layout_get_n_lanes (self->layout, row->node) * self->metrics.lane_height;
      if (row->steps_y >= 0)
        {
          row->steps_y = row->y + row->height;
          if (self->metrics.steps_height > 0)
            row->height += self->metrics.steps_height + self->metrics.steps_pad;
        }
      self->content_height += row->height;
    }
}

/**
 * _smprof_timeline_fit_rows:
 * @self: a timeline
 *
 * Chooses the rows' sizes for the height the timeline has: the comfortable
 * ones when every row fits, else the largest lanes (whole pixels) with which
 * they do, else the compact ones, scrolled. Redraws when they change.
 */
void
_smprof_timeline_fit_rows (SmprofTimeline *self)
{
  SmprofTimelineMetrics comfortable = metrics_for_lane (SMPROF_TIMELINE_LANE_HEIGHT);
  SmprofTimelineMetrics chosen = comfortable;
  double available = _smprof_timeline_rows_height (self);
  double natural = self->layout != NULL ? rows_height_with (self, &comfortable) : 0;

  if (natural != self->natural_height)
    {
      self->natural_height = natural;
      _smprof_timeline_natural_height_changed (self);
    }

  if (self->layout != NULL && available > 0 && self->natural_height > available)
    {
      double lane;

      for (lane = SMPROF_TIMELINE_LANE_HEIGHT - 1; lane > SMPROF_TIMELINE_MIN_LANE_HEIGHT; lane--)
        {
          chosen = metrics_for_lane (lane);
          if (rows_height_with (self, &chosen) <= available)
            break;
        }
      chosen = metrics_for_lane (lane);
    }

  if (memcmp (&chosen, &self->metrics, sizeof chosen) == 0 && self->content_height > 0)
    return;

  self->metrics = chosen;
  if (self->layout != NULL)
    place_rows (self);
  _smprof_timeline_invalidate_blocks (self);
  _smprof_timeline_invalidate_overlay (self);
}

void
_smprof_timeline_rebuild_rows (SmprofTimeline *self)
{
  int max_width = 0;

  g_array_set_size (self->rows, 0);
  g_array_set_size (self->row_of_node, 0);
  self->content_height = 0;

  if (self->layout != NULL)
    {
      guint n_nodes = smprof_timeline_layout_get_n_nodes (self->layout);
      int hidden = -1;

      for (guint n = 0; n < n_nodes; n++)
        g_array_append_val (self->row_of_node, hidden);

      for (guint n = 0; n < n_nodes; n++)
        {
          const char *id = smprof_timeline_layout_get_node_id (self->layout, n);
          SmprofTimelineRow row = { n, 0, 0, -1 };
          int w;

          if (!node_is_visible (self, id))
            continue;

          g_array_index (self->row_of_node, int, n) = self->rows->len;
          if (self->steps != NULL)
            {
              guint n_steps = 0;

              smprof_timeline_steps_get_node (self->steps, n, &n_steps);
              if (n_steps > 0)
                row.steps_y = 0;
            }
          g_array_append_val (self->rows, row);

          pango_layout_set_text (self->text, id, -1);
          pango_layout_get_pixel_size (self->text, &w, NULL);
          max_width = MAX (max_width, w);
        }
    }

  /* the sizes may stay: place the rows anew */
  self->metrics.lane_height = 0;
  _smprof_timeline_fit_rows (self);

  self->label_width = CLAMP (max_width + 20, 72, 240);
  self->hover_item = NULL;
  if (self->focus_item != NULL && _smprof_timeline_row_of_node (self, self->focus_item->node) < 0)
    self->focus_item = NULL;
  if (self->anchor_item != NULL && _smprof_timeline_row_of_node (self, self->anchor_item->node) < 0)
    self->anchor_item = NULL;

  gtk_widget_queue_resize (GTK_WIDGET (self));
  _smprof_timeline_invalidate_blocks (self);
}

guint *
_smprof_timeline_dup_row_nodes (SmprofTimeline *self,
                                guint          *n_nodes)
{
  guint *nodes = g_new (guint, MAX (1, self->rows->len));

  for (guint i = 0; i < self->rows->len; i++)
    nodes[i] = _smprof_timeline_get_row (self, i)->node;
  *n_nodes = self->rows->len;

  return nodes;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Sorted as SmprofJob sorts node ids, whatever the rows' order. */
char **
_smprof_timeline_dup_node_ids (SmprofTimeline *self,
                               const guint    *nodes,
                               guint           n_nodes)
{
  char **ids = g_new0 (char *, n_nodes + 1);

  for (guint i = 0; i < n_nodes; i++)
    ids[i] = g_strdup (smprof_timeline_layout_get_node_id (self->layout, nodes[i]));
  qsort (ids, n_nodes, sizeof (char *), compare_strings);

  return ids;
}
