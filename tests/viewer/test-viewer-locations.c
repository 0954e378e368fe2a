/* test-viewer-locations.c: choosing what to open, with the SageMaker plugin
 * from the build tree: the Open Location dialog, can_open without a file
 * system call on the main thread, a folder that is not a job, and the recent
 * jobs of the empty window
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SMPROF_VIEWER_PLUGIN_PATH names the build folder of the plugin, as in a
 * development build; these tests do not link the plugin or its core.
 * fs-spy.c defines the C library's path calls in this test, to count those
 * of the main thread.
 */

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fs-spy.h"
#include "smv-application.h"
#include "smv-open-location-dialog.h"
#include "smv-recent.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "viewer-test-utils.h"

static SmvSourceRegistry *registry;

static SmvSourceRegistry *
get_registry (void)
{
  if (registry == NULL)
    {
      g_auto(GStrv) dirs = smv_source_registry_dup_default_dirs ();

      registry = smv_source_registry_new ((const char * const *) dirs);
    }

  return registry;
}

static GFile *
real_job (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", name, NULL);

  return g_file_new_for_path (path);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static SmvWindow *
present_window (void)
{
  SmvWindow *window = smv_window_new (NULL, get_registry (), NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  return window;
}

static gboolean
shows_document (gpointer data)
{
  return g_strcmp0 (smv_window_get_view_name (data), "document") == 0;
}

static gboolean
is_sensitive (gpointer data)
{
  return gtk_widget_get_sensitive (data);
}

static gboolean
shows_error (gpointer data)
{
  return !smv_window_is_loading (data) && gtk_info_bar_get_revealed (smv_window_get_banner (data)) &&
         gtk_info_bar_get_message_type (smv_window_get_banner (data)) == GTK_MESSAGE_ERROR;
}

static void
location_chosen_cb (GtkWidget  *dialog,
                    GFile      *location,
                    GFile     **chosen)
{
  g_set_object (chosen, location);
}

typedef struct
{
  GtkWidget  *dialog;
  const char *hint;
} HintIs;

static gboolean
hint_is (gpointer data)
{
  HintIs *wanted = data;

  return g_strcmp0 (viewer_test_label_text (wanted->dialog, "location-hint"), wanted->hint) == 0;
}

static void
test_open_location_dialog (void)
{
  g_autoptr(GFile) job = real_job ("pt-cprofile");
  g_autofree char *job_path = g_file_get_path (job);
  g_autoptr(GFile) chosen = NULL;
  g_autoptr(GtkWidget) dialog = NULL;
  g_auto(GStrv) schemes = NULL;
  GtkWidget *entry;
  GtkWidget *open_button;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  dialog = g_object_ref_sink (smv_open_location_dialog_new (NULL, get_registry ()));
  g_signal_connect (dialog, "open", G_CALLBACK (location_chosen_cb), &chosen);
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (viewer_test_wait (is_mapped, dialog, 5000));

  entry = viewer_test_find (dialog, "location-entry");
  open_button = viewer_test_find (dialog, "location-open");
  g_assert_nonnull (entry);
  g_assert_nonnull (open_button);

  /* Empty: nothing to open, and the hint says what can be typed. */
  g_assert_false (gtk_widget_get_sensitive (open_button));
  g_assert_true (g_str_has_prefix (viewer_test_label_text (dialog, "location-hint"), "A folder path"));

  /* A path: whether a folder is there is asked off the main thread. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "/nonexistent/job");
  g_assert_false (gtk_widget_get_sensitive (open_button));
  g_assert_true (viewer_test_wait (hint_is, &(HintIs) { dialog, "There is no folder at this path." }, 10000));
  g_assert_false (gtk_widget_get_sensitive (open_button));

  /* Another scheme: no data source for it. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "https://example.com/job/");
  g_assert_false (gtk_widget_get_sensitive (open_button));
  g_assert_cmpstr (viewer_test_label_text (dialog, "location-hint"), ==,
                   "No installed data source can open this location.");

  /* s3:// is offered exactly when a data source lists the scheme. */
  schemes = smv_source_registry_dup_uri_schemes (get_registry ());
  gtk_editable_set_text (GTK_EDITABLE (entry), "s3://bucket/job/");
  g_assert_cmpint (gtk_widget_get_sensitive (open_button), ==, g_strv_contains ((const char * const *) schemes, "s3"));

  gtk_editable_set_text (GTK_EDITABLE (entry), job_path);
  g_assert_true (viewer_test_wait (hint_is, &(HintIs) { dialog, "Opens as SageMaker Debugger profiles." }, 10000));
  g_assert_true (gtk_widget_get_sensitive (open_button));

  /* Open (what Enter does): the location goes out, the dialog closes. */
  g_assert_true (gtk_widget_activate_action (dialog, "location.open", NULL));
  g_assert_nonnull (chosen);
  g_assert_true (g_file_equal (chosen, job));
  g_assert_false (gtk_widget_get_visible (dialog));
}

/* The empty window lists the recent jobs; a click or Enter on one opens it. */
static void
test_empty_recent (void)
{
  g_autoptr(GFile) job = real_job ("pt-cprofile");
  g_autoptr(GFile) other = real_job ("tf-cprofile");
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvRecent) recent = NULL;
  GtkListBox *list;
  GtkWidget *row;
  SmvWindow *window;
  guint n = 0;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_settings_reset (settings, "recent-jobs");
  recent = smv_recent_new (settings);
  smv_recent_add (recent, other, "tf-cprofile");
  smv_recent_add (recent, job, "pt-cprofile");

  window = smv_window_new (NULL, get_registry (), recent);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));
  viewer_test_wait_transitions (GTK_WIDGET (window));
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "empty");

  /* Both jobs, newest first, on screen: title and folder. */
  list = GTK_LIST_BOX (viewer_test_find (GTK_WIDGET (window), "recent-jobs"));
  g_assert_nonnull (list);
  for (row = gtk_widget_get_first_child (GTK_WIDGET (list)); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      g_autofree char *path = g_file_get_path (n == 0 ? job : other);

      g_assert_true (ADW_IS_ACTION_ROW (row));
      g_assert_true (gtk_widget_is_drawable (row));
      g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==,
                       n == 0 ? "pt-cprofile" : "tf-cprofile");
      g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, path);
      n++;
    }
  g_assert_cmpuint (n, ==, 2);
  g_object_unref (viewer_test_render (GTK_WIDGET (window), "viewer-empty-recent.png"));

  /* The keyboard: the second row focused (Tab reaches it), Enter. */
  row = GTK_WIDGET (gtk_list_box_get_row_at_index (list, 1));
  g_assert_true (gtk_widget_get_focusable (row));
  g_assert_true (gtk_widget_grab_focus (row));
  g_assert_true (gtk_widget_has_focus (row));
  /* GtkWindow's Enter binding activates the focused widget */
  g_assert_true (viewer_test_press_shortcut (GTK_WIDGET (window), "Return"));
  g_assert_true (viewer_test_wait (shows_document, window, 30000));
  g_assert_true (g_file_equal (smv_document_get_location (smv_window_get_document (window)), other));
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);

  /* A click, in a new window: the row's activation, which is what a click on
   * a row of a list box does. The job opened last is now first. */
  window = smv_window_new (NULL, get_registry (), recent);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));
  list = GTK_LIST_BOX (viewer_test_find (GTK_WIDGET (window), "recent-jobs"));
  row = GTK_WIDGET (gtk_list_box_get_row_at_index (list, 1));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "pt-cprofile");
  g_assert_true (gtk_widget_activate (row));
  g_assert_true (viewer_test_wait (shows_document, window, 30000));
  g_assert_true (g_file_equal (smv_document_get_location (smv_window_get_document (window)), job));
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);

  g_settings_reset (settings, "recent-jobs");
}

/* A recent job whose folder is gone: opening it says so, and it leaves the
 * list (found by the open, on its worker thread). */
static void
test_recent_gone (void)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);
  g_autoptr(SmvRecent) recent = NULL;
  g_autoptr(GFile) gone = g_file_new_for_path ("/nonexistent/smprof/old-job");
  g_autofree char *uri = g_file_get_uri (gone);
  SmvWindow *window;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_settings_reset (settings, "recent-jobs");
  recent = smv_recent_new (settings);
  smv_recent_add (recent, gone, "old-job");
  window = smv_window_new (NULL, get_registry (), recent);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-recent", "s", uri));
  g_assert_true (viewer_test_wait (shows_error, window, 30000));
  g_assert_nonnull (strstr (viewer_test_label_text (GTK_WIDGET (window), "banner-detail"),
                            "It was removed from the recent jobs."));
  g_assert_cmpuint (smv_recent_get_n_items (recent), ==, 0);
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (viewer_test_find (GTK_WIDGET (window),
                                                                                   "recent-jobs"))));

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
  g_settings_reset (settings, "recent-jobs");
}

/* A folder that is no job: the banner says so, and what a job folder holds
 * (framework/ and the layout below it); a path that does not exist says
 * that. Either way the window stays empty. */
static void
test_not_a_job (void)
{
  g_autoptr(GFile) folder = g_file_new_for_path (g_test_get_dir (G_TEST_DIST));
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/smprof/job");
  g_autofree char *folder_name = g_file_get_parse_name (folder);
  SmvWindow *window;
  GtkInfoBar *banner;
  const char *detail;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = present_window ();

  smv_window_open (window, folder);
  g_assert_true (viewer_test_wait (shows_error, window, 30000));
  banner = smv_window_get_banner (window);
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "empty");
  g_assert_true (g_str_has_prefix (viewer_test_label_text (GTK_WIDGET (window), "banner-title"), "Could not open"));
  detail = viewer_test_label_text (GTK_WIDGET (window), "banner-detail");
  g_test_message ("not a job: %s", detail);
  viewer_test_wait_transitions (GTK_WIDGET (window));
  g_assert_true (gtk_widget_is_drawable (viewer_test_find (GTK_WIDGET (window), "banner-detail")));
  g_assert_nonnull (strstr (detail, folder_name));
  g_assert_nonnull (strstr (detail, "is not a job folder"));
  g_assert_nonnull (strstr (detail, "framework/"));
  g_assert_nonnull (strstr (detail, "framework/pytorch/cprofile/0-algo-1/"));
  g_assert_nonnull (strstr (detail, "python_stats"));
  g_assert_nonnull (strstr (detail, "Pyinstrument"));

  gtk_info_bar_response (banner, GTK_RESPONSE_CLOSE);
  smv_window_open (window, missing);
  g_assert_true (viewer_test_wait (shows_error, window, 30000));
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "empty");
  detail = viewer_test_label_text (GTK_WIDGET (window), "banner-detail");
  g_test_message ("missing: %s", detail);
  g_assert_nonnull (strstr (detail, "/nonexistent/smprof/job"));
  g_assert_nonnull (strstr (detail, "No such file or directory"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Deciding whether a location can be opened, as the user types it, touches
 * nothing on the main thread: fs-spy.c counts the main thread's file
 * system calls on the job's path, which sits under a folder of its own, as
 * it would under a network mount. Only opening reads the folder, on a
 * worker thread. */
static void
test_can_open_no_io (void)
{
  g_autoptr(GFile) real = real_job ("pt-cprofile");
  g_autofree char *real_path = g_file_get_path (real);
  g_autoptr(GError) error = NULL;
  g_autofree char *mount = g_dir_make_tmp ("smv-mount-XXXXXX", &error);
  g_autofree char *job_path = g_build_filename (mount, "pt-cprofile", NULL);
  g_autofree char *last = NULL;
  g_autoptr(GFile) job = g_file_new_for_path (job_path);
  g_autoptr(GFile) chosen = NULL;
  g_autoptr(SmvDataSource) source = NULL;
  g_autoptr(GtkWidget) dialog = NULL;
  GtkWidget *entry;
  GtkWidget *open_button;
  SmvWindow *window;
  gsize length = strlen (job_path);

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_assert_no_error (error);
  g_assert_cmpint (symlink (real_path, job_path), ==, 0);
  source = g_list_model_get_item (smv_source_registry_get_sources (get_registry ()), 0);

  dialog = g_object_ref_sink (smv_open_location_dialog_new (NULL, get_registry ()));
  g_signal_connect (dialog, "open", G_CALLBACK (location_chosen_cb), &chosen);
  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (viewer_test_wait (is_mapped, dialog, 5000));
  entry = viewer_test_find (dialog, "location-entry");
  open_button = viewer_test_find (dialog, "location-open");

  fs_spy_watch (mount);

  /* The data source and the registry decide from the path alone. */
  g_assert_true (smv_data_source_can_open (source, job));
  g_assert_true (smv_source_registry_find_for (get_registry (), job) == source);

  /* The dialog, while the path is typed one character after another. */
  for (gsize i = 1; i <= length; i++)
    {
      g_autofree char *typed = g_strndup (job_path, i);

      gtk_editable_set_text (GTK_EDITABLE (entry), typed);
    }
  last = fs_spy_dup_last_call ();
  g_test_message ("main-thread calls while typing: %u%s%s", fs_spy_get_main_calls (),
                  last != NULL ? ", the last " : "", last != NULL ? last : "");
  g_assert_cmpuint (fs_spy_get_main_calls (), ==, 0);

  /* The folder is found on a worker thread; then Open opens it. */
  g_assert_true (viewer_test_wait (is_sensitive, open_button, 10000));
  g_assert_cmpstr (viewer_test_label_text (dialog, "location-hint"), ==, "Opens as SageMaker Debugger profiles.");
  g_assert_cmpuint (fs_spy_get_main_calls (), ==, 0);
  g_assert_true (gtk_widget_activate_action (dialog, "location.open", NULL));
  g_assert_true (g_file_equal (chosen, job));

  /* And the window starts opening it without touching it. */
  window = present_window ();
  fs_spy_watch (mount);
  smv_window_open (window, job);
  g_assert_true (smv_window_is_loading (window));
  g_assert_cmpuint (fs_spy_get_main_calls (), ==, 0);
  fs_spy_stop ();
  g_assert_true (viewer_test_wait (shows_document, window, 30000));

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
  g_unlink (job_path);
  g_rmdir (mount);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  g_test_add_func ("/viewer/locations/open-location-dialog", test_open_location_dialog);
  g_test_add_func ("/viewer/locations/can-open-no-io", test_can_open_no_io);
  g_test_add_func ("/viewer/locations/not-a-job", test_not_a_job);
  g_test_add_func ("/viewer/locations/empty-recent", test_empty_recent);
  g_test_add_func ("/viewer/locations/recent-gone", test_recent_gone);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
