/* smprof-pevents.h: smdebug's framework timeline (`*_pythontimeline.json`)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-types.h"

G_BEGIN_DECLS

/* A timeline file larger than this is refused unread. smdebug rotates its
 * trace files well before (10 MB by default, SMDEBUG_PROFILER_MAX_FILE_SIZE,
 * as we read its profiler_constants.py). The reader builds a JSON tree,
 * about 16 times the file's size in memory (a 26 MB file: 420 MB), so this
 * also bounds what one file costs. */
#define SMPROF_PEVENTS_MAX_BYTES (32 * 1024 * 1024)

/**
 * SmprofStepEvent:
 * @node_id: (nullable): the node, owned by whoever merged the events (a job);
 *   %NULL straight from smprof_pevents_parse()
 * @mode: %SMPROF_MODE_TRAIN, %SMPROF_MODE_EVAL, %SMPROF_MODE_PREDICT or
 *   %SMPROF_MODE_GLOBAL, from the phase name
 * @step: the step number (`args.step_num`)
 * @phase: the phase's process name, such as `Step:ModeKeys.TRAIN` (static)
 * @start_us: when the step began, microseconds since the epoch
 * @end_us: when it ended (never before @start_us)
 *
 * One step as smdebug's framework timeline records it: an `X` event on a
 * `Step:ModeKeys.*` process, made absolute with the file's start time.
 */
typedef struct
{
  const char *node_id;
  SmprofMode  mode;
  gint64      step;
  const char *phase;
  double      start_us;
  double      end_us;
} SmprofStepEvent;

gboolean  smprof_pevents_is_timeline_path (const char  *path);
char     *smprof_pevents_dup_node_id      (const char  *path);
GArray   *smprof_pevents_parse            (GBytes      *bytes,
                                           const char  *file_name,
                                           GError     **error);
void      smprof_pevents_sort             (GArray      *events);

G_END_DECLS
