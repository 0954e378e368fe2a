/* smprof-job-page-transforms.c: reshaping the call tree from the page: the
 * function menus' actions, the breadcrumb, Undo and Hide Libraries
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-function-menu.h"
#include "smprof-job-page-private.h"

/* The transforms are the session's (smprof-session-transforms.c): the page
 * pushes them from the function menus of every view, shows them as a
 * breadcrumb above the views ("Full profile › Merge forward › Focus on
 * step"), each crumb a button back to that point, and undoes the last one
 * with Undo or Ctrl+Z. The views, exports and reports show the session's
 * view profile, the selection reshaped.
 *
 * The menus' actions are a "function" action group inserted on the page
 * (smprof-function-menu.h lists them): the views' menus find it as an
 * ancestor's. "compare-nodes" shows the Node Matrix with the function's
 * column first: its time per step on each node, beside the top functions. */

static void
push (SmprofJobPage   *self,
      SmprofTransform *transform)
{
  g_autoptr(SmprofTransform) owned = transform;

  smprof_session_push_transform (self->session, owned);
}

static void
show_functions (SmprofJobPage *self)
{
  gtk_stack_set_visible_child (self->views_stack, GTK_WIDGET (self->functions_slot));
  /* the stack's notify brought the table up to date already; this covers
   * a table that was visible */
  _smprof_job_page_sync_visible_view (self);
}

static void
function_action_cb (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (user_data);
  const char *name = g_action_get_name (G_ACTION (action));

  if (g_str_equal (name, "focus"))
    push (self, smprof_transform_new_focus_function (g_variant_get_uint32 (parameter)));
  else if (g_str_equal (name, "merge"))
    push (self, smprof_transform_new_merge (g_variant_get_uint32 (parameter)));
  else if (g_str_equal (name, "collapse-recursion"))
    push (self, smprof_transform_new_collapse_recursion (g_variant_get_uint32 (parameter)));
  else if (g_str_equal (name, "collapse-file"))
    push (self, smprof_transform_new_collapse_file (g_variant_get_string (parameter, NULL)));
  else if (g_str_equal (name, "collapse-package"))
    push (self, smprof_transform_new_collapse_package (g_variant_get_string (parameter, NULL)));
  else if (g_str_equal (name, "focus-subtree"))
    {
      gsize depth = 0;
      const guint32 *path = g_variant_get_fixed_array (parameter, &depth, sizeof (guint32));

      if (depth > 0)
        push (self, smprof_transform_new_focus_subtree (path, depth));
    }
  else if (g_str_equal (name, "show-in-functions"))
    {
      show_functions (self);
      smprof_function_table_set_selected_func (self->function_table, g_variant_get_uint32 (parameter));
    }
  else if (g_str_equal (name, "compare-nodes"))
    {
      smprof_node_matrix_set_pinned_function (smprof_node_matrix_view_get_matrix (self->node_matrix_view),
                                              g_variant_get_uint32 (parameter));
      gtk_stack_set_visible_child (self->views_stack, GTK_WIDGET (self->node_matrix_view));
    }
  else if (g_str_equal (name, "show-callers") || g_str_equal (name, "show-callees"))
    {
      show_functions (self);
      smprof_function_table_show_related (self->function_table, g_variant_get_uint32 (parameter),
                                          g_str_equal (name, "show-callees"));
    }
  else
    g_assert_not_reached ();
}

static void
install_function_actions (SmprofJobPage *self)
{
  static const GActionEntry entries[] = {
    { "focus", function_action_cb, "u", NULL, NULL, { 0 } },
    { "focus-subtree", function_action_cb, "au", NULL, NULL, { 0 } },
    { "merge", function_action_cb, "u", NULL, NULL, { 0 } },
    { "collapse-recursion", function_action_cb, "u", NULL, NULL, { 0 } },
    { "collapse-file", function_action_cb, "s", NULL, NULL, { 0 } },
    { "collapse-package", function_action_cb, "s", NULL, NULL, { 0 } },
    { "show-in-functions", function_action_cb, "u", NULL, NULL, { 0 } },
    { "show-callers", function_action_cb, "u", NULL, NULL, { 0 } },
    { "show-callees", function_action_cb, "u", NULL, NULL, { 0 } },
    { "compare-nodes", function_action_cb, "u", NULL, NULL, { 0 } },
  };
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), SMPROF_FUNCTION_ACTION_GROUP, G_ACTION_GROUP (group));
}

/* ------------------------------------------------------------------------ */
/* The breadcrumb                                                           */

static GtkWidget *
new_crumb (const char *label,
           guint       n_transforms,
           gboolean    current)
{
  GtkWidget *button = gtk_button_new_with_label (label);
  GtkWidget *text = gtk_button_get_child (GTK_BUTTON (button));

  /* A function's label holds its file's path: the verb at the start and
   * the name at the end tell crumbs apart; the whole is the tooltip.
   * Ellipsized, the crumbs never widen the page past its window. */
  gtk_label_set_ellipsize (GTK_LABEL (text), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (text), 48);
  gtk_label_set_width_chars (GTK_LABEL (text), MIN (8, (int) g_utf8_strlen (label, -1)));
  gtk_widget_set_tooltip_text (button, label);
  gtk_button_set_has_frame (GTK_BUTTON (button), FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "job-page.truncate-transforms");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_uint32 (n_transforms));
  gtk_widget_set_name (button, "crumb");
  if (current)
    {
      gtk_widget_add_css_class (button, "heading");
      gtk_accessible_update_state (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_STATE_SELECTED, TRUE, -1);
    }

  return button;
}

static GtkWidget *
new_separator (void)
{
  GtkWidget *label = gtk_label_new ("›");

  gtk_widget_add_css_class (label, "dim-label");
  gtk_accessible_update_state (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);

  return label;
}

static void
sync_transforms (SmprofJobPage *self)
{
  GPtrArray *transforms = smprof_session_get_transforms (self->session);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->crumbs_box))) != NULL)
    gtk_box_remove (self->crumbs_box, child);

  gtk_box_append (self->crumbs_box, new_crumb (_("Full profile"), 0, transforms->len == 0));
  for (guint i = 0; i < transforms->len; i++)
    {
      g_autofree char *text = smprof_session_describe_transform (self->session, i);

      gtk_box_append (self->crumbs_box, new_separator ());
      gtk_box_append (self->crumbs_box, new_crumb (text, i + 1, i + 1 == transforms->len));
    }

  gtk_widget_set_visible (self->transforms_bar, transforms->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.undo-transform", transforms->len > 0);
  g_object_notify (G_OBJECT (self), "hide-libraries");
}

static void
undo_transform_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  smprof_session_pop_transform (self->session);
}

static void
truncate_transforms_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  smprof_session_truncate_transforms (self->session, g_variant_get_uint32 (parameter));
}

void
_smprof_job_page_class_transforms_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "job-page.undo-transform", NULL, undo_transform_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "job-page.undo-transform", NULL);
  gtk_widget_class_install_action (widget_class, "job-page.truncate-transforms", "u", truncate_transforms_action);
  gtk_widget_class_install_property_action (widget_class, "job-page.hide-libraries", "hide-libraries");
}

void
_smprof_job_page_transforms_init (SmprofJobPage *self)
{
  install_function_actions (self);
  g_signal_connect_object (self->session, "transforms-changed", G_CALLBACK (sync_transforms), self,
                           G_CONNECT_SWAPPED);
  sync_transforms (self);
}
