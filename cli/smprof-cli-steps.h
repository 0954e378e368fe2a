/* smprof-cli-steps.h: the steps and outliers commands' output
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-cli-options.h"
#include "smprof-step-stats.h"

G_BEGIN_DECLS

void smprof_cli_print_steps    (FILE                   *stream,
                                SmprofStepStats        *stats,
                                const SmprofCliOptions *options);
void smprof_cli_print_outliers (FILE                   *stream,
                                SmprofStepStats        *stats,
                                const SmprofCliOptions *options);

gboolean smprof_cli_step_rule_is_option (const char      *option,
                                         gboolean        *takes_value);
gboolean smprof_cli_step_rule_parse     (SmprofStepRule  *rule,
                                         const char      *option,
                                         const char      *value,
                                         GError         **error);

G_END_DECLS
