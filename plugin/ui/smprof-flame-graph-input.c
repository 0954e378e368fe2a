/* smprof-flame-graph-input.c: pointer, keyboard and tooltip of the flame graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-flame-graph-private.h"
#include "smprof-function-menu.h"

static gboolean
smprof_flame_graph_query_tooltip (GtkWidget  *widget,
                                  int         x,
                                  int         y,
                                  gboolean    keyboard,
                                  GtkTooltip *tooltip)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);
  int index = keyboard ? self->selected_rect : _smprof_flame_graph_hit_test (self, x, y);
  g_autofree char *markup = NULL;
  graphene_rect_t area;

  if (index < 0)
    return FALSE;

  markup = _smprof_flame_graph_dup_details (self, smprof_flame_layout_get_rect (self->layout, index)->node, TRUE);
  gtk_tooltip_set_markup (tooltip, markup);

  /* A new tooltip as soon as the pointer leaves this frame. */
  if (_smprof_flame_graph_get_rect_area (self, index, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &area))
    gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { area.origin.x, area.origin.y,
                                                         area.size.width, area.size.height });

  return TRUE;
}

static void
motion_cb (SmprofFlameGraph         *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *motion)
{
  _smprof_flame_graph_set_hover_rect (self, _smprof_flame_graph_hit_test (self, x, y));
}

static void
leave_cb (SmprofFlameGraph         *self,
          GtkEventControllerMotion *motion)
{
  _smprof_flame_graph_set_hover_rect (self, -1);
}

/* A click zooms into a frame; a click on the zoomed frame itself zooms out
 * to its caller. */
static void
released_cb (SmprofFlameGraph *self,
             int               n_press,
             double            x,
             double            y,
             GtkGestureClick  *click)
{
  int index = _smprof_flame_graph_hit_test (self, x, y);
  const SmprofFlameRect *rect;

  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (index < 0 || n_press != 1)
    return;

  rect = smprof_flame_layout_get_rect (self->layout, index);
  _smprof_flame_graph_select_rect (self, index);

  if (rect->node == smprof_flame_graph_get_zoom_node (self))
    {
      guint32 parent = smprof_call_tree_get_node (_smprof_flame_graph_get_tree (self), rect->node)->parent;

      smprof_flame_graph_zoom_to_node (self, parent);
    }
  else
    smprof_flame_graph_zoom_to_node (self, rect->node);
}

static gboolean
rect_is_visible (SmprofFlameGraph *self,
                 guint             index)
{
  graphene_rect_t area;

  return _smprof_flame_graph_get_rect_area (self, index,
                        MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1),
                        gtk_widget_get_height (GTK_WIDGET (self)),
                        &area);
}

/* Arrows: Left/Right along a row, Up to the first callee (rows grow upward),
 * Down to the caller. Frames too narrow to see are skipped. */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);
  int dx, dy;
  int current = self->selected_rect;
  int target = -1;
  guint first, n;

  if (self->layout == NULL || smprof_flame_layout_get_n_rects (self->layout) == 0)
    return;

  g_variant_get (parameter, "(ii)", &dx, &dy);

  if (current < 0)
    {
      _smprof_flame_graph_select_rect (self, 0);
      return;
    }

  smprof_flame_layout_get_row (self->layout, smprof_flame_layout_get_rect (self->layout, current)->depth,
                               &first, &n);

  if (dx != 0)
    {
      for (int i = current + dx; i >= (int) first && i < (int) (first + n); i += dx)
        if (rect_is_visible (self, i))
          {
            target = i;
            break;
          }
    }
  else if (dy < 0)
    target = smprof_flame_layout_get_parent (self->layout, current);
  else if (dy > 0)
    {
      smprof_flame_layout_get_row (self->layout, smprof_flame_layout_get_rect (self->layout, current)->depth + 1,
                                   &first, &n);
      for (guint i = first; i < first + n; i++)
        if (smprof_flame_layout_get_parent (self->layout, i) == current && rect_is_visible (self, i))
          {
            target = i;
            break;
          }
    }

  if (target >= 0)
    _smprof_flame_graph_select_rect (self, target);
}

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);

  if (self->selected_node != SMPROF_CALL_TREE_NONE)
    smprof_flame_graph_zoom_to_node (self, self->selected_node);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  smprof_flame_graph_zoom_out (SMPROF_FLAME_GRAPH (widget));
}

static void
reset_zoom_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  smprof_flame_graph_reset_zoom (SMPROF_FLAME_GRAPH (widget));
}

/* The menu of frame @index's function, pointing at the frame. */
static void
popup_menu (SmprofFlameGraph *self,
            int               index)
{
  SmprofCallTree *tree = _smprof_flame_graph_get_tree (self);
  guint32 node = smprof_flame_layout_get_rect (self->layout, index)->node;
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GMenuModel) model = NULL;
  graphene_rect_t area;

  for (guint32 up = node; up != SMPROF_CALL_TREE_ROOT; up = smprof_call_tree_get_node (tree, up)->parent)
    g_array_prepend_val (path, smprof_call_tree_get_node (tree, up)->func);

  model = smprof_function_menu_new (smprof_call_tree_get_table (tree), smprof_call_tree_get_node (tree, node)->func,
                                    (const guint32 *) (gpointer) path->data, path->len);
  if (_smprof_flame_graph_get_rect_area (self, index, gtk_widget_get_width (GTK_WIDGET (self)),
                                         gtk_widget_get_height (GTK_WIDGET (self)), &area))
    smprof_function_menu_popup (GTK_WIDGET (self), model, &area);
  else
    smprof_function_menu_popup (GTK_WIDGET (self), model, NULL);
}

/* A secondary click on a frame selects it and opens its menu. */
static void
secondary_pressed_cb (SmprofFlameGraph *self,
                      int               n_press,
                      double            x,
                      double            y,
                      GtkGestureClick  *click)
{
  int index = _smprof_flame_graph_hit_test (self, x, y);

  if (index < 0)
    return;

  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  _smprof_flame_graph_select_rect (self, index);
  popup_menu (self, index);
}

/* The Menu key, Shift+F10: the selected frame's menu. */
static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);

  if (self->layout != NULL && self->selected_rect >= 0)
    popup_menu (self, self->selected_rect);
}

void
_smprof_flame_graph_hover_at (SmprofFlameGraph *self,
                              double            x,
                              double            y)
{
  _smprof_flame_graph_set_hover_rect (self, _smprof_flame_graph_hit_test (self, x, y));
}

/* Everything the flame graph does on input, installed on its class. */
void
_smprof_flame_graph_class_init_input (GtkWidgetClass *widget_class)
{
  widget_class->query_tooltip = smprof_flame_graph_query_tooltip;

  smprof_function_menu_install_actions (widget_class, menu_action);

  gtk_widget_class_install_action (widget_class, "flamegraph.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "flamegraph.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "flamegraph.reset-zoom", NULL, reset_zoom_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flamegraph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "flamegraph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "flamegraph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flamegraph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "flamegraph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flamegraph.reset-zoom", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "flamegraph.reset-zoom", NULL);

  /* (dx, dy): dx along the row, dy +1 to a callee (up), -1 to the caller */
  gtk_widget_class_install_action (widget_class, "flamegraph.move", "(ii)", move_action);
  {
    const struct { guint key; int dx, dy; } moves[] = {
      { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 }, { GDK_KEY_Up, 0, 1 }, { GDK_KEY_Down, 0, -1 },
      { GDK_KEY_KP_Left, -1, 0 }, { GDK_KEY_KP_Right, 1, 0 }, { GDK_KEY_KP_Up, 0, 1 }, { GDK_KEY_KP_Down, 0, -1 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
      gtk_widget_class_add_binding_action (widget_class, moves[i].key, 0, "flamegraph.move",
                                           "(ii)", moves[i].dx, moves[i].dy);
  }
}

void
_smprof_flame_graph_init_input (SmprofFlameGraph *self)
{
  GtkEventController *motion;
  GtkGesture *click;

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_object (motion, "motion", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (motion, "leave", G_CALLBACK (leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect_object (click, "released", G_CALLBACK (released_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}
