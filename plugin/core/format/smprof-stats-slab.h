/* smprof-stats-slab.h: memory for the stats arrays that stay loaded
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-pstats.h"

G_BEGIN_DECLS

typedef struct _SmprofStatsSlab SmprofStatsSlab;

gpointer _smprof_stats_slab_alloc   (gsize             size,
                                     SmprofStatsSlab **out_slab);
void     _smprof_stats_slab_release (SmprofStatsSlab  *slab);
void     _smprof_stats_slab_take_arrays (SmprofPstats  *stats,
                                         guint          n_funcs,
                                         guint          n_callers);

gboolean _smprof_stats_slab_is_used     (void);
guint    _smprof_stats_slab_get_n_mapped (void);

G_END_DECLS
