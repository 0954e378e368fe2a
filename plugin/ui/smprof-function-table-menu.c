/* smprof-function-table-menu.c: the function table's context menu, and the
 * columns a profile has
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-function-item.h"
#include "smprof-function-menu.h"
#include "smprof-function-table-private.h"
#include "smprof-item-cell.h"

/* Pyinstrument counts no calls, nor does a profile after a focus: a column
 * of dashes says nothing, so the call counts and the per-call times go. */
void
_smprof_function_table_update_count_columns (SmprofFunctionTable *self)
{
  GtkColumnViewColumn *columns[] = {
    self->ncalls_column, self->tottime_percall_column, self->cumtime_percall_column,
    self->callers_ncalls_column, self->callees_ncalls_column,
  };
  gboolean counted = FALSE;

  for (guint i = 0; self->profile != NULL && i < smprof_profile_get_n_functions (self->profile) && !counted; i++)
    counted = smprof_profile_get_function (self->profile, i)->ncalls >= 0;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    gtk_column_view_column_set_visible (columns[i], counted || self->profile == NULL);
}

static void
popup_menu (SmprofFunctionTable   *self,
            SmprofFunctionItem    *item,
            const graphene_rect_t *at)
{
  SmprofFunctionKeys *table;
  g_autoptr(GMenuModel) model = NULL;

  if (self->profile == NULL)
    return;

  table = smprof_job_get_function_keys (smprof_profile_get_job (self->profile));
  model = smprof_function_menu_new (table, smprof_function_item_get_func (item), NULL, 0);
  smprof_function_menu_popup (GTK_WIDGET (self), model, at);
}

static void
select_in (GtkSingleSelection *selection,
           SmprofFunctionItem *item)
{
  GListModel *model = G_LIST_MODEL (selection);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SmprofFunctionItem) at = g_list_model_get_item (model, i);

      if (at == item)
        {
          gtk_single_selection_set_selected (selection, i);
          return;
        }
    }
}

/* A secondary click on any cell of a row: that row's function, selected. */
static void
secondary_pressed_cb (GtkGestureClick *click,
                      int              n_press,
                      double           x,
                      double           y,
                      gpointer         user_data)
{
  SmprofFunctionTable *self = user_data;
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (click));
  GtkWidget *picked = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);
  g_autoptr(GObject) item = picked != NULL ? smprof_item_cell_find_item (picked) : NULL;
  GtkSelectionModel *selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (view));
  graphene_point_t at;

  if (item == NULL || !SMPROF_IS_FUNCTION_ITEM (item))
    return;

  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
  if (GTK_IS_SINGLE_SELECTION (selection))
    select_in (GTK_SINGLE_SELECTION (selection), SMPROF_FUNCTION_ITEM (item));
  if (!gtk_widget_compute_point (view, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &at))
    at = GRAPHENE_POINT_INIT (x, y);
  popup_menu (self, SMPROF_FUNCTION_ITEM (item), &GRAPHENE_RECT_INIT (at.x, at.y, 1, 1));
}

/* The Menu key, Shift+F10: the selected row of the list that has the focus
 * (the functions, or the callers or callees of one). */
static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofFunctionTable *self = SMPROF_FUNCTION_TABLE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkSingleSelection *selection = self->selection;
  SmprofFunctionItem *item;
  graphene_rect_t bounds;

  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->callers_view)))
    selection = self->callers_selection;
  else if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->callees_view)))
    selection = self->callees_selection;

  item = gtk_single_selection_get_selected_item (selection);
  if (item == NULL)
    return;

  if (focus != NULL && gtk_widget_is_ancestor (focus, widget) && gtk_widget_compute_bounds (focus, widget, &bounds))
    popup_menu (self, item, &bounds);
  else
    popup_menu (self, item, NULL);
}

void
_smprof_function_table_class_init_menu (GtkWidgetClass *widget_class)
{
  g_type_ensure (SMPROF_TYPE_ITEM_CELL);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callers_ncalls_column);
  gtk_widget_class_bind_template_child (widget_class, SmprofFunctionTable, callees_ncalls_column);
  smprof_function_menu_install_actions (widget_class, menu_action);
}

void
_smprof_function_table_init_menu (SmprofFunctionTable *self)
{
  GtkColumnView *views[] = { self->column_view, self->callers_view, self->callees_view };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkGesture *click = gtk_gesture_click_new ();

      gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
      g_signal_connect_object (click, "pressed", G_CALLBACK (secondary_pressed_cb), self, 0);
      gtk_widget_add_controller (GTK_WIDGET (views[i]), GTK_EVENT_CONTROLLER (click));
    }
}
