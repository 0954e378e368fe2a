/* smprof-estimated-tree.h: a calling-context tree estimated from cProfile's call graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"

G_BEGIN_DECLS

/* Bounds on the estimated cProfile tree, which can grow combinatorially: at
 * most this many frames, plus the unattributed root and a frame under it for
 * each function of the profile. */
#define SMPROF_ESTIMATED_TREE_MAX_NODES 200000
#define SMPROF_ESTIMATED_TREE_MAX_DEPTH 256

/* The root frame holding the time the estimate could not place, keyed like a
 * built-in ("~", 0, name) so every table and export shows it by this name. */
#define SMPROF_UNATTRIBUTED_FILE "~"
#define SMPROF_UNATTRIBUTED_NAME "(unattributed)"

SmprofCallTree *smprof_call_tree_new_estimated     (SmprofCprofileProfile *profile);
gboolean        smprof_function_is_unattributed    (SmprofFunctionKeys    *table,
                                                    guint32                func);

G_END_DECLS
