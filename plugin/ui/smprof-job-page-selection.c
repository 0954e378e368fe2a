/* smprof-job-page-selection.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"

/* The session's selection and the timeline mirror each other: the session's
 * job, profiler, nodes and selection shown on the timeline (the selection's
 * intervals outlined), and a drag or a click on the timeline given to the
 * session as its selection. `syncing` keeps the echo out. */

/* The session's selection, outlined on the timeline. The whole job is no
 * selection there (nothing outlined: everything counts). */
void
_smprof_job_page_sync_timeline (SmprofJobPage *self)
{
  SmprofPreset preset = smprof_session_get_preset (self->session);
  GPtrArray *explicit_records = smprof_session_get_explicit_records (self->session);

  if (smprof_timeline_get_layout (self->timeline) == NULL)
    return;

  self->syncing = TRUE;

  if (preset == SMPROF_PRESET_WHOLE_JOB)
    smprof_timeline_clear_selection (self->timeline);
  else if (explicit_records != NULL)
    smprof_timeline_select_records (self->timeline, explicit_records);
  else if (preset == SMPROF_PRESET_FORWARD_PASSES || preset == SMPROF_PRESET_REST_OF_STEP)
    {
      g_autoptr(GPtrArray) records = smprof_session_dup_selection_records (self->session);

      smprof_timeline_select_records (self->timeline, records);
    }
  else
    /* NULL: the shown nodes, which are the chosen ones */
    smprof_timeline_set_selection (self->timeline, smprof_session_get_selection (self->session), NULL);

  self->syncing = FALSE;
}

/* A preset zooms to what it selects (the whole job: to everything, the
 * wall clock in full); a drag or a click on the timeline leaves the view. */
static void
zoom_to_preset (SmprofJobPage *self)
{
  SmprofPreset preset = smprof_session_get_preset (self->session);

  if (preset == SMPROF_PRESET_WHOLE_JOB)
    smprof_timeline_zoom_reset (self->timeline);
  else if (preset != SMPROF_PRESET_NONE)
    smprof_timeline_zoom_to_selection (self->timeline);
}

static void
session_selection_changed_cb (SmprofJobPage *self)
{
  if (self->syncing)
    return;

  _smprof_job_page_sync_timeline (self);
  zoom_to_preset (self);
}

/* The timeline shows the profiler's intervals of the chosen nodes. */
static void
sync_profiler (SmprofJobPage *self)
{
  self->syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, smprof_session_get_chosen_node_ids (self->session));
  smprof_timeline_set_profiler (self->timeline, smprof_session_get_profiler (self->session));
  self->syncing = FALSE;
  smprof_timeline_frame_training_loop (self->timeline);
  _smprof_job_page_sync_timeline (self);
}

static void
sync_nodes (SmprofJobPage *self)
{
  self->syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, smprof_session_get_chosen_node_ids (self->session));
  self->syncing = FALSE;
  _smprof_job_page_sync_timeline (self);
}

/* A live refresh's job: the zoom and scroll stay where they were. */
static void
sync_job (SmprofJobPage *self)
{
  double view_start, view_end;

  smprof_timeline_get_visible_range (self->timeline, &view_start, &view_end);

  self->syncing = TRUE;
  smprof_timeline_set_job (self->timeline, smprof_session_get_job (self->session));
  smprof_timeline_set_visible_nodes (self->timeline, smprof_session_get_chosen_node_ids (self->session));
  smprof_timeline_set_visible_range (self->timeline, view_start, view_end);
  self->syncing = FALSE;
  _smprof_job_page_sync_timeline (self);
}

/* A drag, a click, Shift+click, the keyboard or Escape on the timeline: the
 * session aggregates exactly the intervals the timeline outlines. */
static void
timeline_selection_changed_cb (SmprofJobPage  *self,
                               SmprofTimeline *timeline)
{
  SmprofTimelineSelection *selection;

  if (self->syncing)
    return;

  selection = smprof_timeline_get_selection (timeline);

  self->syncing = TRUE;
  if (selection == NULL)
    /* Nothing selected: everything counts. */
    smprof_session_set_preset (self->session, SMPROF_PRESET_WHOLE_JOB);
  else if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY &&
           smprof_timeline_selection_get_query (selection)->kind == SMPROF_SELECT_ALL &&
           g_strv_equal (smprof_timeline_selection_get_node_ids (selection),
                         smprof_session_get_node_ids (self->session)))
    /* Ctrl+A */
    smprof_session_set_preset (self->session, SMPROF_PRESET_WHOLE_JOB);
  else if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY)
    smprof_session_select_range (self->session, smprof_timeline_selection_get_query (selection),
                                 smprof_timeline_selection_get_node_ids (selection),
                                 smprof_timeline_selection_get_records (selection));
  else
    smprof_session_select_records (self->session, smprof_timeline_selection_get_records (selection));
  self->syncing = FALSE;
}

static void
timeline_notify_selection_cb (SmprofJobPage  *self,
                              GParamSpec     *pspec,
                              SmprofTimeline *timeline)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.zoom-to-selection",
                                 smprof_timeline_get_selection (timeline) != NULL);
}

void
_smprof_job_page_class_selection_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, timeline_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, timeline_notify_selection_cb);
}

void
_smprof_job_page_selection_init (SmprofJobPage *self)
{
  g_signal_connect_object (self->session, "selection-changed", G_CALLBACK (session_selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::profiler", G_CALLBACK (sync_profiler), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::node-ids", G_CALLBACK (sync_nodes), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::job", G_CALLBACK (sync_job), self, G_CONNECT_SWAPPED);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.zoom-to-selection", FALSE);

  /* The timeline gets its profiler before the job, so it lays out the job
   * once. It opens aligned by step (node clocks differ; steps line up) on
   * the training loop: initialization and finalization often take most of
   * the wall clock, and Fit shows it all. */
  self->syncing = TRUE;
  smprof_timeline_set_align_by_step (self->timeline, TRUE);
  smprof_timeline_set_profiler (self->timeline, smprof_session_get_profiler (self->session));
  smprof_timeline_set_job (self->timeline, smprof_session_get_job (self->session));
  self->syncing = FALSE;
  smprof_timeline_frame_training_loop (self->timeline);
  _smprof_job_page_sync_timeline (self);
}
