/* smprof-ui-format.h: numbers and function names as the views show them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-function-keys.h"

G_BEGIN_DECLS

char *smprof_ui_format_seconds    (double              seconds);
char *smprof_ui_format_duration   (double              seconds);
char *smprof_ui_format_count      (gint64              count);
char *smprof_ui_format_calls      (gint64              ncalls,
                                   gint64              pcalls);
char *smprof_ui_format_percent    (double              fraction);
char *smprof_ui_dup_func_name     (SmprofFunctionKeys *table,
                                   guint32             func);
char *smprof_ui_dup_func_location (SmprofFunctionKeys *table,
                                   guint32             func);

G_END_DECLS
