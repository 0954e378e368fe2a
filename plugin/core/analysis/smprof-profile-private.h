/* smprof-profile-private.h: profiles of sums made outside smprof_profile_new()
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-profile.h"

G_BEGIN_DECLS

SmprofProfile *_smprof_profile_new_summed (SmprofJob             *job,
                                           SmprofProfiler         profiler,
                                           const char * const    *node_ids,
                                           GPtrArray             *records,
                                           SmprofCprofileProfile *cprofile,
                                           SmprofCallTree        *tree);

G_END_DECLS
