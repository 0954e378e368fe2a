/* smprof-timeline-ruler.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-ruler.h"

/**
 * smprof_timeline_ruler_nice_step:
 * @span: the axis values across @width
 * @width: pixels
 * @min_spacing: the fewest pixels between two labelled ticks
 * @min_step: the smallest step allowed (1 for whole steps, 0 for any)
 * @n_minor: (out) (optional): how many minor intervals each step divides into
 *
 * Returns: the smallest step of the form 1, 2 or 5 × 10^k that keeps labelled
 *   ticks at least @min_spacing pixels apart
 */
double
smprof_timeline_ruler_nice_step (double  span,
                                 double  width,
                                 double  min_spacing,
                                 double  min_step,
                                 guint  *n_minor)
{
  static const double mantissas[] = { 1, 2, 5 };
  static const guint minors[] = { 5, 4, 5 };
  double raw, power;

  if (n_minor != NULL)
    *n_minor = 5;

  if (!(span > 0) || !(width > 0))
    return MAX (1, min_step);

  raw = MAX (span * min_spacing / width, min_step);
  power = pow (10, floor (log10 (raw)));

  for (;;)
    {
      for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
        if (mantissas[i] * power >= raw * (1 - 1e-9))
          {
            if (n_minor != NULL)
              *n_minor = minors[i];
            return mantissas[i] * power;
          }
      power *= 10;
    }
}

/* How many decimals show a multiple of @step exactly. */
static int
decimals_for (double step)
{
  return (int) CLAMP (ceil (-log10 (step) - 1e-9), 0, 9);
}

/**
 * smprof_timeline_ruler_format_time:
 * @time_us: a tick's time, µs since the job's start
 * @step_us: the tick step
 *
 * Returns: (transfer full): the label: seconds when ticks are at least 0.1 s
 *   apart ("1.5 s"), milliseconds below ("1260 ms", "1260.25 ms")
 */
char *
smprof_timeline_ruler_format_time (double time_us,
                                   double step_us)
{
  /* Avoid "-0" for a tick a rounding error below zero. */
  if (fabs (time_us) < step_us * 1e-6)
    time_us = 0;

  if (step_us >= 1e5)
    /* Translators: a time on the timeline's ruler, in seconds, as in "1.5 s" */
    return g_strdup_printf (_("%.*f s"), decimals_for (step_us / 1e6), time_us / 1e6);

  /* Translators: a time on the timeline's ruler, in milliseconds, as in "1260 ms" */
  return g_strdup_printf (_("%.*f ms"), decimals_for (step_us / 1e3), time_us / 1e3);
}
