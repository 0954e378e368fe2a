/* test-job-page-export.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The job page's Export menu in a real viewer window: every format offered,
 * the save dialog (its suggested name and picture choices), the SVG parsed
 * and its subtitle, a PNG, the pictures following the flame graph's zoom, a
 * Pyinstrument selection's pstats file read back, and Export > Report.
 *
 * The viewer opens a job of tests/data/real-smdebug through the SageMaker
 * data source, as it does with the plugin module; here the plugin's source
 * and page are linked into the test (and registered on the viewer's
 * extension point by hand), as in test-job-page.c.
 */

#include <string.h>

#include <glib/gstdio.h>
#include <smprof-viewer-api.h>

#include "smprof-job-page-private.h"
#include "smprof-pstats.h"
#include "smprof-sagemaker-source.h"
#include "smprof-ui-settings.h"
#include "smv-source-registry.h"
#include "smv-window.h"
#include "ui-test-util.h"
#include "viewer-test-utils.h"
#include "window-test-util.h"

#define WIDTH  1280
#define HEIGHT 900

#ifdef __SANITIZE_ADDRESS__
const char *__asan_default_options (void);

/* The Export save dialog (GTK's file chooser) reaches libcloudproviders,
 * which leaks a path at exit; LeakSanitizer's fast unwinder stops in GLib and
 * cannot tell, so .ci/lsan.supp's entry for it would not match. Full stacks
 * here (ASAN_OPTIONS still wins). */
const char *
__asan_default_options (void)
{
  return "fast_unwind_on_malloc=0";
}
#endif

static SmvSourceRegistry *registry;

/* ------------------------------------------------------------------------ */
/* Opening the job                                                          */

static SmvWindow *
open_job (const char     *name,
          SmprofJobPage **page)
{
  g_autofree char *path = window_test_real_job (name);

  return window_test_open_job (registry, path, WIDTH, HEIGHT, page);
}

/* ------------------------------------------------------------------------ */
/* Export                                                                   */

static gboolean
probe_sensitive (SmprofJobPage *page,
                 const char    *action)
{
  GtkBox *slot = smprof_job_page_get_slot (page, "functions");
  GtkWidget *probe = gtk_button_new ();
  gboolean sensitive;

  gtk_actionable_set_action_name (GTK_ACTIONABLE (probe), action);
  gtk_box_append (slot, probe);
  sensitive = gtk_widget_get_sensitive (probe);
  gtk_box_remove (slot, probe);

  return sensitive;
}

/* The drop-down a file chooser shows for the choice labelled @label (the
 * label, then the drop-down, side by side). */
static GtkDropDown *
find_choice_drop_down (GtkWidget  *widget,
                       const char *label)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), label) == 0 &&
      GTK_IS_DROP_DOWN (gtk_widget_get_next_sibling (widget)))
    return GTK_DROP_DOWN (gtk_widget_get_next_sibling (widget));

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkDropDown *found = find_choice_drop_down (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

#define EXPORTED_TOAST "Exported “selection.svg”"

/* A label saying @text among @widget and its descendants. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The page's note went to its host: a toast in the window's toast overlay
 * (or an error in the page's bar). */
static gboolean
toast_shown (gpointer data)
{
  SmprofJobPage *page = data;
  SmvWindow *window = SMV_WINDOW (gtk_widget_get_root (GTK_WIDGET (page)));
  GtkWidget *toast = find_label (GTK_WIDGET (smv_window_get_toast_overlay (window)), EXPORTED_TOAST);

  return (toast != NULL && gtk_widget_get_mapped (toast)) || gtk_info_bar_get_revealed (page->error_bar);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;

  smprof_job_page_export_finish (SMPROF_JOB_PAGE (object), result, error);
  g_object_set_data (object, "test-export-done", GINT_TO_POINTER (1));
}

static gboolean
export_done (gpointer data)
{
  return g_object_get_data (data, "test-export-done") != NULL;
}

typedef struct
{
  gboolean in_svg;
  gboolean has_subtitle;
  guint    n_rects;
  double   width;
  char    *text;
} SvgCheck;

static void
svg_start (GMarkupParseContext  *context,
           const char           *element,
           const char          **names,
           const char          **values,
           gpointer              user_data,
           GError              **error)
{
  SvgCheck *check = user_data;

  if (g_str_equal (element, "svg"))
    {
      check->in_svg = TRUE;
      for (guint i = 0; names[i] != NULL; i++)
        if (g_str_equal (names[i], "width"))
          check->width = g_ascii_strtod (values[i], NULL);
    }
  if (g_str_equal (element, "rect"))
    check->n_rects++;
}

static void
svg_text (GMarkupParseContext  *context,
          const char           *text,
          gsize                 length,
          gpointer              user_data,
          GError              **error)
{
  SvgCheck *check = user_data;
  g_autofree char *chunk = g_strndup (text, length);
  char *joined = g_strconcat (check->text != NULL ? check->text : "", chunk, NULL);

  g_free (check->text);
  check->text = joined;
}

/* Exports the page's selection as an SVG through its API, and parses it. */
static void
export_svg_checked (SmprofJobPage        *page,
                    GFile                *file,
                    const GMarkupParser  *parser,
                    SvgCheck             *check)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  smprof_job_page_export_async (page, SMPROF_EXPORT_SVG, file, NULL, export_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  g_assert_true (g_file_load_contents (file, NULL, &contents, &length, NULL, &error));
  g_assert_no_error (error);
  context = g_markup_parse_context_new (parser, 0, check, NULL);
  g_assert_true (g_markup_parse_context_parse (context, contents, length, &error));
  g_assert_no_error (error);
  g_assert_true (check->in_svg);
}

/* The actions a menu model's items (and its sections' items) name. */
static void
collect_menu_actions (GMenuModel *model,
                      GPtrArray  *actions)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *action = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autoptr(GMenuModel) submenu = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU);

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
        g_ptr_array_add (actions, g_steal_pointer (&action));
      if (section != NULL)
        collect_menu_actions (section, actions);
      if (submenu != NULL)
        collect_menu_actions (submenu, actions);
    }
}

static void
test_export (void)
{
  static const GMarkupParser svg_parser = { svg_start, NULL, svg_text, NULL, NULL };
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *dialog;
  g_autofree char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "job-page-export", NULL);
  g_autofree char *svg_path = g_build_filename (dir, "selection.svg", NULL);
  g_autofree char *png_path = g_build_filename (dir, "selection.png", NULL);
  g_autofree char *suggested = NULL;
  g_autofree char *description = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GFile) png_file = g_file_new_for_path (png_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GdkTexture) png = NULL;
  g_autofree char *n_intervals = NULL;
  SvgCheck check = { 0 };
  gsize length;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_mkdir_with_parents (dir, 0755);
  g_remove (svg_path);
  g_remove (png_path);

  window = open_job ("pt-cprofile", &page);

  /* Steps 3-5 of one node. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 1);
  smprof_job_page_set_step_range (page, 3, 5);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  description = smprof_job_page_dup_selection_description (page);
  g_test_message ("selection: %s", description);
  g_assert_cmpstr (description, ==, "train steps 3 (stepstart) – 5 (stepend)");

  /* Every format is in the Export menu and can be written from a cProfile
   * selection. */
  {
    GtkWidget *button = viewer_test_find (GTK_WIDGET (page), "export-button");
    g_autoptr(GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);

    g_assert_true (GTK_IS_MENU_BUTTON (button));
    collect_menu_actions (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), actions);
    for (guint format = 0; format < SMPROF_EXPORT_N_FORMATS; format++)
      {
        g_autofree char *action = g_strconcat ("job-page.export-", smprof_export_format_to_string (format), NULL);

        g_assert_true (g_ptr_array_find_with_equal_func (actions, action, g_str_equal, NULL));
        g_assert_true (probe_sensitive (page, action));
      }
  }

  /* The Export menu's SVG item: the save dialog suggests a name from the
   * job, the selection and the node; accept it in the build folder. */
  suggested = smprof_job_page_dup_export_name (page, SMPROF_EXPORT_SVG);
  g_assert_cmpstr (suggested, ==, "pt-cprofile-steps-3-5-0-algo-1.svg");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-svg", NULL));
  g_assert_true (viewer_test_wait (window_test_has_file_chooser, NULL, 10000));
  dialog = window_test_find_file_chooser ();
  {
    g_autofree char *name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));

    g_assert_cmpstr (name, ==, suggested);
  }
  {
    g_autoptr(GFile) start = smprof_ui_settings_dup_export_folder ();

    window_test_chooser_save_as (dialog, g_file_peek_path (start), dir, "selection.svg");
  }
  /* A picture's direction and width are choices in the dialog itself, which
   * opens on the defaults; pick an icicle 800 px wide in its drop-downs. */
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export->export_dialog), "direction"), ==, "flame");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export->export_dialog), "width"), ==, "1200");
  {
    GtkDropDown *direction = find_choice_drop_down (dialog, "Draw as");
    GtkDropDown *width = find_choice_drop_down (dialog, "Width");
    GListModel *labels;

    g_assert_nonnull (direction);
    g_assert_nonnull (width);
    labels = gtk_drop_down_get_model (width);
    g_assert_cmpuint (g_list_model_get_n_items (labels), ==, 4);
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (labels), 0), ==, "1200 px wide");
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (labels), 1), ==, "800 px wide");
    gtk_drop_down_set_selected (direction, 1);
    gtk_drop_down_set_selected (width, 1);
  }
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export->export_dialog), "direction"), ==, "icicle");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export->export_dialog), "width"), ==, "800");
  /* Accepted, as the portal's or the dialog's Export button answers
   * (GtkFileChooserDialog's own accept path re-reads its entry on its own). */
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->export_dialog));
  g_signal_emit_by_name (page->export->export_dialog, "response", GTK_RESPONSE_ACCEPT);
  g_assert_null (page->export->export_dialog);
  g_assert_true (viewer_test_wait (toast_shown, page, 30000));
  g_assert_false (gtk_info_bar_get_revealed (page->error_bar));
  g_assert_nonnull (find_label (GTK_WIDGET (smv_window_get_toast_overlay (SMV_WINDOW (gtk_widget_get_root (GTK_WIDGET (page))))),
                                EXPORTED_TOAST));

  /* A valid SVG whose subtitle names the job, the node and the selection. */
  g_assert_true (g_file_get_contents (svg_path, &contents, &length, &error));
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&svg_parser, 0, &check, NULL);
  g_assert_true (g_markup_parse_context_parse (context, contents, length, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_true (check.in_svg);
  g_assert_cmpuint (check.n_rects, >, 10);
  g_assert_cmpfloat (check.width, ==, 800);
  g_assert_nonnull (strstr (check.text, "Icicle graph"));

  /* The next picture's dialog opens on the last choices; others have none. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-png", NULL));
  g_assert_true (viewer_test_wait (window_test_has_file_chooser, NULL, 10000));
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export->export_dialog), "direction"), ==, "icicle");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (page->export->export_dialog), "width"), ==, "800");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-csv", NULL));
  g_assert_true (viewer_test_wait (window_test_has_file_chooser, NULL, 10000));
  g_assert_null (find_choice_drop_down (window_test_find_file_chooser (), "Width"));
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->export_dialog));
  g_signal_emit_by_name (page->export->export_dialog, "response", GTK_RESPONSE_CANCEL);
  g_assert_null (page->export->export_dialog);
  g_assert_nonnull (strstr (check.text, "pt-cprofile"));
  g_assert_nonnull (strstr (check.text, "0-algo-1"));
  g_assert_nonnull (strstr (check.text, "train steps 3 (stepstart) – 5 (stepend)"));
  n_intervals = g_strdup_printf ("%u intervals", smprof_job_page_get_selected_records (page)->len);
  g_assert_nonnull (strstr (check.text, n_intervals));
  g_free (check.text);

  /* A PNG through the page's export API: the default width, not blank. */
  smprof_job_page_export_async (page, SMPROF_EXPORT_PNG, png_file, NULL, export_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  png = gdk_texture_new_from_filename (png_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (png), ==, 1200);
  g_assert_cmpint (gdk_texture_get_height (png), >, 100);
  g_assert_cmpuint (ui_test_count_colors (png), >, 10);

  /* The pictures follow the flame graph's zoom: zoomed to the first root
   * frame's first child, the SVG holds fewer frames. */
  {
    SmprofFlameGraph *flame_graph = smprof_flame_graph_view_get_flame_graph (page->flame_graph_view);
    SmprofCallTree *tree = smprof_profile_get_call_tree (smprof_job_page_get_profile (page));
    guint32 root = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->first_child;
    guint32 child = smprof_call_tree_get_node (tree, root)->first_child;
    g_autofree char *zoomed_path = g_build_filename (dir, "zoomed.svg", NULL);
    g_autoptr(GFile) zoomed_file = g_file_new_for_path (zoomed_path);
    SvgCheck whole_check = { 0 };
    SvgCheck zoomed_check = { 0 };

    g_assert_cmpuint (child, !=, SMPROF_CALL_TREE_NONE);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.show-view", "s", "flame-graph"));
    g_assert_true (smprof_flame_graph_get_profile (flame_graph) == smprof_job_page_get_profile (page));
    export_svg_checked (page, zoomed_file, &svg_parser, &whole_check);
    smprof_flame_graph_zoom_to_node (flame_graph, child);
    g_assert_cmpuint (smprof_flame_graph_get_zoom_node (flame_graph), ==, child);
    export_svg_checked (page, zoomed_file, &svg_parser, &zoomed_check);
    g_assert_cmpuint (zoomed_check.n_rects, >, 0);
    g_assert_cmpuint (zoomed_check.n_rects, <, whole_check.n_rects);
    /* the page's API draws with the defaults, whatever the dialog chose last */
    g_assert_cmpfloat (whole_check.width, ==, 1200);
    g_assert_null (strstr (whole_check.text, "Icicle graph"));
    g_free (whole_check.text);
    g_free (zoomed_check.text);
    smprof_flame_graph_reset_zoom (flame_graph);
  }

  window_test_close (window);

  /* Pyinstrument: every format too; its pstats file holds a row per row of
   * the Functions table, with the same cumulative times. */
  window = open_job ("pt-pyinstrument", &page);
  for (guint format = 0; format < SMPROF_EXPORT_N_FORMATS; format++)
    {
      g_autofree char *action = g_strconcat ("job-page.export-", smprof_export_format_to_string (format), NULL);

      g_assert_true (probe_sensitive (page, action));
    }
  {
    g_autofree char *prof_path = g_build_filename (dir, "sampled.prof", NULL);
    g_autoptr(GFile) prof_file = g_file_new_for_path (prof_path);
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
    g_autoptr(SmprofPstats) stats = NULL;
    g_autoptr(SmprofProfile) profile = g_object_ref (smprof_job_page_get_profile (page));

    smprof_job_page_export_async (page, SMPROF_EXPORT_PSTATS, prof_file, NULL, export_done_cb, &error);
    g_assert_true (viewer_test_wait (export_done, page, 30000));
    g_assert_no_error (error);
    bytes = g_file_load_bytes (prof_file, NULL, NULL, &error);
    g_assert_no_error (error);
    stats = smprof_pstats_parse (bytes, table, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (stats->n_funcs, ==, smprof_profile_get_n_functions (profile));
    g_assert_cmpuint (stats->n_funcs, >, 10);
    for (guint i = 0; i < stats->n_funcs; i++)
      {
        const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);

        g_assert_cmpstr (smprof_function_keys_get_name (table, stats->funcs[i].func), ==,
                         smprof_function_keys_get_name (smprof_call_tree_get_table (smprof_profile_get_call_tree (profile)),
                                                        row->func));
        g_assert_cmpfloat_with_epsilon (stats->funcs[i].ct, row->cumtime, 1e-9);
        g_assert_cmpint (stats->funcs[i].nc, >=, stats->funcs[i].cc);
        g_assert_cmpint (stats->funcs[i].cc, >=, 1);
      }
  }
  window_test_close (window);
}

static void
report_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;

  smprof_job_page_export_report_finish (SMPROF_JOB_PAGE (object), result, error);
  g_object_set_data (object, "test-export-done", GINT_TO_POINTER (1));
}

static void
write_report (SmprofJobPage *page,
              const char    *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  smprof_job_page_export_report_async (page, file, NULL, report_done_cb, &error);
  g_assert_true (viewer_test_wait (export_done, page, 60000));
  g_assert_no_error (error);
}

static char *
read_file (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);

  return contents;
}

/* Export > Report: a dialog suggesting a page named from the selection;
 * the report of the selection shown, as a folder whose function table is the
 * page's CSV export and whose summary names the job, node and selection, and
 * as one HTML page with the flame graph inline. */
static void
test_export_report (void)
{
  SmprofJobPage *page;
  SmvWindow *window;
  GtkWidget *dialog;
  g_autofree char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "job-page-report", NULL);
  g_autofree char *folder = g_build_filename (dir, "report", NULL);
  g_autofree char *html_path = g_build_filename (dir, "report.html", NULL);
  g_autofree char *csv_path = g_build_filename (dir, "functions.csv", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *description = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *functions = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *steps = NULL;
  g_autofree char *html = NULL;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_mkdir_with_parents (dir, 0755);
  window = open_job ("pt-cprofile", &page);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (viewer_test_find (GTK_WIDGET (page), "node-selector")), 1);
  smprof_job_page_set_step_range (page, 3, 5);
  g_assert_true (viewer_test_wait (window_test_page_ready, page, 30000));
  description = smprof_job_page_dup_selection_description (page);

  g_assert_true (probe_sensitive (page, "job-page.export-report"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "job-page.export-report", NULL));
  g_assert_true (viewer_test_wait (window_test_has_file_chooser, NULL, 10000));
  dialog = window_test_find_file_chooser ();
  {
    g_autofree char *name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));

    g_assert_cmpstr (name, ==, "pt-cprofile-steps-3-5-0-algo-1-report.html");
  }
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (page->export->report_dialog));
  g_signal_emit_by_name (page->export->report_dialog, "response", GTK_RESPONSE_CANCEL);
  g_assert_null (page->export->report_dialog);

  /* A folder. */
  write_report (page, folder);
  summary = read_file (folder, "README.md");
  g_assert_nonnull (strstr (summary, "pt-cprofile"));
  g_assert_nonnull (strstr (summary, "0-algo-1"));
  g_assert_nonnull (strstr (summary, description));
  g_assert_null (strstr (summary, "1-algo-2"));
  smprof_job_page_export_async (page, SMPROF_EXPORT_CSV, csv_file, NULL, export_done_cb, &error);
  g_object_set_data (G_OBJECT (page), "test-export-done", NULL);
  g_assert_true (viewer_test_wait (export_done, page, 30000));
  g_assert_no_error (error);
  functions = read_file (folder, "functions.csv");
  csv = read_file (dir, "functions.csv");
  g_assert_cmpstr (functions, ==, csv);
  /* one row per step of the selection: train steps 3, 4 and 5 of the node */
  steps = read_file (folder, "steps.csv");
  {
    g_auto(GStrv) lines = g_strsplit (steps, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 5);   /* header, 3 steps, "" */
    g_assert_true (g_str_has_prefix (lines[1], "0-algo-1,train,3,"));
    g_assert_true (g_str_has_prefix (lines[2], "0-algo-1,train,4,"));
    g_assert_true (g_str_has_prefix (lines[3], "0-algo-1,train,5,"));
    g_assert_cmpstr (lines[4], ==, "");
  }
  {
    g_autofree char *svg = read_file (folder, "flame-graph.svg");

    g_assert_nonnull (strstr (svg, "<svg"));
  }

  /* One page. */
  write_report (page, html_path);
  html = read_file (dir, "report.html");
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
  g_assert_nonnull (strstr (html, "<svg"));
  g_assert_nonnull (strstr (html, "0-algo-1"));

  window_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viewer_test_init (&argc, &argv);

  registry = window_test_registry_new ();

  g_test_add_func ("/job-page/export", test_export);
  g_test_add_func ("/job-page/export-report", test_export_report);

  status = g_test_run ();
  g_clear_object (&registry);

  return status;
}
