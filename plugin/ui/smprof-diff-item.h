/* smprof-diff-item.h: one row of the comparison's table
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "smprof-diff.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_DIFF_ITEM (smprof_diff_item_get_type ())

G_DECLARE_FINAL_TYPE (SmprofDiffItem, smprof_diff_item, SMPROF, DIFF_ITEM, GObject)

SmprofDiffItem *smprof_diff_item_new       (SmprofFunctionKeys  *table,
                                            const SmprofDiffRow *row,
                                            SmprofDiffMetric     metric);
guint32         smprof_diff_item_get_func  (SmprofDiffItem      *self);
const char     *smprof_diff_item_get_label (SmprofDiffItem      *self);
double          smprof_diff_item_get_a     (SmprofDiffItem      *self);
double          smprof_diff_item_get_b     (SmprofDiffItem      *self);
double          smprof_diff_item_get_delta (SmprofDiffItem      *self);
double          smprof_diff_item_get_ratio (SmprofDiffItem      *self);

G_END_DECLS
