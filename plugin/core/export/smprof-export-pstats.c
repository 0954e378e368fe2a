/* smprof-export-pstats.c: the selection as a file pstats.Stats loads
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-export-private.h"
#include "smprof-marshal-writer.h"
#include "smprof-u64-map.h"

/* A pstats dict in marshal version 4 (smdebug-format.md §1.7). No
 * back-references: they only make the file smaller, and every loader
 * accepts their absence. */

/* marshal.loads() refuses a str that is not valid UTF-8. */
static void
put_text (GByteArray *out,
          const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  smprof_marshal_put_string (out, valid, strlen (valid));
}

static void
put_func_key (GByteArray         *out,
              SmprofFunctionKeys *table,
              guint32             func)
{
  smprof_marshal_put_tuple (out, 3);
  put_text (out, smprof_function_keys_get_file (table, func));
  smprof_marshal_put_int (out, smprof_function_keys_get_line (table, func));
  put_text (out, smprof_function_keys_get_name (table, func));
}

static void
put_entry_head (GByteArray         *out,
                SmprofFunctionKeys *table,
                guint32             func,
                gint64              cc,
                gint64              nc,
                double              tt,
                double              ct)
{
  put_func_key (out, table, func);
  smprof_marshal_put_tuple (out, 5);
  smprof_marshal_put_int (out, cc);
  smprof_marshal_put_int (out, nc);
  smprof_marshal_put_float (out, tt);
  smprof_marshal_put_float (out, ct);
  smprof_marshal_put_dict (out);
}

/* Callers are (nc, cc, tt, ct): the other way round from the entry's own
 * (cc, nc, ...), as cProfile writes them. */
static void
put_caller (GByteArray         *out,
            SmprofFunctionKeys *table,
            guint32             caller,
            gint64              nc,
            gint64              cc,
            double              tt,
            double              ct)
{
  put_func_key (out, table, caller);
  smprof_marshal_put_tuple (out, 4);
  smprof_marshal_put_int (out, nc);
  smprof_marshal_put_int (out, cc);
  smprof_marshal_put_float (out, tt);
  smprof_marshal_put_float (out, ct);
}

/* Hands the bytes so far to @stream once they make a worthwhile write. */
static gboolean
flush_some (GByteArray    *out,
            GOutputStream *stream,
            GCancellable  *cancellable,
            GError       **error)
{
  if (out->len < 256 * 1024)
    return TRUE;

  if (!g_output_stream_write_all (stream, out->data, out->len, NULL, cancellable, error))
    return FALSE;
  g_byte_array_set_size (out, 0);

  return TRUE;
}

/* `{(file, line, name): (cc, nc, tt, ct, {caller key: (nc, cc, tt, ct)})}` in
 * the merged dict order, so pstats' "standard name" order and its float sums
 * match `smprof stats`. A caller read from the legacy `profile` module's int
 * form is written back as an int. */
static gboolean
write_cprofile (SmprofCprofileProfile *stats,
                GOutputStream         *stream,
                GCancellable          *cancellable,
                GError               **error)
{
  SmprofFunctionKeys *table = smprof_cprofile_profile_get_table (stats);
  g_autoptr(GByteArray) out = g_byte_array_new ();

  smprof_marshal_put_dict (out);
  for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (stats); i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (stats, i);

      put_entry_head (out, table, entry->func, entry->cc, entry->nc, entry->tt, entry->ct);
      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);

          if (caller->legacy)
            {
              put_func_key (out, table, caller->caller);
              smprof_marshal_put_int (out, caller->nc);
            }
          else
            put_caller (out, table, caller->caller, caller->nc, caller->cc, caller->tt, caller->ct);
        }
      smprof_marshal_put_dict_end (out);

      if (!flush_some (out, stream, cancellable, error))
        return FALSE;
    }
  smprof_marshal_put_dict_end (out);

  return g_output_stream_write_all (stream, out->data, out->len, NULL, cancellable, error);
}

/* ------------------------------------------------------------------ Pyinstrument */

/* What the samples tell of a function (@func), or of its calls from one
 * caller (@func is then the caller). */
typedef struct
{
  guint32 func;
  gint64  contexts;
  gint64  outermost;
  double  self_time;
  double  time;
} SampledTally;

typedef struct
{
  SampledTally  own;
  GArray       *callers;   /* SampledTally, in the order the tree meets them */
} SampledEntry;

static void
sampled_entry_clear (gpointer data)
{
  SampledEntry *entry = data;

  g_clear_pointer (&entry->callers, g_array_unref);
}

/* Whether a frame of @func, called from a frame of @caller, already runs
 * above @node: then cProfile would count the call as recursive, and its time
 * is inside the outer call's. With @caller SMPROF_CALL_TREE_NONE, any frame of
 * @func counts; otherwise only a @caller → @func call. */
static gboolean
runs_above (SmprofCallTree *tree,
            guint32         node,
            guint32         caller,
            guint32         func)
{
  const SmprofCallTreeNode *frame = smprof_call_tree_get_node (tree, node);

  for (guint32 up = frame->parent; up != SMPROF_CALL_TREE_ROOT; up = frame->parent)
    {
      frame = smprof_call_tree_get_node (tree, up);
      if (frame->func != func)
        continue;
      if (caller == SMPROF_CALL_TREE_NONE)
        return TRUE;
      if (frame->parent != SMPROF_CALL_TREE_ROOT &&
          smprof_call_tree_get_node (tree, frame->parent)->func == caller)
        return TRUE;
    }

  return FALSE;
}

static void
tally (SampledTally *into,
       gboolean      nested,
       double        self_time,
       double        time)
{
  into->contexts++;
  /* Pyinstrument rounds each time to 6 decimals, so a frame's self time can
   * come out as -1e-06; pstats readers would print it as "-0.000". */
  into->self_time += MAX (self_time, 0);
  if (!nested)
    {
      into->outermost++;
      into->time += time;
    }
}

/* Pyinstrument samples stacks and counts no calls. Each frame of the merged
 * calling-context tree is at least one call, so a function's calls are
 * counted as the frames it has (a lower bound), its primitive calls as those
 * not inside a frame of the same function, its time as its self time and its
 * cumulative time as the time of those outer frames, as the Functions table
 * sums them. A caller's figures are the same over the frames it called, where
 * a call is primitive unless the same caller → callee call runs above it.
 * A reshaped cProfile profile (smprof_profile_new_transformed()) is written
 * the same way from its reshaped tree, with the calls its table still knows. */
static GArray *
tally_sampled (SmprofProfile *profile)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  guint n_rows = smprof_profile_get_n_functions (profile);
  guint n_nodes = smprof_call_tree_get_n_nodes (tree);
  GArray *entries = g_array_sized_new (FALSE, TRUE, sizeof (SampledEntry), n_rows);
  g_auto(SmprofU64Map) row_of_func = { 0 };
  g_auto(SmprofU64Map) caller_index = { 0 };   /* (row << 32 | caller) -> index in the row's callers */

  g_array_set_clear_func (entries, sampled_entry_clear);
  g_array_set_size (entries, n_rows);
  smprof_u64_map_init (&row_of_func, n_rows);
  smprof_u64_map_init (&caller_index, n_nodes);
  for (guint i = 0; i < n_rows; i++)
    {
      SampledEntry *entry = &g_array_index (entries, SampledEntry, i);

      entry->own.func = smprof_profile_get_function (profile, i)->func;
      entry->callers = g_array_new (FALSE, TRUE, sizeof (SampledTally));
      smprof_u64_map_insert (&row_of_func, entry->own.func, i);
    }

  for (guint32 i = 1; i < n_nodes; i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      guint32 row = smprof_u64_map_lookup (&row_of_func, node->func);
      SampledEntry *entry;
      guint32 caller;
      guint32 found;
      SampledTally *by_caller;

      /* The frame of time an estimate could not place is no function. */
      if (row == SMPROF_U64_MAP_NONE)
        continue;
      entry = &g_array_index (entries, SampledEntry, row);
      tally (&entry->own, runs_above (tree, i, SMPROF_CALL_TREE_NONE, node->func), node->self, node->total);

      if (node->parent == SMPROF_CALL_TREE_ROOT)
        continue;

      caller = smprof_call_tree_get_node (tree, node->parent)->func;
      if (smprof_u64_map_lookup (&row_of_func, caller) == SMPROF_U64_MAP_NONE)
        continue;
      found = smprof_u64_map_lookup_or_insert (&caller_index, (guint64) row << 32 | caller, entry->callers->len);
      if (found == SMPROF_U64_MAP_NONE)
        {
          SampledTally fresh = { caller, 0, 0, 0, 0 };

          found = entry->callers->len;
          g_array_append_val (entry->callers, fresh);
        }

      by_caller = &g_array_index (entry->callers, SampledTally, found);
      tally (by_caller, runs_above (tree, i, caller, node->func), node->self, node->total);
    }

  return entries;
}

static gboolean
write_sampled (SmprofProfile  *profile,
               GOutputStream  *stream,
               GCancellable   *cancellable,
               GError        **error)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  g_autoptr(GArray) entries = tally_sampled (profile);
  g_autoptr(GByteArray) out = g_byte_array_new ();

  smprof_marshal_put_dict (out);
  for (guint i = 0; i < entries->len; i++)
    {
      const SampledEntry *entry = &g_array_index (entries, SampledEntry, i);
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);

      /* A reshaped cProfile profile still knows a function's calls. */
      if (row->ncalls >= 0)
        put_entry_head (out, table, entry->own.func, row->pcalls, row->ncalls, entry->own.self_time, entry->own.time);
      else
        put_entry_head (out, table, entry->own.func, entry->own.outermost, entry->own.contexts,
                        entry->own.self_time, entry->own.time);
      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SampledTally *caller = &g_array_index (entry->callers, SampledTally, c);

          put_caller (out, table, caller->func, caller->contexts, caller->outermost,
                      caller->self_time, caller->time);
        }
      smprof_marshal_put_dict_end (out);

      if (!flush_some (out, stream, cancellable, error))
        return FALSE;
    }
  smprof_marshal_put_dict_end (out);

  return g_output_stream_write_all (stream, out->data, out->len, NULL, cancellable, error);
}

gboolean
smprof_export_write_pstats (SmprofProfile  *profile,
                            GOutputStream  *stream,
                            GCancellable   *cancellable,
                            GError        **error)
{
  SmprofCprofileProfile *stats;

  /* The function table and its callers do not depend on which way up the
   * tree is read. */
  profile = smprof_profile_get_upright (profile);
  stats = smprof_profile_get_cprofile (profile);
  if (stats != NULL)
    return write_cprofile (stats, stream, cancellable, error);

  return write_sampled (profile, stream, cancellable, error);
}
