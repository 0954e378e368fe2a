/* test-viewer-empty.c: the viewer without plugins, and its plugin-free parts
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "smv-application.h"
#include "smv-open-location-dialog.h"
#include "smv-recent.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "viewer-test-utils.h"

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static SmvWindow *
present_window (SmvSourceRegistry *registry,
                SmvRecent         *recent)
{
  SmvWindow *window = smv_window_new (NULL, registry, recent);

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  return window;
}

/* A registry over an empty folder: no plugin, whatever is installed. */
static SmvSourceRegistry *
new_empty_registry (char **out_dir)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("smv-no-plugins-XXXXXX", &error);
  const char *dirs[] = { dir, NULL };

  g_assert_no_error (error);
  *out_dir = dir;

  return smv_source_registry_new (dirs);
}

static void
test_no_plugins_state (void)
{
  g_autofree char *dir = NULL;
  g_autoptr(SmvSourceRegistry) registry = NULL;
  SmvWindow *window;
  const char *detail;
  AdwStatusPage *status;
  GtkWidget *open_button;
  g_autoptr(GdkTexture) texture = NULL;
  guint n_colors, n_differing;
  guint32 background;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  registry = new_empty_registry (&dir);
  g_assert_cmpuint (smv_source_registry_get_n_sources (registry), ==, 0);
  g_assert_false (smv_source_registry_opens_folders (registry));

  window = present_window (registry, NULL);
  viewer_test_spin (300);   /* the stack's crossfade */

  g_assert_cmpstr (smv_window_get_view_name (window), ==, "no-plugins");
  g_assert_false (smv_window_is_loading (window));
  g_assert_null (smv_window_get_document (window));

  status = viewer_test_status_page (GTK_WIDGET (window), "no-plugins");
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (status)));
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "No Data Sources Installed");

  /* The explanation names the folders searched and the variable to set. */
  detail = adw_status_page_get_description (status);
  g_assert_nonnull (strstr (detail, dir));
  g_assert_nonnull (strstr (detail, "SMPROF_VIEWER_PLUGIN_PATH"));

  /* Nothing can be opened: the Open button follows its disabled action. */
  open_button = viewer_test_find (GTK_WIDGET (window), "open-button");
  g_assert_nonnull (open_button);
  g_assert_false (gtk_widget_get_sensitive (open_button));

  /* The pixels: a window, not a blank rectangle. */
  texture = viewer_test_render (GTK_WIDGET (window), "viewer-no-plugins.png");
  background = viewer_test_pixel (texture, gdk_texture_get_width (texture) / 2, gdk_texture_get_height (texture) - 5);
  n_colors = viewer_test_count_colors (texture, background, &n_differing);
  g_test_message ("no-plugins screenshot: %u colours, %u pixels differ from the background", n_colors, n_differing);
  g_assert_cmpuint (n_colors, >, 20);
  g_assert_cmpuint (n_differing, >, 2000);

  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

static void
test_no_plugins_open_refused (void)
{
  g_autofree char *dir = NULL;
  g_autoptr(SmvSourceRegistry) registry = NULL;
  g_autoptr(GFile) location = NULL;
  SmvWindow *window;
  GtkInfoBar *banner;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  registry = new_empty_registry (&dir);
  window = present_window (registry, NULL);

  location = g_file_new_for_path (g_test_get_dir (G_TEST_DIST));
  smv_window_open (window, location);

  /* Refused at once, with the reason in the banner; the view stays. */
  g_assert_false (smv_window_is_loading (window));
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "no-plugins");
  banner = smv_window_get_banner (window);
  g_assert_true (gtk_info_bar_get_revealed (banner));
  g_assert_cmpint (gtk_info_bar_get_message_type (banner), ==, GTK_MESSAGE_ERROR);
  g_assert_nonnull (strstr (viewer_test_label_text (GTK_WIDGET (window), "banner-title"), "Cannot open"));
  g_assert_cmpstr (viewer_test_label_text (GTK_WIDGET (window), "banner-detail"), ==,
                   "No data-source plugin is installed.");

  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

static void
test_default_dirs (void)
{
  g_auto(GStrv) dirs = NULL;
  guint n;

  g_setenv (SMV_PLUGIN_PATH_ENV, "/first/plugins::/second/plugins", TRUE);
  dirs = smv_source_registry_dup_default_dirs ();
  g_unsetenv (SMV_PLUGIN_PATH_ENV);

  n = g_strv_length (dirs);
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpstr (dirs[0], ==, "/first/plugins");
  g_assert_cmpstr (dirs[1], ==, "/second/plugins");
  g_assert_true (g_str_has_suffix (dirs[2], "/smprof-viewer/plugins"));
}

static void
test_location_from_text (void)
{
  g_autoptr(GFile) s3 = smv_location_from_text ("  s3://bucket/jobs/pt-cprofile/ ");
  g_autoptr(GFile) home = smv_location_from_text ("~/jobs/a");
  g_autoptr(GFile) absolute = smv_location_from_text ("/tmp/job");
  g_autofree char *s3_uri = g_file_get_uri (s3);
  g_autofree char *home_path = g_file_get_path (home);
  g_autofree char *expected_home = g_build_filename (g_get_home_dir (), "jobs", "a", NULL);
  g_autofree char *absolute_path = g_file_get_path (absolute);

  g_assert_null (smv_location_from_text ("   "));
  g_assert_false (g_file_is_native (s3));
  g_assert_true (g_file_has_uri_scheme (s3, "s3"));
  g_assert_cmpstr (s3_uri, ==, "s3://bucket/jobs/pt-cprofile/");
  g_assert_cmpstr (home_path, ==, expected_home);
  g_assert_cmpstr (absolute_path, ==, "/tmp/job");
}

static void
count_changed_cb (SmvRecent *recent,
                  guint     *count)
{
  (*count)++;
}

static void
test_recent (void)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvRecent) recent = NULL;
  g_autoptr(GVariant) stored = NULL;
  g_autoptr(SmvRecent) again = NULL;
  g_autoptr(GFile) s3 = g_file_new_for_uri ("s3://bucket/job/");
  guint changed = 0;

  /* GSETTINGS_BACKEND=memory: the list starts empty */
  g_settings_reset (settings, "recent-jobs");
  recent = smv_recent_new_default ();
  g_assert_cmpuint (smv_recent_get_n_items (recent), ==, 0);
  g_signal_connect (recent, "changed", G_CALLBACK (count_changed_cb), &changed);

  for (guint i = 0; i < SMV_RECENT_MAX_ITEMS + 3; i++)
    {
      g_autofree char *path = g_strdup_printf ("/jobs/job_%u", i);
      g_autofree char *title = g_strdup_printf ("job_%u", i);
      g_autoptr(GFile) folder = g_file_new_for_path (path);

      smv_recent_add (recent, folder, title);
    }
  smv_recent_add (recent, s3, "job");
  g_assert_cmpuint (changed, ==, SMV_RECENT_MAX_ITEMS + 4);

  /* Newest first, bounded, and an item opened again moves to the front. */
  g_assert_cmpuint (smv_recent_get_n_items (recent), ==, SMV_RECENT_MAX_ITEMS);
  g_assert_cmpstr (smv_recent_get_uri (recent, 0), ==, "s3://bucket/job/");
  g_assert_cmpstr (smv_recent_get_uri (recent, 1), ==, "file:///jobs/job_12");
  g_assert_cmpstr (smv_recent_get_title (recent, 1), ==, "job_12");

  /* Kept in the settings, where another list (another window) sees it. */
  stored = g_settings_get_value (settings, "recent-jobs");
  g_assert_cmpuint (g_variant_n_children (stored), ==, SMV_RECENT_MAX_ITEMS);
  again = smv_recent_new (settings);
  g_assert_cmpuint (smv_recent_get_n_items (again), ==, SMV_RECENT_MAX_ITEMS);
  g_assert_cmpstr (smv_recent_get_uri (again, 0), ==, "s3://bucket/job/");
  g_assert_cmpstr (smv_recent_get_title (again, 0), ==, "job");

  smv_recent_remove (again, "s3://bucket/job/");
  g_assert_cmpuint (smv_recent_get_n_items (again), ==, SMV_RECENT_MAX_ITEMS - 1);
  g_assert_cmpstr (smv_recent_get_uri (again, 0), ==, "file:///jobs/job_12");

  /* The first list follows the change. */
  viewer_test_spin (50);
  g_assert_cmpuint (smv_recent_get_n_items (recent), ==, SMV_RECENT_MAX_ITEMS - 1);
  g_assert_cmpstr (smv_recent_get_uri (recent, 0), ==, "file:///jobs/job_12");
}

static gboolean
dir_has_module (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "lib") && g_str_has_suffix (name, ".so"))
      return TRUE;

  return FALSE;
}

static void
app_window_added_cb (GtkApplication *application,
                     GtkWindow      *window,
                     SmvWindow     **out)
{
  if (*out == NULL && SMV_IS_WINDOW (window))
    *out = SMV_WINDOW (window);
}

static gboolean
app_check_cb (gpointer data)
{
  GApplication *application = data;
  SmvWindow **window = g_object_get_data (G_OBJECT (application), "window");
  char **view = g_object_get_data (G_OBJECT (application), "view");

  if (*window == NULL || !gtk_widget_get_mapped (GTK_WIDGET (*window)))
    return G_SOURCE_CONTINUE;

  *view = g_strdup (smv_window_get_view_name (*window));
  g_application_quit (application);

  return G_SOURCE_REMOVE;
}

static gboolean
app_give_up_cb (gpointer data)
{
  guint *id = g_object_get_data (G_OBJECT (data), "give-up-id");

  *id = 0;
  g_application_quit (data);

  return G_SOURCE_REMOVE;
}

/* `smprof-viewer` with no plugin anywhere it looks: the no-plugins page. */
static void
test_no_plugins_application (void)
{
  g_autoptr(SmvApplication) application = NULL;
  g_auto(GStrv) dirs = NULL;
  SmvWindow *window = NULL;
  g_autofree char *view = NULL;
  char *argv[] = { (char *) "smprof-viewer", NULL };
  guint check_id;
  guint give_up_id;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_unsetenv (SMV_PLUGIN_PATH_ENV);
  dirs = smv_source_registry_dup_default_dirs ();
  for (guint i = 0; dirs[i] != NULL; i++)
    if (dir_has_module (dirs[i]))
      {
        g_test_skip ("a plugin is installed where the viewer looks");
        return;
      }

  application = smv_application_new (G_APPLICATION_NON_UNIQUE);
  g_signal_connect (application, "window-added", G_CALLBACK (app_window_added_cb), &window);
  g_object_set_data (G_OBJECT (application), "window", &window);
  g_object_set_data (G_OBJECT (application), "view", &view);
  g_object_set_data (G_OBJECT (application), "give-up-id", &give_up_id);
  check_id = g_timeout_add (50, app_check_cb, application);
  give_up_id = g_timeout_add_seconds (30, app_give_up_cb, application);

  g_assert_cmpint (g_application_run (G_APPLICATION (application), 1, argv), ==, 0);

  if (view == NULL)
    g_source_remove (check_id);
  g_clear_handle_id (&give_up_id, g_source_remove);
  g_assert_cmpuint (smv_source_registry_get_n_sources (smv_application_get_registry (application)), ==, 0);
  g_assert_cmpstr (view, ==, "no-plugins");
}

int
main (int   argc,
      char *argv[])
{
  viewer_test_init (&argc, &argv);

  g_test_add_func ("/viewer/no-plugins/state", test_no_plugins_state);
  g_test_add_func ("/viewer/no-plugins/open-refused", test_no_plugins_open_refused);
  g_test_add_func ("/viewer/no-plugins/application", test_no_plugins_application);
  g_test_add_func ("/viewer/plugin-dirs", test_default_dirs);
  g_test_add_func ("/viewer/location-from-text", test_location_from_text);
  g_test_add_func ("/viewer/recent", test_recent);

  return g_test_run ();
}
