/* smprof-types.h: the vocabulary of smdebug's Python-profiler output
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The folder strings and integer values are smdebug's PythonProfileModes. */
typedef enum
{
  SMPROF_MODE_TRAIN = 1,
  SMPROF_MODE_EVAL,
  SMPROF_MODE_PREDICT,
  SMPROF_MODE_GLOBAL,
  SMPROF_MODE_PRE_STEP_ZERO,
  SMPROF_MODE_POST_HOOK_CLOSE,
} SmprofMode;

#define SMPROF_N_MODES 6

/* smdebug's StepPhase. */
typedef enum
{
  SMPROF_PHASE_START,
  SMPROF_PHASE_STEP_START,
  SMPROF_PHASE_FORWARD_PASS_END,
  SMPROF_PHASE_STEP_END,
  SMPROF_PHASE_END,
} SmprofPhase;

typedef enum
{
  SMPROF_PROFILER_CPROFILE,
  SMPROF_PROFILER_PYINSTRUMENT,
} SmprofProfiler;

#define SMPROF_N_PROFILERS 2

/* A `*` step: -1 at the start of an interval, +infinity at its end, as smdebug reads it. */
#define SMPROF_STEP_ANY_START ((gint64) -1)
#define SMPROF_STEP_INFINITY  G_MAXINT64

/**
 * SmprofFormatError:
 * @SMPROF_FORMAT_ERROR_NAME: an interval folder name does not follow the grammar
 * @SMPROF_FORMAT_ERROR_TRUNCATED: a stats file ends early
 * @SMPROF_FORMAT_ERROR_CORRUPT: a stats file holds something its format does not allow
 * @SMPROF_FORMAT_ERROR_LAYOUT: a file or folder is where the job layout has none
 *
 * Errors about what a job holds, as opposed to I/O errors (those use `G_IO_ERROR`).
 */
typedef enum
{
  SMPROF_FORMAT_ERROR_NAME,
  SMPROF_FORMAT_ERROR_TRUNCATED,
  SMPROF_FORMAT_ERROR_CORRUPT,
  SMPROF_FORMAT_ERROR_LAYOUT,
} SmprofFormatError;

#define SMPROF_FORMAT_ERROR (smprof_format_error_quark ())
GQuark smprof_format_error_quark (void);

const char *smprof_mode_to_string     (SmprofMode      mode);
gboolean    smprof_mode_from_string   (const char     *text,
                                       SmprofMode     *mode);
const char *smprof_phase_to_string    (SmprofPhase     phase);
gboolean    smprof_phase_from_string  (const char     *text,
                                       SmprofPhase    *phase);
const char *smprof_profiler_to_string (SmprofProfiler  profiler);
gboolean    smprof_profiler_from_string (const char   *text,
                                         SmprofProfiler *profiler);

int         smprof_node_id_compare    (const char     *a,
                                       const char     *b);
void        smprof_node_ids_sort      (char          **node_ids);

G_END_DECLS
