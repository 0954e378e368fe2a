/* smprof-export-pstats.c: the selection as a file pstats.Stats loads
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-export-private.h"

/* marshal version 4, the subset a pstats dict needs (smdebug-format.md §1.7).
 * No back-references: they only make the file smaller, and every loader
 * accepts their absence. */
#define TYPE_NULL        '0'
#define TYPE_INT         'i'
#define TYPE_LONG        'l'
#define TYPE_BINARY_FLOAT 'g'
#define TYPE_UNICODE     'u'
#define TYPE_SHORT_ASCII 'z'
#define TYPE_DICT        '{'
#define TYPE_SMALL_TUPLE ')'

static void
put_u32 (GByteArray *out,
         guint32     value)
{
  guint32 le = GUINT32_TO_LE (value);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

static void
put_byte (GByteArray *out,
          guint8      value)
{
  g_byte_array_append (out, &value, 1);
}

/* Python ints beyond 32 bits are TYPE_LONG: a signed digit count, then the
 * magnitude in 15-bit digits, least significant first. */
static void
put_int (GByteArray *out,
         gint64      value)
{
  guint64 magnitude;
  guint16 digits[5];
  int n = 0;

  if (value >= G_MININT32 && value <= G_MAXINT32)
    {
      put_byte (out, TYPE_INT);
      put_u32 (out, (guint32) (gint32) value);
      return;
    }

  magnitude = value < 0 ? (guint64) 0 - (guint64) value : (guint64) value;
  while (magnitude != 0)
    {
      digits[n++] = magnitude & 0x7fff;
      magnitude >>= 15;
    }

  put_byte (out, TYPE_LONG);
  put_u32 (out, (guint32) (gint32) (value < 0 ? -n : n));
  for (int i = 0; i < n; i++)
    {
      guint16 le = GUINT16_TO_LE (digits[i]);

      g_byte_array_append (out, (const guint8 *) &le, sizeof le);
    }
}

static void
put_float (GByteArray *out,
           double      value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  bits = GUINT64_TO_LE (bits);
  put_byte (out, TYPE_BINARY_FLOAT);
  g_byte_array_append (out, (const guint8 *) &bits, sizeof bits);
}

static void
put_string (GByteArray *out,
            const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  gsize len = strlen (valid);
  gboolean ascii = TRUE;

  for (gsize i = 0; i < len && ascii; i++)
    ascii = (guchar) valid[i] < 0x80;

  if (ascii && len < 256)
    {
      put_byte (out, TYPE_SHORT_ASCII);
      put_byte (out, (guint8) len);
    }
  else
    {
      put_byte (out, TYPE_UNICODE);
      put_u32 (out, (guint32) len);
    }
  g_byte_array_append (out, (const guint8 *) valid, len);
}

static void
put_tuple_header (GByteArray *out,
                  guint8      n_items)
{
  put_byte (out, TYPE_SMALL_TUPLE);
  put_byte (out, n_items);
}

static void
put_func_key (GByteArray         *out,
              SmprofFunctionKeys *table,
              guint32             func)
{
  put_tuple_header (out, 3);
  put_string (out, smprof_function_keys_get_file (table, func));
  put_int (out, smprof_function_keys_get_line (table, func));
  put_string (out, smprof_function_keys_get_name (table, func));
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
  put_tuple_header (out, 5);
  put_int (out, cc);
  put_int (out, nc);
  put_float (out, tt);
  put_float (out, ct);
  put_byte (out, TYPE_DICT);
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
  put_tuple_header (out, 4);
  put_int (out, nc);
  put_int (out, cc);
  put_float (out, tt);
  put_float (out, ct);
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

  put_byte (out, TYPE_DICT);
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
              put_int (out, caller->nc);
            }
          else
            put_caller (out, table, caller->caller, caller->nc, caller->cc, caller->tt, caller->ct);
        }
      put_byte (out, TYPE_NULL);

      if (!flush_some (out, stream, cancellable, error))
        return FALSE;
    }
  put_byte (out, TYPE_NULL);

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
  g_autoptr(GHashTable) row_of_func = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) caller_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  /* The hash table's keys live here: one edge per frame at most, so the array
   * is never moved by a reallocation. */
  g_autoptr(GArray) edge_keys = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n_nodes);

  g_array_set_clear_func (entries, sampled_entry_clear);
  g_array_set_size (entries, n_rows);
  for (guint i = 0; i < n_rows; i++)
    {
      SampledEntry *entry = &g_array_index (entries, SampledEntry, i);

      entry->own.func = smprof_profile_get_function (profile, i)->func;
      entry->callers = g_array_new (FALSE, TRUE, sizeof (SampledTally));
      g_hash_table_insert (row_of_func, GUINT_TO_POINTER (entry->own.func + 1), GUINT_TO_POINTER (i + 1));
    }

  for (guint32 i = 1; i < n_nodes; i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, i);
      guint row = GPOINTER_TO_UINT (g_hash_table_lookup (row_of_func, GUINT_TO_POINTER (node->func + 1)));
      SampledEntry *entry;
      guint32 caller;
      gint64 key;
      gpointer found;
      SampledTally *by_caller;

      /* The frame of time an estimate could not place is no function. */
      if (row == 0)
        continue;
      entry = &g_array_index (entries, SampledEntry, row - 1);
      tally (&entry->own, runs_above (tree, i, SMPROF_CALL_TREE_NONE, node->func), node->self, node->total);

      if (node->parent == SMPROF_CALL_TREE_ROOT)
        continue;

      caller = smprof_call_tree_get_node (tree, node->parent)->func;
      if (g_hash_table_lookup (row_of_func, GUINT_TO_POINTER (caller + 1)) == NULL)
        continue;
      key = ((gint64) (row - 1) << 32) | caller;
      found = g_hash_table_lookup (caller_index, &key);
      if (found == NULL)
        {
          SampledTally fresh = { caller, 0, 0, 0, 0 };

          g_array_append_val (entry->callers, fresh);
          g_array_append_val (edge_keys, key);
          found = GUINT_TO_POINTER (entry->callers->len);
          g_hash_table_insert (caller_index, &g_array_index (edge_keys, gint64, edge_keys->len - 1), found);
        }

      by_caller = &g_array_index (entry->callers, SampledTally, GPOINTER_TO_UINT (found) - 1);
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

  put_byte (out, TYPE_DICT);
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
      put_byte (out, TYPE_NULL);

      if (!flush_some (out, stream, cancellable, error))
        return FALSE;
    }
  put_byte (out, TYPE_NULL);

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
