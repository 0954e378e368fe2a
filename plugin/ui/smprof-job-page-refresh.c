/* smprof-job-page-refresh.c: live refresh, for a job that is still training
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-job-page-private.h"
#include "smprof-s3-source.h"
#include "smprof-ui-settings.h"

/* When the toggle is turned on and the setting says 0 (off). */
#define DEFAULT_INTERVAL_S 30

/* The page's "page" action group: `page.live-refresh` (a boolean state)
 * polls every @interval_ms, `page.refresh` lists once now. Each poll asks the
 * session to list the job again (smprof_session_refresh_async(); an S3
 * source bypasses its cached listing); when it holds other intervals, the
 * session swaps to it, keeping the user's choices, and the page follows,
 * keeping the timeline's zoom and scroll. */
struct _SmprofJobPageRefresh
{
  GSimpleActionGroup *group;
  GSimpleAction      *live_action;
  GSettings          *s3_settings;     /* nullable: the viewer's, when installed */
  guint               interval_ms;     /* while live; 0 until first turned on */
  guint               timeout_id;
  GCancellable       *cancellable;     /* the listing in flight, or NULL */
  guint               n_refreshes;     /* listings done, for the tests */
  gboolean            ready;           /* the page is built */
};

static void
refresh_free (SmprofJobPageRefresh *refresh)
{
  g_clear_handle_id (&refresh->timeout_id, g_source_remove);
  if (refresh->cancellable != NULL)
    g_cancellable_cancel (refresh->cancellable);
  g_clear_object (&refresh->cancellable);
  g_clear_object (&refresh->live_action);
  g_clear_object (&refresh->group);
  g_clear_object (&refresh->s3_settings);
  g_free (refresh);
}

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SmprofJobPage) self = user_data;
  g_autoptr(GError) error = NULL;

  smprof_session_refresh_finish (SMPROF_SESSION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->refresh == NULL)
    return;

  g_clear_object (&self->refresh->cancellable);
  self->refresh->n_refreshes++;

  if (error != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not list the job again: %s"), error->message);

      /* A poll that fails (a network hiccup) keeps polling; the page keeps
       * what it shows. */
      _smprof_job_page_show_toast (self, message);
    }
}

static void
refresh_now (SmprofJobPage *self)
{
  SmprofJobPageRefresh *refresh = self->refresh;

  if (refresh->cancellable != NULL || self->session == NULL)  /* one listing at a time */
    return;

  refresh->cancellable = g_cancellable_new ();
  smprof_session_refresh_async (self->session, refresh->cancellable, refresh_cb, g_object_ref (self));
}

static gboolean
poll_cb (gpointer data)
{
  refresh_now (SMPROF_JOB_PAGE (data));

  return G_SOURCE_CONTINUE;
}

static void
set_live (SmprofJobPage *self,
          gboolean       live)
{
  SmprofJobPageRefresh *refresh = self->refresh;

  g_simple_action_set_state (refresh->live_action, g_variant_new_boolean (live));
  g_clear_handle_id (&refresh->timeout_id, g_source_remove);

  if (!live)
    return;

  if (refresh->interval_ms == 0)
    {
      guint seconds = refresh->s3_settings != NULL
                      ? g_settings_get_uint (refresh->s3_settings, "refresh-interval") : 0;

      refresh->interval_ms = (seconds > 0 ? seconds : DEFAULT_INTERVAL_S) * 1000;
    }

  refresh->timeout_id = g_timeout_add_full (G_PRIORITY_LOW, refresh->interval_ms, poll_cb, self, NULL);
  /* Turned on by the setting while the page is built, the job was just
   * listed: the first poll waits an interval. */
  if (self->session != NULL && refresh->ready)
    refresh_now (self);
}

static void
live_refresh_change_state_cb (GSimpleAction *action,
                              GVariant      *state,
                              gpointer       user_data)
{
  set_live (SMPROF_JOB_PAGE (user_data), g_variant_get_boolean (state));
}

static void
refresh_activate_cb (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  refresh_now (SMPROF_JOB_PAGE (user_data));
}

void
_smprof_job_page_refresh_init (SmprofJobPage *self)
{
  SmprofJobPageRefresh *refresh = g_new0 (SmprofJobPageRefresh, 1);

  /* The session lists the job again; the page polls. */
  g_autoptr(GSimpleAction) refresh_action = g_simple_action_new ("refresh", NULL);
  GtkEventController *controller;
  GtkWidget *toggle;

  self->refresh = refresh;
  refresh->s3_settings = smprof_ui_settings_new ("s3");
  refresh->group = g_simple_action_group_new ();

  refresh->live_action = g_simple_action_new_stateful ("live-refresh", NULL, g_variant_new_boolean (FALSE));
  g_signal_connect_object (refresh->live_action, "change-state", G_CALLBACK (live_refresh_change_state_cb), self, 0);
  g_action_map_add_action (G_ACTION_MAP (refresh->group), G_ACTION (refresh->live_action));

  g_signal_connect_object (refresh_action, "activate", G_CALLBACK (refresh_activate_cb), self, 0);
  g_action_map_add_action (G_ACTION_MAP (refresh->group), G_ACTION (refresh_action));

  gtk_widget_insert_action_group (GTK_WIDGET (self), "page", G_ACTION_GROUP (refresh->group));

  controller = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F5, 0),
                                                          gtk_named_action_new ("page.refresh")));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  /* Beside Export, in the page's header. */
  toggle = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (toggle), "view-refresh-symbolic");
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (toggle, _("Live refresh: list the job again every so often, so the intervals "
                                         "of a job still training appear (F5 lists it once)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Live refresh"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (toggle), "page.live-refresh");
  gtk_widget_insert_before (toggle, gtk_widget_get_parent (GTK_WIDGET (self->export_button)),
                            GTK_WIDGET (self->export_button));

  /* A refresh-interval set in the preferences means: poll from the start. */
  if (refresh->s3_settings != NULL && g_settings_get_uint (refresh->s3_settings, "refresh-interval") > 0)
    g_action_change_state (G_ACTION (refresh->live_action), g_variant_new_boolean (TRUE));
  refresh->ready = TRUE;
}

void
_smprof_job_page_refresh_dispose (SmprofJobPage *self)
{
  g_clear_pointer (&self->refresh, refresh_free);
}

/**
 * _smprof_job_page_set_refresh_interval:
 * @self: a job page
 * @interval_ms: how often to list the job while live refresh is on
 *
 * For the tests (and a host with its own idea); takes effect at the next
 * turn of the toggle.
 */
void
_smprof_job_page_set_refresh_interval (SmprofJobPage *self,
                                       guint          interval_ms)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (self->refresh != NULL);

  self->refresh->interval_ms = interval_ms;
}

/* For the tests: how many listings have completed. */
guint
_smprof_job_page_get_n_refreshes (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), 0);

  return self->refresh != NULL ? self->refresh->n_refreshes : 0;
}

/* For the tests: whether live refresh is polling. */
gboolean
_smprof_job_page_get_live_refresh (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), FALSE);

  return self->refresh != NULL && self->refresh->timeout_id != 0;
}
