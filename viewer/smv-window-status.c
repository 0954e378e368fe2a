/* smv-window-status.c: the window's status pages (no plugin, nothing open)
 * and its recent jobs
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-window-private.h"

/* AdwStatusPage's description is Pango markup: paths are escaped. */
void
_smv_window_explain (SmvWindow *self)
{
  const char * const *dirs = smv_source_registry_get_dirs (self->registry);
  g_auto(GStrv) schemes = smv_source_registry_dup_uri_schemes (self->registry);
  gboolean folders = smv_source_registry_opens_folders (self->registry);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *joined = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *markup = NULL;

  g_string_append (text, _("smprof-viewer opens data through plugins, and found none. It looked in:"));
  g_string_append_c (text, '\n');
  for (guint i = 0; dirs[i] != NULL; i++)
    g_string_append_printf (text, "%s\n", dirs[i]);
  g_string_append_printf (text,
                          /* Translators: %s is an environment variable name */
                          _("Install a plugin, or name a folder that holds one in %s."),
                          SMV_PLUGIN_PATH_ENV);
  markup = g_markup_escape_text (text->str, -1);
  adw_status_page_set_description (self->no_plugins_page, markup);

  g_string_truncate (text, 0);
  for (guint i = 0; schemes[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s://…", schemes[i]);
    }
  joined = g_strdup (text->str);

  if (folders && joined[0] != '\0')
    /* Translators: %s is a list of address forms, each "scheme://…" */
    detail = g_strdup_printf (_("Open a job folder or an address (%s), or drop a folder onto this window."), joined);
  else if (folders)
    detail = g_strdup (_("Open a job folder, or drop one onto this window."));
  else
    /* Translators: %s is a list of address forms, each "scheme://…" */
    detail = g_strdup_printf (_("Open an address (%s)."), joined);

  g_free (markup);
  markup = g_markup_escape_text (detail, -1);
  adw_status_page_set_description (self->empty_page, markup);
}

/* Menu labels take mnemonics: a folder named "pt_cprofile" must stay as is. */
static char *
escape_mnemonics (const char *text)
{
  g_autoptr(GString) escaped = g_string_new (text);

  g_string_replace (escaped, "_", "__", 0);

  return g_string_free (g_steal_pointer (&escaped), FALSE);
}

static void
update_recent_menu (SmvWindow *self)
{
  guint n = self->recent != NULL ? smv_recent_get_n_items (self->recent) : 0;

  g_menu_remove_all (self->recent_section);

  for (guint i = 0; i < n; i++)
    {
      const char *uri = smv_recent_get_uri (self->recent, i);
      const char *title = smv_recent_get_title (self->recent, i);
      g_autoptr(GFile) location = g_file_new_for_uri (uri);
      g_autofree char *name = _smv_window_dup_display_name (location);
      g_autofree char *folder = g_file_get_basename (location);
      g_autofree char *label = NULL;
      g_autofree char *escaped = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (title != NULL && g_strcmp0 (title, folder) != 0)
        /* Translators: a recent job: its title, then its folder or address */
        label = g_strdup_printf (_("%s (%s)"), title, name);
      else
        label = g_strdup (name);

      escaped = escape_mnemonics (label);
      item = g_menu_item_new (escaped, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uri));
      g_menu_append_item (self->recent_section, item);
    }

  if (n == 0)
    {
      /* An item whose action does not exist shows as insensitive. */
      g_menu_append (self->recent_section, _("No Recent Jobs"), "win.no-recent-jobs");
    }
}

/* The empty page lists the recent jobs too, where a user looks first: one
 * row each (the job's title, and its folder or address), which a click or
 * Enter opens through win.open-recent, as the menu's items do. */
static void
update_recent_list (SmvWindow *self)
{
  guint n = self->recent != NULL ? smv_recent_get_n_items (self->recent) : 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  for (guint i = 0; i < n; i++)
    {
      const char *uri = smv_recent_get_uri (self->recent, i);
      const char *title = smv_recent_get_title (self->recent, i);
      g_autoptr(GFile) location = g_file_new_for_uri (uri);
      g_autofree char *name = _smv_window_dup_display_name (location);
      g_autofree char *folder = g_file_get_basename (location);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title != NULL ? title : folder);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), name);
      adw_action_row_set_icon_name (ADW_ACTION_ROW (row),
                                    g_file_is_native (location) ? "folder-symbolic" : "network-server-symbolic");
      gtk_widget_set_tooltip_text (row, name);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-recent");
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (row), g_variant_new_string (uri));
      gtk_list_box_append (self->recent_list, row);
    }

  gtk_widget_set_visible (self->recent_box, n > 0);
}

void
_smv_window_update_recent (SmvWindow *self)
{
  update_recent_menu (self);
  update_recent_list (self);
}

void
_smv_window_class_status_init (GtkWidgetClass *widget_class)
{
}
