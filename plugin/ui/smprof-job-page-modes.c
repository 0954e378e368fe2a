/* smprof-job-page-modes.c: the job page's "Between modes" preset
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"

/* smdebug's fetch_profile_stats_between_modes as a preset: the intervals
 * that start in one mode and end in another (TRAIN to EVAL: the switches
 * into evaluation). Its row holds two drop-downs listing the modes the
 * session offers (those of the job's intervals); changing either selects the
 * preset. The modes are shown by their smdebug names (TRAIN, EVAL, PREDICT,
 * GLOBAL), which the command line's --between-modes takes too, so they are
 * not translated. */

static guint
position_of (GArray     *modes,
             SmprofMode  mode)
{
  for (guint i = 0; i < modes->len; i++)
    if (g_array_index (modes, SmprofMode, i) == mode)
      return i;

  return GTK_INVALID_LIST_POSITION;
}

static void
sync_pair (SmprofJobPage *self)
{
  GArray *modes = smprof_session_get_pair_modes (self->session);
  SmprofMode start, end;

  smprof_session_get_mode_pair (self->session, &start, &end);

  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->start_mode_dropdown, position_of (modes, start));
  gtk_drop_down_set_selected (self->end_mode_dropdown, position_of (modes, end));
  self->syncing = FALSE;
}

/* The modes of the profiler's intervals, after the job or the profiler changed. */
void
_smprof_job_page_sync_modes (SmprofJobPage *self)
{
  GArray *modes = smprof_session_get_pair_modes (self->session);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->mode_model));
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  for (guint i = 0; i < modes->len; i++)
    {
      g_autofree char *name = g_ascii_strup (smprof_mode_to_string (g_array_index (modes, SmprofMode, i)), -1);

      g_strv_builder_add (names, name);
    }
  strv = g_strv_builder_end (names);

  self->syncing = TRUE;
  gtk_string_list_splice (self->mode_model, 0, n, (const char * const *) strv);
  self->syncing = FALSE;

  sync_pair (self);
}

static void
mode_selected_cb (SmprofJobPage *self,
                  GParamSpec    *pspec,
                  GtkDropDown   *dropdown)
{
  GArray *modes = smprof_session_get_pair_modes (self->session);
  guint start = gtk_drop_down_get_selected (self->start_mode_dropdown);
  guint end = gtk_drop_down_get_selected (self->end_mode_dropdown);

  if (self->syncing || start >= modes->len || end >= modes->len)
    return;

  smprof_session_set_mode_pair (self->session,
                                g_array_index (modes, SmprofMode, start),
                                g_array_index (modes, SmprofMode, end));
}

void
_smprof_job_page_modes_init (SmprofJobPage *self)
{
  self->mode_model = gtk_string_list_new (NULL);

  gtk_drop_down_set_model (self->start_mode_dropdown, G_LIST_MODEL (self->mode_model));
  gtk_drop_down_set_model (self->end_mode_dropdown, G_LIST_MODEL (self->mode_model));
  g_signal_connect_object (self->start_mode_dropdown, "notify::selected",
                           G_CALLBACK (mode_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->end_mode_dropdown, "notify::selected",
                           G_CALLBACK (mode_selected_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->session, "notify::start-mode", G_CALLBACK (sync_pair), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::end-mode", G_CALLBACK (sync_pair), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::all-node-ids", G_CALLBACK (_smprof_job_page_sync_modes), self,
                           G_CONNECT_SWAPPED);

  _smprof_job_page_sync_modes (self);
}

void
_smprof_job_page_modes_dispose (SmprofJobPage *self)
{
  g_clear_object (&self->mode_model);
}

void
_smprof_job_page_class_modes_init (GtkWidgetClass *widget_class)
{
}
