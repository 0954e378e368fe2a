/* test-plugin-settings.c: the plugin's settings seen from its job pages: the
 * save dialog starts in the last folder saved in, and the Per Step columns
 * show as chosen last, in every page
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Real viewer windows on tests/data/real-smdebug/pt-cprofile, the plugin's
 * data source linked in (as in test-job-page-export.c); the plugin's schema
 * compiled in the build tree, its values in memory.
 */

#include <string.h>

#include <glib/gstdio.h>
#include <smprof-viewer-api.h>

#include "smprof-job-page-private.h"
#include "smprof-sagemaker-source.h"
#include "smprof-ui-settings.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

#ifdef __SANITIZE_ADDRESS__
const char *__asan_default_options (void);

/* GTK's file chooser reaches libcloudproviders, which leaks a path at exit
 * where the fast unwinder cannot name it (as in test-job-page-export.c). */
const char *
__asan_default_options (void)
{
  return "fast_unwind_on_malloc=0";
}
#endif

static SmvSourceRegistry *registry;

static SmvWindow *
open_job (SmprofJobPage **page)
{
  g_autofree char *path = window_test_real_job ("pt-cprofile");

  return window_test_open_job (registry, path, 1280, 800, page);
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

static gboolean
has_folder (gpointer data)
{
  g_autoptr(GFile) folder = gtk_file_chooser_get_current_folder (data);

  return folder != NULL;
}

/* The folder the dialog the user sees shows, once it has loaded one. */
static GFile *
shown_folder (void)
{
  GtkWidget *dialog;

  g_assert_true (viewer_test_wait (window_test_has_file_chooser, NULL, 10000));
  dialog = window_test_find_file_chooser ();
  viewer_test_wait (has_folder, dialog, 5000);

  return gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (dialog));
}

static void
assert_same_folder (GFile *shown,
                    GFile *expected)
{
  g_autofree char *shown_uri = shown != NULL ? g_file_get_uri (shown) : g_strdup ("(none)");
  g_autofree char *expected_uri = g_file_get_uri (expected);

  g_test_message ("the dialog shows %s, expected %s", shown_uri, expected_uri);
  g_assert_cmpstr (shown_uri, ==, expected_uri);
}

static void
test_save_dialog_folder (void)
{
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  g_autofree char *first_dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "plugin-settings-first", NULL);
  g_autofree char *second_dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "plugin-settings-second", NULL);
  g_autofree char *written = g_build_filename (second_dir, "functions.csv", NULL);
  g_autoptr(GFile) first = g_file_new_for_path (first_dir);
  g_autoptr(GFile) second = g_file_new_for_path (second_dir);
  g_autoptr(GFile) shown = NULL;
  g_autoptr(GFile) last = NULL;
  g_autofree char *here = g_get_current_dir ();
  g_autoptr(GFile) cwd = g_file_new_for_path (here);
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *dialog;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_mkdir_with_parents (first_dir, 0755);
  g_mkdir_with_parents (second_dir, 0755);
  g_remove (written);
  g_assert_nonnull (settings);

  window = open_job (&page);

  /* Never saved: not the folder the viewer was started in (the tests run in
   * the build folder, as a viewer started from a terminal would). */
  g_settings_reset (settings, "last-export-folder");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-svg", NULL));
  shown = shown_folder ();
  g_assert_nonnull (shown);
  g_assert_false (g_file_equal (shown, cwd));
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->export_dialog));
  g_signal_emit_by_name (page->export->export_dialog, "response", GTK_RESPONSE_CANCEL);
  g_clear_object (&shown);

  /* Saved last in the first folder (another session): the dialog starts there. */
  smprof_ui_settings_set_export_folder (first);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-svg", NULL));
  shown = shown_folder ();
  assert_same_folder (shown, first);

  /* The user saves in another folder... */
  dialog = window_test_find_file_chooser ();
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), second, NULL));
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->export_dialog));
  g_signal_emit_by_name (page->export->export_dialog, "response", GTK_RESPONSE_CANCEL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-csv", NULL));
  g_assert_true (viewer_test_wait (window_test_has_file_chooser, NULL, 10000));
  dialog = window_test_find_file_chooser ();
  /* A cancelled dialog saves nothing: this one starts in the first folder
   * too, and the user goes elsewhere once it shows it. */
  window_test_chooser_save_as (dialog, first_dir, second_dir, "functions.csv");
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->export_dialog));
  g_signal_emit_by_name (page->export->export_dialog, "response", GTK_RESPONSE_ACCEPT);
  g_assert_true (viewer_test_wait (file_exists, written, 30000));

  /* ... which is remembered, and where the next dialog starts, in this
   * window and in a new one. */
  last = smprof_ui_settings_dup_export_folder ();
  assert_same_folder (last, second);
  g_clear_object (&shown);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-json", NULL));
  shown = shown_folder ();
  assert_same_folder (shown, second);
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->export_dialog));
  g_signal_emit_by_name (page->export->export_dialog, "response", GTK_RESPONSE_CANCEL);

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
  g_clear_object (&shown);

  window = open_job (&page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-report", NULL));
  shown = shown_folder ();
  assert_same_folder (shown, second);
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->report_dialog));
  g_signal_emit_by_name (page->export->report_dialog, "response", GTK_RESPONSE_CANCEL);

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
  g_settings_reset (settings, "last-export-folder");
  g_remove (written);
}

/* The Per Step button sets the columns of every page, and a page opened
 * later shows them as chosen. */
static void
test_step_columns (void)
{
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  SmprofJobPage *page, *other;
  SmvWindow *window, *second;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_settings_reset (settings, "show-step-columns");
  window = open_job (&page);
  second = open_job (&other);
  g_assert_false (smprof_function_table_get_show_step_columns (page->function_table));

  /* The Per Step button of one page */
  smprof_function_table_set_show_step_columns (page->function_table, TRUE);
  g_assert_true (g_settings_get_boolean (settings, "show-step-columns"));
  g_assert_true (smprof_function_table_get_show_step_columns (other->function_table));
  gtk_window_destroy (GTK_WINDOW (second));

  /* A page opened afterwards */
  second = open_job (&other);
  g_assert_true (smprof_function_table_get_show_step_columns (other->function_table));

  /* Turned off, from the settings (the Preferences window) */
  g_settings_set_boolean (settings, "show-step-columns", FALSE);
  g_assert_false (smprof_function_table_get_show_step_columns (page->function_table));
  g_assert_false (smprof_function_table_get_show_step_columns (other->function_table));

  gtk_window_destroy (GTK_WINDOW (second));
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
  g_settings_reset (settings, "show-step-columns");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/plugin-settings/save-dialog-folder", test_save_dialog_folder);
  g_test_add_func ("/plugin-settings/step-columns", test_step_columns);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
