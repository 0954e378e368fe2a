/* smprof-aggregate.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-aggregate.h"

/**
 * smprof_aggregate_loaded:
 * @records: (element-type SmprofRecord): selected records, after smprof_job_load_stats()
 *
 * Returns: (transfer container) (element-type SmprofRecord): those whose stats
 *   were read, in the same order: what an aggregate really sums
 */
GPtrArray *
smprof_aggregate_loaded (GPtrArray *records)
{
  GPtrArray *loaded = g_ptr_array_new ();

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->pstats != NULL || record->session != NULL)
        g_ptr_array_add (loaded, record);
    }

  return loaded;
}

/**
 * smprof_aggregate_cprofile:
 * @job: the job the records belong to
 * @records: (element-type SmprofRecord): cProfile records, loaded, in record order
 *
 * Adds the records' stats in the order given, which is smdebug's when @records
 * come from smprof_select(). Records that failed to load are left out.
 *
 * Returns: (transfer full): the merged profile
 */
SmprofCprofileProfile *
smprof_aggregate_cprofile (SmprofJob *job,
                           GPtrArray *records)
{
  SmprofCprofileProfile *profile = smprof_cprofile_profile_new (smprof_job_get_function_keys (job));

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->pstats != NULL)
        smprof_cprofile_profile_add (profile, record->pstats);
    }

  return profile;
}

/**
 * smprof_aggregate_pyinstrument:
 * @job: the job the records belong to
 * @records: (element-type SmprofRecord): Pyinstrument records, loaded
 *
 * Returns: (transfer full): the sessions merged by path identity, children
 *   sorted by time
 */
SmprofCallTree *
smprof_aggregate_pyinstrument (SmprofJob *job,
                               GPtrArray *records)
{
  SmprofCallTree *tree = smprof_call_tree_new (smprof_job_get_function_keys (job));

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->session != NULL)
        smprof_call_tree_add_session (tree, record->session);
    }

  smprof_call_tree_sort (tree);

  return tree;
}
