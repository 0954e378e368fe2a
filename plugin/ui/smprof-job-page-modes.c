/* smprof-job-page-modes.c: the job page's "Between modes" preset
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"

/* smdebug's fetch_profile_stats_between_modes as a preset: the intervals
 * that start in one mode and end in another (TRAIN to EVAL: the switches
 * into evaluation). Its row holds two drop-downs listing the modes the
 * job's intervals have; changing either selects the preset. The modes are
 * shown by their smdebug names (TRAIN, EVAL, PREDICT, GLOBAL), which the
 * command line's --between-modes takes too, so they are not translated. */

/* The modes a user can pair; pre-step-zero and post-hook-close are the
 * Initialization and Finalization presets already. */
static const SmprofMode pairable_modes[] = {
  SMPROF_MODE_TRAIN, SMPROF_MODE_EVAL, SMPROF_MODE_PREDICT, SMPROF_MODE_GLOBAL,
};

static char *
dup_mode_name (SmprofMode mode)
{
  return g_ascii_strup (smprof_mode_to_string (mode), -1);
}

static guint
position_of (SmprofJobPage *self,
             SmprofMode     mode)
{
  for (guint i = 0; i < self->pair_modes->len; i++)
    if (g_array_index (self->pair_modes, SmprofMode, i) == mode)
      return i;

  return GTK_INVALID_LIST_POSITION;
}

static void
sync_dropdowns (SmprofJobPage *self)
{
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->start_mode_dropdown, position_of (self, self->start_mode));
  gtk_drop_down_set_selected (self->end_mode_dropdown, position_of (self, self->end_mode));
  self->syncing = FALSE;
}

/**
 * _smprof_job_page_update_modes:
 * @self: a job page
 *
 * Lists the modes of the profiler's intervals in the drop-downs (after the
 * job or the profiler changed). The chosen pair stays when its modes still
 * exist; otherwise it becomes the first mode to itself.
 */
void
_smprof_job_page_update_modes (SmprofJobPage *self)
{
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  gboolean present[SMPROF_N_MODES + 1] = { FALSE, };
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->mode_model));

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      present[record->name.start_mode] = TRUE;
      present[record->name.end_mode] = TRUE;
    }

  self->syncing = TRUE;
  g_array_set_size (self->pair_modes, 0);
  gtk_string_list_splice (self->mode_model, 0, n, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (pairable_modes); i++)
    if (present[pairable_modes[i]])
      {
        g_autofree char *name = dup_mode_name (pairable_modes[i]);

        g_array_append_val (self->pair_modes, pairable_modes[i]);
        gtk_string_list_append (self->mode_model, name);
      }
  self->syncing = FALSE;

  gtk_widget_set_sensitive (GTK_WIDGET (self->mode_pair_row), self->pair_modes->len > 0);
  if (self->pair_modes->len > 0)
    {
      SmprofMode first = g_array_index (self->pair_modes, SmprofMode, 0);

      if (position_of (self, self->start_mode) == GTK_INVALID_LIST_POSITION)
        self->start_mode = first;
      if (position_of (self, self->end_mode) == GTK_INVALID_LIST_POSITION)
        self->end_mode = self->start_mode;
    }
  sync_dropdowns (self);
}

void
_smprof_job_page_mode_pair_selection (SmprofJobPage   *self,
                                      SmprofSelection *selection)
{
  selection->kind = SMPROF_SELECT_BETWEEN_MODES;
  selection->start_mode = self->start_mode;
  selection->end_mode = self->end_mode;
}

char *
_smprof_job_page_dup_mode_pair_description (SmprofJobPage *self)
{
  g_autofree char *start = dup_mode_name (self->start_mode);
  g_autofree char *end = dup_mode_name (self->end_mode);

  /* Translators: the "Between modes" preset, as in "between modes TRAIN and EVAL" */
  return g_strdup_printf (_("between modes %s and %s"), start, end);
}

char *
_smprof_job_page_dup_mode_pair_slug (SmprofJobPage *self)
{
  g_autofree char *start = dup_mode_name (self->start_mode);
  g_autofree char *end = dup_mode_name (self->end_mode);

  return g_strdup_printf ("modes-%s-%s", start, end);
}

static void
mode_selected_cb (SmprofJobPage *self,
                  GParamSpec    *pspec,
                  GtkDropDown   *dropdown)
{
  guint start = gtk_drop_down_get_selected (self->start_mode_dropdown);
  guint end = gtk_drop_down_get_selected (self->end_mode_dropdown);

  if (self->syncing || self->pair_modes == NULL ||
      start >= self->pair_modes->len || end >= self->pair_modes->len)
    return;

  smprof_job_page_set_mode_pair (self,
                                 g_array_index (self->pair_modes, SmprofMode, start),
                                 g_array_index (self->pair_modes, SmprofMode, end));
}

/**
 * smprof_job_page_set_mode_pair:
 * @self: a job page
 * @start_mode: the mode the intervals start in
 * @end_mode: the mode they end in
 *
 * Selects the intervals of the chosen nodes from @start_mode to @end_mode
 * (the Between modes preset), as smdebug's fetch_profile_stats_between_modes.
 */
void
smprof_job_page_set_mode_pair (SmprofJobPage *self,
                               SmprofMode     start_mode,
                               SmprofMode     end_mode)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (start_mode >= SMPROF_MODE_TRAIN && start_mode <= SMPROF_MODE_POST_HOOK_CLOSE);
  g_return_if_fail (end_mode >= SMPROF_MODE_TRAIN && end_mode <= SMPROF_MODE_POST_HOOK_CLOSE);

  self->start_mode = start_mode;
  self->end_mode = end_mode;
  sync_dropdowns (self);

  smprof_job_page_set_preset (self, SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES);
}

void
_smprof_job_page_modes_init (SmprofJobPage *self)
{
  self->pair_modes = g_array_new (FALSE, FALSE, sizeof (SmprofMode));
  self->mode_model = gtk_string_list_new (NULL);
  self->start_mode = SMPROF_MODE_TRAIN;
  self->end_mode = SMPROF_MODE_TRAIN;

  gtk_drop_down_set_model (self->start_mode_dropdown, G_LIST_MODEL (self->mode_model));
  gtk_drop_down_set_model (self->end_mode_dropdown, G_LIST_MODEL (self->mode_model));
  g_signal_connect_object (self->start_mode_dropdown, "notify::selected",
                           G_CALLBACK (mode_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->end_mode_dropdown, "notify::selected",
                           G_CALLBACK (mode_selected_cb), self, G_CONNECT_SWAPPED);
}

void
_smprof_job_page_modes_dispose (SmprofJobPage *self)
{
  g_clear_object (&self->mode_model);
  g_clear_pointer (&self->pair_modes, g_array_unref);
}

void
_smprof_job_page_class_modes_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, mode_pair_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, start_mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, end_mode_dropdown);
}
