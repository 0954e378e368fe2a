/* smprof-query.h: which intervals a question is about
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-job.h"

G_BEGIN_DECLS

typedef enum
{
  SMPROF_SELECT_ALL,
  SMPROF_SELECT_STEP,             /* fetch_profile_stats_by_step */
  SMPROF_SELECT_TIME,             /* fetch_profile_stats_by_time: start or end inside */
  SMPROF_SELECT_OVERLAP,          /* the timeline's rule: any overlap */
  SMPROF_SELECT_BETWEEN_MODES,    /* fetch_profile_stats_between_modes */
  SMPROF_SELECT_PRE_STEP_ZERO,
  SMPROF_SELECT_POST_HOOK_CLOSE,
  SMPROF_SELECT_INITIALIZATION,   /* job phases, with the fixed semantics */
  SMPROF_SELECT_TRAINING_LOOP,
  SMPROF_SELECT_FINALIZATION,
} SmprofSelectionKind;

typedef struct
{
  SmprofSelectionKind kind;
  /* STEP */
  gint64              start_step;
  gint64              end_step;     /* SMPROF_STEP_INFINITY for no bound */
  SmprofMode          mode;
  SmprofPhase         start_phase;
  SmprofPhase         end_phase;
  /* TIME, OVERLAP: microseconds since the epoch, bounds included */
  double              start_us;
  double              end_us;
  /* BETWEEN_MODES */
  SmprofMode          start_mode;
  SmprofMode          end_mode;
} SmprofSelection;

void     smprof_selection_init_step    (SmprofSelection       *selection,
                                        gint64                 start_step);
gboolean smprof_selection_matches      (const SmprofSelection *selection,
                                        const SmprofRecord    *record);
char    *smprof_selection_describe     (const SmprofSelection *selection);
char    *smprof_records_describe_steps (GPtrArray             *records);

typedef enum
{
  SMPROF_NODES_ANY,   /* smdebug's "any": the node whose first interval starts earliest */
  SMPROF_NODES_ALL,
  SMPROF_NODES_LIST,
} SmprofNodeChoiceKind;

typedef struct
{
  SmprofNodeChoiceKind   kind;
  const char * const    *ids;   /* LIST */
} SmprofNodeChoice;

char      **smprof_node_choice_resolve (const SmprofNodeChoice *choice,
                                        GPtrArray              *records);
GPtrArray  *smprof_select              (GPtrArray              *records,
                                        const char * const     *node_ids,
                                        const SmprofSelection  *selection);

G_END_DECLS
