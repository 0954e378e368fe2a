/* smv-window.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-application.h"
#include "smv-open-location-dialog.h"
#include "smv-window.h"

/* One window shows one document. The stack has four pages: "no-plugins" (no
 * data source was found, so nothing can be opened), "empty" (nothing open
 * yet), "loading" (a progress bar and Cancel) and "document" (the page the
 * data source built). Opening runs in the data source, off the main thread;
 * a generation counter drops the answer of an open that was cancelled or
 * replaced, so Cancel takes effect at once. */
struct _SmvWindow
{
  GtkApplicationWindow  parent_instance;

  SmvSourceRegistry    *registry;
  SmvRecent            *recent;
  GSettings            *settings;   /* window-size, window-maximized */

  /* the open document */
  SmvDocument          *document;
  GtkWidget            *page;
  guint                 problems_dismissed;   /* problems listed when the banner was closed */

  /* an open in progress */
  GCancellable         *cancellable;
  SmvProgress          *progress;
  guint                 pulse_id;
  guint                 generation;

  GtkFileChooserNative *chooser;

  /* template children */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkInfoBar           *banner;
  GtkLabel             *banner_title;
  GtkLabel             *banner_detail;
  GtkExpander          *problems_expander;
  GtkListView          *problems_view;
  GtkStack             *stack;
  GtkLabel             *no_plugins_detail;
  GtkLabel             *empty_detail;
  GtkLabel             *loading_title;
  GtkProgressBar       *progress_bar;
  GtkBox               *document_box;
  GMenu                *recent_section;
};

G_DEFINE_FINAL_TYPE (SmvWindow, smv_window, GTK_TYPE_APPLICATION_WINDOW)

typedef struct
{
  SmvWindow     *self;
  SmvDataSource *source;
  GFile         *location;
  guint          generation;
} OpenOp;

static void
open_op_free (OpenOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->source);
  g_clear_object (&op->location);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenOp, open_op_free)

static char *
dup_display_name (GFile *location)
{
  if (g_file_is_native (location))
    return g_file_get_parse_name (location);

  return g_file_get_uri (location);
}

static void
update_view (SmvWindow *self)
{
  guint n_sources = smv_source_registry_get_n_sources (self->registry);
  gboolean loading = self->cancellable != NULL;
  const char *name;

  if (loading)
    name = "loading";
  else if (self->document != NULL)
    name = "document";
  else if (n_sources == 0)
    name = "no-plugins";
  else
    name = "empty";

  gtk_stack_set_visible_child_name (self->stack, name);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-folder",
                                 smv_source_registry_opens_folders (self->registry));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-location", n_sources > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-recent", n_sources > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel", loading);
}

static void
update_titles (SmvWindow *self)
{
  const char *title = NULL;
  const char *subtitle = NULL;

  if (self->document != NULL)
    {
      title = smv_document_get_title (self->document);
      subtitle = smv_document_get_subtitle (self->document);
    }

  if (title == NULL)
    title = _("smprof");

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, subtitle != NULL ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL && subtitle[0] != '\0');
}

static void
hide_banner (SmvWindow *self)
{
  gtk_info_bar_set_revealed (self->banner, FALSE);
}

static void
show_error (SmvWindow  *self,
            const char *title,
            const char *detail)
{
  gtk_info_bar_set_message_type (self->banner, GTK_MESSAGE_ERROR);
  gtk_label_set_label (self->banner_title, title);
  gtk_label_set_label (self->banner_detail, detail != NULL ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->banner_detail), detail != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_expander), FALSE);
  gtk_info_bar_set_revealed (self->banner, TRUE);
}

static void
update_problems (SmvWindow *self)
{
  GListModel *problems;
  guint n;
  g_autofree char *title = NULL;

  if (self->document == NULL)
    return;

  problems = smv_document_get_problems (self->document);
  n = g_list_model_get_n_items (problems);
  if (n == 0 || n <= self->problems_dismissed)
    return;

  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%u file or folder was skipped; everything else was opened.",
                                        "%u files or folders were skipped; everything else was opened.",
                                        n),
                           n);

  gtk_info_bar_set_message_type (self->banner, GTK_MESSAGE_WARNING);
  gtk_label_set_label (self->banner_title, title);
  gtk_widget_set_visible (GTK_WIDGET (self->banner_detail), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_expander), TRUE);
  gtk_info_bar_set_revealed (self->banner, TRUE);
}

static void
banner_response_cb (SmvWindow  *self,
                    int         response,
                    GtkInfoBar *banner)
{
  if (response != GTK_RESPONSE_CLOSE)
    return;

  if (self->document != NULL)
    self->problems_dismissed = g_list_model_get_n_items (smv_document_get_problems (self->document));
  hide_banner (self);
}

static void
problems_changed_cb (SmvWindow  *self,
                     guint       position,
                     guint       removed,
                     guint       added,
                     GListModel *problems)
{
  update_problems (self);
}

static void
stop_loading (SmvWindow *self)
{
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  if (self->progress != NULL)
    g_signal_handlers_disconnect_by_data (self->progress, self);
  g_clear_object (&self->progress);
  g_clear_object (&self->cancellable);
}

static void
set_document (SmvWindow     *self,
              SmvDataSource *source,
              SmvDocument   *document)
{
  GListModel *problems;
  g_autoptr(GtkNoSelection) selection = NULL;

  if (self->document != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->document, self);
      g_signal_handlers_disconnect_by_data (smv_document_get_problems (self->document), self);
    }
  if (self->page != NULL)
    gtk_box_remove (self->document_box, self->page);
  self->page = NULL;
  g_set_object (&self->document, document);
  self->problems_dismissed = 0;
  hide_banner (self);

  if (document == NULL)
    {
      gtk_list_view_set_model (self->problems_view, NULL);
      update_titles (self);
      return;
    }

  g_signal_connect_object (document, "notify::title", G_CALLBACK (update_titles), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::subtitle", G_CALLBACK (update_titles), self, G_CONNECT_SWAPPED);
  problems = smv_document_get_problems (document);
  g_signal_connect_object (problems, "items-changed", G_CALLBACK (problems_changed_cb), self, G_CONNECT_SWAPPED);
  selection = gtk_no_selection_new (g_object_ref (problems));
  gtk_list_view_set_model (self->problems_view, GTK_SELECTION_MODEL (selection));

  self->page = smv_data_source_create_page (source, document);
  gtk_widget_set_vexpand (self->page, TRUE);
  gtk_box_append (self->document_box, self->page);

  update_titles (self);
  update_problems (self);
}

static void
open_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(OpenOp) op = user_data;
  SmvWindow *self = op->self;
  g_autoptr(SmvDocument) document = NULL;
  g_autoptr(GError) error = NULL;

  document = smv_data_source_open_finish (op->source, result, &error);

  /* Cancelled, or replaced by a newer open: the view has moved on already. */
  if (op->generation != self->generation)
    return;

  stop_loading (self);

  if (document == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *name = dup_display_name (op->location);
          g_autofree char *title = g_strdup_printf (_("Could not open “%s”"), name);

          show_error (self, title, error->message);
        }
      update_view (self);
      return;
    }

  set_document (self, op->source, document);
  if (self->recent != NULL)
    smv_recent_add (self->recent, op->location, smv_document_get_title (document));
  update_view (self);
  if (self->page != NULL)
    gtk_widget_child_focus (self->page, GTK_DIR_TAB_FORWARD);
}

static gboolean
pulse_cb (gpointer data)
{
  SmvWindow *self = data;

  gtk_progress_bar_pulse (self->progress_bar);

  return G_SOURCE_CONTINUE;
}

static void
progress_changed_cb (SmvWindow   *self,
                     GParamSpec  *pspec,
                     SmvProgress *progress)
{
  double fraction = smv_progress_get_fraction (progress);
  const char *text = smv_progress_get_text (progress);

  gtk_progress_bar_set_text (self->progress_bar, text);

  if (fraction < 0)
    {
      if (self->pulse_id == 0)
        self->pulse_id = g_timeout_add (100, pulse_cb, self);
    }
  else
    {
      g_clear_handle_id (&self->pulse_id, g_source_remove);
      gtk_progress_bar_set_fraction (self->progress_bar, fraction);
    }
}

/**
 * smv_window_open:
 * @self: a window
 * @location: a folder or a URI
 *
 * Opens @location with the first data source that can, replacing what the
 * window shows once it is open. Problems show in the banner.
 */
void
smv_window_open (SmvWindow *self,
                 GFile     *location)
{
  SmvDataSource *source;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  OpenOp *op;

  g_return_if_fail (SMV_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (location));

  name = dup_display_name (location);
  source = smv_source_registry_find_for (self->registry, location);
  if (source == NULL)
    {
      title = g_strdup_printf (_("Cannot open “%s”"), name);
      show_error (self, title,
                  smv_source_registry_get_n_sources (self->registry) == 0
                  ? _("No data-source plugin is installed.")
                  : _("None of the installed data sources can open this location. "
                      "Choose a job folder, or an address with a supported scheme."));
      return;
    }

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  stop_loading (self);
  self->generation++;

  self->cancellable = g_cancellable_new ();
  self->progress = smv_progress_new ();
  g_signal_connect_object (self->progress, "notify", G_CALLBACK (progress_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_progress_bar_set_text (self->progress_bar, NULL);
  progress_changed_cb (self, NULL, self->progress);

  title = g_strdup_printf (_("Opening “%s”…"), name);
  gtk_label_set_label (self->loading_title, title);
  if (self->document == NULL)
    hide_banner (self);
  update_view (self);

  op = g_new0 (OpenOp, 1);
  op->self = g_object_ref (self);
  op->source = g_object_ref (source);
  op->location = g_object_ref (location);
  op->generation = self->generation;

  smv_data_source_open_async (source, location, self->progress, self->cancellable, open_cb, op);
}

/**
 * smv_window_cancel:
 * @self: a window
 *
 * Stops an open in progress. The window goes back at once to what it showed
 * before; the data source's answer, when it comes, is dropped.
 */
void
smv_window_cancel (SmvWindow *self)
{
  g_return_if_fail (SMV_IS_WINDOW (self));

  if (self->cancellable == NULL)
    return;

  g_cancellable_cancel (self->cancellable);
  stop_loading (self);
  self->generation++;
  update_view (self);
}

gboolean
smv_window_is_loading (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), FALSE);

  return self->cancellable != NULL;
}

/**
 * smv_window_get_document:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the open document
 */
SmvDocument *
smv_window_get_document (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return self->document;
}

/**
 * smv_window_get_page:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the document's page
 */
GtkWidget *
smv_window_get_page (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return self->page;
}

/**
 * smv_window_get_progress:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the progress of the open in progress
 */
SmvProgress *
smv_window_get_progress (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return self->progress;
}

/**
 * smv_window_get_view_name:
 * @self: a window
 *
 * Returns: what the window shows: "no-plugins", "empty", "loading" or "document"
 */
const char *
smv_window_get_view_name (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

/**
 * smv_window_get_banner:
 * @self: a window
 *
 * Returns: (transfer none): the banner for errors and skipped files
 */
GtkInfoBar *
smv_window_get_banner (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return self->banner;
}

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

  if (g_file_is_native (location) && !g_file_query_exists (location, NULL) && self->recent != NULL)
    {
      g_autofree char *name = dup_display_name (location);
      g_autofree char *title = g_strdup_printf (_("Cannot open “%s”"), name);

      smv_recent_remove (self->recent, uri);
      show_error (self, title, _("The folder does not exist any more; it was removed from the recent jobs."));
      return;
    }

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
      g_autofree char *name = dup_display_name (location);
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

static void
load_css (GtkWidget *widget)
{
  static GQuark quark;
  GdkDisplay *display = gtk_widget_get_display (widget);
  g_autoptr(GtkCssProvider) provider = NULL;

  if (quark == 0)
    quark = g_quark_from_static_string ("smv-window-css");
  if (g_object_get_qdata (G_OBJECT (display), quark) != NULL)
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/io/github/smprof/Viewer/style.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_qdata_full (G_OBJECT (display), quark, g_steal_pointer (&provider), g_object_unref);
}

static void
explain (SmvWindow *self)
{
  const char * const *dirs = smv_source_registry_get_dirs (self->registry);
  g_auto(GStrv) schemes = smv_source_registry_dup_uri_schemes (self->registry);
  gboolean folders = smv_source_registry_opens_folders (self->registry);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *joined = NULL;
  g_autofree char *detail = NULL;

  g_string_append (text, _("smprof-viewer opens data through plugins, and found none. It looked in:"));
  g_string_append_c (text, '\n');
  for (guint i = 0; dirs[i] != NULL; i++)
    g_string_append_printf (text, "%s\n", dirs[i]);
  g_string_append_printf (text,
                          /* Translators: %s is an environment variable name */
                          _("Install a plugin, or name a folder that holds one in %s."),
                          SMV_PLUGIN_PATH_ENV);
  gtk_label_set_label (self->no_plugins_detail, text->str);

  g_string_truncate (text, 0);
  for (guint i = 0; schemes[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s://…", schemes[i]);
    }
  joined = g_strdup (text->str);

  if (folders && joined[0] != '\0')
    /* Translators: %s is a list of address forms such as "s3://…" */
    detail = g_strdup_printf (_("Open a job folder or an address (%s), or drop a folder onto this window."), joined);
  else if (folders)
    detail = g_strdup (_("Open a job folder, or drop one onto this window."));
  else
    /* Translators: %s is a list of address forms such as "s3://…" */
    detail = g_strdup_printf (_("Open an address (%s)."), joined);

  gtk_label_set_label (self->empty_detail, detail);
}

/* The size and state the next window opens with: GTK 4 keeps the
 * unmaximized size as the default size. Saved when the window goes away,
 * however it goes (closed, or the application quits). */
static void
save_window_state (SmvWindow *self)
{
  int width = 0;
  int height = 0;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width > 0 && height > 0)
    g_settings_set (self->settings, "window-size", "(ii)", width, height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
}

static void
restore_window_state (SmvWindow *self)
{
  int width = 0;
  int height = 0;

  g_settings_get (self->settings, "window-size", "(ii)", &width, &height);
  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
smv_window_unrealize (GtkWidget *widget)
{
  SmvWindow *self = SMV_WINDOW (widget);

  if (self->settings != NULL)
    save_window_state (self);

  GTK_WIDGET_CLASS (smv_window_parent_class)->unrealize (widget);
}

static void
smv_window_dispose (GObject *object)
{
  SmvWindow *self = SMV_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  stop_loading (self);
  self->generation++;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (smv_document_get_problems (self->document), self);
  g_clear_object (&self->document);
  self->page = NULL;

  gtk_widget_dispose_template (GTK_WIDGET (self), SMV_TYPE_WINDOW);

  g_clear_object (&self->registry);
  g_clear_object (&self->recent);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (smv_window_parent_class)->dispose (object);
}

static void
smv_window_class_init (SmvWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smv_window_dispose;

  widget_class->unrealize = smv_window_unrealize;

  g_type_ensure (SMV_TYPE_PROBLEM);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/smprof/Viewer/smv-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, banner);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, banner_title);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, banner_detail);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, problems_expander);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, problems_view);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, no_plugins_detail);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, empty_detail);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, loading_title);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, document_box);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, recent_section);
  gtk_widget_class_bind_template_callback (widget_class, banner_response_cb);

  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-location", NULL, open_location_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.open-location", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close", NULL);
}

static void
smv_window_init (SmvWindow *self)
{
  GtkDropTarget *drop_target;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (SMV_APPLICATION_ID);
  restore_window_state (self);

  drop_target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (drop_target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop_target));

  load_css (GTK_WIDGET (self));
}

/**
 * smv_window_new:
 * @application: (nullable): the application
 * @registry: the data sources
 * @recent: (nullable): the recent jobs, updated when a document opens
 *
 * Returns: (transfer none): a new window, not shown yet
 */
SmvWindow *
smv_window_new (GtkApplication    *application,
                SmvSourceRegistry *registry,
                SmvRecent         *recent)
{
  SmvWindow *self;

  g_return_val_if_fail (!application || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (registry), NULL);
  g_return_val_if_fail (!recent || SMV_IS_RECENT (recent), NULL);

  self = g_object_new (SMV_TYPE_WINDOW,
                       "application", application,
                       NULL);
  self->registry = g_object_ref (registry);
  if (recent != NULL)
    {
      self->recent = g_object_ref (recent);
      g_signal_connect_object (recent, "changed", G_CALLBACK (update_recent_menu), self, G_CONNECT_SWAPPED);
    }

  explain (self);
  update_recent_menu (self);
  update_titles (self);
  update_view (self);

  return self;
}
