/* smprof-job-page-header.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"

/* The job page's header: the job's name and summary, the node choice (the
 * drop-down and the "Choose nodes…" popover), the profiler switch and the
 * error bar under them, with the API that sets the profiler and the nodes. */

void
_smprof_job_page_update_header (SmprofJobPage *self)
{
  SmprofSource *source = smprof_job_get_source (self->job);
  g_autofree char *location = smprof_source_dup_location (source);
  g_autofree char *name = g_path_get_basename (location);
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  guint n_nodes = g_strv_length (self->all_node_ids);
  g_autofree char *nodes = NULL;
  g_autofree char *intervals = NULL;
  g_autofree char *summary = NULL;

  gtk_label_set_label (self->job_name_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->job_name_label), location);

  nodes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", n_nodes), n_nodes);
  intervals = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", records->len),
                               records->len);

  if (n_nodes > 1 && records->len % n_nodes == 0)
    {
      guint each = records->len / n_nodes;
      g_autofree char *per_node = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u per node", "%u per node", each),
                                                   each);

      /* Translators: "2 nodes · 82 intervals (41 per node)" */
      summary = g_strdup_printf (_("%s · %s (%s)"), nodes, intervals, per_node);
    }
  else
    /* Translators: "2 nodes · 82 intervals" */
    summary = g_strdup_printf (_("%s · %s"), nodes, intervals);

  gtk_label_set_label (self->job_summary_label, summary);
}

void
_smprof_job_page_update_node_model (SmprofJobPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->node_model));

  self->syncing = TRUE;
  gtk_string_list_splice (self->node_model, 0, n, NULL);
  gtk_string_list_append (self->node_model, _("All nodes"));
  for (guint i = 0; self->all_node_ids[i] != NULL; i++)
    gtk_string_list_append (self->node_model, self->all_node_ids[i]);
  gtk_drop_down_set_selected (self->node_dropdown, 0);
  self->syncing = FALSE;

  smprof_node_chooser_set_node_ids (self->node_chooser, (const char * const *) self->all_node_ids);
  smprof_node_chooser_set_chosen (self->node_chooser, (const char * const *) self->node_ids);
}

/* "Choose nodes…": several nodes, or all of them when all are checked. */
static void
node_chooser_changed_cb (SmprofJobPage     *self,
                         SmprofNodeChooser *chooser)
{
  g_auto(GStrv) chosen = smprof_node_chooser_dup_chosen (chooser);

  smprof_job_page_set_node_ids (self, (const char * const *) chosen);
}

static void
node_selected_cb (SmprofJobPage *self,
                  GParamSpec    *pspec,
                  GtkDropDown   *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;

  if (selected == 0)
    smprof_job_page_set_node_ids (self, NULL);
  else
    {
      const char *ids[] = { self->all_node_ids[selected - 1], NULL };

      smprof_job_page_set_node_ids (self, ids);
    }
}

void
_smprof_job_page_set_profiler_internal (SmprofJobPage  *self,
                                        SmprofProfiler  profiler)
{
  self->profiler = profiler;

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  self->all_node_ids = smprof_job_dup_node_ids (self->job, profiler);
  g_clear_pointer (&self->node_ids, g_strfreev);

  /* Records belong to one profiler: an explicit set does not carry over. */
  if (self->explicit_records != NULL || self->has_query)
    {
      _smprof_job_page_clear_query (self);
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
    }

  self->syncing = TRUE;
  gtk_toggle_button_set_active (profiler == SMPROF_PROFILER_CPROFILE ? self->cprofile_button : self->pyinstrument_button,
                                TRUE);
  self->syncing = FALSE;

  /* The timeline shows the profiler's intervals, every node; its selection
   * is cleared, and the page sets its own again afterwards. */
  self->timeline_syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, NULL);
  smprof_timeline_set_profiler (self->timeline, profiler);
  self->timeline_syncing = FALSE;

  _smprof_job_page_update_header (self);
  _smprof_job_page_update_node_model (self);
  _smprof_job_page_update_step_range (self);
  _smprof_job_page_update_modes (self);
}

static void
profiler_toggled_cb (SmprofJobPage   *self,
                     GtkToggleButton *button)
{
  if (self->syncing || !gtk_toggle_button_get_active (button))
    return;

  smprof_job_page_set_profiler (self,
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

SmprofProfiler
smprof_job_page_get_profiler (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

/**
 * smprof_job_page_set_profiler:
 * @self: a job page
 * @profiler: the profiler whose records to show
 *
 * Switches profiler, on the page and on the timeline; the node choice goes
 * back to all nodes, presets keep, other selections become the whole job.
 */
void
smprof_job_page_set_profiler (SmprofJobPage  *self,
                              SmprofProfiler  profiler)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (profiler < SMPROF_N_PROFILERS);

  if (profiler == self->profiler)
    return;

  /* A and B are of one profiler: a comparison ends with it. */
  _smprof_job_page_close_comparison (self);
  _smprof_job_page_set_profiler_internal (self, profiler);
  _smprof_job_page_update_outliers (self);
  if (self->preset == SMPROF_JOB_PAGE_PRESET_NONE)
    self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
  _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
  _smprof_job_page_sync_preset_row (self);
  _smprof_job_page_sync_timeline (self);
  _smprof_job_page_queue_update (self);
}

/**
 * smprof_job_page_get_node_ids:
 * @self: a job page
 *
 * Returns: (transfer none): the nodes the selection covers, sorted
 */
const char * const *
smprof_job_page_get_node_ids (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return _smprof_job_page_current_node_ids (self);
}

/* After the node choice changed: a timeline range applies to the new nodes;
 * chosen intervals on nodes no longer chosen drop out. */
static void
follow_node_choice (SmprofJobPage *self)
{
  if (self->preset != SMPROF_JOB_PAGE_PRESET_NONE)
    return;

  if (self->has_query)
    {
      g_clear_pointer (&self->query_node_ids, g_strfreev);
      g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
      return;
    }

  if (self->explicit_records != NULL)
    {
      const char * const *ids = _smprof_job_page_current_node_ids (self);
      GPtrArray *kept = g_ptr_array_new ();

      for (guint i = 0; i < self->explicit_records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (self->explicit_records, i);

          if (g_strv_contains (ids, record->node_id))
            g_ptr_array_add (kept, record);
        }
      g_ptr_array_unref (self->explicit_records);
      self->explicit_records = kept;

      if (kept->len == 0)
        {
          _smprof_job_page_clear_query (self);
          self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
          _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
          _smprof_job_page_sync_preset_row (self);
        }
    }
}

/**
 * smprof_job_page_set_node_ids:
 * @self: a job page
 * @node_ids: (nullable): the nodes to aggregate, one or several; %NULL for all
 *
 * The timeline shows those nodes only. A preset or a dragged range applies
 * to the new nodes; intervals picked on the timeline keep those of the
 * chosen nodes.
 */
void
smprof_job_page_set_node_ids (SmprofJobPage      *self,
                              const char * const *node_ids)
{
  guint selected = 0;

  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  g_clear_pointer (&self->node_ids, g_strfreev);
  if (node_ids != NULL)
    self->node_ids = g_strdupv ((char **) node_ids);

  /* The drop-down shows "All nodes" or one node; several show as none. */
  if (node_ids != NULL)
    {
      selected = GTK_INVALID_LIST_POSITION;
      if (g_strv_length ((char **) node_ids) == 1)
        for (guint i = 0; self->all_node_ids[i] != NULL; i++)
          if (g_strcmp0 (self->all_node_ids[i], node_ids[0]) == 0)
            selected = i + 1;
    }
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->node_dropdown, selected);
  self->syncing = FALSE;
  smprof_node_chooser_set_chosen (self->node_chooser, node_ids);

  self->timeline_syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, node_ids);
  self->timeline_syncing = FALSE;

  follow_node_choice (self);
  _smprof_job_page_sync_timeline (self);
  _smprof_job_page_queue_update (self);
}

void
_smprof_job_page_class_header_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, profiler_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
}

void
_smprof_job_page_header_init (SmprofJobPage *self)
{
  self->node_model = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->node_dropdown, G_LIST_MODEL (self->node_model));
  g_signal_connect_object (self->node_dropdown, "notify::selected",
                           G_CALLBACK (node_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->node_chooser, "changed",
                           G_CALLBACK (node_chooser_changed_cb), self, G_CONNECT_SWAPPED);
}
