/* smprof-function-item.h: one row of the function, callers or callees table
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "smprof-function-keys.h"
#include "smprof-step-stats.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_FUNCTION_ITEM (smprof_function_item_get_type ())

G_DECLARE_FINAL_TYPE (SmprofFunctionItem, smprof_function_item, SMPROF, FUNCTION_ITEM, GObject)

SmprofFunctionItem *smprof_function_item_new                 (SmprofFunctionKeys *table,
                                                              guint32             func,
                                                              gint64              ncalls,
                                                              gint64              pcalls,
                                                              double              tottime,
                                                              double              cumtime);
void                smprof_function_item_set_values          (SmprofFunctionItem *self,
                                                              gint64              ncalls,
                                                              gint64              pcalls,
                                                              double              tottime,
                                                              double              cumtime);
void                smprof_function_item_assign              (SmprofFunctionItem *self,
                                                              SmprofFunctionItem *source);
SmprofFunctionItem *smprof_function_item_copy                (SmprofFunctionItem *self);
guint32             smprof_function_item_get_func            (SmprofFunctionItem *self);
const char         *smprof_function_item_get_label           (SmprofFunctionItem *self);
gint64              smprof_function_item_get_ncalls          (SmprofFunctionItem *self);
gint64              smprof_function_item_get_pcalls          (SmprofFunctionItem *self);
double              smprof_function_item_get_tottime         (SmprofFunctionItem *self);
double              smprof_function_item_get_cumtime         (SmprofFunctionItem *self);
double              smprof_function_item_get_tottime_percall (SmprofFunctionItem *self);
double              smprof_function_item_get_cumtime_percall (SmprofFunctionItem *self);

void                smprof_function_item_set_step_values     (SmprofFunctionItem       *self,
                                                              const SmprofStepFunction *function,
                                                              GArray                   *series);
gboolean            smprof_function_item_has_steps           (SmprofFunctionItem *self);
gint64              smprof_function_item_get_step_count      (SmprofFunctionItem *self);
double              smprof_function_item_get_step_min        (SmprofFunctionItem *self);
double              smprof_function_item_get_step_median     (SmprofFunctionItem *self);
double              smprof_function_item_get_step_p95        (SmprofFunctionItem *self);
double              smprof_function_item_get_step_max        (SmprofFunctionItem *self);
GArray             *smprof_function_item_get_step_series     (SmprofFunctionItem *self);

G_END_DECLS
