/* smprof-job-page-outliers.c: the job's outlier steps, marked on the timeline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"
#include "smprof-timeline-outliers.h"
#include "smprof-ui-settings.h"

/* The session computes the whole job's per-step statistics for the current
 * profiler over all its nodes, whatever the selection (a step is an outlier
 * against its own node's steps). The timeline marks the outlier steps; the
 * toolbar's Outliers toggle shows or hides the marks and a label counts them
 * and states the rule. A mark's click, its popover button or F8 / Shift+F8
 * (next / previous outlier) open "this step versus the node's median step".
 *
 * The Ranking button beside the label opens the flagged steps ranked by
 * score (SmprofOutlierList) with the rule's threshold: the list's threshold,
 * the session's and the plugin's outlier-threshold setting are bound
 * together, and the session flags its stats again when it changes, which
 * re-marks the timeline and recounts the label through notify::job-step-stats.
 * A row's activation does what clicking its mark does, and scrolls the
 * timeline to the mark when the step has one (a straggler only has none).
 *
 * The label wraps rather than ellipsizes: its count and rule are a third
 * longer in French, where the buttons before it are too, and at 1280 px
 * "Aucun pas aberrant (règle : z > 5,0)" showed as "Aucun pas abe…". The
 * zoom buttons and the two outlier buttons are linked groups, which leaves
 * it room for two lines within the buttons' height; narrower, it takes a
 * third line rather than cut the sentence. */

/* The toolbar's count of the marked steps, with the rule's threshold (the
 * whole rule is the label's tooltip), or that they are being looked for. */
static void
update_label (SmprofJobPage *self)
{
  g_autofree char *text = NULL;
  SmprofStepStats *stats = smprof_session_get_job_step_stats (self->session);
  double threshold = smprof_session_get_outlier_threshold (self->session);
  guint n = stats != NULL ? smprof_timeline_get_n_outliers (self->timeline) : 0;

  /* F8 and Shift+F8 go through the marks: not without one. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.next-outlier", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.previous-outlier", n > 0);

  if (stats == NULL)
    {
      gtk_label_set_label (self->outliers_label,
                           smprof_session_get_finding_outliers (self->session) ? _("Finding outlier steps…") : "");
      return;
    }

  if (n == 0)
    /* Translators: z is the robust z-score; the whole rule is in the tooltip; %.1f is its threshold, 3.5 */
    text = g_strdup_printf (_("No outlier steps (rule: z > %.1f)"), threshold);
  else
    /* Translators: "3 outlier steps (rule: z > 3.5)": z is the robust z-score, as the tooltip says */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u outlier step (rule: z > %.1f)",
                                         "%u outlier steps (rule: z > %.1f)", n),
                            n, threshold);
  gtk_label_set_label (self->outliers_label, text);
}

static void
job_step_stats_cb (SmprofJobPage *self)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (self->session);

  smprof_timeline_set_outliers (self->timeline, stats);
  smprof_outlier_list_set_stats (self->outlier_list, stats);
  update_label (self);
}

/* The rule's text names the threshold: the label's tooltip follows it. */
static void
threshold_cb (SmprofJobPage *self)
{
  SmprofStepRule rule;
  g_autofree char *text = NULL;

  smprof_step_rule_init (&rule);
  rule.threshold = smprof_session_get_outlier_threshold (self->session);
  text = smprof_step_outlier_rule_dup_description (&rule);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->outliers_label), text);
  update_label (self);
}

/* The rows take the keyboard when the popover opens (Alt+K, Down, Return
 * opens the second one), not the spin button before them. */
static void
outliers_popover_shown_cb (SmprofJobPage *self)
{
  smprof_outlier_list_focus_rows (self->outlier_list);
}

static void
outlier_list_activated_cb (SmprofJobPage     *self,
                           guint              index,
                           SmprofOutlierList *list)
{
  /* The comparison opens in the page, under the popover: close it. The
   * row stays selected for the next time it opens. */
  gtk_popover_popdown (self->outliers_popover);
  if (gtk_toggle_button_get_active (self->outliers_button))
    smprof_timeline_reveal_outlier (self->timeline, index);
  smprof_session_compare_outlier (self->session, index);
}

static void
outlier_activated_cb (SmprofJobPage  *self,
                      guint           index,
                      SmprofTimeline *timeline)
{
  smprof_session_compare_outlier (self->session, index);
}

static void
outliers_toggled_cb (SmprofJobPage   *self,
                     GtkToggleButton *button)
{
  smprof_timeline_set_show_outliers (self->timeline, gtk_toggle_button_get_active (button));
}

static void
next_outlier_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  /* Hidden marks come back: the user is asking for them. */
  if (!gtk_toggle_button_get_active (self->outliers_button))
    gtk_toggle_button_set_active (self->outliers_button, TRUE);

  smprof_timeline_activate_next_outlier (self->timeline, g_str_equal (action_name, "job-page.previous-outlier"));
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */

void
_smprof_job_page_class_outliers_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, outliers_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, outlier_list_activated_cb);

  gtk_widget_class_install_action (widget_class, "job-page.next-outlier", NULL, next_outlier_action);
  gtk_widget_class_install_action (widget_class, "job-page.previous-outlier", NULL, next_outlier_action);
}

/* F8 / Shift+F8, as "next error" in editors: no Alt mnemonic or Ctrl
 * shortcut of the page or the viewer uses them. GtkPaned binds F8 itself
 * (to move the focus to its handle), and the page's panes hold the focus
 * nearly always: the page takes the keys in the capture phase, before any
 * child sees them. */
static void
add_capture_shortcuts (SmprofJobPage *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_LOCAL);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F8, 0),
                                                          gtk_named_action_new ("job-page.next-outlier")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F8, GDK_SHIFT_MASK),
                                                          gtk_named_action_new ("job-page.previous-outlier")));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

void
_smprof_job_page_outliers_init (SmprofJobPage *self)
{
  g_signal_connect_object (self->timeline, "outlier-activated",
                           G_CALLBACK (outlier_activated_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.next-outlier", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.previous-outlier", FALSE);
  add_capture_shortcuts (self);

  g_signal_connect_object (self->session, "notify::job-step-stats", G_CALLBACK (job_step_stats_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::finding-outliers", G_CALLBACK (update_label), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outliers_popover, "map", G_CALLBACK (outliers_popover_shown_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->session, "notify::outlier-threshold", G_CALLBACK (threshold_cb), self,
                           G_CONNECT_SWAPPED);

  /* One threshold for every page, now and later, as the setting says; the
   * list's spin button shows and sets it. */
  smprof_ui_settings_bind ("outlier-threshold", self->session, "outlier-threshold");
  g_object_bind_property (self->session, "outlier-threshold", self->outlier_list, "threshold",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  threshold_cb (self);
  job_step_stats_cb (self);
}
