/* smprof-job-page-views.c: the Functions, Call Tree and Flame Graph views
 * showing the session's answer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"
#include "smprof-ui-settings.h"

/* The visible view shows the session's view profile (the selection's
 * aggregate reshaped by the transforms); the others catch up when
 * shown, so a drag costs one view's update on the main thread, not three.
 * The function table's Per Step columns ask the session for the selection's
 * time per step while they show, and show what it computes. */
void
_smprof_job_page_sync_visible_view (SmprofJobPage *self)
{
  GtkWidget *visible = gtk_stack_get_visible_child (self->views_stack);
  SmprofProfile *profile = smprof_session_get_view_profile (self->session);

  if (visible == GTK_WIDGET (self->functions_slot))
    smprof_function_table_set_profile (self->function_table, profile);
  else if (visible == GTK_WIDGET (self->call_tree_slot))
    smprof_call_tree_view_set_profile (self->call_tree_view, profile);
  else if (visible == GTK_WIDGET (self->flame_graph_slot))
    smprof_flame_graph_view_set_profile (self->flame_graph_view, profile);
}

static void
step_stats_cb (SmprofJobPage *self)
{
  SmprofStepStats *stats = smprof_session_get_step_stats (self->session);

  /* The function table takes a reference of its own. */
  smprof_function_table_set_step_stats (self->function_table, stats != NULL ? smprof_step_stats_ref (stats) : NULL);
}

void
_smprof_job_page_views_init (SmprofJobPage *self)
{
  g_signal_connect_object (self->views_stack, "notify::visible-child",
                           G_CALLBACK (_smprof_job_page_sync_visible_view), self, G_CONNECT_SWAPPED);

  /* The Per Step button, and the Preferences window, set the plugin's
   * show-step-columns: every page, now and later, shows what was chosen. */
  smprof_ui_settings_bind ("show-step-columns", self->function_table, "show-step-columns");
  g_object_bind_property (self->function_table, "show-step-columns", self->session, "want-step-stats",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->session, "notify::step-stats", G_CALLBACK (step_stats_cb), self, G_CONNECT_SWAPPED);

  _smprof_job_page_sync_visible_view (self);
}
