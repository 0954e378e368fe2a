/* smprof-timeline-overview.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-overview.h"
#include "smprof-timeline-private.h"
#include "smprof-ui.h"

/* A strip above the timeline with the whole job at once: every shown node
 * as a band of its intervals in their modes' colours (a pixel high or less
 * on a job of hundreds of nodes: a density, not rows), the timeline's view
 * as a window, the rest dimmed. A click or a drag moves the view there;
 * the wheel zooms the timeline around the pointer. The bands are drawn once
 * into an image, dropped when the job, the nodes, the axis, the width or
 * the scale change; the window is drawn fresh on top. (As a render node of
 * rectangles, the bands of 256 nodes were 2,300 of the strip's 2,309 render
 * nodes, which GTK's cairo renderer filled one by one in every frame that
 * drew the strip, as each step of a scroll does: 0.7 ms a frame here.) */

#define OVERVIEW_HEIGHT 30
#define PAD             3

struct _SmprofTimelineOverview
{
  GtkWidget       parent_instance;

  SmprofTimeline *timeline;
  GskRenderNode  *bands;          /* cached, for bands_width and bands_scale */
  int             bands_width;
  int             bands_scale;
  double          extent_start;   /* the axis values the bands cover */
  double          extent_end;

  double          grab_offset;    /* from the pointer to the window's start, axis units */
  gboolean        dragging;
};

G_DEFINE_FINAL_TYPE (SmprofTimelineOverview, smprof_timeline_overview, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
invalidate_bands (SmprofTimelineOverview *self)
{
  g_clear_pointer (&self->bands, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static double
value_to_x (SmprofTimelineOverview *self,
            double                  value)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  return (value - self->extent_start) / MAX (self->extent_end - self->extent_start, 1e-9) * width;
}

static double
x_to_value (SmprofTimelineOverview *self,
            double                  x)
{
  double width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)));

  return self->extent_start + x / width * (self->extent_end - self->extent_start);
}

/* The image the bands are drawn into: opaque colours only, so a rectangle
 * of whole pixels is written as it is, with no blending. A cairo_fill() per
 * run cost more than the runs themselves (2,300 of them at 256 nodes, in
 * the frame that first shows the page). */
typedef struct
{
  guint32 *pixels;
  int      stride;   /* in pixels */
  int      width;    /* in device pixels */
  int      height;
  int      scale;
} Canvas;

static guint32
canvas_pixel (const GdkRGBA *color)
{
  return 0xff000000u |
         (guint32) lround (CLAMP (color->red, 0, 1) * 255) << 16 |
         (guint32) lround (CLAMP (color->green, 0, 1) * 255) << 8 |
         (guint32) lround (CLAMP (color->blue, 0, 1) * 255);
}

/* Fills the rectangle [x0, x1) x [y0, y1), in widget pixels. */
static void
canvas_fill (const Canvas *canvas,
             guint32       pixel,
             double        x0,
             double        x1,
             double        y0,
             double        y1)
{
  /* clamped as doubles: a value past an int's range is not cast */
  int left = (int) CLAMP (x0 * canvas->scale, 0, canvas->width);
  int right = (int) CLAMP (x1 * canvas->scale, 0, canvas->width);
  int top = (int) CLAMP (y0 * canvas->scale, 0, canvas->height);
  int bottom = (int) CLAMP (y1 * canvas->scale, 0, canvas->height);

  for (int y = top; y < bottom; y++)
    {
      guint32 *row = canvas->pixels + (gsize) y * canvas->stride;

      for (int x = left; x < right; x++)
        row[x] = pixel;
    }
}

/* One node's intervals as runs of one colour: intervals closer than a
 * pixel merge, so a node costs a rectangle per pixel column at most. */
static void
append_node_band (SmprofTimelineOverview *self,
                  const Canvas           *canvas,
                  const guint32          *mode_pixels,
                  SmprofTimelineLayout   *layout,
                  guint                   node,
                  SmprofTimelineAxis      axis,
                  double                  y,
                  double                  height)
{
  /* value_to_x(), with the width asked for once */
  double origin = self->extent_start;
  double per_value = canvas->width / (double) canvas->scale / MAX (self->extent_end - self->extent_start, 1e-9);

  for (guint lane = 0; lane < smprof_timeline_layout_get_n_lanes (layout, node); lane++)
    {
      guint n;
      const SmprofTimelineItem *items = smprof_timeline_layout_get_lane (layout, node, lane, &n);
      double run_x0 = 0, run_x1 = -1;
      int run_mode = -1;

      for (guint i = 0; i <= n; i++)
        {
          double x0 = 0, x1 = 0;
          int mode = -1;

          if (i < n)
            {
              x0 = floor ((items[i].start[axis] - origin) * per_value);
              x1 = MAX (x0 + 1, ceil ((items[i].end[axis] - origin) * per_value));
              mode = items[i].mode;
              /* as smprof_timeline_get_mode_color() takes any other */
              if (mode < 0 || mode > SMPROF_MODE_POST_HOOK_CLOSE)
                mode = SMPROF_MODE_GLOBAL;
              if (mode == run_mode && x0 <= run_x1)
                {
                  run_x1 = MAX (run_x1, x1);
                  continue;
                }
            }

          if (run_mode >= 0)
            canvas_fill (canvas, mode_pixels[run_mode], run_x0, run_x1, y, y + height);
          run_x0 = x0;
          run_x1 = x1;
          run_mode = mode;
        }
    }
}

static void
build_bands (SmprofTimelineOverview *self,
             int                     width,
             int                     height,
             int                     scale)
{
  SmprofTimelineLayout *layout = self->timeline != NULL ? smprof_timeline_get_layout (self->timeline) : NULL;
  gboolean dark = smprof_ui_widget_is_dark (GTK_WIDGET (self));
  g_autofree guint *nodes = NULL;
  guint n_nodes = 0;
  guint32 mode_pixels[SMPROF_MODE_POST_HOOK_CLOSE + 1];
  cairo_surface_t *surface;
  Canvas canvas;
  cairo_t *cr;
  SmprofTimelineAxis axis;
  double band;

  self->bands_width = width;
  self->bands_scale = scale;
  if (layout == NULL || (smprof_timeline_get_full_extent (self->timeline, &self->extent_start, &self->extent_end),
                         self->extent_end <= self->extent_start))
    return;

  axis = smprof_timeline_get_align_by_step (self->timeline) ? SMPROF_TIMELINE_AXIS_STEP : SMPROF_TIMELINE_AXIS_TIME;
  nodes = _smprof_timeline_dup_row_nodes (self->timeline, &n_nodes);
  if (n_nodes == 0)
    return;

  for (guint mode = 0; mode < G_N_ELEMENTS (mode_pixels); mode++)
    {
      GdkRGBA color;

      smprof_timeline_get_mode_color (mode, dark, &color);
      mode_pixels[mode] = canvas_pixel (&color);
    }

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return;
    }
  cairo_surface_set_device_scale (surface, scale, scale);
  cairo_surface_flush (surface);
  canvas = (Canvas) {
    (guint32 *) (gpointer) cairo_image_surface_get_data (surface),
    cairo_image_surface_get_stride (surface) / 4,
    width * scale,
    height * scale,
    scale,
  };

  /* Bands share the height; with more nodes than pixels they overlap, and
   * what shows is where any node is busy. */
  band = MAX (1, (double) (height - 2 * PAD) / n_nodes);
  for (guint i = 0; i < n_nodes; i++)
    {
      double y = PAD + floor ((double) i * (height - 2 * PAD - band) / MAX (1, n_nodes - 1));

      if (n_nodes == 1)
        y = PAD;
      append_node_band (self, &canvas, mode_pixels, layout, nodes[i], axis, y,
                        MAX (1, floor (band - (band >= 4 ? 1 : 0))));
    }
  cairo_surface_mark_dirty (surface);

  /* A cairo node that paints the image, as the timeline's tiles are
   * (smprof-timeline-raster.c): the cairo renderer replays it as one copy. */
  self->bands = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cr = gsk_cairo_node_get_draw_context (self->bands);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
smprof_timeline_overview_snapshot (GtkWidget   *widget,
                                   GtkSnapshot *snapshot)
{
  SmprofTimelineOverview *self = SMPROF_TIMELINE_OVERVIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  double view_start, view_end, x0, x1;
  GdkRGBA shade, edge;

  if (self->timeline == NULL || width <= 0)
    return;

  if (self->bands == NULL || self->bands_width != width || self->bands_scale != scale)
    {
      g_clear_pointer (&self->bands, gsk_render_node_unref);
      build_bands (self, width, height, scale);
    }
  if (self->bands != NULL)
    gtk_snapshot_append_node (snapshot, self->bands);

  /* The timeline's view: the rest dimmed, the window outlined. */
  smprof_timeline_get_visible_range (self->timeline, &view_start, &view_end);
  x0 = CLAMP (value_to_x (self, view_start), 0, width);
  x1 = CLAMP (value_to_x (self, view_end), 0, width);
  if (x1 - x0 < 3)
    {
      x0 = MAX (0, (x0 + x1) / 2 - 1.5);
      x1 = x0 + 3;
    }

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &edge);
  shade = smprof_ui_widget_is_dark (widget) ? (GdkRGBA) { 0, 0, 0, 0.55 } : (GdkRGBA) { 1, 1, 1, 0.6 };
  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (0, 0, x0, height));
  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (x1, 0, width - x1, height));
  edge.alpha = 0.8;
  gtk_snapshot_append_border (snapshot,
                              &GSK_ROUNDED_RECT_INIT (x0, 0.5, x1 - x0, height - 1),
                              (const float[4]) { 1.5, 1.5, 1.5, 1.5 },
                              (const GdkRGBA[4]) { edge, edge, edge, edge });
}

static void
smprof_timeline_overview_measure (GtkWidget      *widget,
                                  GtkOrientation  orientation,
                                  int             for_size,
                                  int            *minimum,
                                  int            *natural,
                                  int            *minimum_baseline,
                                  int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 100;
  else
    *minimum = *natural = OVERVIEW_HEIGHT;
}

/* ------------------------------------------------------------------------ */
/* Input                                                                    */

/* Puts the view's window at @x: its middle there, or (dragging) where it was
 * grabbed. */
static void
move_view_to (SmprofTimelineOverview *self,
              double                  x)
{
  double view_start, view_end, span, start;

  smprof_timeline_get_visible_range (self->timeline, &view_start, &view_end);
  span = view_end - view_start;
  start = x_to_value (self, x) - self->grab_offset;
  smprof_timeline_set_visible_range (self->timeline, start, start + span);
}

static void
drag_begin_cb (GtkGestureDrag         *gesture,
               double                  x,
               double                  y,
               SmprofTimelineOverview *self)
{
  double view_start, view_end, value = x_to_value (self, x);

  if (self->timeline == NULL)
    return;

  smprof_timeline_get_visible_range (self->timeline, &view_start, &view_end);
  /* Inside the window: grab it where pressed; outside: centre it there. */
  self->grab_offset = value >= view_start && value <= view_end ? value - view_start : (view_end - view_start) / 2;
  self->dragging = TRUE;
  move_view_to (self, x);
}

static void
drag_update_cb (GtkGestureDrag         *gesture,
                double                  dx,
                double                  dy,
                SmprofTimelineOverview *self)
{
  double x, y;

  if (self->timeline == NULL || !self->dragging)
    return;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  move_view_to (self, x + dx);
}

static void
drag_end_cb (GtkGestureDrag         *gesture,
             double                  dx,
             double                  dy,
             SmprofTimelineOverview *self)
{
  self->dragging = FALSE;
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SmprofTimelineOverview   *self)
{
  if (self->timeline == NULL || dy == 0)
    return FALSE;

  if (dy < 0)
    smprof_timeline_zoom_in (self->timeline);
  else
    smprof_timeline_zoom_out (self->timeline);

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
smprof_timeline_overview_dispose (GObject *object)
{
  SmprofTimelineOverview *self = SMPROF_TIMELINE_OVERVIEW (object);

  smprof_timeline_overview_set_timeline (self, NULL);
  g_clear_pointer (&self->bands, gsk_render_node_unref);

  G_OBJECT_CLASS (smprof_timeline_overview_parent_class)->dispose (object);
}

static void
smprof_timeline_overview_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  SmprofTimelineOverview *self = SMPROF_TIMELINE_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_timeline_overview_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  SmprofTimelineOverview *self = SMPROF_TIMELINE_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      smprof_timeline_overview_set_timeline (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_timeline_overview_css_changed (GtkWidget         *widget,
                                      GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (smprof_timeline_overview_parent_class)->css_changed (widget, change);

  invalidate_bands (SMPROF_TIMELINE_OVERVIEW (widget));
}

static void
smprof_timeline_overview_class_init (SmprofTimelineOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_timeline_overview_dispose;
  object_class->get_property = smprof_timeline_overview_get_property;
  object_class->set_property = smprof_timeline_overview_set_property;

  widget_class->snapshot = smprof_timeline_overview_snapshot;
  widget_class->measure = smprof_timeline_overview_measure;
  widget_class->css_changed = smprof_timeline_overview_css_changed;

  /**
   * SmprofTimelineOverview:timeline: (nullable)
   *
   * The timeline whose job it shows and whose view it moves.
   */
  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, SMPROF_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "smproftimelineoverview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
smprof_timeline_overview_init (SmprofTimelineOverview *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL |
                                                                GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);

  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _("The whole job: click or drag to move the timeline’s view, scroll to zoom"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Overview of the whole job"), -1);
}

GtkWidget *
smprof_timeline_overview_new (void)
{
  return g_object_new (SMPROF_TYPE_TIMELINE_OVERVIEW, NULL);
}

SmprofTimeline *
smprof_timeline_overview_get_timeline (SmprofTimelineOverview *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_OVERVIEW (self), NULL);

  return self->timeline;
}

static void
view_changed_cb (SmprofTimelineOverview *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * smprof_timeline_overview_set_timeline:
 * @self: an overview
 * @timeline: (nullable): the timeline to follow
 */
void
smprof_timeline_overview_set_timeline (SmprofTimelineOverview *self,
                                       SmprofTimeline         *timeline)
{
  g_return_if_fail (SMPROF_IS_TIMELINE_OVERVIEW (self));
  g_return_if_fail (timeline == NULL || SMPROF_IS_TIMELINE (timeline));

  if (self->timeline == timeline)
    return;

  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  g_set_object (&self->timeline, timeline);

  if (timeline != NULL)
    {
      /* the bands: the job, the profiler, the nodes, the axis, the rows */
      g_signal_connect_swapped (timeline, "notify::job", G_CALLBACK (invalidate_bands), self);
      g_signal_connect_swapped (timeline, "notify::profiler", G_CALLBACK (invalidate_bands), self);
      g_signal_connect_swapped (timeline, "notify::visible-nodes", G_CALLBACK (invalidate_bands), self);
      g_signal_connect_swapped (timeline, "notify::align-by-step", G_CALLBACK (invalidate_bands), self);
      g_signal_connect_swapped (timeline, "notify::natural-height", G_CALLBACK (invalidate_bands), self);
      /* the window */
      g_signal_connect_swapped (timeline, "view-changed", G_CALLBACK (view_changed_cb), self);
    }

  invalidate_bands (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

/**
 * smprof_timeline_overview_get_window:
 * @self: an overview
 * @x0: (out): where the timeline's view starts, in the overview's pixels
 * @x1: (out): where it ends
 *
 * For the tests: where the window is drawn.
 *
 * Returns: whether there is one (a job shown)
 */
gboolean
smprof_timeline_overview_get_window (SmprofTimelineOverview *self,
                                     double                 *x0,
                                     double                 *x1)
{
  double view_start, view_end;

  g_return_val_if_fail (SMPROF_IS_TIMELINE_OVERVIEW (self), FALSE);

  if (self->timeline == NULL || smprof_timeline_get_layout (self->timeline) == NULL)
    return FALSE;

  smprof_timeline_get_full_extent (self->timeline, &self->extent_start, &self->extent_end);
  smprof_timeline_get_visible_range (self->timeline, &view_start, &view_end);
  *x0 = value_to_x (self, view_start);
  *x1 = value_to_x (self, view_end);

  return TRUE;
}
