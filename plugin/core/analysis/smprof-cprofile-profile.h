/* smprof-cprofile-profile.h: cProfile stats merged the way pstats.Stats.add does
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-function-keys.h"
#include "smprof-pstats.h"

G_BEGIN_DECLS

typedef struct
{
  guint32  func;
  gint64   cc;
  gint64   nc;
  double   tt;
  double   ct;
  GArray  *callers;   /* SmprofCallerStat, in pstats' merged dict order */
} SmprofProfileEntry;

typedef enum
{
  SMPROF_SORT_NONE,      /* pstats' merged dict order */
  SMPROF_SORT_TOTTIME,
  SMPROF_SORT_CUMTIME,
  SMPROF_SORT_NCALLS,
  SMPROF_SORT_PCALLS,
} SmprofSortKey;

typedef struct _SmprofCprofileProfile SmprofCprofileProfile;

SmprofCprofileProfile    *smprof_cprofile_profile_new             (SmprofFunctionKeys    *table);
void                      smprof_cprofile_profile_free            (SmprofCprofileProfile *self);
void                      smprof_cprofile_profile_add             (SmprofCprofileProfile *self,
                                                                   const SmprofPstats    *stats);
guint                     smprof_cprofile_profile_get_n_entries   (SmprofCprofileProfile *self);
const SmprofProfileEntry *smprof_cprofile_profile_get_entry       (SmprofCprofileProfile *self,
                                                                   guint                  index);
gint64                    smprof_cprofile_profile_get_total_calls (SmprofCprofileProfile *self);
gint64                    smprof_cprofile_profile_get_prim_calls  (SmprofCprofileProfile *self);
double                    smprof_cprofile_profile_get_total_tt    (SmprofCprofileProfile *self);
SmprofFunctionKeys       *smprof_cprofile_profile_get_table       (SmprofCprofileProfile *self);
GArray                   *smprof_cprofile_profile_sorted          (SmprofCprofileProfile *self,
                                                                   SmprofSortKey          key);
gboolean                  smprof_sort_key_from_string             (const char            *text,
                                                                   SmprofSortKey         *key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofCprofileProfile, smprof_cprofile_profile_free)

G_END_DECLS
