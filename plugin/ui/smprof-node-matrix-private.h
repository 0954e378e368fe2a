/* smprof-node-matrix-private.h: what the node matrix's files share, and its tests
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-node-matrix.h"
#include "smprof-node-matrix-data.h"

G_BEGIN_DECLS

#define SMPROF_NODE_MATRIX_HEADER_HEIGHT 120
#define SMPROF_NODE_MATRIX_CELL_HEIGHT   28
#define SMPROF_NODE_MATRIX_MIN_CELL      28
#define SMPROF_NODE_MATRIX_NAT_CELL      84
#define SMPROF_NODE_MATRIX_MAX_CELL      120
#define SMPROF_NODE_MATRIX_PADDING       6
/* The strip that marks a straggler's row header */
#define SMPROF_NODE_MATRIX_MARK_WIDTH    6

/* What a point of the widget is over. */
typedef enum
{
  SMPROF_NODE_MATRIX_NOWHERE,
  SMPROF_NODE_MATRIX_ROW_HEADER,
  SMPROF_NODE_MATRIX_COLUMN_HEADER,
  SMPROF_NODE_MATRIX_CELL,
} SmprofNodeMatrixPart;

struct _SmprofNodeMatrix
{
  GtkWidget        parent_instance;

  SmprofStepStats *stats;           /* a reference, or NULL */
  guint            top_n;
  guint32          pinned;    /* a function shown first, or G_MAXUINT32 */
  GCancellable    *cancellable;     /* the columns being computed, or NULL */

  /* From the stats, for the top_n columns */
  guint            n_nodes;
  GArray          *columns;         /* guint: function indices of the stats */
  char           **names;           /* short name per column */
  double          *values;          /* seconds per step, n_nodes × n_columns, row-major */
  double          *ratios;          /* value / the other nodes' median; NAN without others */
  guint           *n_steps;         /* per node */
  guint           *n_straggler_steps; /* per node */
  char           **straggler_steps; /* per node: its straggler steps, "global 19, …" */

  /* Geometry, from the font and the node ids */
  int              row_header_width;

  /* Drawing: the cells, and the headers apart, which stay in view when the
   * matrix scrolls in its viewport (the adjustments, watched) */
  GskRenderNode   *rendered;
  GskRenderNode   *rendered_columns;
  GskRenderNode   *rendered_rows;
  GtkAdjustment   *hadjustment;
  GtkAdjustment   *vadjustment;
  gboolean         rendered_valid;
  int              rendered_width;
  int              rendered_height;
  gboolean         dark;

  /* Pointer and keyboard: col -1 is the row header */
  int              hover_row;
  int              hover_col;
  int              focus_row;
  int              focus_col;
};

/* smprof-node-matrix.c */
guint                 _smprof_node_matrix_n_columns        (SmprofNodeMatrix *self);
const char           *_smprof_node_matrix_get_node_id      (SmprofNodeMatrix *self,
                                                            guint             row);
guint                 _smprof_node_matrix_get_column_function (SmprofNodeMatrix *self,
                                                               guint             col);
double                _smprof_node_matrix_get_value        (SmprofNodeMatrix *self,
                                                            guint             row,
                                                            guint             col);
double                _smprof_node_matrix_get_ratio        (SmprofNodeMatrix *self,
                                                            guint             row,
                                                            guint             col);
gboolean              _smprof_node_matrix_is_straggler     (SmprofNodeMatrix *self,
                                                            guint             row);
char                 *_smprof_node_matrix_dup_function_label (SmprofNodeMatrix *self,
                                                              guint             col);
char                 *_smprof_node_matrix_dup_tooltip      (SmprofNodeMatrix *self,
                                                            int               row,
                                                            int               col);
void                  _smprof_node_matrix_activate         (SmprofNodeMatrix *self,
                                                            int               row,
                                                            int               col);
void                  _smprof_node_matrix_set_focus        (SmprofNodeMatrix *self,
                                                            int               row,
                                                            int               col);
void                  _smprof_node_matrix_invalidate       (SmprofNodeMatrix *self);
void                  _smprof_node_matrix_get_scroll       (SmprofNodeMatrix *self,
                                                            double           *x,
                                                            double           *y);
void                  _smprof_node_matrix_watch_scroll     (SmprofNodeMatrix *self);

/* smprof-node-matrix-draw.c */
int                   _smprof_node_matrix_cell_width       (SmprofNodeMatrix *self,
                                                            int               width);
void                  _smprof_node_matrix_get_area         (SmprofNodeMatrix *self,
                                                            int               row,
                                                            int               col,
                                                            graphene_rect_t  *area);
SmprofNodeMatrixPart  _smprof_node_matrix_hit_test         (SmprofNodeMatrix *self,
                                                            double            x,
                                                            double            y,
                                                            int              *row,
                                                            int              *col);
void                  _smprof_node_matrix_update_geometry  (SmprofNodeMatrix *self);
gboolean              _smprof_node_matrix_update_dark      (SmprofNodeMatrix *self);
void                  _smprof_node_matrix_snapshot         (GtkWidget        *widget,
                                                            GtkSnapshot      *snapshot);

/* smprof-node-matrix-input.c */
void                  _smprof_node_matrix_class_init_input (GtkWidgetClass   *widget_class);
void                  _smprof_node_matrix_init_input       (SmprofNodeMatrix *self);
void                  _smprof_node_matrix_click_at         (SmprofNodeMatrix *self,
                                                            double            x,
                                                            double            y);
void                  _smprof_node_matrix_hover_at         (SmprofNodeMatrix *self,
                                                            double            x,
                                                            double            y);

G_END_DECLS
