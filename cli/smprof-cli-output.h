/* smprof-cli-output.h: what `smprof` prints for people (JSON is in the core)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdio.h>

#include <gio/gio.h>

#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"
#include "smprof-job.h"
#include "smprof-profile.h"
#include "smprof-query.h"

G_BEGIN_DECLS

const char *smprof_cli_shown          (const char         *text);
char       *smprof_cli_dup_shown_list (const char * const *items);

void smprof_cli_fputs_free       (FILE                  *stream,
                                 char                  *text);
void smprof_cli_print_records   (FILE                  *stream,
                                 GPtrArray             *records);
void smprof_cli_print_cprofile  (FILE                  *stream,
                                 SmprofCprofileProfile *profile,
                                 const char * const    *node_ids,
                                 GPtrArray             *records,
                                 SmprofSortKey          sort,
                                 int                    limit);
void smprof_cli_print_tree      (FILE                  *stream,
                                 SmprofCallTree        *tree,
                                 const char * const    *node_ids,
                                 GPtrArray             *records,
                                 const char            *reshaping,
                                 gboolean               estimated,
                                 int                    limit);
void smprof_cli_print_functions (FILE                  *stream,
                                 SmprofProfile         *profile,
                                 SmprofSortKey          sort,
                                 int                    limit);
void smprof_cli_print_profile_tree (FILE               *stream,
                                    SmprofProfile      *profile,
                                    int                 limit);

gboolean smprof_cli_selection_is_time   (const SmprofSelection *selection);
char    *smprof_cli_dup_selection_words (const SmprofSelection *selection);

gboolean smprof_cli_write_to_stdout (GMemoryOutputStream  *memory,
                                     GError              **error);

G_END_DECLS
