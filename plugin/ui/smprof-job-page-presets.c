/* smprof-job-page-presets.c: the job page's preset rows and step range
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "smprof-job-page-private.h"

/* ------------------------------------------------------------------------ */
/* Presets                                                                  */

GtkListBoxRow *
_smprof_job_page_row_for_preset (SmprofJobPage       *self,
                                 SmprofJobPagePreset  preset)
{
  switch (preset)
    {
    case SMPROF_JOB_PAGE_PRESET_WHOLE_JOB:
      return self->whole_job_row;
    case SMPROF_JOB_PAGE_PRESET_INITIALIZATION:
      return self->initialization_row;
    case SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP:
      return self->training_loop_row;
    case SMPROF_JOB_PAGE_PRESET_FINALIZATION:
      return self->finalization_row;
    case SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES:
      return self->forward_passes_row;
    case SMPROF_JOB_PAGE_PRESET_REST_OF_STEP:
      return self->rest_of_step_row;
    case SMPROF_JOB_PAGE_PRESET_STEPS:
      return self->steps_row;
    case SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES:
      return self->mode_pair_row;
    case SMPROF_JOB_PAGE_PRESET_NONE:
    default:
      return NULL;
    }
}

void
_smprof_job_page_selection_for_preset (SmprofJobPage       *self,
                                       SmprofJobPagePreset  preset,
                                       SmprofSelection     *selection)
{
  memset (selection, 0, sizeof *selection);

  switch (preset)
    {
    case SMPROF_JOB_PAGE_PRESET_INITIALIZATION:
      selection->kind = SMPROF_SELECT_INITIALIZATION;
      break;
    case SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP:
    case SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES:
    case SMPROF_JOB_PAGE_PRESET_REST_OF_STEP:
      selection->kind = SMPROF_SELECT_TRAINING_LOOP;
      break;
    case SMPROF_JOB_PAGE_PRESET_FINALIZATION:
      selection->kind = SMPROF_SELECT_FINALIZATION;
      break;
    case SMPROF_JOB_PAGE_PRESET_STEPS:
      smprof_selection_init_step (selection, self->first_step);
      selection->end_step = self->last_step;
      break;
    case SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES:
      _smprof_job_page_mode_pair_selection (self, selection);
      break;
    case SMPROF_JOB_PAGE_PRESET_WHOLE_JOB:
    case SMPROF_JOB_PAGE_PRESET_NONE:
    default:
      selection->kind = SMPROF_SELECT_ALL;
      break;
    }
}

void
_smprof_job_page_sync_preset_row (SmprofJobPage *self)
{
  GtkListBoxRow *row = _smprof_job_page_row_for_preset (self, self->preset);

  self->syncing = TRUE;
  if (row != NULL)
    gtk_list_box_select_row (self->presets_list, row);
  else
    gtk_list_box_unselect_all (self->presets_list);
  self->syncing = FALSE;
}

static void
preset_row_selected_cb (SmprofJobPage *self,
                        GtkListBoxRow *row,
                        GtkListBox    *list)
{
  static const SmprofJobPagePreset presets[] = {
    SMPROF_JOB_PAGE_PRESET_WHOLE_JOB,
    SMPROF_JOB_PAGE_PRESET_INITIALIZATION,
    SMPROF_JOB_PAGE_PRESET_TRAINING_LOOP,
    SMPROF_JOB_PAGE_PRESET_FINALIZATION,
    SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES,
    SMPROF_JOB_PAGE_PRESET_REST_OF_STEP,
    SMPROF_JOB_PAGE_PRESET_STEPS,
    SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES,
  };

  if (self->syncing || row == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (_smprof_job_page_row_for_preset (self, presets[i]) == row)
      {
        smprof_job_page_set_preset (self, presets[i]);
        return;
      }
}

static void
step_range_changed_cb (SmprofJobPage  *self,
                       GtkSpinButton  *spin)
{
  gint64 first = (gint64) gtk_adjustment_get_value (self->first_step_adjustment);
  gint64 last = (gint64) gtk_adjustment_get_value (self->last_step_adjustment);

  if (self->syncing)
    return;

  smprof_job_page_set_step_range (self, first, MAX (first, last));
}

/* ------------------------------------------------------------------------ */
/* The step range                                                           */

void
_smprof_job_page_update_step_range (SmprofJobPage *self)
{
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  gint64 lowest = G_MAXINT64;
  gint64 highest = G_MININT64;

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->name.start_mode == SMPROF_MODE_TRAIN && record->name.start_step != SMPROF_STEP_ANY_START)
        {
          lowest = MIN (lowest, record->name.start_step);
          highest = MAX (highest, record->name.start_step);
        }
    }

  self->syncing = TRUE;
  if (lowest > highest)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->steps_row), FALSE);
      lowest = highest = 0;
    }
  else
    gtk_widget_set_sensitive (GTK_WIDGET (self->steps_row), TRUE);

  gtk_adjustment_configure (self->first_step_adjustment, lowest, lowest, highest, 1, 10, 0);
  gtk_adjustment_configure (self->last_step_adjustment, highest, lowest, highest, 1, 10, 0);
  self->first_step = lowest;
  self->last_step = highest;
  self->syncing = FALSE;
}

void
_smprof_job_page_class_presets_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, preset_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_range_changed_cb);
}
