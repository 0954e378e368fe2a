/* test-timeline-layout.c: the timeline's geometry, without a display
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-job.h"
#include "smprof-query.h"
#include "smprof-timeline-layout.h"
#include "smprof-timeline-ruler.h"

static const SmprofRecord *
find_record (GPtrArray  *records,
             const char *node_id,
             const char *prefix)
{
  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *r = g_ptr_array_index (records, i);

      if (g_str_equal (r->node_id, node_id) && g_str_has_prefix (r->interval, prefix))
        return r;
    }

  g_error ("no interval %s on %s", prefix, node_id);
  return NULL;
}

static void
assert_same_records (GPtrArray *a,
                     GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_true (g_ptr_array_index (a, i) == g_ptr_array_index (b, i));
}

static void
test_layout_basics (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) layout = smprof_timeline_layout_new (records);
  double origin = INFINITY;

  for (guint i = 0; i < records->len; i++)
    origin = MIN (origin, ((SmprofRecord *) g_ptr_array_index (records, i))->name.start_time_us);

  g_assert_cmpfloat (smprof_timeline_layout_get_origin_us (layout), ==, origin);
  g_assert_cmpuint (smprof_timeline_layout_get_n_nodes (layout), ==, 2);
  g_assert_cmpstr (smprof_timeline_layout_get_node_id (layout, 0), ==, "0-algo-1");
  g_assert_cmpstr (smprof_timeline_layout_get_node_id (layout, 1), ==, "1-algo-2");
  g_assert_cmpuint (smprof_timeline_layout_get_n_items (layout), ==, 82);

  for (guint n = 0; n < 2; n++)
    {
      const SmprofTimelineItem *items;
      guint count;

      /* smdebug writes one interval after the other: one lane */
      g_assert_cmpuint (smprof_timeline_layout_get_n_lanes (layout, n), ==, 1);
      items = smprof_timeline_layout_get_lane (layout, n, 0, &count);
      g_assert_cmpuint (count, ==, 41);

      for (guint i = 0; i < count; i++)
        {
          const SmprofRecord *r = items[i].record;

          g_assert_true (smprof_timeline_layout_lookup_record (layout, r) == &items[i]);
          g_assert_cmpstr (r->node_id, ==, smprof_timeline_layout_get_node_id (layout, n));
          g_assert_cmpfloat (items[i].start[SMPROF_TIMELINE_AXIS_TIME], ==, r->name.start_time_us - origin);
          g_assert_cmpfloat (items[i].end[SMPROF_TIMELINE_AXIS_TIME], ==, r->name.end_time_us - origin);
          for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
            {
              g_assert_cmpfloat (items[i].start[a], <=, items[i].end[a]);
              if (i > 0)
                g_assert_cmpfloat (items[i - 1].end[a], <=, items[i].start[a]);
            }
        }

      /* colours: initialization, then train and eval, then finalization */
      g_assert_cmpint (items[0].mode, ==, SMPROF_MODE_PRE_STEP_ZERO);
      g_assert_cmpint (items[1].mode, ==, SMPROF_MODE_TRAIN);
      g_assert_cmpint (items[17].mode, ==, SMPROF_MODE_EVAL);
      g_assert_cmpint (items[40].mode, ==, SMPROF_MODE_POST_HOOK_CLOSE);
    }
}

/* A drag from x1 to x2 selects exactly what the core's overlap rule selects. */
static void
test_drag_is_overlap (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) layout = smprof_timeline_layout_new (records);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261129);
  double origin = smprof_timeline_layout_get_origin_us (layout);
  double fit_start, fit_end;
  guint non_empty = 0, partial = 0;

  g_assert_true (smprof_timeline_layout_get_extent (layout, SMPROF_TIMELINE_AXIS_TIME, NULL, 0,
                                                    &fit_start, &fit_end));
  g_assert_cmpfloat (fit_start, ==, 0);

  for (guint round = 0; round < 3000; round++)
    {
      /* a random zoom and pan, and a random drag inside the plot */
      double span = (fit_end - fit_start) * pow (10, -g_rand_double_range (rand, 0, 4));
      SmprofTimelineViewport vp = {
        .x = 120,
        .width = 900,
        .start = g_rand_double_range (rand, fit_start, fit_end - span),
        .span = span,
      };
      double x1 = g_rand_double_range (rand, vp.x, vp.x + vp.width);
      double x2 = g_rand_double_range (rand, vp.x, vp.x + vp.width);
      double v1 = smprof_timeline_viewport_x_to_value (&vp, x1);
      double v2 = smprof_timeline_viewport_x_to_value (&vp, x2);
      guint which = g_rand_int_range (rand, 0, 3);
      guint all_nodes[] = { 0, 1 };
      const guint *nodes = which == 2 ? all_nodes : &all_nodes[which];
      guint n_nodes = which == 2 ? 2 : 1;
      g_autoptr(GPtrArray) ids = g_ptr_array_new ();
      g_autoptr(GPtrArray) selected = NULL;
      g_autoptr(GPtrArray) expected = NULL;
      SmprofSelection query;
      double lo_us, hi_us;

      for (guint i = 0; i < n_nodes; i++)
        g_ptr_array_add (ids, (gpointer) smprof_timeline_layout_get_node_id (layout, nodes[i]));
      g_ptr_array_add (ids, NULL);

      selected = smprof_timeline_layout_select_range (layout, SMPROF_TIMELINE_AXIS_TIME, v1, v2,
                                                      nodes, n_nodes, &query);

      /* The query is the dragged range in µs since the epoch, computed from pixels */
      lo_us = origin + vp.start + (MIN (x1, x2) - vp.x) * vp.span / vp.width;
      hi_us = origin + vp.start + (MAX (x1, x2) - vp.x) * vp.span / vp.width;
      g_assert_cmpint (query.kind, ==, SMPROF_SELECT_OVERLAP);
      g_assert_cmpfloat_with_epsilon (query.start_us, lo_us, 1.0);
      g_assert_cmpfloat_with_epsilon (query.end_us, hi_us, 1.0);

      expected = smprof_select (records, (const char * const *) ids->pdata, &query);
      assert_same_records (selected, expected);

      if (selected->len > 0)
        non_empty++;
      for (guint i = 0; i < selected->len; i++)
        {
          const SmprofRecord *r = g_ptr_array_index (selected, i);

          if (r->name.start_time_us < query.start_us || r->name.end_time_us > query.end_us)
            partial++;
        }
    }

  /* the rounds exercised both kinds: whole and partly covered intervals */
  g_assert_cmpuint (non_empty, >, 2000);
  g_assert_cmpuint (partial, >, 1000);
}

/* A range strictly inside one interval selects it; smdebug's by-time rule
 * (start or end inside) selects nothing. */
static void
test_range_inside_interval (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) layout = smprof_timeline_layout_new (records);

  for (guint n = 0; n < 2; n++)
    {
      const SmprofTimelineItem *items;
      const char *ids[] = { smprof_timeline_layout_get_node_id (layout, n), NULL };
      guint count;

      items = smprof_timeline_layout_get_lane (layout, n, 0, &count);
      for (guint i = 0; i < count; i++)
        {
          double s = items[i].start[SMPROF_TIMELINE_AXIS_TIME];
          double e = items[i].end[SMPROF_TIMELINE_AXIS_TIME];
          g_autoptr(GPtrArray) selected = NULL;
          g_autoptr(GPtrArray) by_time = NULL;
          SmprofSelection query;

          selected = smprof_timeline_layout_select_range (layout, SMPROF_TIMELINE_AXIS_TIME,
                                                          s + (e - s) * 0.75, s + (e - s) * 0.25,
                                                          &n, 1, &query);
          g_assert_cmpuint (selected->len, ==, 1);
          g_assert_true (g_ptr_array_index (selected, 0) == items[i].record);

          query.kind = SMPROF_SELECT_TIME;
          by_time = smprof_select (records, ids, &query);
          g_assert_cmpuint (by_time->len, ==, 0);
        }
    }
}

static void
test_hit (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("tf-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) layout = smprof_timeline_layout_new (records);
  const SmprofTimelineItem *items;
  guint count;

  items = smprof_timeline_layout_get_lane (layout, 0, 0, &count);
  g_assert_cmpuint (count, ==, 40);

  for (guint i = 0; i < count; i++)
    for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
      {
        double mid = (items[i].start[a] + items[i].end[a]) / 2;

        g_assert_true (smprof_timeline_layout_hit (layout, 0, 0, a, mid, 0) == &items[i]);
        g_assert_true (smprof_timeline_layout_nearest (layout, 0, a, mid) == &items[i]);
      }

  /* a gap: nothing without tolerance, the nearer neighbour with it */
  {
    double gap_start = items[5].end[SMPROF_TIMELINE_AXIS_TIME];
    double gap_end = items[6].start[SMPROF_TIMELINE_AXIS_TIME];

    g_assert_cmpfloat (gap_end, >, gap_start);
    g_assert_null (smprof_timeline_layout_hit (layout, 0, 0, SMPROF_TIMELINE_AXIS_TIME,
                                               (gap_start + gap_end) / 2, 0));
    g_assert_true (smprof_timeline_layout_hit (layout, 0, 0, SMPROF_TIMELINE_AXIS_TIME,
                                               gap_start + 1, gap_end - gap_start) == &items[5]);
    g_assert_true (smprof_timeline_layout_hit (layout, 0, 0, SMPROF_TIMELINE_AXIS_TIME,
                                               gap_end - 1, gap_end - gap_start) == &items[6]);
  }
}

/* PyTorch numbers steps globally: step keys are the step numbers, every
 * stepstart sits on its integer on every node. */
static void
test_step_axis_pytorch (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) layout = smprof_timeline_layout_new (records);
  double start, end;

  g_assert_cmpuint (smprof_timeline_layout_get_n_steps (layout), ==, 20);
  for (guint k = 0; k < 20; k++)
    {
      g_autofree char *label = smprof_timeline_layout_dup_step_label (layout, k);
      g_autofree char *expected = g_strdup_printf ("%u", k);

      g_assert_cmpstr (label, ==, expected);
    }

  for (guint n = 0; n < 2; n++)
    {
      const char *node = smprof_timeline_layout_get_node_id (layout, n);
      const SmprofTimelineItem *it;

      for (guint step = 0; step < 20; step++)
        {
          g_autofree char *prefix = g_strdup_printf ("%s-%u-stepstart", step >= 8 && step <= 9 ? "eval" :
                                                     step >= 18 ? "eval" : "train", step);

          it = smprof_timeline_layout_lookup_record (layout, find_record (records, node, prefix));
          g_assert_cmpfloat_with_epsilon (it->start[SMPROF_TIMELINE_AXIS_STEP], step, 1e-12);
          /* the forward pass is a fraction of the step */
          g_assert_cmpfloat (it->end[SMPROF_TIMELINE_AXIS_STEP], >, step);
          g_assert_cmpfloat (it->end[SMPROF_TIMELINE_AXIS_STEP], <, step + 1);
        }

      /* pre-step-zero before 0, finalization one unit after the last step */
      it = smprof_timeline_layout_lookup_record (layout, find_record (records, node, "prestepzero"));
      g_assert_cmpfloat (it->start[SMPROF_TIMELINE_AXIS_STEP], ==, -1);
      /* it ends at train-0's stepstart as pre-step-zero recorded it, a little
       * before the first step's interval starts (at 0) */
      g_assert_cmpfloat (it->end[SMPROF_TIMELINE_AXIS_STEP], <=, 0);
      g_assert_cmpfloat (it->end[SMPROF_TIMELINE_AXIS_STEP], >, -0.05);
      it = smprof_timeline_layout_lookup_record (layout, find_record (records, node, "eval-19-forwardpassend"));
      g_assert_cmpfloat (it->start[SMPROF_TIMELINE_AXIS_STEP], ==, 20);
      g_assert_cmpfloat (it->end[SMPROF_TIMELINE_AXIS_STEP], ==, 21);
    }

  g_assert_true (smprof_timeline_layout_get_extent (layout, SMPROF_TIMELINE_AXIS_STEP, NULL, 0, &start, &end));
  g_assert_cmpfloat (start, ==, -1);
  g_assert_cmpfloat (end, ==, 21);
}

/* TensorFlow numbers train and eval steps apart: eval keys follow the train
 * steps they came after, and are labelled with their mode. */
static void
test_step_axis_tensorflow (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("tf-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) layout = smprof_timeline_layout_new (records);
  const char *expected[] = {
    "train 0", "train 1", "train 2", "train 3", "8", "eval 0", "eval 1", "9", "13", "14", "eval 2", "eval 3", "17",
  };
  guint n_steps = smprof_timeline_layout_get_n_steps (layout);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint next = 0;

  for (guint k = 0; k < n_steps; k++)
    {
      g_ptr_array_add (labels, smprof_timeline_layout_dup_step_label (layout, k));
      g_test_message ("step key %u: %s", k, (char *) g_ptr_array_index (labels, k));
    }

  /* in job order (a subsequence check: the labels listed appear in this order) */
  for (guint k = 0; k < labels->len && next < G_N_ELEMENTS (expected); k++)
    if (g_str_equal (g_ptr_array_index (labels, k), expected[next]))
      next++;
  g_assert_cmpuint (next, ==, G_N_ELEMENTS (expected));

  for (guint n = 0; n < 2; n++)
    {
      const char *node = smprof_timeline_layout_get_node_id (layout, n);
      const SmprofTimelineItem *a, *b;

      /* the same step starts at the same position on both nodes */
      a = smprof_timeline_layout_lookup_record (layout, find_record (records, node, "eval-2-stepstart"));
      b = smprof_timeline_layout_lookup_record (layout, find_record (records, node, "train-5-stepstart"));
      g_assert_cmpfloat (a->start[SMPROF_TIMELINE_AXIS_STEP], ==, floor (a->start[SMPROF_TIMELINE_AXIS_STEP]));
      g_assert_cmpfloat (b->start[SMPROF_TIMELINE_AXIS_STEP], ==, 5);
      g_assert_cmpfloat (a->start[SMPROF_TIMELINE_AXIS_STEP], >, b->start[SMPROF_TIMELINE_AXIS_STEP]);
    }
}

static void
test_ruler (void)
{
  guint minor;
  char *text;

  g_assert_cmpfloat (smprof_timeline_ruler_nice_step (1e6, 1000, 90, 0, &minor), ==, 1e5);
  g_assert_cmpfloat (smprof_timeline_ruler_nice_step (7.6e6, 1000, 90, 0, &minor), ==, 1e6);
  g_assert_cmpfloat (smprof_timeline_ruler_nice_step (3e5, 1000, 90, 0, &minor), ==, 5e4);
  g_assert_cmpuint (minor, ==, 5);
  g_assert_cmpfloat (smprof_timeline_ruler_nice_step (1.5e5, 1000, 90, 0, &minor), ==, 2e4);
  g_assert_cmpuint (minor, ==, 4);
  g_assert_cmpfloat (smprof_timeline_ruler_nice_step (22, 1000, 48, 1, NULL), ==, 2);
  g_assert_cmpfloat (smprof_timeline_ruler_nice_step (2, 1000, 48, 1, NULL), ==, 1);

  text = smprof_timeline_ruler_format_time (1.5e6, 5e5);
  g_assert_cmpstr (text, ==, "1.5 s");
  g_free (text);
  text = smprof_timeline_ruler_format_time (3e6, 1e6);
  g_assert_cmpstr (text, ==, "3 s");
  g_free (text);
  text = smprof_timeline_ruler_format_time (1.26e6, 2e4);
  g_assert_cmpstr (text, ==, "1260 ms");
  g_free (text);
  text = smprof_timeline_ruler_format_time (1260500, 500);
  g_assert_cmpstr (text, ==, "1260.5 ms");
  g_free (text);
  text = smprof_timeline_ruler_format_time (1260020, 20);
  g_assert_cmpstr (text, ==, "1260.02 ms");
  g_free (text);
  text = smprof_timeline_ruler_format_time (-1e-7, 1e6);
  g_assert_cmpstr (text, ==, "0 s");
  g_free (text);
}

/* Overlapping intervals of one node (never written by smdebug, but possible in
 * a hand-made job) go to separate lanes, so each lane stays sorted. */
static void
test_lanes (void)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SmprofTimelineLayout) layout = NULL;
  const double spans[][2] = { { 0, 100 }, { 50, 150 }, { 100, 200 }, { 120, 130 }, { 200, 300 } };

  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      SmprofRecord *r = g_new0 (SmprofRecord, 1);

      r->node_id = "n";
      r->order = i;
      r->interval = (char *) "x";
      r->name.start_mode = r->name.end_mode = SMPROF_MODE_TRAIN;
      r->name.start_step = r->name.end_step = i;
      r->name.start_phase = SMPROF_PHASE_STEP_START;
      r->name.end_phase = SMPROF_PHASE_STEP_END;
      r->name.start_time_us = 1e15 + spans[i][0];
      r->name.end_time_us = 1e15 + spans[i][1];
      g_ptr_array_add (records, r);
    }

  layout = smprof_timeline_layout_new (records);
  g_assert_cmpuint (smprof_timeline_layout_get_n_nodes (layout), ==, 1);
  g_assert_cmpuint (smprof_timeline_layout_get_n_lanes (layout, 0), ==, 3);

  for (guint lane = 0; lane < 3; lane++)
    {
      const SmprofTimelineItem *items;
      guint n;

      items = smprof_timeline_layout_get_lane (layout, 0, lane, &n);
      for (guint i = 1; i < n; i++)
        g_assert_cmpfloat (items[i - 1].end[SMPROF_TIMELINE_AXIS_TIME], <=, items[i].start[SMPROF_TIMELINE_AXIS_TIME]);
    }

  /* the overlap rule across lanes */
  {
    guint node = 0;
    g_autoptr(GPtrArray) selected = smprof_timeline_layout_select_range (layout, SMPROF_TIMELINE_AXIS_TIME,
                                                                         125, 126, &node, 1, NULL);

    g_assert_cmpuint (selected->len, ==, 3);
  }
}

/* Hundreds of nodes, a million intervals: the layout is built once, and a
 * selection costs binary searches plus the intervals it returns. */
static void
test_large_job (void)
{
  const guint n_nodes = 400, per_node = 2500;
  g_autoptr(GPtrArray) records = g_ptr_array_new_full (n_nodes * per_node, NULL);
  g_autofree SmprofRecord *storage = g_new0 (SmprofRecord, n_nodes * per_node);
  g_autofree char **ids = g_new0 (char *, n_nodes + 1);
  g_autoptr(SmprofTimelineLayout) layout = NULL;
  g_autofree guint *nodes = g_new (guint, n_nodes);
  g_autoptr(GTimer) timer = g_timer_new ();
  g_autoptr(GPtrArray) selected = NULL;
  double build, select;

  for (guint n = 0; n < n_nodes; n++)
    ids[n] = g_strdup_printf ("%u-algo-%u", n, n + 1);

  /* in record order: by start time, then node */
  for (guint i = 0; i < per_node; i++)
    for (guint n = 0; n < n_nodes; n++)
      {
        SmprofRecord *r = &storage[i * n_nodes + n];
        double t = 1.7e15 + i * 1000.0 + n * 0.5;

        r->node_id = ids[n];
        r->order = records->len;
        r->interval = (char *) "x";
        r->name.start_step = i / 2;
        r->name.end_step = i / 2 + i % 2;
        r->name.start_mode = r->name.start_step % 5 < 4 ? SMPROF_MODE_TRAIN : SMPROF_MODE_EVAL;
        r->name.end_mode = r->name.end_step % 5 < 4 ? SMPROF_MODE_TRAIN : SMPROF_MODE_EVAL;
        r->name.start_phase = i % 2 ? SMPROF_PHASE_FORWARD_PASS_END : SMPROF_PHASE_STEP_START;
        r->name.end_phase = i % 2 ? SMPROF_PHASE_STEP_START : SMPROF_PHASE_FORWARD_PASS_END;
        r->name.start_time_us = t;
        r->name.end_time_us = t + 900;
        g_ptr_array_add (records, r);
      }

  g_timer_start (timer);
  layout = smprof_timeline_layout_new (records);
  build = g_timer_elapsed (timer, NULL);
  g_assert_cmpuint (smprof_timeline_layout_get_n_items (layout), ==, n_nodes * per_node);
  g_assert_cmpuint (smprof_timeline_layout_get_n_steps (layout), ==, per_node / 2 + 1);

  /* rows in natural order of the node ids */
  g_assert_cmpstr (smprof_timeline_layout_get_node_id (layout, 2), ==, "2-algo-3");
  g_assert_cmpstr (smprof_timeline_layout_get_node_id (layout, 10), ==, "10-algo-11");
  g_assert_cmpstr (smprof_timeline_layout_get_node_id (layout, 399), ==, "399-algo-400");

  for (guint n = 0; n < n_nodes; n++)
    nodes[n] = n;

  g_timer_start (timer);
  for (guint round = 0; round < 100; round++)
    {
      g_clear_pointer (&selected, g_ptr_array_unref);
      selected = smprof_timeline_layout_select_range (layout, SMPROF_TIMELINE_AXIS_TIME,
                                                      round * 1000.0 + 100, round * 1000.0 + 1950,
                                                      nodes, n_nodes, NULL);
    }
  select = g_timer_elapsed (timer, NULL) / 100;
  g_assert_cmpuint (selected->len, ==, 2 * n_nodes);

  /* Times are reported, never asserted: a loaded machine is no failure
   * (tests/bench/ measures them). */
  g_test_message ("1,000,000 intervals on 400 nodes: layout %.2f s, a 2-interval drag on every node %.3f ms",
                  build, select * 1e3);

  for (guint n = 0; n < n_nodes; n++)
    g_free (ids[n]);
}

static gpointer
dup_for_job_thread (gpointer job)
{
  return smprof_timeline_layout_dup_for_job (job, SMPROF_PROFILER_CPROFILE);
}

/* The data source lays a job out on its opening worker; the page's timeline
 * then gets that layout, the same as one made on the spot. */
static void
test_kept_with_job (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) from_worker = g_thread_join (g_thread_new ("layout", dup_for_job_thread, job));
  g_autoptr(SmprofTimelineLayout) kept = smprof_timeline_layout_dup_for_job (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofTimelineLayout) fresh = smprof_timeline_layout_new (records);
  const SmprofTimelineItem *kept_items, *fresh_items;

  g_assert_true (kept == from_worker);
  g_assert_true (smprof_timeline_layout_get_records (kept) == records);
  g_assert_cmpfloat (smprof_timeline_layout_get_origin_us (kept), ==, smprof_timeline_layout_get_origin_us (fresh));
  g_assert_cmpuint (smprof_timeline_layout_get_n_nodes (kept), ==, smprof_timeline_layout_get_n_nodes (fresh));
  g_assert_cmpuint (smprof_timeline_layout_get_n_items (kept), ==, smprof_timeline_layout_get_n_items (fresh));
  kept_items = smprof_timeline_layout_get_items (kept);
  fresh_items = smprof_timeline_layout_get_items (fresh);
  for (guint i = 0; i < smprof_timeline_layout_get_n_items (kept); i++)
    {
      g_assert_true (kept_items[i].record == fresh_items[i].record);
      g_assert_cmpuint (kept_items[i].node, ==, fresh_items[i].node);
      g_assert_cmpuint (kept_items[i].lane, ==, fresh_items[i].lane);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline-layout/basics", test_layout_basics);
  g_test_add_func ("/timeline-layout/drag-is-overlap", test_drag_is_overlap);
  g_test_add_func ("/timeline-layout/range-inside-interval", test_range_inside_interval);
  g_test_add_func ("/timeline-layout/hit", test_hit);
  g_test_add_func ("/timeline-layout/step-axis-pytorch", test_step_axis_pytorch);
  g_test_add_func ("/timeline-layout/step-axis-tensorflow", test_step_axis_tensorflow);
  g_test_add_func ("/timeline-layout/ruler", test_ruler);
  g_test_add_func ("/timeline-layout/lanes", test_lanes);
  g_test_add_func ("/timeline-layout/large-job", test_large_job);
  g_test_add_func ("/timeline-layout/kept-with-job", test_kept_with_job);

  return g_test_run ();
}
