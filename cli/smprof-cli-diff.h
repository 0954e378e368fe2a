/* smprof-cli-diff.h: `smprof diff`, two selections compared
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdio.h>

#include <glib.h>

#include "smprof-cli-options.h"
#include "smprof-diff.h"

G_BEGIN_DECLS

int  smprof_cli_diff_main        (int    argc,
                                  char **argv);

gboolean       smprof_cli_diff_parse_selection (const char              *option,
                                                const char              *text,
                                                SmprofCliOptions        *parsed,
                                                GError                 **error);
SmprofProfile *smprof_cli_diff_load_side       (SmprofJob               *job,
                                                SmprofProfiler           profiler,
                                                GPtrArray               *records,
                                                SmprofDiffSide           s,
                                                const SmprofCliOptions  *parsed,
                                                const char              *nodes,
                                                guint                   *n_problems_shown,
                                                int                     *status);

G_END_DECLS
