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

  return g_test_run ();
}
