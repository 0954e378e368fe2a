/* smprof-flame-graph-view-scheme.h: the flame graph view's colour scheme action
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-flame-graph.h"

G_BEGIN_DECLS

void _smprof_flame_graph_view_scheme_init (GtkWidget        *view,
                                           SmprofFlameGraph *graph);

G_END_DECLS
