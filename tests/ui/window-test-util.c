/* window-test-util.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <smprof-viewer-api.h>

#include "smprof-job-page.h"
#include "smprof-sagemaker-source.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

/* The viewer's sources with the plugin's data source linked in, as
 * g_io_module_load() registers it when the viewer loads the plugin, and
 * no plugin folder. */
SmvSourceRegistry *
window_test_registry_new (void)
{
  const char * const no_dirs[] = { NULL };

  smv_data_source_ensure_extension_point ();
  g_io_extension_point_implement (SMV_DATA_SOURCE_EXTENSION_POINT_NAME, SMPROF_TYPE_SAGEMAKER_SOURCE,
                                  "sagemaker", 10);
  return smv_source_registry_new (no_dirs);
}

/* On screen with a size: under Xvfb a window is mapped as soon as it is
 * presented, but has no size until its first frame. */
gboolean
window_test_is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

gboolean
window_test_shows_document (gpointer window)
{
  return g_strcmp0 (smv_window_get_view_name (window), "document") == 0;
}

/* The page has an answer for a selection and is waiting for nothing. */
gboolean
window_test_page_ready (gpointer page)
{
  return !smprof_job_page_get_busy (page) && smprof_job_page_get_selected_records (page) != NULL;
}

/**
 * window_test_open_job:
 * @path: the job's folder
 * @page: (out): the job page the window shows
 *
 * A viewer window of @width x @height opened on @path, once its page has
 * its first answer. Widgets may still be settling: call ui_test_settle()
 * to look at them as drawn.
 */
SmvWindow *
window_test_open_job (SmvSourceRegistry  *registry,
                      const char         *path,
                      int                 width,
                      int                 height,
                      SmprofJobPage     **page)
{
  g_autoptr(GFile) job = g_file_new_for_path (path);
  SmvWindow *window = smv_window_new (NULL, registry, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (viewer_test_wait (window_test_is_mapped, window, 30000));

  smv_window_open (window, job);
  g_assert_true (viewer_test_wait (window_test_shows_document, window, 30000));

  *page = SMPROF_JOB_PAGE (smv_window_get_page (window));
  g_assert_true (SMPROF_IS_JOB_PAGE (*page));
  /* long enough for a 64-node job under ASan */
  g_assert_true (viewer_test_wait (window_test_page_ready, *page, 120000));

  return window;
}

/* The folder of a job of tests/data/real-smdebug. */
char *
window_test_real_job (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", name, NULL);
}

/* Destroys @window and lets the main loop finish what that started. */
void
window_test_close (SmvWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}
