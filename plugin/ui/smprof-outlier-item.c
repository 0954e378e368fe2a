/* smprof-outlier-item.c: one row of the ranked outlier steps
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-outlier-item.h"
#include "smprof-session.h"
#include "smprof-ui-format.h"

/* A copy of what the row shows of one flagged step, so that the list does
 * not keep the stats (and their job) alive once the page replaced them; the
 * texts are made once, the list binds them as they are. */
struct _SmprofOutlierItem
{
  GObject     parent_instance;

  guint       index;        /* in the stats */
  char       *node_id;
  SmprofMode  mode;
  gint64      step;
  double      score;        /* smprof_step_rank_score() */
  char       *step_label;
  char       *duration;
  char       *median;
  char       *score_label;
  char       *reason;
};

enum {
  PROP_0,
  PROP_NODE_ID,
  PROP_STEP_LABEL,
  PROP_DURATION,
  PROP_MEDIAN,
  PROP_SCORE_LABEL,
  PROP_REASON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofOutlierItem, smprof_outlier_item, G_TYPE_OBJECT)

static void
smprof_outlier_item_finalize (GObject *object)
{
  SmprofOutlierItem *self = SMPROF_OUTLIER_ITEM (object);

  g_free (self->node_id);
  g_free (self->step_label);
  g_free (self->duration);
  g_free (self->median);
  g_free (self->score_label);
  g_free (self->reason);

  G_OBJECT_CLASS (smprof_outlier_item_parent_class)->finalize (object);
}

static void
smprof_outlier_item_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SmprofOutlierItem *self = SMPROF_OUTLIER_ITEM (object);

  switch (prop_id)
    {
    case PROP_NODE_ID:
      g_value_set_string (value, self->node_id);
      break;
    case PROP_STEP_LABEL:
      g_value_set_string (value, self->step_label);
      break;
    case PROP_DURATION:
      g_value_set_string (value, self->duration);
      break;
    case PROP_MEDIAN:
      g_value_set_string (value, self->median);
      break;
    case PROP_SCORE_LABEL:
      g_value_set_string (value, self->score_label);
      break;
    case PROP_REASON:
      g_value_set_string (value, self->reason);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_outlier_item_class_init (SmprofOutlierItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = smprof_outlier_item_finalize;
  object_class->get_property = smprof_outlier_item_get_property;

  properties[PROP_NODE_ID] = g_param_spec_string ("node-id", NULL, NULL, NULL, flags);
  /* "Train step 12" */
  properties[PROP_STEP_LABEL] = g_param_spec_string ("step-label", NULL, NULL, NULL, flags);
  /* The step's total time and its node's median step's, formatted */
  properties[PROP_DURATION] = g_param_spec_string ("duration", NULL, NULL, NULL, flags);
  properties[PROP_MEDIAN] = g_param_spec_string ("median", NULL, NULL, NULL, flags);
  properties[PROP_SCORE_LABEL] = g_param_spec_string ("score-label", NULL, NULL, NULL, flags);
  /* Which rule flagged it: against its node's steps, the other nodes, or both */
  properties[PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smprof_outlier_item_init (SmprofOutlierItem *self)
{
}

/**
 * smprof_outlier_item_new:
 * @stats: per-step statistics
 * @index: a step of @stats, flagged as an outlier or a straggler
 *
 * Returns: (transfer full): the step's row
 */
SmprofOutlierItem *
smprof_outlier_item_new (SmprofStepStats *stats,
                         guint            index)
{
  SmprofOutlierItem *self;
  const SmprofStep *step;

  g_return_val_if_fail (stats != NULL, NULL);
  g_return_val_if_fail (index < smprof_step_stats_get_n_steps (stats), NULL);

  step = smprof_step_stats_get_step (stats, index);
  self = g_object_new (SMPROF_TYPE_OUTLIER_ITEM, NULL);
  self->index = index;
  self->node_id = g_strdup (step->node_id);
  self->mode = step->mode;
  self->step = step->step;
  self->score = smprof_step_rank_score (step);
  /* Translators: the step column of the outlier list, as in "Train step 12" */
  self->step_label = g_strdup_printf (_("%s step %lld"), smprof_mode_get_label (step->mode), (long long) step->step);
  self->duration = smprof_ui_format_duration (step->total_time);
  self->median = smprof_ui_format_duration (step->median_time);
  self->score_label = g_strdup_printf ("%.2f", self->score);
  if (step->outlier && step->straggler)
    self->reason = g_strdup (_("Slow for its node and against the other nodes"));
  else if (step->straggler)
    self->reason = g_strdup (_("Slow against the other nodes (straggler)"));
  else
    self->reason = g_strdup (_("Slow for its node"));

  return self;
}

guint
smprof_outlier_item_get_index (SmprofOutlierItem *self)
{
  g_return_val_if_fail (SMPROF_IS_OUTLIER_ITEM (self), 0);

  return self->index;
}

const char *
smprof_outlier_item_get_node_id (SmprofOutlierItem *self)
{
  g_return_val_if_fail (SMPROF_IS_OUTLIER_ITEM (self), NULL);

  return self->node_id;
}

SmprofMode
smprof_outlier_item_get_mode (SmprofOutlierItem *self)
{
  g_return_val_if_fail (SMPROF_IS_OUTLIER_ITEM (self), 0);

  return self->mode;
}

gint64
smprof_outlier_item_get_step (SmprofOutlierItem *self)
{
  g_return_val_if_fail (SMPROF_IS_OUTLIER_ITEM (self), 0);

  return self->step;
}

double
smprof_outlier_item_get_score (SmprofOutlierItem *self)
{
  g_return_val_if_fail (SMPROF_IS_OUTLIER_ITEM (self), 0);

  return self->score;
}
