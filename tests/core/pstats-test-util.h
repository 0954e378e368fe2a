/* pstats-test-util.h: what the pstats reader's tests check of any result
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-function-keys.h"
#include "smprof-pstats.h"

G_BEGIN_DECLS

void pstats_test_assert_consistent (const SmprofPstats *stats,
                                    SmprofFunctionKeys *table);

G_END_DECLS
