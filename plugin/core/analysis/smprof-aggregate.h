/* smprof-aggregate.h: from selected records to one profile
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"
#include "smprof-job.h"

G_BEGIN_DECLS

SmprofCprofileProfile *smprof_aggregate_cprofile     (SmprofJob *job,
                                                      GPtrArray *records);
SmprofCallTree        *smprof_aggregate_pyinstrument (SmprofJob *job,
                                                      GPtrArray *records);
GPtrArray             *smprof_aggregate_loaded       (GPtrArray *records);

G_END_DECLS
