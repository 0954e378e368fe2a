/* smprof-sparkline.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-sparkline.h"
#include "smprof-ui-format.h"

#define PADDING       2.0
#define MARK_RADIUS   2.0

struct _SmprofSparkline
{
  GtkWidget      parent_instance;

  GArray        *series;       /* double; NULL when empty */

  /* The drawing, kept until the values, the size or the style change: a
   * table scrolls many sparklines that change much less often. */
  GskRenderNode *node;
  int            node_width;
  int            node_height;
};

enum {
  PROP_0,
  PROP_SERIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofSparkline, smprof_sparkline, GTK_TYPE_WIDGET)

static guint
count_values (SmprofSparkline *self)
{
  return self->series != NULL ? self->series->len : 0;
}

static double
value_at (SmprofSparkline *self,
          guint            i)
{
  return g_array_index (self->series, double, i);
}

/* The index of the first largest value. */
static guint
find_max (SmprofSparkline *self)
{
  guint best = 0;

  for (guint i = 1; i < count_values (self); i++)
    if (value_at (self, i) > value_at (self, best))
      best = i;

  return best;
}

static double
find_min (SmprofSparkline *self)
{
  double min = value_at (self, 0);

  for (guint i = 1; i < count_values (self); i++)
    min = MIN (min, value_at (self, i));

  return min;
}

/**
 * smprof_sparkline_dup_description:
 * @self: a sparkline
 *
 * The series in words, as a screen reader says it: the smallest and the
 * largest value (as seconds) and how many there are.
 *
 * Returns: (transfer full): a translated sentence
 */
char *
smprof_sparkline_dup_description (SmprofSparkline *self)
{
  g_autofree char *min_text = NULL;
  g_autofree char *max_text = NULL;
  guint n, max;

  g_return_val_if_fail (SMPROF_IS_SPARKLINE (self), NULL);

  n = count_values (self);
  if (n == 0)
    return g_strdup (_("No steps"));

  max = find_max (self);
  min_text = smprof_ui_format_seconds (find_min (self));
  max_text = smprof_ui_format_seconds (value_at (self, max));

  /* Translators: a sparkline of a function's time per step: the smallest
   * time, the largest, the position of the largest, and the number of steps,
   * as in "min 0.010 s, max 0.250 s at step 3 of 20". */
  return g_strdup_printf (_("min %s s, max %s s at step %u of %u"), min_text, max_text, max + 1, n);
}

static void
lookup_colors (SmprofSparkline *self,
               GdkRGBA         *fg,
               GdkRGBA         *mark)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  /* The text colour, so the line follows a dark style; the accent for the
   * maximum, when the theme names one. */
  gtk_style_context_get_color (context, fg);
  if (!gtk_style_context_lookup_color (context, "accent_color", mark) &&
      !gtk_style_context_lookup_color (context, "theme_selected_bg_color", mark))
    *mark = *fg;
}

static GskRenderNode *
render (SmprofSparkline *self,
        int              width,
        int              height)
{
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  guint n = count_values (self);
  double inner_width = MAX (width - 2 * PADDING, 1);
  double inner_height = MAX (height - 2 * PADDING, 1);
  double low, high, scale;
  guint max;
  GdkRGBA fg, mark;
  cairo_t *cr;

  lookup_colors (self, &fg, &mark);
  max = find_max (self);
  /* Times start at 0: a flat line near the top is a function that always
   * takes its time, not one that varies. */
  low = MIN (0, find_min (self));
  high = value_at (self, max);
  scale = high > low ? inner_height / (high - low) : 0;

#define X(i) (PADDING + (n > 1 ? (i) * inner_width / (n - 1) : inner_width / 2))
#define Y(v) (PADDING + inner_height - ((v) - low) * scale)

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);

  /* the area under the line, faint */
  cairo_move_to (cr, X (0), Y (low));
  for (guint i = 0; i < n; i++)
    cairo_line_to (cr, X (i), Y (value_at (self, i)));
  cairo_line_to (cr, X (n - 1), Y (low));
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.18);
  cairo_fill (cr);

  cairo_move_to (cr, X (0), Y (value_at (self, 0)));
  for (guint i = 1; i < n; i++)
    cairo_line_to (cr, X (i), Y (value_at (self, i)));
  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.8);
  cairo_stroke (cr);

  /* A flat line has no maximum worth pointing at. */
  if (high > low)
    {
      cairo_arc (cr, X (max), Y (high), MARK_RADIUS, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &mark);
      cairo_fill (cr);
    }

#undef X
#undef Y

  cairo_destroy (cr);

  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

static void
invalidate (SmprofSparkline *self)
{
  g_clear_pointer (&self->node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
smprof_sparkline_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SmprofSparkline *self = SMPROF_SPARKLINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (count_values (self) == 0 || width <= 0 || height <= 0)
    return;

  if (self->node != NULL && (self->node_width != width || self->node_height != height))
    g_clear_pointer (&self->node, gsk_render_node_unref);

  if (self->node == NULL)
    {
      self->node = render (self, width, height);
      self->node_width = width;
      self->node_height = height;
    }

  if (self->node != NULL)
    gtk_snapshot_append_node (snapshot, self->node);
}

static void
smprof_sparkline_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 48;
      *natural = 96;
    }
  else
    *minimum = *natural = 18;
}

static void
smprof_sparkline_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (smprof_sparkline_parent_class)->css_changed (widget, change);

  invalidate (SMPROF_SPARKLINE (widget));
}

static void
update_description (SmprofSparkline *self)
{
  g_autofree char *description = smprof_sparkline_dup_description (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, description,
                                  -1);
  /* the text itself is made when asked for (query_tooltip): setting a
   * tooltip asks the display where the pointer is, on every row bound */
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), count_values (self) > 0);
}

static gboolean
smprof_sparkline_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard_tooltip,
                                GtkTooltip *tooltip)
{
  SmprofSparkline *self = SMPROF_SPARKLINE (widget);
  g_autofree char *description = NULL;

  if (count_values (self) == 0)
    return FALSE;

  description = smprof_sparkline_dup_description (self);
  gtk_tooltip_set_text (tooltip, description);

  return TRUE;
}

static void
smprof_sparkline_finalize (GObject *object)
{
  SmprofSparkline *self = SMPROF_SPARKLINE (object);

  g_clear_pointer (&self->series, g_array_unref);
  g_clear_pointer (&self->node, gsk_render_node_unref);

  G_OBJECT_CLASS (smprof_sparkline_parent_class)->finalize (object);
}

static void
smprof_sparkline_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SmprofSparkline *self = SMPROF_SPARKLINE (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_boxed (value, self->series);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_sparkline_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SmprofSparkline *self = SMPROF_SPARKLINE (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      smprof_sparkline_set_series (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_sparkline_class_init (SmprofSparklineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = smprof_sparkline_finalize;
  object_class->get_property = smprof_sparkline_get_property;
  object_class->set_property = smprof_sparkline_set_property;

  widget_class->snapshot = smprof_sparkline_snapshot;
  widget_class->measure = smprof_sparkline_measure;
  widget_class->css_changed = smprof_sparkline_css_changed;
  widget_class->query_tooltip = smprof_sparkline_query_tooltip;

  /**
   * SmprofSparkline:series:
   *
   * The values drawn, left to right: a #GArray of double, or %NULL for none.
   * The array is shared, not copied: do not change it once given.
   */
  properties[PROP_SERIES] =
    g_param_spec_boxed ("series", NULL, NULL,
                        G_TYPE_ARRAY,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "smprofsparkline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
smprof_sparkline_init (SmprofSparkline *self)
{
  update_description (self);
}

GtkWidget *
smprof_sparkline_new (void)
{
  return g_object_new (SMPROF_TYPE_SPARKLINE, NULL);
}

/**
 * smprof_sparkline_set_series:
 * @self: a sparkline
 * @series: (nullable) (element-type double): the values, shared
 */
void
smprof_sparkline_set_series (SmprofSparkline *self,
                             GArray          *series)
{
  g_return_if_fail (SMPROF_IS_SPARKLINE (self));
  g_return_if_fail (series == NULL || g_array_get_element_size (series) == sizeof (double));

  if (series == self->series)
    return;

  if (series != NULL)
    g_array_ref (series);
  g_clear_pointer (&self->series, g_array_unref);
  self->series = series;

  invalidate (self);
  update_description (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERIES]);
}

GArray *
smprof_sparkline_get_series (SmprofSparkline *self)
{
  g_return_val_if_fail (SMPROF_IS_SPARKLINE (self), NULL);

  return self->series;
}

/**
 * smprof_sparkline_set_values:
 * @self: a sparkline
 * @values: (array length=n_values) (nullable): the values, copied
 * @n_values: how many
 */
void
smprof_sparkline_set_values (SmprofSparkline *self,
                             const double    *values,
                             guint            n_values)
{
  g_autoptr(GArray) series = NULL;

  g_return_if_fail (SMPROF_IS_SPARKLINE (self));
  g_return_if_fail (values != NULL || n_values == 0);

  if (n_values > 0)
    {
      series = g_array_sized_new (FALSE, FALSE, sizeof (double), n_values);
      g_array_append_vals (series, values, n_values);
    }

  smprof_sparkline_set_series (self, series);
}

/**
 * smprof_sparkline_get_values:
 * @self: a sparkline
 * @n_values: (out): how many
 *
 * Returns: (array length=n_values) (transfer none) (nullable): the values drawn
 */
const double *
smprof_sparkline_get_values (SmprofSparkline *self,
                             guint           *n_values)
{
  g_return_val_if_fail (SMPROF_IS_SPARKLINE (self), NULL);
  g_return_val_if_fail (n_values != NULL, NULL);

  *n_values = count_values (self);

  return self->series != NULL ? (const double *) (gpointer) self->series->data : NULL;
}
