/* smprof-stats-json.h: records and aggregated stats as JSON (`smprof --json`, exports)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"
#include "smprof-job.h"
#include "smprof-json-writer.h"

G_BEGIN_DECLS

void smprof_stats_json_write_record       (SmprofJsonWriter      *writer,
                                           SmprofSource          *source,
                                           const SmprofRecord    *record);
void smprof_stats_json_write_cprofile     (SmprofJsonWriter      *writer,
                                           SmprofCprofileProfile *profile,
                                           const char * const    *node_ids,
                                           GPtrArray             *records,
                                           SmprofSortKey          sort,
                                           int                    limit);
void smprof_stats_json_write_pyinstrument (SmprofJsonWriter      *writer,
                                           SmprofCallTree        *tree,
                                           const char * const    *node_ids,
                                           GPtrArray             *records);

G_END_DECLS
