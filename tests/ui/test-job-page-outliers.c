/* test-job-page-outliers.c: the job's outlier steps, marked on the timeline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job page under Xvfb on tests/data/corpus-outliers-cprofile, a
 * make-corpus job whose manifest names the steps made slow on purpose: the
 * page's whole-job step statistics flag them, the timeline draws a red mark
 * over each (read back from the pixels), the Outliers toggle hides the marks,
 * a marked interval's tooltip names its step and the rule, and a click on a
 * mark, F8 or its popover's button opens the comparison of the node's
 * median step (A) with the outlier step (B). Also: the statistics follow a
 * live refresh and a profiler switch (a job made of both corpora), and the
 * marks' red stands apart from the mode colours in both styles. Screenshot:
 * timeline-outliers.png.
 */

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "core-test-util.h"
#include "page-test-util.h"
#include "smprof-job-page-private.h"
#include "smprof-timeline-outliers.h"
#include "smprof-timeline-private.h"
#include "ui-test-util.h"

#define WIDTH  1400
#define HEIGHT 900

typedef struct
{
  char   *node_id;
  gint64  step;
} Planted;

typedef struct
{
  SmprofJob     *job;
  GtkWidget     *window;
  SmprofJobPage *page;
  GArray        *planted;      /* Planted */
  guint          n_changed;    /* the session's job-step-stats changes */
  GArray        *activated;    /* guint, the timeline's outlier-activated steps */
} Fixture;

static void
planted_clear (gpointer data)
{
  g_free (((Planted *) data)->node_id);
}

static char *
corpus_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-cprofile", NULL);
}

/* The manifest's planted slow steps, one entry per node and step. */
static GArray *
read_planted (void)
{
  g_autofree char *dir = corpus_path ();
  g_autofree char *path = g_build_filename (dir, "corpus-manifest.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GArray *planted = g_array_new (FALSE, TRUE, sizeof (Planted));
  JsonArray *list;

  g_array_set_clear_func (planted, planted_clear);
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  list = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "planted_outliers");

  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *outlier = json_array_get_object_element (list, i);
      JsonArray *nodes = json_object_get_array_member (outlier, "nodes");

      /* A straggler stands out against the other nodes (the node matrix),
       * not necessarily against its node's other steps (the timeline). */
      if (g_strcmp0 (json_object_get_string_member (outlier, "type"), "straggler") == 0)
        continue;
      for (guint k = 0; k < json_array_get_length (nodes); k++)
        {
          Planted entry = {
            .node_id = g_strdup (json_array_get_string_element (nodes, k)),
            .step = json_object_get_int_member (outlier, "step"),
          };

          g_array_append_val (planted, entry);
        }
    }
  g_assert_cmpuint (planted->len, >=, 2);

  return planted;
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
  return smprof_session_get_job_step_stats (fixture->page->session) != NULL &&
         smprof_step_stats_get_job (smprof_session_get_job_step_stats (fixture->page->session)) ==
         smprof_job_page_get_job (fixture->page);
}

static gboolean
page_idle (Fixture *fixture)
{
  return !smprof_job_page_get_busy (fixture->page) && smprof_job_page_get_profile (fixture->page) != NULL;
}

static void
stats_changed_cb (SmprofSession *session,
                  GParamSpec    *pspec,
                  Fixture       *fixture)
{
  fixture->n_changed++;
}

static void
outlier_activated_cb (SmprofTimeline *timeline,
                      guint           step,
                      Fixture        *fixture)
{
  g_array_append_val (fixture->activated, step);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = corpus_path ();

  fixture->planted = read_planted ();
  fixture->activated = g_array_new (FALSE, FALSE, sizeof (guint));
  fixture->job = core_test_load_job_at (path);
  fixture->page = SMPROF_JOB_PAGE (smprof_job_page_new (fixture->job));
  g_signal_connect (fixture->page->session, "notify::job-step-stats", G_CALLBACK (stats_changed_cb), fixture);
  g_signal_connect (smprof_job_page_get_timeline (fixture->page), "outlier-activated",
                    G_CALLBACK (outlier_activated_cb), fixture);
  fixture->window = ui_test_present (GTK_WIDGET (fixture->page), WIDTH, HEIGHT);

  g_assert_true (wait_for (has_stats, fixture));
  g_assert_true (wait_for (page_idle, fixture));
  ui_test_settle ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->job);
  g_clear_pointer (&fixture->planted, g_array_unref);
  g_clear_pointer (&fixture->activated, g_array_unref);
}

/* The stats index of a planted node and step, which must be there. */
static guint
find_step (SmprofStepStats *stats,
           const Planted   *planted)
{
  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);

      if (step->step == planted->step && g_strcmp0 (step->node_id, planted->node_id) == 0)
        return i;
    }

  g_error ("no step %" G_GINT64_FORMAT " on %s", planted->step, planted->node_id);
}

/* The timeline's outlier showing stats step @index. */
static guint
find_outlier (SmprofTimeline *timeline,
              guint           index)
{
  for (guint o = 0; o < smprof_timeline_get_n_outliers (timeline); o++)
    if (smprof_timeline_get_outlier_step (timeline, o) == index)
      return o;

  g_error ("step %u is not marked", index);
}

static guint
count_outliers (SmprofStepStats *stats)
{
  guint n = 0;

  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
    n += smprof_step_stats_get_step (stats, i)->outlier;

  return n;
}

/* The page's whole-job statistics: every node, the planted steps flagged,
 * hardly any other; the toolbar counts them. */
static void
test_stats (Fixture       *fixture,
            gconstpointer  data)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  g_auto(GStrv) node_ids = smprof_job_dup_node_ids (fixture->job, SMPROF_PROFILER_CPROFILE);
  g_autofree char *count = NULL;
  guint n;

  g_assert_cmpuint (fixture->n_changed, ==, 1);
  g_assert_true (g_strv_equal (smprof_step_stats_get_node_ids (stats), (const char * const *) node_ids));
  g_assert_cmpint (smprof_step_stats_get_profiler (stats), ==, SMPROF_PROFILER_CPROFILE);

  for (guint p = 0; p < fixture->planted->len; p++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, find_step (stats, &g_array_index (fixture->planted, Planted, p)));

      g_assert_true (step->outlier);
      g_assert_cmpfloat (step->score, >, SMPROF_STEP_OUTLIER_THRESHOLD);
    }

  n = count_outliers (stats);
  g_assert_cmpuint (n, >=, fixture->planted->len);
  g_assert_cmpuint (n, <=, fixture->planted->len + 3);
  g_assert_cmpuint (smprof_timeline_get_n_outliers (smprof_job_page_get_timeline (fixture->page)), ==, n);

  count = g_strdup_printf ("%u outlier steps", n);
  g_assert_nonnull (strstr (gtk_label_get_label (fixture->page->outliers_label), count));
  g_assert_nonnull (strstr (gtk_label_get_label (fixture->page->outliers_label), "rule"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (fixture->page->outliers_label)), ==,
                   smprof_step_outlier_rule_description ());
}

/* The marks' red, give or take the faint grid lines drawn over it. */
static gboolean
is_mark_color (guint32  pixel,
               gboolean dark)
{
  GdkRGBA color;
  double rgb[3];

  _smprof_timeline_get_outlier_color (dark, &color);
  rgb[0] = color.red;
  rgb[1] = color.green;
  rgb[2] = color.blue;

  return ui_test_pixel_near (pixel, ui_test_rgb_to_pixel (rgb), 12);
}

/* Whether (@x, @y) shows the marks' red: two of it and its two neighbours
 * in the row, so a block's edge next to it does not hide it. */
static gboolean
shows_mark (GdkTexture *texture,
            int         x,
            int         y,
            gboolean    dark)
{
  guint n = 0;

  for (int dx = -1; dx <= 1; dx++)
    n += is_mark_color (ui_test_pixel (texture, x + dx, y), dark);

  return n >= 2;
}

/* The widest block of step @index, widget coordinates. */
static void
widest_block (SmprofTimeline  *timeline,
              SmprofStepStats *stats,
              guint            index,
              graphene_rect_t *widest)
{
  GPtrArray *records = smprof_step_stats_get_step_records (stats, index);

  *widest = GRAPHENE_RECT_INIT (0, 0, -1, 0);
  for (guint r = 0; r < records->len; r++)
    {
      const SmprofTimelineItem *item = smprof_timeline_layout_lookup_record (timeline->layout, g_ptr_array_index (records, r));
      graphene_rect_t rect;

      g_assert_nonnull (item);
      g_assert_true (_smprof_timeline_get_block_rect (timeline, item, &rect));
      if (rect.size.width > widest->size.width)
        *widest = rect;
    }
  g_assert_cmpfloat (widest->size.width, >=, 0);
}

/* Scrolls the timeline's rows so the node of step @index shows. */
static void
reveal_step (SmprofTimeline  *timeline,
             SmprofStepStats *stats,
             guint            index)
{
  const SmprofTimelineItem *item;
  int row;

  item = smprof_timeline_layout_lookup_record (timeline->layout,
                                               g_ptr_array_index (smprof_step_stats_get_step_records (stats, index), 0));
  g_assert_nonnull (item);
  row = _smprof_timeline_row_of_node (timeline, item->node);
  g_assert_cmpint (row, >=, 0);
  _smprof_timeline_set_vscroll (timeline, _smprof_timeline_get_row (timeline, row)->y);
}

/* Each planted step has a red badge above its intervals and a red edge on
 * its widest block, its median step none; Outliers off hides both. */
static void
test_marks (Fixture       *fixture,
            gconstpointer  data)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  SmprofTimeline *timeline = smprof_job_page_get_timeline (fixture->page);
  graphene_rect_t badge = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  for (guint p = 0; p < fixture->planted->len; p++)
    {
      guint index = find_step (stats, &g_array_index (fixture->planted, Planted, p));
      guint outlier = find_outlier (timeline, index);
      guint median = smprof_step_stats_get_step (stats, index)->median_step;
      g_autoptr(GdkTexture) texture = NULL;
      g_autoptr(GdkTexture) hidden = NULL;
      graphene_rect_t block, median_block;
      int x, y;

      reveal_step (timeline, stats, index);
      texture = ui_test_render (GTK_WIDGET (timeline));
      if (p == 0)
        ui_test_save (texture, "timeline-outliers.png");

      g_assert_true (_smprof_timeline_get_outlier_mark_rect (timeline, outlier, &badge));
      widest_block (timeline, stats, index, &block);
      widest_block (timeline, stats, median, &median_block);
      g_assert_cmpfloat (block.origin.y + block.size.height, <=,
                         SMPROF_TIMELINE_RULER_HEIGHT + _smprof_timeline_rows_height (timeline));

      /* The badge sits over its step */
      g_assert_cmpfloat (badge.origin.y, <, block.origin.y);
      x = badge.origin.x + badge.size.width / 2;
      y = badge.origin.y + 2;
      if (!shows_mark (texture, x, y, timeline->dark))
        g_error ("planted %u: badge pixel %08x at %d,%d", p, ui_test_pixel (texture, x, y), x, y);

      /* the red edge inside the block, at its bottom; none on the median step */
      g_assert_cmpfloat (block.size.width, >=, 6);
      x = block.origin.x + 3;
      y = block.origin.y + block.size.height - 1;
      if (!shows_mark (texture, x, y, timeline->dark))
        g_error ("planted %u: edge pixel %08x at %d,%d", p, ui_test_pixel (texture, x, y), x, y);
      g_assert_false (shows_mark (texture, median_block.origin.x + 3,
                                  median_block.origin.y + median_block.size.height - 1, timeline->dark));

      gtk_toggle_button_set_active (fixture->page->outliers_button, FALSE);
      g_assert_false (smprof_timeline_get_show_outliers (timeline));
      hidden = ui_test_render (GTK_WIDGET (timeline));
      g_assert_false (_smprof_timeline_get_outlier_mark_rect (timeline, outlier, &median_block));
      g_assert_false (shows_mark (hidden, badge.origin.x + badge.size.width / 2, badge.origin.y + 2, timeline->dark));
      g_assert_false (shows_mark (hidden, x, y, timeline->dark));

      gtk_toggle_button_set_active (fixture->page->outliers_button, TRUE);
      g_assert_true (smprof_timeline_get_show_outliers (timeline));
    }

  /* Hidden marks take no click: the badge's place selects as usual */
  gtk_toggle_button_set_active (fixture->page->outliers_button, FALSE);
  _smprof_timeline_drag_begin (timeline, badge.origin.x + badge.size.width / 2, badge.origin.y + 2, FALSE);
  _smprof_timeline_drag_end (timeline, badge.origin.x + badge.size.width / 2, badge.origin.y + 2);
  g_assert_cmpuint (fixture->activated->len, ==, 0);
  gtk_toggle_button_set_active (fixture->page->outliers_button, TRUE);
}

/* Pango's text of some markup */
static char *
markup_text (const char *markup)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (pango_parse_markup (markup, -1, 0, NULL, &text, NULL, &error));
  g_assert_no_error (error);

  return text;
}

/* A marked interval's tooltip names its step, node, times and the rule. */
static void
test_tooltip (Fixture       *fixture,
              gconstpointer  data)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  SmprofTimeline *timeline = smprof_job_page_get_timeline (fixture->page);
  const Planted *planted = &g_array_index (fixture->planted, Planted, 0);
  guint index = find_step (stats, planted);
  const SmprofStep *step = smprof_step_stats_get_step (stats, index);
  GPtrArray *records = smprof_step_stats_get_step_records (stats, index);
  g_autofree char *expected = NULL;
  guint other;

  expected = g_strdup_printf ("Step %" G_GINT64_FORMAT " (%s) on node %s: %.3f s, median %.3f s, robust score %.1f — outlier",
                              planted->step, smprof_timeline_get_mode_label (step->mode), planted->node_id,
                              step->total_time, step->median_time, step->score);

  for (guint r = 0; r < records->len; r++)
    {
      const SmprofTimelineItem *item = smprof_timeline_layout_lookup_record (timeline->layout, g_ptr_array_index (records, r));
      g_autofree char *markup = _smprof_timeline_dup_outlier_tooltip_markup (timeline, item);
      g_autofree char *text = NULL;

      g_assert_nonnull (markup);
      text = markup_text (markup);
      g_assert_nonnull (strstr (text, expected));
      g_assert_nonnull (strstr (text, smprof_step_outlier_rule_description ()));
      /* then the interval's own tooltip */
      g_assert_nonnull (strstr (text, ((SmprofRecord *) g_ptr_array_index (records, r))->interval));
    }

  /* The median step is no outlier: its tooltip is the usual one */
  other = step->median_step;
  records = smprof_step_stats_get_step_records (stats, other);
  g_assert_null (_smprof_timeline_dup_outlier_tooltip_markup (timeline,
                                                              smprof_timeline_layout_lookup_record (timeline->layout,
                                                                                                    g_ptr_array_index (records, 0))));

  /* Hidden marks: no outlier tooltip */
  smprof_timeline_set_show_outliers (timeline, FALSE);
  records = smprof_step_stats_get_step_records (stats, index);
  g_assert_null (_smprof_timeline_dup_outlier_tooltip_markup (timeline,
                                                              smprof_timeline_layout_lookup_record (timeline->layout,
                                                                                                    g_ptr_array_index (records, 0))));
  smprof_timeline_set_show_outliers (timeline, TRUE);
}

static gboolean
has_diff (Fixture *fixture)
{
  return smprof_session_get_diff (fixture->page->session) != NULL && page_idle (fixture);
}

/* The comparison of step @index's median step (A) with it (B). */
static void
check_comparison (Fixture *fixture,
                  guint    index)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  const SmprofStep *step = smprof_step_stats_get_step (stats, index);
  SmprofDiff *diff;
  g_autofree char *step_number = g_strdup_printf (" step %" G_GINT64_FORMAT " on %s", step->step, step->node_id);

  g_assert_true (wait_for (has_diff, fixture));
  diff = smprof_session_get_diff (fixture->page->session);

  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_A)),
                                         smprof_step_stats_get_step_records (stats, step->median_step)));
  g_assert_true (page_test_same_records (smprof_profile_get_records (smprof_diff_get_profile (diff, SMPROF_DIFF_B)),
                                         smprof_step_stats_get_step_records (stats, index)));
  g_assert_true (page_test_same_records (smprof_job_page_get_selected_records (fixture->page),
                                         smprof_step_stats_get_step_records (stats, index)));
  g_assert_true (g_str_has_prefix (smprof_session_get_compare_label (fixture->page->session, SMPROF_DIFF_A), "Median step"));
  g_assert_nonnull (strstr (smprof_session_get_compare_label (fixture->page->session, SMPROF_DIFF_B), step_number));
  g_assert_cmpfloat (smprof_diff_get_total_time (diff, SMPROF_DIFF_B), >, smprof_diff_get_total_time (diff, SMPROF_DIFF_A));
}

/* A click on a planted step's mark opens the comparison with its median step. */
static void
test_click (Fixture       *fixture,
            gconstpointer  data)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);
  SmprofTimeline *timeline = smprof_job_page_get_timeline (fixture->page);
  const Planted *planted = &g_array_index (fixture->planted, Planted, fixture->planted->len - 1);
  guint index = find_step (stats, planted);
  graphene_rect_t badge = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  double x, y;

  g_assert_true (_smprof_timeline_get_outlier_mark_rect (timeline, find_outlier (timeline, index), &badge));
  x = badge.origin.x + badge.size.width / 2;
  y = badge.origin.y + 3;

  _smprof_timeline_drag_begin (timeline, x, y, FALSE);
  _smprof_timeline_drag_end (timeline, x, y);
  g_assert_cmpuint (fixture->activated->len, ==, 1);
  g_assert_cmpuint (g_array_index (fixture->activated, guint, 0), ==, index);

  check_comparison (fixture, index);
}

/* F8 and Shift+F8 go through the outliers in order, each opening its comparison. */
static void
test_next_outlier (Fixture       *fixture,
                   gconstpointer  data)
{
  SmprofTimeline *timeline = smprof_job_page_get_timeline (fixture->page);
  guint n = smprof_timeline_get_n_outliers (timeline);

  g_assert_cmpuint (n, >=, 2);

  page_test_press_shortcut (GTK_WIDGET (fixture->page), "F8");
  g_assert_cmpuint (fixture->activated->len, ==, 1);
  g_assert_cmpuint (g_array_index (fixture->activated, guint, 0), ==, smprof_timeline_get_outlier_step (timeline, 0));
  check_comparison (fixture, smprof_timeline_get_outlier_step (timeline, 0));

  page_test_press_shortcut (GTK_WIDGET (fixture->page), "F8");
  g_assert_cmpuint (g_array_index (fixture->activated, guint, 1), ==, smprof_timeline_get_outlier_step (timeline, 1));
  /* the focus went to the step's first interval */
  g_assert_true (timeline->focus_item->record ==
                 g_ptr_array_index (smprof_step_stats_get_step_records (smprof_session_get_job_step_stats (fixture->page->session),
                                                                        smprof_timeline_get_outlier_step (timeline, 1)), 0));
  check_comparison (fixture, smprof_timeline_get_outlier_step (timeline, 1));

  page_test_press_shortcut (GTK_WIDGET (fixture->page), "<Shift>F8");
  g_assert_cmpuint (g_array_index (fixture->activated, guint, 2), ==, smprof_timeline_get_outlier_step (timeline, 0));

  /* The secondary click's popover: "Compare with Median Step" does the same.
   * The leftmost mark, so the popover fits on Xvfb's screen. */
  {
    graphene_rect_t badge, other;
    GtkWidget *popover, *button;
    guint leftmost = 0;

    for (guint o = 0; o < n; o++)
      if (_smprof_timeline_get_outlier_mark_rect (timeline, o, &other) &&
          (!_smprof_timeline_get_outlier_mark_rect (timeline, leftmost, &badge) || other.origin.x < badge.origin.x))
        leftmost = o;
    g_assert_true (_smprof_timeline_get_outlier_mark_rect (timeline, leftmost, &badge));

    /* not on an unmarked spot */
    g_assert_false (_smprof_timeline_outliers_popup (timeline, 1, SMPROF_TIMELINE_RULER_HEIGHT / 2));
    g_assert_true (_smprof_timeline_outliers_popup (timeline, badge.origin.x + badge.size.width / 2, badge.origin.y + 2));
    popover = gtk_widget_get_first_child (GTK_WIDGET (timeline));
    g_assert_true (GTK_IS_POPOVER (popover));
    ui_test_settle ();
    g_assert_true (gtk_widget_get_visible (popover));
    button = gtk_popover_get_child (GTK_POPOVER (popover));
    g_assert_true (GTK_IS_BUTTON (button));
    g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Compare with Median Step");
    g_signal_emit_by_name (button, "clicked");
    g_assert_cmpuint (fixture->activated->len, ==, 4);
    g_assert_cmpuint (g_array_index (fixture->activated, guint, 3), ==, smprof_timeline_get_outlier_step (timeline, leftmost));
    check_comparison (fixture, smprof_timeline_get_outlier_step (timeline, leftmost));
  }
}

/* A live refresh swaps the job: the statistics follow, marks on the new one. */
static void
test_refresh (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path = corpus_path ();
  g_autoptr(SmprofJob) job = core_test_load_job_at (path);
  SmprofTimeline *timeline = smprof_job_page_get_timeline (fixture->page);
  graphene_rect_t badge = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  gint64 start = g_get_monotonic_time ();

  smprof_session_swap_job (fixture->page->session, job);
  g_assert_true (wait_for (has_stats, fixture));
  /* the stats files read again (a new job), on the worker */
  g_test_message ("step statistics of %u steps computed again in %.0f ms",
                  smprof_step_stats_get_n_steps (smprof_session_get_job_step_stats (fixture->page->session)),
                  (g_get_monotonic_time () - start) / 1000.0);
  g_assert_cmpuint (fixture->n_changed, ==, 2);
  g_assert_true (smprof_step_stats_get_job (smprof_session_get_job_step_stats (fixture->page->session)) == job);
  g_assert_cmpuint (count_outliers (smprof_session_get_job_step_stats (fixture->page->session)), ==,
                    smprof_timeline_get_n_outliers (timeline));
  g_assert_true (_smprof_timeline_get_outlier_mark_rect (timeline, 0, &badge));
  g_assert_true (wait_for (page_idle, fixture));
}

static gboolean
stats_of_pyinstrument (Fixture *fixture)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (fixture->page->session);

  return stats != NULL && smprof_step_stats_get_profiler (stats) == SMPROF_PROFILER_PYINSTRUMENT;
}

/* Switching profiler drops the statistics at once, then computes the other
 * profiler's: a job holding both corpora's trees (the same nodes and steps,
 * cProfile from one, Pyinstrument from the other). */
static void
test_profiler (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("smprof-outliers-XXXXXX", NULL);
  g_autofree char *job_dir = g_build_filename (tmp, "job", NULL);
  g_autofree char *cprofile = corpus_path ();
  g_autofree char *pyinstrument = g_test_build_filename (G_TEST_DIST, "data", "corpus-outliers-pyinstrument",
                                                         "framework", "pytorch", "pyinstrument", NULL);
  g_autofree char *to = NULL;
  Fixture fixture = { 0 };
  SmprofTimeline *timeline;
  graphene_rect_t badge = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  g_assert_nonnull (tmp);
  page_test_run ((const char *[]) { "cp", "-R", cprofile, job_dir, NULL });
  to = g_build_filename (job_dir, "framework", "pytorch", NULL);
  page_test_run ((const char *[]) { "cp", "-R", pyinstrument, to, NULL });

  fixture.activated = g_array_new (FALSE, FALSE, sizeof (guint));
  fixture.job = core_test_load_job_at (job_dir);
  g_assert_true (smprof_job_has_profiler (fixture.job, SMPROF_PROFILER_CPROFILE));
  g_assert_true (smprof_job_has_profiler (fixture.job, SMPROF_PROFILER_PYINSTRUMENT));
  fixture.page = SMPROF_JOB_PAGE (smprof_job_page_new (fixture.job));
  g_signal_connect (fixture.page->session, "notify::job-step-stats", G_CALLBACK (stats_changed_cb), &fixture);
  fixture.window = ui_test_present (GTK_WIDGET (fixture.page), WIDTH, HEIGHT);
  timeline = smprof_job_page_get_timeline (fixture.page);

  g_assert_true (wait_for (has_stats, &fixture));
  g_assert_cmpint (smprof_step_stats_get_profiler (smprof_session_get_job_step_stats (fixture.page->session)), ==,
                   SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (fixture.n_changed, ==, 1);

  /* A comparison open on cProfile's steps ends with the switch. */
  g_assert_true (smprof_session_compare_outlier (fixture.page->session, smprof_timeline_get_outlier_step (timeline, 0)));
  g_assert_true (wait_for (has_diff, &fixture));
  g_assert_cmpuint (_smprof_timeline_get_n_compare_items (timeline), >, 0);

  smprof_job_page_set_profiler (fixture.page, SMPROF_PROFILER_PYINSTRUMENT);
  g_assert_null (smprof_session_get_diff (fixture.page->session));
  g_assert_false (gtk_stack_page_get_visible (gtk_stack_get_page (fixture.page->views_stack,
                                                                  _smprof_job_page_get_compare_view (fixture.page))));
  g_assert_cmpuint (_smprof_timeline_get_n_compare_items (timeline), ==, 0);
  g_assert_null (smprof_session_get_job_step_stats (fixture.page->session));
  g_assert_cmpuint (fixture.n_changed, ==, 2);
  g_assert_cmpuint (smprof_timeline_get_n_outliers (timeline), ==, 0);

  g_assert_true (wait_for (stats_of_pyinstrument, &fixture));
  g_assert_cmpuint (fixture.n_changed, ==, 3);
  g_assert_cmpuint (smprof_timeline_get_n_outliers (timeline), ==,
                    count_outliers (smprof_session_get_job_step_stats (fixture.page->session)));
  g_assert_cmpuint (smprof_timeline_get_n_outliers (timeline), >, 0);
  ui_test_settle ();
  g_assert_true (_smprof_timeline_get_outlier_mark_rect (timeline, 0, &badge));
  g_assert_true (wait_for (page_idle, &fixture));

  gtk_window_destroy (GTK_WINDOW (fixture.window));
  g_clear_object (&fixture.job);
  g_clear_pointer (&fixture.activated, g_array_unref);
  page_test_run ((const char *[]) { "rm", "-rf", tmp, NULL });
}

static double
relative_luminance (const GdkRGBA *c)
{
  const double rgb[3] = { c->red, c->green, c->blue };
  double linear[3];

  for (guint i = 0; i < 3; i++)
    linear[i] = rgb[i] <= 0.03928 ? rgb[i] / 12.92 : pow ((rgb[i] + 0.055) / 1.055, 2.4);

  return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
}

/* The marks' red stands apart from every mode's colour, and from the
 * background, in the light and the dark style. */
static void
test_colors (void)
{
  for (int dark = 0; dark <= 1; dark++)
    {
      GdkRGBA red, background;
      double l1, l2;

      _smprof_timeline_get_outlier_color (dark, &red);
      for (SmprofMode mode = SMPROF_MODE_TRAIN; mode <= SMPROF_MODE_POST_HOOK_CLOSE; mode++)
        {
          GdkRGBA block;
          double distance;

          smprof_timeline_get_mode_color (mode, dark, &block);
          distance = sqrt ((red.red - block.red) * (red.red - block.red) +
                           (red.green - block.green) * (red.green - block.green) +
                           (red.blue - block.blue) * (red.blue - block.blue));
          if (distance < 0.33)
            g_error ("%s style: the mark is too close to %s (%.2f)", dark ? "dark" : "light",
                     smprof_timeline_get_mode_label (mode), distance);
        }

      /* the view's background: white, or Adwaita dark's #1e1e1e; WCAG's 3:1 for graphics */
      background = dark ? (GdkRGBA) { 0x1e / 255.0, 0x1e / 255.0, 0x1e / 255.0, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
      l1 = relative_luminance (&red);
      l2 = relative_luminance (&background);
      g_assert_cmpfloat ((MAX (l1, l2) + 0.05) / (MIN (l1, l2) + 0.05), >=, 3);
    }
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-page-outliers/colors", test_colors);
  g_test_add_func ("/job-page-outliers/profiler", test_profiler);
#define ADD(path, func) g_test_add ("/job-page-outliers/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("stats", test_stats);
  ADD ("marks", test_marks);
  ADD ("tooltip", test_tooltip);
  ADD ("click", test_click);
  ADD ("next-outlier", test_next_outlier);
  ADD ("refresh", test_refresh);
#undef ADD

  return g_test_run ();
}
