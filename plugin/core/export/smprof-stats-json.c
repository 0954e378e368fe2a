/* smprof-stats-json.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-stats-json.h"

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
  smprof_json_writer_end_object (writer);
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
