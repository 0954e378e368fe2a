/* smprof-node-matrix-view.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-node-matrix-view.h"
#include "smprof-ui.h"

/* Gradient stops of the legend, enough for the scale's five anchors to show. */
#define LEGEND_STOPS 17

struct _SmprofNodeMatrixView
{
  GtkWidget          parent_instance;

  /* Template widgets */
  GtkLabel          *explanation_label;
  GtkSpinButton     *top_n_spin;
  GtkBox            *legend_box;
  GtkDrawingArea    *legend_area;
  GtkStack          *stack;
  GtkScrolledWindow *scroller;
  SmprofNodeMatrix  *matrix;
  GtkLabel          *empty_label;
};

G_DEFINE_FINAL_TYPE (SmprofNodeMatrixView, smprof_node_matrix_view, GTK_TYPE_WIDGET)

static void
top_n_changed_cb (SmprofNodeMatrixView *self)
{
  smprof_node_matrix_set_top_n (self->matrix, (guint) gtk_spin_button_get_value_as_int (self->top_n_spin));
}

/* The legend spans the very colours the cells use, logarithmically from
 * 1 / SCALE_MAX to SCALE_MAX; the .ui's end labels say "×½" and "×2". */
static void
draw_legend (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  cairo_pattern_t *gradient = cairo_pattern_create_linear (0, 0, width, 0);
  gboolean dark = smprof_ui_widget_is_dark (GTK_WIDGET (area));
  GdkRGBA fg;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);

  for (guint i = 0; i < LEGEND_STOPS; i++)
    {
      double t = (double) i / (LEGEND_STOPS - 1);
      GdkRGBA color;

      smprof_node_matrix_ratio_color (pow (SMPROF_NODE_MATRIX_SCALE_MAX, 2 * t - 1), dark, &color);
      cairo_pattern_add_color_stop_rgb (gradient, t, color.red, color.green, color.blue);
    }

  cairo_rectangle (cr, 0, 0, width, height);
  cairo_set_source (cr, gradient);
  cairo_fill (cr);
  cairo_pattern_destroy (gradient);

  /* The middle, ×1: as fast as the others */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
  cairo_rectangle (cr, width / 2.0 - 0.5, 0, 1, height);
  cairo_fill (cr);
}

static void
update_state (SmprofNodeMatrixView *self)
{
  SmprofStepStats *stats = smprof_node_matrix_get_step_stats (self->matrix);
  const char *empty = NULL;

  if (stats == NULL)
    empty = _("No step statistics yet");
  else if (smprof_node_matrix_get_computing (self->matrix))
    empty = _("Finding each node’s top functions…");
  else if (smprof_node_matrix_get_n_nodes (self->matrix) < 2)
    empty = _("This job has one node: there is no other node to compare it with.");
  else if (smprof_node_matrix_get_n_columns (self->matrix) == 0)
    empty = _("No function took any time in these steps.");

  if (empty != NULL)
    gtk_label_set_label (self->empty_label, empty);
  gtk_stack_set_visible_child_name (self->stack, empty != NULL ? "empty" : "matrix");
  gtk_widget_set_sensitive (GTK_WIDGET (self->top_n_spin), empty == NULL);
}

static void
smprof_node_matrix_view_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), SMPROF_TYPE_NODE_MATRIX_VIEW);
  /* Template children without a bound field are not unparented for us. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (smprof_node_matrix_view_parent_class)->dispose (object);
}

static void
smprof_node_matrix_view_class_init (SmprofNodeMatrixViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_node_matrix_view_dispose;

  smprof_ui_ensure_resources ();
  g_type_ensure (SMPROF_TYPE_NODE_MATRIX);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-node-matrix-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, explanation_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, top_n_spin);
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, legend_box);
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, legend_area);
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, stack);
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, scroller);
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, matrix);
  gtk_widget_class_bind_template_child (widget_class, SmprofNodeMatrixView, empty_label);
  gtk_widget_class_bind_template_callback (widget_class, top_n_changed_cb);

  gtk_widget_class_set_css_name (widget_class, "nodematrixview");
}

static void
smprof_node_matrix_view_init (SmprofNodeMatrixView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_spin_button_set_value (self->top_n_spin, smprof_node_matrix_get_top_n (self->matrix));
  gtk_drawing_area_set_draw_func (self->legend_area, draw_legend, NULL, NULL);
  g_signal_connect_object (self->matrix, "notify::computing", G_CALLBACK (update_state), self, G_CONNECT_SWAPPED);
  update_state (self);
}

GtkWidget *
smprof_node_matrix_view_new (void)
{
  return g_object_new (SMPROF_TYPE_NODE_MATRIX_VIEW, NULL);
}

/**
 * smprof_node_matrix_view_set_step_stats:
 * @self: a #SmprofNodeMatrixView
 * @stats: (nullable): whole-job per-step statistics
 *
 * Shows @stats (the matrix takes a reference), or an explanation when there
 * is nothing to compare: no stats, or a single node.
 */
void
smprof_node_matrix_view_set_step_stats (SmprofNodeMatrixView *self,
                                        SmprofStepStats      *stats)
{
  g_return_if_fail (SMPROF_IS_NODE_MATRIX_VIEW (self));

  smprof_node_matrix_set_step_stats (self->matrix, stats);
  update_state (self);
}

/**
 * smprof_node_matrix_view_get_matrix:
 * @self: a #SmprofNodeMatrixView
 *
 * For its #SmprofNodeMatrix::node-activated and ::cell-activated signals.
 *
 * Returns: (transfer none): the matrix
 */
SmprofNodeMatrix *
smprof_node_matrix_view_get_matrix (SmprofNodeMatrixView *self)
{
  g_return_val_if_fail (SMPROF_IS_NODE_MATRIX_VIEW (self), NULL);

  return self->matrix;
}
