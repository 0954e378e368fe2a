/* smv-open-location-dialog.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-open-location-dialog.h"

/* Asks for a location as text: a folder path, or a URI for a scheme some
 * plugin opens. As the user types, the data sources say from the text alone
 * whether they open such a location; for a local path, whether a folder is
 * there is asked off the main thread (a path on a network mount that does
 * not answer must not freeze the dialog), and "Open" waits for the answer.
 * The dialog emits ::open with the location. */
struct _SmvOpenLocationDialog
{
  GtkWindow          parent_instance;

  SmvSourceRegistry *registry;
  GCancellable      *probe;      /* the folder check of the text shown */
  GFile             *checked;    /* a folder found there, which Open opens */

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
set_hint_for_source (SmvOpenLocationDialog *self,
                     SmvDataSource         *source)
{
  g_autofree char *name = smv_data_source_dup_name (source);
  g_autofree char *hint = g_strdup_printf (_("Opens as %s."), name);

  gtk_label_set_label (self->hint_label, hint);
}

typedef struct
{
  SmvOpenLocationDialog *self;
  GFile                 *location;
} Probe;

static void
probe_free (Probe *probe)
{
  g_clear_object (&probe->self);
  g_clear_object (&probe->location);
  g_free (probe);
}

static void
folder_checked_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Probe *probe = user_data;
  SmvOpenLocationDialog *self = probe->self;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  SmvDataSource *source;

  info = g_file_query_info_finish (G_FILE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      probe_free (probe);
      return;
    }

  g_clear_object (&self->probe);
  source = smv_source_registry_find_for (self->registry, probe->location);
  if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY && source != NULL)
    {
      g_set_object (&self->checked, probe->location);
      set_hint_for_source (self, source);
    }
  else if (info != NULL)
    gtk_label_set_label (self->hint_label, _("This is a file; choose the folder of a job."));
  else
    gtk_label_set_label (self->hint_label, _("There is no folder at this path."));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "location.open", self->checked != NULL);
  probe_free (probe);
}

static void
entry_changed_cb (SmvOpenLocationDialog *self,
                  GtkEntry              *entry)
{
  g_autoptr(GFile) location = smv_open_location_dialog_dup_location (self);
  SmvDataSource *source = NULL;
  Probe *probe;

  if (self->probe != NULL)
    g_cancellable_cancel (self->probe);
  g_clear_object (&self->probe);
  g_clear_object (&self->checked);

  /* From the text alone: no I/O on the main thread. */
  if (location != NULL)
    source = smv_source_registry_find_for (self->registry, location);

  if (location == NULL || source == NULL)
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "location.open", FALSE);
      gtk_label_set_label (self->hint_label,
                           location == NULL ? self->examples : _("No installed data source can open this location."));
      return;
    }

  if (!g_file_is_native (location))
    {
      g_set_object (&self->checked, location);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "location.open", TRUE);
      set_hint_for_source (self, source);
      return;
    }

  /* A local path: is a folder there? Asked on a worker thread. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "location.open", FALSE);
  gtk_label_set_label (self->hint_label, _("Looking for the folder…"));
  self->probe = g_cancellable_new ();
  probe = g_new0 (Probe, 1);
  probe->self = g_object_ref (self);
  probe->location = g_object_ref (location);
  g_file_query_info_async (location, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT,
                           self->probe, folder_checked_cb, probe);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmvOpenLocationDialog *self = SMV_OPEN_LOCATION_DIALOG (widget);
  g_autoptr(GFile) location = NULL;

  if (self->checked == NULL)
    return;

  location = g_object_ref (self->checked);
  g_signal_emit (self, signals[OPEN], 0, location);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
smv_open_location_dialog_dispose (GObject *object)
{
  SmvOpenLocationDialog *self = SMV_OPEN_LOCATION_DIALOG (object);

  if (self->probe != NULL)
    g_cancellable_cancel (self->probe);
  g_clear_object (&self->probe);
  g_clear_object (&self->checked);
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
    /* Translators: %s is a list of address forms, each "scheme://…" */
    self->examples = g_strdup_printf (_("A folder path, or an address such as %s."), forms->str);
  else if (forms->len > 0)
    /* Translators: %s is a list of address forms, each "scheme://…" */
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
