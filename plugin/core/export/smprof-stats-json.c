/* smprof-stats-json.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-stats-json.h"
#include "smprof-transform.h"

/* One row of smdebug's list_profile_stats(), keys in its column order. */
void
smprof_stats_json_write_record (SmprofJsonWriter   *writer,
                                SmprofSource       *source,
                                const SmprofRecord *record)
{
  g_autofree char *location = smprof_source_dup_file_location (source, record->path);
  g_autofree char *valid_location = g_utf8_make_valid (location, -1);
  const SmprofIntervalName *name = &record->name;

  smprof_json_writer_begin_object (writer);
  smprof_json_writer_member (writer, "profiler_name");
  smprof_json_writer_string (writer, smprof_profiler_to_string (record->profiler));
  smprof_json_writer_member (writer, "framework");
  smprof_json_writer_string (writer, record->framework);
  smprof_json_writer_member (writer, "node_id");
  smprof_json_writer_string (writer, record->node_id);
  smprof_json_writer_member (writer, "start_mode");
  smprof_json_writer_string (writer, smprof_mode_to_string (name->start_mode));
  smprof_json_writer_member (writer, "start_step");
  smprof_json_writer_int (writer, name->start_step);
  smprof_json_writer_member (writer, "start_phase");
  smprof_json_writer_string (writer, smprof_phase_to_string (name->start_phase));
  smprof_json_writer_member (writer, "start_time_since_epoch_in_micros");
  smprof_json_writer_double (writer, name->start_time_us);
  smprof_json_writer_member (writer, "end_mode");
  smprof_json_writer_string (writer, smprof_mode_to_string (name->end_mode));
  smprof_json_writer_member (writer, "end_step");
  if (name->end_step == SMPROF_STEP_INFINITY)
    smprof_json_writer_string (writer, "inf");
  else
    smprof_json_writer_int (writer, name->end_step);
  smprof_json_writer_member (writer, "end_phase");
  smprof_json_writer_string (writer, smprof_phase_to_string (name->end_phase));
  smprof_json_writer_member (writer, "end_time_since_epoch_in_micros");
  smprof_json_writer_double (writer, name->end_time_us);
  smprof_json_writer_member (writer, "stats_path");
  smprof_json_writer_string (writer, valid_location);
  smprof_json_writer_end_object (writer);
}

/**
 * smprof_stats_json_write_selection:
 * @writer: where to write, inside an object
 * @node_ids: the nodes aggregated
 * @records: (element-type SmprofRecord): the records aggregated, in order
 *
 * Writes the members `"node_ids": [...]` and `"intervals": [...]`, each
 * interval as `node/interval`.
 */
void
smprof_stats_json_write_selection (SmprofJsonWriter   *writer,
                                   const char * const *node_ids,
                                   GPtrArray          *records)
{
  smprof_json_writer_member (writer, "node_ids");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; node_ids[i] != NULL; i++)
    smprof_json_writer_string (writer, node_ids[i]);
  smprof_json_writer_end_array (writer);
  smprof_json_writer_member (writer, "intervals");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);
      g_autofree char *label = g_strconcat (record->node_id, "/", record->interval, NULL);

      smprof_json_writer_string (writer, label);
    }
  smprof_json_writer_end_array (writer);
}

static void
write_header (SmprofJsonWriter   *writer,
              SmprofProfiler      profiler,
              const char * const *node_ids,
              GPtrArray          *records)
{
  smprof_json_writer_member (writer, "profiler");
  smprof_json_writer_string (writer, smprof_profiler_to_string (profiler));
  smprof_stats_json_write_selection (writer, node_ids, records);
}

/**
 * smprof_stats_json_write_function_key:
 * @writer: where to write, inside an object
 * @table: the function table of @func
 * @func: a function
 *
 * Writes the members `"file"`, `"line"` and `"function"` of a function row.
 */
void
smprof_stats_json_write_function_key (SmprofJsonWriter   *writer,
                                      SmprofFunctionKeys *table,
                                      guint32             func)
{
  smprof_json_writer_member (writer, "file");
  smprof_json_writer_string (writer, smprof_function_keys_get_file (table, func));
  smprof_json_writer_member (writer, "line");
  smprof_json_writer_int (writer, smprof_function_keys_get_line (table, func));
  smprof_json_writer_member (writer, "function");
  smprof_json_writer_string (writer, smprof_function_keys_get_name (table, func));
}

static void
write_counts (SmprofJsonWriter *writer,
              gint64            nc,
              gint64            cc,
              double            tt,
              double            ct)
{
  smprof_json_writer_member (writer, "ncalls");
  smprof_json_writer_int (writer, nc);
  smprof_json_writer_member (writer, "primitive_calls");
  smprof_json_writer_int (writer, cc);
  smprof_json_writer_member (writer, "tottime");
  smprof_json_writer_double (writer, tt);
  smprof_json_writer_member (writer, "cumtime");
  smprof_json_writer_double (writer, ct);
}

static void write_cprofile_members (SmprofJsonWriter      *writer,
                                    SmprofCprofileProfile *profile,
                                    const char * const    *node_ids,
                                    GPtrArray             *records,
                                    SmprofSortKey          sort,
                                    int                    limit);

/**
 * smprof_stats_json_write_cprofile:
 * @writer: where to write
 * @profile: the merged profile of @records
 * @node_ids: the nodes aggregated
 * @records: (element-type SmprofRecord): the records aggregated, in order
 * @sort: the order of the functions
 * @limit: how many functions at most, or -1 for all
 *
 * Writes `{"profiler", "node_ids", "intervals", "total_calls",
 * "primitive_calls", "total_time", "functions": [...]}`.
 */
void
smprof_stats_json_write_cprofile (SmprofJsonWriter      *writer,
                                  SmprofCprofileProfile *profile,
                                  const char * const    *node_ids,
                                  GPtrArray             *records,
                                  SmprofSortKey          sort,
                                  int                    limit)
{
  write_cprofile_members (writer, profile, node_ids, records, sort, limit);
  smprof_json_writer_end_object (writer);
}

/* The object of smprof_stats_json_write_cprofile(), left open. */
static void
write_cprofile_members (SmprofJsonWriter      *writer,
                        SmprofCprofileProfile *profile,
                        const char * const    *node_ids,
                        GPtrArray             *records,
                        SmprofSortKey          sort,
                        int                    limit)
{
  SmprofFunctionKeys *table = smprof_cprofile_profile_get_table (profile);
  g_autoptr(GArray) order = smprof_cprofile_profile_sorted (profile, sort);
  guint n = order->len;

  if (limit >= 0 && (guint) limit < n)
    n = limit;

  smprof_json_writer_begin_object (writer);
  write_header (writer, SMPROF_PROFILER_CPROFILE, node_ids, records);
  smprof_json_writer_member (writer, "total_calls");
  smprof_json_writer_int (writer, smprof_cprofile_profile_get_total_calls (profile));
  smprof_json_writer_member (writer, "primitive_calls");
  smprof_json_writer_int (writer, smprof_cprofile_profile_get_prim_calls (profile));
  smprof_json_writer_member (writer, "total_time");
  smprof_json_writer_double (writer, smprof_cprofile_profile_get_total_tt (profile));

  smprof_json_writer_member (writer, "functions");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < n; i++)
    {
      const SmprofProfileEntry *entry =
        smprof_cprofile_profile_get_entry (profile, g_array_index (order, guint, i));

      smprof_json_writer_begin_object (writer);
      smprof_stats_json_write_function_key (writer, table, entry->func);
      write_counts (writer, entry->nc, entry->cc, entry->tt, entry->ct);
      smprof_json_writer_member (writer, "callers");
      smprof_json_writer_begin_array (writer);
      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);

          smprof_json_writer_begin_object (writer);
          smprof_stats_json_write_function_key (writer, table, caller->caller);
          write_counts (writer, caller->nc, caller->cc, caller->tt, caller->ct);
          smprof_json_writer_end_object (writer);
        }
      smprof_json_writer_end_array (writer);
      smprof_json_writer_end_object (writer);
    }
  smprof_json_writer_end_array (writer);
}

/**
 * smprof_stats_json_write_tree:
 * @writer: where to write
 * @tree: a call tree
 * @write_values: writes the members of one frame after its key
 * @user_data: data for @write_values
 *
 * Writes the frames below the root of @tree as an array of nested
 * `{"function", "file", "line", ..., "children": [...]}`, the members
 * between the key and the children written by @write_values. Iterative, so a
 * deep tree cannot overflow the stack.
 */
void
smprof_stats_json_write_tree (SmprofJsonWriter          *writer,
                              SmprofCallTree            *tree,
                              SmprofStatsJsonFrameFunc   write_values,
                              gpointer                   user_data)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  const SmprofCallTreeNode *root = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT);
  guint32 current = root->first_child;

  smprof_json_writer_begin_array (writer);
  while (current != SMPROF_CALL_TREE_NONE)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, current);

      smprof_json_writer_begin_object (writer);
      smprof_json_writer_member (writer, "function");
      smprof_json_writer_string (writer, smprof_function_keys_get_name (table, node->func));
      smprof_json_writer_member (writer, "file");
      smprof_json_writer_string (writer, smprof_function_keys_get_file (table, node->func));
      smprof_json_writer_member (writer, "line");
      smprof_json_writer_int (writer, smprof_function_keys_get_line (table, node->func));
      write_values (writer, current, node, user_data);
      smprof_json_writer_member (writer, "children");
      smprof_json_writer_begin_array (writer);

      if (node->first_child != SMPROF_CALL_TREE_NONE)
        {
          current = node->first_child;
          continue;
        }

      /* Close this frame, then every ancestor whose children are all written. */
      for (;;)
        {
          smprof_json_writer_end_array (writer);
          smprof_json_writer_end_object (writer);

          if (node->next_sibling != SMPROF_CALL_TREE_NONE)
            {
              current = node->next_sibling;
              break;
            }

          if (node->parent == SMPROF_CALL_TREE_ROOT)
            {
              current = SMPROF_CALL_TREE_NONE;
              break;
            }

          node = smprof_call_tree_get_node (tree, node->parent);
        }
    }
  smprof_json_writer_end_array (writer);
}

static void
write_frame_times (SmprofJsonWriter         *writer,
                   guint32                   index,
                   const SmprofCallTreeNode *node,
                   gpointer                  user_data)
{
  smprof_json_writer_member (writer, "time");
  smprof_json_writer_double (writer, node->total);
  smprof_json_writer_member (writer, "self_time");
  smprof_json_writer_double (writer, node->self);
}

/**
 * smprof_stats_json_write_pyinstrument:
 * @writer: where to write
 * @tree: the merged tree of @records
 * @node_ids: the nodes aggregated
 * @records: (element-type SmprofRecord): the records aggregated, in order
 *
 * Writes `{"profiler", "node_ids", "intervals", "total_time", "tree": [...]}`.
 */
void
smprof_stats_json_write_pyinstrument (SmprofJsonWriter   *writer,
                                      SmprofCallTree     *tree,
                                      const char * const *node_ids,
                                      GPtrArray          *records)
{
  smprof_json_writer_begin_object (writer);
  write_header (writer, SMPROF_PROFILER_PYINSTRUMENT, node_ids, records);
  smprof_json_writer_member (writer, "total_time");
  smprof_json_writer_double (writer, smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->total);
  smprof_json_writer_member (writer, "tree");
  smprof_stats_json_write_tree (writer, tree, write_frame_times, NULL);
  smprof_json_writer_end_object (writer);
}

/* A reshaped profile's function rows, sorted as pstats sorts, ties in table
 * order. */
static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  SmprofProfile *profile = ((gpointer *) user_data)[0];
  SmprofSortKey key = GPOINTER_TO_INT (((gpointer *) user_data)[1]);
  const SmprofFunctionRow *x = smprof_profile_get_function (profile, *(const guint *) a);
  const SmprofFunctionRow *y = smprof_profile_get_function (profile, *(const guint *) b);

  switch (key)
    {
    case SMPROF_SORT_TOTTIME:
      return x->tottime > y->tottime ? -1 : x->tottime < y->tottime ? 1 : 0;
    case SMPROF_SORT_CUMTIME:
      return x->cumtime > y->cumtime ? -1 : x->cumtime < y->cumtime ? 1 : 0;
    case SMPROF_SORT_NCALLS:
      return x->ncalls > y->ncalls ? -1 : x->ncalls < y->ncalls ? 1 : 0;
    case SMPROF_SORT_PCALLS:
      return x->pcalls > y->pcalls ? -1 : x->pcalls < y->pcalls ? 1 : 0;
    case SMPROF_SORT_NONE:
    default:
      return 0;
    }
}

/**
 * smprof_stats_json_dup_row_order:
 * @profile: a profile
 * @sort: what to sort by, descending
 *
 * Returns: (transfer full) (element-type guint): row indices, sorted
 */
GArray *
smprof_stats_json_dup_row_order (SmprofProfile *profile,
                                 SmprofSortKey  sort)
{
  guint n = smprof_profile_get_n_functions (profile);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  gpointer data[2] = { profile, GINT_TO_POINTER (sort) };

  for (guint i = 0; i < n; i++)
    g_array_append_val (order, i);
  if (sort != SMPROF_SORT_NONE)
    g_array_sort_with_data (order, compare_rows, data);

  return order;
}

static void
write_count_or_null (SmprofJsonWriter *writer,
                     gint64            count)
{
  if (count < 0)
    smprof_json_writer_null (writer);
  else
    smprof_json_writer_int (writer, count);
}

static void
write_transforms (SmprofJsonWriter *writer,
                  SmprofProfile    *profile)
{
  GPtrArray *transforms = smprof_profile_get_transforms (profile);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));

  smprof_json_writer_member (writer, "transforms");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < transforms->len; i++)
    {
      g_autofree char *option = smprof_transform_to_option (g_ptr_array_index (transforms, i), table);

      smprof_json_writer_string (writer, option);
    }
  smprof_json_writer_end_array (writer);
  smprof_json_writer_member (writer, "inverted");
  smprof_json_writer_boolean (writer, smprof_profile_is_inverted (profile));
}

/**
 * smprof_stats_json_write_profile:
 * @writer: where to write
 * @profile: a profile
 * @sort: the order of the functions (cProfile)
 * @limit: how many functions at most, or -1 for all
 * @with_tree: whether to add the call tree to a cProfile aggregate
 *
 * An aggregate as smprof_stats_json_write_cprofile() or
 * smprof_stats_json_write_pyinstrument() write it, a cProfile one with
 * `"tree"` last when @with_tree. A reshaped profile (transformed or inverted)
 * is `{"profiler", "node_ids", "intervals", "transforms": [the options that
 * reshape it], "inverted", "total_time", "functions": [{"file", "line",
 * "function", "ncalls", "primitive_calls", "tottime", "cumtime"}], "tree"}`,
 * call counts null where the transforms leave them unknown.
 */
void
smprof_stats_json_write_profile (SmprofJsonWriter *writer,
                                 SmprofProfile    *profile,
                                 SmprofSortKey     sort,
                                 int               limit,
                                 gboolean          with_tree)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  g_autoptr(GArray) order = NULL;
  guint n;

  if (smprof_profile_get_transforms (profile)->len == 0 && !smprof_profile_is_inverted (profile))
    {
      if (smprof_profile_get_profiler (profile) == SMPROF_PROFILER_PYINSTRUMENT)
        {
          smprof_stats_json_write_pyinstrument (writer, tree, smprof_profile_get_node_ids (profile),
                                                smprof_profile_get_records (profile));
          return;
        }

      write_cprofile_members (writer, smprof_profile_get_cprofile (profile), smprof_profile_get_node_ids (profile),
                              smprof_profile_get_records (profile), sort, limit);
      if (with_tree)
        {
          smprof_json_writer_member (writer, "tree");
          smprof_stats_json_write_tree (writer, tree, write_frame_times, NULL);
        }
      smprof_json_writer_end_object (writer);
      return;
    }

  order = smprof_stats_json_dup_row_order (profile, sort);
  n = order->len;
  if (limit >= 0 && (guint) limit < n)
    n = limit;

  smprof_json_writer_begin_object (writer);
  write_header (writer, smprof_profile_get_profiler (profile), smprof_profile_get_node_ids (profile),
                smprof_profile_get_records (profile));
  write_transforms (writer, profile);
  smprof_json_writer_member (writer, "total_time");
  smprof_json_writer_double (writer, smprof_profile_get_total_time (profile));
  smprof_json_writer_member (writer, "functions");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < n; i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, g_array_index (order, guint, i));

      smprof_json_writer_begin_object (writer);
      smprof_stats_json_write_function_key (writer, table, row->func);
      smprof_json_writer_member (writer, "ncalls");
      write_count_or_null (writer, row->ncalls);
      smprof_json_writer_member (writer, "primitive_calls");
      write_count_or_null (writer, row->pcalls);
      smprof_json_writer_member (writer, "tottime");
      smprof_json_writer_double (writer, row->tottime);
      smprof_json_writer_member (writer, "cumtime");
      smprof_json_writer_double (writer, row->cumtime);
      smprof_json_writer_end_object (writer);
    }
  smprof_json_writer_end_array (writer);
  smprof_json_writer_member (writer, "tree");
  smprof_stats_json_write_tree (writer, tree, write_frame_times, NULL);
  smprof_json_writer_end_object (writer);
}
