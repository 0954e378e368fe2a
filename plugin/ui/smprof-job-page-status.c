/* smprof-job-page-status.c: the job page's status line: the session's
 * answer in words
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"
#include "smprof-ui-format.h"

/* ------------------------------------------------------------------------ */
/* The status line                                                          */

static char *
describe_nodes (SmprofJobPage *self)
{
  const char * const *ids = smprof_session_get_selected_node_ids (self->session);
  guint n = ids != NULL ? g_strv_length ((char **) ids) : 0;
  g_autofree char *joined = NULL;

  if (n == 1)
    /* Translators: the one node aggregated */
    return g_strdup_printf (_("node %s"), ids[0]);

  /* Several nodes chosen by hand are named, however many. */
  if (n > 3 && smprof_session_get_chosen_node_ids (self->session) == NULL)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", n), n);

  joined = g_strjoinv (", ", (char **) ids);
  /* Translators: how many nodes, then their names */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node (%s)", "%u nodes (%s)", n), n, joined);
}

void
_smprof_job_page_update_status (SmprofJobPage *self)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  GPtrArray *selected = smprof_session_get_selected_records (self->session);
  SmprofProfile *profile = smprof_session_get_profile (self->session);
  guint n_selected;
  guint n_read;
  guint files_to_read = smprof_session_get_files_to_read (self->session);
  g_autofree char *selected_text = NULL;
  g_autofree char *tooltip = NULL;
  const char *description;

  /* A selection whose files are being read (from S3, or a cold disk) says
   * how far it is, so a long first answer is not a silent spinner. */
  if (files_to_read > 0)
    {
      g_autofree char *read_text = smprof_ui_format_count (smprof_session_get_files_read (self->session));
      g_autofree char *to_read_text = smprof_ui_format_count (files_to_read);

      /* The counts run to tens of thousands on S3: grouped as the
       * function table's count is. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           /* Translators: "Reading 40 of 40,000 stats files for this selection…" */
                                           "Reading %s of %s stats file for this selection…",
                                           "Reading %s of %s stats files for this selection…",
                                           files_to_read),
                              read_text, to_read_text);
      gtk_label_set_label (self->status_label, text);
      return;
    }

  if (selected == NULL)
    {
      gtk_label_set_label (self->status_label, _("Computing…"));
      return;
    }

  n_selected = selected->len;
  if (n_selected == 0)
    {
      gtk_label_set_label (self->status_label, _("No interval matches this selection."));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), NULL);
      return;
    }

  n_read = profile != NULL ? smprof_profile_get_records (profile)->len : 0;

  selected_text = smprof_ui_format_count (n_selected);
  g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s interval", "%s intervals", n_selected),
                                           selected_text));
  /* found by the worker that picked the records */
  g_ptr_array_add (parts, g_strdup (smprof_session_get_selected_steps (self->session)));
  g_ptr_array_add (parts, describe_nodes (self));

  if (profile != NULL && n_read > 0)
    {
      g_autofree char *total = smprof_ui_format_duration (smprof_profile_get_total_time (profile));

      /* Translators: the total time of the aggregated selection, as in "3.21 s total" */
      g_ptr_array_add (parts, g_strdup_printf (_("%s total"), total));
    }

  if (n_read < n_selected)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u unreadable", "%u unreadable",
                                                          n_selected - n_read),
                                             n_selected - n_read));

  if (smprof_session_get_profiler (self->session) == SMPROF_PROFILER_CPROFILE)
    g_ptr_array_add (parts, g_strdup (_("cProfile, call trees estimated")));
  else
    g_ptr_array_add (parts, g_strdup (_("Pyinstrument, sampled")));

  g_ptr_array_add (parts, NULL);
  text = g_strjoinv (" · ", (char **) parts->pdata);
  gtk_label_set_label (self->status_label, text);
  /* all of the line, in case a long node list cut it, then what the
   * selection is */
  description = smprof_session_get_description (self->session);
  tooltip = description != NULL ? g_strconcat (text, "\n", description, NULL) : g_strdup (text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), tooltip);
}

void
_smprof_job_page_status_init (SmprofJobPage *self)
{
  g_signal_connect_object (self->session, "notify::profile", G_CALLBACK (_smprof_job_page_update_status), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::files-to-read", G_CALLBACK (_smprof_job_page_update_status),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::files-read", G_CALLBACK (_smprof_job_page_update_status), self,
                           G_CONNECT_SWAPPED);
  _smprof_job_page_update_status (self);
}
