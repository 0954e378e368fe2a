/* bench-main-loop.c: what the viewer benchmarks share to watch the main
 * loop: its worst stall over a phase, waits that keep it running, frames
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main loop's stalls are measured as a user meets them: a 2 ms timeout
 * of high priority notes when it runs; the longest gap between two of its
 * runs is the longest the window could not react (input, redraw). It counts
 * everything that keeps the main thread busy, drawing included.
 */

#include "bench-main-loop.h"

#define TICK_MS 2

typedef struct
{
  gint64 last;
  gint64 worst;
} Stalls;

static Stalls stalls;
/* With SMPROF_BENCH_STALL_LOG=MS, every gap over MS is written to stderr
 * with its ends in g_get_monotonic_time() microseconds, so that a profile
 * recorded with `perf record -k CLOCK_MONOTONIC` can be cut to the stalls. */
static gint64 log_over_us = -1;

static gboolean
tick_cb (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (stalls.last != 0 && now - stalls.last > stalls.worst)
    stalls.worst = now - stalls.last;
  if (stalls.last != 0 && log_over_us >= 0 && now - stalls.last > log_over_us)
    g_printerr ("stall %.1f ms from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT "\n",
                (now - stalls.last) / 1000.0, stalls.last, now);
  stalls.last = now;

  return G_SOURCE_CONTINUE;
}

/* Installs the timeout; once, before the first bench_stalls_begin(). */
void
bench_stalls_start (void)
{
  const char *log_over = g_getenv ("SMPROF_BENCH_STALL_LOG");

  if (log_over != NULL)
    log_over_us = (gint64) (g_ascii_strtod (log_over, NULL) * 1000);
  g_timeout_add_full (G_PRIORITY_HIGH, TICK_MS, tick_cb, NULL, NULL);
}

/* The worst gap from here to the next bench_stalls_end(), in ms. */
void
bench_stalls_begin (void)
{
  stalls.last = g_get_monotonic_time ();
  stalls.worst = 0;
}

double
bench_stalls_end (void)
{
  tick_cb (NULL);
  return stalls.worst / 1000.0;
}

static gboolean
wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @condition holds or @timeout_ms pass; whether it
 * held. */
gboolean
bench_wait_for (BenchCondition condition,
                gpointer       data,
                guint          timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  /* wakes the loop for conditions no source will announce (time passing) */
  guint wake = g_timeout_add (10, wake_cb, NULL);
  gboolean met;

  while (!(met = condition (data)) && g_get_monotonic_time () <= deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);

  return met;
}

static gboolean
time_passed (gpointer data)
{
  return g_get_monotonic_time () >= *(gint64 *) data;
}

/* Runs the main loop for @ms. */
void
bench_spin (guint ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) ms * 1000;

  bench_wait_for (time_passed, &until, ms + 1000);
}

gboolean
bench_flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  *(gboolean *) data = TRUE;
}

/* Until @widget's window has drawn a frame that began after this call. */
void
bench_wait_frame (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gboolean painted = FALSE;
  gulong id;

  g_assert (clock != NULL);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &painted);
  gtk_widget_queue_draw (widget);
  if (!bench_wait_for (bench_flag_set, &painted, 30000))
    g_error ("no frame drawn in 30 s");
  g_signal_handler_disconnect (clock, id);
}

/* The first three fields of /proc/loadavg: 1, 5 and 15 minutes. */
char *
bench_load_average (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("?");
  fields = g_strsplit (text, " ", 4);
  if (g_strv_length (fields) < 3)
    return g_strdup ("?");
  return g_strdup_printf ("%s %s %s", fields[0], fields[1], fields[2]);
}
