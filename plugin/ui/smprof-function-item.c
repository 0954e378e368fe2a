/* smprof-function-item.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-function-item.h"
#include "smprof-ui-format.h"

struct _SmprofFunctionItem
{
  GObject  parent_instance;

  char    *label;
  guint32  func;
  gint64   ncalls;   /* -1 when the profiler does not count calls */
  gint64   pcalls;
  double   tottime;
  double   cumtime;

  /* Self time per step (smprof-step-stats.h): -1 and NULL while the table
   * has no step statistics. */
  gint64   step_count;
  double   step_min;
  double   step_median;
  double   step_p95;
  double   step_max;
  GArray  *step_series;    /* double per step, shared with the statistics' other users */
};

enum {
  PROP_0,
  PROP_FUNC,
  PROP_LABEL,
  PROP_NCALLS,
  PROP_PCALLS,
  PROP_TOTTIME,
  PROP_CUMTIME,
  PROP_TOTTIME_PERCALL,
  PROP_CUMTIME_PERCALL,
  PROP_NCALLS_TEXT,
  PROP_TOTTIME_TEXT,
  PROP_CUMTIME_TEXT,
  PROP_TOTTIME_PERCALL_TEXT,
  PROP_CUMTIME_PERCALL_TEXT,
  PROP_STEP_COUNT,
  PROP_STEP_MIN,
  PROP_STEP_MEDIAN,
  PROP_STEP_P95,
  PROP_STEP_MAX,
  PROP_STEP_SPREAD,
  PROP_STEP_SERIES,
  PROP_STEP_COUNT_TEXT,
  PROP_STEP_MIN_TEXT,
  PROP_STEP_MEDIAN_TEXT,
  PROP_STEP_P95_TEXT,
  PROP_STEP_MAX_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofFunctionItem, smprof_function_item, G_TYPE_OBJECT)

static void
smprof_function_item_finalize (GObject *object)
{
  SmprofFunctionItem *self = SMPROF_FUNCTION_ITEM (object);

  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->step_series, g_array_unref);

  G_OBJECT_CLASS (smprof_function_item_parent_class)->finalize (object);
}

/* How far the slowest step is above the usual one: what the Per Step column
 * sorts by, so the functions whose sparkline has a spike come first. */
static double
step_spread (SmprofFunctionItem *self)
{
  return self->step_count < 0 ? -1 : self->step_max - self->step_median;
}

static char *
format_step_time (SmprofFunctionItem *self,
                  double              seconds)
{
  return self->step_count < 0 ? g_strdup ("—") : smprof_ui_format_seconds (seconds);
}

static void
smprof_function_item_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SmprofFunctionItem *self = SMPROF_FUNCTION_ITEM (object);

  switch (prop_id)
    {
    case PROP_FUNC:
      g_value_set_uint (value, self->func);
      break;

    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;

    case PROP_NCALLS:
      g_value_set_int64 (value, self->ncalls);
      break;

    case PROP_PCALLS:
      g_value_set_int64 (value, self->pcalls);
      break;

    case PROP_TOTTIME:
      g_value_set_double (value, self->tottime);
      break;

    case PROP_CUMTIME:
      g_value_set_double (value, self->cumtime);
      break;

    case PROP_TOTTIME_PERCALL:
      g_value_set_double (value, smprof_function_item_get_tottime_percall (self));
      break;

    case PROP_CUMTIME_PERCALL:
      g_value_set_double (value, smprof_function_item_get_cumtime_percall (self));
      break;

    case PROP_NCALLS_TEXT:
      g_value_take_string (value, smprof_ui_format_calls (self->ncalls, self->pcalls));
      break;

    case PROP_TOTTIME_TEXT:
      g_value_take_string (value, smprof_ui_format_seconds (self->tottime));
      break;

    case PROP_CUMTIME_TEXT:
      g_value_take_string (value, smprof_ui_format_seconds (self->cumtime));
      break;

    case PROP_TOTTIME_PERCALL_TEXT:
      g_value_take_string (value, smprof_ui_format_seconds (smprof_function_item_get_tottime_percall (self)));
      break;

    case PROP_CUMTIME_PERCALL_TEXT:
      g_value_take_string (value, smprof_ui_format_seconds (smprof_function_item_get_cumtime_percall (self)));
      break;

    case PROP_STEP_COUNT:
      g_value_set_int64 (value, self->step_count);
      break;

    case PROP_STEP_MIN:
      g_value_set_double (value, self->step_min);
      break;

    case PROP_STEP_MEDIAN:
      g_value_set_double (value, self->step_median);
      break;

    case PROP_STEP_P95:
      g_value_set_double (value, self->step_p95);
      break;

    case PROP_STEP_MAX:
      g_value_set_double (value, self->step_max);
      break;

    case PROP_STEP_SPREAD:
      g_value_set_double (value, step_spread (self));
      break;

    case PROP_STEP_SERIES:
      g_value_set_boxed (value, self->step_series);
      break;

    case PROP_STEP_COUNT_TEXT:
      g_value_take_string (value, self->step_count < 0 ? g_strdup ("—") : smprof_ui_format_count (self->step_count));
      break;

    case PROP_STEP_MIN_TEXT:
      g_value_take_string (value, format_step_time (self, self->step_min));
      break;

    case PROP_STEP_MEDIAN_TEXT:
      g_value_take_string (value, format_step_time (self, self->step_median));
      break;

    case PROP_STEP_P95_TEXT:
      g_value_take_string (value, format_step_time (self, self->step_p95));
      break;

    case PROP_STEP_MAX_TEXT:
      g_value_take_string (value, format_step_time (self, self->step_max));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_function_item_class_init (SmprofFunctionItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = smprof_function_item_finalize;
  object_class->get_property = smprof_function_item_get_property;

  properties[PROP_FUNC] =
    g_param_spec_uint ("func", NULL, NULL, 0, G_MAXUINT32, SMPROF_FUNC_NONE, flags);
  /* pstats' filename:lineno(function) */
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, flags);
  properties[PROP_NCALLS] =
    g_param_spec_int64 ("ncalls", NULL, NULL, -1, G_MAXINT64, -1, flags);
  properties[PROP_PCALLS] =
    g_param_spec_int64 ("pcalls", NULL, NULL, -1, G_MAXINT64, -1, flags);
  properties[PROP_TOTTIME] =
    g_param_spec_double ("tottime", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_CUMTIME] =
    g_param_spec_double ("cumtime", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  /* -1 when the number of calls is unknown */
  properties[PROP_TOTTIME_PERCALL] =
    g_param_spec_double ("tottime-percall", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_CUMTIME_PERCALL] =
    g_param_spec_double ("cumtime-percall", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_NCALLS_TEXT] =
    g_param_spec_string ("ncalls-text", NULL, NULL, NULL, flags);
  properties[PROP_TOTTIME_TEXT] =
    g_param_spec_string ("tottime-text", NULL, NULL, NULL, flags);
  properties[PROP_CUMTIME_TEXT] =
    g_param_spec_string ("cumtime-text", NULL, NULL, NULL, flags);
  properties[PROP_TOTTIME_PERCALL_TEXT] =
    g_param_spec_string ("tottime-percall-text", NULL, NULL, NULL, flags);
  properties[PROP_CUMTIME_PERCALL_TEXT] =
    g_param_spec_string ("cumtime-percall-text", NULL, NULL, NULL, flags);

  /* Self time per step: steps it ran in, the distribution's figures, the
   * series; -1 (NULL, "—") without step statistics. */
  properties[PROP_STEP_COUNT] =
    g_param_spec_int64 ("step-count", NULL, NULL, -1, G_MAXINT64, -1, flags);
  properties[PROP_STEP_MIN] =
    g_param_spec_double ("step-min", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, -1, flags);
  properties[PROP_STEP_MEDIAN] =
    g_param_spec_double ("step-median", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, -1, flags);
  properties[PROP_STEP_P95] =
    g_param_spec_double ("step-p95", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, -1, flags);
  properties[PROP_STEP_MAX] =
    g_param_spec_double ("step-max", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, -1, flags);
  /* step-max − step-median */
  properties[PROP_STEP_SPREAD] =
    g_param_spec_double ("step-spread", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, -1, flags);
  properties[PROP_STEP_SERIES] =
    g_param_spec_boxed ("step-series", NULL, NULL, G_TYPE_ARRAY, flags);
  properties[PROP_STEP_COUNT_TEXT] =
    g_param_spec_string ("step-count-text", NULL, NULL, NULL, flags);
  properties[PROP_STEP_MIN_TEXT] =
    g_param_spec_string ("step-min-text", NULL, NULL, NULL, flags);
  properties[PROP_STEP_MEDIAN_TEXT] =
    g_param_spec_string ("step-median-text", NULL, NULL, NULL, flags);
  properties[PROP_STEP_P95_TEXT] =
    g_param_spec_string ("step-p95-text", NULL, NULL, NULL, flags);
  properties[PROP_STEP_MAX_TEXT] =
    g_param_spec_string ("step-max-text", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smprof_function_item_init (SmprofFunctionItem *self)
{
  self->func = SMPROF_FUNC_NONE;
  self->ncalls = -1;
  self->pcalls = -1;
  self->step_count = -1;
  self->step_min = self->step_median = self->step_p95 = self->step_max = -1;
}

/**
 * smprof_function_item_new:
 * @table: the job's function table, for the label
 * @func: the function
 * @ncalls: calls, or -1 when unknown (Pyinstrument)
 * @pcalls: primitive (non-recursive) calls, or -1 when unknown
 * @tottime: time in the function itself, in seconds
 * @cumtime: time in the function and what it called, in seconds
 *
 * Returns: (transfer full): a new row
 */
SmprofFunctionItem *
smprof_function_item_new (SmprofFunctionKeys *table,
                          guint32             func,
                          gint64              ncalls,
                          gint64              pcalls,
                          double              tottime,
                          double              cumtime)
{
  SmprofFunctionItem *self;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (func < smprof_function_keys_get_size (table), NULL);

  self = g_object_new (SMPROF_TYPE_FUNCTION_ITEM, NULL);
  self->func = func;
  self->label = smprof_function_keys_dup_label (table, func);
  self->ncalls = ncalls < 0 ? -1 : ncalls;
  self->pcalls = pcalls < 0 ? -1 : pcalls;
  self->tottime = tottime;
  self->cumtime = cumtime;

  return self;
}

/* Whether anything listens to the row's changes (a bound cell, a binding) */
static gboolean
is_watched (SmprofFunctionItem *self)
{
  static guint notify_signal;

  if (notify_signal == 0)
    notify_signal = g_signal_lookup ("notify", G_TYPE_OBJECT);

  return g_signal_handler_find (self, G_SIGNAL_MATCH_ID, notify_signal, 0, NULL, NULL, NULL) != 0;
}

/* The fields alone, without a word to anyone: for rows nobody watches and
 * for the fields whose notifications are worked out apart. */
static void
store_values (SmprofFunctionItem *self,
              gint64              ncalls,
              gint64              pcalls,
              double              tottime,
              double              cumtime)
{
  self->ncalls = ncalls;
  self->pcalls = pcalls;
  self->tottime = tottime;
  self->cumtime = cumtime;
}

/* Returns whether the series changed. */
static gboolean
store_series (SmprofFunctionItem *self,
              GArray             *series)
{
  if (series == self->step_series)
    return FALSE;

  if (series != NULL)
    g_array_ref (series);
  g_clear_pointer (&self->step_series, g_array_unref);
  self->step_series = series;
  return TRUE;
}

static void
store_steps (SmprofFunctionItem *self,
             gint64              count,
             double              min,
             double              median,
             double              p95,
             double              max,
             GArray             *series)
{
  self->step_count = count;
  self->step_min = min;
  self->step_median = median;
  self->step_p95 = p95;
  self->step_max = max;
  store_series (self, series);
}

/* @source's function and figures, without a word to anyone */
static void
copy_fields (SmprofFunctionItem *self,
             SmprofFunctionItem *source)
{
  if (self->func != source->func || self->label == NULL)
    {
      self->func = source->func;
      g_free (self->label);
      self->label = g_strdup (source->label);
    }
  store_values (self, source->ncalls, source->pcalls, source->tottime, source->cumtime);
  store_steps (self, source->step_count, source->step_min, source->step_median, source->step_p95,
               source->step_max, source->step_series);
}

/**
 * smprof_function_item_set_values:
 * @self: a row
 * @ncalls: calls, or -1 when unknown
 * @pcalls: primitive calls, or -1 when unknown
 * @tottime: time in the function itself, in seconds
 * @cumtime: time in the function and what it called, in seconds
 *
 * Gives the row the function's figures in another selection. A table that
 * keeps its rows across selections keeps their widgets too: creating a
 * column view's cells from their builder templates is what made a new
 * selection slow to show.
 */
void
smprof_function_item_set_values (SmprofFunctionItem *self,
                                 gint64              ncalls,
                                 gint64              pcalls,
                                 double              tottime,
                                 double              cumtime)
{
  GObject *object = G_OBJECT (self);
  gboolean calls_changed, tottime_changed, cumtime_changed;

  g_return_if_fail (SMPROF_IS_FUNCTION_ITEM (self));

  ncalls = ncalls < 0 ? -1 : ncalls;
  pcalls = pcalls < 0 ? -1 : pcalls;
  if (!is_watched (self))
    {
      store_values (self, ncalls, pcalls, tottime, cumtime);
      return;
    }

  calls_changed = ncalls != self->ncalls || pcalls != self->pcalls;
  tottime_changed = tottime != self->tottime;
  cumtime_changed = cumtime != self->cumtime;
  store_values (self, ncalls, pcalls, tottime, cumtime);

  g_object_freeze_notify (object);
  if (calls_changed)
    {
      g_object_notify_by_pspec (object, properties[PROP_NCALLS]);
      g_object_notify_by_pspec (object, properties[PROP_PCALLS]);
      g_object_notify_by_pspec (object, properties[PROP_NCALLS_TEXT]);
    }
  if (tottime_changed)
    {
      g_object_notify_by_pspec (object, properties[PROP_TOTTIME]);
      g_object_notify_by_pspec (object, properties[PROP_TOTTIME_TEXT]);
    }
  if (cumtime_changed)
    {
      g_object_notify_by_pspec (object, properties[PROP_CUMTIME]);
      g_object_notify_by_pspec (object, properties[PROP_CUMTIME_TEXT]);
    }
  if (calls_changed || tottime_changed)
    {
      g_object_notify_by_pspec (object, properties[PROP_TOTTIME_PERCALL]);
      g_object_notify_by_pspec (object, properties[PROP_TOTTIME_PERCALL_TEXT]);
    }
  if (calls_changed || cumtime_changed)
    {
      g_object_notify_by_pspec (object, properties[PROP_CUMTIME_PERCALL]);
      g_object_notify_by_pspec (object, properties[PROP_CUMTIME_PERCALL_TEXT]);
    }
  g_object_thaw_notify (object);
}

guint32
smprof_function_item_get_func (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), SMPROF_FUNC_NONE);

  return self->func;
}

const char *
smprof_function_item_get_label (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), NULL);

  return self->label;
}

gint64
smprof_function_item_get_ncalls (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  return self->ncalls;
}

gint64
smprof_function_item_get_pcalls (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  return self->pcalls;
}

double
smprof_function_item_get_tottime (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), 0);

  return self->tottime;
}

double
smprof_function_item_get_cumtime (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), 0);

  return self->cumtime;
}

/* pstats' first percall: tottime / ncalls. */
double
smprof_function_item_get_tottime_percall (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  if (self->ncalls < 0)
    return -1;

  return self->ncalls > 0 ? self->tottime / (double) self->ncalls : 0;
}

/* pstats' second percall: cumtime / primitive calls. */
double
smprof_function_item_get_cumtime_percall (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  if (self->pcalls < 0)
    return -1;

  return self->pcalls > 0 ? self->cumtime / (double) self->pcalls : 0;
}

/* Notifies @value and @text when @field changes to @new_value. */
static void
update_step_field (SmprofFunctionItem *self,
                   double             *field,
                   double              new_value,
                   guint               value_prop,
                   guint               text_prop,
                   gboolean            texts_changed)
{
  if (*field == new_value && !texts_changed)
    return;

  if (*field != new_value)
    {
      *field = new_value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[value_prop]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[text_prop]);
}

/* Gives the row its step figures, notifying what changed; @count is -1
 * without statistics. */
static void
set_steps (SmprofFunctionItem *self,
           gint64              count,
           double              min,
           double              median,
           double              p95,
           double              max,
           GArray             *series)
{
  GObject *object = G_OBJECT (self);
  double old_spread = step_spread (self);
  gboolean presence_changed = (self->step_count >= 0) != (count >= 0);

  if (!is_watched (self))
    {
      store_steps (self, count, min, median, p95, max, series);
      return;
    }

  g_object_freeze_notify (object);

  /* "—" and a number differ even where the value stays -1 */
  if (count != self->step_count)
    {
      self->step_count = count;
      g_object_notify_by_pspec (object, properties[PROP_STEP_COUNT]);
      g_object_notify_by_pspec (object, properties[PROP_STEP_COUNT_TEXT]);
    }
  update_step_field (self, &self->step_min, min, PROP_STEP_MIN, PROP_STEP_MIN_TEXT, presence_changed);
  update_step_field (self, &self->step_median, median, PROP_STEP_MEDIAN, PROP_STEP_MEDIAN_TEXT, presence_changed);
  update_step_field (self, &self->step_p95, p95, PROP_STEP_P95, PROP_STEP_P95_TEXT, presence_changed);
  update_step_field (self, &self->step_max, max, PROP_STEP_MAX, PROP_STEP_MAX_TEXT, presence_changed);
  if (step_spread (self) != old_spread)
    g_object_notify_by_pspec (object, properties[PROP_STEP_SPREAD]);

  if (store_series (self, series))
    g_object_notify_by_pspec (object, properties[PROP_STEP_SERIES]);

  g_object_thaw_notify (object);
}

/**
 * smprof_function_item_set_step_values:
 * @self: a row
 * @function: (nullable): the function's time per step, or %NULL for none
 *   (no step statistics, or a selection without a step)
 * @series: (nullable) (element-type double): its time at each step, shared
 *
 * Gives the row its distribution of self time per step, in place, like
 * smprof_function_item_set_values().
 */
void
smprof_function_item_set_step_values (SmprofFunctionItem       *self,
                                      const SmprofStepFunction *function,
                                      GArray                   *series)
{
  g_return_if_fail (SMPROF_IS_FUNCTION_ITEM (self));

  if (function != NULL)
    set_steps (self, function->count, function->min, function->median, function->p95, function->max, series);
  else
    set_steps (self, -1, -1, -1, -1, -1, series);
}

/**
 * smprof_function_item_assign:
 * @self: a row
 * @source: the row to show
 *
 * Makes @self show everything @source shows, its function included, and
 * notifies only what changed: a table whose row objects stay where they are
 * and take the rows of each new answer keeps its cells bound (see
 * smprof-function-table.c).
 */
void
smprof_function_item_assign (SmprofFunctionItem *self,
                             SmprofFunctionItem *source)
{
  GObject *object = G_OBJECT (self);

  g_return_if_fail (SMPROF_IS_FUNCTION_ITEM (self));
  g_return_if_fail (SMPROF_IS_FUNCTION_ITEM (source));

  if (self == source)
    return;

  /* Most of a table's row objects are not bound to a cell: nobody could
   * hear of their change, and notifying thousands of them was a fifth of
   * the work of showing a new answer. */
  if (!is_watched (self))
    {
      copy_fields (self, source);
      return;
    }

  g_object_freeze_notify (object);
  if (self->func != source->func)
    {
      self->func = source->func;
      g_free (self->label);
      self->label = g_strdup (source->label);
      g_object_notify_by_pspec (object, properties[PROP_FUNC]);
      g_object_notify_by_pspec (object, properties[PROP_LABEL]);
    }
  smprof_function_item_set_values (self, source->ncalls, source->pcalls, source->tottime, source->cumtime);
  set_steps (self, source->step_count, source->step_min, source->step_median, source->step_p95,
             source->step_max, source->step_series);
  g_object_thaw_notify (object);
}

/**
 * smprof_function_item_copy:
 * @self: a row
 *
 * Returns: (transfer full): a new row showing what @self shows
 */
SmprofFunctionItem *
smprof_function_item_copy (SmprofFunctionItem *self)
{
  SmprofFunctionItem *copy;

  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), NULL);

  copy = g_object_new (SMPROF_TYPE_FUNCTION_ITEM, NULL);
  copy_fields (copy, self);

  return copy;
}

gboolean
smprof_function_item_has_steps (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), FALSE);

  return self->step_count >= 0;
}

/* Steps in which the function ran; -1 without step statistics. */
gint64
smprof_function_item_get_step_count (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  return self->step_count;
}

double
smprof_function_item_get_step_min (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  return self->step_min;
}

double
smprof_function_item_get_step_median (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  return self->step_median;
}

double
smprof_function_item_get_step_p95 (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  return self->step_p95;
}

double
smprof_function_item_get_step_max (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), -1);

  return self->step_max;
}

/**
 * smprof_function_item_get_step_series:
 * @self: a row
 *
 * Returns: (transfer none) (nullable) (element-type double): the function's
 *   self time at each step of the statistics, in their order
 */
GArray *
smprof_function_item_get_step_series (SmprofFunctionItem *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_ITEM (self), NULL);

  return self->step_series;
}
