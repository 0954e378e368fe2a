/* smprof-range-index-private.h: the range index with its trade-offs set by hand
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-range-index.h"

G_BEGIN_DECLS

SmprofRangeIndex *_smprof_range_index_new_tuned (SmprofJob           *job,
                                                 SmprofProfiler       profiler,
                                                 const char * const  *node_ids,
                                                 guint                stride,
                                                 guint                cold_max,
                                                 GCancellable        *cancellable,
                                                 GError             **error);

G_END_DECLS
