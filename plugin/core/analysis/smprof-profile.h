/* smprof-profile.h: one aggregated selection, whichever profiler wrote it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"
#include "smprof-job.h"

G_BEGIN_DECLS

/* A row of the function table. Pyinstrument does not count calls: its rows
 * have ncalls and pcalls of -1. */
typedef struct
{
  guint32 func;
  gint64  ncalls;
  gint64  pcalls;
  double  tottime;
  double  cumtime;
} SmprofFunctionRow;

/* A caller or callee of a function, with the time spent in the callee on
 * those calls (cProfile's caller stats, or summed over the tree's edges). */
typedef struct
{
  guint32 func;
  gint64  ncalls;   /* -1 when unknown */
  double  tottime;
  double  cumtime;
} SmprofEdgeRow;

#define SMPROF_TYPE_PROFILE (smprof_profile_get_type ())

G_DECLARE_FINAL_TYPE (SmprofProfile, smprof_profile, SMPROF, PROFILE, GObject)

SmprofProfile           *smprof_profile_new             (SmprofJob          *job,
                                                         SmprofProfiler      profiler,
                                                         const char * const *node_ids,
                                                         GPtrArray          *records);
SmprofJob               *smprof_profile_get_job         (SmprofProfile      *self);
SmprofProfiler           smprof_profile_get_profiler    (SmprofProfile      *self);
const char * const      *smprof_profile_get_node_ids    (SmprofProfile      *self);
GPtrArray               *smprof_profile_get_records     (SmprofProfile      *self);
double                   smprof_profile_get_total_time  (SmprofProfile      *self);
gboolean                 smprof_profile_is_estimated    (SmprofProfile      *self);
SmprofCallTree          *smprof_profile_get_call_tree   (SmprofProfile      *self);
SmprofCprofileProfile   *smprof_profile_get_cprofile    (SmprofProfile      *self);
guint                    smprof_profile_get_n_functions (SmprofProfile      *self);
const SmprofFunctionRow *smprof_profile_get_function    (SmprofProfile      *self,
                                                         guint               index);
GArray                  *smprof_profile_dup_callers     (SmprofProfile      *self,
                                                         guint32             func);
GArray                  *smprof_profile_dup_callees     (SmprofProfile      *self,
                                                         guint32             func);
SmprofProfile           *smprof_profile_new_transformed (SmprofProfile      *base,
                                                         GPtrArray          *transforms,
                                                         gboolean            inverted);
GPtrArray               *smprof_profile_get_transforms  (SmprofProfile      *self);
gboolean                 smprof_profile_is_inverted     (SmprofProfile      *self);
SmprofProfile           *smprof_profile_get_upright     (SmprofProfile      *self);

G_END_DECLS
