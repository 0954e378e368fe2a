/* smprof-job-page-selection.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"

/* The job page's selection and the timeline, which mirror each other: the
 * page's selection outlined on the timeline, a drag or a click on the
 * timeline taken as the page's selection, and the public API that sets it (a
 * preset, a step range, a query, exact records). Each change queues one
 * update (smprof-job-page.c); smprof-job-page-aggregate.c runs it. */

/* The page's selection, outlined on the timeline. The whole job is no
 * selection there (nothing outlined: everything counts). */
void
_smprof_job_page_sync_timeline (SmprofJobPage *self)
{
  if (smprof_timeline_get_layout (self->timeline) == NULL)
    return;

  self->timeline_syncing = TRUE;

  if (self->preset == SMPROF_JOB_PAGE_PRESET_WHOLE_JOB)
    smprof_timeline_clear_selection (self->timeline);
  else if (self->explicit_records != NULL)
    smprof_timeline_select_records (self->timeline, self->explicit_records);
  else if (self->preset == SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES ||
           self->preset == SMPROF_JOB_PAGE_PRESET_REST_OF_STEP)
    {
      g_autoptr(GPtrArray) records = _smprof_job_page_select_for (self->job, self->profiler,
                                                                  _smprof_job_page_current_node_ids (self),
                                                                  self->preset, &self->selection, NULL);

      smprof_timeline_select_records (self->timeline, records);
    }
  else
    /* NULL: the shown nodes, which are the chosen ones */
    smprof_timeline_set_selection (self->timeline, &self->selection, NULL);

  self->timeline_syncing = FALSE;
}

void
_smprof_job_page_clear_query (SmprofJobPage *self)
{
  self->has_query = FALSE;
  g_clear_pointer (&self->query_node_ids, g_strfreev);
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
}

/* A drag, a click, Shift+click, the keyboard or Escape on the timeline: the
 * page aggregates exactly the intervals the timeline outlines. */
static void
timeline_selection_changed_cb (SmprofJobPage  *self,
                               SmprofTimeline *timeline)
{
  SmprofTimelineSelection *selection;

  if (self->timeline_syncing)
    return;

  selection = smprof_timeline_get_selection (timeline);
  _smprof_job_page_clear_query (self);

  if (selection == NULL)
    {
      /* Nothing selected: everything counts. */
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
      _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
    }
  else if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY &&
           smprof_timeline_selection_get_query (selection)->kind == SMPROF_SELECT_ALL &&
           g_strv_equal (smprof_timeline_selection_get_node_ids (selection), _smprof_job_page_current_node_ids (self)))
    {
      /* Ctrl+A */
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
      _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
    }
  else
    {
      self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
      self->explicit_records = g_ptr_array_copy (smprof_timeline_selection_get_records (selection), NULL, NULL);

      if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY)
        {
          const char * const *ids = smprof_timeline_selection_get_node_ids (selection);

          self->has_query = TRUE;
          self->selection = *smprof_timeline_selection_get_query (selection);
          if (!g_strv_equal (ids, _smprof_job_page_current_node_ids (self)))
            self->query_node_ids = g_strdupv ((char **) ids);
        }
    }

  _smprof_job_page_sync_preset_row (self);
  _smprof_job_page_queue_update (self);
}

static void
timeline_notify_selection_cb (SmprofJobPage  *self,
                              GParamSpec     *pspec,
                              SmprofTimeline *timeline)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.zoom-to-selection",
                                 smprof_timeline_get_selection (timeline) != NULL);
}
SmprofJobPagePreset
smprof_job_page_get_preset (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_JOB_PAGE_PRESET_NONE);

  return self->preset;
}

/**
 * smprof_job_page_set_preset:
 * @self: a job page
 * @preset: a preset, not %SMPROF_JOB_PAGE_PRESET_NONE
 *
 * Selects the intervals of @preset on the chosen nodes, and outlines them on
 * the timeline (the whole job is no outline).
 */
void
smprof_job_page_set_preset (SmprofJobPage       *self,
                            SmprofJobPagePreset  preset)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (preset > SMPROF_JOB_PAGE_PRESET_NONE && preset <= SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES);

  self->preset = preset;
  _smprof_job_page_clear_query (self);
  _smprof_job_page_selection_for_preset (self, preset, &self->selection);
  _smprof_job_page_sync_preset_row (self);
  _smprof_job_page_sync_timeline (self);
  _smprof_job_page_queue_update (self);
}

/**
 * smprof_job_page_set_step_range:
 * @self: a job page
 * @first_step: the first train step
 * @last_step: the last train step, included
 *
 * Selects train steps @first_step to @last_step (the Steps preset).
 */
void
smprof_job_page_set_step_range (SmprofJobPage *self,
                                gint64         first_step,
                                gint64         last_step)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (first_step <= last_step);

  self->first_step = first_step;
  self->last_step = last_step;

  self->syncing = TRUE;
  gtk_adjustment_set_value (self->first_step_adjustment, first_step);
  gtk_adjustment_set_value (self->last_step_adjustment, last_step);
  self->syncing = FALSE;

  smprof_job_page_set_preset (self, SMPROF_JOB_PAGE_PRESET_STEPS);
}

/**
 * smprof_job_page_get_selection:
 * @self: a job page
 *
 * The query behind the current selection. For the Forward passes and Rest of
 * step presets it is the training loop, which the page then splits; after
 * smprof_job_page_select_records() or a click on the timeline it is
 * meaningless. Use smprof_job_page_get_selected_records() for the exact
 * intervals.
 *
 * Returns: (transfer none): the query
 */
const SmprofSelection *
smprof_job_page_get_selection (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return &self->selection;
}

/**
 * smprof_job_page_set_selection:
 * @self: a job page
 * @selection: a query, such as a %SMPROF_SELECT_OVERLAP time range
 *
 * Selects the intervals of the chosen nodes that @selection matches, and
 * outlines them on the timeline; the presets list shows no preset.
 */
void
smprof_job_page_set_selection (SmprofJobPage         *self,
                               const SmprofSelection *selection)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (selection != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  _smprof_job_page_clear_query (self);
  self->selection = *selection;
  self->has_query = TRUE;
  _smprof_job_page_sync_preset_row (self);
  _smprof_job_page_sync_timeline (self);
  _smprof_job_page_queue_update (self);
}

/**
 * smprof_job_page_select_records:
 * @self: a job page
 * @records: (element-type SmprofRecord): records of the page's job and
 *   profiler, in record order
 *
 * Aggregates exactly @records, whatever the node choice, and outlines them
 * on the timeline.
 */
void
smprof_job_page_select_records (SmprofJobPage *self,
                                GPtrArray     *records)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (records != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  _smprof_job_page_clear_query (self);
  self->explicit_records = g_ptr_array_copy (records, NULL, NULL);
  _smprof_job_page_sync_preset_row (self);
  _smprof_job_page_sync_timeline (self);
  _smprof_job_page_queue_update (self);
}

void
_smprof_job_page_class_selection_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, timeline_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, timeline_notify_selection_cb);
}
