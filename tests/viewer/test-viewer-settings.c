/* test-viewer-settings.c: what the viewer keeps in GSettings
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GSETTINGS_SCHEMA_DIR names the schema compiled in the build tree and
 * GSETTINGS_BACKEND=memory keeps the user's settings out of it.
 */

#include <stdlib.h>

#include "smv-application.h"
#include "smv-recent.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "viewer-test-utils.h"

static int
compare_strings (const void *a,
                 const void *b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static SmvSourceRegistry *
new_empty_registry (void)
{
  const char *dirs[] = { NULL };

  return smv_source_registry_new (dirs);
}

/* The schema the viewer installs: the viewer's own keys, and nothing of a
 * plugin's (plugins keep theirs in their own schemas). */
static void
test_schema (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = g_settings_schema_source_lookup (source, SMV_APPLICATION_ID, FALSE);
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) children = NULL;

  g_assert_nonnull (schema);
  keys = g_settings_schema_list_keys (schema);
  children = g_settings_schema_list_children (schema);
  qsort (keys, g_strv_length (keys), sizeof (char *), compare_strings);
  g_assert_cmpstrv (keys, ((const char * const[]) { "recent-jobs", "window-maximized", "window-size", NULL }));
  g_assert_cmpuint (g_strv_length (children), ==, 0);
}

/* A new window takes the saved size; a window that goes away saves its own. */
static void
test_window_size (void)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvSourceRegistry) registry = new_empty_registry ();
  SmvWindow *window;
  int width = 0, height = 0;
  int saved_width = 0, saved_height = 0;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_settings_set (settings, "window-size", "(ii)", 700, 520);
  g_settings_set_boolean (settings, "window-maximized", FALSE);

  window = smv_window_new (NULL, registry, NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 700);
  g_assert_cmpint (height, ==, 520);

  gtk_window_set_default_size (GTK_WINDOW (window), 960, 640);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));
  viewer_test_spin (100);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_test_message ("default size when closed: %d×%d", width, height);
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (50);

  g_settings_get (settings, "window-size", "(ii)", &saved_width, &saved_height);
  g_assert_cmpint (saved_width, ==, width);
  g_assert_cmpint (saved_height, ==, height);
  g_assert_cmpint (saved_width, >=, 960);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  /* The next window opens at that size. */
  window = smv_window_new (NULL, registry, NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, saved_width);
  g_assert_cmpint (height, ==, saved_height);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Without a saved size, a window opens at 1280×800, the size the job page
 * is laid out for. */
static void
test_default_size (void)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvSourceRegistry) registry = new_empty_registry ();
  SmvWindow *window;
  int width = 0, height = 0;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_settings_reset (settings, "window-size");
  g_settings_reset (settings, "window-maximized");
  window = smv_window_new (NULL, registry, NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1280);
  g_assert_cmpint (height, ==, 800);

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));
  viewer_test_spin (100);
  g_test_message ("window drawn at %d×%d", gtk_widget_get_width (GTK_WIDGET (window)),
                  gtk_widget_get_height (GTK_WIDGET (window)));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1280);
  g_assert_cmpint (height, ==, 800);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
assert_saved_size (GSettings *settings,
                   int        width,
                   int        height)
{
  int saved_width = 0, saved_height = 0;

  g_settings_get (settings, "window-size", "(ii)", &saved_width, &saved_height);
  g_test_message ("saved %d×%d, expected %d×%d", saved_width, saved_height, width, height);
  g_assert_cmpint (saved_width, ==, width);
  g_assert_cmpint (saved_height, ==, height);
}

static SmvWindow *
present_sized (SmvSourceRegistry *registry,
               int                width,
               int                height)
{
  SmvWindow *window = smv_window_new (NULL, registry, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));
  viewer_test_spin (100);

  return window;
}

static gboolean
is_gone (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* The window's close button (window.close) and Ctrl+W save its size. */
static void
test_close_saves_size (void)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvSourceRegistry) registry = new_empty_registry ();
  SmvWindow *window;
  int width = 0, height = 0;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  /* The close button of the header bar activates window.close. */
  g_settings_set (settings, "window-size", "(ii)", 640, 480);
  window = present_sized (registry, 900, 640);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "window.close", NULL));
  g_assert_true (viewer_test_wait (is_gone, &window, 5000));
  assert_saved_size (settings, width, height);

  /* Ctrl+W */
  g_settings_set (settings, "window-size", "(ii)", 640, 480);
  window = present_sized (registry, 1000, 700);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  g_assert_true (viewer_test_press_shortcut (GTK_WIDGET (window), "<Control>w"));
  g_assert_true (viewer_test_wait (is_gone, &window, 5000));
  assert_saved_size (settings, width, height);
}

/* ------------------------------------------------------------------------ */
/* Quitting the application                                                 */

typedef enum
{
  QUIT_BY_ACTION,    /* Ctrl+Q, the menu's Quit: app.quit */
  QUIT_BY_SHUTDOWN,  /* g_application_quit() from elsewhere: the session ends */
} QuitWay;

typedef struct
{
  QuitWay    way;
  guint      n_windows;
  int        width;     /* of the active window when quitting */
  int        height;
  gboolean   quit;
  guint      poll_id;
  guint      give_up_id;
} QuitRun;

static gboolean
all_mapped (GtkApplication *application,
            guint           n)
{
  GList *windows = gtk_application_get_windows (application);

  if (g_list_length (windows) < n)
    return FALSE;
  for (GList *l = windows; l != NULL; l = l->next)
    if (!is_mapped (l->data))
      return FALSE;

  return TRUE;
}

static gboolean
quit_poll_cb (gpointer data)
{
  GtkApplication *application = data;
  QuitRun *run = g_object_get_data (G_OBJECT (application), "run");
  GList *windows = gtk_application_get_windows (application);
  GtkWindow *active;
  int size = 800;

  if (g_list_length (windows) < run->n_windows)
    {
      if (windows != NULL && is_mapped (windows->data))
        g_action_group_activate_action (G_ACTION_GROUP (application), "new-window", NULL);
      return G_SOURCE_CONTINUE;
    }
  if (!all_mapped (application, run->n_windows))
    return G_SOURCE_CONTINUE;

  /* Every window its own size, none the saved one. */
  for (GList *l = windows; l != NULL; l = l->next, size += 100)
    gtk_window_set_default_size (l->data, size, size - 200);
  viewer_test_spin (200);

  active = gtk_application_get_active_window (application);
  g_assert_nonnull (active);
  gtk_window_get_default_size (active, &run->width, &run->height);
  g_test_message ("%u windows, the active one %d×%d", run->n_windows, run->width, run->height);

  run->poll_id = 0;
  run->quit = TRUE;
  if (run->way == QUIT_BY_ACTION)
    {
      static const char *quit_accel[] = { "<Control>q", NULL };
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (application, "app.quit");

      g_assert_cmpstrv (accels, quit_accel);
      g_action_group_activate_action (G_ACTION_GROUP (application), "quit", NULL);
    }
  else
    g_application_quit (G_APPLICATION (application));

  return G_SOURCE_REMOVE;
}

static gboolean
quit_give_up_cb (gpointer data)
{
  QuitRun *run = g_object_get_data (G_OBJECT (data), "run");

  run->give_up_id = 0;
  g_application_quit (data);

  return G_SOURCE_REMOVE;
}

static void
run_and_quit (QuitWay way,
              guint   n_windows)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvApplication) application = NULL;
  char *argv[] = { (char *) "smprof-viewer", NULL };
  QuitRun run = { way, n_windows };
  GList *left;

  g_settings_set (settings, "window-size", "(ii)", 640, 480);
  g_settings_set_boolean (settings, "window-maximized", FALSE);

  application = smv_application_new (G_APPLICATION_NON_UNIQUE);
  g_object_set_data (G_OBJECT (application), "run", &run);
  run.poll_id = g_timeout_add (50, quit_poll_cb, application);
  run.give_up_id = g_timeout_add_seconds (30, quit_give_up_cb, application);

  g_assert_cmpint (g_application_run (G_APPLICATION (application), 1, argv), ==, 0);

  g_clear_handle_id (&run.poll_id, g_source_remove);
  g_clear_handle_id (&run.give_up_id, g_source_remove);
  g_assert_true (run.quit);
  assert_saved_size (settings, run.width, run.height);

  left = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (application)));
  for (GList *l = left; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (left);
  viewer_test_spin (50);
}

/* Ctrl+Q saves the size, as Ctrl+W does. */
static void
test_quit_saves_size (void)
{
  VIEWER_TEST_REQUIRE_DISPLAY ();

  run_and_quit (QUIT_BY_ACTION, 1);
}

/* With several windows, the next window opens at the size of the one the
 * user quit from; so too when the session ends the application. */
static void
test_quit_several_windows (void)
{
  VIEWER_TEST_REQUIRE_DISPLAY ();

  run_and_quit (QUIT_BY_ACTION, 3);
  run_and_quit (QUIT_BY_SHUTDOWN, 2);
}

/* The recent jobs live in the settings, newest first. */
static void
test_recent_jobs (void)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvRecent) recent = NULL;
  g_autoptr(GFile) job = g_file_new_for_path ("/jobs/pt-cprofile");
  g_autoptr(GVariant) value = NULL;
  const char *uri, *title;

  g_settings_set_value (settings, "recent-jobs",
                        g_variant_new_parsed ("[('s3://bucket/job/', 'job'), ('file:///jobs/old', '')]"));
  recent = smv_recent_new (settings);
  g_assert_cmpuint (smv_recent_get_n_items (recent), ==, 2);
  g_assert_cmpstr (smv_recent_get_uri (recent, 0), ==, "s3://bucket/job/");
  g_assert_cmpstr (smv_recent_get_title (recent, 0), ==, "job");
  g_assert_null (smv_recent_get_title (recent, 1));

  smv_recent_add (recent, job, "pt-cprofile");
  value = g_settings_get_value (settings, "recent-jobs");
  g_assert_cmpuint (g_variant_n_children (value), ==, 3);
  g_variant_get_child (value, 0, "(&s&s)", &uri, &title);
  g_assert_cmpstr (uri, ==, "file:///jobs/pt-cprofile");
  g_assert_cmpstr (title, ==, "pt-cprofile");
}

int
main (int   argc,
      char *argv[])
{
  viewer_test_init (&argc, &argv);

  g_test_add_func ("/viewer/settings/schema", test_schema);
  g_test_add_func ("/viewer/settings/window-size", test_window_size);
  g_test_add_func ("/viewer/settings/recent-jobs", test_recent_jobs);
  g_test_add_func ("/viewer/settings/default-size", test_default_size);
  g_test_add_func ("/viewer/settings/close-saves-size", test_close_saves_size);
  g_test_add_func ("/viewer/settings/quit-saves-size", test_quit_saves_size);
  g_test_add_func ("/viewer/settings/quit-several-windows", test_quit_several_windows);

  return g_test_run ();
}
