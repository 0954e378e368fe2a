/* smprof-job-page-actions.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"

/* The job page's actions and their key bindings: Alt+1 … Alt+8 for the
 * presets, Ctrl+1 … Ctrl+5 for the views, the timeline toolbar's zoom. They
 * only call the page's API, so they sit apart from its construction. */

static void
preset_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  int preset = g_variant_get_int32 (parameter);

  _smprof_job_page_apply_preset (self, preset);
}

static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *child = gtk_stack_get_child_by_name (self->views_stack, name);

  /* A hidden page (the comparison, when none is open) stays hidden. */
  if (child == NULL || !gtk_stack_page_get_visible (gtk_stack_get_page (self->views_stack, child)))
    return;

  gtk_stack_set_visible_child (self->views_stack, child);

  /* Focus follows when it was in the views already. */
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->views_stack)) &&
      !gtk_widget_is_ancestor (focus, child))
    gtk_widget_child_focus (child, GTK_DIR_TAB_FORWARD);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  if (g_str_equal (action_name, "job-page.zoom-in"))
    smprof_timeline_zoom_in (self->timeline);
  else if (g_str_equal (action_name, "job-page.zoom-out"))
    smprof_timeline_zoom_out (self->timeline);
  else if (g_str_equal (action_name, "job-page.zoom-fit"))
    smprof_timeline_zoom_reset (self->timeline);
  else
    smprof_timeline_zoom_to_selection (self->timeline);
}

void
_smprof_job_page_class_actions_init (GtkWidgetClass *widget_class)
{
  static const char * const views[] = { "functions", "call-tree", "flame-graph", "node-matrix", "compare" };

  /* Presets: Alt+1 … Alt+8 */
  gtk_widget_class_install_action (widget_class, "job-page.preset", "i", preset_action);
  for (int preset = SMPROF_PRESET_WHOLE_JOB; preset <= SMPROF_PRESET_LAST; preset++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + preset - SMPROF_PRESET_WHOLE_JOB,
                                         GDK_ALT_MASK, "job-page.preset", "i", preset);

  /* Views: Ctrl+1 Functions, Ctrl+2 Call tree, Ctrl+3 Flame graph, Ctrl+4
   * Node matrix, Ctrl+5 the comparison while one is open */
  gtk_widget_class_install_action (widget_class, "job-page.show-view", "s", show_view_action);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_CONTROL_MASK,
                                           "job-page.show-view", "s", views[i]);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_1 + i, GDK_CONTROL_MASK,
                                           "job-page.show-view", "s", views[i]);
    }

  /* The timeline's toolbar (the timeline's own shortcuts work while it has
   * the focus; these work from the buttons). */
  gtk_widget_class_install_action (widget_class, "job-page.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-to-selection", NULL, zoom_action);
}
