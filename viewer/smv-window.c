/* smv-window.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-application.h"
#include "smv-window-private.h"

G_DEFINE_FINAL_TYPE_WITH_CODE (SmvWindow, smv_window, ADW_TYPE_APPLICATION_WINDOW,
                               G_IMPLEMENT_INTERFACE (SMV_TYPE_HOST, _smv_window_host_iface_init))

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

char *
_smv_window_dup_display_name (GFile *location)
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

  /* The small pages cross-fade (the stack's own transition). To or from a
   * document there is none: a cross-fade draws both pages into two
   * images and blends them in each frame for its 200 ms, and without a GPU
   * (the cairo renderer) a frame of a 256-node job's page took 60-80 ms,
   * while the page is built and its first answer comes. It shows at once. */
  if (g_strcmp0 (name, "document") == 0 ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "document") == 0)
    gtk_stack_set_visible_child_full (self->stack, name, GTK_STACK_TRANSITION_TYPE_NONE);
  else
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
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, subtitle != NULL ? subtitle : "");
}

static void
problems_changed_cb (SmvWindow  *self,
                     guint       position,
                     guint       removed,
                     guint       added,
                     GListModel *problems)
{
  _smv_window_update_problems (self);
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
  _smv_window_hide_banner (self);
  smv_host_hide_banner (SMV_HOST (self));

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
  _smv_window_update_problems (self);
}

/* Removes @location from the recent jobs; whether it was there. */
static gboolean
forget_recent (SmvWindow *self,
               GFile     *location)
{
  g_autofree char *uri = g_file_get_uri (location);

  if (self->recent == NULL)
    return FALSE;

  for (guint i = 0; i < smv_recent_get_n_items (self->recent); i++)
    if (g_str_equal (smv_recent_get_uri (self->recent, i), uri))
      {
        smv_recent_remove (self->recent, uri);
        return TRUE;
      }

  return FALSE;
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
          g_autofree char *name = _smv_window_dup_display_name (op->location);
          g_autofree char *title = g_strdup_printf (_("Could not open “%s”"), name);
          g_autofree char *detail = NULL;

          /* Gone since it was opened: out of the recent jobs. */
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) && forget_recent (self, op->location))
            /* Translators: why a recent job could not be opened, then what was done */
            detail = g_strdup_printf (_("%s It was removed from the recent jobs."), error->message);

          _smv_window_show_error (self, title, detail != NULL ? detail : error->message);
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

  name = _smv_window_dup_display_name (location);
  source = smv_source_registry_find_for (self->registry, location);
  if (source == NULL)
    {
      title = g_strdup_printf (_("Cannot open “%s”"), name);
      _smv_window_show_error (self, title,
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
  adw_status_page_set_title (self->loading_page, title);
  if (self->document == NULL)
    _smv_window_hide_banner (self);
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
 * Returns: (transfer none): the window's banner, for errors and skipped files
 */
GtkInfoBar *
smv_window_get_banner (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return self->banner;
}

/**
 * smv_window_get_page_banner:
 * @self: a window
 *
 * Returns: (transfer none): the banner the page shows through SmvHost
 */
GtkInfoBar *
smv_window_get_page_banner (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return self->page_banner;
}

/**
 * smv_window_get_toast_overlay:
 * @self: a window
 *
 * Returns: (transfer none): where the page's toasts show
 */
AdwToastOverlay *
smv_window_get_toast_overlay (SmvWindow *self)
{
  g_return_val_if_fail (SMV_IS_WINDOW (self), NULL);

  return self->toast_overlay;
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
  gtk_css_provider_load_from_resource (provider, "/io/github/smprof/Viewer/smv-window.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_qdata_full (G_OBJECT (display), quark, g_steal_pointer (&provider), g_object_unref);
}

static void
smv_window_unrealize (GtkWidget *widget)
{
  SmvWindow *self = SMV_WINDOW (widget);

  if (self->settings != NULL)
    _smv_window_save_state (self);

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

  _smv_window_actions_dispose (self);

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
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, banner);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, banner_title);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, banner_detail);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, problems_expander);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, problems_view);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, page_banner);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, page_banner_title);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, page_banner_detail);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, no_plugins_page);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, document_box);
  gtk_widget_class_bind_template_child (widget_class, SmvWindow, recent_section);

  _smv_window_class_messages_init (widget_class);
  _smv_window_class_status_init (widget_class);
  _smv_window_class_actions_init (widget_class);
}

static void
smv_window_init (SmvWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (SMV_APPLICATION_ID);
  _smv_window_restore_state (self);
  _smv_window_messages_init (self);
  _smv_window_actions_init (self);

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
      g_signal_connect_object (recent, "changed", G_CALLBACK (_smv_window_update_recent), self, G_CONNECT_SWAPPED);
    }

  _smv_window_add_plugin_shortcuts (self);
  _smv_window_explain (self);
  _smv_window_update_recent (self);
  update_titles (self);
  update_view (self);

  return self;
}
