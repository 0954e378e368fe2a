/* smprof-node-matrix.c: the node × function matrix, its data and its signals
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-node-matrix-private.h"
#include "smprof-ui-format.h"

enum {
  PROP_0,
  PROP_TOP_N,
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
  self->rendered_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
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

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Each cell against the median of the same column on the other nodes: the
 * comparison the core's straggler rule makes, and with two nodes simply the
 * other node (the median over all nodes would be the mean of the two and
 * halve the contrast). */
static void
compute_ratios (SmprofNodeMatrix *self)
{
  guint n_columns = _smprof_node_matrix_n_columns (self);
  g_autofree double *others = g_new (double, MAX (self->n_nodes, 1));

  for (guint c = 0; c < n_columns; c++)
    for (guint row = 0; row < self->n_nodes; row++)
      {
        double value = self->values[row * n_columns + c];
        double median;
        guint n = 0;

        for (guint other = 0; other < self->n_nodes; other++)
          if (other != row && !isnan (self->values[other * n_columns + c]))
            others[n++] = self->values[other * n_columns + c];

        if (n == 0 || isnan (value))
          {
            self->ratios[row * n_columns + c] = NAN;
            continue;
          }

        qsort (others, n, sizeof (double), compare_doubles);
        median = smprof_step_quantile (others, n, 0.5);
        if (median > 0)
          self->ratios[row * n_columns + c] = value / median;
        else
          self->ratios[row * n_columns + c] = value > 0 ? INFINITY : 1;
      }
}

static void
collect_stragglers (SmprofNodeMatrix *self)
{
  const char * const *node_ids = smprof_step_stats_get_node_ids (self->stats);
  guint n_steps = smprof_step_stats_get_n_steps (self->stats);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  self->n_straggler_steps = g_new0 (guint, MAX (self->n_nodes, 1));

  for (guint row = 0; row < self->n_nodes; row++)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint i = 0; i < n_steps; i++)
        {
          const SmprofStep *step = smprof_step_stats_get_step (self->stats, i);

          if (!step->straggler || strcmp (step->node_id, node_ids[row]) != 0)
            continue;

          if (self->n_straggler_steps[row]++ > 0)
            g_string_append (text, ", ");
          g_string_append_printf (text, "%s %" G_GINT64_FORMAT, smprof_mode_to_string (step->mode), step->step);
        }
      g_ptr_array_add (texts, g_string_free (g_steal_pointer (&text), FALSE));
    }
  g_ptr_array_add (texts, NULL);
  self->straggler_steps = (char **) g_ptr_array_free (g_steal_pointer (&texts), FALSE);
}

/* Column headers are narrow: cProfile's built-in labels lose their wrapping,
 * "{built-in method time.sleep}" reads "time.sleep" and "{method 'run' of
 * 'X' objects}" reads "run". The tooltip keeps the full label. */
static char *
dup_short_name (SmprofFunctionKeys *table,
                guint32             func)
{
  g_autofree char *name = smprof_ui_dup_func_name (table, func);
  gsize length = strlen (name);
  const char *inner, *quote;

  if (length < 2 || name[0] != '{' || name[length - 1] != '}')
    return g_steal_pointer (&name);

  name[length - 1] = '\0';
  inner = name + 1;
  if (g_str_has_prefix (inner, "built-in method "))
    return g_strdup (inner + strlen ("built-in method "));
  if (g_str_has_prefix (inner, "method '") && (quote = strchr (inner + strlen ("method '"), '\'')) != NULL)
    return g_strndup (inner + strlen ("method '"), quote - (inner + strlen ("method '")));

  return g_strdup (inner);
}

static void
rebuild (SmprofNodeMatrix *self)
{
  const char * const *node_ids;
  SmprofFunctionKeys *table;
  guint               n_columns;

  clear_data (self);
  self->hover_row = self->hover_col = -1;

  if (self->stats != NULL)
    {
      node_ids = smprof_step_stats_get_node_ids (self->stats);
      table = smprof_job_get_function_keys (smprof_step_stats_get_job (self->stats));
      self->n_nodes = g_strv_length ((char **) node_ids);
      self->columns = smprof_step_stats_top_functions (self->stats, self->top_n);
      n_columns = self->columns->len;

      self->names = g_new0 (char *, n_columns + 1);
      for (guint c = 0; c < n_columns; c++)
        self->names[c] = dup_short_name (table,
                                         smprof_step_stats_get_function (self->stats,
                                                                         g_array_index (self->columns, guint, c))->func);

      self->values = g_new (double, MAX (self->n_nodes * n_columns, 1));
      self->ratios = g_new (double, MAX (self->n_nodes * n_columns, 1));
      self->n_steps = g_new0 (guint, MAX (self->n_nodes, 1));
      for (guint row = 0; row < self->n_nodes; row++)
        {
          smprof_step_stats_get_node_function_time (self->stats, node_ids[row], G_MAXUINT, &self->n_steps[row]);
          for (guint c = 0; c < n_columns; c++)
            {
              double time = smprof_step_stats_get_node_function_time (self->stats, node_ids[row],
                                                                      g_array_index (self->columns, guint, c), NULL);

              /* A node without a step has no time per step, not 0. */
              self->values[row * n_columns + c] = self->n_steps[row] > 0 ? time / self->n_steps[row] : NAN;
            }
        }
      compute_ratios (self);
      collect_stragglers (self);
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
  g_clear_pointer (&self->stats, smprof_step_stats_unref);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);

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
  self->hover_row = self->hover_col = -1;
  self->focus_row = 0;
  self->focus_col = -1;

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
