/* fuzz-pstats.c: smprof_pstats_parse() on arbitrary bytes, then what the
 * viewer and the CLI do with a parsed file: the pstats merge, its sorted
 * views and the estimated call tree; and the fast path on the same bytes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"
#include "smprof-estimated-tree.h"
#include "smprof-profile.h"
#include "smprof-pstats-private.h"
#include "smprof-types.h"

FUZZ_DEFINE_INITIALIZE ()

static void
check_func (SmprofFunctionKeys *table,
            guint32             id)
{
  FUZZ_CHECK (id < smprof_function_keys_get_size (table));
  FUZZ_CHECK (g_utf8_validate (smprof_function_keys_get_file (table, id), -1, NULL));
  FUZZ_CHECK (g_utf8_validate (smprof_function_keys_get_name (table, id), -1, NULL));
}

static void
check_stats (const SmprofPstats *stats,
             SmprofFunctionKeys *table)
{
  for (guint i = 0; i < stats->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &stats->funcs[i];

      check_func (table, stat->func);
      FUZZ_CHECK ((gsize) stat->first_caller + stat->n_callers <= stats->n_callers);
      for (guint k = 0; k < stat->n_callers; k++)
        check_func (table, stats->callers[stat->first_caller + k].caller);
    }
}

static void
check_same_stats (const SmprofPstats *a,
                  const SmprofPstats *b)
{
  FUZZ_CHECK (a->n_funcs == b->n_funcs);
  FUZZ_CHECK (a->n_callers == b->n_callers);
  FUZZ_CHECK (a->total_calls == b->total_calls);
  FUZZ_CHECK (a->prim_calls == b->prim_calls);
  FUZZ_CHECK (memcmp (&a->total_tt, &b->total_tt, sizeof a->total_tt) == 0);
  for (guint i = 0; i < a->n_funcs; i++)
    {
      const SmprofFuncStat *x = &a->funcs[i];
      const SmprofFuncStat *y = &b->funcs[i];

      FUZZ_CHECK (x->func == y->func && x->first_caller == y->first_caller && x->n_callers == y->n_callers);
      FUZZ_CHECK (x->cc == y->cc && x->nc == y->nc);
      FUZZ_CHECK (memcmp (&x->tt, &y->tt, sizeof x->tt) == 0 && memcmp (&x->ct, &y->ct, sizeof x->ct) == 0);
    }
  for (guint i = 0; i < a->n_callers; i++)
    {
      const SmprofCallerStat *x = &a->callers[i];
      const SmprofCallerStat *y = &b->callers[i];

      FUZZ_CHECK (x->caller == y->caller && x->legacy == y->legacy && x->nc == y->nc && x->cc == y->cc);
      FUZZ_CHECK (memcmp (&x->tt, &y->tt, sizeof x->tt) == 0 && memcmp (&x->ct, &y->ct, sizeof x->ct) == 0);
    }
}

/* smprof_pstats_parse() tries its single-pass fast reader first, but only
 * once the function table knows keys: with the fresh table above it always
 * takes the general path. In a job every file after the first meets a full
 * table, so read the same bytes again through the fast path, now that the
 * first read interned the keys it met (all of them, or those before the
 * damage when the marshal document reads but the stats do not). Its promise
 * (tests/core/test-pstats-paths.c): it interns nothing, and whatever it reads the
 * general path reads to the very same stats. @general is the general path's
 * answer on @bytes, or NULL to ask it here. */
static void
check_fast_path (GBytes             *bytes,
                 SmprofFunctionKeys *table,
                 const SmprofPstats *general)
{
  guint size = smprof_function_keys_get_size (table);
  g_autoptr(SmprofPstats) fast = _smprof_pstats_parse_fast (bytes, table);
  g_autoptr(SmprofPstats) asked = NULL;

  FUZZ_CHECK (smprof_function_keys_get_size (table) == size);
  if (fast == NULL)
    return;
  if (general == NULL)
    {
      asked = _smprof_pstats_parse_general (bytes, table, NULL);
      general = asked;
    }
  FUZZ_CHECK (general != NULL);
  check_stats (fast, table);
  check_same_stats (fast, general);
}

/* A file cut short (an upload that stopped) met with the keys of the whole
 * file already known: the fast path must give up or agree with the general
 * one, never read past the cut. */
static void
check_fast_path_cut (const uint8_t      *data,
                     size_t              size,
                     SmprofFunctionKeys *table)
{
  const size_t cuts[] = { size - 1, size / 2, size / 3 };

  if (size < 2 || smprof_function_keys_get_size (table) == 0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_autoptr(GBytes) cut = fuzz_bytes (data, cuts[i]);

      check_fast_path (cut, table, NULL);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GBytes) bytes = fuzz_bytes (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofPstats) stats = smprof_pstats_parse (bytes, table, &error);
  g_autoptr(SmprofCprofileProfile) profile = NULL;
  g_autoptr(SmprofCallTree) tree = NULL;

  check_fast_path (bytes, table, stats);
  check_fast_path_cut (data, size, table);

  if (stats == NULL)
    {
      fuzz_check_error (error, SMPROF_FORMAT_ERROR);
      FUZZ_CHECK (g_str_has_prefix (error->message, "byte "));
      return 0;
    }

  FUZZ_CHECK (error == NULL);
  check_stats (stats, table);

  /* Twice, as two intervals of the same step would be. */
  profile = smprof_cprofile_profile_new (table);
  smprof_cprofile_profile_add (profile, stats);
  smprof_cprofile_profile_add (profile, stats);
  FUZZ_CHECK (smprof_cprofile_profile_get_n_entries (profile) <= stats->n_funcs);

  for (SmprofSortKey key = SMPROF_SORT_NONE; key <= SMPROF_SORT_PCALLS; key++)
    {
      g_autoptr(GArray) sorted = smprof_cprofile_profile_sorted (profile, key);

      FUZZ_CHECK (sorted->len == smprof_cprofile_profile_get_n_entries (profile));
    }

  tree = smprof_call_tree_new_estimated (profile);
  FUZZ_CHECK (smprof_call_tree_get_n_nodes (tree) >= 1);
  FUZZ_CHECK (smprof_call_tree_get_n_nodes (tree) <=
              SMPROF_ESTIMATED_TREE_MAX_NODES + 2 + smprof_cprofile_profile_get_n_entries (profile));

  return 0;
}
