/* smprof-timeline-input.c: pointer, wheel, keyboard and actions of SmprofTimeline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-private.h"

#define WHEEL_ZOOM_FACTOR 1.25

typedef enum
{
  MOVE_SELECT,       /* arrows: the focus interval becomes the selection */
  MOVE_EXTEND,       /* Shift+arrows: the selection grows to the focus interval */
  MOVE_FOCUS_ONLY,   /* Ctrl+arrows: only the focus moves */
} MoveHow;

static double
clamped_value (SmprofTimeline *self,
               double          x)
{
  SmprofTimelineViewport vp;

  _smprof_timeline_get_viewport (self, &vp);

  return smprof_timeline_viewport_x_to_value (&vp, CLAMP (x, vp.x, vp.x + vp.width));
}

/* Drag to select ----------------------------------------------------------------- */

/* What the primary-button drag gesture calls; the tests call it too. A drag
 * shorter than SMPROF_TIMELINE_DRAG_THRESHOLD pixels is a click. With @extend
 * (Shift), the end of the current selection nearest the pointer follows it. */
void
_smprof_timeline_drag_begin (SmprofTimeline *self,
                             double          x,
                             double          y,
                             gboolean        extend)
{
  double value = clamped_value (self, x);
  double start, end;

  self->drag_pending = TRUE;
  self->dragging = FALSE;
  self->drag_extend = extend;
  self->drag_x = x;
  self->drag_y = y;
  self->drag_anchor = value;
  self->drag_value = value;

  if (extend && _smprof_timeline_selection_span (self, &start, &end))
    self->drag_anchor = fabs (value - start) < fabs (value - end) ? end : start;
}

void
_smprof_timeline_drag_update (SmprofTimeline *self,
                              double          x,
                              double          y)
{
  if (!self->drag_pending)
    return;

  if (!self->dragging)
    {
      if (fabs (x - self->drag_x) < SMPROF_TIMELINE_DRAG_THRESHOLD)
        return;
      self->dragging = TRUE;
    }

  self->drag_value = clamped_value (self, x);
  _smprof_timeline_invalidate_overlay (self);
}

void
_smprof_timeline_drag_end (SmprofTimeline *self,
                           double          x,
                           double          y)
{
  if (!self->drag_pending)
    return;

  _smprof_timeline_drag_update (self, x, y);
  self->drag_pending = FALSE;

  if (self->dragging)
    {
      double start = MIN (self->drag_anchor, self->drag_value);
      double end = MAX (self->drag_anchor, self->drag_value);

      self->dragging = FALSE;
      _smprof_timeline_commit_range (self, start, end, NULL, 0);
      _smprof_timeline_invalidate_overlay (self);
      return;
    }

  /* A click; on an outlier's mark, it opens the comparison instead */
  if (!self->drag_extend && _smprof_timeline_outliers_click (self, self->drag_x, self->drag_y))
    return;

  {
    const SmprofTimelineItem *item = _smprof_timeline_item_at (self, self->drag_x, self->drag_y);

    if (item != NULL)
      {
        if (self->drag_extend)
          _smprof_timeline_extend_to_item (self, item);
        else
          _smprof_timeline_select_item (self, item);
        _smprof_timeline_set_focus_item (self, item, FALSE);
      }
    else if (!self->drag_extend && _smprof_timeline_row_at_y (self, self->drag_y, NULL) >= 0)
      smprof_timeline_clear_selection (self);
  }
}

static void
select_drag_begin_cb (SmprofTimeline *self,
                      double          x,
                      double          y,
                      GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  double rows_end = SMPROF_TIMELINE_RULER_HEIGHT + _smprof_timeline_rows_height (self);

  /* From the plot or the ruler, not from the node labels or the legend */
  if (self->layout == NULL || x < self->label_width || y >= rows_end)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  gtk_widget_grab_focus (GTK_WIDGET (self));
  _smprof_timeline_drag_begin (self, x, y, (state & GDK_SHIFT_MASK) != 0);
}

static void
select_drag_update_cb (SmprofTimeline *self,
                       double          offset_x,
                       double          offset_y,
                       GtkGestureDrag *gesture)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  _smprof_timeline_drag_update (self, x + offset_x, y + offset_y);
  if (self->dragging)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
select_drag_end_cb (SmprofTimeline *self,
                    double          offset_x,
                    double          offset_y,
                    GtkGestureDrag *gesture)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  _smprof_timeline_drag_end (self, x + offset_x, y + offset_y);
}

/* Middle-button drag pans ----------------------------------------------------------- */

static void
pan_begin_cb (SmprofTimeline *self,
              double          x,
              double          y,
              GtkGestureDrag *gesture)
{
  self->pan_start = self->view_start;
  self->pan_vscroll = self->vscroll;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
pan_update_cb (SmprofTimeline *self,
               double          offset_x,
               double          offset_y,
               GtkGestureDrag *gesture)
{
  SmprofTimelineViewport vp;

  _smprof_timeline_get_viewport (self, &vp);
  _smprof_timeline_set_view (self, self->pan_start - offset_x * vp.span / vp.width, vp.span);
  _smprof_timeline_set_vscroll (self, self->pan_vscroll - offset_y);
}

/* Hover --------------------------------------------------------------------------- */

static void
motion_cb (SmprofTimeline           *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
  _smprof_timeline_set_hover_item (self, _smprof_timeline_item_at (self, x, y));
}

static void
leave_cb (SmprofTimeline           *self,
          GtkEventControllerMotion *controller)
{
  self->pointer_inside = FALSE;
  _smprof_timeline_set_hover_item (self, NULL);
}

/* Wheel: Ctrl zooms around the pointer; otherwise pan in time (Shift, or a
 * horizontal wheel); a vertical wheel scrolls the rows when they do not fit. */
static gboolean
scroll_cb (SmprofTimeline           *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;
  SmprofTimelineViewport vp;
  double pan_px = 0;

  if (self->layout == NULL)
    return FALSE;

  _smprof_timeline_get_viewport (self, &vp);

  if (state & GDK_CONTROL_MASK)
    {
      double factor = wheel ? pow (WHEEL_ZOOM_FACTOR, -dy) : exp (-dy * 0.01);
      double value;

      if (self->pointer_inside && self->pointer_x >= vp.x)
        value = smprof_timeline_viewport_x_to_value (&vp, MIN (self->pointer_x, vp.x + vp.width));
      else
        value = vp.start + vp.span / 2;

      _smprof_timeline_zoom_around (self, factor, value);
      return TRUE;
    }

  if ((state & GDK_SHIFT_MASK) && dx == 0)
    {
      dx = dy;
      dy = 0;
    }

  pan_px += wheel ? dx * vp.width * 0.1 : dx;

  if (dy != 0)
    {
      if (self->content_height > _smprof_timeline_rows_height (self))
        _smprof_timeline_set_vscroll (self, self->vscroll + (wheel ? dy * 3 * self->metrics.lane_height : dy));
      else
        pan_px += wheel ? dy * vp.width * 0.1 : dy;
    }

  if (pan_px != 0)
    _smprof_timeline_set_view (self, vp.start + pan_px * vp.span / vp.width, vp.span);

  return TRUE;
}

static void
focus_changed_cb (SmprofTimeline          *self,
                  GtkEventControllerFocus *controller)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Keyboard ------------------------------------------------------------------------ */

static const SmprofTimelineItem *
first_shown_item (SmprofTimeline *self)
{
  const SmprofTimelineRow *row;
  guint lane = 0;
  int r;

  r = _smprof_timeline_row_at_y (self, SMPROF_TIMELINE_RULER_HEIGHT + 1, &lane);
  if (r < 0)
    r = 0;
  if ((guint) r >= self->rows->len)
    return NULL;

  row = &g_array_index (self->rows, SmprofTimelineRow, r);

  return smprof_timeline_layout_nearest (self->layout, row->node, _smprof_timeline_axis (self), self->view_start);
}

/* Arguments "(iii)": items to move along the lane (±1, or ±2 for the first
 * and last), rows to move (±1), and a MoveHow. */
static gboolean
move_cb (GtkWidget *widget,
         GVariant  *args,
         gpointer   user_data)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  const SmprofTimelineItem *item = self->focus_item;
  int dx, dy, how;

  g_variant_get (args, "(iii)", &dx, &dy, &how);

  if (self->layout == NULL || self->rows->len == 0)
    return FALSE;

  if (item == NULL)
    item = first_shown_item (self);
  else
    {
      if (dx != 0)
        {
          const SmprofTimelineItem *items;
          guint n, index;

          items = smprof_timeline_layout_get_lane (self->layout, item->node, item->lane, &n);
          index = item - items;
          if (dx == -2)
            index = 0;
          else if (dx == 2)
            index = n - 1;
          else if (dx < 0)
            index = index > 0 ? index - 1 : 0;
          else
            index = MIN (index + 1, n - 1);
          item = &items[index];
        }

      if (dy != 0)
        {
          int row = _smprof_timeline_row_of_node (self, item->node) + dy;

          row = CLAMP (row, 0, (int) self->rows->len - 1);
          item = smprof_timeline_layout_nearest (self->layout,
                                                 g_array_index (self->rows, SmprofTimelineRow, row).node,
                                                 axis, (item->start[axis] + item->end[axis]) / 2);
        }
    }

  if (item == NULL)
    return FALSE;

  _smprof_timeline_set_focus_item (self, item, TRUE);

  switch ((MoveHow) how)
    {
    case MOVE_SELECT:
      _smprof_timeline_select_item (self, item);
      break;

    case MOVE_EXTEND:
      _smprof_timeline_extend_to_item (self, item);
      break;

    case MOVE_FOCUS_ONLY:
    default:
      break;
    }

  return TRUE;
}

/* Space and Enter select the focus interval. */
static gboolean
activate_cb (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);
  const SmprofTimelineItem *item = self->focus_item;

  if (self->layout == NULL)
    return FALSE;
  if (item == NULL)
    item = first_shown_item (self);
  if (item == NULL)
    return FALSE;

  _smprof_timeline_set_focus_item (self, item, TRUE);
  _smprof_timeline_select_item (self, item);

  return TRUE;
}

/* Actions -------------------------------------------------------------------------- */

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  smprof_timeline_zoom_in (SMPROF_TIMELINE (widget));
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  smprof_timeline_zoom_out (SMPROF_TIMELINE (widget));
}

static void
zoom_reset_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  smprof_timeline_zoom_reset (SMPROF_TIMELINE (widget));
}

static void
zoom_to_selection_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  smprof_timeline_zoom_to_selection (SMPROF_TIMELINE (widget));
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  smprof_timeline_clear_selection (SMPROF_TIMELINE (widget));
}

static void
select_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SmprofSelection all = { .kind = SMPROF_SELECT_ALL };

  smprof_timeline_set_selection (SMPROF_TIMELINE (widget), &all, NULL);
}

static void
add_move_bindings (GtkWidgetClass *widget_class,
                   guint           keyval,
                   guint           kp_keyval,
                   int             dx,
                   int             dy)
{
  static const struct { GdkModifierType mods; MoveHow how; } variants[] = {
    { 0, MOVE_SELECT },
    { GDK_SHIFT_MASK, MOVE_EXTEND },
    { GDK_CONTROL_MASK, MOVE_FOCUS_ONLY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      gtk_widget_class_add_binding (widget_class, keyval, variants[i].mods, move_cb,
                                    "(iii)", dx, dy, (int) variants[i].how);
      gtk_widget_class_add_binding (widget_class, kp_keyval, variants[i].mods, move_cb,
                                    "(iii)", dx, dy, (int) variants[i].how);
    }
}

void
_smprof_timeline_class_input_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-reset", NULL, zoom_reset_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-to-selection", NULL, zoom_to_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-all", NULL, select_all_action);
  gtk_widget_class_install_property_action (widget_class, "timeline.align-by-step", "align-by-step");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, GDK_CONTROL_MASK, "timeline.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "timeline.zoom-to-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK, "timeline.zoom-to-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "timeline.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.align-by-step", NULL);

  add_move_bindings (widget_class, GDK_KEY_Left, GDK_KEY_KP_Left, -1, 0);
  add_move_bindings (widget_class, GDK_KEY_Right, GDK_KEY_KP_Right, 1, 0);
  add_move_bindings (widget_class, GDK_KEY_Up, GDK_KEY_KP_Up, 0, -1);
  add_move_bindings (widget_class, GDK_KEY_Down, GDK_KEY_KP_Down, 0, 1);
  add_move_bindings (widget_class, GDK_KEY_Home, GDK_KEY_KP_Home, -2, 0);
  add_move_bindings (widget_class, GDK_KEY_End, GDK_KEY_KP_End, 2, 0);

  gtk_widget_class_add_binding (widget_class, GDK_KEY_space, 0, activate_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Return, 0, activate_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Enter, 0, activate_cb, NULL);
}

void
_smprof_timeline_input_init (SmprofTimeline *self)
{
  GtkGesture *gesture;
  GtkEventController *controller;

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (select_drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (select_drag_update_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-end", G_CALLBACK (select_drag_end_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_MIDDLE);
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (pan_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (pan_update_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (controller, "enter", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "motion", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_focus_new ();
  g_signal_connect_object (controller, "enter", G_CALLBACK (focus_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (focus_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
