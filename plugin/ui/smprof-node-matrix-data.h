/* smprof-node-matrix-data.h: what the node matrix shows, computed apart
 * from the widget (on a worker thread)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-step-stats.h"

G_BEGIN_DECLS

typedef struct
{
  guint    n_nodes;
  GArray  *columns;            /* guint: function indices of the stats */
  char   **names;              /* short name per column */
  double  *values;             /* seconds per step, n_nodes × n_columns, row-major */
  double  *ratios;             /* value / the other nodes' median; NAN without others */
  guint   *n_steps;            /* per node */
  guint   *n_straggler_steps;  /* per node */
  char   **straggler_steps;    /* per node: its straggler steps, "global 19, …" */
} SmprofNodeMatrixData;

SmprofNodeMatrixData *_smprof_node_matrix_data_new  (SmprofStepStats      *stats,
                                                    guint                 top_n,
                                                    guint32               pinned);
void                  _smprof_node_matrix_data_free (SmprofNodeMatrixData *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofNodeMatrixData, _smprof_node_matrix_data_free)

G_END_DECLS
