/* smprof-estimated-tree.h: a calling-context tree estimated from cProfile's call graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"

G_BEGIN_DECLS

/* Bounds on the estimated cProfile tree, which can grow combinatorially. */
#define SMPROF_ESTIMATED_TREE_MAX_NODES 200000
#define SMPROF_ESTIMATED_TREE_MAX_DEPTH 256

SmprofCallTree *smprof_call_tree_new_estimated (SmprofCprofileProfile *profile);

G_END_DECLS
