/* smv-open-location-dialog.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-open-location-dialog.h"

/* Asks for a location as text: a folder path, or a URI for a scheme some
 * plugin opens. The data sources decide, as the user types, whether "Open"
 * can be pressed; the dialog emits ::open with the location. */
struct _SmvOpenLocationDialog
{
  GtkWindow          parent_instance;

  SmvSourceRegistry *registry;

  GtkEntry          *entry;
  GtkLabel          *hint_label;

  char              *examples;   /* the hint while the entry is empty */
};

G_DEFINE_FINAL_TYPE (SmvOpenLocationDialog, smv_open_location_dialog, GTK_TYPE_WINDOW)

enum {
  OPEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * smv_location_from_text:
 * @text: what the user typed or passed: a path, `~/...`, or a URI
 *
 * Returns: (transfer full) (nullable): the location, or %NULL for empty text
 */
GFile *
smv_location_from_text (const char *text)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));

  if (stripped[0] == '\0')
    return NULL;

  if (g_uri_peek_scheme (stripped) != NULL)
    return g_file_new_for_uri (stripped);

  if (stripped[0] == '~' && (stripped[1] == '\0' || stripped[1] == G_DIR_SEPARATOR))
    {
      g_autofree char *path = g_build_filename (g_get_home_dir (), stripped + 1, NULL);

      return g_file_new_for_path (path);
    }

  return g_file_new_for_commandline_arg (stripped);
}

/**
 * smv_open_location_dialog_dup_location:
 * @self: the dialog
 *
 * Returns: (transfer full) (nullable): what the entry holds, as a location
 */
GFile *
smv_open_location_dialog_dup_location (SmvOpenLocationDialog *self)
{
  g_return_val_if_fail (SMV_IS_OPEN_LOCATION_DIALOG (self), NULL);

  return smv_location_from_text (gtk_editable_get_text (GTK_EDITABLE (self->entry)));
}

static void
entry_changed_cb (SmvOpenLocationDialog *self,
                  GtkEntry              *entry)
{
  g_autoptr(GFile) location = smv_open_location_dialog_dup_location (self);
  SmvDataSource *source = NULL;

  if (location != NULL)
    source = smv_source_registry_find_for (self->registry, location);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "location.open", source != NULL);

  if (location == NULL)
    gtk_label_set_label (self->hint_label, self->examples);
  else if (source != NULL)
    {
      g_autofree char *name = smv_data_source_dup_name (source);
      g_autofree char *hint = g_strdup_printf (_("Opens as %s."), name);

      gtk_label_set_label (self->hint_label, hint);
    }
  else
    gtk_label_set_label (self->hint_label, _("No installed data source can open this location."));
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmvOpenLocationDialog *self = SMV_OPEN_LOCATION_DIALOG (widget);
  g_autoptr(GFile) location = smv_open_location_dialog_dup_location (self);

  if (location == NULL || smv_source_registry_find_for (self->registry, location) == NULL)
    return;

  g_signal_emit (self, signals[OPEN], 0, location);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
smv_open_location_dialog_dispose (GObject *object)
{
  SmvOpenLocationDialog *self = SMV_OPEN_LOCATION_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SMV_TYPE_OPEN_LOCATION_DIALOG);
  g_clear_object (&self->registry);

  G_OBJECT_CLASS (smv_open_location_dialog_parent_class)->dispose (object);
}

static void
smv_open_location_dialog_finalize (GObject *object)
{
  SmvOpenLocationDialog *self = SMV_OPEN_LOCATION_DIALOG (object);

  g_clear_pointer (&self->examples, g_free);

  G_OBJECT_CLASS (smv_open_location_dialog_parent_class)->finalize (object);
}

static void
smv_open_location_dialog_class_init (SmvOpenLocationDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smv_open_location_dialog_dispose;
  object_class->finalize = smv_open_location_dialog_finalize;

  /**
   * SmvOpenLocationDialog::open:
   * @location: the location to open
   *
   * The user chose a location that a data source can open. The dialog closes
   * itself afterwards.
   */
  signals[OPEN] =
    g_signal_new ("open",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_FILE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/smprof/Viewer/smv-open-location-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SmvOpenLocationDialog, entry);
  gtk_widget_class_bind_template_child (widget_class, SmvOpenLocationDialog, hint_label);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);

  gtk_widget_class_install_action (widget_class, "location.open", NULL, open_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
smv_open_location_dialog_init (SmvOpenLocationDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "location.open", FALSE);
}

static void
explain (SmvOpenLocationDialog *self)
{
  g_auto(GStrv) schemes = smv_source_registry_dup_uri_schemes (self->registry);
  gboolean folders = smv_source_registry_opens_folders (self->registry);
  g_autoptr(GString) forms = g_string_new (NULL);

  for (guint i = 0; schemes[i] != NULL; i++)
    {
      if (forms->len > 0)
        g_string_append (forms, ", ");
      g_string_append_printf (forms, "%s://…", schemes[i]);
    }

  g_free (self->examples);
  if (folders && forms->len > 0)
    /* Translators: %s is a list of address forms such as "s3://…" */
    self->examples = g_strdup_printf (_("A folder path, or an address such as %s."), forms->str);
  else if (forms->len > 0)
    /* Translators: %s is a list of address forms such as "s3://…" */
    self->examples = g_strdup_printf (_("An address such as %s."), forms->str);
  else if (folders)
    self->examples = g_strdup (_("A folder path."));
  else
    self->examples = g_strdup (_("No installed data source can open anything."));

  gtk_label_set_label (self->hint_label, self->examples);
}

/**
 * smv_open_location_dialog_new:
 * @parent: (nullable): the window to stay above
 * @registry: the data sources that decide what can be opened
 *
 * Returns: (transfer floating): the dialog, not shown yet
 */
GtkWidget *
smv_open_location_dialog_new (GtkWindow         *parent,
                              SmvSourceRegistry *registry)
{
  SmvOpenLocationDialog *self;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (registry), NULL);

  self = g_object_new (SMV_TYPE_OPEN_LOCATION_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->registry = g_object_ref (registry);
  explain (self);

  return GTK_WIDGET (self);
}
