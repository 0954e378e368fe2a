/* smprof-cprofile-profile-private.h: building a merged profile from sums made elsewhere
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-cprofile-profile.h"

G_BEGIN_DECLS

void  _smprof_cprofile_profile_reserve       (SmprofCprofileProfile  *self,
                                              guint                   n_entries,
                                              guint                   n_callers,
                                              guint                   n_funcs);
guint _smprof_cprofile_profile_append_entry  (SmprofCprofileProfile  *self,
                                              guint32                 func,
                                              guint                   n_callers,
                                              gint64                  cc,
                                              gint64                  nc,
                                              double                  tt,
                                              double                  ct);
void  _smprof_cprofile_profile_append_caller (SmprofCprofileProfile  *self,
                                              guint                   entry_index,
                                              const SmprofCallerStat *caller);
void  _smprof_cprofile_profile_set_totals    (SmprofCprofileProfile  *self,
                                              gint64                  total_calls,
                                              gint64                  prim_calls,
                                              double                  total_tt);

G_END_DECLS
