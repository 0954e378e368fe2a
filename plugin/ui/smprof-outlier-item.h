/* smprof-outlier-item.h: one row of the ranked outlier steps
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "smprof-step-stats.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_OUTLIER_ITEM (smprof_outlier_item_get_type ())

G_DECLARE_FINAL_TYPE (SmprofOutlierItem, smprof_outlier_item, SMPROF, OUTLIER_ITEM, GObject)

SmprofOutlierItem *smprof_outlier_item_new          (SmprofStepStats   *stats,
                                                     guint              index);
guint              smprof_outlier_item_get_index    (SmprofOutlierItem *self);
const char        *smprof_outlier_item_get_node_id  (SmprofOutlierItem *self);
SmprofMode         smprof_outlier_item_get_mode     (SmprofOutlierItem *self);
gint64             smprof_outlier_item_get_step     (SmprofOutlierItem *self);
double             smprof_outlier_item_get_score    (SmprofOutlierItem *self);

G_END_DECLS
