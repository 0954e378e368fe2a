/* test-viewer-l10n.c: the viewer in a language, on the sample job, and its screenshot
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run twice (tests/meson.build): with LANGUAGE=fr, the viewer's, the plugin's
 * and the core's strings must come out in French, from the catalogues built in
 * the tree (SMPROF_LOCALEDIR names BUILD/po/locale); without it, in English.
 * Each run saves the window as viewer-LANG.png (viewer.png in English) in the
 * build folder, and in $SMPROF_SCREENSHOTS_DIR when set: data/screenshots/
 * holds the ones the metainfo shows.
 */

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "smv-application.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "viewer-test-utils.h"

#define PLUGIN_DOMAIN "smprof-plugin"

static gboolean french;

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
shows_document (gpointer data)
{
  return g_strcmp0 (smv_window_get_view_name (data), "document") == 0;
}

static gboolean
page_ready (gpointer data)
{
  GtkWidget *page = smv_window_get_page (data);
  GtkWidget *status;
  gboolean busy = TRUE;

  if (page == NULL)
    return FALSE;

  g_object_get (page, "busy", &busy, NULL);
  status = viewer_test_find (page, "status");

  return !busy && status != NULL && gtk_label_get_label (GTK_LABEL (status))[0] != '\0';
}

/* A message of @domain as the catalogues built in the tree translate it:
 * in French, it must differ from the English. */
static const char *
expect (const char *domain,
        const char *msgid)
{
  const char *text = g_dgettext (domain, msgid);

  if (french)
    g_assert_cmpstr (text, !=, msgid);
  else
    g_assert_cmpstr (text, ==, msgid);

  return text;
}

static void
save_screenshot (GdkTexture *texture,
                 const char *name)
{
  const char *dir = g_getenv ("SMPROF_SCREENSHOTS_DIR");

  if (dir != NULL && dir[0] != '\0')
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot saved to %s", path);
    }
}

static void
test_sample_job (void)
{
  g_autofree char *job_path = g_test_build_filename (G_TEST_DIST, "..", "data", "sample-job", NULL);
  g_autoptr(GFile) job = g_file_new_for_path (job_path);
  g_auto(GStrv) dirs = smv_source_registry_dup_default_dirs ();
  g_autoptr(SmvSourceRegistry) registry = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *nodes = NULL;
  g_autofree char *png = NULL;
  SmvWindow *window;
  GtkWidget *page;
  GtkWidget *open_button;
  const char *empty_title;
  const char *summary;
  const char *status;
  guint n_colors, n_differing;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  registry = smv_source_registry_new ((const char * const *) dirs);
  g_assert_cmpuint (smv_source_registry_get_n_sources (registry), ==, 1);

  window = smv_window_new (NULL, registry, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (is_mapped, window, 5000));

  /* The viewer's own strings, from its .ui files and its code. */
  open_button = viewer_test_find (GTK_WIDGET (window), "open-button");
  g_assert_nonnull (open_button);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (open_button)), ==, expect (GETTEXT_PACKAGE, "_Open"));
  empty_title = adw_status_page_get_title (viewer_test_status_page (GTK_WIDGET (window), "empty"));
  g_assert_cmpstr (empty_title, ==, expect (GETTEXT_PACKAGE, "Open a Profile"));
  if (french)
    g_assert_true (g_str_has_prefix (empty_title, "Ouvrir"));

  smv_window_open (window, job);
  g_assert_true (viewer_test_wait (shows_document, window, 30000));
  page = smv_window_get_page (window);
  g_assert_nonnull (page);
  g_assert_true (viewer_test_wait (page_ready, window, 30000));

  /* The plugin's strings: its code (plurals) and its .ui files. */
  nodes = g_strdup_printf (g_dngettext (PLUGIN_DOMAIN, "%u node", "%u nodes", 2), 2);
  expect (PLUGIN_DOMAIN, "%u node");
  summary = viewer_test_label_text (page, "job-summary");
  g_test_message ("header: %s", summary);
  g_assert_true (g_str_has_prefix (summary, nodes));
  g_assert_cmpstr (smv_document_get_subtitle (smv_window_get_document (window)), !=, NULL);
  g_assert_true (g_str_has_prefix (smv_document_get_subtitle (smv_window_get_document (window)), nodes));
  if (french)
    g_assert_nonnull (strstr (summary, "2 nœuds"));
  else
    g_assert_nonnull (strstr (summary, "2 nodes"));

  status = viewer_test_label_text (page, "status");
  g_test_message ("status: %s", status);
  if (french)
    g_assert_nonnull (strstr (status, "intervalles"));
  else
    g_assert_nonnull (strstr (status, "intervals"));

  viewer_test_spin (500);
  png = g_strdup_printf ("viewer%s.png", french ? "-fr" : "");
  texture = viewer_test_render (GTK_WIDGET (window), png);
  n_colors = viewer_test_count_colors (texture, viewer_test_pixel (texture, 5, gdk_texture_get_height (texture) - 5),
                                       &n_differing);
  g_test_message ("screenshot: %u colours, %u pixels differ", n_colors, n_differing);
  g_assert_cmpuint (n_colors, >, 20);
  save_screenshot (texture, png);

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

int
main (int   argc,
      char *argv[])
{
  const char *language = g_getenv ("LANGUAGE");
  const char *locale;

  /* As main() does, before GTK starts: the environment's locale, else
   * C.UTF-8, where glibc still honours LANGUAGE. */
  french = language != NULL && g_str_has_prefix (language, "fr");
  locale = setlocale (LC_ALL, "");
  if (locale == NULL || strcmp (locale, "C") == 0)
    locale = setlocale (LC_ALL, "C.UTF-8");
  smv_application_bind_textdomain ();

  viewer_test_init (&argc, &argv);
  g_test_message ("locale %s, LANGUAGE=%s, catalogues in %s", locale, language ? language : "",
                  g_getenv ("SMPROF_LOCALEDIR"));

  g_test_add_func ("/viewer/l10n/sample-job", test_sample_job);

  return g_test_run ();
}
