/* smprof-job-page-report.c: the job page's Export Report
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-report.h"

#include "smprof-job-page-private.h"

/* A report is what `smprof report` writes, for the selection shown: one
 * self-contained HTML page (the default name ends in .html, so it can be
 * mailed or attached as it is) or, for any other name, a folder with the
 * summary, the flame graph SVG and the tables as CSV. It is written on a
 * worker thread by the core (smprof-report.h). */

static void
report_written_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (smprof_report_write_finish (SMPROF_PROFILE (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
write_report_async (SmprofJobPage       *self,
                    SmprofProfile       *profile,
                    GPtrArray           *records,
                    const char          *description,
                    gboolean             with_command,
                    GFile               *file,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *command_line = NULL;
  SmprofReportOptions options;
  SmprofDiff *diff;

  g_task_set_source_tag (task, smprof_job_page_export_report_async);

  if (profile == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
                               _("Nothing is aggregated yet: select intervals first."));
      return;
    }

  /* The options are copied by the core before this returns. The command
   * that writes the same report, selection and transforms included, when
   * the selection has one: a dragged range has no exact `smprof`
   * equivalent (the command line's --time keeps smdebug's rule, not the
   * timeline's overlap). */
  if (with_command)
    command_line = smprof_session_dup_command_line (self->session, "report", path);
  smprof_report_options_init (&options);
  /* The steps flagged as the page flags them (the command says so too). */
  options.steps.threshold = smprof_session_get_outlier_threshold (self->session);
  options.selection = description;
  options.command_line = command_line;
  options.flame.selection = description;
  smprof_flame_palette_from_string (smprof_flame_graph_get_color_scheme (
                                      smprof_flame_graph_view_get_flame_graph (self->flame_graph_view)),
                                    &options.flame.palette);

  /* An open comparison goes in too, as the compare view shows it. */
  diff = smprof_session_get_diff (self->session);
  if (diff != NULL)
    {
      options.diff.a_label = smprof_session_get_compare_label (self->session, SMPROF_DIFF_A);
      options.diff.b_label = smprof_session_get_compare_label (self->session, SMPROF_DIFF_B);
      options.diff.min_delta = _smprof_job_page_get_compare_min_delta (self);
    }

  smprof_report_write_async (profile, records, diff, smprof_report_format_for_path (path, FALSE), &options,
                             file, cancellable, report_written_cb, g_steal_pointer (&task));
}

/**
 * smprof_job_page_export_report_async:
 * @self: a job page
 * @file: a page to write (a name ending in .html) or a folder
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the report is written (or not)
 * @user_data: for @callback
 *
 * Writes a report of the selection shown on the chosen nodes, reshaped by
 * the session's transforms, as Export Report does after its dialog: the
 * flame graph, the function table, the per-step statistics of the selected
 * intervals and a summary naming the job, nodes, selection and transforms,
 * with the `smprof report` command that writes it again when the selection
 * has one (smprof_session_dup_command_line()).
 */
void
smprof_job_page_export_report_async (SmprofJobPage       *self,
                                     GFile               *file,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  write_report_async (self, smprof_session_get_view_profile (self->session),
                      smprof_session_get_selected_records (self->session),
                      smprof_session_get_description (self->session), TRUE, file,
                      cancellable, callback, user_data);
}

/**
 * smprof_job_page_export_report_finish:
 * @self: a job page
 * @result: the result given to the callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: whether the report was written
 */
gboolean
smprof_job_page_export_report_finish (SmprofJobPage  *self,
                                      GAsyncResult   *result,
                                      GError        **error)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
report_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GFile) file = user_data;

  _smprof_job_page_tell_written (SMPROF_JOB_PAGE (object), result, file, TRUE);
}

static void
report_dialog_response_cb (SmprofJobPage        *self,
                           int                   response,
                           GtkFileChooserNative *dialog)
{
  SmprofProfile *profile = g_object_get_data (G_OBJECT (dialog), "smprof-report-profile");
  GPtrArray *records = g_object_get_data (G_OBJECT (dialog), "smprof-report-records");
  const char *description = g_object_get_data (G_OBJECT (dialog), "smprof-report-description");
  g_autoptr(GtkFileChooserNative) owned = NULL;
  g_autoptr(GFile) file = _smprof_job_page_take_dialog_file (self, &self->export->report_dialog, dialog, response, &owned);

  if (file == NULL)
    return;

  /* The selection as it was when the dialog opened; its command line only
   * if the selection and the transforms are still those. */
  write_report_async (self, profile, records, description,
                      profile == smprof_session_get_view_profile (self->session), file,
                      _smprof_job_page_get_export_cancellable (self), report_done_cb, g_object_ref (file));
}

static void
export_report_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  SmprofProfile *profile = smprof_session_get_view_profile (self->session);
  GPtrArray *records = smprof_session_get_selected_records (self->session);
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;
  GtkFileChooserNative *dialog;

  if (profile == NULL)
    return;

  _smprof_job_page_report_dispose (self);

  dialog = _smprof_job_page_new_save_dialog (self, _("Export a Report"));

  /* "pt-cprofile-steps-3-5.svg" becomes "pt-cprofile-steps-3-5-report.html" */
  base = smprof_job_page_dup_export_name (self, SMPROF_EXPORT_SVG);
  if (g_str_has_suffix (base, ".svg"))
    base[strlen (base) - strlen (".svg")] = '\0';
  name = g_strconcat (base, "-report.html", NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);

  g_object_set_data_full (G_OBJECT (dialog), "smprof-report-profile", g_object_ref (profile), g_object_unref);
  g_object_set_data_full (G_OBJECT (dialog), "smprof-report-records",
                          records != NULL ? g_ptr_array_ref (records) : NULL,
                          records != NULL ? (GDestroyNotify) g_ptr_array_unref : NULL);
  g_object_set_data_full (G_OBJECT (dialog), "smprof-report-description",
                          g_strdup (smprof_session_get_description (self->session)), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (report_dialog_response_cb), self, G_CONNECT_SWAPPED);

  self->export->report_dialog = dialog;
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
_smprof_job_page_report_dispose (SmprofJobPage *self)
{
  if (self->export != NULL && self->export->report_dialog != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->export->report_dialog, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->export->report_dialog));
      g_clear_object (&self->export->report_dialog);
    }
}

void
_smprof_job_page_class_report_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "job-page.export-report", NULL, export_report_action);
}
