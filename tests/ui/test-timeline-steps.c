/* test-timeline-steps.c: every step of the job, drawn under each node's intervals
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run under Xvfb (see tests/meson.build). tests/data/real-smdebug/pt-cprofile
 * holds smdebug's framework timeline next to its stats (see
 * tests/data/pevents/README.md). Screenshot: timeline-steps.png.
 */

#include <math.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-job.h"
#include "smprof-timeline-private.h"
#include "smprof-ui-format.h"
#include "ui-test-util.h"

#define WIDTH  1200
#define HEIGHT 190

static SmprofJob *
load_job (gboolean with_steps)
{
  g_autoptr(GError) error = NULL;
  SmprofJob *job = core_test_load_job ("pt-cprofile");

  if (with_steps)
    {
      g_assert_true (smprof_job_load_step_events (job, NULL, &error));
      g_assert_no_error (error);
    }

  return job;
}

static SmprofTimeline *
present_timeline (SmprofJob  *job,
                  GtkWidget **window)
{
  GtkWidget *timeline = smprof_timeline_new ();

  smprof_timeline_set_job (SMPROF_TIMELINE (timeline), job);
  *window = ui_test_present (timeline, WIDTH, HEIGHT);
  g_assert_cmpint (gtk_widget_get_width (timeline), ==, WIDTH);

  return SMPROF_TIMELINE (timeline);
}

static guint32
color_pixel (const GdkRGBA *color)
{
  double rgb[3] = { color->red, color->green, color->blue };

  return ui_test_rgb_to_pixel (rgb);
}

/* How many steps of @node at least 4 px wide show their muted mode colour
 * inside their tick; @n_wide gets how many are that wide. */
static guint
check_steps (SmprofTimeline *self,
             GdkTexture     *texture,
             guint           node,
             guint          *n_wide)
{
  const SmprofTimelineStep *steps;
  SmprofTimelineViewport vp;
  guint n, checked = 0;

  *n_wide = 0;
  _smprof_timeline_get_viewport (self, &vp);
  steps = smprof_timeline_steps_get_node (self->steps, node, &n);

  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t rect;
      GdkRGBA color, block;
      guint32 pixel = 0;
      double x0, x1;
      int x, y;

      g_assert_true (_smprof_timeline_get_step_rect (self, node, &steps[i], &rect));
      x0 = MAX (rect.origin.x, vp.x);
      x1 = MIN (rect.origin.x + rect.size.width, vp.x + vp.width);
      if (x1 - x0 < 4)
        continue;
      (*n_wide)++;

      /* a pixel inside the tick has the colour (the ruler's grid lines
       * cross some ticks) */
      y = (int) (rect.origin.y + rect.size.height / 2);
      _smprof_timeline_get_step_color (steps[i].event->mode, self->dark, &color);
      for (x = (int) floor (x0) + 1; x + 2 <= x1; x++)
        {
          pixel = ui_test_pixel (texture, x, y);
          if (ui_test_pixel_near (pixel, color_pixel (&color), 3))
            break;
        }
      if (!ui_test_pixel_near (pixel, color_pixel (&color), 3))
        {
          g_test_message ("step %" G_GINT64_FORMAT " at (%d, %d): %08x, expected %08x",
                          steps[i].event->step, x, y, pixel, color_pixel (&color));
          continue;
        }

      /* muted: not the block colour of the same mode */
      smprof_timeline_get_mode_color (steps[i].event->mode, self->dark, &block);
      g_assert_false (ui_test_pixel_near (pixel, color_pixel (&block), 20));
      checked++;
    }

  return checked;
}

/* pt-cprofile with its framework timeline: each row grows a strip below its
 * lanes, every step is a tick in its mode's muted colour, the blocks above
 * are where they were. */
static void
test_strip (void)
{
  g_autoptr(SmprofJob) job = load_job (TRUE);
  g_autoptr(SmprofJob) plain_job = load_job (FALSE);
  g_autoptr(GdkTexture) texture = NULL;
  GtkWidget *window, *plain_window;
  SmprofTimeline *self = present_timeline (job, &window);
  SmprofTimeline *plain = present_timeline (plain_job, &plain_window);
  SmprofTimelineLayout *layout = smprof_timeline_get_layout (self);

  g_assert_nonnull (self->steps);
  g_assert_cmpuint (self->rows->len, ==, 2);
  g_assert_cmpuint (plain->rows->len, ==, 2);

  for (guint r = 0; r < self->rows->len; r++)
    {
      const SmprofTimelineRow *row = _smprof_timeline_get_row (self, r);
      const SmprofTimelineRow *plain_row = _smprof_timeline_get_row (plain, r);
      guint n;

      /* without the timeline nothing changes */
      g_assert_cmpfloat (plain_row->steps_y, <, 0);
      g_assert_cmpfloat (plain_row->height, ==, 2 * SMPROF_TIMELINE_ROW_PAD + SMPROF_TIMELINE_LANE_HEIGHT);

      /* with it the strip sits under the lanes, inside the row */
      smprof_timeline_steps_get_node (self->steps, row->node, &n);
      g_assert_cmpuint (n, ==, 20);
      g_assert_cmpfloat (row->steps_y, ==, row->y + plain_row->height);
      g_assert_cmpfloat (row->height, ==, plain_row->height + SMPROF_TIMELINE_STEPS_HEIGHT + SMPROF_TIMELINE_STEPS_PAD);
      g_assert_cmpfloat (row->steps_y + SMPROF_TIMELINE_STEPS_HEIGHT, <=, row->y + row->height);
    }

  /* the training loop fills the width: most steps are then a few pixels wide */
  {
    const SmprofTimelineStep *steps;
    guint n;

    steps = smprof_timeline_steps_get_node (self->steps, 0, &n);
    smprof_timeline_set_visible_range (self, steps[0].start[SMPROF_TIMELINE_AXIS_TIME] - 1e4,
                                       steps[n - 1].end[SMPROF_TIMELINE_AXIS_TIME] + 1e5);
  }

  ui_test_settle ();
  texture = ui_test_render (GTK_WIDGET (self));
  ui_test_save (texture, "timeline-steps.png");

  for (guint node = 0; node < smprof_timeline_layout_get_n_nodes (layout); node++)
    {
      guint n_wide;
      guint matched = check_steps (self, texture, node, &n_wide);

      g_test_message ("node %u: %u of %u wide steps in their colour", node, matched, n_wide);
      g_assert_cmpuint (n_wide, ==, 20);
      g_assert_cmpuint (matched, ==, n_wide);
    }

  /* between two steps: the track, not a step colour */
  {
    const SmprofTimelineStep *steps;
    graphene_rect_t a, b;
    GdkRGBA train;
    guint n;
    int x, y;

    steps = smprof_timeline_steps_get_node (self->steps, 0, &n);
    g_assert_true (_smprof_timeline_get_step_rect (self, 0, &steps[0], &a));
    g_assert_true (_smprof_timeline_get_step_rect (self, 0, &steps[1], &b));
    g_assert_cmpfloat (b.origin.x - (a.origin.x + a.size.width), >, 6);
    x = (int) ((a.origin.x + a.size.width + b.origin.x) / 2);
    y = (int) (a.origin.y + a.size.height / 2);
    _smprof_timeline_get_step_color (SMPROF_MODE_TRAIN, self->dark, &train);
    g_assert_false (ui_test_pixel_near (ui_test_pixel (texture, x, y), color_pixel (&train), 20));
  }

  gtk_window_destroy (GTK_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (plain_window));
}

/* Pointing at the strip finds the step, not the interval above it; its
 * tooltip names the node, the mode, the step and its duration. */
static void
test_hover (void)
{
  g_autoptr(SmprofJob) job = load_job (TRUE);
  GtkWidget *window;
  SmprofTimeline *self = present_timeline (job, &window);
  int node = smprof_timeline_layout_find_node (smprof_timeline_get_layout (self), "0-algo-1");
  const SmprofTimelineStep *steps, *step = NULL;
  graphene_rect_t rect;
  g_autofree char *markup = NULL;
  g_autofree char *duration = NULL;
  guint n, hit_node = G_MAXUINT;

  g_assert_cmpint (node, >=, 0);
  steps = smprof_timeline_steps_get_node (self->steps, node, &n);
  for (guint i = 0; i < n; i++)
    if (steps[i].event->mode == SMPROF_MODE_TRAIN && steps[i].event->step == 3)
      step = &steps[i];
  g_assert_nonnull (step);

  ui_test_settle ();
  g_assert_true (_smprof_timeline_get_step_rect (self, node, step, &rect));
  g_assert_true (_smprof_timeline_step_at (self, rect.origin.x + rect.size.width / 2,
                                           rect.origin.y + 2, &hit_node) == step);
  g_assert_cmpuint (hit_node, ==, (guint) node);
  g_assert_null (_smprof_timeline_item_at (self, rect.origin.x + rect.size.width / 2, rect.origin.y + 2));
  /* above, in the lane, it is the interval again */
  g_assert_null (_smprof_timeline_step_at (self, rect.origin.x + rect.size.width / 2,
                                           rect.origin.y - SMPROF_TIMELINE_LANE_HEIGHT / 2, NULL));

  markup = _smprof_timeline_dup_step_tooltip_markup (step);
  duration = smprof_ui_format_duration ((step->event->end_us - step->event->start_us) / 1e6);
  g_test_message ("%s", markup);
  g_assert_nonnull (strstr (markup, "<b>0-algo-1</b>"));
  g_assert_nonnull (strstr (markup, "Train step 3\n"));
  g_assert_nonnull (strstr (markup, duration));
  g_assert_nonnull (strstr (markup, "Step:ModeKeys.TRAIN"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Aligned by step, the steps follow the intervals' step positions. */
static void
test_by_step (void)
{
  g_autoptr(SmprofJob) job = load_job (TRUE);
  g_autoptr(GdkTexture) texture = NULL;
  GtkWidget *window;
  SmprofTimeline *self = present_timeline (job, &window);

  smprof_timeline_set_align_by_step (self, TRUE);
  ui_test_settle ();
  texture = ui_test_render (GTK_WIDGET (self));
  ui_test_save (texture, "timeline-steps-by-step.png");

  /* The blocks' tiles (items and steps drawn by the column they start in)
   * look exactly as the blocks drawn whole: nothing twice, nothing lost.
   * Replayed as textures (as the window shows them), the same but for
   * antialiased edges, rounded to 8 bits once more: one level at most. */
  {
    g_autoptr(GdkTexture) whole = NULL;
    g_autoptr(GdkTexture) tiles = NULL;

    _smprof_timeline_set_raster_tiles (self, FALSE);
    ui_test_settle ();
    tiles = ui_test_render (GTK_WIDGET (self));
    _smprof_timeline_set_tile_columns (self, 0);
    ui_test_settle ();
    whole = ui_test_render (GTK_WIDGET (self));
    g_assert_true (ui_test_same_pixels (whole, tiles, 0, 0, WIDTH, HEIGHT));
    g_assert_true (ui_test_near_pixels (whole, texture, 0, 0, WIDTH, HEIGHT, 1));
    _smprof_timeline_set_tile_columns (self, 4);
    _smprof_timeline_set_raster_tiles (self, TRUE);
  }

  for (guint node = 0; node < 2; node++)
    {
      const SmprofTimelineStep *steps;
      guint n;

      steps = smprof_timeline_steps_get_node (self->steps, node, &n);
      for (guint i = 1; i < n; i++)
        g_assert_cmpfloat (steps[i].start[SMPROF_TIMELINE_AXIS_STEP], >=, steps[i - 1].start[SMPROF_TIMELINE_AXIS_STEP]);
      guint n_wide;
      guint matched = check_steps (self, texture, node, &n_wide);

      /* a few narrow ticks lie under the ruler's grid lines */
      g_test_message ("node %u: %u of %u wide steps in their colour", node, matched, n_wide);
      g_assert_cmpuint (matched, >=, 15);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline-steps/strip", test_strip);
  g_test_add_func ("/timeline-steps/hover", test_hover);
  g_test_add_func ("/timeline-steps/by-step", test_by_step);

  return g_test_run ();
}
