/* smprof-pstats.h: one cProfile `python_stats` file, read into compact arrays
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-function-keys.h"

G_BEGIN_DECLS

/* One entry of the pstats dict: FuncKey -> (cc, nc, tt, ct, callers). */
typedef struct
{
  guint32 func;          /* id in the job's SmprofFunctionKeys */
  guint32 first_caller;  /* index into SmprofPstats.callers */
  guint32 n_callers;
  gint64  cc;            /* primitive calls */
  gint64  nc;            /* total calls */
  double  tt;            /* self time, seconds */
  double  ct;            /* cumulative time, seconds */
} SmprofFuncStat;

/* One caller edge: the callee's calls from that caller. Note the order of the
 * counts in the file is (nc, cc, tt, ct), the reverse of SmprofFuncStat's. A
 * legacy int caller value N (the pure-Python `profile` module) reads as
 * nc = cc = N, tt = ct = 0, with `legacy` set. */
typedef struct
{
  guint32  caller;
  gboolean legacy;
  gint64   nc;
  gint64   cc;
  double   tt;
  double   ct;
} SmprofCallerStat;

typedef struct
{
  SmprofFuncStat   *funcs;      /* in the file's dict order */
  guint             n_funcs;
  SmprofCallerStat *callers;    /* funcs[i]'s callers, in its dict order, at first_caller */
  guint             n_callers;
  /* pstats' own totals: sums over the entries in dict order, starting from 0 */
  gint64            total_calls;
  gint64            prim_calls;
  double            total_tt;
  /* private: the slab funcs and callers were carved from, or NULL when they
   * are g_malloc() memory (smprof-stats-slab.c) */
  gpointer          slab;
} SmprofPstats;

SmprofPstats *smprof_pstats_parse (GBytes              *bytes,
                                   SmprofFunctionKeys  *table,
                                   GError             **error);
void          smprof_pstats_free  (SmprofPstats        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofPstats, smprof_pstats_free)

G_END_DECLS
