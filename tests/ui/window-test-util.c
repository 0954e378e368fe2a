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

/* ------------------------------------------------------------------------ */
/* Save dialogs                                                             */

/* The save dialog on screen (GtkFileChooserNative shows a GTK dialog when
 * there is no portal), or %NULL. */
GtkWidget *
window_test_find_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return GTK_WIDGET (window);
    }

  return NULL;
}

gboolean
window_test_has_file_chooser (gpointer unused)
{
  return window_test_find_file_chooser () != NULL;
}

typedef struct
{
  GtkWidget  *dialog;
  const char *path;
} Pick;

static gboolean
chooser_in_folder (gpointer data)
{
  Pick *pick = data;
  g_autoptr(GFile) folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (pick->dialog));

  return folder != NULL && g_strcmp0 (g_file_peek_path (folder), pick->path) == 0;
}

static gboolean
chooser_picks (gpointer data)
{
  Pick *pick = data;
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (pick->dialog));

  return file != NULL && g_strcmp0 (g_file_peek_path (file), pick->path) == 0;
}

static void
wait_chooser (GSourceFunc  condition,
              GtkWidget   *dialog,
              const char  *path,
              const char  *what)
{
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;

  if (viewer_test_wait (condition, &(Pick) { dialog, path }, 10000))
    return;

  folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (dialog));
  name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));
  g_error ("the chooser did not %s %s: it shows folder %s, name %s", what, path,
           folder != NULL ? g_file_peek_path (folder) : "(none)", name != NULL ? name : "(none)");
}

/**
 * window_test_chooser_save_as:
 * @dialog: a save dialog, from window_test_find_file_chooser()
 * @start_dir: the folder it opens in
 * @dir: the folder to save in
 * @name: the file name to save as
 *
 * Does what a user does: once the dialog shows @start_dir, goes to @dir,
 * then types @name; fails the test if the dialog does not follow. A
 * dialog checks a folder on a worker before it goes there: a folder given
 * while it still loads its own can lose to it (GTK 4.8's chooser then fell
 * back to the working folder, seen under AddressSanitizer), and a name
 * given before it is there can be lost.
 */
void
window_test_chooser_save_as (GtkWidget  *dialog,
                             const char *start_dir,
                             const char *dir,
                             const char *name)
{
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autofree char *path = g_build_filename (dir, name, NULL);

  wait_chooser (chooser_in_folder, dialog, start_dir, "start in");
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL));
  wait_chooser (chooser_in_folder, dialog, dir, "go to");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  wait_chooser (chooser_picks, dialog, path, "pick");
}
