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
#include "smprof-profile.h"

G_BEGIN_DECLS

/* Writes the members of the frame @index of a call tree (its node @node). */
typedef void (*SmprofStatsJsonFrameFunc) (SmprofJsonWriter         *writer,
                                          guint32                   index,
                                          const SmprofCallTreeNode *node,
                                          gpointer                  user_data);

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
void smprof_stats_json_write_profile      (SmprofJsonWriter      *writer,
                                           SmprofProfile         *profile,
                                           SmprofSortKey          sort,
                                           int                    limit,
                                           gboolean               with_tree);
GArray *smprof_stats_json_dup_row_order   (SmprofProfile         *profile,
                                           SmprofSortKey          sort);


void smprof_stats_json_write_selection    (SmprofJsonWriter         *writer,
                                           const char * const       *node_ids,
                                           GPtrArray                *records);
void smprof_stats_json_write_function_key (SmprofJsonWriter         *writer,
                                           SmprofFunctionKeys       *table,
                                           guint32                   func);
void smprof_stats_json_write_tree         (SmprofJsonWriter         *writer,
                                           SmprofCallTree           *tree,
                                           SmprofStatsJsonFrameFunc  write_values,
                                           gpointer                  user_data);

G_END_DECLS
