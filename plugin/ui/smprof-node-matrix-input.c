/* smprof-node-matrix-input.c: pointer, keyboard, tooltips and accessible text of the node matrix
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-node-matrix-private.h"
#include "smprof-ui-format.h"

static char *
dup_ratio (double ratio)
{
  if (isnan (ratio))
    /* Translators: no other node ran this function's steps to compare with */
    return g_strdup (_("no other node to compare with"));
  if (isinf (ratio))
    return g_strdup (_("the other nodes' median is 0"));

  /* Translators: a ratio, as in "×2.35 the other nodes' median" */
  return g_strdup_printf (_("×%.2f the other nodes' median"), ratio);
}

static char *
dup_row_tooltip (SmprofNodeMatrix *self,
                 guint             row)
{
  g_autofree char *node = g_markup_escape_text (_smprof_node_matrix_get_node_id (self, row), -1);
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_append_printf (text, "<b>%s</b>\n", node);
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u step", "%u steps", self->n_steps[row]), self->n_steps[row]);
  g_string_append_c (text, '\n');

  if (_smprof_node_matrix_is_straggler (self, row))
    {
      g_autofree char *steps = g_markup_escape_text (self->straggler_steps[row], -1);
      g_autofree char *rule = g_markup_escape_text (smprof_step_straggler_rule_description (), -1);

      /* Translators: %s lists steps, as in "global 19, global 20" */
      g_string_append_printf (text, _("Straggler at: %s"), steps);
      g_string_append_printf (text, "\n<small>%s</small>\n", rule);
    }
  else
    g_string_append_printf (text, "%s\n", _("Not a straggler at any step"));

  g_string_append (text, _("Click or press Enter to compare this node with the other nodes"));

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * _smprof_node_matrix_dup_tooltip:
 * @row: a node, or -1 for a column header
 * @col: a function column, or -1 for a row header
 *
 * Returns: (transfer full) (nullable): Pango markup
 */
char *
_smprof_node_matrix_dup_tooltip (SmprofNodeMatrix *self,
                                 int               row,
                                 int               col)
{
  g_autofree char *label = NULL;
  g_autofree char *escaped = NULL;

  if (row >= (int) self->n_nodes || col >= (int) _smprof_node_matrix_n_columns (self) || (row < 0 && col < 0))
    return NULL;

  if (col < 0)
    return dup_row_tooltip (self, row);

  label = _smprof_node_matrix_dup_function_label (self, col);
  escaped = g_markup_escape_text (label, -1);
  if (row < 0)
    return g_steal_pointer (&escaped);

  {
    g_autofree char *node = g_markup_escape_text (_smprof_node_matrix_get_node_id (self, row), -1);
    g_autofree char *time = smprof_ui_format_duration (_smprof_node_matrix_get_value (self, row, col));
    g_autofree char *ratio = dup_ratio (_smprof_node_matrix_get_ratio (self, row, col));

    /* Translators: node, function, "12.3 ms" per step, and its ratio to the other nodes */
    return g_strdup_printf (_("<b>%s</b>\n%s\n%s per step\n%s"), node, escaped, time, ratio);
  }
}

static gboolean
smprof_node_matrix_query_tooltip (GtkWidget  *widget,
                                  int         x,
                                  int         y,
                                  gboolean    keyboard,
                                  GtkTooltip *tooltip)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (widget);
  g_autofree char *markup = NULL;
  graphene_rect_t area;
  int row = self->focus_row, col = self->focus_col;

  if (!keyboard && _smprof_node_matrix_hit_test (self, x, y, &row, &col) == SMPROF_NODE_MATRIX_NOWHERE)
    return FALSE;

  markup = _smprof_node_matrix_dup_tooltip (self, row, col);
  if (markup == NULL)
    return FALSE;

  gtk_tooltip_set_markup (tooltip, markup);

  /* A new tooltip as soon as the pointer leaves this cell. */
  _smprof_node_matrix_get_area (self, row, col, &area);
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { area.origin.x, area.origin.y,
                                                       area.size.width, area.size.height });
  return TRUE;
}

static void
set_hover (SmprofNodeMatrix *self,
           int               row,
           int               col)
{
  /* Column headers only explain; they are not outlined. */
  if (row < 0)
    col = -1;

  if (row == self->hover_row && col == self->hover_col)
    return;

  self->hover_row = row;
  self->hover_col = col;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_smprof_node_matrix_hover_at (SmprofNodeMatrix *self,
                              double            x,
                              double            y)
{
  int row, col;

  _smprof_node_matrix_hit_test (self, x, y, &row, &col);
  set_hover (self, row, col);
}

static void
motion_cb (SmprofNodeMatrix         *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *motion)
{
  _smprof_node_matrix_hover_at (self, x, y);
}

static void
leave_cb (SmprofNodeMatrix         *self,
          GtkEventControllerMotion *motion)
{
  set_hover (self, -1, -1);
}

/* The focus cell, and what a screen reader says about it. */
void
_smprof_node_matrix_set_focus (SmprofNodeMatrix *self,
                               int               row,
                               int               col)
{
  g_autofree char *markup = NULL;
  g_autofree char *text = NULL;

  self->focus_row = row;
  self->focus_col = col;
  gtk_widget_queue_draw (GTK_WIDGET (self));

  markup = row >= 0 ? _smprof_node_matrix_dup_tooltip (self, row, col) : NULL;
  if (markup == NULL || !pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL))
    {
      gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      return;
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);
}

/* Clicking a row header compares its node; clicking a cell focuses and activates it. */
void
_smprof_node_matrix_click_at (SmprofNodeMatrix *self,
                              double            x,
                              double            y)
{
  int row, col;
  SmprofNodeMatrixPart part = _smprof_node_matrix_hit_test (self, x, y, &row, &col);

  if (part != SMPROF_NODE_MATRIX_ROW_HEADER && part != SMPROF_NODE_MATRIX_CELL)
    return;

  _smprof_node_matrix_set_focus (self, row, col);
  _smprof_node_matrix_activate (self, row, col);
}

static void
released_cb (SmprofNodeMatrix *self,
             int               n_press,
             double            x,
             double            y,
             GtkGestureClick  *click)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (n_press == 1)
    _smprof_node_matrix_click_at (self, x, y);
}

/* Arrows move the focus cell; column -1, left of the first function, is
 * the row header, so the keyboard reaches "compare this node" too. */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (widget);
  int n_columns = (int) _smprof_node_matrix_n_columns (self);
  int dx, dy;

  if (self->n_nodes == 0)
    return;

  g_variant_get (parameter, "(ii)", &dx, &dy);
  _smprof_node_matrix_set_focus (self,
                                 CLAMP (self->focus_row + dy, 0, (int) self->n_nodes - 1),
                                 CLAMP (self->focus_col + dx, -1, n_columns - 1));
}

static void
activate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (widget);

  _smprof_node_matrix_activate (self, self->focus_row, self->focus_col);
}

void
_smprof_node_matrix_class_init_input (GtkWidgetClass *widget_class)
{
  const struct { guint key; int dx, dy; } moves[] = {
    { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 }, { GDK_KEY_Up, 0, -1 }, { GDK_KEY_Down, 0, 1 },
    { GDK_KEY_KP_Left, -1, 0 }, { GDK_KEY_KP_Right, 1, 0 }, { GDK_KEY_KP_Up, 0, -1 }, { GDK_KEY_KP_Down, 0, 1 },
  };

  widget_class->query_tooltip = smprof_node_matrix_query_tooltip;

  gtk_widget_class_install_action (widget_class, "nodematrix.activate", NULL, activate_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "nodematrix.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "nodematrix.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "nodematrix.activate", NULL);

  /* (dx, dy): dx along the row, dy down the nodes */
  gtk_widget_class_install_action (widget_class, "nodematrix.move", "(ii)", move_action);
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    gtk_widget_class_add_binding_action (widget_class, moves[i].key, 0, "nodematrix.move",
                                         "(ii)", moves[i].dx, moves[i].dy);
}

void
_smprof_node_matrix_init_input (SmprofNodeMatrix *self)
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
}
