/* smprof-job-page-export.c: the job page's Export menu
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>
#include <smprof-viewer-api.h>

#include "smprof-job-page-private.h"
#include "smprof-ui-settings.h"

/* Export writes the selection shown (SmprofJobPage:profile, the chosen
 * nodes) through the core's export API on a worker thread. Each format has
 * its own action, `job-page.export-FORMAT`, so the menu greys everything out
 * while nothing is aggregated yet; `job-page.export` takes the format by name.
 * A save dialog (GtkFileChooserNative, so the portal inside Flatpak)
 * suggests a name from the job and the selection. */

#define TOAST_SECONDS 5


static const struct
{
  const char *action;
  const char *title;
  const char *filter;
} export_formats[SMPROF_EXPORT_N_FORMATS] = {
  [SMPROF_EXPORT_SVG] = { "job-page.export-svg", N_("Export the Flame Graph as SVG"), N_("SVG images") },
  [SMPROF_EXPORT_PNG] = { "job-page.export-png", N_("Export the Flame Graph as PNG"), N_("PNG images") },
  [SMPROF_EXPORT_PDF] = { "job-page.export-pdf", N_("Export the Flame Graph as PDF"), N_("PDF documents") },
  [SMPROF_EXPORT_FOLDED] = { "job-page.export-folded", N_("Export Folded Stacks"), N_("Folded stacks") },
  [SMPROF_EXPORT_SPEEDSCOPE] = { "job-page.export-speedscope", N_("Export for speedscope"),
                                 N_("speedscope profiles") },
  [SMPROF_EXPORT_PSTATS] = { "job-page.export-pstats", N_("Export pstats"), N_("pstats files") },
  [SMPROF_EXPORT_CSV] = { "job-page.export-csv", N_("Export the Function Table as CSV"), N_("CSV files") },
  [SMPROF_EXPORT_JSON] = { "job-page.export-json", N_("Export as JSON"), N_("JSON files") },
  [SMPROF_EXPORT_SYSCAP] = { "job-page.export-syscap", N_("Export a Sysprof Capture"), N_("Sysprof captures") },
};

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */

/* A confirmation that goes away by itself, over the page in its host's toast
 * overlay (the viewer's window). A page nobody shows has nobody to tell. */
void
_smprof_job_page_show_toast (SmprofJobPage *self,
                             const char    *message)
{
  SmvHost *host = smv_host_find (GTK_WIDGET (self));
  AdwToast *toast;

  if (host == NULL)
    {
      g_debug ("No host for the note “%s”", message);
      return;
    }

  toast = adw_toast_new (message);
  adw_toast_set_timeout (toast, TOAST_SECONDS);
  smv_host_add_toast (host, toast);
}

/* An error, in a bar at the top of the page until closed. */
void
_smprof_job_page_show_error (SmprofJobPage *self,
                             const char    *message)
{
  gtk_label_set_label (self->error_label, message);
  gtk_info_bar_set_revealed (self->error_bar, TRUE);
}

/* ------------------------------------------------------------------------ */
/* Exporting a profile                                                      */

static void
export_profile_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (smprof_export_profile_to_file_finish (SMPROF_PROFILE (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* How a picture is drawn, from the save dialog's choices (or the defaults). */
typedef struct
{
  SmprofFlameDirection direction;
  double               width;
} PictureChoice;

#define PICTURE_CHOICE_DEFAULT ((PictureChoice) { SMPROF_FLAME_DIRECTION_UP, 1200 })

static void
export_profile_async (SmprofJobPage       *self,
                      SmprofProfile       *profile,
                      const char          *description,
                      SmprofExportFormat   format,
                      PictureChoice        picture,
                      GFile               *file,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  SmprofFlameGraph *flame_graph = smprof_flame_graph_view_get_flame_graph (self->flame_graph_view);
  g_autoptr(GTask) task = NULL;
  SmprofExportOptions options;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_job_page_export_async);

  if (profile == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
                               _("Nothing is aggregated yet: select intervals first."));
      return;
    }

  /* The picture's subtitle names the job, the profiler, the nodes, the
   * selection and how many intervals it sums. */
  smprof_export_options_init (&options);
  options.selection = description;
  options.direction = picture.direction;
  options.width = picture.width;
  /* Pictures take the colour scheme the flame graph shows (the light variant:
   * a file outlives the window's style), and its zoom: what is looked at is
   * what goes into the report. */
  smprof_flame_palette_from_string (smprof_flame_graph_get_color_scheme (flame_graph), &options.palette);
  if (smprof_flame_graph_get_profile (flame_graph) == profile)
    options.zoom_node = smprof_flame_graph_get_zoom_node (flame_graph);

  g_task_set_task_data (task, g_object_ref (profile), g_object_unref);
  smprof_export_profile_to_file_async (profile, format, &options, file, cancellable,
                                       export_profile_cb, g_steal_pointer (&task));
}

/**
 * smprof_job_page_export_async:
 * @self: a job page
 * @format: what to write
 * @file: where
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the file is written (or not)
 * @user_data: for @callback
 *
 * Exports the selection shown on the chosen nodes, reshaped by the
 * session's transforms (smprof_session_get_view_profile()),
 * as the Export menu does after its save dialog: on a worker thread, @file
 * replaced only once the export succeeded. Pictures carry a subtitle naming
 * the job, the nodes and the selection
 * (smprof_job_page_dup_selection_description()).
 */
void
smprof_job_page_export_async (SmprofJobPage       *self,
                              SmprofExportFormat   format,
                              GFile               *file,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (format < SMPROF_EXPORT_N_FORMATS);
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  export_profile_async (self, smprof_session_get_view_profile (self->session),
                        smprof_session_get_description (self->session), format, PICTURE_CHOICE_DEFAULT, file,
                        cancellable, callback, user_data);
}

/**
 * smprof_job_page_export_finish:
 * @self: a job page
 * @result: the result given to the callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: whether the file was written
 */
gboolean
smprof_job_page_export_finish (SmprofJobPage  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * smprof_job_page_dup_export_name:
 * @self: a job page
 * @format: the format
 *
 * The file name a save dialog suggests: the job, the selection, the node
 * when one is chosen, and the format's extension
 * ("pt-cprofile-steps-3-5.svg", "pt-cprofile-whole-job-1-algo-2.prof").
 *
 * Returns: (transfer full): the name
 */
char *
smprof_job_page_dup_export_name (SmprofJobPage      *self,
                                 SmprofExportFormat  format)
{
  g_autofree char *location = NULL;
  g_autofree char *job = NULL;
  const char *slug;

  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);
  g_return_val_if_fail (format < SMPROF_EXPORT_N_FORMATS, NULL);

  location = smprof_source_dup_location (smprof_job_get_source (smprof_session_get_job (self->session)));
  job = g_path_get_basename (location);
  if (job[0] == '\0' || g_str_equal (job, G_DIR_SEPARATOR_S) || g_str_equal (job, "."))
    {
      g_free (job);
      job = g_strdup ("smprof");
    }

  slug = smprof_session_get_slug (self->session);
  return g_strdup_printf ("%s-%s%s", job, slug != NULL ? slug : "selection",
                          smprof_export_format_get_extension (format));
}

/* ------------------------------------------------------------------------ */
/* The menu and its dialog                                                  */

/* How an export or a report from a dialog ended: nothing to say when it
 * was cancelled, the error in the bar, or a toast. @result is the page's
 * GTask (smprof_job_page_export_async(), _export_report_async()). */
void
_smprof_job_page_tell_written (SmprofJobPage *self,
                               GAsyncResult  *result,
                               GFile         *file,
                               gboolean       report)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *message = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      if (report)
        /* Translators: a file or folder name, then why it could not be written */
        message = g_strdup_printf (_("Could not write the report “%s”: %s"), name, error->message);
      else
        /* Translators: a file name, then why it could not be written */
        message = g_strdup_printf (_("Could not export “%s”: %s"), name, error->message);
      _smprof_job_page_show_error (self, message);
      return;
    }

  gtk_info_bar_set_revealed (self->error_bar, FALSE);
  if (report)
    /* Translators: a file or folder name */
    message = g_strdup_printf (_("Report written to “%s”"), name);
  else
    /* Translators: a file name */
    message = g_strdup_printf (_("Exported “%s”"), name);
  _smprof_job_page_show_toast (self, message);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GFile) file = user_data;

  _smprof_job_page_tell_written (SMPROF_JOB_PAGE (object), result, file, FALSE);
}

/* A modal "Export" save dialog over the page's window, in the folder the
 * last one saved in (the plugin's last-export-folder setting), not in
 * whatever folder the viewer was started from. */
GtkFileChooserNative *
_smprof_job_page_new_save_dialog (SmprofJobPage *self,
                                  const char    *title)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autoptr(GFile) folder = smprof_ui_settings_dup_export_folder ();
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);

  return dialog;
}

/* A save dialog's answer: the file it names, or %NULL when cancelled, with
 * the page's export cancellable ready. The page's reference to @dialog, in
 * *@slot, moves to *@owned: the caller holds it while it reads the dialog's
 * data. */
GFile *
_smprof_job_page_take_dialog_file (SmprofJobPage         *self,
                                   GtkFileChooserNative **slot,
                                   GtkFileChooserNative  *dialog,
                                   int                    response,
                                   GtkFileChooserNative **owned)
{
  GFile *file;

  if (dialog == *slot)
    *owned = g_steal_pointer (slot);

  if (response != GTK_RESPONSE_ACCEPT)
    return NULL;

  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (file);

      if (folder != NULL)
        smprof_ui_settings_set_export_folder (folder);
    }
  if (file != NULL && self->export->cancellable == NULL)
    self->export->cancellable = g_cancellable_new ();

  return file;
}

static gboolean
is_picture (SmprofExportFormat format)
{
  return format == SMPROF_EXPORT_SVG || format == SMPROF_EXPORT_PNG || format == SMPROF_EXPORT_PDF;
}

static const char *const picture_widths[] = { "800", "1200", "1600", "2400", NULL };

/* @values with @first moved to the front. GTK 4.8's own dialog (the one used
 * without a portal) ignores gtk_file_chooser_set_choice() and opens on a
 * choice's first option, so the option to offer goes first. */
static void
order_first (const char *const *values,
             const char        *first,
             const char       **ordered)
{
  guint n = 0;

  ordered[n++] = first;
  for (guint i = 0; values[i] != NULL; i++)
    if (!g_str_equal (values[i], first))
      ordered[n++] = values[i];
  ordered[n] = NULL;
}

/* A picture's options as choices in the save dialog itself (a portal shows
 * them too), so a report's figure is one step: the direction, and the width
 * in pixels (PNG, SVG) or points (PDF). The last choices are offered again. */
static void
add_picture_choices (SmprofJobPage  *self,
                     GtkFileChooser *chooser)
{
  static const char *const directions[] = { "flame", "icicle", NULL };
  const char *direction = self->export->picture_direction != NULL ? self->export->picture_direction : "flame";
  const char *width = self->export->picture_width != NULL ? self->export->picture_width : "1200";
  const char *ordered[G_N_ELEMENTS (picture_widths)];
  const char *labels[G_N_ELEMENTS (picture_widths)];
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);

  order_first (directions, direction, ordered);
  for (guint i = 0; ordered[i] != NULL; i++)
    labels[i] = g_str_equal (ordered[i], "icicle") ? _("Icicle graph") : _("Flame graph");
  labels[G_N_ELEMENTS (directions) - 1] = NULL;
  gtk_file_chooser_add_choice (chooser, "direction", _("Draw as"), ordered, labels);
  gtk_file_chooser_set_choice (chooser, "direction", direction);

  order_first (picture_widths, width, ordered);
  for (guint i = 0; ordered[i] != NULL; i++)
    {
      /* Translators: a picture's width; %s is a number of pixels */
      labels[i] = g_strdup_printf (_("%s px wide"), ordered[i]);
      g_ptr_array_add (owned, (char *) labels[i]);
    }
  labels[G_N_ELEMENTS (picture_widths) - 1] = NULL;
  gtk_file_chooser_add_choice (chooser, "width", _("Width"), ordered, labels);
  gtk_file_chooser_set_choice (chooser, "width", width);
}

static PictureChoice
take_picture_choice (SmprofJobPage  *self,
                     GtkFileChooser *chooser)
{
  PictureChoice picture = PICTURE_CHOICE_DEFAULT;
  const char *direction = gtk_file_chooser_get_choice (chooser, "direction");
  const char *width = gtk_file_chooser_get_choice (chooser, "width");

  if (g_strcmp0 (direction, "icicle") == 0 || g_strcmp0 (direction, "flame") == 0)
    {
      picture.direction = direction[0] == 'i' ? SMPROF_FLAME_DIRECTION_DOWN : SMPROF_FLAME_DIRECTION_UP;
      g_free (self->export->picture_direction);
      self->export->picture_direction = g_strdup (direction);
    }

  if (width != NULL && g_strv_contains (picture_widths, width))
    {
      picture.width = g_ascii_strtod (width, NULL);
      g_free (self->export->picture_width);
      self->export->picture_width = g_strdup (width);
    }

  return picture;
}

static void
export_dialog_response_cb (SmprofJobPage        *self,
                           int                   response,
                           GtkFileChooserNative *dialog)
{
  SmprofExportFormat format = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "smprof-export-format"));
  SmprofProfile *profile = g_object_get_data (G_OBJECT (dialog), "smprof-export-profile");
  const char *description = g_object_get_data (G_OBJECT (dialog), "smprof-export-description");
  g_autoptr(GtkFileChooserNative) owned = NULL;
  g_autoptr(GFile) file = _smprof_job_page_take_dialog_file (self, &self->export->export_dialog, dialog, response, &owned);
  PictureChoice picture = PICTURE_CHOICE_DEFAULT;

  if (file == NULL)
    return;

  if (is_picture (format))
    picture = take_picture_choice (self, GTK_FILE_CHOOSER (dialog));

  /* The selection as it was when the dialog opened. */
  export_profile_async (self, profile, description, format, picture, file, self->export->cancellable,
                        export_done_cb, g_object_ref (file));
}

static void
export_with_dialog (SmprofJobPage      *self,
                    SmprofExportFormat  format)
{
  g_autofree char *name = NULL;
  g_autofree char *pattern = NULL;
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;

  if (smprof_session_get_profile (self->session) == NULL)
    return;

  if (self->export->export_dialog != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->export->export_dialog));
      g_clear_object (&self->export->export_dialog);
    }

  dialog = _smprof_job_page_new_save_dialog (self, _(export_formats[format].title));

  name = smprof_job_page_dup_export_name (self, format);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _(export_formats[format].filter));
  pattern = g_strdup_printf ("*%s", smprof_export_format_get_extension (format));
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_unref (filter);

  if (is_picture (format))
    add_picture_choices (self, GTK_FILE_CHOOSER (dialog));

  g_object_set_data (G_OBJECT (dialog), "smprof-export-format", GUINT_TO_POINTER (format));
  g_object_set_data_full (G_OBJECT (dialog), "smprof-export-profile",
                          g_object_ref (smprof_session_get_view_profile (self->session)), g_object_unref);
  g_object_set_data_full (G_OBJECT (dialog), "smprof-export-description",
                          g_strdup (smprof_session_get_description (self->session)),
                          g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (export_dialog_response_cb), self, G_CONNECT_SWAPPED);

  self->export->export_dialog = dialog;
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_format_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  for (guint i = 0; i < SMPROF_EXPORT_N_FORMATS; i++)
    if (g_str_equal (action_name, export_formats[i].action))
      {
        export_with_dialog (SMPROF_JOB_PAGE (widget), i);
        return;
      }
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SmprofExportFormat format;

  if (smprof_export_format_from_string (g_variant_get_string (parameter, NULL), &format))
    export_with_dialog (SMPROF_JOB_PAGE (widget), format);
}

static void
export_menu_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  gtk_menu_button_popup (SMPROF_JOB_PAGE (widget)->export_button);
}

/* Enabled once there is a profile to write. */
void
_smprof_job_page_update_export_actions (SmprofJobPage *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean enabled = smprof_session_get_profile (self->session) != NULL;

  gtk_widget_action_set_enabled (widget, "job-page.export", enabled);
  gtk_widget_action_set_enabled (widget, "job-page.export-report", enabled);
  for (guint i = 0; i < SMPROF_EXPORT_N_FORMATS; i++)
    gtk_widget_action_set_enabled (widget, export_formats[i].action, enabled);
}

void
_smprof_job_page_export_init (SmprofJobPage *self)
{
  self->export = g_new0 (SmprofJobPageExport, 1);
  _smprof_job_page_update_export_actions (self);
}

/* For the report, whose dialog's answer writes with the exports' cancellable. */
GCancellable *
_smprof_job_page_get_export_cancellable (SmprofJobPage *self)
{
  return self->export->cancellable;
}

/* For the tests */
GtkFileChooserNative *
_smprof_job_page_get_export_dialog (SmprofJobPage *self)
{
  return self->export != NULL ? self->export->export_dialog : NULL;
}

void
_smprof_job_page_export_dispose (SmprofJobPage *self)
{
  if (self->export == NULL)
    return;

  if (self->export->cancellable != NULL)
    g_cancellable_cancel (self->export->cancellable);
  g_clear_object (&self->export->cancellable);
  g_clear_pointer (&self->export->picture_direction, g_free);
  g_clear_pointer (&self->export->picture_width, g_free);

  if (self->export->export_dialog != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->export->export_dialog, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->export->export_dialog));
      g_clear_object (&self->export->export_dialog);
    }
  _smprof_job_page_report_dispose (self);

  g_clear_pointer (&self->export, g_free);
}

void
_smprof_job_page_class_export_init (GtkWidgetClass *widget_class)
{
  for (guint i = 0; i < SMPROF_EXPORT_N_FORMATS; i++)
    gtk_widget_class_install_action (widget_class, export_formats[i].action, NULL, export_format_action);

  gtk_widget_class_install_action (widget_class, "job-page.export", "s", export_action);
  _smprof_job_page_class_report_init (widget_class);

  gtk_widget_class_install_action (widget_class, "job-page.export-menu", NULL, export_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "job-page.export-menu", NULL);
}
