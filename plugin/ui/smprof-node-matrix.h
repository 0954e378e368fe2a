/* smprof-node-matrix.h: time per step of the top functions on each node, as a heat map
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-step-stats.h"

G_BEGIN_DECLS

/* The columns a new matrix shows per node, as `smprof steps` prints. */
#define SMPROF_NODE_MATRIX_DEFAULT_TOP_N 5

/* The colour scale saturates at this ratio to the other nodes either way
 * (the legend's ends, "×½" and "×2"): a function twice as slow on one node
 * is already the thing to look at, and a narrower range leaves the usual
 * 10–50 % differences of a straggler visible. */
#define SMPROF_NODE_MATRIX_SCALE_MAX 2.0

#define SMPROF_TYPE_NODE_MATRIX (smprof_node_matrix_get_type ())

G_DECLARE_FINAL_TYPE (SmprofNodeMatrix, smprof_node_matrix, SMPROF, NODE_MATRIX, GtkWidget)

GtkWidget       *smprof_node_matrix_new             (void);
void             smprof_node_matrix_set_step_stats  (SmprofNodeMatrix *self,
                                                     SmprofStepStats  *stats);
SmprofStepStats *smprof_node_matrix_get_step_stats  (SmprofNodeMatrix *self);
gboolean         smprof_node_matrix_get_computing   (SmprofNodeMatrix *self);
void             smprof_node_matrix_set_top_n       (SmprofNodeMatrix *self,
                                                     guint             top_n);
guint            smprof_node_matrix_get_top_n       (SmprofNodeMatrix *self);
void             smprof_node_matrix_set_pinned_function (SmprofNodeMatrix *self,
                                                     guint32           func);
guint32          smprof_node_matrix_get_pinned_function (SmprofNodeMatrix *self);
guint            smprof_node_matrix_get_n_nodes     (SmprofNodeMatrix *self);
guint            smprof_node_matrix_get_n_columns   (SmprofNodeMatrix *self);

void             smprof_node_matrix_ratio_color     (double            ratio,
                                                     gboolean          dark,
                                                     GdkRGBA          *color);

G_END_DECLS
