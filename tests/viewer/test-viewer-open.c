/* test-viewer-open.c: the viewer with the SageMaker plugin from the build tree
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SMPROF_VIEWER_PLUGIN_PATH names the build folder of the plugin, as in a
 * development build; these tests do not link the plugin or its core.
 */

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "smv-application.h"
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
page_ready (gpointer data)
{
  GtkWidget *page = smv_window_get_page (data);
  gboolean busy = TRUE;

  if (page == NULL)
    return FALSE;

  g_object_get (page, "busy", &busy, NULL);

  return !busy && strstr (viewer_test_label_text (page, "status"), "interval") != NULL;
}

/* The total time the command line gives for the same aggregate. */
static double
cli_total_time (const char *job_path,
                const char *selection)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *found;
  int status;

  g_assert_nonnull (smprof);
  command = g_strdup_printf ("'%s' stats '%s' --node all %s --json", smprof, job_path, selection);
  g_assert_true (g_spawn_command_line_sync (command, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  found = strstr (out, "\"total_time\"");
  g_assert_nonnull (found);
  found = strchr (found, ':');
  g_assert_nonnull (found);

  return g_ascii_strtod (found + 1, NULL);
}

/* How many intervals `smprof list` shows for the job's default profiler. */
static guint
cli_interval_count (const char *job_path)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;
  int status;

  command = g_strdup_printf ("'%s' list '%s'", smprof, job_path);
  g_assert_true (g_spawn_command_line_sync (command, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  lines = g_strsplit (out, "\n", 0);
  for (guint i = 1; lines[i] != NULL; i++)   /* after the header */
    if (lines[i][0] != '\0')
      n++;

  return n;
}

/* "… · 15.2 s total · …" or "… · 339 ms total · …": the seconds. */
static double
status_total_seconds (const char *status)
{
  static const struct { const char *suffix; double scale; } units[] = {
    { " ms total", 1e-3 },
    { " µs total", 1e-6 },
    { " s total", 1.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      const char *total = strstr (status, units[i].suffix);
      const char *start;

      if (total == NULL)
        continue;

      for (start = total; start > status && (g_ascii_isdigit (start[-1]) || start[-1] == '.'); start--)
        ;
      g_assert_true (start < total);

      return g_ascii_strtod (start, NULL) * units[i].scale;
    }

  g_assert_not_reached ();
}

static void
test_registry (void)
{
  SmvSourceRegistry *sources = get_registry ();
  g_autoptr(SmvDataSource) source = NULL;
  g_autoptr(GFile) job = real_job ("pt-cprofile");
  g_autoptr(GFile) not_a_job = g_file_new_for_path (g_test_get_dir (G_TEST_DIST));
  g_autoptr(GFile) s3 = g_file_new_for_uri ("s3://bucket/job/");
  g_autoptr(GFile) web = g_file_new_for_uri ("https://example.com/job/");
  g_autofree char *name = NULL;
  g_auto(GStrv) schemes = NULL;

  g_assert_cmpuint (smv_source_registry_get_n_sources (sources), ==, 1);
  g_assert_true (smv_source_registry_opens_folders (sources));

  source = g_list_model_get_item (smv_source_registry_get_sources (sources), 0);
  g_assert_cmpstr (G_OBJECT_TYPE_NAME (source), ==, "SmprofSagemakerSource");
  name = smv_data_source_dup_name (source);
  g_assert_cmpstr (name, ==, "SageMaker Debugger profiles");

  /* From the location's form alone: any local path may be a job (opening
   * finds out, off the main thread); another scheme is not. */
  g_assert_true (smv_data_source_can_open (source, job));
  g_assert_true (smv_data_source_can_open (source, not_a_job));
  g_assert_false (smv_data_source_can_open (source, web));
  g_assert_true (smv_source_registry_find_for (sources, job) == source);
  g_assert_null (smv_source_registry_find_for (sources, web));

  /* s3:// opens exactly when the plugin was built with the core's S3 source. */
  schemes = smv_source_registry_dup_uri_schemes (sources);
  g_assert_cmpint (smv_data_source_can_open (source, s3), ==, g_strv_contains ((const char * const *) schemes, "s3"));
  g_test_message ("URI schemes: %u", g_strv_length (schemes));
}

static void
test_open_real_job (void)
{
  g_autoptr(GFile) job = real_job ("pt-cprofile");
  g_autofree char *job_path = g_file_get_path (job);
  SmvWindow *window;
  SmvDocument *document;
  GtkWidget *page;
  const char *summary;
  const char *status;
  double expected;
  g_autoptr(GdkTexture) texture = NULL;
  guint n_colors, n_differing;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = present_window ();
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "empty");

  smv_window_open (window, job);
  g_assert_true (smv_window_is_loading (window));
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "loading");

  g_assert_true (viewer_test_wait (shows_document, window, 30000));
  g_assert_false (smv_window_is_loading (window));
  /* The page comes at once, without the small pages' cross-fade: each of
   * its frames drew a 256-node job's page and the one before into two
   * images and blended them, 60-80 ms with the cairo renderer. */
  g_assert_false (gtk_stack_get_transition_running (GTK_STACK (gtk_widget_get_ancestor (smv_window_get_page (window),
                                                                                         GTK_TYPE_STACK))));

  /* The document: title and summary in the header bar, nothing skipped. */
  document = smv_window_get_document (window);
  g_assert_nonnull (document);
  g_assert_cmpstr (smv_document_get_title (document), ==, "pt-cprofile");
  g_assert_cmpstr (smv_document_get_subtitle (document), ==, "2 nodes · 82 intervals");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "pt-cprofile");
  g_assert_cmpstr (adw_window_title_get_subtitle (ADW_WINDOW_TITLE (viewer_test_find (GTK_WIDGET (window), "window-title"))),
                   ==, "2 nodes · 82 intervals");
  g_assert_cmpuint (g_list_model_get_n_items (smv_document_get_problems (document)), ==, 0);
  g_assert_false (gtk_info_bar_get_revealed (smv_window_get_banner (window)));

  /* The page: its header counts nodes and intervals. */
  page = smv_window_get_page (window);
  g_assert_nonnull (page);
  g_assert_cmpstr (G_OBJECT_TYPE_NAME (page), ==, "SmprofJobPage");
  g_assert_cmpstr (viewer_test_label_text (page, "job-name"), ==, "pt-cprofile");
  summary = viewer_test_label_text (page, "job-summary");
  g_test_message ("header: %s", summary);
  g_assert_cmpstr (summary, ==, "2 nodes · 82 intervals (41 per node)");

  /* The whole job, aggregated off the main thread: the status line says
   * what was aggregated, with the command line's total. */
  g_assert_true (viewer_test_wait (page_ready, window, 30000));
  status = viewer_test_label_text (page, "status");
  g_test_message ("status: %s", status);
  g_assert_true (g_str_has_prefix (status, "82 intervals · steps 0–19 · 2 nodes (0-algo-1, 1-algo-2) · "));
  g_assert_nonnull (strstr (status, "cProfile, call trees estimated"));
  expected = cli_total_time (job_path, "--all");
  g_assert_cmpfloat_with_epsilon (status_total_seconds (status), expected, 0.051);

  /* A preset, through its keyboard action: initialization is one interval per node. */
  g_assert_true (gtk_widget_activate_action (page, "job-page.preset", "i", 2));
  g_assert_true (viewer_test_wait (page_ready, window, 30000));
  status = viewer_test_label_text (page, "status");
  g_test_message ("initialization: %s", status);
  g_assert_true (g_str_has_prefix (status, "2 intervals · step 0 · 2 nodes (0-algo-1, 1-algo-2) · "));
  expected = cli_total_time (job_path, "--pre-step-zero");
  g_assert_cmpfloat_with_epsilon (status_total_seconds (status), expected, 0.051);

  /* One node, from the node selector. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (page, "node-selector")), 2);
  g_assert_true (viewer_test_wait (page_ready, window, 30000));
  status = viewer_test_label_text (page, "status");
  g_assert_true (g_str_has_prefix (status, "1 interval · step 0 · node 1-algo-2 · "));

  g_assert_true (gtk_widget_activate_action (page, "job-page.preset", "i", 1));
  g_assert_true (viewer_test_wait (page_ready, window, 30000));
  viewer_test_spin (300);

  texture = viewer_test_render (GTK_WIDGET (window), "viewer-job-page.png");
  n_colors = viewer_test_count_colors (texture, viewer_test_pixel (texture, 5, gdk_texture_get_height (texture) - 5),
                                       &n_differing);
  g_test_message ("job page screenshot: %u colours, %u pixels differ", n_colors, n_differing);
  g_assert_cmpuint (n_colors, >, 20);

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

static void
test_cancel (void)
{
  g_autoptr(GFile) job = real_job ("pt-cprofile");
  SmvWindow *window;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = present_window ();

  /* Start, let the worker run a little, cancel: the empty state is back at
   * once, and stays when the worker's answer arrives. */
  smv_window_open (window, job);
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "loading");
  g_assert_nonnull (smv_window_get_progress (window));
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel", NULL));

  g_assert_false (smv_window_is_loading (window));
  g_assert_null (smv_window_get_progress (window));
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "empty");

  viewer_test_spin (1500);
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "empty");
  g_assert_null (smv_window_get_document (window));
  g_assert_null (smv_window_get_page (window));
  g_assert_false (gtk_info_bar_get_revealed (smv_window_get_banner (window)));

  /* Cancel when nothing is loading does nothing. */
  smv_window_cancel (window);
  g_assert_cmpstr (smv_window_get_view_name (window), ==, "empty");

  /* The window still opens a job afterwards. */
  smv_window_open (window, job);
  g_assert_true (viewer_test_wait (shows_document, window, 30000));
  g_assert_nonnull (smv_window_get_document (window));

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

static void
write_file (const char *path,
            const void *data,
            gsize       length)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, data, length, &error);
  g_assert_no_error (error);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

static guint
problems_count (gpointer data)
{
  SmvDocument *document = smv_window_get_document (data);

  return document != NULL ? g_list_model_get_n_items (smv_document_get_problems (document)) : 0;
}

static gboolean
has_two_problems (gpointer data)
{
  return problems_count (data) >= 2;
}

static void
test_problems_banner (void)
{
  g_autoptr(GFile) real = real_job ("pt-cprofile");
  g_autofree char *real_path = g_file_get_path (real);
  g_autofree char *good_name = NULL;
  g_autofree char *good_stats = NULL;
  g_autofree char *stats = NULL;
  g_autofree char *root = NULL;
  g_autofree char *node = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  gsize length;
  SmvWindow *window;
  GtkInfoBar *banner;
  GListModel *problems;
  g_autoptr(SmvProblem) first = NULL;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  /* A small damaged job in a temporary folder: one good interval, one with a
   * malformed folder name, one whose stats file is garbage. */
  root = g_dir_make_tmp ("smv-damaged-XXXXXX", &error);
  g_assert_no_error (error);
  node = g_build_filename (root, "framework", "pytorch", "cprofile", "0-algo-1", NULL);

  path = g_build_filename (real_path, "framework", "pytorch", "cprofile", "0-algo-1", NULL);
  dir = g_dir_open (path, 0, &error);
  g_assert_no_error (error);
  good_name = g_strdup (g_dir_read_name (dir));
  g_free (path);
  path = g_build_filename (real_path, "framework", "pytorch", "cprofile", "0-algo-1", good_name, "python_stats", NULL);
  g_file_get_contents (path, &stats, &length, &error);
  g_assert_no_error (error);

  good_stats = g_build_filename (node, good_name, "python_stats", NULL);
  write_file (good_stats, stats, length);
  g_free (path);
  path = g_build_filename (node, "not-an-interval", "python_stats", NULL);
  write_file (path, stats, length);
  g_free (path);
  path = g_build_filename (node, "train-1-stepstart-1795987297000000.0_train-1-stepend-1795987297100000.0",
                           "python_stats", NULL);
  write_file (path, "garbage", 7);

  window = present_window ();
  job = g_file_new_for_path (root);
  smv_window_open (window, job);
  g_assert_true (viewer_test_wait (shows_document, window, 30000));

  /* Indexing finds the bad folder name; reading the whole job for the first
   * aggregate finds the garbage file. Both are listed, and nothing else. */
  g_assert_true (viewer_test_wait (has_two_problems, window, 30000));
  g_assert_true (viewer_test_wait (page_ready, window, 30000));
  g_assert_cmpuint (problems_count (window), ==, 2);

  banner = smv_window_get_banner (window);
  g_assert_true (gtk_info_bar_get_revealed (banner));
  g_assert_cmpint (gtk_info_bar_get_message_type (banner), ==, GTK_MESSAGE_WARNING);
  g_assert_cmpstr (viewer_test_label_text (GTK_WIDGET (window), "banner-title"), ==,
                   "2 files or folders were skipped; everything else was opened.");

  problems = smv_document_get_problems (smv_window_get_document (window));
  first = g_list_model_get_item (problems, 0);
  g_assert_nonnull (strstr (smv_problem_get_path (first), "not-an-interval"));
  g_assert_cmpstr (smv_problem_get_message (first), !=, "");
  g_assert_nonnull (strstr (viewer_test_label_text (smv_window_get_page (window), "status"), "1 unreadable"));

  /* Closing the banner hides it until something new is skipped. */
  gtk_info_bar_response (banner, GTK_RESPONSE_CLOSE);
  g_assert_false (gtk_info_bar_get_revealed (banner));

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
  remove_tree (root);
}

/* What a label shows, as drawn: the runs of its layout, an ellipsis as "…". */
static void
append_visible_text (GtkLabel *label,
                     GString  *visible)
{
  PangoLayout *layout = gtk_label_get_layout (label);
  const char *text = pango_layout_get_text (layout);
  PangoLayoutIter *iter = pango_layout_get_iter (layout);

  do
    {
      PangoLayoutRun *run = pango_layout_iter_get_run_readonly (iter);

      if (run == NULL)
        continue;
      if (run->item->analysis.flags & PANGO_ANALYSIS_FLAG_IS_ELLIPSIS)
        g_string_append (visible, "…");
      else
        g_string_append_len (visible, text + run->item->offset, run->item->length);
    }
  while (pango_layout_iter_next_run (iter));
  pango_layout_iter_free (iter);
}

/* The path as the list of skipped files shows it: the text drawn by its
 * monospace labels, in order, those scrolled out of sight left out. */
static void
collect_shown_path (GtkWidget *widget,
                    GtkWidget *window,
                    GString   *visible)
{
  graphene_rect_t bounds;

  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "monospace") && gtk_widget_is_drawable (widget) &&
      gtk_widget_compute_bounds (widget, window, &bounds) &&
      bounds.origin.x >= 0 && bounds.origin.x + bounds.size.width <= gtk_widget_get_width (window))
    append_visible_text (GTK_LABEL (widget), visible);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_shown_path (child, window, visible);
}

static char *
dup_shown_path (SmvWindow *window)
{
  GString *visible = g_string_new (NULL);

  collect_shown_path (viewer_test_find (GTK_WIDGET (window), "problems-list"), GTK_WIDGET (window), visible);

  return g_string_free (visible, FALSE);
}

static gboolean
has_problem (gpointer data)
{
  return problems_count (data) >= 1;
}

/* A skipped file deep in a job: the list of skipped files shows the node and
 * the interval (with its step) at the path's end whole, and when the window
 * is too narrow for the whole path, cuts its start. */
static void
test_problems_path_elided (void)
{
  g_autoptr(GFile) real = real_job ("pt-cprofile");
  g_autofree char *real_path = g_file_get_path (real);
  g_autofree char *root = NULL;
  g_autofree char *node = NULL;
  g_autofree char *path = NULL;
  g_autofree char *good_name = NULL;
  g_autofree char *stats = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *tail = NULL;
  const char *interval = "train-1-stepstart-1795987297000000.0_train-1-stepend-1795987297100000.0";
  g_autoptr(GFile) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(SmvProblem) problem = NULL;
  GtkExpander *expander;
  SmvWindow *window;
  gsize length;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  root = g_dir_make_tmp ("smv-damaged-XXXXXX", &error);
  g_assert_no_error (error);
  node = g_build_filename (root, "framework", "pytorch", "cprofile", "0-algo-1", NULL);

  path = g_build_filename (real_path, "framework", "pytorch", "cprofile", "0-algo-1", NULL);
  dir = g_dir_open (path, 0, &error);
  g_assert_no_error (error);
  good_name = g_strdup (g_dir_read_name (dir));
  g_free (path);
  path = g_build_filename (real_path, "framework", "pytorch", "cprofile", "0-algo-1", good_name, "python_stats", NULL);
  g_file_get_contents (path, &stats, &length, &error);
  g_assert_no_error (error);
  g_free (path);
  path = g_build_filename (node, good_name, "python_stats", NULL);
  write_file (path, stats, length);
  g_free (path);
  path = g_build_filename (node, interval, "python_stats", NULL);
  write_file (path, "garbage", 7);

  window = present_window ();
  job = g_file_new_for_path (root);
  smv_window_open (window, job);
  g_assert_true (viewer_test_wait (shows_document, window, 30000));
  g_assert_true (viewer_test_wait (has_problem, window, 30000));
  g_assert_true (viewer_test_wait (page_ready, window, 30000));

  problem = g_list_model_get_item (smv_document_get_problems (smv_window_get_document (window)), 0);
  g_test_message ("skipped: %s", smv_problem_get_path (problem));
  tail = g_strconcat ("0-algo-1/", interval, "/python_stats", NULL);
  g_assert_true (g_str_has_suffix (smv_problem_get_path (problem), tail));

  expander = GTK_EXPANDER (viewer_test_find (GTK_WIDGET (window), "problems-expander"));
  g_assert_nonnull (expander);
  gtk_expander_set_expanded (expander, TRUE);

  /* Wide enough: the whole path. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  viewer_test_spin (300);
  viewer_test_wait_transitions (GTK_WIDGET (window));
  shown = dup_shown_path (window);
  g_test_message ("shown at 1280 px: %s", shown);
  g_assert_cmpstr (shown, ==, smv_problem_get_path (problem));

  /* Narrow: the start goes, the node and the interval stay whole. */
  gtk_window_set_default_size (GTK_WINDOW (window), 860, 800);
  viewer_test_spin (300);
  viewer_test_wait_transitions (GTK_WIDGET (window));
  g_object_unref (viewer_test_render (GTK_WIDGET (window), "viewer-skipped-files.png"));
  g_free (shown);
  shown = dup_shown_path (window);
  g_test_message ("shown at 860 px: %s", shown);
  g_assert_true (g_str_has_prefix (shown, "…"));
  g_assert_true (g_str_has_suffix (shown, tail));

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
  remove_tree (root);
}

/* Every real job of tests/data: the page aggregates the whole job as the
 * command line does (same interval count, same total), with either profiler. */
static void
test_real_jobs (void)
{
  const char *jobs[] = { "pt-cprofile", "pt-pyinstrument", "tf-cprofile", "tf-pyinstrument" };

  VIEWER_TEST_REQUIRE_DISPLAY ();

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autoptr(GFile) job = real_job (jobs[i]);
      g_autofree char *job_path = g_file_get_path (job);
      g_autofree char *prefix = NULL;
      gboolean pyinstrument = strstr (jobs[i], "pyinstrument") != NULL;
      SmvWindow *window = present_window ();
      const char *status;
      guint n;

      smv_window_open (window, job);
      g_assert_true (viewer_test_wait (shows_document, window, 30000));
      g_assert_true (viewer_test_wait (page_ready, window, 60000));

      status = viewer_test_label_text (smv_window_get_page (window), "status");
      g_test_message ("%s: %s", jobs[i], status);
      n = cli_interval_count (job_path);
      g_assert_cmpuint (n, >, 0);
      prefix = g_strdup_printf ("%u intervals · ", n);
      g_assert_true (g_str_has_prefix (status, prefix));
      g_assert_nonnull (strstr (status, pyinstrument ? "Pyinstrument, sampled" : "cProfile, call trees estimated"));
      g_assert_cmpfloat_with_epsilon (status_total_seconds (status), cli_total_time (job_path, "--all"),
                                      0.0051 + 0.005 * cli_total_time (job_path, "--all"));

      gtk_window_destroy (GTK_WINDOW (window));
    }

  viewer_test_spin (100);
}

/* Dropping folders on the window (a GdkFileList, as a file manager
 * offers): the window's drop target takes it, the first folder opens. */
static void
test_drop_folder (void)
{
  g_autoptr(GFile) job = real_job ("tf-cprofile");
  g_autoptr(GFile) other = real_job ("pt-cprofile");
  g_autoptr(GListModel) controllers = NULL;
  GtkDropTarget *target = NULL;
  SmvWindow *window;
  GSList *files = NULL;
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  window = present_window ();
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);
  g_assert_true (gtk_drop_target_get_actions (target) & GDK_ACTION_COPY);

  /* Something that is not a list of files is refused. */
  g_value_init (&value, G_TYPE_STRING);
  g_value_set_static_string (&value, "/tmp");
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_false (accepted);
  g_value_unset (&value);

  files = g_slist_append (files, job);
  files = g_slist_append (files, other);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free (files);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);

  g_assert_true (viewer_test_wait (shows_document, window, 30000));
  g_assert_true (viewer_test_wait (page_ready, window, 60000));
  g_assert_true (g_file_equal (smv_document_get_location (smv_window_get_document (window)), job));

  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin (100);
}

typedef struct
{
  SmvWindow *window;
  gboolean   opened;
  char      *status;
  guint      poll_id;
  guint      give_up_id;
} AppRun;

static void
window_added_cb (GtkApplication *application,
                 GtkWindow      *window,
                 AppRun         *run)
{
  if (SMV_IS_WINDOW (window) && run->window == NULL)
    run->window = SMV_WINDOW (window);
}

static gboolean
poll_app_cb (gpointer data)
{
  GApplication *application = data;
  AppRun *run = g_object_get_data (G_OBJECT (application), "run");

  if (run->window != NULL && page_ready (run->window))
    {
      run->opened = TRUE;
      run->status = g_strdup (viewer_test_label_text (smv_window_get_page (run->window), "status"));
      run->poll_id = 0;
      g_application_quit (application);
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static gboolean
give_up_cb (gpointer data)
{
  GApplication *application = data;
  AppRun *run = g_object_get_data (G_OBJECT (application), "run");

  run->give_up_id = 0;
  g_application_quit (application);

  return G_SOURCE_REMOVE;
}

/* `smprof-viewer PATH`: the application opens its arguments in a window. */
static void
test_application_open (void)
{
  g_autoptr(GFile) job = real_job ("pt-cprofile");
  g_autofree char *path = g_file_get_path (job);
  g_autoptr(SmvApplication) application = NULL;
  char *argv[] = { (char *) "smprof-viewer", path, NULL };
  AppRun run = { 0 };
  int status;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  application = smv_application_new (G_APPLICATION_NON_UNIQUE);
  g_object_set_data (G_OBJECT (application), "run", &run);
  g_signal_connect (application, "window-added", G_CALLBACK (window_added_cb), &run);
  run.poll_id = g_timeout_add (50, poll_app_cb, application);
  run.give_up_id = g_timeout_add_seconds (60, give_up_cb, application);

  status = g_application_run (G_APPLICATION (application), 2, argv);

  g_clear_handle_id (&run.poll_id, g_source_remove);
  g_clear_handle_id (&run.give_up_id, g_source_remove);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (run.opened);
  g_assert_nonnull (smv_application_get_registry (application));
  g_test_message ("application status line: %s", run.status);
  g_assert_true (g_str_has_prefix (run.status, "82 intervals · "));
  g_free (run.status);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  g_test_add_func ("/viewer/plugin/registry", test_registry);
  g_test_add_func ("/viewer/plugin/open-real-job", test_open_real_job);
  g_test_add_func ("/viewer/plugin/cancel", test_cancel);
  g_test_add_func ("/viewer/plugin/problems-banner", test_problems_banner);
  g_test_add_func ("/viewer/plugin/problems-path-elided", test_problems_path_elided);
  g_test_add_func ("/viewer/plugin/real-jobs", test_real_jobs);
  g_test_add_func ("/viewer/plugin/drop-folder", test_drop_folder);
  g_test_add_func ("/viewer/plugin/application-open", test_application_open);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
