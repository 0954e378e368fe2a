/* smprof-pyinstrument.h: one Pyinstrument `python_stats.json` session
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-function-keys.h"

G_BEGIN_DECLS

/* Frames in pre-order: a frame's first child follows it, and its next sibling
 * sits `subtree_size` entries after it. */
typedef struct
{
  guint32 func;          /* (function, file_path, line_no) in the job's SmprofFunctionKeys */
  guint32 subtree_size;  /* this frame and all its descendants */
  double  time;          /* seconds, including descendants */
  double  self_time;     /* time minus the children's time (may be -1e-06 from rounding) */
} SmprofPyFrame;

typedef struct
{
  SmprofPyFrame *frames;      /* empty when the session's root_frame is null */
  guint          n_frames;
  double         duration;    /* seconds; 0 when the file does not say */
  gint64         sample_count;
} SmprofPyinstrumentSession;

/* Sampled call stacks deeper than this are refused rather than risk the stack. */
#define SMPROF_PYINSTRUMENT_MAX_DEPTH 2048

SmprofPyinstrumentSession *smprof_pyinstrument_parse        (GBytes                     *bytes,
                                                             SmprofFunctionKeys         *table,
                                                             GError                    **error);
void                       smprof_pyinstrument_session_free (SmprofPyinstrumentSession  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofPyinstrumentSession, smprof_pyinstrument_session_free)

G_END_DECLS
