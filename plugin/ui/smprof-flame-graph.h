/* smprof-flame-graph.h: a flame graph of an aggregated selection
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-diff.h"
#include "smprof-profile.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_FLAME_GRAPH (smprof_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (SmprofFlameGraph, smprof_flame_graph, SMPROF, FLAME_GRAPH, GtkWidget)

GtkWidget     *smprof_flame_graph_new                 (void);
SmprofProfile *smprof_flame_graph_get_profile         (SmprofFlameGraph *self);
void           smprof_flame_graph_set_profile         (SmprofFlameGraph *self,
                                                       SmprofProfile    *profile);
guint32        smprof_flame_graph_get_zoom_node       (SmprofFlameGraph *self);
void           smprof_flame_graph_zoom_to_node        (SmprofFlameGraph *self,
                                                       guint32           node);
gboolean       smprof_flame_graph_zoom_out            (SmprofFlameGraph *self);
void           smprof_flame_graph_reset_zoom          (SmprofFlameGraph *self);
gboolean       smprof_flame_graph_get_can_zoom_out    (SmprofFlameGraph *self);
const char    *smprof_flame_graph_get_search_text     (SmprofFlameGraph *self);
void           smprof_flame_graph_set_search_text     (SmprofFlameGraph *self,
                                                       const char       *text);
double         smprof_flame_graph_get_matched_fraction (SmprofFlameGraph *self);
guint32        smprof_flame_graph_get_selected_node   (SmprofFlameGraph *self);
const char    *smprof_flame_graph_get_color_scheme    (SmprofFlameGraph *self);
void           smprof_flame_graph_set_color_scheme    (SmprofFlameGraph *self,
                                                       const char       *scheme);
char          *smprof_flame_graph_dup_node_details    (SmprofFlameGraph *self,
                                                       guint32           node);
void           smprof_flame_graph_set_diff            (SmprofFlameGraph *self,
                                                       SmprofDiff       *diff);
SmprofDiff    *smprof_flame_graph_get_diff            (SmprofFlameGraph *self);
void           smprof_flame_graph_set_min_delta       (SmprofFlameGraph *self,
                                                       double            seconds);

G_END_DECLS
