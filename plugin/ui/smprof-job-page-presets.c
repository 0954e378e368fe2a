/* smprof-job-page-presets.c: the job page's preset rows and step range
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"

/* The presets list applies a preset when a row is activated (a click, or
 * Enter or Space on the focused row), never when the focus merely moves
 * onto a row: Tab and the arrow keys go through the list without
 * aggregating anything. The list does no selection of its own; the row of
 * the session's preset is marked selected by hand, for the eye and for
 * assistive technologies. */

static const SmprofPreset row_presets[] = {
  SMPROF_PRESET_WHOLE_JOB,
  SMPROF_PRESET_INITIALIZATION,
  SMPROF_PRESET_TRAINING_LOOP,
  SMPROF_PRESET_FINALIZATION,
  SMPROF_PRESET_FORWARD_PASSES,
  SMPROF_PRESET_REST_OF_STEP,
  SMPROF_PRESET_STEPS,
  SMPROF_PRESET_BETWEEN_MODES,
};

GtkListBoxRow *
_smprof_job_page_row_for_preset (SmprofJobPage *self,
                                 SmprofPreset   preset)
{
  switch (preset)
    {
    case SMPROF_PRESET_WHOLE_JOB:
      return self->whole_job_row;
    case SMPROF_PRESET_INITIALIZATION:
      return self->initialization_row;
    case SMPROF_PRESET_TRAINING_LOOP:
      return self->training_loop_row;
    case SMPROF_PRESET_FINALIZATION:
      return self->finalization_row;
    case SMPROF_PRESET_FORWARD_PASSES:
      return self->forward_passes_row;
    case SMPROF_PRESET_REST_OF_STEP:
      return self->rest_of_step_row;
    case SMPROF_PRESET_STEPS:
      return self->steps_row;
    case SMPROF_PRESET_BETWEEN_MODES:
      return self->mode_pair_row;
    case SMPROF_PRESET_NONE:
    default:
      return NULL;
    }
}

/* The row of the session's preset shows selected; the others not. */
static void
sync_active_row (SmprofJobPage *self)
{
  SmprofPreset preset = smprof_session_get_preset (self->session);

  for (guint i = 0; i < G_N_ELEMENTS (row_presets); i++)
    {
      GtkWidget *row = GTK_WIDGET (_smprof_job_page_row_for_preset (self, row_presets[i]));
      gboolean active = row_presets[i] == preset;

      if (active)
        gtk_widget_set_state_flags (row, GTK_STATE_FLAG_SELECTED, FALSE);
      else
        gtk_widget_unset_state_flags (row, GTK_STATE_FLAG_SELECTED);
      gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED, active, -1);
    }
}

static void
sync_step_range (SmprofJobPage *self)
{
  gint64 lowest, highest, first, last;
  gboolean has_steps = smprof_session_get_step_bounds (self->session, &lowest, &highest);

  smprof_session_get_step_range (self->session, &first, &last);

  self->syncing = TRUE;
  gtk_adjustment_configure (self->first_step_adjustment, first, lowest, highest, 1, 10, 0);
  gtk_adjustment_configure (self->last_step_adjustment, last, lowest, highest, 1, 10, 0);
  self->syncing = FALSE;

  gtk_widget_set_sensitive (GTK_WIDGET (self->steps_row), has_steps);
}

void
_smprof_job_page_sync_presets (SmprofJobPage *self)
{
  sync_active_row (self);
  sync_step_range (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->mode_pair_row),
                            smprof_session_preset_available (self->session, SMPROF_PRESET_BETWEEN_MODES));
}

/**
 * _smprof_job_page_apply_preset:
 * @self: a job page
 * @preset: the preset a row, a key or an action asks for
 *
 * Applies @preset when the job has it. A step number still being typed
 * counts first: Alt+7 pressed in the step field uses the number shown, not
 * the one before it.
 */
void
_smprof_job_page_apply_preset (SmprofJobPage *self,
                               SmprofPreset   preset)
{
  if (preset <= SMPROF_PRESET_NONE || preset > SMPROF_PRESET_LAST ||
      !smprof_session_preset_available (self->session, preset))
    return;

  if (preset == SMPROF_PRESET_STEPS)
    {
      gtk_spin_button_update (self->first_step_spin);
      gtk_spin_button_update (self->last_step_spin);
    }
  smprof_session_set_preset (self->session, preset);
}

static void
preset_row_activated_cb (SmprofJobPage *self,
                         GtkListBoxRow *row,
                         GtkListBox    *list)
{
  for (guint i = 0; i < G_N_ELEMENTS (row_presets); i++)
    if (_smprof_job_page_row_for_preset (self, row_presets[i]) == row)
      {
        _smprof_job_page_apply_preset (self, row_presets[i]);
        return;
      }
}

static void
step_range_changed_cb (SmprofJobPage *self,
                       GtkSpinButton *spin)
{
  gint64 first = (gint64) gtk_adjustment_get_value (self->first_step_adjustment);
  gint64 last = (gint64) gtk_adjustment_get_value (self->last_step_adjustment);

  if (self->syncing)
    return;

  /* The other end follows the one the user moved past it. */
  if (first > last)
    {
      if (spin == self->first_step_spin)
        last = first;
      else
        first = last;
    }

  smprof_session_set_step_range (self->session, first, last);
}

/* A number typed and left with Tab or a click elsewhere counts, as one
 * confirmed with Enter does: GtkSpinButton only reads its text on Enter or
 * an arrow. */
static void
step_spin_focus_leave_cb (GtkEventControllerFocus *controller,
                          GtkSpinButton           *spin)
{
  gtk_spin_button_update (spin);
}

static void
watch_spin_focus (GtkSpinButton *spin)
{
  GtkEventController *controller = gtk_event_controller_focus_new ();

  g_signal_connect_object (controller, "leave", G_CALLBACK (step_spin_focus_leave_cb), spin, 0);
  gtk_widget_add_controller (GTK_WIDGET (spin), controller);
}

void
_smprof_job_page_class_presets_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, preset_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_range_changed_cb);
}

void
_smprof_job_page_presets_init (SmprofJobPage *self)
{
  watch_spin_focus (self->first_step_spin);
  watch_spin_focus (self->last_step_spin);

  g_signal_connect_object (self->session, "notify::preset", G_CALLBACK (sync_active_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::first-step", G_CALLBACK (sync_step_range), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::last-step", G_CALLBACK (sync_step_range), self,
                           G_CONNECT_SWAPPED);
  /* A profiler switch or a refresh brings other steps and modes. */
  g_signal_connect_object (self->session, "notify::all-node-ids", G_CALLBACK (_smprof_job_page_sync_presets), self,
                           G_CONNECT_SWAPPED);

  _smprof_job_page_sync_presets (self);
}
