/* smprof-diff-table.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-core-enums.h"
#include "smprof-diff-export.h"
#include "smprof-diff-item.h"
#include "smprof-diff-table.h"
#include "smprof-function-menu.h"
#include "smprof-item-cell.h"
#include "smprof-ui-format.h"

struct _SmprofDiffTable
{
  GtkWidget          parent_instance;

  SmprofDiff        *diff;
  SmprofDiffMetric   metric;
  double             min_delta;

  GtkSearchEntry    *filter_entry;
  GtkDropDown       *metric_dropdown;
  GtkLabel          *count_label;
  GtkColumnView     *column_view;
  GtkSingleSelection *selection;
  GtkSortListModel  *sort_model;
  GtkFilterListModel *filter_model;
  GtkStringFilter   *string_filter;
  GListStore        *store;
};

enum {
  PROP_0,
  PROP_DIFF,
  PROP_METRIC,
  PROP_MIN_DELTA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofDiffTable, smprof_diff_table, GTK_TYPE_WIDGET)

static void
update_count (SmprofDiffTable *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  guint total = self->diff != NULL ? smprof_diff_get_n_rows (self->diff) : 0;
  g_autofree char *shown_text = smprof_ui_format_count (shown);
  g_autofree char *total_text = smprof_ui_format_count (total);
  g_autofree char *text = NULL;

  /* Translators: functions listed in the comparison, out of all the
   * functions either side ran, as in "120 of 3,456 functions" */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s function", "%s of %s functions", total), shown_text, total_text);
  gtk_label_set_text (self->count_label, text);
}

/* The rows, largest change first either way (the order `smprof diff` prints)
 * until a header is clicked; those under the minimum change are left out. */
static void
rebuild (SmprofDiffTable *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->diff != NULL)
    {
      SmprofFunctionKeys *table = smprof_diff_get_function_keys (self->diff);
      g_autoptr(GArray) order = smprof_diff_sorted (self->diff, self->metric, SMPROF_DIFF_COLUMN_ABS_DELTA);

      for (guint i = 0; i < order->len; i++)
        {
          const SmprofDiffRow *row = smprof_diff_get_row (self->diff, g_array_index (order, guint, i));

          if (smprof_diff_row_passes (row, self->min_delta))
            g_ptr_array_add (items, smprof_diff_item_new (table, row, self->metric));
        }
    }

  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
  update_count (self);
}

static void
filter_changed_cb (SmprofDiffTable *self,
                   GtkSearchEntry  *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  gtk_string_filter_set_search (self->string_filter, text[0] != '\0' ? text : NULL);
  update_count (self);
}

static void
metric_changed_cb (SmprofDiffTable *self)
{
  smprof_diff_table_set_metric (self, gtk_drop_down_get_selected (self->metric_dropdown));
}

static void
smprof_diff_table_dispose (GObject *object)
{
  SmprofDiffTable *self = SMPROF_DIFF_TABLE (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_DIFF_TABLE);
  /* Template children without a bound field are not unparented for us. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->diff);

  G_OBJECT_CLASS (smprof_diff_table_parent_class)->dispose (object);
}

static void
smprof_diff_table_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SmprofDiffTable *self = SMPROF_DIFF_TABLE (object);

  switch (prop_id)
    {
    case PROP_DIFF:
      g_value_set_object (value, self->diff);
      break;
    case PROP_METRIC:
      g_value_set_enum (value, self->metric);
      break;
    case PROP_MIN_DELTA:
      g_value_set_double (value, self->min_delta);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_diff_table_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SmprofDiffTable *self = SMPROF_DIFF_TABLE (object);

  switch (prop_id)
    {
    case PROP_DIFF:
      smprof_diff_table_set_diff (self, g_value_get_object (value));
      break;
    case PROP_METRIC:
      smprof_diff_table_set_metric (self, g_value_get_enum (value));
      break;
    case PROP_MIN_DELTA:
      smprof_diff_table_set_min_delta (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
popup_menu (SmprofDiffTable       *self,
            SmprofDiffItem        *item,
            const graphene_rect_t *at)
{
  g_autoptr(GMenuModel) model = NULL;

  if (self->diff == NULL)
    return;

  model = smprof_function_menu_new (smprof_diff_get_function_keys (self->diff), smprof_diff_item_get_func (item),
                                    NULL, 0);
  smprof_function_menu_popup (GTK_WIDGET (self), model, at);
}

/* A secondary click on a row: its function, selected, and its menu. */
static void
secondary_pressed_cb (SmprofDiffTable *self,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkGestureClick *click)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->column_view), x, y, GTK_PICK_DEFAULT);
  g_autoptr(GObject) item = picked != NULL ? smprof_item_cell_find_item (picked) : NULL;
  GListModel *model = G_LIST_MODEL (self->selection);
  graphene_point_t at;

  if (item == NULL || !SMPROF_IS_DIFF_ITEM (item))
    return;

  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (model, i);

      if (row == item)
        gtk_single_selection_set_selected (self->selection, i);
    }
  if (!gtk_widget_compute_point (GTK_WIDGET (self->column_view), GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &at))
    at = GRAPHENE_POINT_INIT (x, y);
  popup_menu (self, SMPROF_DIFF_ITEM (item), &GRAPHENE_RECT_INIT (at.x, at.y, 1, 1));
}

/* The Menu key, Shift+F10: the selected row's menu. */
static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofDiffTable *self = SMPROF_DIFF_TABLE (widget);
  SmprofDiffItem *item = gtk_single_selection_get_selected_item (self->selection);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  graphene_rect_t bounds;

  if (item == NULL)
    return;

  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->column_view)) &&
      gtk_widget_compute_bounds (focus, widget, &bounds))
    popup_menu (self, item, &bounds);
  else
    popup_menu (self, item, NULL);
}

static void
smprof_diff_table_class_init (SmprofDiffTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = smprof_diff_table_dispose;
  object_class->get_property = smprof_diff_table_get_property;
  object_class->set_property = smprof_diff_table_set_property;

  properties[PROP_DIFF] = g_param_spec_object ("diff", NULL, NULL, SMPROF_TYPE_DIFF, flags);
  properties[PROP_METRIC] = g_param_spec_enum ("metric", NULL, NULL, SMPROF_TYPE_DIFF_METRIC,
                                               SMPROF_DIFF_METRIC_TOTTIME, flags);
  /* seconds: functions whose self and total time changed less are left out */
  properties[PROP_MIN_DELTA] = g_param_spec_double ("min-delta", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SMPROF_TYPE_DIFF_ITEM);
  g_type_ensure (SMPROF_TYPE_ITEM_CELL);
  smprof_function_menu_install_actions (widget_class, menu_action);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-diff-table.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, count_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, column_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, selection);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, sort_model);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, filter_model);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, string_filter);
  gtk_widget_class_bind_template_child (widget_class, SmprofDiffTable, store);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, metric_changed_cb);
}

static void
smprof_diff_table_init (SmprofDiffTable *self)
{
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));

  /* Clicking a header sorts by that column. */
  gtk_sort_list_model_set_sorter (self->sort_model, gtk_column_view_get_sorter (self->column_view));
  update_count (self);
}

GtkWidget *
smprof_diff_table_new (void)
{
  return g_object_new (SMPROF_TYPE_DIFF_TABLE, NULL);
}

SmprofDiff *
smprof_diff_table_get_diff (SmprofDiffTable *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_TABLE (self), NULL);

  return self->diff;
}

void
smprof_diff_table_set_diff (SmprofDiffTable *self,
                            SmprofDiff      *diff)
{
  g_return_if_fail (SMPROF_IS_DIFF_TABLE (self));
  g_return_if_fail (diff == NULL || SMPROF_IS_DIFF (diff));

  if (!g_set_object (&self->diff, diff))
    return;

  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF]);
}

SmprofDiffMetric
smprof_diff_table_get_metric (SmprofDiffTable *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_TABLE (self), SMPROF_DIFF_METRIC_TOTTIME);

  return self->metric;
}

void
smprof_diff_table_set_metric (SmprofDiffTable  *self,
                              SmprofDiffMetric  metric)
{
  g_return_if_fail (SMPROF_IS_DIFF_TABLE (self));
  g_return_if_fail (metric <= SMPROF_DIFF_METRIC_NCALLS);

  if (metric == self->metric)
    return;

  self->metric = metric;
  gtk_drop_down_set_selected (self->metric_dropdown, metric);
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

double
smprof_diff_table_get_min_delta (SmprofDiffTable *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_TABLE (self), 0);

  return self->min_delta;
}

void
smprof_diff_table_set_min_delta (SmprofDiffTable *self,
                                 double           seconds)
{
  g_return_if_fail (SMPROF_IS_DIFF_TABLE (self));

  seconds = MAX (seconds, 0);
  if (seconds == self->min_delta)
    return;

  self->min_delta = seconds;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MIN_DELTA]);
}

/**
 * smprof_diff_table_get_model:
 * @self: a diff table
 *
 * Returns: (transfer none): the rows as shown: filtered and sorted, of
 *   #SmprofDiffItem
 */
GListModel *
smprof_diff_table_get_model (SmprofDiffTable *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_TABLE (self), NULL);

  return G_LIST_MODEL (self->sort_model);
}

GtkColumnView *
smprof_diff_table_get_column_view (SmprofDiffTable *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_TABLE (self), NULL);

  return self->column_view;
}

/**
 * smprof_diff_table_set_filter_text:
 * @self: a diff table
 * @text: (nullable): what the functions' names must contain; %NULL or "" for all
 *
 * Filters the table at once, as typing in its search entry does after a pause.
 */
void
smprof_diff_table_set_filter_text (SmprofDiffTable *self,
                                   const char      *text)
{
  g_return_if_fail (SMPROF_IS_DIFF_TABLE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text != NULL ? text : "");
  filter_changed_cb (self, self->filter_entry);
}
