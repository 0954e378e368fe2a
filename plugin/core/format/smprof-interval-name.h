/* smprof-interval-name.h: the interval folder name grammar
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-types.h"

G_BEGIN_DECLS

/* <mode>-<step>-<phase>-<µs>_<mode>-<step>-<phase>-<µs>. A `*` step reads as
 * SMPROF_STEP_ANY_START at the start and SMPROF_STEP_INFINITY at the end, which is
 * how smdebug compares them. */
typedef struct
{
  SmprofMode  start_mode;
  gint64      start_step;
  SmprofPhase start_phase;
  double      start_time_us;
  SmprofMode  end_mode;
  gint64      end_step;
  SmprofPhase end_phase;
  double      end_time_us;
} SmprofIntervalName;

gboolean smprof_interval_name_parse  (const char               *text,
                                      SmprofIntervalName       *name,
                                      GError                  **error);
char    *smprof_interval_name_format (const SmprofIntervalName *name);

G_END_DECLS
