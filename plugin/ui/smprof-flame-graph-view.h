/* smprof-flame-graph-view.h: the flame graph with its search, zoom path and notes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-flame-graph.h"
#include "smprof-profile.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_FLAME_GRAPH_VIEW (smprof_flame_graph_view_get_type ())

G_DECLARE_FINAL_TYPE (SmprofFlameGraphView, smprof_flame_graph_view, SMPROF, FLAME_GRAPH_VIEW, GtkWidget)

GtkWidget        *smprof_flame_graph_view_new             (void);
SmprofProfile    *smprof_flame_graph_view_get_profile     (SmprofFlameGraphView *self);
void              smprof_flame_graph_view_set_profile     (SmprofFlameGraphView *self,
                                                           SmprofProfile        *profile);
SmprofFlameGraph *smprof_flame_graph_view_get_flame_graph (SmprofFlameGraphView *self);
GtkSearchEntry   *smprof_flame_graph_view_get_search_entry (SmprofFlameGraphView *self);

G_END_DECLS
