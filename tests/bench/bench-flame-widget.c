/* bench-flame-widget.c: the flame graph widget's first render and hover redraws
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-flame-widget SOURCE [--frames N] [--hovers N] [--seed S]
 *
 * Needs a display (run-bench.py runs it under xvfb-run). Shows two profiles
 * in a 1920x1000 flame graph: the largest merged tree of SOURCE (every
 * interval of every node) and a synthetic tree of --frames frames. For each,
 * times the widget's snapshot() when its cached render node must be built (the
 * first render) and when only the hover moved (the redraw while hovering), and
 * the whole frame (snapshot, GSK render, present) as the frame clock sees it.
 * Prints one JSON object.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gtk/gtk.h>

#include "smprof-aggregate.h"
#include "smprof-flame-graph-private.h"
#include "smprof-local-source.h"
#include "smprof-profile-private.h"
#include "smprof-query.h"

#define WIDTH  1920
#define HEIGHT 1000

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1e3;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  g_main_context_wakeup (NULL);
  return G_SOURCE_REMOVE;
}

static void
settle (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The widget's own work for one frame: its snapshot(). */
static double
time_snapshot (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  double t0 = now_ms ();

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  t0 = now_ms () - t0;
  g_clear_pointer (&node, gsk_render_node_unref);

  return t0;
}

typedef struct
{
  double queued;
  double painted;
} FrameTimes;

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  FrameTimes *times = data;

  if (times->painted == 0)
    times->painted = now_ms ();
}

/* A whole frame after @change: snapshot, GSK render and present. */
static double
time_frame (GtkWidget  *widget,
            FrameTimes *times)
{
  times->queued = now_ms ();
  times->painted = 0;
  gtk_widget_queue_draw (widget);
  while (times->painted == 0)
    g_main_context_iteration (NULL, TRUE);

  return times->painted - times->queued;
}

static SmprofCallTree *
synthetic_tree (SmprofFunctionKeys *table,
                guint               n_frames,
                guint32             seed)
{
  SmprofCallTree *tree = smprof_call_tree_new (table);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint   n_funcs = MAX (smprof_function_keys_get_size (table), 1);
  guint32 root = SMPROF_CALL_TREE_ROOT;

  g_array_append_val (open, root);
  while (smprof_call_tree_get_n_nodes (tree) < n_frames + 1)
    {
      guint32 parent = g_array_index (open, guint32, g_rand_int_range (rand, 0, open->len));
      guint32 node = smprof_call_tree_ensure_child (tree, parent, g_rand_int_range (rand, 0, n_funcs));

      g_array_append_val (open, node);
    }

  for (guint32 i = smprof_call_tree_get_n_nodes (tree); i-- > 1;)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      double self_time = g_rand_double_range (rand, 1e-6, 1e-2);

      smprof_call_tree_add_time (tree, i, self_time, self_time);
      smprof_call_tree_add_time (tree, node->parent, node->total, 0);
    }
  smprof_call_tree_sort (tree);

  return tree;
}

static void
measure (const char       *name,
         SmprofFlameGraph *graph,
         SmprofProfile    *profile,
         guint             n_hovers,
         GRand            *rand,
         gboolean          last)
{
  GtkWidget *widget = GTK_WIDGET (graph);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  g_autoptr(GArray) hovers = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  FrameTimes times = { 0 };
  gulong handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &times);
  double first_snapshot, first_frame, t0;
  guint n_rects;

  /* The first render: the layout and the cached render node are built. */
  t0 = now_ms ();
  smprof_flame_graph_set_profile (graph, profile);
  first_snapshot = now_ms () - t0;
  first_snapshot += time_snapshot (widget);
  smprof_flame_graph_set_profile (graph, NULL);
  settle (50);
  times.queued = now_ms ();
  times.painted = 0;
  smprof_flame_graph_set_profile (graph, profile);
  while (times.painted == 0)
    g_main_context_iteration (NULL, TRUE);
  first_frame = times.painted - times.queued;
  settle (50);

  n_rects = smprof_flame_layout_get_n_rects (graph->layout);
  for (guint i = 0; i < n_hovers && n_rects > 0; i++)
    {
      double ms;

      _smprof_flame_graph_set_hover_rect (graph, g_rand_int_range (rand, 0, n_rects));
      ms = time_snapshot (widget);
      g_array_append_val (hovers, ms);
      _smprof_flame_graph_set_hover_rect (graph, g_rand_int_range (rand, 0, n_rects));
      ms = time_frame (widget, &times);
      g_array_append_val (frames, ms);
    }

  g_signal_handler_disconnect (clock, handler);
  g_array_sort (hovers, compare_doubles);
  g_array_sort (frames, compare_doubles);

  g_print ("\"%s\": {\"frames\": %u, \"rects\": %u, \"renders\": %u, \"first_render_ms\": %.3f, "
           "\"first_frame_ms\": %.3f, \"hover_median_ms\": %.4f, \"hover_worst_ms\": %.4f, "
           "\"hover_frame_median_ms\": %.3f, \"hover_frame_worst_ms\": %.3f}%s",
           name, smprof_call_tree_get_n_nodes (smprof_profile_get_call_tree (profile)) - 1, n_rects,
           graph->n_renders, first_snapshot, first_frame,
           hovers->len ? g_array_index (hovers, double, hovers->len / 2) : 0,
           hovers->len ? g_array_index (hovers, double, hovers->len - 1) : 0,
           frames->len ? g_array_index (frames, double, frames->len / 2) : 0,
           frames->len ? g_array_index (frames, double, frames->len - 1) : 0,
           last ? "" : ", ");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(SmprofProfile) merged = NULL;
  g_autoptr(SmprofProfile) synthetic = NULL;
  g_autoptr(GRand) rand = NULL;
  g_auto(GStrv) nodes = NULL;
  SmprofNodeChoice all_nodes = { SMPROF_NODES_ALL, NULL };
  guint n_frames = 100000, n_hovers = 200;
  guint32 seed = 1;
  GPtrArray *records;
  GtkWidget *window, *graph;

  if (argc < 2)
    {
      g_printerr ("usage: %s SOURCE [--frames N] [--hovers N] [--seed S]\n", argv[0]);
      return 2;
    }
  for (int i = 2; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--frames") == 0)
        n_frames = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--hovers") == 0)
        n_hovers = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--seed") == 0)
        seed = strtoul (argv[i + 1], NULL, 10);
    }
  rand = g_rand_new_with_seed (seed);

  gtk_init ();

  source = smprof_local_source_new (argv[1], &error);
  if (source == NULL)
    g_error ("%s", error->message);
  job = smprof_job_new (source);
  if (!smprof_job_load (job, NULL, &error))
    g_error ("%s", error->message);
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  nodes = smprof_node_choice_resolve (&all_nodes, records);
  smprof_job_load_stats (job, records, NULL, NULL);
  merged = smprof_profile_new (job, SMPROF_PROFILER_CPROFILE, (const char * const *) nodes, records);
  synthetic = _smprof_profile_new_summed (job, SMPROF_PROFILER_PYINSTRUMENT, (const char * const *) nodes,
                                          g_ptr_array_new (), NULL,
                                          synthetic_tree (smprof_job_get_function_keys (job), n_frames, seed));

  window = gtk_window_new ();
  graph = smprof_flame_graph_new ();
  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (graph) || gtk_widget_get_width (graph) == 0)
    g_main_context_iteration (NULL, TRUE);
  settle (200);

  g_print ("{\"mode\": \"flame-widget\", \"width\": %d, \"height\": %d, \"renderer\": \"%s\", ",
           gtk_widget_get_width (graph), gtk_widget_get_height (graph),
           G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))));
  measure ("merged", SMPROF_FLAME_GRAPH (graph), merged, n_hovers, rand, FALSE);
  measure ("synthetic", SMPROF_FLAME_GRAPH (graph), synthetic, n_hovers, rand, TRUE);
  g_print ("}\n");

  gtk_window_destroy (GTK_WINDOW (window));

  return 0;
}
