/* test-viewer-help.c: F1 and the menu's Help open the manual (help:smprof)
 * in the desktop's help browser, the shortcuts window lists F1; and the
 * About window
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The help browser is a script the test installs as the user's handler of
 * help: URIs (a desktop file and mimeapps.list in the test's private XDG
 * folders, as Yelp's package installs its own): it writes the URI it was
 * given to a file.
 */

#include <glib/gstdio.h>

#include "smv-application.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "viewer-test-utils.h"

static char *uri_file;
static SmvApplication *the_application;

/* One application for the process: a second one could not register its
 * objects on the session bus beside the first. */
static SmvApplication *
get_application (void)
{
  g_autoptr(GError) error = NULL;

  if (the_application == NULL)
    {
      the_application = smv_application_new (G_APPLICATION_NON_UNIQUE);
      g_assert_true (g_application_register (G_APPLICATION (the_application), NULL, &error));
      g_assert_no_error (error);
    }

  return the_application;
}

static void
write_or_die (const char *path,
              const char *contents,
              int         mode)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

/* The fake help browser, the handler of x-scheme-handler/help. */
static void
install_help_browser (void)
{
  const char *data = g_getenv ("XDG_DATA_HOME");
  const char *config = g_getenv ("XDG_CONFIG_HOME");
  g_autofree char *script = g_build_filename (data, "smprof-test-help-browser", NULL);
  g_autofree char *script_text = NULL;
  g_autofree char *desktop = g_build_filename (data, "applications", "smprof-test-help.desktop", NULL);
  g_autofree char *desktop_text = NULL;
  g_autofree char *mimeapps = g_build_filename (config, "mimeapps.list", NULL);

  uri_file = g_build_filename (data, "help-uri.txt", NULL);
  g_remove (uri_file);

  script_text = g_strdup_printf ("#!/bin/sh\nprintf '%%s' \"$1\" > '%s'\n", uri_file);
  write_or_die (script, script_text, 0755);
  desktop_text = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Test help browser\n"
                                  "Exec=%s %%u\nMimeType=x-scheme-handler/help;\nNoDisplay=true\n", script);
  write_or_die (desktop, desktop_text, 0644);
  write_or_die (mimeapps, "[Default Applications]\nx-scheme-handler/help=smprof-test-help.desktop\n", 0644);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
browser_was_called (gpointer data)
{
  return g_file_test (uri_file, G_FILE_TEST_EXISTS);
}

static char *
take_shown_uri (void)
{
  g_autofree char *uri = NULL;

  g_assert_true (viewer_test_wait (browser_was_called, NULL, 10000));
  viewer_test_spin (100);   /* the script's write finished */
  g_assert_true (g_file_get_contents (uri_file, &uri, NULL, NULL));
  g_remove (uri_file);

  return g_steal_pointer (&uri);
}

/* The menu model's item for @action, if any; its label in *@label. */
static gboolean
menu_has_action (GMenuModel  *menu,
                 const char  *action,
                 char       **label)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *item_action = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      g_autoptr(GMenuModel) submenu = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SUBMENU);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action) &&
          g_strcmp0 (item_action, action) == 0)
        return g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", label);
      if ((section != NULL && menu_has_action (section, action, label)) ||
          (submenu != NULL && menu_has_action (submenu, action, label)))
        return TRUE;
    }

  return FALSE;
}

static GtkWidget *
find_shortcut (GtkWidget  *root,
               const char *accelerator)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (root))
    {
      g_autofree char *accel = NULL;

      g_object_get (root, "accelerator", &accel, NULL);
      if (g_strcmp0 (accel, accelerator) == 0)
        return root;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_shortcut (child, accelerator);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_section (GtkWidget  *root,
              const char *name)
{
  if (GTK_IS_SHORTCUTS_SECTION (root))
    {
      g_autofree char *section_name = NULL;

      g_object_get (root, "section-name", &section_name, NULL);
      if (g_strcmp0 (section_name, name) == 0)
        return root;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_section (child, name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
test_help (void)
{
  SmvApplication *application;
  g_autofree char *shown = NULL;
  g_autofree char *label = NULL;
  g_autofree char *title = NULL;
  GtkShortcutsWindow *overlay;
  GtkWidget *section;
  GtkWidget *shortcut;
  GtkWidget *menu_button;
  SmvWindow *window;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  application = get_application ();
  window = smv_window_new (GTK_APPLICATION (application), smv_application_get_registry (application), NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  /* F1 */
  g_assert_true (viewer_test_press_shortcut (GTK_WIDGET (window), "F1"));
  shown = take_shown_uri ();
  g_assert_cmpstr (shown, ==, "help:smprof");
  g_clear_pointer (&shown, g_free);

  /* The main menu's Help */
  menu_button = viewer_test_find (GTK_WIDGET (window), "primary-menu");
  g_assert_true (GTK_IS_MENU_BUTTON (menu_button));
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)), "win.help", &label));
  g_assert_cmpstr (label, ==, "_Help");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.help", NULL));
  shown = take_shown_uri ();
  g_assert_cmpstr (shown, ==, "help:smprof");

  /* The shortcuts window (Ctrl+?) lists F1. */
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  shortcut = find_shortcut (GTK_WIDGET (overlay), "F1");
  g_assert_nonnull (shortcut);
  g_object_get (shortcut, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "Show the manual");

  /* The plugin's section, with its page's keys, which the viewer's own
   * help-overlay.ui does not name. */
  g_clear_pointer (&title, g_free);
  section = find_section (GTK_WIDGET (overlay), "job-page");
  g_assert_nonnull (section);
  shortcut = find_shortcut (section, "<ctrl>d");
  g_assert_nonnull (shortcut);
  g_object_get (shortcut, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "Compare the selection with another");
  g_assert_null (find_section (GTK_WIDGET (overlay), "no-such-section"));

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

static AdwAboutWindow *
find_about_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (window) && gtk_widget_get_mapped (GTK_WIDGET (window)))
        return ADW_ABOUT_WINDOW (window);
    }

  return NULL;
}

static gboolean
has_about_window (gpointer data)
{
  return find_about_window () != NULL;
}

/* About smprof: libadwaita's About window, over the window it came from. */
static void
test_about (void)
{
  SmvApplication *application;
  AdwAboutWindow *about;
  SmvWindow *window;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  application = get_application ();
  window = smv_window_new (GTK_APPLICATION (application), smv_application_get_registry (application), NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  g_action_group_activate_action (G_ACTION_GROUP (application), "about", NULL);
  g_assert_true (viewer_test_wait (has_about_window, NULL, 5000));
  about = find_about_window ();
  g_assert_cmpstr (adw_about_window_get_application_name (about), ==, "smprof");
  /* The application's icon, found in its resources when not installed */
  g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, SMV_APPLICATION_ID);
  g_assert_true (gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (about))),
                                          adw_about_window_get_application_icon (about)));
  g_assert_cmpstr (adw_about_window_get_version (about), !=, "");
  g_assert_cmpint (adw_about_window_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (about)) == GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, about, 5000));
  g_object_unref (viewer_test_render (GTK_WIDGET (about), "viewer-about.png"));

  gtk_window_destroy (GTK_WINDOW (about));
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);
  install_help_browser ();
  /* the local launcher, not the OpenURI portal */
  g_unsetenv ("GTK_USE_PORTAL");

  g_test_add_func ("/viewer/help", test_help);
  g_test_add_func ("/viewer/about", test_about);

  status = g_test_run ();
  g_clear_pointer (&uri_file, g_free);
  g_clear_object (&the_application);

  return status;
}
