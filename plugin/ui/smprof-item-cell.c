/* smprof-item-cell.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "smprof-item-cell.h"
#include "smprof-ui.h"

/* A column view gives no way from a cell's widget back to its row's item, and
 * a context menu needs the item under the pointer. A factory wraps one cell
 * of each row in this, binding its item; smprof_item_cell_find_item() finds
 * it from any widget of the row. */
struct _SmprofItemCell
{
  GtkWidget  parent_instance;

  GObject   *item;
  GtkWidget *child;
  guint      label_tooltip : 1;
};

enum {
  PROP_0,
  PROP_ITEM,
  PROP_CHILD,
  PROP_LABEL_TOOLTIP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofItemCell, smprof_item_cell, GTK_TYPE_WIDGET)

static void
smprof_item_cell_dispose (GObject *object)
{
  SmprofItemCell *self = SMPROF_ITEM_CELL (object);

  g_clear_pointer (&self->child, gtk_widget_unparent);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (smprof_item_cell_parent_class)->dispose (object);
}

static void
smprof_item_cell_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SmprofItemCell *self = SMPROF_ITEM_CELL (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;

    case PROP_CHILD:
      g_value_set_object (value, self->child);
      break;

    case PROP_LABEL_TOOLTIP:
      g_value_set_boolean (value, self->label_tooltip);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_item_cell_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SmprofItemCell *self = SMPROF_ITEM_CELL (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      if (g_set_object (&self->item, g_value_get_object (value)))
        g_object_notify_by_pspec (object, pspec);
      break;

    case PROP_CHILD:
      smprof_item_cell_set_child (self, g_value_get_object (value));
      break;

    case PROP_LABEL_TOOLTIP:
      if (self->label_tooltip != g_value_get_boolean (value))
        {
          self->label_tooltip = g_value_get_boolean (value);
          gtk_widget_set_has_tooltip (GTK_WIDGET (self), self->label_tooltip);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The label's text, asked for when the pointer rests on the cell. A
 * tooltip-text bound to each row instead is set again whenever a row is
 * bound, and GTK asks the display where the pointer is each time it is set
 * (a round trip to the X server): GTK 4.8's column view keeps up to 200
 * rows bound, and a new answer binds them all again. */
static gboolean
smprof_item_cell_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard_tooltip,
                                GtkTooltip *tooltip)
{
  g_autofree char *text = smprof_item_cell_dup_tooltip_text (SMPROF_ITEM_CELL (widget));

  if (text == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);

  return TRUE;
}

static void
smprof_item_cell_class_init (SmprofItemCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_item_cell_dispose;
  object_class->get_property = smprof_item_cell_get_property;
  object_class->set_property = smprof_item_cell_set_property;

  /**
   * SmprofItemCell:item:
   *
   * The row's item, bound by the factory.
   */
  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CHILD] =
    g_param_spec_object ("child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofItemCell:label-tooltip:
   *
   * Whether the cell's tooltip is its child label's text (for names the
   * column may ellipsize).
   */
  properties[PROP_LABEL_TOOLTIP] =
    g_param_spec_boolean ("label-tooltip", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  widget_class->query_tooltip = smprof_item_cell_query_tooltip;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "smprofitemcell");
}

static void
smprof_item_cell_init (SmprofItemCell *self)
{
}

GObject *
smprof_item_cell_get_item (SmprofItemCell *self)
{
  g_return_val_if_fail (SMPROF_IS_ITEM_CELL (self), NULL);

  return self->item;
}

/**
 * smprof_item_cell_dup_tooltip_text:
 * @self: a cell
 *
 * The tooltip the cell shows: its child label's text when
 * #SmprofItemCell:label-tooltip is set and the label is not empty.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL for no tooltip
 */
char *
smprof_item_cell_dup_tooltip_text (SmprofItemCell *self)
{
  const char *text;

  g_return_val_if_fail (SMPROF_IS_ITEM_CELL (self), NULL);

  if (!self->label_tooltip || !GTK_IS_LABEL (self->child))
    return NULL;

  text = gtk_label_get_text (GTK_LABEL (self->child));

  return text != NULL && text[0] != '\0' ? g_strdup (text) : NULL;
}

GtkWidget *
smprof_item_cell_get_child (SmprofItemCell *self)
{
  g_return_val_if_fail (SMPROF_IS_ITEM_CELL (self), NULL);

  return self->child;
}

void
smprof_item_cell_set_child (SmprofItemCell *self,
                            GtkWidget      *child)
{
  g_return_if_fail (SMPROF_IS_ITEM_CELL (self));
  g_return_if_fail (child == NULL || gtk_widget_get_parent (child) == NULL);

  if (self->child == child)
    return;

  g_clear_pointer (&self->child, gtk_widget_unparent);
  self->child = child;
  if (child != NULL)
    gtk_widget_set_parent (child, GTK_WIDGET (self));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHILD]);
}

/* A new reference to the item of the cell or expander at or below @widget. */
static gpointer
find_below (GtkWidget *widget)
{
  if (SMPROF_IS_ITEM_CELL (widget))
    return SMPROF_ITEM_CELL (widget)->item != NULL ? g_object_ref (SMPROF_ITEM_CELL (widget)->item) : NULL;

  if (GTK_IS_TREE_EXPANDER (widget))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget));

      return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      gpointer found = find_below (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/**
 * smprof_item_cell_find_item:
 * @picked: a widget of a list or column view's row, such as
 *   gtk_widget_pick() finds under the pointer
 *
 * The item of @picked's row, from the #SmprofItemCell of the row (or its
 * #GtkTreeExpander, whose row's item it is).
 *
 * Returns: (transfer full) (nullable): the row's item, or %NULL when @picked
 *   is in no row that has one
 */
gpointer
smprof_item_cell_find_item (GtkWidget *picked)
{
  GtkWidget *row;

  for (row = picked; row != NULL; row = gtk_widget_get_parent (row))
    if (strcmp (gtk_widget_get_css_name (row), "row") == 0)
      break;

  return row != NULL ? find_below (row) : NULL;
}

/* Label cells, made in code -------------------------------------------------- */

static void
label_source_changed_cb (GObject    *item,
                         GParamSpec *pspec,
                         GtkLabel   *label)
{
  g_autofree char *text = NULL;

  g_object_get (item, pspec->name, &text, NULL);
  gtk_label_set_label (label, text != NULL ? text : "");
}

static void
label_setup_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  property)
{
  GtkWidget *cell = g_object_new (SMPROF_TYPE_ITEM_CELL, "label-tooltip", TRUE, NULL);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  smprof_item_cell_set_child (SMPROF_ITEM_CELL (cell), label);
  gtk_list_item_set_child (list_item, cell);
}

static void
label_bind_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  property)
{
  SmprofItemCell *cell = SMPROF_ITEM_CELL (gtk_list_item_get_child (list_item));
  GObject *item = gtk_list_item_get_item (list_item);
  g_autofree char *detailed = g_strconcat ("notify::", (const char *) property, NULL);

  g_object_set (cell, "item", item, NULL);
  g_signal_connect_object (item, detailed, G_CALLBACK (label_source_changed_cb), cell->child, 0);
  label_source_changed_cb (item, g_object_class_find_property (G_OBJECT_GET_CLASS (item), property),
                           GTK_LABEL (cell->child));
}

static void
label_unbind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  property)
{
  SmprofItemCell *cell = SMPROF_ITEM_CELL (gtk_list_item_get_child (list_item));

  if (cell->item != NULL)
    g_signal_handlers_disconnect_by_func (cell->item, label_source_changed_cb, cell->child);
  g_object_set (cell, "item", NULL, NULL);
}

/**
 * smprof_item_cell_label_factory_new:
 * @property: the string property of the rows' items each cell shows
 *
 * Cells that know their row's item, each showing one of its text properties
 * in a label that ellipsizes at the start (a function's name ends in what
 * tells it apart) and whose tooltip is the whole text
 * (smprof_ui_property_factory_new() says why in code).
 *
 * Returns: (transfer full): the factory
 */
GtkListItemFactory *
smprof_item_cell_label_factory_new (const char *property)
{
  return smprof_ui_property_factory_new (G_CALLBACK (label_setup_cb), G_CALLBACK (label_bind_cb),
                                         G_CALLBACK (label_unbind_cb), property);
}
