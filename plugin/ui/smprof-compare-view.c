/* smprof-compare-view.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-compare-view.h"
#include "smprof-core-enums.h"
#include "smprof-paned-memory.h"
#include "smprof-ui.h"
#include "smprof-timeline-compare.h"

struct _SmprofCompareView
{
  GtkWidget            parent_instance;

  SmprofDiffNormalize  normalize;
  double               min_delta;

  GtkDrawingArea      *a_swatch;
  GtkDrawingArea      *b_swatch;
  GtkLabel            *a_label;
  GtkLabel            *b_label;
  GtkLabel            *status_label;
  GtkDropDown         *normalize_dropdown;
  GtkAdjustment       *min_delta_adjustment;
  GtkPaned            *paned;
  GtkScrolledWindow   *graph_scroller;
  SmprofFlameGraph    *flame_graph;
  SmprofDiffTable     *table;
};

/* The differential graph's share of the height: the table keeps the rest,
 * more than half of the view with the header above them. */
#define GRAPH_SHARE 0.4

enum {
  PROP_0,
  PROP_NORMALIZE,
  PROP_MIN_DELTA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofCompareView, smprof_compare_view, GTK_TYPE_WIDGET)

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  SmprofDiffSide side = GPOINTER_TO_INT (user_data);
  gboolean dark = smprof_ui_widget_is_dark (GTK_WIDGET (area));
  GdkRGBA fill, edge;

  smprof_timeline_compare_color (side, dark, 0.45, &fill);
  smprof_timeline_compare_color (side, dark, 1.0, &edge);
  gdk_cairo_set_source_rgba (cr, &fill);
  cairo_rectangle (cr, 0.5, 0.5, width - 1, height - 1);
  cairo_fill_preserve (cr);
  gdk_cairo_set_source_rgba (cr, &edge);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
normalize_changed_cb (SmprofCompareView *self)
{
  smprof_compare_view_set_normalize (self, gtk_drop_down_get_selected (self->normalize_dropdown));
}

static void
min_delta_changed_cb (SmprofCompareView *self)
{
  smprof_compare_view_set_min_delta (self, gtk_adjustment_get_value (self->min_delta_adjustment) / 1000);
}

static void
smprof_compare_view_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), SMPROF_TYPE_COMPARE_VIEW);
  /* Template children without a bound field are not unparented for us. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (smprof_compare_view_parent_class)->dispose (object);
}

static void
smprof_compare_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SmprofCompareView *self = SMPROF_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_NORMALIZE:
      g_value_set_enum (value, self->normalize);
      break;
    case PROP_MIN_DELTA:
      g_value_set_double (value, self->min_delta);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_compare_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SmprofCompareView *self = SMPROF_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_NORMALIZE:
      smprof_compare_view_set_normalize (self, g_value_get_enum (value));
      break;
    case PROP_MIN_DELTA:
      smprof_compare_view_set_min_delta (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_compare_view_class_init (SmprofCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = smprof_compare_view_dispose;
  object_class->get_property = smprof_compare_view_get_property;
  object_class->set_property = smprof_compare_view_set_property;

  /**
   * SmprofCompareView:normalize:
   *
   * The SmprofDiffNormalize the user chose, %SMPROF_DIFF_NORMALIZE_AUTO
   * unless told (smprof_diff_normalize_resolve()); whoever builds the diff
   * watches it and builds it again.
   */
  properties[PROP_NORMALIZE] =
    g_param_spec_enum ("normalize", NULL, NULL, SMPROF_TYPE_DIFF_NORMALIZE, SMPROF_DIFF_NORMALIZE_AUTO, flags);

  /**
   * SmprofCompareView:min-delta:
   *
   * Seconds: smaller changes are grey in the flame graph and left out of
   * the table.
   */
  properties[PROP_MIN_DELTA] =
    g_param_spec_double ("min-delta", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SMPROF_TYPE_FLAME_GRAPH);
  g_type_ensure (SMPROF_TYPE_DIFF_TABLE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, paned);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, graph_scroller);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, a_swatch);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, b_swatch);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, a_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, b_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, status_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, normalize_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, min_delta_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, SmprofCompareView, table);
  gtk_widget_class_bind_template_callback (widget_class, normalize_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, min_delta_changed_cb);
}

static int
graph_position (GtkPaned *paned,
                int       height,
                gpointer  user_data)
{
  return (int) (height * GRAPH_SHARE);
}

static void
smprof_compare_view_init (SmprofCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The roots are the graph's bottom row: in view however short it is. */
  smprof_ui_follow_scroll_end (self->graph_scroller);
  smprof_paned_memory_attach (self->paned, "compare-graph-height", graph_position, NULL, NULL);

  /* The core's default: per step when the sides cover different numbers of steps */
  self->normalize = SMPROF_DIFF_NORMALIZE_AUTO;
  gtk_drop_down_set_selected (self->normalize_dropdown, SMPROF_DIFF_NORMALIZE_AUTO);

  gtk_drawing_area_set_draw_func (self->a_swatch, draw_swatch, GINT_TO_POINTER (SMPROF_DIFF_A), NULL);
  gtk_drawing_area_set_draw_func (self->b_swatch, draw_swatch, GINT_TO_POINTER (SMPROF_DIFF_B), NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
}

GtkWidget *
smprof_compare_view_new (void)
{
  return g_object_new (SMPROF_TYPE_COMPARE_VIEW, NULL);
}

/**
 * smprof_compare_view_set_diff:
 * @self: a compare view
 * @diff: (nullable): the comparison
 * @a_label: (nullable): selection A in words
 * @b_label: (nullable): selection B in words
 */
void
smprof_compare_view_set_diff (SmprofCompareView *self,
                              SmprofDiff        *diff,
                              const char        *a_label,
                              const char        *b_label)
{
  g_autofree char *a_text = NULL;
  g_autofree char *b_text = NULL;

  g_return_if_fail (SMPROF_IS_COMPARE_VIEW (self));
  g_return_if_fail (diff == NULL || SMPROF_IS_DIFF (diff));

  /* Translators: the two sides of a comparison, as in "A: Steps 0–4" */
  a_text = g_strdup_printf (_("A: %s"), a_label != NULL ? a_label : "");
  b_text = g_strdup_printf (_("B: %s"), b_label != NULL ? b_label : "");
  gtk_label_set_text (self->a_label, a_text);
  gtk_label_set_text (self->b_label, b_text);

  smprof_flame_graph_set_diff (self->flame_graph, diff);
  smprof_diff_table_set_diff (self->table, diff);
  smprof_ui_scroll_to_end (self->graph_scroller);
}

SmprofDiff *
smprof_compare_view_get_diff (SmprofCompareView *self)
{
  g_return_val_if_fail (SMPROF_IS_COMPARE_VIEW (self), NULL);

  return smprof_diff_table_get_diff (self->table);
}

/**
 * smprof_compare_view_set_status:
 * @self: a compare view
 * @message: (nullable): what the page waits for, or why there is no
 *   comparison; %NULL hides it
 */
void
smprof_compare_view_set_status (SmprofCompareView *self,
                                const char        *message)
{
  g_return_if_fail (SMPROF_IS_COMPARE_VIEW (self));

  gtk_label_set_text (self->status_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), message != NULL);
}

SmprofDiffNormalize
smprof_compare_view_get_normalize (SmprofCompareView *self)
{
  g_return_val_if_fail (SMPROF_IS_COMPARE_VIEW (self), SMPROF_DIFF_NORMALIZE_NONE);

  return self->normalize;
}

void
smprof_compare_view_set_normalize (SmprofCompareView   *self,
                                   SmprofDiffNormalize  normalize)
{
  g_return_if_fail (SMPROF_IS_COMPARE_VIEW (self));
  g_return_if_fail (normalize <= SMPROF_DIFF_NORMALIZE_AUTO);

  if (normalize == self->normalize)
    return;

  self->normalize = normalize;
  gtk_drop_down_set_selected (self->normalize_dropdown, normalize);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NORMALIZE]);
}

double
smprof_compare_view_get_min_delta (SmprofCompareView *self)
{
  g_return_val_if_fail (SMPROF_IS_COMPARE_VIEW (self), 0);

  return self->min_delta;
}

void
smprof_compare_view_set_min_delta (SmprofCompareView *self,
                                   double             seconds)
{
  g_return_if_fail (SMPROF_IS_COMPARE_VIEW (self));

  seconds = MAX (seconds, 0);
  if (seconds == self->min_delta)
    return;

  self->min_delta = seconds;
  gtk_adjustment_set_value (self->min_delta_adjustment, seconds * 1000);
  smprof_flame_graph_set_min_delta (self->flame_graph, seconds);
  smprof_diff_table_set_min_delta (self->table, seconds);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MIN_DELTA]);
}

SmprofFlameGraph *
smprof_compare_view_get_flame_graph (SmprofCompareView *self)
{
  g_return_val_if_fail (SMPROF_IS_COMPARE_VIEW (self), NULL);

  return self->flame_graph;
}

SmprofDiffTable *
smprof_compare_view_get_table (SmprofCompareView *self)
{
  g_return_val_if_fail (SMPROF_IS_COMPARE_VIEW (self), NULL);

  return self->table;
}
