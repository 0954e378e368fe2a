/* smprof-diff-item.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-diff-item.h"
#include "smprof-ui-format.h"

/* A function's numbers for one metric, fixed when the row is made: the table
 * makes new items when the comparison or the metric changes. */
struct _SmprofDiffItem
{
  GObject          parent_instance;

  guint32          func;
  SmprofDiffMetric metric;
  char            *name;
  char            *location;
  char            *label;
  double           values[2];
};

enum {
  PROP_0,
  PROP_FUNC,
  PROP_NAME,
  PROP_LOCATION,
  PROP_LABEL,
  PROP_A,
  PROP_B,
  PROP_DELTA,
  PROP_RATIO,
  PROP_RATIO_KEY,
  PROP_A_TEXT,
  PROP_B_TEXT,
  PROP_DELTA_TEXT,
  PROP_RATIO_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofDiffItem, smprof_diff_item, G_TYPE_OBJECT)

/* Times in milliseconds, in the locale's digits like the Functions table's;
 * calls as counts. A side the profiler counts no calls for is "—". */
static char *
format_value (SmprofDiffItem *self,
              double          value,
              gboolean        signed_value)
{
  if (isnan (value))
    return g_strdup ("—");

  if (self->metric == SMPROF_DIFF_METRIC_NCALLS)
    {
      if (self->values[0] < 0 || self->values[1] < 0)
        return g_strdup ("—");
      return g_strdup_printf (signed_value ? "%+.6g" : "%.6g", value);
    }

  /* Sums of floats leave -0.0 where nothing changed. */
  if (fabs (value) < 5e-7)
    value = 0;

  return g_strdup_printf (signed_value ? "%+.3f" : "%.3f", value * 1000);
}

/* For sorting: ratios that mean nothing (0/0) sort below every number, an
 * infinite one (only in B) above. */
static double
ratio_key (SmprofDiffItem *self)
{
  double ratio = smprof_diff_item_get_ratio (self);

  if (isnan (ratio))
    return -1;
  if (isinf (ratio))
    return G_MAXDOUBLE;
  return ratio;
}

static void
smprof_diff_item_finalize (GObject *object)
{
  SmprofDiffItem *self = SMPROF_DIFF_ITEM (object);

  g_free (self->name);
  g_free (self->location);
  g_free (self->label);

  G_OBJECT_CLASS (smprof_diff_item_parent_class)->finalize (object);
}

static void
smprof_diff_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SmprofDiffItem *self = SMPROF_DIFF_ITEM (object);
  double ratio;

  switch (prop_id)
    {
    case PROP_FUNC:
      g_value_set_uint (value, self->func);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_A:
      g_value_set_double (value, self->values[SMPROF_DIFF_A]);
      break;
    case PROP_B:
      g_value_set_double (value, self->values[SMPROF_DIFF_B]);
      break;
    case PROP_DELTA:
      g_value_set_double (value, smprof_diff_item_get_delta (self));
      break;
    case PROP_RATIO:
      g_value_set_double (value, smprof_diff_item_get_ratio (self));
      break;
    case PROP_RATIO_KEY:
      g_value_set_double (value, ratio_key (self));
      break;
    case PROP_A_TEXT:
      g_value_take_string (value, format_value (self, self->values[SMPROF_DIFF_A], FALSE));
      break;
    case PROP_B_TEXT:
      g_value_take_string (value, format_value (self, self->values[SMPROF_DIFF_B], FALSE));
      break;
    case PROP_DELTA_TEXT:
      g_value_take_string (value, format_value (self, smprof_diff_item_get_delta (self), TRUE));
      break;
    case PROP_RATIO_TEXT:
      ratio = smprof_diff_item_get_ratio (self);
      if (isinf (ratio))
        g_value_set_string (value, _("new"));
      else if (isnan (ratio))
        g_value_set_string (value, "—");
      else
        g_value_take_string (value, g_strdup_printf ("×%.2f", ratio));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_diff_item_class_init (SmprofDiffItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = smprof_diff_item_finalize;
  object_class->get_property = smprof_diff_item_get_property;

  properties[PROP_FUNC] = g_param_spec_uint ("func", NULL, NULL, 0, G_MAXUINT32, 0, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_LOCATION] = g_param_spec_string ("location", NULL, NULL, NULL, flags);
  /* "file:line(name)", what the filter matches */
  properties[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, flags);
  properties[PROP_A] = g_param_spec_double ("a", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_B] = g_param_spec_double ("b", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_DELTA] = g_param_spec_double ("delta", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_RATIO] = g_param_spec_double ("ratio", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_RATIO_KEY] = g_param_spec_double ("ratio-key", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_A_TEXT] = g_param_spec_string ("a-text", NULL, NULL, NULL, flags);
  properties[PROP_B_TEXT] = g_param_spec_string ("b-text", NULL, NULL, NULL, flags);
  properties[PROP_DELTA_TEXT] = g_param_spec_string ("delta-text", NULL, NULL, NULL, flags);
  properties[PROP_RATIO_TEXT] = g_param_spec_string ("ratio-text", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smprof_diff_item_init (SmprofDiffItem *self)
{
}

SmprofDiffItem *
smprof_diff_item_new (SmprofFunctionKeys  *table,
                      const SmprofDiffRow *row,
                      SmprofDiffMetric     metric)
{
  SmprofDiffItem *self = g_object_new (SMPROF_TYPE_DIFF_ITEM, NULL);

  g_return_val_if_fail (row != NULL, NULL);

  self->func = row->func;
  self->metric = metric;
  self->name = smprof_ui_dup_func_name (table, row->func);
  self->location = smprof_ui_dup_func_location (table, row->func);
  self->label = self->location[0] != '\0' ? g_strdup_printf ("%s(%s)", self->location, self->name)
                                          : g_strdup (self->name);
  smprof_diff_row_get (row, metric, self->values);

  return self;
}

guint32
smprof_diff_item_get_func (SmprofDiffItem *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_ITEM (self), 0);

  return self->func;
}

const char *
smprof_diff_item_get_label (SmprofDiffItem *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_ITEM (self), NULL);

  return self->label;
}

double
smprof_diff_item_get_a (SmprofDiffItem *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_ITEM (self), 0);

  return self->values[SMPROF_DIFF_A];
}

double
smprof_diff_item_get_b (SmprofDiffItem *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_ITEM (self), 0);

  return self->values[SMPROF_DIFF_B];
}

/* NaN where a side counts no calls (Pyinstrument). */
double
smprof_diff_item_get_delta (SmprofDiffItem *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_ITEM (self), 0);

  if (self->metric == SMPROF_DIFF_METRIC_NCALLS && (self->values[0] < 0 || self->values[1] < 0))
    return NAN;

  return self->values[SMPROF_DIFF_B] - self->values[SMPROF_DIFF_A];
}

double
smprof_diff_item_get_ratio (SmprofDiffItem *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF_ITEM (self), 0);

  return smprof_diff_ratio (self->values[SMPROF_DIFF_A], self->values[SMPROF_DIFF_B]);
}
