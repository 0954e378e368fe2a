/* page-test-util.c: what the job page tests share: key presses, record
 * lists, commands, waits
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "page-test-util.h"
#include "smprof-job-page-private.h"

/* The class shortcut bound to @accelerator on @widget, activated as a key
 * press would. */
void
page_test_press_shortcut (GtkWidget  *widget,
                          const char *accelerator)
{
  g_autoptr(GtkShortcutTrigger) wanted = gtk_shortcut_trigger_parse_string (accelerator);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  g_assert_nonnull (wanted);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), wanted))
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                                           GTK_SHORTCUT_ACTION_EXCLUSIVE, widget,
                                                           gtk_shortcut_get_arguments (shortcut)));
              return;
            }
        }
    }

  g_error ("no shortcut %s on %s", accelerator, G_OBJECT_TYPE_NAME (widget));
}

/* The same records, in the same order. */
gboolean
page_test_same_records (GPtrArray *a,
                        GPtrArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return FALSE;

  for (guint i = 0; i < a->len; i++)
    if (g_ptr_array_index (a, i) != g_ptr_array_index (b, i))
      return FALSE;

  return TRUE;
}

/* Runs a command (looked up in PATH), which must succeed. */
void
page_test_run (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* Runs the main loop until done (@page, @value) holds; %FALSE if it did not
 * within 90 s. */
gboolean
page_test_wait_until (PageTestCondition  done,
                      SmprofJobPage     *page,
                      guint              value)
{
  gint64 deadline = g_get_monotonic_time () + 90 * G_USEC_PER_SEC;

  while (!done (page, value))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return TRUE;
}

/* The page has an answer and is waiting for nothing. */
gboolean
page_test_idle (SmprofJobPage *page,
                guint          unused)
{
  return !smprof_job_page_get_busy (page) && smprof_job_page_get_profile (page) != NULL;
}

/* The page has refreshed its job @n times or more. */
gboolean
page_test_refreshed (SmprofJobPage *page,
                     guint          n)
{
  return _smprof_job_page_get_n_refreshes (page) >= n;
}
