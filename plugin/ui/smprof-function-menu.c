/* smprof-function-menu.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-estimated-tree.h"
#include "smprof-function-menu.h"
#include "smprof-transform.h"
#include "smprof-ui-format.h"

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), g_variant_get_string (parameter, NULL));
}

/**
 * smprof_function_menu_install_actions:
 * @widget_class: a view's class
 * @menu_action: opens the menu for the view's current function (its
 *   selected row or frame)
 *
 * Installs "function-view.copy" (s: the text to copy) and
 * "function-view.menu", bound to the Menu key and Shift+F10 as GTK binds
 * its own context menus.
 */
void
smprof_function_menu_install_actions (GtkWidgetClass              *widget_class,
                                      GtkWidgetActionActivateFunc  menu_action)
{
  gtk_widget_class_install_action (widget_class, SMPROF_FUNCTION_VIEW_COPY, "s", copy_action);
  gtk_widget_class_install_action (widget_class, SMPROF_FUNCTION_VIEW_MENU, NULL, menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, SMPROF_FUNCTION_VIEW_MENU, NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, SMPROF_FUNCTION_VIEW_MENU, NULL);
}

/* A name inside a menu label: GTK reads one underscore as a mnemonic
 * ("pt_tabular.py" would show as "pttabular.py"), two as an underscore. */
static char *
dup_label_text (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

static void
append (GMenu      *section,
        const char *label,
        const char *action,
        GVariant   *target)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, target);
  /* The "function" group belongs to whoever shows the view: an item it does
   * not offer is left out, rather than shown greyed out. */
  if (g_str_has_prefix (action, SMPROF_FUNCTION_ACTION_GROUP "."))
    g_menu_item_set_attribute (item, "hidden-when", "s", "action-missing");
  g_menu_append_item (section, item);
}

/**
 * smprof_function_menu_new:
 * @table: the job's function keys
 * @func: the function
 * @path: (array length=depth) (nullable): the functions of the frame's stack
 *   from a root, when the menu is a frame's (call tree, flame graph)
 * @depth: the length of @path
 *
 * Returns: (transfer full): the menu: copying, reshaping, going elsewhere
 */
GMenuModel *
smprof_function_menu_new (SmprofFunctionKeys *table,
                          guint32             func,
                          const guint32      *path,
                          guint               depth)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) copy = g_menu_new ();
  g_autoptr(GMenu) reshape = g_menu_new ();
  g_autoptr(GMenu) go = g_menu_new ();
  g_autofree char *name = smprof_ui_dup_func_name (table, func);
  g_autofree char *location = smprof_ui_dup_func_location (table, func);
  const char *file = smprof_function_keys_get_file (table, func);
  g_autofree char *package = smprof_file_dup_package (file);
  gboolean real = !smprof_function_is_unattributed (table, func) && !smprof_function_is_group (table, func);

  append (copy, _("Copy Name"), SMPROF_FUNCTION_VIEW_COPY, g_variant_new_string (name));
  if (*location != '\0')
    append (copy, _("Copy File and Line"), SMPROF_FUNCTION_VIEW_COPY, g_variant_new_string (location));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (copy));

  append (reshape, _("Focus on Function"), SMPROF_FUNCTION_ACTION_GROUP ".focus", g_variant_new_uint32 (func));
  if (path != NULL && depth > 0)
    append (reshape, _("Focus on Subtree"), SMPROF_FUNCTION_ACTION_GROUP ".focus-subtree",
            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, path, depth, sizeof (guint32)));
  append (reshape, _("Merge Function"), SMPROF_FUNCTION_ACTION_GROUP ".merge", g_variant_new_uint32 (func));
  append (reshape, _("Collapse Recursion"), SMPROF_FUNCTION_ACTION_GROUP ".collapse-recursion",
          g_variant_new_uint32 (func));
  if (package != NULL)
    {
      g_autofree char *shown = dup_label_text (package);
      /* TRANSLATORS: %s is a package, such as torch */
      g_autofree char *label = g_strdup_printf (_("Collapse Package %s"), shown);

      append (reshape, label, SMPROF_FUNCTION_ACTION_GROUP ".collapse-package", g_variant_new_string (package));
    }
  if (strcmp (file, "~") != 0)
    {
      g_autofree char *base = g_path_get_basename (file);
      g_autofree char *shown = dup_label_text (base);
      /* TRANSLATORS: %s is a source file's name, such as train.py */
      g_autofree char *label = g_strdup_printf (_("Collapse File %s"), shown);

      append (reshape, label, SMPROF_FUNCTION_ACTION_GROUP ".collapse-file", g_variant_new_string (file));
    }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (reshape));

  if (real)
    {
      append (go, _("Show in Functions"), SMPROF_FUNCTION_ACTION_GROUP ".show-in-functions",
              g_variant_new_uint32 (func));
      append (go, _("Show Callers"), SMPROF_FUNCTION_ACTION_GROUP ".show-callers", g_variant_new_uint32 (func));
      append (go, _("Show Callees"), SMPROF_FUNCTION_ACTION_GROUP ".show-callees", g_variant_new_uint32 (func));
      append (go, _("Compare Across Nodes"), SMPROF_FUNCTION_ACTION_GROUP ".compare-nodes",
              g_variant_new_uint32 (func));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (go));
    }

  return G_MENU_MODEL (menu);
}

static gboolean
unparent_cb (gpointer data)
{
  GtkWidget *popover = data;

  if (gtk_widget_get_parent (popover) != NULL)
    gtk_widget_unparent (popover);
  g_object_unref (popover);

  return G_SOURCE_REMOVE;
}

/* Unparented once it has finished closing: an item's action runs after. */
static void
closed_cb (GtkPopover *popover)
{
  g_idle_add (unparent_cb, g_object_ref (popover));
}

/**
 * smprof_function_menu_popup:
 * @widget: the view
 * @model: the menu, from smprof_function_menu_new()
 * @at: (nullable): where in @widget the function is: the pointer, a row or
 *   a frame
 *
 * Shows @model as a popover menu of @widget, which must unparent its
 * children when disposed. The popover unparents itself once closed.
 *
 * Returns: (transfer none): the popover
 */
GtkWidget *
smprof_function_menu_popup (GtkWidget             *widget,
                            GMenuModel            *model,
                            const graphene_rect_t *at)
{
  GtkWidget *popover;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  g_return_val_if_fail (G_IS_MENU_MODEL (model), NULL);

  popover = gtk_popover_menu_new_from_model (model);
  gtk_widget_set_parent (popover, widget);
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  if (at != NULL)
    gtk_popover_set_pointing_to (GTK_POPOVER (popover),
                                 &(GdkRectangle) { (int) at->origin.x, (int) at->origin.y,
                                                   MAX (1, (int) at->size.width), MAX (1, (int) at->size.height) });
  g_signal_connect (popover, "closed", G_CALLBACK (closed_cb), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));

  return popover;
}
