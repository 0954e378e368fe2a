/* test-outlier-list.c: the job page's ranked outlier steps and their threshold
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job page under Xvfb on tests/data/corpus-outliers-cprofile (a
 * make-corpus job with planted slow steps and a straggler). The toolbar's
 * Ranking popover lists the flagged steps ranked by score: its rows are, row
 * for row, what `smprof outliers JOB --json` gives (node, mode, step, score),
 * at the default threshold and at others set in its spin button, where the
 * timeline's marks are the steps `smprof steps --threshold T --json` flags
 * and the toolbar's label names the threshold. A row activated by the
 * keyboard (Alt+K, Down, Return, through X) opens the comparison of that
 * step with its node's median step and scrolls the timeline to its mark.
 * Screenshot: outliers-list.png.
 */

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "core-test-util.h"
#include "page-test-util.h"
#include "smprof-job-page-private.h"
#include "smprof-outlier-item.h"
#include "smprof-timeline-outliers.h"
#include "smprof-timeline-private.h"
#include "ui-test-util.h"

#define WIDTH  1400
#define HEIGHT 900

typedef struct
{
  SmprofJob     *job;
  GtkWidget     *window;
  SmprofJobPage *page;
} Fixture;

static char *
corpus_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);
}

static gboolean
wait_for (gboolean (*done) (Fixture *), Fixture *fixture)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (!done (fixture))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  return TRUE;
}

static gboolean
has_stats (Fixture *fixture)
{
  return smprof_session_get_job_step_stats (fixture->page->session) != NULL;
}

static gboolean
page_idle (Fixture *fixture)
{
  return !smprof_job_page_get_busy (fixture->page) && smprof_job_page_get_profile (fixture->page) != NULL;
}

static gboolean
has_diff (Fixture *fixture)
{
  return smprof_session_get_diff (fixture->page->session) != NULL && page_idle (fixture);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = corpus_path ();

  fixture->job = core_test_load_job_at (path);
  fixture->page = SMPROF_JOB_PAGE (smprof_job_page_new (fixture->job));
  fixture->window = ui_test_present (GTK_WIDGET (fixture->page), WIDTH, HEIGHT);

  g_assert_true (wait_for (has_stats, fixture));
  g_assert_true (wait_for (page_idle, fixture));
  ui_test_settle ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  /* The threshold is a setting (in memory here): the next test starts from the default. */
  smprof_session_set_outlier_threshold (fixture->page->session, SMPROF_STEP_OUTLIER_THRESHOLD);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->job);
}

/* `smprof COMMAND JOB [--threshold T] --json`, parsed. */
static JsonObject *
run_cli (const char *command,
         double      threshold)
{
  g_autofree char *job = corpus_path ();
  g_autofree char *out = NULL;
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status = 0;
  const char *argv[] = { g_getenv ("SMPROF_CLI"), command, job, "--threshold",
                         g_ascii_dtostr (text, sizeof text, threshold), "--json", NULL };

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The popover's rows are the CLI's outliers, in its order; scores fall. */
static void
check_rows (Fixture *fixture,
            double   threshold)
{
  g_autoptr(JsonObject) cli = run_cli ("outliers", threshold);
  JsonArray *expected = json_object_get_array_member (cli, "outliers");
  GListModel *rows = smprof_outlier_list_get_model (fixture->page->outlier_list);

  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cli, "threshold"), threshold, 1e-9);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, json_array_get_length (expected));
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 0);

  for (guint r = 0; r < g_list_model_get_n_items (rows); r++)
    {
      g_autoptr(SmprofOutlierItem) item = g_list_model_get_item (rows, r);
      JsonObject *want = json_array_get_object_element (expected, r);

      g_assert_cmpstr (smprof_outlier_item_get_node_id (item), ==, json_object_get_string_member (want, "node_id"));
      g_assert_cmpstr (smprof_mode_to_string (smprof_outlier_item_get_mode (item)), ==,
                       json_object_get_string_member (want, "mode"));
      g_assert_cmpint (smprof_outlier_item_get_step (item), ==, json_object_get_int_member (want, "step"));
      g_assert_cmpfloat_with_epsilon (smprof_outlier_item_get_score (item),
                                      json_object_get_double_member (want, "score"), 1e-6);
      if (r > 0)
        {
          g_autoptr(SmprofOutlierItem) above = g_list_model_get_item (rows, r - 1);

          g_assert_cmpfloat (smprof_outlier_item_get_score (above), >=, smprof_outlier_item_get_score (item));
        }
    }
}

/* The timeline marks the steps `smprof steps` flags as outliers at @threshold. */
static void
check_marks (Fixture *fixture,
             double   threshold)
{
  g_autoptr(JsonObject) cli = run_cli ("steps", threshold);
  JsonArray *steps = json_object_get_array_member (cli, "steps");
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  SmprofTimeline *timeline = smprof_job_page_get_timeline (fixture->page);
  g_autofree char *count = NULL;
  g_autofree char *rule = NULL;
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *want = json_array_get_object_element (steps, i);
      gboolean marked = FALSE;

      if (!json_object_get_boolean_member (want, "outlier"))
        continue;
      n++;
      for (guint o = 0; o < smprof_timeline_get_n_outliers (timeline); o++)
        {
          const SmprofStep *step = smprof_step_stats_get_step (stats, smprof_timeline_get_outlier_step (timeline, o));

          marked |= g_strcmp0 (step->node_id, json_object_get_string_member (want, "node_id")) == 0 &&
                    step->step == json_object_get_int_member (want, "step") &&
                    g_strcmp0 (smprof_mode_to_string (step->mode), json_object_get_string_member (want, "mode")) == 0;
        }
      if (!marked)
        g_error ("step %" G_GINT64_FORMAT " on %s is not marked at %.1f",
                 json_object_get_int_member (want, "step"), json_object_get_string_member (want, "node_id"), threshold);
    }
  g_assert_cmpuint (smprof_timeline_get_n_outliers (timeline), ==, n);

  count = n == 1 ? g_strdup ("1 outlier step") : g_strdup_printf ("%u outlier steps", n);
  rule = g_strdup_printf ("(rule: z > %.1f)", threshold);
  g_assert_true (g_str_has_prefix (gtk_label_get_label (fixture->page->outliers_label), n > 0 ? count : "No outlier steps"));
  g_assert_nonnull (strstr (gtk_label_get_label (fixture->page->outliers_label), rule));
}

/* Whether a mapped label under @widget reads @text. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;

  return FALSE;
}

static void
open_popover (Fixture *fixture)
{
  gtk_menu_button_popup (fixture->page->outliers_ranking_button);
  ui_test_settle ();
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->page->outliers_popover)));
}

/* The window with the popover drawn where it is on screen. */
static void
save_screenshot (Fixture *fixture)
{
  g_autoptr(GdkTexture) window = ui_test_render (fixture->window);
  g_autoptr(GdkTexture) popover = ui_test_render (GTK_WIDGET (fixture->page->outliers_popover));
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (fixture->page->outliers_popover));
  int width = gdk_texture_get_width (window), height = gdk_texture_get_height (window);
  g_autofree guchar *pixels = g_malloc (width * height * 4);
  g_autofree guchar *over = g_malloc (gdk_texture_get_width (popover) * gdk_texture_get_height (popover) * 4);
  double dx, dy;
  cairo_surface_t *target, *source;
  cairo_t *cr;
  g_autoptr(GdkTexture) composed = NULL;
  g_autoptr(GBytes) bytes = NULL;

  gdk_texture_download (window, pixels, width * 4);
  gdk_texture_download (popover, over, gdk_texture_get_width (popover) * 4);
  gtk_native_get_surface_transform (GTK_NATIVE (fixture->page->outliers_popover), &dx, &dy);
  target = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height, width * 4);
  source = cairo_image_surface_create_for_data (over, CAIRO_FORMAT_ARGB32, gdk_texture_get_width (popover),
                                                gdk_texture_get_height (popover), gdk_texture_get_width (popover) * 4);
  cr = cairo_create (target);
  cairo_set_source_surface (cr, source, gdk_popup_get_position_x (GDK_POPUP (surface)) + dx,
                            gdk_popup_get_position_y (GDK_POPUP (surface)) + dy);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (source);
  cairo_surface_flush (target);
  cairo_surface_destroy (target);

  bytes = g_bytes_new_take (g_steal_pointer (&pixels), width * height * 4);
  composed = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, width * 4);
  ui_test_save (composed, "outliers-list.png");
}

/* At the default threshold: the CLI's ranking, shown; the label's count. */
static void
test_ranking (Fixture       *fixture,
              gconstpointer  data)
{
  GListModel *rows = smprof_outlier_list_get_model (fixture->page->outlier_list);
  g_autoptr(SmprofOutlierItem) first = NULL;
  g_autoptr(GSettings) settings = g_settings_new ("io.github.smprof.Viewer.Plugin.SageMaker");

  g_assert_cmpfloat (g_settings_get_double (settings, "outlier-threshold"), ==, SMPROF_STEP_OUTLIER_THRESHOLD);
  g_assert_cmpfloat (smprof_outlier_list_get_threshold (fixture->page->outlier_list), ==, SMPROF_STEP_OUTLIER_THRESHOLD);
  check_rows (fixture, SMPROF_STEP_OUTLIER_THRESHOLD);
  check_marks (fixture, SMPROF_STEP_OUTLIER_THRESHOLD);

  open_popover (fixture);
  first = g_list_model_get_item (rows, 0);
  g_assert_true (shows_label (GTK_WIDGET (fixture->page->outliers_popover), smprof_outlier_item_get_node_id (first)));
  {
    g_autofree char *score = g_strdup_printf ("%.2f", smprof_outlier_item_get_score (first));
    g_autofree char *step = g_strdup_printf ("Global step %" G_GINT64_FORMAT, smprof_outlier_item_get_step (first));

    g_assert_true (shows_label (GTK_WIDGET (fixture->page->outliers_popover), score));
    g_assert_true (shows_label (GTK_WIDGET (fixture->page->outliers_popover), step));
  }
  save_screenshot (fixture);
  gtk_popover_popdown (fixture->page->outliers_popover);
}

/* The spin button's threshold: rows, marks, label and setting follow. */
static void
test_threshold (Fixture       *fixture,
                gconstpointer  data)
{
  static const double thresholds[] = { 2.0, 8.0, 3.5 };
  g_autoptr(GSettings) settings = g_settings_new ("io.github.smprof.Viewer.Plugin.SageMaker");
  GtkSpinButton *spin = NULL;
  guint n_default = g_list_model_get_n_items (smprof_outlier_list_get_model (fixture->page->outlier_list));

  open_popover (fixture);
  for (GtkWidget *w = GTK_WIDGET (fixture->page->outlier_list); w != NULL && spin == NULL;)
    {
      /* depth-first for the spin button named outlier-threshold */
      if (GTK_IS_SPIN_BUTTON (w) && g_strcmp0 (gtk_widget_get_name (w), "outlier-threshold") == 0)
        spin = GTK_SPIN_BUTTON (w);
      else if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != NULL && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          if (w != NULL)
            w = gtk_widget_get_next_sibling (w);
        }
    }
  g_assert_nonnull (spin);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (spin)));

  for (guint t = 0; t < G_N_ELEMENTS (thresholds); t++)
    {
      gtk_spin_button_set_value (spin, thresholds[t]);
      ui_test_settle ();
      g_assert_cmpfloat (smprof_session_get_outlier_threshold (fixture->page->session), ==, thresholds[t]);
      g_assert_cmpfloat (g_settings_get_double (settings, "outlier-threshold"), ==, thresholds[t]);
      check_rows (fixture, thresholds[t]);
      check_marks (fixture, thresholds[t]);
    }

  /* a report written from the page flags its steps the same way, and says so */
  {
    g_autofree char *command = smprof_session_dup_command_line (fixture->page->session, "report", "r.html");

    g_assert_nonnull (command);
    g_assert_true (g_str_has_suffix (command, " --threshold 3.5 -o r.html"));
    smprof_session_set_outlier_threshold (fixture->page->session, SMPROF_STEP_OUTLIER_THRESHOLD);
    g_clear_pointer (&command, g_free);
    command = smprof_session_dup_command_line (fixture->page->session, "report", "r.html");
    g_assert_null (strstr (command, "--threshold"));
    g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, SMPROF_STEP_OUTLIER_THRESHOLD);
  }

  /* 2 flags more than the default, 8 fewer: the list did change */
  gtk_spin_button_set_value (spin, 2.0);
  g_assert_cmpuint (g_list_model_get_n_items (smprof_outlier_list_get_model (fixture->page->outlier_list)), >, n_default);
  gtk_spin_button_set_value (spin, 8.0);
  g_assert_cmpuint (g_list_model_get_n_items (smprof_outlier_list_get_model (fixture->page->outlier_list)), <, n_default);
  gtk_popover_popdown (fixture->page->outliers_popover);
}

/* Alt+K opens the ranking with the rows focused; Down, Return opens the
 * second row's comparison and brings its mark into view. */
static void
test_activate (Fixture       *fixture,
               gconstpointer  data)
{
  GListModel *rows = smprof_outlier_list_get_model (fixture->page->outlier_list);
  g_autoptr(SmprofOutlierItem) second = g_list_model_get_item (rows, 1);
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  SmprofTimeline *timeline = smprof_job_page_get_timeline (fixture->page);
  guint index = smprof_outlier_item_get_index (second);
  const SmprofStep *step = smprof_step_stats_get_step (stats, index);
  g_autofree char *named = g_strdup_printf (" step %" G_GINT64_FORMAT " on %s", step->step, step->node_id);

  g_assert_false (smprof_session_get_comparing (fixture->page->session));
  ui_test_x_keys_popover (fixture->window, fixture->page->outliers_popover, "alt+k");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->page->outliers_popover)));
  ui_test_x_keys_popover (fixture->window, fixture->page->outliers_popover, "Down Return");

  g_assert_true (wait_for (has_diff, fixture));
  g_assert_true (smprof_session_get_comparing (fixture->page->session));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->page->outliers_popover)));
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (smprof_session_get_diff (fixture->page->session), SMPROF_DIFF_B)),
                                         smprof_step_stats_get_step_records (stats, index)));
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (smprof_session_get_diff (fixture->page->session), SMPROF_DIFF_A)),
                                         smprof_step_stats_get_step_records (stats, step->median_step)));
  g_assert_nonnull (strstr (smprof_session_get_compare_label (fixture->page->session, SMPROF_DIFF_B), named));

  /* a marked step: the timeline's focus went to its first interval */
  g_assert_true (step->outlier);
  g_assert_nonnull (timeline->focus_item);
  g_assert_true (timeline->focus_item->record == g_ptr_array_index (smprof_step_stats_get_step_records (stats, index), 0));
}

/* Stats given while the list is hidden make no rows until it shows, and
 * the rows shown then are the stats' ranking. */
static void
test_rows_made_when_shown (Fixture       *fixture,
                           gconstpointer  data)
{
  SmprofOutlierList *list = fixture->page->outlier_list;
  g_autoptr(GPtrArray) drawn = g_ptr_array_new ();
  g_autoptr(GPtrArray) drawn_shown = g_ptr_array_new ();
  g_autoptr(SmprofOutlierItem) first = NULL;
  GListModel *rows;

  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (list)));
  smprof_outlier_list_set_stats (list, NULL);
  smprof_outlier_list_set_stats (list, smprof_session_get_job_step_stats (fixture->page->session));
  ui_test_settle ();
  ui_test_collect_rows (GTK_WIDGET (list), drawn);
  g_assert_cmpuint (drawn->len, ==, 0);

  open_popover (fixture);
  rows = smprof_outlier_list_get_model (list);
  first = g_list_model_get_item (rows, 0);
  ui_test_collect_rows (GTK_WIDGET (list), drawn_shown);
  g_test_message ("%u rows made once shown, of %u", drawn_shown->len, g_list_model_get_n_items (rows));
  g_assert_cmpuint (drawn_shown->len, >, 0);
  g_assert_cmpuint (drawn_shown->len, <=, g_list_model_get_n_items (rows));
  g_assert_true (shows_label (GTK_WIDGET (fixture->page->outliers_popover), smprof_outlier_item_get_node_id (first)));
  gtk_popover_popdown (fixture->page->outliers_popover);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/outlier-list/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("ranking", test_ranking);
  ADD ("threshold", test_threshold);
  ADD ("activate", test_activate);
  ADD ("rows-made-when-shown", test_rows_made_when_shown);
#undef ADD

  return g_test_run ();
}
