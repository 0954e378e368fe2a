/* smprof-pstats-private.h: the two ways of reading a pstats file, one at a time
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-pstats.h"

G_BEGIN_DECLS

SmprofPstats *_smprof_pstats_parse_general (GBytes           *bytes,
                                            SmprofFuncTable  *table,
                                            GError          **error);
SmprofPstats *_smprof_pstats_parse_fast    (GBytes           *bytes,
                                            SmprofFuncTable  *table);

G_END_DECLS
