/* smprof-timeline.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-private.h"

/**
 * SmprofTimeline:
 *
 * One row per node, each interval a block coloured by mode, phase boundaries
 * as ticks, on a shared time axis (or aligned by step). Zoom and pan, hover
 * details, and a selection (a dragged range, clicked intervals, or a preset
 * query) that the job page aggregates.
 *
 * Performance: the layout (SmprofTimelineLayout) is computed once per job;
 * blocks are recorded into a cached render node that covers three screen
 * widths at the current zoom, so panning replays it; intervals narrower than a
 * pixel are merged into one-pixel columns found by binary search, so the work
 * per redraw is bounded by the pixels, not by the intervals. Hover and
 * tooltips are binary searches.
 */

enum {
  PROP_0,
  PROP_JOB,
  PROP_PROFILER,
  PROP_VISIBLE_NODES,
  PROP_ALIGN_BY_STEP,
  PROP_SELECTION,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (SmprofTimeline, smprof_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

#define MIN_SPAN_TIME_US 10.0
#define MIN_SPAN_STEP    0.01
#define ZOOM_FACTOR      1.5

static double
min_span (SmprofTimeline *self)
{
  return self->align_by_step ? MIN_SPAN_STEP : MIN_SPAN_TIME_US;
}

static void
invalidate_blocks (SmprofTimeline *self)
{
  self->blocks_generation++;
  self->overlay_generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_smprof_timeline_invalidate_overlay (SmprofTimeline *self)
{
  self->overlay_generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void update_adjustments   (SmprofTimeline *self);
static void update_action_states (SmprofTimeline *self);

/* Geometry ---------------------------------------------------------------- */

static double
plot_x (SmprofTimeline *self)
{
  return self->label_width;
}

static double
plot_width (SmprofTimeline *self)
{
  return MAX (1, gtk_widget_get_width (GTK_WIDGET (self)) - self->label_width - SMPROF_TIMELINE_RIGHT_PAD);
}

double
_smprof_timeline_rows_height (SmprofTimeline *self)
{
  return MAX (0, gtk_widget_get_height (GTK_WIDGET (self)) -
                 SMPROF_TIMELINE_RULER_HEIGHT - SMPROF_TIMELINE_LEGEND_HEIGHT);
}

void
_smprof_timeline_get_viewport (SmprofTimeline         *self,
                               SmprofTimelineViewport *viewport)
{
  viewport->x = plot_x (self);
  viewport->width = plot_width (self);
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

  l = (int) floor ((cy - r->y - SMPROF_TIMELINE_ROW_PAD) / SMPROF_TIMELINE_LANE_HEIGHT);
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
                      SMPROF_TIMELINE_RULER_HEIGHT - self->vscroll + _smprof_timeline_lane_block_y (_smprof_timeline_get_row (self, row), item->lane),
                      x1 - x0, SMPROF_TIMELINE_BLOCK_HEIGHT);

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
  if (r->steps_y < 0 || cy < r->steps_y - 1 || cy > r->steps_y + SMPROF_TIMELINE_STEPS_HEIGHT + 1)
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
                      MAX (1, x1 - x0), SMPROF_TIMELINE_STEPS_HEIGHT);

  return TRUE;
}

/* Nodes and rows ------------------------------------------------------------ */

static gboolean
node_is_visible (SmprofTimeline *self,
                 const char     *node_id)
{
  return self->visible_nodes == NULL || g_strv_contains ((const char * const *) self->visible_nodes, node_id);
}

static void
rebuild_rows (SmprofTimeline *self)
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
          SmprofTimelineRow row;
          int w;

          if (!node_is_visible (self, id))
            continue;

          g_array_index (self->row_of_node, int, n) = self->rows->len;
          row.node = n;
          row.y = self->content_height;
          row.height = 2 * SMPROF_TIMELINE_ROW_PAD +
                       smprof_timeline_layout_get_n_lanes (self->layout, n) * SMPROF_TIMELINE_LANE_HEIGHT;
          row.steps_y = -1;
          if (self->steps != NULL)
            {
              guint n_steps = 0;

              smprof_timeline_steps_get_node (self->steps, n, &n_steps);
              if (n_steps > 0)
                {
                  row.steps_y = row.y + row.height;
                  row.height += SMPROF_TIMELINE_STEPS_HEIGHT + SMPROF_TIMELINE_STEPS_PAD;
                }
            }
          g_array_append_val (self->rows, row);
          self->content_height += row.height;

          pango_layout_set_text (self->text, id, -1);
          pango_layout_get_pixel_size (self->text, &w, NULL);
          max_width = MAX (max_width, w);
        }
    }

  self->label_width = CLAMP (max_width + 20, 72, 240);
  self->hover_item = NULL;
  if (self->focus_item != NULL && _smprof_timeline_row_of_node (self, self->focus_item->node) < 0)
    self->focus_item = NULL;
  if (self->anchor_item != NULL && _smprof_timeline_row_of_node (self, self->anchor_item->node) < 0)
    self->anchor_item = NULL;

  gtk_widget_queue_resize (GTK_WIDGET (self));
  invalidate_blocks (self);
}

static guint *
dup_row_nodes (SmprofTimeline *self,
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
static char **
dup_node_ids (SmprofTimeline *self,
              const guint    *nodes,
              guint           n_nodes)
{
  char **ids = g_new0 (char *, n_nodes + 1);

  for (guint i = 0; i < n_nodes; i++)
    ids[i] = g_strdup (smprof_timeline_layout_get_node_id (self->layout, nodes[i]));
  qsort (ids, n_nodes, sizeof (char *), compare_strings);

  return ids;
}

/* The view ----------------------------------------------------------------- */

static void
get_fit (SmprofTimeline *self,
         double         *start,
         double         *end)
{
  g_autofree guint *nodes = NULL;
  guint n_nodes = 0;
  double s = 0, e = 1;

  if (self->layout != NULL && self->rows->len > 0)
    {
      nodes = dup_row_nodes (self, &n_nodes);
      if (!smprof_timeline_layout_get_extent (self->layout, _smprof_timeline_axis (self), nodes, n_nodes, &s, &e))
        {
          s = 0;
          e = 1;
        }

      /* Steps before or after the profiled intervals are shown too. */
      for (guint i = 0; self->steps != NULL && i < n_nodes; i++)
        {
          double ss, se;

          if (smprof_timeline_steps_get_extent (self->steps, _smprof_timeline_axis (self), nodes[i], &ss, &se))
            {
              s = MIN (s, ss);
              e = MAX (e, se);
            }
        }
    }

  if (e - s < min_span (self))
    {
      double mid = (s + e) / 2;

      s = mid - min_span (self) / 2;
      e = mid + min_span (self) / 2;
    }

  *start = s;
  *end = e;
}

void
_smprof_timeline_set_view (SmprofTimeline *self,
                           double          start,
                           double          span)
{
  double fs, fe;

  get_fit (self, &fs, &fe);

  if (!(span > 0) || span >= fe - fs)
    {
      span = fe - fs;
      start = fs;
      self->view_fit = TRUE;
    }
  else
    {
      span = MAX (span, min_span (self));
      start = CLAMP (start, fs, fe - span);
      self->view_fit = FALSE;
    }

  if (start != self->view_start || span != self->view_span)
    {
      self->view_start = start;
      self->view_span = span;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }

  update_adjustments (self);
  update_action_states (self);
}

static void
reset_view (SmprofTimeline *self)
{
  double fs, fe;

  get_fit (self, &fs, &fe);
  _smprof_timeline_set_view (self, fs, fe - fs);
}

void
_smprof_timeline_zoom_around (SmprofTimeline *self,
                              double          factor,
                              double          value)
{
  double span = self->view_span / factor;

  span = MAX (span, min_span (self));
  _smprof_timeline_set_view (self, value - (value - self->view_start) * span / self->view_span, span);
}

void
_smprof_timeline_set_vscroll (SmprofTimeline *self,
                              double          vscroll)
{
  double max = MAX (0, self->content_height - _smprof_timeline_rows_height (self));

  vscroll = CLAMP (vscroll, 0, max);
  if (vscroll != self->vscroll)
    {
      self->vscroll = vscroll;
      self->hover_item = NULL;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  update_adjustments (self);
}

static void
update_adjustments (SmprofTimeline *self)
{
  double fs, fe, scale, width, rows_height;

  if (self->in_adjustment_update)
    return;
  self->in_adjustment_update = TRUE;

  get_fit (self, &fs, &fe);
  width = plot_width (self);
  scale = width / self->view_span;

  if (self->hadjustment != NULL)
    gtk_adjustment_configure (self->hadjustment,
                              (self->view_start - fs) * scale,
                              0, (fe - fs) * scale,
                              width * 0.1, width * 0.9, width);

  rows_height = _smprof_timeline_rows_height (self);
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (self->vadjustment,
                              self->vscroll,
                              0, MAX (self->content_height, rows_height),
                              SMPROF_TIMELINE_LANE_HEIGHT, rows_height * 0.9, rows_height);

  self->in_adjustment_update = FALSE;
}

static void
hadjustment_value_changed_cb (SmprofTimeline *self,
                              GtkAdjustment  *adjustment)
{
  double fs, fe;

  if (self->in_adjustment_update)
    return;

  get_fit (self, &fs, &fe);
  _smprof_timeline_set_view (self,
                             fs + gtk_adjustment_get_value (adjustment) * self->view_span / plot_width (self),
                             self->view_span);
}

static void
vadjustment_value_changed_cb (SmprofTimeline *self,
                              GtkAdjustment  *adjustment)
{
  if (self->in_adjustment_update)
    return;

  _smprof_timeline_set_vscroll (self, gtk_adjustment_get_value (adjustment));
}

static void
set_adjustment (SmprofTimeline  *self,
                GtkAdjustment  **slot,
                GtkAdjustment   *adjustment,
                GCallback        callback,
                GParamSpec      *pspec)
{
  if (adjustment != NULL && adjustment == *slot)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, callback, self);
      g_clear_object (slot);
    }

  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);

  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_object (adjustment, "value-changed", callback, self, G_CONNECT_SWAPPED);
  update_adjustments (self);
  if (pspec != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

/* The selection --------------------------------------------------------------- */

static void
rebuild_selected_flags (SmprofTimeline *self)
{
  const SmprofTimelineItem *items;
  GPtrArray *records;

  g_clear_pointer (&self->selected, g_free);
  for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
    {
      self->has_selection_extent[a] = FALSE;
      self->selection_extent[a][0] = INFINITY;
      self->selection_extent[a][1] = -INFINITY;
    }

  if (self->selection == NULL || self->layout == NULL)
    return;

  items = smprof_timeline_layout_get_items (self->layout);
  self->selected = g_malloc0 (MAX (1, smprof_timeline_layout_get_n_items (self->layout)));
  records = smprof_timeline_selection_get_records (self->selection);

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofTimelineItem *item = smprof_timeline_layout_lookup_record (self->layout,
                                                                             g_ptr_array_index (records, i));

      if (item == NULL)
        continue;

      self->selected[item - items] = 1;
      for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
        {
          self->has_selection_extent[a] = TRUE;
          self->selection_extent[a][0] = MIN (self->selection_extent[a][0], item->start[a]);
          self->selection_extent[a][1] = MAX (self->selection_extent[a][1], item->end[a]);
        }
    }
}

/* Takes @selection. */
static void
set_selection_internal (SmprofTimeline          *self,
                        SmprofTimelineSelection *selection,
                        gboolean                 follows_nodes)
{
  self->selection_follows_nodes = follows_nodes;

  if (smprof_timeline_selection_equal (self->selection, selection))
    {
      g_clear_pointer (&selection, smprof_timeline_selection_unref);
      return;
    }

  g_clear_pointer (&self->selection, smprof_timeline_selection_unref);
  self->selection = selection;
  rebuild_selected_flags (self);
  _smprof_timeline_invalidate_overlay (self);
  update_action_states (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
commit_range_on_axis (SmprofTimeline     *self,
                      SmprofTimelineAxis  axis,
                      double              start,
                      double              end,
                      const guint        *nodes,
                      guint               n_nodes)
{
  g_autofree guint *all = NULL;
  g_autoptr(GPtrArray) records = NULL;
  SmprofTimelineSelection *selection;
  SmprofSelection query;
  gboolean follows = nodes == NULL;

  if (self->layout == NULL)
    return;

  if (nodes == NULL)
    nodes = all = dup_row_nodes (self, &n_nodes);

  records = smprof_timeline_layout_select_range (self->layout, axis, start, end, nodes, n_nodes, &query);

  if (axis == SMPROF_TIMELINE_AXIS_TIME)
    {
      g_auto(GStrv) ids = dup_node_ids (self, nodes, n_nodes);

      selection = smprof_timeline_selection_new_query (&query, (const char * const *) ids, records);
    }
  else
    selection = smprof_timeline_selection_new_records (records);

  smprof_timeline_selection_set_range (selection, axis, start, end);
  set_selection_internal (self, selection, follows);
}

/* Selects what overlaps [start, end] on the current axis, on @nodes (NULL: the
 * shown nodes, and the selection follows when other nodes are shown). */
void
_smprof_timeline_commit_range (SmprofTimeline *self,
                               double          start,
                               double          end,
                               const guint    *nodes,
                               guint           n_nodes)
{
  commit_range_on_axis (self, _smprof_timeline_axis (self), start, end, nodes, n_nodes);
}

void
_smprof_timeline_select_item (SmprofTimeline           *self,
                              const SmprofTimelineItem *item)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new ();

  g_ptr_array_add (records, (gpointer) item->record);
  self->anchor_item = item;
  set_selection_internal (self, smprof_timeline_selection_new_records (records), FALSE);
}

/* The selection's span on the current axis: its range, or its intervals. */
gboolean
_smprof_timeline_selection_span (SmprofTimeline *self,
                                 double         *start,
                                 double         *end)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self), range_axis;

  if (self->selection == NULL)
    return FALSE;

  if (smprof_timeline_selection_get_range (self->selection, &range_axis, start, end) && range_axis == axis)
    return TRUE;

  if (!self->has_selection_extent[axis])
    return FALSE;

  *start = self->selection_extent[axis][0];
  *end = self->selection_extent[axis][1];

  return TRUE;
}

/* Shift+click, Shift+arrow: a dragged range grows to take @item in; otherwise
 * the range from the anchor interval to @item, on the rows between them. */
void
_smprof_timeline_extend_to_item (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  const SmprofTimelineItem *anchor = self->anchor_item;
  double start, end;

  if (self->selection != NULL && smprof_timeline_selection_get_range (self->selection, NULL, NULL, NULL) &&
      _smprof_timeline_selection_span (self, &start, &end) && self->selection_follows_nodes)
    {
      _smprof_timeline_commit_range (self, MIN (start, item->start[axis]), MAX (end, item->end[axis]), NULL, 0);
      return;
    }

  if (anchor == NULL)
    {
      _smprof_timeline_select_item (self, item);
      return;
    }

  {
    int r0 = _smprof_timeline_row_of_node (self, anchor->node);
    int r1 = _smprof_timeline_row_of_node (self, item->node);
    g_autofree guint *nodes = NULL;
    guint n = 0;

    if (r0 < 0 || r1 < 0)
      return;

    nodes = g_new (guint, ABS (r1 - r0) + 1);
    for (int r = MIN (r0, r1); r <= MAX (r0, r1); r++)
      nodes[n++] = _smprof_timeline_get_row (self, r)->node;

    _smprof_timeline_commit_range (self,
                                   MIN (anchor->start[axis], item->start[axis]),
                                   MAX (anchor->end[axis], item->end[axis]),
                                   nodes, n);
  }
}

/* After the shown nodes change, a selection made on "the shown nodes" is made again. */
static void
refresh_selection_for_nodes (SmprofTimeline *self)
{
  SmprofTimelineAxis axis;
  double start, end;
  const SmprofSelection *query;

  if (self->selection == NULL || !self->selection_follows_nodes)
    return;

  if (smprof_timeline_selection_get_range (self->selection, &axis, &start, &end))
    commit_range_on_axis (self, axis, start, end, NULL, 0);
  else if ((query = smprof_timeline_selection_get_query (self->selection)) != NULL)
    {
      SmprofSelection copy = *query;

      smprof_timeline_set_selection (self, &copy, NULL);
    }
}

void
_smprof_timeline_set_focus_item (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item,
                                 gboolean                  reveal)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);

  if (item != self->focus_item)
    {
      self->focus_item = item;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }

  if (item == NULL || !reveal)
    return;

  /* Bring it into view, horizontally then vertically. */
  if (item->end[axis] < self->view_start || item->start[axis] > self->view_start + self->view_span)
    _smprof_timeline_set_view (self, (item->start[axis] + item->end[axis]) / 2 - self->view_span / 2,
                               self->view_span);

  {
    int row = _smprof_timeline_row_of_node (self, item->node);
    double rows_height = _smprof_timeline_rows_height (self);

    if (row >= 0)
      {
        const SmprofTimelineRow *r = _smprof_timeline_get_row (self, row);

        if (r->y < self->vscroll)
          _smprof_timeline_set_vscroll (self, r->y);
        else if (r->y + r->height > self->vscroll + rows_height)
          _smprof_timeline_set_vscroll (self, r->y + r->height - rows_height);
      }
  }
}

void
_smprof_timeline_set_hover_item (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item)
{
  if (item != self->hover_item)
    {
      self->hover_item = item;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
update_action_states (SmprofTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_selection = self->selection != NULL;
  double start, end;

  gtk_widget_action_set_enabled (widget, "timeline.clear-selection", has_selection);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-to-selection",
                                 has_selection && _smprof_timeline_selection_span (self, &start, &end));
  gtk_widget_action_set_enabled (widget, "timeline.zoom-in",
                                 self->layout != NULL && self->view_span > min_span (self) * 1.0001);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-out", !self->view_fit);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-reset", !self->view_fit);
}

/* The job ------------------------------------------------------------------------ */

/* Shows @layout (the tests give synthetic ones); the selection is cleared. */
void
_smprof_timeline_set_layout (SmprofTimeline       *self,
                             SmprofTimelineLayout *layout)
{
  gboolean had_selection = self->selection != NULL;

  self->hover_item = NULL;
  self->focus_item = NULL;
  self->anchor_item = NULL;
  self->dragging = self->drag_pending = FALSE;
  g_clear_pointer (&self->selection, smprof_timeline_selection_unref);
  g_clear_pointer (&self->selected, g_free);
  g_set_object (&self->layout, layout);
  if (self->steps != NULL && (layout == NULL || smprof_timeline_steps_get_layout (self->steps) != layout))
    g_clear_pointer (&self->steps, smprof_timeline_steps_free);

  rebuild_rows (self);
  self->vscroll = 0;
  reset_view (self);
  update_action_states (self);

  if (had_selection)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
}

static void
rebuild_layout (SmprofTimeline *self)
{
  g_autoptr(SmprofTimelineLayout) layout = NULL;

  if (self->job != NULL)
    {
      GPtrArray *records = smprof_job_get_records (self->job, self->profiler);

      if (records != NULL)
        layout = smprof_timeline_layout_new (records);
    }

  g_clear_pointer (&self->steps, smprof_timeline_steps_free);
  if (layout != NULL)
    self->steps = smprof_timeline_steps_new (layout, self->job);

  _smprof_timeline_set_layout (self, layout);
}

static void
smprof_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);
  int chrome = SMPROF_TIMELINE_RULER_HEIGHT + SMPROF_TIMELINE_LEGEND_HEIGHT;
  int one_row = 2 * SMPROF_TIMELINE_ROW_PAD + SMPROF_TIMELINE_LANE_HEIGHT;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 800;
    }
  else
    {
      *minimum = chrome + one_row;
      *natural = chrome + MAX (one_row, (int) ceil (self->content_height));
    }
}

static void
smprof_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);

  _smprof_timeline_set_vscroll (self, self->vscroll);
  update_adjustments (self);
  _smprof_timeline_outliers_size_allocate (self);
}

/* GObject ----------------------------------------------------------------------- */

static void
smprof_timeline_dispose (GObject *object)
{
  SmprofTimeline *self = (SmprofTimeline *) object;

  _smprof_timeline_cache_clear (&self->blocks);
  _smprof_timeline_cache_clear (&self->overlay);
  _smprof_timeline_outliers_dispose (self);
  _smprof_timeline_compare_dispose (self);
  g_clear_object (&self->text);
  g_clear_object (&self->small_text);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, hadjustment_value_changed_cb, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, vadjustment_value_changed_cb, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->selection, smprof_timeline_selection_unref);
  g_clear_pointer (&self->selected, g_free);
  self->hover_item = self->focus_item = self->anchor_item = NULL;
  g_clear_pointer (&self->steps, smprof_timeline_steps_free);
  g_clear_object (&self->layout);
  g_clear_object (&self->job);

  G_OBJECT_CLASS (smprof_timeline_parent_class)->dispose (object);
}

static void
smprof_timeline_finalize (GObject *object)
{
  SmprofTimeline *self = (SmprofTimeline *) object;

  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->row_of_node, g_array_unref);
  g_clear_pointer (&self->visible_nodes, g_strfreev);

  G_OBJECT_CLASS (smprof_timeline_parent_class)->finalize (object);
}

static void
smprof_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SmprofTimeline *self = SMPROF_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      g_value_set_object (value, self->job);
      break;

    case PROP_PROFILER:
      g_value_set_uint (value, self->profiler);
      break;

    case PROP_VISIBLE_NODES:
      g_value_set_boxed (value, self->visible_nodes);
      break;

    case PROP_ALIGN_BY_STEP:
      g_value_set_boolean (value, self->align_by_step);
      break;

    case PROP_SELECTION:
      g_value_set_boxed (value, self->selection);
      break;

    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;

    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;

    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;

    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SmprofTimeline *self = SMPROF_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      smprof_timeline_set_job (self, g_value_get_object (value));
      break;

    case PROP_PROFILER:
      smprof_timeline_set_profiler (self, g_value_get_uint (value));
      break;

    case PROP_VISIBLE_NODES:
      smprof_timeline_set_visible_nodes (self, g_value_get_boxed (value));
      break;

    case PROP_ALIGN_BY_STEP:
      smprof_timeline_set_align_by_step (self, g_value_get_boolean (value));
      break;

    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                      G_CALLBACK (hadjustment_value_changed_cb), pspec);
      break;

    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                      G_CALLBACK (vadjustment_value_changed_cb), pspec);
      break;

    case PROP_HSCROLL_POLICY:
      if (self->hscroll_policy != (guint) g_value_get_enum (value))
        {
          self->hscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_VSCROLL_POLICY:
      if (self->vscroll_policy != (guint) g_value_get_enum (value))
        {
          self->vscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_timeline_class_init (SmprofTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_timeline_dispose;
  object_class->finalize = smprof_timeline_finalize;
  object_class->get_property = smprof_timeline_get_property;
  object_class->set_property = smprof_timeline_set_property;

  widget_class->snapshot = _smprof_timeline_snapshot;
  widget_class->measure = smprof_timeline_measure;
  widget_class->size_allocate = smprof_timeline_size_allocate;
  widget_class->query_tooltip = _smprof_timeline_query_tooltip;

  /**
   * SmprofTimeline:job: (nullable)
   *
   * The job whose intervals are shown.
   */
  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL,
                         SMPROF_TYPE_JOB,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:profiler:
   *
   * Which profiler's intervals are shown (a SmprofProfiler).
   */
  properties[PROP_PROFILER] =
    g_param_spec_uint ("profiler", NULL, NULL,
                       0, SMPROF_N_PROFILERS - 1, SMPROF_PROFILER_CPROFILE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:visible-nodes: (nullable)
   *
   * The node ids to show, one row each, in the job's node order; %NULL shows
   * every node. Selections made on "the shown nodes" (drags, and
   * smprof_timeline_set_selection() with %NULL node ids) follow changes.
   */
  properties[PROP_VISIBLE_NODES] =
    g_param_spec_boxed ("visible-nodes", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:align-by-step:
   *
   * Place intervals by step instead of by wall clock (see SmprofTimelineAxis).
   */
  properties[PROP_ALIGN_BY_STEP] =
    g_param_spec_boolean ("align-by-step", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:selection: (nullable)
   *
   * What is selected: a SmprofTimelineSelection, or %NULL.
   */
  properties[PROP_SELECTION] =
    g_param_spec_boxed ("selection", NULL, NULL,
                        SMPROF_TYPE_TIMELINE_SELECTION,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * SmprofTimeline::selection-changed:
   *
   * The selection changed (by the user or by a call): read
   * SmprofTimeline:selection.
   */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);

  _smprof_timeline_class_input_init (widget_class);
  _smprof_timeline_class_outliers_init (object_class);
}

static void
smprof_timeline_init (SmprofTimeline *self)
{
  PangoAttrList *attrs;

  self->rows = g_array_new (FALSE, FALSE, sizeof (SmprofTimelineRow));
  self->row_of_node = g_array_new (FALSE, FALSE, sizeof (int));
  self->view_span = 1;
  self->view_fit = TRUE;
  self->label_width = 72;
  self->fg = (GdkRGBA) { 0, 0, 0, 1 };

  self->text = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_ellipsize (self->text, PANGO_ELLIPSIZE_MIDDLE);
  self->small_text = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_scale_new (0.82));
  pango_layout_set_attributes (self->small_text, attrs);
  pango_attr_list_unref (attrs);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_add_css_class (GTK_WIDGET (self), "view");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline of the profiled intervals"),
                                  -1);

  set_adjustment (self, &self->hadjustment, NULL, G_CALLBACK (hadjustment_value_changed_cb), NULL);
  set_adjustment (self, &self->vadjustment, NULL, G_CALLBACK (vadjustment_value_changed_cb), NULL);

  _smprof_timeline_input_init (self);
  update_action_states (self);
}

/* Public API ------------------------------------------------------------------------ */

GtkWidget *
smprof_timeline_new (void)
{
  return g_object_new (SMPROF_TYPE_TIMELINE, NULL);
}

/**
 * smprof_timeline_get_job:
 *
 * Returns: (transfer none) (nullable): the job shown
 */
SmprofJob *
smprof_timeline_get_job (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->job;
}

/**
 * smprof_timeline_set_job:
 * @job: (nullable): a loaded job
 *
 * Shows @job's intervals for SmprofTimeline:profiler, zoomed to fit. The
 * selection is cleared.
 */
void
smprof_timeline_set_job (SmprofTimeline *self,
                         SmprofJob      *job)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (!job || SMPROF_IS_JOB (job));

  if (g_set_object (&self->job, job))
    {
      rebuild_layout (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB]);
    }
}

SmprofProfiler
smprof_timeline_get_profiler (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

void
smprof_timeline_set_profiler (SmprofTimeline *self,
                              SmprofProfiler  profiler)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (profiler < SMPROF_N_PROFILERS);

  if (self->profiler != profiler)
    {
      self->profiler = profiler;
      rebuild_layout (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILER]);
    }
}

/**
 * smprof_timeline_get_visible_nodes:
 *
 * Returns: (transfer none) (nullable): the node ids shown, %NULL for all
 */
const char * const *
smprof_timeline_get_visible_nodes (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return (const char * const *) self->visible_nodes;
}

/**
 * smprof_timeline_set_visible_nodes:
 * @node_ids: (nullable) (array zero-terminated=1): the node ids to show, %NULL for all
 */
void
smprof_timeline_set_visible_nodes (SmprofTimeline     *self,
                                   const char * const *node_ids)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  if (self->visible_nodes == NULL && node_ids == NULL)
    return;
  if (self->visible_nodes != NULL && node_ids != NULL &&
      g_strv_equal ((const char * const *) self->visible_nodes, node_ids))
    return;

  g_strfreev (self->visible_nodes);
  self->visible_nodes = g_strdupv ((char **) node_ids);

  rebuild_rows (self);
  self->vscroll = 0;
  if (self->view_fit)
    reset_view (self);
  else
    _smprof_timeline_set_view (self, self->view_start, self->view_span);
  refresh_selection_for_nodes (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_NODES]);
}

gboolean
smprof_timeline_get_align_by_step (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), FALSE);

  return self->align_by_step;
}

void
smprof_timeline_set_align_by_step (SmprofTimeline *self,
                                   gboolean        align_by_step)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  align_by_step = !!align_by_step;
  if (self->align_by_step == align_by_step)
    return;

  self->align_by_step = align_by_step;
  self->dragging = self->drag_pending = FALSE;
  self->hover_item = NULL;
  invalidate_blocks (self);
  reset_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALIGN_BY_STEP]);
}

/**
 * smprof_timeline_get_layout:
 *
 * Returns: (transfer none) (nullable): where every interval is drawn
 */
SmprofTimelineLayout *
smprof_timeline_get_layout (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->layout;
}

/**
 * smprof_timeline_get_selection:
 *
 * Returns: (transfer none) (nullable): the selection
 */
SmprofTimelineSelection *
smprof_timeline_get_selection (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->selection;
}

/**
 * smprof_timeline_get_selected_records:
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   selected intervals in record order, or %NULL when nothing is selected
 */
GPtrArray *
smprof_timeline_get_selected_records (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->selection != NULL ? smprof_timeline_selection_get_records (self->selection) : NULL;
}

/**
 * smprof_timeline_set_selection:
 * @selection: a core query (a preset: whole job, job phases, steps N to M
 *   with phases, a mode pair, a time range...)
 * @node_ids: (nullable) (array zero-terminated=1): the nodes it applies to;
 *   %NULL for the shown nodes, and then the selection follows
 *   SmprofTimeline:visible-nodes
 *
 * Selects what smprof_select() gives, outlines those intervals, and emits
 * SmprofTimeline::selection-changed. An SMPROF_SELECT_OVERLAP query also
 * shades its range.
 */
void
smprof_timeline_set_selection (SmprofTimeline        *self,
                               const SmprofSelection *selection,
                               const char * const    *node_ids)
{
  g_auto(GStrv) ids = NULL;
  g_autoptr(GPtrArray) records = NULL;
  SmprofTimelineSelection *sel;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (selection != NULL);

  if (self->layout == NULL)
    return;

  if (node_ids != NULL)
    ids = g_strdupv ((char **) node_ids);
  else
    {
      g_autofree guint *nodes = NULL;
      guint n_nodes;

      nodes = dup_row_nodes (self, &n_nodes);
      ids = dup_node_ids (self, nodes, n_nodes);
    }

  records = smprof_select (smprof_timeline_layout_get_records (self->layout),
                           (const char * const *) ids, selection);
  sel = smprof_timeline_selection_new_query (selection, (const char * const *) ids, records);

  if (selection->kind == SMPROF_SELECT_OVERLAP)
    {
      double origin = smprof_timeline_layout_get_origin_us (self->layout);

      smprof_timeline_selection_set_range (sel, SMPROF_TIMELINE_AXIS_TIME,
                                           selection->start_us - origin, selection->end_us - origin);
    }

  set_selection_internal (self, sel, node_ids == NULL);
}

/**
 * smprof_timeline_select_records:
 * @records: (element-type SmprofRecord): intervals of the shown job
 *
 * Selects exactly @records (those the timeline knows).
 */
void
smprof_timeline_select_records (SmprofTimeline *self,
                                GPtrArray      *records)
{
  g_autoptr(GPtrArray) known = NULL;
  GPtrArray *all;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (records != NULL);

  if (self->layout == NULL)
    return;

  /* In record order: walk the job's records, keep the wanted ones. */
  {
    g_autoptr(GHashTable) wanted = g_hash_table_new (NULL, NULL);

    for (guint i = 0; i < records->len; i++)
      g_hash_table_add (wanted, g_ptr_array_index (records, i));

    all = smprof_timeline_layout_get_records (self->layout);
    known = g_ptr_array_new ();
    for (guint i = 0; i < all->len; i++)
      if (g_hash_table_contains (wanted, g_ptr_array_index (all, i)))
        g_ptr_array_add (known, g_ptr_array_index (all, i));
  }

  set_selection_internal (self, smprof_timeline_selection_new_records (known), FALSE);
}

/**
 * smprof_timeline_select_time_range:
 * @start_us: µs since the epoch
 * @end_us: µs since the epoch
 *
 * Selects as a drag across the shown nodes would: every interval that
 * overlaps [@start_us, @end_us].
 */
void
smprof_timeline_select_time_range (SmprofTimeline *self,
                                   double          start_us,
                                   double          end_us)
{
  double origin;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  if (self->layout == NULL)
    return;

  origin = smprof_timeline_layout_get_origin_us (self->layout);
  commit_range_on_axis (self, SMPROF_TIMELINE_AXIS_TIME, start_us - origin, end_us - origin, NULL, 0);
}

void
smprof_timeline_clear_selection (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  self->anchor_item = NULL;
  set_selection_internal (self, NULL, FALSE);
}

static double
zoom_center (SmprofTimeline *self)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  const SmprofTimelineItem *focus = self->focus_item;

  if (focus != NULL && focus->end[axis] >= self->view_start && focus->start[axis] <= self->view_start + self->view_span)
    return CLAMP ((focus->start[axis] + focus->end[axis]) / 2, self->view_start, self->view_start + self->view_span);

  return self->view_start + self->view_span / 2;
}

void
smprof_timeline_zoom_in (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  _smprof_timeline_zoom_around (self, ZOOM_FACTOR, zoom_center (self));
}

void
smprof_timeline_zoom_out (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  _smprof_timeline_zoom_around (self, 1 / ZOOM_FACTOR, zoom_center (self));
}

/* Fit every shown interval. */
void
smprof_timeline_zoom_reset (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  reset_view (self);
}

/* Fit the selection (its range, or its intervals), with a small margin. */
void
smprof_timeline_zoom_to_selection (SmprofTimeline *self)
{
  double start, end, margin;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  if (!_smprof_timeline_selection_span (self, &start, &end))
    return;

  margin = MAX ((end - start) * 0.05, min_span (self) / 2);
  _smprof_timeline_set_view (self, start - margin, end - start + 2 * margin);
}

/**
 * smprof_timeline_get_visible_range:
 * @start: (out): the left edge, on the current axis (µs since the job's
 *   start, or step position)
 * @end: (out): the right edge
 */
void
smprof_timeline_get_visible_range (SmprofTimeline *self,
                                   double         *start,
                                   double         *end)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  *start = self->view_start;
  *end = self->view_start + self->view_span;
}

void
smprof_timeline_set_visible_range (SmprofTimeline *self,
                                   double          start,
                                   double          end)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  _smprof_timeline_set_view (self, MIN (start, end), fabs (end - start));
}
