/* smprof-cell-factories.c: column view cells made in code
 *
 * A GtkBuilderListItemFactory parses its template again for every cell it
 * makes, and GTK 4.8 makes new cells for every row that a new answer brings
 * into view (it keeps a row's cells only when the same item comes back).
 * With a dozen columns that parsing was most of the time between a drag's
 * release and the Functions table drawn with the answer.  These factories make
 * the same widgets directly and bind one property of the row's item to them.
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-cell-factories.h"
#include "smprof-item-cell.h"
#include "smprof-sparkline.h"

typedef enum
{
  CELL_NUMERIC,
  CELL_LABEL,
  CELL_SPARKLINE,
} CellKind;

typedef struct
{
  CellKind  kind;
  char     *property;
} CellSpec;

/* What a cell shows: the item, and the handler that follows its property.
 * GTK 4.8's signal factory unbinds and binds a cell every time its row moves
 * (a new answer resorts every row), so binding keeps this across an unbind
 * and a bind of the same item rather than undoing and redoing it. */
typedef struct
{
  GObject *item;
  gulong   notify_handler;
} CellShows;

static GQuark shows_quark;

static void
cell_shows_free (gpointer data)
{
  CellShows *shows = data;

  g_clear_signal_handler (&shows->notify_handler, shows->item);
  g_clear_object (&shows->item);
  g_free (shows);
}

static void
cell_spec_free (gpointer  data,
                GClosure *closure G_GNUC_UNUSED)
{
  CellSpec *spec = data;

  g_free (spec->property);
  g_free (spec);
}

static void
setup_cb (GtkSignalListItemFactory *factory G_GNUC_UNUSED,
          GtkListItem              *list_item,
          CellSpec                 *spec)
{
  GtkWidget *label;

  switch (spec->kind)
    {
    case CELL_NUMERIC:
      label = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
      gtk_list_item_set_child (list_item, label);
      break;

    case CELL_LABEL:
      /* Function names are long and their end (the function) matters most;
       * the cell shows the whole name as its tooltip. */
      label = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_list_item_set_child (list_item,
                               g_object_new (SMPROF_TYPE_ITEM_CELL,
                                             "label-tooltip", TRUE,
                                             "child", label,
                                             NULL));
      break;

    case CELL_SPARKLINE:
      gtk_list_item_set_child (list_item, g_object_new (SMPROF_TYPE_SPARKLINE, NULL));
      break;

    default:
      g_assert_not_reached ();
    }
}

static GtkWidget *
shown_in (GtkListItem *list_item,
          CellSpec    *spec)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (spec->kind == CELL_LABEL)
    return smprof_item_cell_get_child (SMPROF_ITEM_CELL (child));

  return child;
}

static void
show_value (GObject    *item,
            GParamSpec *pspec,
            GtkWidget  *target)
{
  g_auto(GValue) value = G_VALUE_INIT;

  g_value_init (&value, pspec->value_type);
  g_object_get_property (item, pspec->name, &value);
  g_object_set_property (G_OBJECT (target),
                         GTK_IS_LABEL (target) ? "label" : "series",
                         &value);
}

static void
bind_cb (GtkSignalListItemFactory *factory G_GNUC_UNUSED,
         GtkListItem              *list_item,
         CellSpec                 *spec)
{
  GObject *item = gtk_list_item_get_item (list_item);
  CellShows *shows = g_object_get_qdata (G_OBJECT (list_item), shows_quark);
  GtkWidget *target = shown_in (list_item, spec);
  g_autofree char *signal = NULL;

  if (shows != NULL && shows->item == item)
    return;

  if (spec->kind == CELL_LABEL)
    g_object_set (gtk_list_item_get_child (list_item), "item", item, NULL);

  if (item == NULL)
    {
      g_object_set_qdata (G_OBJECT (list_item), shows_quark, NULL);
      return;
    }

  shows = g_new0 (CellShows, 1);
  shows->item = g_object_ref (item);
  signal = g_strconcat ("notify::", spec->property, NULL);
  shows->notify_handler = g_signal_connect (item, signal, G_CALLBACK (show_value), target);
  g_object_set_qdata_full (G_OBJECT (list_item), shows_quark, shows, cell_shows_free);
  show_value (item, g_object_class_find_property (G_OBJECT_GET_CLASS (item), spec->property), target);
}

static GtkListItemFactory *
cell_factory_new (CellKind    kind,
                  const char *property)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  CellSpec *spec = g_new0 (CellSpec, 1);

  if (shows_quark == 0)
    shows_quark = g_quark_from_static_string ("smprof-cell-shows");

  spec->kind = kind;
  spec->property = g_strdup (property);
  g_signal_connect_data (factory, "setup", G_CALLBACK (setup_cb), spec, NULL, 0);
  /* the last handler owns the spec; there is no "unbind" handler: a cell
   * keeps its item until it shows another one or goes (see CellShows) */
  g_signal_connect_data (factory, "bind", G_CALLBACK (bind_cb), spec, cell_spec_free, 0);

  return factory;
}

/**
 * smprof_numeric_cell_factory_new:
 * @text_property: the string property of the row's item to show
 *
 * Returns: (transfer full): a factory of right-aligned labels in tabular
 *   figures (the `numeric` style class)
 */
GtkListItemFactory *
smprof_numeric_cell_factory_new (const char *text_property)
{
  g_return_val_if_fail (text_property != NULL, NULL);

  return cell_factory_new (CELL_NUMERIC, text_property);
}

/**
 * smprof_label_cell_factory_new:
 * @text_property: the string property of the row's item to show
 *
 * Returns: (transfer full): a factory of #SmprofItemCell holding a label
 *   ellipsized at its start, whose tooltip is the whole text
 */
GtkListItemFactory *
smprof_label_cell_factory_new (const char *text_property)
{
  g_return_val_if_fail (text_property != NULL, NULL);

  return cell_factory_new (CELL_LABEL, text_property);
}

/**
 * smprof_sparkline_cell_factory_new:
 * @series_property: the #GArray of doubles property of the row's item to draw
 *
 * Returns: (transfer full): a factory of #SmprofSparkline
 */
GtkListItemFactory *
smprof_sparkline_cell_factory_new (const char *series_property)
{
  g_return_val_if_fail (series_property != NULL, NULL);

  return cell_factory_new (CELL_SPARKLINE, series_property);
}
