/* smprof-job-page-header.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"
#include "smprof-ui-format.h"

/* The job page's header: the job's name and summary, the node choice (the
 * drop-down and the "Choose nodes…" popover), the profiler switch and the
 * error bar under them. They show the session's job, nodes and profiler, and
 * set them. */

static void
sync_summary (SmprofJobPage *self)
{
  SmprofJob *job = smprof_session_get_job (self->session);
  g_autofree char *location = smprof_source_dup_location (smprof_job_get_source (job));
  g_autofree char *name = g_path_get_basename (location);
  GPtrArray *records = smprof_job_get_records (job, smprof_session_get_profiler (self->session));
  guint n_nodes = g_strv_length ((char **) smprof_session_get_all_node_ids (self->session));
  g_autofree char *nodes = NULL;
  g_autofree char *intervals = NULL;
  g_autofree char *count = NULL;
  g_autofree char *summary = NULL;

  gtk_label_set_label (self->job_name_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->job_name_label), location);

  nodes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", n_nodes), n_nodes);
  count = smprof_ui_format_count (records->len);
  /* Translators: the count is grouped, as in "102,912 intervals" */
  intervals = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s interval", "%s intervals", records->len), count);

  if (n_nodes > 1 && records->len % n_nodes == 0)
    {
      guint each = records->len / n_nodes;
      g_autofree char *each_text = smprof_ui_format_count (each);
      g_autofree char *per_node = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s per node", "%s per node", each),
                                                   each_text);

      /* Translators: "2 nodes · 82 intervals (41 per node)" */
      summary = g_strdup_printf (_("%s · %s (%s)"), nodes, intervals, per_node);
    }
  else
    /* Translators: "2 nodes · 82 intervals" */
    summary = g_strdup_printf (_("%s · %s"), nodes, intervals);

  gtk_label_set_label (self->job_summary_label, summary);
}

/* The drop-down lists "All nodes" and each node; it shows one node or all,
 * several show in the node chooser only. */
static void
sync_node_choice (SmprofJobPage *self)
{
  const char * const *all = smprof_session_get_all_node_ids (self->session);
  const char * const *chosen = smprof_session_get_chosen_node_ids (self->session);
  guint selected = 0;

  if (chosen != NULL)
    {
      selected = GTK_INVALID_LIST_POSITION;
      if (g_strv_length ((char **) chosen) == 1)
        for (guint i = 0; all[i] != NULL; i++)
          if (g_strcmp0 (all[i], chosen[0]) == 0)
            selected = i + 1;
    }

  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->node_dropdown, selected);
  smprof_node_chooser_set_chosen (self->node_chooser, chosen);
  self->syncing = FALSE;
}

static void
sync_nodes (SmprofJobPage *self)
{
  const char * const *all = smprof_session_get_all_node_ids (self->session);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->node_model));
  g_autoptr(GStrvBuilder) items = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  g_strv_builder_add (items, _("All nodes"));
  g_strv_builder_addv (items, (const char **) all);
  strv = g_strv_builder_end (items);

  self->syncing = TRUE;
  gtk_string_list_splice (self->node_model, 0, n, (const char * const *) strv);
  smprof_node_chooser_set_node_ids (self->node_chooser, all);
  self->syncing = FALSE;

  sync_node_choice (self);
  sync_summary (self);
}

static void
sync_profiler (SmprofJobPage *self)
{
  SmprofProfiler profiler = smprof_session_get_profiler (self->session);

  self->syncing = TRUE;
  gtk_toggle_button_set_active (profiler == SMPROF_PROFILER_CPROFILE ? self->cprofile_button : self->pyinstrument_button,
                                TRUE);
  self->syncing = FALSE;
}

/* "Choose nodes…": several nodes, or all of them when all are checked. */
static void
node_chooser_changed_cb (SmprofJobPage     *self,
                         SmprofNodeChooser *chooser)
{
  g_auto(GStrv) chosen = NULL;

  if (self->syncing)
    return;

  chosen = smprof_node_chooser_dup_chosen (chooser);
  smprof_session_set_node_ids (self->session, (const char * const *) chosen);
}

static void
node_selected_cb (SmprofJobPage *self,
                  GParamSpec    *pspec,
                  GtkDropDown   *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  const char * const *all = smprof_session_get_all_node_ids (self->session);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;

  if (selected == 0)
    smprof_session_set_node_ids (self->session, NULL);
  else if (selected - 1 < g_strv_length ((char **) all))
    {
      const char *ids[] = { all[selected - 1], NULL };

      smprof_session_set_node_ids (self->session, ids);
    }
}

static void
profiler_toggled_cb (SmprofJobPage   *self,
                     GtkToggleButton *button)
{
  if (self->syncing || !gtk_toggle_button_get_active (button))
    return;

  smprof_session_set_profiler (self->session,
                               button == self->cprofile_button
                               ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT);
}

static void
error_bar_response_cb (SmprofJobPage *self,
                       int            response,
                       GtkInfoBar    *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

void
_smprof_job_page_class_header_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, profiler_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

void
_smprof_job_page_sync_header (SmprofJobPage *self)
{
  sync_profiler (self);
  sync_nodes (self);
}

void
_smprof_job_page_header_init (SmprofJobPage *self)
{
  SmprofJob *job = smprof_session_get_job (self->session);

  self->node_model = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->node_dropdown, G_LIST_MODEL (self->node_model));
  g_signal_connect_object (self->node_dropdown, "notify::selected",
                           G_CALLBACK (node_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->node_chooser, "changed",
                           G_CALLBACK (node_chooser_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_widget_set_visible (self->profiler_box,
                          smprof_job_has_profiler (job, SMPROF_PROFILER_CPROFILE) &&
                          smprof_job_has_profiler (job, SMPROF_PROFILER_PYINSTRUMENT));

  g_signal_connect_object (self->session, "notify::profiler", G_CALLBACK (sync_profiler), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::all-node-ids", G_CALLBACK (sync_nodes), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::node-ids", G_CALLBACK (sync_node_choice), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::job", G_CALLBACK (sync_summary), self, G_CONNECT_SWAPPED);

  _smprof_job_page_sync_header (self);
}

void
_smprof_job_page_header_dispose (SmprofJobPage *self)
{
  g_clear_object (&self->node_model);
}
