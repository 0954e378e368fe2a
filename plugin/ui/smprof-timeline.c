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
#include "smprof-timeline-ruler.h"
#include "smprof-ui-format.h"

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

/* Mode colours: GNOME palette tones, a darker one for light backgrounds and a
 * lighter one for dark backgrounds, indexed by SmprofMode - 1. */
static const guint32 mode_colors[SMPROF_N_MODES][2] = {
  { 0x3584e4, 0x62a0ea },   /* train: blue */
  { 0x2ec27e, 0x33d17a },   /* eval: green */
  { 0x9141ac, 0xc061cb },   /* predict: purple */
  { 0xe66100, 0xffa348 },   /* global: orange */
  { 0xe5a50a, 0xf6d32d },   /* pre-step-zero: yellow */
  { 0x986a44, 0xb5835a },   /* post-hook-close: brown */
};

static const char * const mode_labels[SMPROF_N_MODES] = {
  N_("Train"),
  N_("Eval"),
  N_("Predict"),
  N_("Global"),
  N_("Pre-step-zero"),
  N_("Post-hook-close"),
};

static void
rgba_from_hex (guint32  hex,
               GdkRGBA *color)
{
  color->red = ((hex >> 16) & 0xff) / 255.0;
  color->green = ((hex >> 8) & 0xff) / 255.0;
  color->blue = (hex & 0xff) / 255.0;
  color->alpha = 1;
}

/**
 * smprof_timeline_get_mode_color:
 * @mode: a mode
 * @dark: whether the background is dark
 * @color: (out): the colour the timeline gives @mode's blocks
 */
void
smprof_timeline_get_mode_color (SmprofMode  mode,
                                gboolean    dark,
                                GdkRGBA    *color)
{
  g_return_if_fail (color != NULL);

  if (mode < SMPROF_MODE_TRAIN || mode > SMPROF_MODE_POST_HOOK_CLOSE)
    mode = SMPROF_MODE_GLOBAL;

  rgba_from_hex (mode_colors[mode - 1][dark ? 1 : 0], color);
}

/**
 * smprof_timeline_get_mode_label:
 *
 * Returns: the translated name the legend shows for @mode
 */
const char *
smprof_timeline_get_mode_label (SmprofMode mode)
{
  if (mode < SMPROF_MODE_TRAIN || mode > SMPROF_MODE_POST_HOOK_CLOSE)
    return "";

  return _(mode_labels[mode - 1]);
}

static const char *
phase_label (SmprofPhase phase)
{
  switch (phase)
    {
    case SMPROF_PHASE_START:
      return C_("phase", "start");
    case SMPROF_PHASE_STEP_START:
      return C_("phase", "step start");
    case SMPROF_PHASE_FORWARD_PASS_END:
      return C_("phase", "forward pass end");
    case SMPROF_PHASE_STEP_END:
      return C_("phase", "step end");
    case SMPROF_PHASE_END:
      return C_("phase", "end");
    default:
      return "";
    }
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
}

static SmprofTimelineAxis
current_axis (SmprofTimeline *self)
{
  return self->align_by_step ? SMPROF_TIMELINE_AXIS_STEP : SMPROF_TIMELINE_AXIS_TIME;
}

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

static const SmprofTimelineRow *
get_row (SmprofTimeline *self,
         guint           row)
{
  return &g_array_index (self->rows, SmprofTimelineRow, row);
}

/* The first row whose bottom is below content y. */
static guint
row_lower_bound (SmprofTimeline *self,
                 double          y)
{
  guint lo = 0, hi = self->rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SmprofTimelineRow *r = get_row (self, mid);

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
  row = row_lower_bound (self, cy);
  if (row >= self->rows->len)
    return -1;

  r = get_row (self, row);
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

  r = get_row (self, row);
  graphene_rect_init (rect, 0, SMPROF_TIMELINE_RULER_HEIGHT + r->y - self->vscroll,
                      gtk_widget_get_width (GTK_WIDGET (self)), r->height);

  return TRUE;
}

static double
lane_block_y (const SmprofTimelineRow *row,
              guint                    lane)
{
  return row->y + SMPROF_TIMELINE_ROW_PAD + lane * SMPROF_TIMELINE_LANE_HEIGHT + SMPROF_TIMELINE_BLOCK_INSET;
}

#define BLOCK_HEIGHT (SMPROF_TIMELINE_LANE_HEIGHT - 2 * SMPROF_TIMELINE_BLOCK_INSET)

/* An item's block in widget coordinates, unclipped. */
gboolean
_smprof_timeline_get_block_rect (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item,
                                 graphene_rect_t          *rect)
{
  SmprofTimelineViewport vp;
  SmprofTimelineAxis axis = current_axis (self);
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
                      SMPROF_TIMELINE_RULER_HEIGHT - self->vscroll + lane_block_y (get_row (self, row), item->lane),
                      x1 - x0, BLOCK_HEIGHT);

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

  _smprof_timeline_get_viewport (self, &vp);

  return smprof_timeline_layout_hit (self->layout, get_row (self, row)->node, lane, current_axis (self),
                                     smprof_timeline_viewport_x_to_value (&vp, x),
                                     2 * vp.span / vp.width);
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
    nodes[i] = get_row (self, i)->node;
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
      if (!smprof_timeline_layout_get_extent (self->layout, current_axis (self), nodes, n_nodes, &s, &e))
        {
          s = 0;
          e = 1;
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
  commit_range_on_axis (self, current_axis (self), start, end, nodes, n_nodes);
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
  SmprofTimelineAxis axis = current_axis (self), range_axis;

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
  SmprofTimelineAxis axis = current_axis (self);
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
      nodes[n++] = get_row (self, r)->node;

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
  SmprofTimelineAxis axis = current_axis (self);

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
        const SmprofTimelineRow *r = get_row (self, row);

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

  _smprof_timeline_set_layout (self, layout);
}

/* Drawing --------------------------------------------------------------------------- */

static gboolean
cache_valid (const SmprofTimelineCache    *cache,
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

static void
cache_prepare (SmprofTimelineCache          *cache,
               SmprofTimelineAxis            axis,
               const SmprofTimelineViewport *vp,
               double                        vscroll,
               double                        rows_height,
               guint                         generation)
{
  g_clear_pointer (&cache->node, gsk_render_node_unref);
  cache->axis = axis;
  cache->scale = vp->width / vp->span;
  /* Half a screen around what is shown: a pan replays the node. */
  cache->start = vp->start - vp->span / 2;
  cache->end = vp->start + 1.5 * vp->span;
  cache->y0 = MAX (0, vscroll - rows_height / 2);
  cache->y1 = vscroll + 1.5 * rows_height;
  cache->generation = generation;
}

static double
cache_width (const SmprofTimelineCache *cache)
{
  return (cache->end - cache->start) * cache->scale;
}

static void
cache_clear (SmprofTimelineCache *cache)
{
  g_clear_pointer (&cache->node, gsk_render_node_unref);
  cache->scale = 0;
}

static void
cache_append (SmprofTimelineCache          *cache,
              GtkSnapshot                  *snapshot,
              const SmprofTimelineViewport *vp,
              double                        vscroll)
{
  if (cache->node == NULL)
    return;

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (vp->x + (cache->start - vp->start) * cache->scale,
                                                SMPROF_TIMELINE_RULER_HEIGHT - vscroll));
  gtk_snapshot_append_node (snapshot, cache->node);
  gtk_snapshot_restore (snapshot);
}

/* The rows the cache covers: [first, last) */
static void
cache_rows (SmprofTimeline            *self,
            const SmprofTimelineCache *cache,
            guint                     *first,
            guint                     *last)
{
  *first = row_lower_bound (self, cache->y0);
  *last = *first;
  while (*last < self->rows->len && get_row (self, *last)->y < cache->y1)
    (*last)++;
}

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

static void
append_rect (GtkSnapshot   *snapshot,
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
static void
draw_phase_tick (SmprofTimeline *self,
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
      append_rect (snapshot, &color, x - 1, block_y - 6, 2, 6);
      break;

    case SMPROF_PHASE_FORWARD_PASS_END:
      color.alpha = 0.6;
      append_rect (snapshot, &color, x - 1, block_y - 3, 2, 3);
      break;

    case SMPROF_PHASE_STEP_END:
      color.alpha = 0.9;
      append_rect (snapshot, &color, x - 1, block_y + block_height, 2, 6);
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
  append_rect (snapshot, &color, cx0, y, cx1 - cx0 - (x1 - x0 >= 4 && x1 <= cache_width + 2 ? 1 : 0), BLOCK_HEIGHT);

  /* Phase ticks where they do not crowd each other */
  if (x1 - x0 >= 6)
    {
      if (x0 >= -2)
        draw_phase_tick (self, snapshot, item->record->name.start_phase, x0, y, BLOCK_HEIGHT);
      if (x1 <= cache_width + 2)
        draw_phase_tick (self, snapshot, item->record->name.end_phase, x1, y, BLOCK_HEIGHT);
    }

  if (cx1 - cx0 >= 14)
    {
      g_autofree char *label = item_label (item);
      GdkRGBA text_color;
      int w, h;

      pango_layout_set_text (self->small_text, label, -1);
      pango_layout_get_pixel_size (self->small_text, &w, &h);
      if (w + 6 <= cx1 - cx0 && h <= BLOCK_HEIGHT + 2)
        {
          if (luminance (&color) > 0.5)
            text_color = (GdkRGBA) { 0, 0, 0, 0.85 };
          else
            text_color = (GdkRGBA) { 1, 1, 1, 1 };

          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (floor ((cx0 + cx1 - w) / 2),
                                                                  floor (y + (BLOCK_HEIGHT - h) / 2.0)));
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
  append_rect (snapshot, &color, run->x0, y, run->x1 - run->x0, BLOCK_HEIGHT);
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

static void
ensure_blocks (SmprofTimeline               *self,
               const SmprofTimelineViewport *vp,
               double                        rows_height)
{
  SmprofTimelineCache *cache = &self->blocks;
  GtkSnapshot *snapshot;
  guint first, last;

  if (cache_valid (cache, current_axis (self), vp, self->vscroll, self->vscroll + rows_height, self->blocks_generation))
    return;

  cache_prepare (cache, current_axis (self), vp, self->vscroll, rows_height, self->blocks_generation);
  snapshot = gtk_snapshot_new ();
  cache_rows (self, cache, &first, &last);

  for (guint r = first; r < last; r++)
    {
      const SmprofTimelineRow *row = get_row (self, r);
      guint n_lanes = smprof_timeline_layout_get_n_lanes (self->layout, row->node);

      for (guint lane = 0; lane < n_lanes; lane++)
        {
          BlocksData data = { .y = lane_block_y (row, lane), .width = cache_width (cache) };

          foreach_drawn_item (self, cache, row->node, lane, cache->start, cache->end,
                              snapshot, blocks_item_cb, &data);
          flush_run (self, snapshot, &data.run, data.y);
        }
    }

  cache->node = gtk_snapshot_free_to_node (snapshot);
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

  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x0 - 2, y - 2, x1 - x0 + 4, BLOCK_HEIGHT + 4), 0);
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

static GdkRGBA
accent_color (SmprofTimeline *self,
              double          alpha)
{
  GdkRGBA accent;

  rgba_from_hex (self->dark ? 0x78aeed : 0x1c71d8, &accent);
  accent.alpha = alpha;

  return accent;
}

/* The range being dragged, or the selection's range when it is on this axis. */
static gboolean
shaded_range (SmprofTimeline *self,
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
         axis == current_axis (self);
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

  if (cache_valid (cache, current_axis (self), vp, self->vscroll, self->vscroll + rows_height, self->overlay_generation))
    return;

  cache_prepare (cache, current_axis (self), vp, self->vscroll, rows_height, self->overlay_generation);

  if (!self->dragging && self->selection == NULL)
    return;

  snapshot = gtk_snapshot_new ();

  if (shaded_range (self, &start, &end))
    {
      double x0 = MAX ((start - cache->start) * cache->scale, -2);
      double x1 = MIN ((end - cache->start) * cache->scale, cache_width (cache) + 2);
      double y1 = MAX (cache->y1, self->content_height);
      GdkRGBA shade = accent_color (self, 0.18);
      GdkRGBA edge = accent_color (self, 0.9);

      if (x1 - x0 < 1)
        x1 = x0 + 1;
      append_rect (snapshot, &shade, x0, cache->y0, x1 - x0, y1 - cache->y0);
      append_rect (snapshot, &edge, x0, cache->y0, 1, y1 - cache->y0);
      append_rect (snapshot, &edge, x1 - 1, cache->y0, 1, y1 - cache->y0);
    }

  cache_rows (self, cache, &first, &last);
  for (guint r = first; r < last; r++)
    {
      const SmprofTimelineRow *row = get_row (self, r);
      guint n_lanes = smprof_timeline_layout_get_n_lanes (self->layout, row->node);

      for (guint lane = 0; lane < n_lanes; lane++)
        {
          OverlayData data = { .outline.y = lane_block_y (row, lane), .width = cache_width (cache) };
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
append_text (SmprofTimeline *self,
             GtkSnapshot    *snapshot,
             PangoLayout    *layout,
             const char     *text,
             double          x,
             double          y,
             const GdkRGBA  *color)
{
  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
draw_ruler (SmprofTimeline               *self,
            GtkSnapshot                  *snapshot,
            const SmprofTimelineViewport *vp,
            double                        rows_height)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double end = vp->start + vp->span;
  GdkRGBA line = self->fg, grid = self->fg, text = self->fg;
  double step, start, range_start, range_end;
  guint n_minor;
  int h;

  line.alpha = 0.3;
  grid.alpha = 0.07;
  text.alpha = 0.8;

  append_rect (snapshot, &line, 0, SMPROF_TIMELINE_RULER_HEIGHT - 1, width, 1);
  append_text (self, snapshot, self->small_text,
               self->align_by_step ? C_("axis", "Step") : C_("axis", "Time"), 8, 6, &text);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (vp->x - 1, 0, width - vp->x + 1,
                                                         SMPROF_TIMELINE_RULER_HEIGHT + rows_height));

  if (shaded_range (self, &range_start, &range_end))
    {
      GdkRGBA band = accent_color (self, 0.5);
      double x0 = MAX (smprof_timeline_viewport_value_to_x (vp, range_start), vp->x - 2);
      double x1 = MIN (smprof_timeline_viewport_value_to_x (vp, range_end), width + 2);

      if (x1 > x0)
        append_rect (snapshot, &band, x0, SMPROF_TIMELINE_RULER_HEIGHT - 5, MAX (1, x1 - x0), 4);
    }

  pango_layout_set_text (self->small_text, "0", -1);
  pango_layout_get_pixel_size (self->small_text, NULL, &h);

  if (!self->align_by_step)
    {
      step = smprof_timeline_ruler_nice_step (vp->span, vp->width, 90, 0, &n_minor);
      start = ceil (vp->start / step);

      for (double k = start; k * step <= end; k++)
        {
          double t = k * step;
          double x = smprof_timeline_viewport_value_to_x (vp, t);
          g_autofree char *label = smprof_timeline_ruler_format_time (t, step);

          append_rect (snapshot, &line, x, SMPROF_TIMELINE_RULER_HEIGHT - 9, 1, 8);
          append_rect (snapshot, &grid, x, SMPROF_TIMELINE_RULER_HEIGHT, 1, rows_height);
          append_text (self, snapshot, self->small_text, label, x + 3,
                       SMPROF_TIMELINE_RULER_HEIGHT - 9 - h + 4, &text);
        }

      for (double k = floor (vp->start / (step / n_minor)); k * step / n_minor <= end; k++)
        {
          double x = smprof_timeline_viewport_value_to_x (vp, k * step / n_minor);

          append_rect (snapshot, &line, x, SMPROF_TIMELINE_RULER_HEIGHT - 4, 1, 3);
        }
    }
  else if (self->layout != NULL)
    {
      guint n_steps = smprof_timeline_layout_get_n_steps (self->layout);

      step = smprof_timeline_ruler_nice_step (vp->span, vp->width, 48, 1, &n_minor);
      start = MAX (0, ceil (vp->start / step));

      for (double k = start; k * step <= end && k * step < n_steps; k++)
        {
          double x = smprof_timeline_viewport_value_to_x (vp, k * step);
          g_autofree char *label = smprof_timeline_layout_dup_step_label (self->layout, (guint) (k * step));

          append_rect (snapshot, &line, x, SMPROF_TIMELINE_RULER_HEIGHT - 9, 1, 8);
          append_rect (snapshot, &grid, x, SMPROF_TIMELINE_RULER_HEIGHT, 1, rows_height);
          append_text (self, snapshot, self->small_text, label, x + 3,
                       SMPROF_TIMELINE_RULER_HEIGHT - 9 - h + 4, &text);
        }
    }

  gtk_snapshot_pop (snapshot);
}

static void
draw_row_labels (SmprofTimeline *self,
                 GtkSnapshot    *snapshot,
                 double          rows_height)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  GdkRGBA line = self->fg, stripe = self->fg;
  guint first = row_lower_bound (self, self->vscroll);

  line.alpha = 0.12;
  stripe.alpha = 0.03;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, SMPROF_TIMELINE_RULER_HEIGHT, width, rows_height));

  pango_layout_set_width (self->text, (int) (self->label_width - 14) * PANGO_SCALE);
  for (guint r = first; r < self->rows->len; r++)
    {
      const SmprofTimelineRow *row = get_row (self, r);
      double y = SMPROF_TIMELINE_RULER_HEIGHT + row->y - self->vscroll;
      const char *id = smprof_timeline_layout_get_node_id (self->layout, row->node);
      int h;

      if (y >= SMPROF_TIMELINE_RULER_HEIGHT + rows_height)
        break;

      if (r % 2 == 1)
        append_rect (snapshot, &stripe, 0, y, width, row->height);
      append_rect (snapshot, &line, 0, y + row->height - 1, width, 1);

      pango_layout_set_text (self->text, id, -1);
      pango_layout_get_pixel_size (self->text, NULL, &h);
      append_text (self, snapshot, self->text, id, 8,
                   floor (y + SMPROF_TIMELINE_ROW_PAD + (SMPROF_TIMELINE_LANE_HEIGHT - h) / 2.0), &self->fg);
    }
  pango_layout_set_width (self->text, -1);

  append_rect (snapshot, &line, self->label_width - 1, SMPROF_TIMELINE_RULER_HEIGHT, 1, rows_height);

  gtk_snapshot_pop (snapshot);
}

static void
draw_legend (SmprofTimeline *self,
             GtkSnapshot    *snapshot)
{
  static const SmprofPhase phases[] = {
    SMPROF_PHASE_STEP_START, SMPROF_PHASE_FORWARD_PASS_END, SMPROF_PHASE_STEP_END,
  };
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double y = gtk_widget_get_height (GTK_WIDGET (self)) - SMPROF_TIMELINE_LEGEND_HEIGHT;
  GdkRGBA line = self->fg;
  double x = 8;
  int w, h;

  line.alpha = 0.15;
  append_rect (snapshot, &line, 0, y, width, 1);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, y, width, SMPROF_TIMELINE_LEGEND_HEIGHT));

  for (SmprofMode mode = SMPROF_MODE_TRAIN; mode <= SMPROF_MODE_POST_HOOK_CLOSE; mode++)
    {
      const char *label = smprof_timeline_get_mode_label (mode);
      GdkRGBA color;

      smprof_timeline_get_mode_color (mode, self->dark, &color);
      append_rect (snapshot, &color, x, y + 7, 12, 12);
      pango_layout_set_text (self->small_text, label, -1);
      pango_layout_get_pixel_size (self->small_text, &w, &h);
      append_text (self, snapshot, self->small_text, label, x + 16, y + (SMPROF_TIMELINE_LEGEND_HEIGHT - h) / 2.0, &self->fg);
      x += 16 + w + 14;
    }

  x += 6;
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      const char *label = phase_label (phases[i]);
      GdkRGBA block = self->fg;

      block.alpha = 0.25;
      append_rect (snapshot, &block, x, y + 9, 12, 8);
      draw_phase_tick (self, snapshot, phases[i], phases[i] == SMPROF_PHASE_STEP_END ? x + 11 : x + 1, y + 9, 8);
      pango_layout_set_text (self->small_text, label, -1);
      pango_layout_get_pixel_size (self->small_text, &w, &h);
      append_text (self, snapshot, self->small_text, label, x + 16, y + (SMPROF_TIMELINE_LEGEND_HEIGHT - h) / 2.0, &self->fg);
      x += 16 + w + 14;
    }

  gtk_snapshot_pop (snapshot);
}

static void
update_style (SmprofTimeline *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GdkRGBA fg;
  gboolean dark;

  gtk_style_context_get_color (context, &fg);
  dark = luminance (&fg) > 0.5;

  if (!gdk_rgba_equal (&fg, &self->fg) || dark != self->dark)
    {
      self->fg = fg;
      self->dark = dark;
      self->blocks_generation++;
      self->overlay_generation++;
    }
}

static void
smprof_timeline_snapshot (GtkWidget   *widget,
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
      append_text (self, snapshot, self->text, _("No intervals to show"),
                   floor ((width - w) / 2), floor (SMPROF_TIMELINE_RULER_HEIGHT + (rows_height - h) / 2), &dim);
      draw_legend (self, snapshot);
      return;
    }

  draw_row_labels (self, snapshot, rows_height);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (vp.x, SMPROF_TIMELINE_RULER_HEIGHT,
                                                         width - vp.x, rows_height));

  ensure_blocks (self, &vp, rows_height);
  cache_append (&self->blocks, snapshot, &vp, self->vscroll);
  ensure_overlay (self, &vp, rows_height);
  cache_append (&self->overlay, snapshot, &vp, self->vscroll);

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
        colors[i] = accent_color (self, 1);
      graphene_rect_inset (&rect, -4, -4);
      gsk_rounded_rect_init_from_rect (&outline, &rect, 3);
      gtk_snapshot_append_border (snapshot, &outline, widths, colors);
    }

  gtk_snapshot_pop (snapshot);

  draw_ruler (self, snapshot, &vp, rows_height);
  draw_legend (self, snapshot);
}

static char *
describe_boundary (SmprofMode  mode,
                   gint64      step,
                   SmprofPhase phase)
{
  if (step == SMPROF_STEP_ANY_START || step == SMPROF_STEP_INFINITY)
    /* Translators: an interval's end, as in "pre-step-zero, start" */
    return g_strdup_printf (_("%s, %s"), smprof_timeline_get_mode_label (mode), phase_label (phase));

  /* Translators: an interval's end, as in "Train step 3, forward pass end" */
  return g_strdup_printf (_("%s step %" G_GINT64_FORMAT ", %s"),
                          smprof_timeline_get_mode_label (mode), step, phase_label (phase));
}

/* The hover tooltip: node, both ends as mode-step-phase, duration and start,
 * the interval folder name. */
char *
_smprof_timeline_dup_tooltip_markup (const SmprofTimelineItem *item)
{
  const SmprofIntervalName *name = &item->record->name;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *when = NULL;

  from = describe_boundary (name->start_mode, name->start_step, name->start_phase);
  to = describe_boundary (name->end_mode, name->end_step, name->end_phase);
  duration = smprof_ui_format_duration ((name->end_time_us - name->start_time_us) / 1e6);

  /* Translators: an interval's duration and start, as in "12.3 ms, from 1.234567 s"
   * (seconds since the job started) */
  when = g_strdup_printf (_("%s, from %.6f s"), duration, item->start[SMPROF_TIMELINE_AXIS_TIME] / 1e6);
  return g_markup_printf_escaped ("<b>%s</b>\n%s → %s\n%s\n<small>%s</small>",
                                  item->record->node_id, from, to, when, item->record->interval);
}

static gboolean
smprof_timeline_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_tooltip,
                               GtkTooltip *tooltip)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);
  const SmprofTimelineItem *item;
  g_autofree char *markup = NULL;
  graphene_rect_t rect;

  if (keyboard_tooltip)
    item = self->focus_item;
  else
    item = _smprof_timeline_item_at (self, x, y);

  if (item == NULL)
    return FALSE;

  markup = _smprof_timeline_dup_tooltip_markup (item);
  gtk_tooltip_set_markup (tooltip, markup);

  if (_smprof_timeline_get_block_rect (self, item, &rect))
    gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { floor (rect.origin.x), floor (rect.origin.y),
                                                         MAX (1, ceil (rect.size.width)), ceil (rect.size.height) });

  return TRUE;
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
}

/* GObject ----------------------------------------------------------------------- */

static void
smprof_timeline_dispose (GObject *object)
{
  SmprofTimeline *self = (SmprofTimeline *) object;

  cache_clear (&self->blocks);
  cache_clear (&self->overlay);
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

  widget_class->snapshot = smprof_timeline_snapshot;
  widget_class->measure = smprof_timeline_measure;
  widget_class->size_allocate = smprof_timeline_size_allocate;
  widget_class->query_tooltip = smprof_timeline_query_tooltip;

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
  SmprofTimelineAxis axis = current_axis (self);
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
