/* fuzz-pstats.c: smprof_pstats_parse() on arbitrary bytes, then what the
 * viewer and the CLI do with a parsed file: the pstats merge, its sorted
 * views and the estimated call tree
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-call-tree.h"
#include "smprof-cprofile-profile.h"
#include "smprof-profile.h"
#include "smprof-pstats.h"
#include "smprof-types.h"

FUZZ_DEFINE_INITIALIZE ()

static void
check_func (SmprofFuncTable *table,
            guint32          id)
{
  FUZZ_CHECK (id < smprof_func_table_get_size (table));
  FUZZ_CHECK (g_utf8_validate (smprof_func_table_get_file (table, id), -1, NULL));
  FUZZ_CHECK (g_utf8_validate (smprof_func_table_get_name (table, id), -1, NULL));
}

static void
check_stats (const SmprofPstats *stats,
             SmprofFuncTable    *table)
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

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SmprofFuncTable) table = smprof_func_table_new ();
  g_autoptr(GBytes) bytes = fuzz_bytes (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofPstats) stats = smprof_pstats_parse (bytes, table, &error);
  g_autoptr(SmprofCprofileProfile) profile = NULL;
  g_autoptr(SmprofCallTree) tree = NULL;

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
  FUZZ_CHECK (smprof_call_tree_get_n_nodes (tree) <= SMPROF_ESTIMATED_TREE_MAX_NODES + 1);

  return 0;
}
