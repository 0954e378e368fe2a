/* smv-window-actions.c: the window's actions (open, cancel, close), its drop
 * target, and the size it saves for the next window
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-open-location-dialog.h"
#include "smv-window-private.h"

static void
chooser_response_cb (SmvWindow            *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (folder != NULL)
        smv_window_open (self, folder);
    }

  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_clear_object (&self->chooser);
}

static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SmvWindow *self = SMV_WINDOW (widget);

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  self->chooser = gtk_file_chooser_native_new (_("Open a Job Folder"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Open"),
                                               _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
location_chosen_cb (SmvWindow             *self,
                    GFile                 *location,
                    SmvOpenLocationDialog *dialog)
{
  smv_window_open (self, location);
}

static void
open_location_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  SmvWindow *self = SMV_WINDOW (widget);
  GtkWidget *dialog = smv_open_location_dialog_new (GTK_WINDOW (self), self->registry);

  g_signal_connect_object (dialog, "open", G_CALLBACK (location_chosen_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SmvWindow *self = SMV_WINDOW (widget);
  const char *uri = g_variant_get_string (parameter, NULL);
  g_autoptr(GFile) location = g_file_new_for_uri (uri);

  /* A job gone since is found by the open, off the main thread (open_cb()
   * then drops it from the list). */
  smv_window_open (self, location);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  smv_window_cancel (SMV_WINDOW (widget));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
help_shown_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(SmvWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  /* No help browser (Yelp) installed, typically: say so rather than nothing. */
  if (!gtk_show_uri_full_finish (GTK_WINDOW (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _smv_window_show_error (self, _("Could not open the manual"), error->message);
}

/* F1 and the menu's Help: the manual (help/, Mallard) in the desktop's help
 * browser, as gtk_show_uri() would show it, with its failure in the banner. */
static void
help_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gtk_show_uri_full (GTK_WINDOW (widget), SMV_HELP_URI, GDK_CURRENT_TIME, NULL, help_shown_cb, g_object_ref (widget));
}

static gboolean
drop_cb (SmvWindow     *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  GdkFileList *list;
  g_autoptr(GSList) files = NULL;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  list = g_value_get_boxed (value);
  files = gdk_file_list_get_files (list);
  if (files == NULL)
    return FALSE;

  /* One window shows one document: the first dropped folder wins. */
  smv_window_open (self, files->data);

  return TRUE;
}

/**
 * smv_window_save_state:
 * @self: a window
 *
 * Saves @self's size and maximized state as the ones the next window opens
 * with (GTK 4 keeps the unmaximized size as the default size). The window
 * does it itself when it goes away (closed, Ctrl+W); the application does it
 * for the windows left when it quits.
 */
void
smv_window_save_state (SmvWindow *self)
{
  g_return_if_fail (SMV_IS_WINDOW (self));

  _smv_window_save_state (self);
}

void
_smv_window_save_state (SmvWindow *self)
{
  int width = 0;
  int height = 0;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width > 0 && height > 0)
    g_settings_set (self->settings, "window-size", "(ii)", width, height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
}

void
_smv_window_restore_state (SmvWindow *self)
{
  int width = 0;
  int height = 0;

  g_settings_get (self->settings, "window-size", "(ii)", &width, &height);
  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

/* The shortcuts window (Ctrl+?, from gtk/help-overlay.ui) lists the viewer's
 * keys; each data source adds a section for the keys of its pages. */
void
_smv_window_add_plugin_shortcuts (SmvWindow *self)
{
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self));
  GListModel *sources = smv_source_registry_get_sources (self->registry);
  g_autoptr(GtkBuilder) builder = NULL;

  if (overlay == NULL)
    return;

  builder = gtk_builder_new ();
  for (guint i = 0; i < g_list_model_get_n_items (sources); i++)
    {
      g_autoptr(SmvDataSource) source = g_list_model_get_item (sources, i);
      GtkShortcutsSection *section = smv_data_source_create_shortcuts_section (source);

      /* GTK 4.8 adds a section to a shortcuts window only the way GtkBuilder
       * does (gtk_shortcuts_window_add_section() is 4.14). */
      if (section != NULL)
        {
          GTK_BUILDABLE_GET_IFACE (overlay)->add_child (GTK_BUILDABLE (overlay), builder, G_OBJECT (section), NULL);
          g_object_unref (section);
        }
    }
}

void
_smv_window_actions_init (SmvWindow *self)
{
  GtkDropTarget *drop_target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (drop_target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop_target));
}

void
_smv_window_actions_dispose (SmvWindow *self)
{
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
}

void
_smv_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-location", NULL, open_location_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.help", NULL, help_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.open-location", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F1, 0, "win.help", NULL);
}
