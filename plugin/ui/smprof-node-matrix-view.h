/* smprof-node-matrix-view.h: the node matrix with its header, legend and empty state
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-node-matrix.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_NODE_MATRIX_VIEW (smprof_node_matrix_view_get_type ())

G_DECLARE_FINAL_TYPE (SmprofNodeMatrixView, smprof_node_matrix_view, SMPROF, NODE_MATRIX_VIEW, GtkWidget)

GtkWidget        *smprof_node_matrix_view_new             (void);
void              smprof_node_matrix_view_set_step_stats  (SmprofNodeMatrixView *self,
                                                           SmprofStepStats      *stats);
SmprofNodeMatrix *smprof_node_matrix_view_get_matrix      (SmprofNodeMatrixView *self);

G_END_DECLS
