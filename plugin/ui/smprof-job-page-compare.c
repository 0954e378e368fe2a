/* smprof-job-page-compare.c: the job page's comparison: the "Compare" view,
 * the bar asking for B and the "Compare With…" button, over the session's
 * comparison
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-compare-view.h"
#include "smprof-job-page-private.h"

struct _SmprofJobPageCompare
{
  SmprofCompareView *view;
  GtkStackPage      *stack_page;
  GtkWidget         *bar;          /* "Select B…", while waiting for B */
  GtkWidget         *button;       /* "Compare With…" by the Export menu */
  gboolean           shown;        /* switched to the compare view once for this comparison */
};

static void
update_actions (SmprofJobPage *self)
{
  gboolean comparing = smprof_session_get_comparing (self->session);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.close-compare", comparing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.swap-compare",
                                 comparing &&
                                 smprof_session_get_compare_profile (self->session, SMPROF_DIFF_A) != NULL &&
                                 smprof_session_get_compare_profile (self->session, SMPROF_DIFF_B) != NULL);
}

/* The comparison opened or closed, or B came. */
static void
sync_state (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;
  gboolean comparing = smprof_session_get_comparing (self->session);

  gtk_widget_set_visible (compare->bar, smprof_session_get_compare_waiting (self->session));

  if (!comparing)
    {
      compare->shown = FALSE;
      if (gtk_stack_get_visible_child (self->views_stack) == GTK_WIDGET (compare->view))
        gtk_stack_set_visible_child_name (self->views_stack, "functions");
      smprof_compare_view_set_diff (compare->view, NULL, NULL, NULL);
      smprof_timeline_set_compare_records (self->timeline, NULL);
    }
  else
    {
      smprof_timeline_set_compare_records (self->timeline,
                                           smprof_session_get_compare_records (self->session, SMPROF_DIFF_A));
      if (smprof_session_get_diff (self->session) == NULL)
        smprof_compare_view_set_diff (compare->view, NULL,
                                      smprof_session_get_compare_label (self->session, SMPROF_DIFF_A), NULL);
    }

  gtk_stack_page_set_visible (compare->stack_page, comparing);
  update_actions (self);
}

static void
sync_diff (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = self->compare;
  SmprofDiff *diff = smprof_session_get_diff (self->session);

  update_actions (self);
  if (diff == NULL)
    {
      /* A new comparison: its first diff shows the compare view again. */
      compare->shown = FALSE;
      return;
    }

  /* A swap puts the other side's records on the timeline. */
  smprof_timeline_set_compare_records (self->timeline,
                                       smprof_session_get_compare_records (self->session, SMPROF_DIFF_A));
  smprof_compare_view_set_diff (compare->view, diff,
                                smprof_session_get_compare_label (self->session, SMPROF_DIFF_A),
                                smprof_session_get_compare_label (self->session, SMPROF_DIFF_B));

  if (!compare->shown)
    {
      compare->shown = TRUE;
      gtk_stack_set_visible_child (self->views_stack, GTK_WIDGET (compare->view));
    }
}

static void
sync_status (SmprofJobPage *self)
{
  smprof_compare_view_set_status (self->compare->view, smprof_session_get_compare_status (self->session));
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  if (!smprof_session_compare_current (self->session))
    _smprof_job_page_show_toast (self, _("Nothing to compare yet: wait for the selection’s aggregate"));
}

static void
close_compare_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  smprof_session_close_comparison (SMPROF_JOB_PAGE (widget)->session);
}

static void
swap_compare_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  smprof_session_swap_comparison (SMPROF_JOB_PAGE (widget)->session);
}

static void
bar_response_cb (SmprofJobPage *self,
                 int            response)
{
  smprof_session_close_comparison (self->session);
}

void
_smprof_job_page_class_compare_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "job-page.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "job-page.close-compare", NULL, close_compare_action);
  gtk_widget_class_install_action (widget_class, "job-page.swap-compare", NULL, swap_compare_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "job-page.compare", NULL);
}

void
_smprof_job_page_compare_init (SmprofJobPage *self)
{
  SmprofJobPageCompare *compare = g_new0 (SmprofJobPageCompare, 1);
  GtkWidget *label;

  self->compare = compare;

  compare->view = SMPROF_COMPARE_VIEW (smprof_compare_view_new ());
  gtk_widget_set_name (GTK_WIDGET (compare->view), "compare-view");
  compare->stack_page = gtk_stack_add_titled (self->views_stack, GTK_WIDGET (compare->view), "compare", _("C_ompare"));
  g_object_set (compare->stack_page, "use-underline", TRUE, NULL);
  gtk_stack_page_set_visible (compare->stack_page, FALSE);
  g_object_bind_property (self->session, "compare-normalize", compare->view, "normalize",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  /* Under the header, with the error bar: what the page waits for. */
  compare->bar = gtk_info_bar_new ();
  gtk_widget_set_name (compare->bar, "compare-bar");
  gtk_info_bar_set_message_type (GTK_INFO_BAR (compare->bar), GTK_MESSAGE_QUESTION);
  label = gtk_label_new (_("Comparing: the current selection is A. Select B on the timeline or pick a preset."));
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_info_bar_add_child (GTK_INFO_BAR (compare->bar), label);
  gtk_info_bar_add_button (GTK_INFO_BAR (compare->bar), _("_Cancel"), GTK_RESPONSE_CANCEL);
  g_signal_connect_object (compare->bar, "response", G_CALLBACK (bar_response_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_set_visible (compare->bar, FALSE);
  gtk_widget_insert_after (compare->bar, GTK_WIDGET (self), GTK_WIDGET (self->error_bar));

  compare->button = gtk_button_new_with_mnemonic (_("Compare _With…"));
  gtk_widget_set_name (compare->button, "compare-button");
  gtk_widget_set_valign (compare->button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (compare->button, _("Compare the selection with another one (Ctrl+D)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (compare->button), "job-page.compare");
  gtk_widget_insert_before (compare->button, gtk_widget_get_parent (GTK_WIDGET (self->export_button)),
                            GTK_WIDGET (self->export_button));

  g_signal_connect_object (self->session, "notify::comparing", G_CALLBACK (sync_state), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::compare-waiting", G_CALLBACK (sync_state), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::diff", G_CALLBACK (sync_diff), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::compare-status", G_CALLBACK (sync_status), self,
                           G_CONNECT_SWAPPED);
  sync_state (self);
}

void
_smprof_job_page_compare_dispose (SmprofJobPage *self)
{
  g_clear_pointer (&self->compare, g_free);
}

/* For the tests and the report */
GtkWidget *
_smprof_job_page_get_compare_view (SmprofJobPage *self)
{
  return self->compare != NULL ? GTK_WIDGET (self->compare->view) : NULL;
}

double
_smprof_job_page_get_compare_min_delta (SmprofJobPage *self)
{
  return self->compare != NULL ? smprof_compare_view_get_min_delta (self->compare->view) : 0;
}
