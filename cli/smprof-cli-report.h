/* smprof-cli-report.h: `smprof report`, a selection written up for a colleague
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-cli-options.h"
#include "smprof-job.h"

G_BEGIN_DECLS

int smprof_cli_report_run (SmprofJob          *job,
                           SmprofProfiler      profiler,
                           SmprofCliOptions   *options,
                           const char * const *node_ids,
                           GPtrArray          *selected,
                           GPtrArray          *loaded,
                           guint              *n_problems_shown,
                           int                 argc,
                           char              **argv);

G_END_DECLS
