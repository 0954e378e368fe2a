/* core-test-util.h: loading the test jobs of tests/data for the core's tests
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-job.h"
#include "smprof-profile.h"
#include "smprof-query.h"

G_BEGIN_DECLS

SmprofJob     *core_test_load_job_at (const char            *path);
SmprofJob     *core_test_load_job    (const char            *name);
SmprofProfile *core_test_profile_of  (SmprofJob             *job,
                                      SmprofProfiler         profiler,
                                      const SmprofSelection *selection);
void           core_test_remove_tree (const char            *path);
char          *core_test_make_nodes_job (const char         *name,
                                         guint               n_nodes);

G_END_DECLS
