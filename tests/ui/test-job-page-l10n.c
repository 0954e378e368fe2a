/* test-job-page-l10n.c: the job page in French, as the viewer shows it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run with LANGUAGE=fr and SMPROF_LOCALEDIR naming the build's po/locale.
 * The process's default domain is the viewer's, as in smprof-viewer; the
 * plugin's catalogue is bound apart, as g_io_module_load() does:
 *
 * - the plugin's plural messages come from the plugin's catalogue ("3
 *   outlier steps" came out in English: ngettext looked in the viewer's);
 * - the timeline's legend, a third longer in French, is whole at 1280x800,
 *   a comparison's A and B included;
 * - so is the toolbar's count of outlier steps with its rule ("Aucun pas
 *   abe…" was all it showed of the 64-node job's), on both pictures;
 * - the README's French pictures: job-page-fr-1280x800.png, and
 *   job-page-64-nodes-fr-1280x800.png (layout-test-util.c).
 */

#include <locale.h>

#include <glib/gi18n-lib.h>
#include <smprof-viewer-api.h>

#include "layout-test-util.h"
#include "smv-application.h"
#include "smprof-job-page-private.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-outliers.h"
#include "smprof-timeline-private.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

static SmvSourceRegistry *registry;

static gboolean
page_ready (gpointer data)
{
  SmprofJobPage *page = data;

  return !smprof_job_page_get_busy (page) && smprof_job_page_get_selected_records (page) != NULL &&
         smprof_timeline_get_n_outliers (page->timeline) > 1;
}

static void
test_french_page (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  SmvWindow *window;
  SmprofJobPage *page;
  const char *label;
  guint n;
  double right;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = window_test_open_job (registry, path, 1280, 800, &page);
  g_assert_true (viewer_test_wait (page_ready, page, 60000));
  ui_test_settle ();

  /* The plural, from the plugin's catalogue: translated, and the French
   * sentence for this count. */
  n = smprof_timeline_get_n_outliers (page->timeline);
  label = gtk_label_get_label (page->outliers_label);
  expected = g_strdup_printf (g_dngettext ("smprof-plugin", "%u outlier step (rule: z > %.1f)",
                                           "%u outlier steps (rule: z > %.1f)", n),
                              n, SMPROF_STEP_OUTLIER_THRESHOLD);
  g_test_message ("outliers: %s", label);
  g_assert_null (strstr (expected, "outlier step"));
  g_assert_cmpstr (label, ==, expected);
  /* ... and whole beside the toolbar's French buttons, a third wider. */
  layout_test_check_label_whole (window, page->outliers_label);
  layout_test_check_label_whole (window, page->status_label);

  /* The legend whole, then with a comparison's two more entries. */
  g_assert_cmpuint (_smprof_timeline_get_legend_lines (page->timeline, &right), >=, 1);
  g_test_message ("legend: ends at %.0f of %d px", right, gtk_widget_get_width (GTK_WIDGET (page->timeline)));
  g_assert_cmpfloat (right, <=, gtk_widget_get_width (GTK_WIDGET (page->timeline)));

  smprof_job_page_set_step_range (page, 0, 4);
  g_assert_true (viewer_test_wait (page_ready, page, 60000));
  gtk_widget_activate_action (GTK_WIDGET (page), "job-page.compare", NULL);
  smprof_job_page_set_step_range (page, 5, 9);
  g_assert_true (viewer_test_wait (page_ready, page, 60000));
  ui_test_settle ();
  _smprof_timeline_get_legend_lines (page->timeline, &right);
  g_test_message ("legend while comparing: ends at %.0f of %d px", right,
                  gtk_widget_get_width (GTK_WIDGET (page->timeline)));
  g_assert_cmpfloat (right, <=, gtk_widget_get_width (GTK_WIDGET (page->timeline)));

  /* The comparison's count of functions, a plural of the plugin's: in
   * French too. */
  label = viewer_test_label_text (GTK_WIDGET (page), "diff-count");
  g_test_message ("diff table: %s", label);
  g_assert_nonnull (strstr (label, " sur "));
  g_assert_true (g_str_has_suffix (label, " fonctions"));

  /* The views whole beside the sidebar, in the longer French words, their
   * bar holding five tabs and the buttons beside them: the sidebar's pane
   * may give them less room than they need, and then cuts them off. */
  {
    GtkWidget *views = gtk_paned_get_end_child (page->sidebar_paned);
    graphene_rect_t bounds;
    int min_width = 0;

    gtk_widget_measure (views, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    g_assert_true (gtk_widget_compute_bounds (views, GTK_WIDGET (window), &bounds));
    g_test_message ("views: minimum %d px, %.0f px shown from x %.0f in a %d px window", min_width,
                    bounds.size.width, bounds.origin.x, gtk_widget_get_width (GTK_WIDGET (window)));
    g_assert_cmpint (min_width, <=, gtk_widget_get_width (GTK_WIDGET (window)) - bounds.origin.x);
  }

  texture = ui_test_render (GTK_WIDGET (window));
  ui_test_save (texture, "job-page-fr-1280x800.png");

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

/* The README's French picture of a 64-node job (layout-test-util.c): the
 * sidebar's "Training loop" preset in French on it. */
static void
test_french_64 (void)
{
  static const LayoutTestPicture picture = {
    1280, 800, FALSE, "job-page-64-nodes-fr-1280x800.png", 25, "smprof-plugin", "Training loop"
  };

  VIEWER_TEST_REQUIRE_DISPLAY ();

  layout_test_picture_64 (registry, &picture);
}

int
main (int   argc,
      char *argv[])
{
  const char *localedir = g_getenv ("SMPROF_LOCALEDIR");
  int status;

  /* As smprof-viewer and the plugin module do. */
  if (setlocale (LC_ALL, "") == NULL || g_strcmp0 (setlocale (LC_ALL, NULL), "C") == 0)
    setlocale (LC_ALL, "C.UTF-8");
  g_assert_nonnull (localedir);
  smv_application_bind_textdomain ();
  bindtextdomain ("smprof-plugin", localedir);
  bind_textdomain_codeset ("smprof-plugin", "UTF-8");
  bindtextdomain ("smprof", localedir);
  bind_textdomain_codeset ("smprof", "UTF-8");

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/job-page/l10n/french", test_french_page);
  g_test_add_func ("/job-page/l10n/screenshots-64/1280x800", test_french_64);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
