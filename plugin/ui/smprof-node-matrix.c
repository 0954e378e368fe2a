/* smprof-node-matrix.c: the node × function matrix, its data and its signals
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-background.h"
#include "smprof-node-matrix-private.h"
#include "smprof-ui-format.h"

enum {
  PROP_0,
  PROP_TOP_N,
  PROP_COMPUTING,
  N_PROPS
};

enum {
  NODE_ACTIVATED,
  CELL_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SmprofNodeMatrix, smprof_node_matrix, GTK_TYPE_WIDGET)

void
_smprof_node_matrix_invalidate (SmprofNodeMatrix *self)
{
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  g_clear_pointer (&self->rendered_columns, gsk_render_node_unref);
  g_clear_pointer (&self->rendered_rows, gsk_render_node_unref);
  self->rendered_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* How far the viewport the matrix is in has scrolled: the headers are drawn
 * that far in, so they stay at the view's top and left edges. */
void
_smprof_node_matrix_get_scroll (SmprofNodeMatrix *self,
                                double           *x,
                                double           *y)
{
  *x = self->hadjustment != NULL ? gtk_adjustment_get_value (self->hadjustment) : 0;
  *y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

static void
scrolled_cb (SmprofNodeMatrix *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (SmprofNodeMatrix  *self,
                GtkAdjustment    **slot,
                GtkAdjustment     *adjustment)
{
  if (*slot == adjustment)
    return;

  if (*slot != NULL)
    g_signal_handlers_disconnect_by_data (*slot, self);
  g_set_object (slot, adjustment);
  if (adjustment != NULL)
    g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (scrolled_cb), self);
}

/* The viewport's adjustments, whenever the matrix is put into one (a
 * scrolled window wraps it in a GtkViewport). */
void
_smprof_node_matrix_watch_scroll (SmprofNodeMatrix *self)
{
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self));
  GtkScrollable *viewport = parent != NULL && GTK_IS_VIEWPORT (parent) ? GTK_SCROLLABLE (parent) : NULL;

  set_adjustment (self, &self->hadjustment, viewport != NULL ? gtk_scrollable_get_hadjustment (viewport) : NULL);
  set_adjustment (self, &self->vadjustment, viewport != NULL ? gtk_scrollable_get_vadjustment (viewport) : NULL);
}

guint
_smprof_node_matrix_n_columns (SmprofNodeMatrix *self)
{
  return self->columns != NULL ? self->columns->len : 0;
}

static void
clear_data (SmprofNodeMatrix *self)
{
  g_clear_pointer (&self->columns, g_array_unref);
  g_clear_pointer (&self->names, g_strfreev);
  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->ratios, g_free);
  g_clear_pointer (&self->n_steps, g_free);
  g_clear_pointer (&self->n_straggler_steps, g_free);
  g_clear_pointer (&self->straggler_steps, g_strfreev);
  self->n_nodes = 0;
}

static void
apply_data (SmprofNodeMatrix     *self,
            SmprofNodeMatrixData *data)
{
  clear_data (self);
  self->hover_row = self->hover_col = -1;

  if (data != NULL)
    {
      self->n_nodes = data->n_nodes;
      self->columns = g_steal_pointer (&data->columns);
      self->names = g_steal_pointer (&data->names);
      self->values = g_steal_pointer (&data->values);
      self->ratios = g_steal_pointer (&data->ratios);
      self->n_steps = g_steal_pointer (&data->n_steps);
      self->n_straggler_steps = g_steal_pointer (&data->n_straggler_steps);
      self->straggler_steps = g_steal_pointer (&data->straggler_steps);
    }

  if (self->focus_row >= (int) self->n_nodes)
    self->focus_row = (int) self->n_nodes - 1;
  if (self->focus_col >= (int) _smprof_node_matrix_n_columns (self))
    self->focus_col = (int) _smprof_node_matrix_n_columns (self) - 1;

  _smprof_node_matrix_update_geometry (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  _smprof_node_matrix_invalidate (self);
  _smprof_node_matrix_set_focus (self, self->focus_row, self->focus_col);
}

static void
compute_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  SmprofStepStats *stats = task_data;
  guint top_n = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "smprof-top-n"));
  guint32 pinned = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "smprof-pinned"));

  if (g_task_return_error_if_cancelled (task))
    return;

  g_task_return_pointer (task, _smprof_node_matrix_data_new (stats, top_n, pinned),
                         (GDestroyNotify) _smprof_node_matrix_data_free);
}

static void
compute_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (object);
  g_autoptr(SmprofNodeMatrixData) data = NULL;

  data = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Other statistics, another top_n or pinned function since: dropped. */
  if (data == NULL || g_task_get_task_data (G_TASK (result)) != self->stats ||
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (result), "smprof-top-n")) != self->top_n ||
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (result), "smprof-pinned")) != self->pinned)
    return;

  g_clear_object (&self->cancellable);
  apply_data (self, data);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPUTING]);
}

/* The columns and cells of the statistics come from a worker: on a job of
 * hundreds of nodes they take a moment, which the main loop must not wait. */
static void
rebuild (SmprofNodeMatrix *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->stats == NULL)
    {
      apply_data (self, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPUTING]);
      return;
    }

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, compute_cb, NULL);
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, smprof_step_stats_ref (self->stats), (GDestroyNotify) smprof_step_stats_unref);
  g_object_set_data (G_OBJECT (task), "smprof-top-n", GUINT_TO_POINTER (self->top_n));
  g_object_set_data (G_OBJECT (task), "smprof-pinned", GUINT_TO_POINTER (self->pinned));
  smprof_task_run_in_background (task, compute_in_thread);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPUTING]);
}

const char *
_smprof_node_matrix_get_node_id (SmprofNodeMatrix *self,
                                 guint             row)
{
  g_return_val_if_fail (row < self->n_nodes, NULL);

  return smprof_step_stats_get_node_ids (self->stats)[row];
}

/* The stats' function index (as smprof_step_stats_top_functions() lists it) of column @col. */
guint
_smprof_node_matrix_get_column_function (SmprofNodeMatrix *self,
                                         guint             col)
{
  g_return_val_if_fail (col < _smprof_node_matrix_n_columns (self), G_MAXUINT);

  return g_array_index (self->columns, guint, col);
}

/* Seconds per step, as the cell shows it in milliseconds. */
double
_smprof_node_matrix_get_value (SmprofNodeMatrix *self,
                               guint             row,
                               guint             col)
{
  g_return_val_if_fail (row < self->n_nodes && col < _smprof_node_matrix_n_columns (self), NAN);

  return self->values[row * self->columns->len + col];
}

double
_smprof_node_matrix_get_ratio (SmprofNodeMatrix *self,
                               guint             row,
                               guint             col)
{
  g_return_val_if_fail (row < self->n_nodes && col < _smprof_node_matrix_n_columns (self), NAN);

  return self->ratios[row * self->columns->len + col];
}

gboolean
_smprof_node_matrix_is_straggler (SmprofNodeMatrix *self,
                                  guint             row)
{
  g_return_val_if_fail (row < self->n_nodes, FALSE);

  return self->n_straggler_steps[row] > 0;
}

/* The function's full label, "name (file:line)" or a built-in's label. */
char *
_smprof_node_matrix_dup_function_label (SmprofNodeMatrix *self,
                                        guint             col)
{
  SmprofFunctionKeys *table = smprof_job_get_function_keys (smprof_step_stats_get_job (self->stats));
  guint32             func = smprof_step_stats_get_function (self->stats, _smprof_node_matrix_get_column_function (self, col))->func;

  return smprof_function_keys_dup_label (table, func);
}

/* A row header (@col -1) asks to compare its node with the others; a cell
 * to look at that function on that node. */
void
_smprof_node_matrix_activate (SmprofNodeMatrix *self,
                              int               row,
                              int               col)
{
  const char *node_id;

  if (row < 0 || row >= (int) self->n_nodes || col >= (int) _smprof_node_matrix_n_columns (self))
    return;

  node_id = _smprof_node_matrix_get_node_id (self, row);
  if (col < 0)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, node_id);
  else
    g_signal_emit (self, signals[CELL_ACTIVATED], 0, node_id,
                   smprof_step_stats_get_function (self->stats, _smprof_node_matrix_get_column_function (self, col))->func);
}

static void
smprof_node_matrix_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (widget);
  guint n_columns = _smprof_node_matrix_n_columns (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = self->row_header_width + n_columns * SMPROF_NODE_MATRIX_MIN_CELL;
      *natural = self->row_header_width + n_columns * SMPROF_NODE_MATRIX_NAT_CELL;
    }
  else
    *minimum = *natural = SMPROF_NODE_MATRIX_HEADER_HEIGHT + self->n_nodes * SMPROF_NODE_MATRIX_CELL_HEIGHT;
}

static void
smprof_node_matrix_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (widget);

  if (width == self->rendered_width && height == self->rendered_height)
    return;

  self->rendered_width = width;
  self->rendered_height = height;
  _smprof_node_matrix_invalidate (self);
}

static void
smprof_node_matrix_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (widget);

  GTK_WIDGET_CLASS (smprof_node_matrix_parent_class)->css_changed (widget, change);

  /* The font may have changed too: the row header follows the node ids' width. */
  _smprof_node_matrix_update_dark (self);
  _smprof_node_matrix_update_geometry (self);
  gtk_widget_queue_resize (widget);
  _smprof_node_matrix_invalidate (self);
}

static void
smprof_node_matrix_state_flags_changed (GtkWidget     *widget,
                                        GtkStateFlags  previous)
{
  GTK_WIDGET_CLASS (smprof_node_matrix_parent_class)->state_flags_changed (widget, previous);

  /* The focus cell's outline shows only while focused. */
  if ((previous ^ gtk_widget_get_state_flags (widget)) & (GTK_STATE_FLAG_FOCUSED | GTK_STATE_FLAG_FOCUS_VISIBLE))
    gtk_widget_queue_draw (widget);
}

static void
smprof_node_matrix_finalize (GObject *object)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (object);

  clear_data (self);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->stats, smprof_step_stats_unref);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  g_clear_pointer (&self->rendered_columns, gsk_render_node_unref);
  g_clear_pointer (&self->rendered_rows, gsk_render_node_unref);
  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);

  G_OBJECT_CLASS (smprof_node_matrix_parent_class)->finalize (object);
}

static void
smprof_node_matrix_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (object);

  switch (prop_id)
    {
    case PROP_COMPUTING:
      g_value_set_boolean (value, self->cancellable != NULL);
      break;

    case PROP_TOP_N:
      g_value_set_uint (value, self->top_n);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_node_matrix_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  SmprofNodeMatrix *self = SMPROF_NODE_MATRIX (object);

  switch (prop_id)
    {
    case PROP_TOP_N:
      smprof_node_matrix_set_top_n (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_node_matrix_class_init (SmprofNodeMatrixClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = smprof_node_matrix_finalize;
  object_class->get_property = smprof_node_matrix_get_property;
  object_class->set_property = smprof_node_matrix_set_property;

  widget_class->snapshot = _smprof_node_matrix_snapshot;
  widget_class->measure = smprof_node_matrix_measure;
  widget_class->size_allocate = smprof_node_matrix_size_allocate;
  widget_class->css_changed = smprof_node_matrix_css_changed;
  widget_class->state_flags_changed = smprof_node_matrix_state_flags_changed;

  /**
   * SmprofNodeMatrix:top-n:
   *
   * How many functions of each node become columns; the columns are the
   * union of every node's top functions (smprof_step_stats_top_functions()).
   */
  /**
   * SmprofNodeMatrix:computing:
   *
   * The columns and cells of the statistics are being computed.
   */
  properties[PROP_COMPUTING] =
    g_param_spec_boolean ("computing", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_TOP_N] =
    g_param_spec_uint ("top-n", NULL, NULL, 1, 1000, SMPROF_NODE_MATRIX_DEFAULT_TOP_N,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SmprofNodeMatrix::node-activated:
   * @self: the matrix
   * @node_id: the node whose row header was clicked or activated
   *
   * Asks to compare @node_id with the other nodes.
   */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * SmprofNodeMatrix::cell-activated:
   * @self: the matrix
   * @node_id: the cell's node
   * @func: the cell's function, an id of the job's #SmprofFunctionKeys
   *
   * A cell was clicked, or activated from the keyboard.
   */
  signals[CELL_ACTIVATED] =
    g_signal_new ("cell-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_UINT);

  _smprof_node_matrix_class_init_input (widget_class);

  gtk_widget_class_set_css_name (widget_class, "nodematrix");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
smprof_node_matrix_init (SmprofNodeMatrix *self)
{
  self->top_n = SMPROF_NODE_MATRIX_DEFAULT_TOP_N;
  self->pinned = G_MAXUINT32;
  self->hover_row = self->hover_col = -1;
  self->focus_row = 0;
  self->focus_col = -1;

  g_signal_connect (self, "notify::parent", G_CALLBACK (_smprof_node_matrix_watch_scroll), NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Time per step by node and function"),
                                  -1);

  _smprof_node_matrix_init_input (self);
  _smprof_node_matrix_update_geometry (self);
}

GtkWidget *
smprof_node_matrix_new (void)
{
  return g_object_new (SMPROF_TYPE_NODE_MATRIX, NULL);
}

/**
 * smprof_node_matrix_set_step_stats:
 * @self: a #SmprofNodeMatrix
 * @stats: (nullable): whole-job per-step statistics
 *
 * Shows @stats, taking a reference (smprof_step_stats_ref()): the caller
 * may drop its own at once. %NULL shows nothing.
 */
void
smprof_node_matrix_set_step_stats (SmprofNodeMatrix *self,
                                   SmprofStepStats  *stats)
{
  g_return_if_fail (SMPROF_IS_NODE_MATRIX (self));

  if (stats == self->stats)
    return;

  if (stats != NULL)
    smprof_step_stats_ref (stats);
  g_clear_pointer (&self->stats, smprof_step_stats_unref);
  self->stats = stats;

  self->focus_row = 0;
  self->focus_col = -1;
  rebuild (self);
}

/**
 * smprof_node_matrix_get_step_stats:
 * @self: a #SmprofNodeMatrix
 *
 * Returns: (transfer none) (nullable): the stats shown
 */
SmprofStepStats *
smprof_node_matrix_get_step_stats (SmprofNodeMatrix *self)
{
  g_return_val_if_fail (SMPROF_IS_NODE_MATRIX (self), NULL);

  return self->stats;
}

void
smprof_node_matrix_set_top_n (SmprofNodeMatrix *self,
                              guint             top_n)
{
  g_return_if_fail (SMPROF_IS_NODE_MATRIX (self));
  g_return_if_fail (top_n >= 1);

  if (top_n == self->top_n)
    return;

  self->top_n = top_n;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOP_N]);
}

/**
 * smprof_node_matrix_set_pinned_function:
 * @self: a #SmprofNodeMatrix
 * @func: a function id of the job's keys, or %G_MAXUINT32 for none
 *
 * Shows @func's column first, beside the top functions, to compare it
 * across nodes ("Compare Across Nodes" of a function's menu).
 */
void
smprof_node_matrix_set_pinned_function (SmprofNodeMatrix *self,
                                        guint32           func)
{
  g_return_if_fail (SMPROF_IS_NODE_MATRIX (self));

  if (func == self->pinned)
    return;

  self->pinned = func;
  rebuild (self);
}

guint32
smprof_node_matrix_get_pinned_function (SmprofNodeMatrix *self)
{
  g_return_val_if_fail (SMPROF_IS_NODE_MATRIX (self), G_MAXUINT32);

  return self->pinned;
}

guint
smprof_node_matrix_get_top_n (SmprofNodeMatrix *self)
{
  g_return_val_if_fail (SMPROF_IS_NODE_MATRIX (self), 0);

  return self->top_n;
}

guint
smprof_node_matrix_get_n_nodes (SmprofNodeMatrix *self)
{
  g_return_val_if_fail (SMPROF_IS_NODE_MATRIX (self), 0);

  return self->n_nodes;
}

guint
smprof_node_matrix_get_n_columns (SmprofNodeMatrix *self)
{
  g_return_val_if_fail (SMPROF_IS_NODE_MATRIX (self), 0);

  return _smprof_node_matrix_n_columns (self);
}

/**
 * smprof_node_matrix_get_computing:
 * @self: a #SmprofNodeMatrix
 *
 * Returns: whether the matrix of its statistics is being computed (on a
 *   worker); it shows nothing of them until then
 */
gboolean
smprof_node_matrix_get_computing (SmprofNodeMatrix *self)
{
  g_return_val_if_fail (SMPROF_IS_NODE_MATRIX (self), FALSE);

  return self->cancellable != NULL;
}
