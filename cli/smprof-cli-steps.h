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

G_END_DECLS
