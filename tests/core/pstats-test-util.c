/* pstats-test-util.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the pstats reader's tests check of every result they get, shared by
 * test-pstats.c (handcrafted input) and test-pstats-real.c (real dumps). */

#include "config.h"

#include <math.h>

#include "pstats-test-util.h"

/* Checks what no valid result may violate, whatever the input. */
void
pstats_test_assert_consistent (const SmprofPstats *stats,
                               SmprofFunctionKeys *table)
{
  guint size = smprof_function_keys_get_size (table);
  gint64 total_calls = 0;
  gint64 prim_calls = 0;
  double total_tt = 0;
  guint next_caller = 0;

  for (guint i = 0; i < stats->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &stats->funcs[i];

      g_assert_cmpuint (stat->func, <, size);
      g_assert_cmpuint (stat->first_caller, ==, next_caller);
      next_caller += stat->n_callers;
      g_assert_cmpuint (next_caller, <=, stats->n_callers);
      for (guint j = 0; j < stat->n_callers; j++)
        g_assert_cmpuint (stats->callers[stat->first_caller + j].caller, <, size);
      total_calls += stat->nc;
      prim_calls += stat->cc;
      total_tt += stat->tt;
    }

  g_assert_cmpuint (next_caller, ==, stats->n_callers);
  g_assert_cmpint (total_calls, ==, stats->total_calls);
  g_assert_cmpint (prim_calls, ==, stats->prim_calls);
  /* Bit for bit, NaN included (a damaged file may hold one). */
  g_assert_true (total_tt == stats->total_tt ||
                 (isnan (total_tt) && isnan (stats->total_tt)));
}
