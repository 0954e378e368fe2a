/* test-job-page-presets.c: the job page's Between modes preset and its
 * choice of several nodes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page on real jobs under Xvfb, compared with the core's smprof_select()
 * and with `smprof stats` ($SMPROF_CLI) on the same question:
 * tf-cprofile (TRAIN and EVAL intervals) for the mode pairs, and a job of
 * four nodes (pt-cprofile's two and tf-cprofile's two, copied into one
 * folder) for two nodes chosen in the "Choose nodes…" popover.
 */

#include <string.h>

#include <json-glib/json-glib.h>

#include "smprof-cprofile-profile.h"
#include "smprof-job-page-private.h"
#include "core-test-util.h"
#include "page-test-util.h"
#include "ui-test-util.h"

static gboolean
wait_idle (SmprofJobPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  /* One turn first: a change queues its update on an idle. */
  g_main_context_iteration (NULL, FALSE);
  while (smprof_job_page_get_busy (page) || smprof_job_page_get_profile (page) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return TRUE;
}

/* `smprof stats JOB ARGS... --json`: total_calls, total_time. */
static void
cli_totals (const char * const *args,
            gint64             *total_calls,
            double             *total_time)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  int status;

  g_assert_nonnull (smprof);
  g_strv_builder_add (builder, smprof);
  g_strv_builder_add (builder, "stats");
  g_strv_builder_addv (builder, (const char **) args);
  g_strv_builder_add (builder, "--json");
  argv = g_strv_builder_end (builder);

  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  *total_calls = json_object_get_int_member (root, "total_calls");
  *total_time = json_object_get_double_member (root, "total_time");
}

/* The page's profile has the command line's totals for @args. */
static void
check_cli_totals (SmprofJobPage      *page,
                  const char * const *args)
{
  SmprofCprofileProfile *shown = smprof_profile_get_cprofile (smprof_job_page_get_profile (page));
  gint64 calls;
  double total;

  cli_totals (args, &calls, &total);
  g_assert_cmpint (calls, >, 0);
  g_assert_cmpint (calls, ==, smprof_cprofile_profile_get_total_calls (shown));
  g_assert_cmpfloat_with_epsilon (total, smprof_cprofile_profile_get_total_tt (shown), 1e-9 * total);
  g_test_message ("smprof stats %s: %" G_GINT64_FORMAT " calls, %.6f s: equal",
                  args[1] != NULL ? args[1] : "", calls, total);
}

static guint
mode_position (SmprofJobPage *page,
               const char    *name)
{
  GListModel *model = gtk_drop_down_get_model (page->start_mode_dropdown);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), name) == 0)
      return i;

  g_error ("no mode %s in the drop-down", name);
}

/* The page selects what the core selects between @start and @end, outlines
 * it on the timeline, says it, and sums what `smprof stats` sums. */
static void
check_mode_pair (SmprofJobPage *page,
                 const char    *job_path,
                 SmprofMode     start,
                 SmprofMode     end)
{
  SmprofJob *job = smprof_job_page_get_job (page);
  SmprofSelection pair = { .kind = SMPROF_SELECT_BETWEEN_MODES, .start_mode = start, .end_mode = end };
  g_autoptr(GPtrArray) expected = NULL;
  g_autofree char *start_name = g_ascii_strup (smprof_mode_to_string (start), -1);
  g_autofree char *end_name = g_ascii_strup (smprof_mode_to_string (end), -1);
  g_autofree char *description = NULL;
  g_autofree char *wanted = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *nodes = NULL;
  GPtrArray *selected;

  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_BETWEEN_MODES);
  g_assert_true (gtk_widget_get_state_flags (GTK_WIDGET (page->mode_pair_row)) & GTK_STATE_FLAG_SELECTED);
  g_assert_false (gtk_widget_get_state_flags (GTK_WIDGET (page->whole_job_row)) & GTK_STATE_FLAG_SELECTED);

  expected = smprof_select (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE),
                            smprof_job_page_get_node_ids (page), &pair);
  g_assert_cmpuint (expected->len, >, 0);
  selected = smprof_job_page_get_selected_records (page);
  g_assert_true (page_test_same_records (selected, expected));
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_job_page_get_profile (page)), expected));
  for (guint i = 0; i < selected->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (selected, i);

      g_assert_cmpint (record->name.start_mode, ==, start);
      g_assert_cmpint (record->name.end_mode, ==, end);
    }

  /* Mirrored on the timeline: exactly those intervals outlined. */
  g_assert_true (page_test_same_records (smprof_timeline_get_selected_records (smprof_job_page_get_timeline (page)),
                               expected));

  /* In words: the export subtitle, and the status line. */
  description = smprof_job_page_dup_selection_description (page);
  wanted = g_strdup_printf ("between modes %s and %s", start_name, end_name);
  g_assert_cmpstr (description, ==, wanted);
  prefix = g_strdup_printf ("%u interval", expected->len);
  g_assert_true (g_str_has_prefix (gtk_label_get_label (page->status_label), prefix));

  /* `--node all`, or the chosen nodes */
  nodes = smprof_session_get_chosen_node_ids (page->session) != NULL
          ? g_strjoinv (",", (char **) smprof_session_get_chosen_node_ids (page->session)) : g_strdup ("all");
  check_cli_totals (page, (const char *[]) { job_path, "--between-modes", start_name, end_name,
                                             "--node", nodes, NULL });
  g_test_message ("between modes %s and %s, nodes %s: %u intervals", start_name, end_name, nodes, expected->len);
}

static void
test_between_modes (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "tf-cprofile", NULL);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  gboolean present[SMPROF_N_MODES + 1] = { FALSE, };
  static const SmprofMode pairable[] = { SMPROF_MODE_TRAIN, SMPROF_MODE_EVAL, SMPROF_MODE_PREDICT, SMPROF_MODE_GLOBAL };
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) listed = NULL;
  g_auto(GStrv) wanted = NULL;
  SmprofJobPage *page;
  GtkWidget *window;
  GListModel *model;
  GdkTexture *texture;
  g_autofree char *name = NULL;

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1280, 800);
  g_assert_true (wait_idle (page));

  /* The drop-downs list the modes the job's intervals have, no other. */
  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      present[record->name.start_mode] = present[record->name.end_mode] = TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (pairable); i++)
    if (present[pairable[i]])
      {
        g_autofree char *upper = g_ascii_strup (smprof_mode_to_string (pairable[i]), -1);

        g_strv_builder_add (builder, upper);
      }
  wanted = g_strv_builder_end (builder);
  g_assert_cmpuint (g_strv_length (wanted), >=, 2);

  model = gtk_drop_down_get_model (page->end_mode_dropdown);
  listed = g_new0 (char *, g_list_model_get_n_items (model) + 1);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    listed[i] = g_strdup (gtk_string_list_get_string (GTK_STRING_LIST (model), i));
  g_assert_true (g_strv_equal ((const char * const *) listed, (const char * const *) wanted));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (page->mode_pair_row)));

  /* TRAIN to EVAL, chosen in the drop-downs. */
  gtk_drop_down_set_selected (page->start_mode_dropdown, mode_position (page, "TRAIN"));
  g_assert_true (wait_idle (page));
  gtk_drop_down_set_selected (page->end_mode_dropdown, mode_position (page, "EVAL"));
  g_assert_true (wait_idle (page));
  check_mode_pair (page, path, SMPROF_MODE_TRAIN, SMPROF_MODE_EVAL);

  name = smprof_job_page_dup_export_name (page, SMPROF_EXPORT_SVG);
  g_assert_nonnull (strstr (name, "modes-TRAIN-EVAL"));

  /* For a look at the sidebar and the outlined intervals (working folder). */
  ui_test_settle ();
  texture = ui_test_render (GTK_WIDGET (page));
  ui_test_save_local (texture, "job-page-between-modes.png");
  g_clear_object (&texture);

  /* Another preset, then Alt+8 comes back to the same pair. */
  page_test_press_shortcut (GTK_WIDGET (page), "<Alt>1");
  g_assert_true (wait_idle (page));
  g_assert_cmpint (smprof_job_page_get_preset (page), ==, SMPROF_PRESET_WHOLE_JOB);
  page_test_press_shortcut (GTK_WIDGET (page), "<Alt>8");
  g_assert_true (wait_idle (page));
  check_mode_pair (page, path, SMPROF_MODE_TRAIN, SMPROF_MODE_EVAL);

  /* EVAL to EVAL and EVAL to TRAIN, from the API; the drop-downs follow. */
  smprof_job_page_set_mode_pair (page, SMPROF_MODE_EVAL, SMPROF_MODE_EVAL);
  g_assert_true (wait_idle (page));
  check_mode_pair (page, path, SMPROF_MODE_EVAL, SMPROF_MODE_EVAL);
  smprof_job_page_set_mode_pair (page, SMPROF_MODE_EVAL, SMPROF_MODE_TRAIN);
  g_assert_true (wait_idle (page));
  check_mode_pair (page, path, SMPROF_MODE_EVAL, SMPROF_MODE_TRAIN);
  g_assert_cmpuint (gtk_drop_down_get_selected (page->start_mode_dropdown), ==, mode_position (page, "EVAL"));
  g_assert_cmpuint (gtk_drop_down_get_selected (page->end_mode_dropdown), ==, mode_position (page, "TRAIN"));

  /* On one node: the pair on that node only. */
  smprof_job_page_set_node_ids (page, (const char *[]) { "25644-algo-1", NULL });
  g_assert_true (wait_idle (page));
  check_mode_pair (page, path, SMPROF_MODE_EVAL, SMPROF_MODE_TRAIN);
  for (guint i = 0; i < smprof_job_page_get_selected_records (page)->len; i++)
    g_assert_cmpstr (((SmprofRecord *) g_ptr_array_index (smprof_job_page_get_selected_records (page), i))->node_id,
                     ==, "25644-algo-1");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* pt-cprofile's nodes and tf-cprofile's, in one job of four nodes. */
static char *
make_four_node_job (char **tmp)
{
  g_autofree char *pt = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autofree char *tf_nodes = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "tf-cprofile",
                                                      "framework", "tensorflow", "cprofile", NULL);
  g_autofree char *job = NULL;
  g_autofree char *cprofile_dir = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *node;

  *tmp = g_dir_make_tmp ("smprof-nodes-XXXXXX", NULL);
  g_assert_nonnull (*tmp);
  job = g_build_filename (*tmp, "job", NULL);
  page_test_run ((const char *[]) { "cp", "-R", pt, job, NULL });
  cprofile_dir = g_build_filename (job, "framework", "pytorch", "cprofile", NULL);

  dir = g_dir_open (tf_nodes, 0, NULL);
  g_assert_nonnull (dir);
  while ((node = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *from = g_build_filename (tf_nodes, node, NULL);
      g_autofree char *to = g_build_filename (cprofile_dir, node, NULL);

      page_test_run ((const char *[]) { "cp", "-R", from, to, NULL });
    }

  return g_steal_pointer (&job);
}

static void
test_several_nodes (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *path = make_four_node_job (&tmp);
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  g_auto(GStrv) all = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) expected = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *status_part = NULL;
  g_autofree char *node_arg = NULL;
  const char *chosen[3];
  SmprofSelection whole = { .kind = SMPROF_SELECT_ALL };
  SmprofNodeChooser *chooser;
  SmprofJobPage *page;
  GtkWidget *window;
  GPtrArray *selected;
  guint n_all_records;

  g_assert_cmpuint (g_strv_length (all), ==, 4);
  /* Two nodes, one of each original job, not next to each other. */
  chosen[0] = all[0];
  chosen[1] = all[2];
  chosen[2] = NULL;

  page = SMPROF_JOB_PAGE (smprof_job_page_new (job));
  window = ui_test_present (GTK_WIDGET (page), 1280, 800);
  g_assert_true (wait_idle (page));
  n_all_records = smprof_job_page_get_selected_records (page)->len;
  chooser = page->node_chooser;
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (page->node_chooser)));

  /* The popover opens with every node checked. */
  page_test_press_shortcut (GTK_WIDGET (page), "<Alt>1");
  gtk_menu_button_popup (GTK_MENU_BUTTON (gtk_widget_get_first_child (GTK_WIDGET (chooser))));
  for (guint i = 0; all[i] != NULL; i++)
    g_assert_true (gtk_check_button_get_active (smprof_node_chooser_get_check_button (chooser, all[i])));

  /* Uncheck the two others, as a click would. */
  for (guint i = 0; all[i] != NULL; i++)
    if (!g_strv_contains (chosen, all[i]))
      g_assert_true (gtk_widget_activate (GTK_WIDGET (smprof_node_chooser_get_check_button (chooser, all[i]))));
  g_assert_true (wait_idle (page));

  g_assert_true (g_strv_equal (smprof_job_page_get_node_ids (page), chosen));
  expected = smprof_select (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), chosen, &whole);
  selected = smprof_job_page_get_selected_records (page);
  g_assert_cmpuint (expected->len, >, 0);
  g_assert_cmpuint (expected->len, <, n_all_records);
  g_assert_true (page_test_same_records (selected, expected));
  for (guint i = 0; i < selected->len; i++)
    g_assert_true (g_strv_contains (chosen, ((SmprofRecord *) g_ptr_array_index (selected, i))->node_id));

  /* The timeline shows those two rows; the drop-down shows neither one nor all. */
  g_assert_true (g_strv_equal (smprof_timeline_get_visible_nodes (smprof_job_page_get_timeline (page)), chosen));
  g_assert_cmpuint (gtk_drop_down_get_selected (page->node_dropdown), ==, GTK_INVALID_LIST_POSITION);

  /* The status line names them. */
  joined = g_strjoinv (", ", (char **) chosen);
  status_part = g_strdup_printf ("2 nodes (%s)", joined);
  g_assert_nonnull (strstr (gtk_label_get_label (page->status_label), status_part));

  node_arg = g_strjoinv (",", (char **) chosen);
  check_cli_totals (page, (const char *[]) { path, "--node", node_arg, "--all", NULL });

  /* The last checked ones: one of them unchecked leaves one, which cannot go. */
  g_assert_true (gtk_widget_activate (GTK_WIDGET (smprof_node_chooser_get_check_button (chooser, chosen[1]))));
  g_assert_true (wait_idle (page));
  g_assert_true (g_strv_equal (smprof_job_page_get_node_ids (page), (const char *[]) { chosen[0], NULL }));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (smprof_node_chooser_get_check_button (chooser, chosen[0]))));
  /* One node: the drop-down shows it. */
  g_assert_cmpuint (gtk_drop_down_get_selected (page->node_dropdown), ==, 1);

  /* The drop-down's All nodes checks every node again. */
  gtk_drop_down_set_selected (page->node_dropdown, 0);
  g_assert_true (wait_idle (page));
  for (guint i = 0; all[i] != NULL; i++)
    g_assert_true (gtk_check_button_get_active (smprof_node_chooser_get_check_button (chooser, all[i])));
  g_assert_cmpuint (smprof_job_page_get_selected_records (page)->len, ==, n_all_records);

  gtk_window_destroy (GTK_WINDOW (window));
  page_test_run ((const char *[]) { "rm", "-rf", tmp, NULL });
}

int
main (int   argc,
      char *argv[])
{
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-page/presets/between-modes", test_between_modes);
  g_test_add_func ("/job-page/presets/several-nodes", test_several_nodes);

  return g_test_run ();
}
