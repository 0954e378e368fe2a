/* smprof-export-pstats.c: the merged cProfile stats as a file pstats.Stats loads
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
put_func_key (GByteArray      *out,
              SmprofFuncTable *table,
              guint32          func)
{
  put_tuple_header (out, 3);
  put_string (out, smprof_func_table_get_file (table, func));
  put_int (out, smprof_func_table_get_line (table, func));
  put_string (out, smprof_func_table_get_name (table, func));
}

/* `{(file, line, name): (cc, nc, tt, ct, {caller key: (nc, cc, tt, ct)})}` in
 * the merged dict order, so pstats' "standard name" order and its float sums
 * match `smprof stats`. A caller read from the legacy `profile` module's int
 * form is written back as an int. */
gboolean
smprof_export_write_pstats (SmprofProfile  *profile,
                            GOutputStream  *stream,
                            GCancellable   *cancellable,
                            GError        **error)
{
  SmprofCprofileProfile *stats = smprof_profile_get_cprofile (profile);
  SmprofFuncTable *table;
  g_autoptr(GByteArray) out = g_byte_array_new ();

  g_return_val_if_fail (stats != NULL, FALSE);

  table = smprof_cprofile_profile_get_table (stats);

  put_byte (out, TYPE_DICT);
  for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (stats); i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (stats, i);

      put_func_key (out, table, entry->func);
      put_tuple_header (out, 5);
      put_int (out, entry->cc);
      put_int (out, entry->nc);
      put_float (out, entry->tt);
      put_float (out, entry->ct);

      put_byte (out, TYPE_DICT);
      for (guint c = 0; c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);

          put_func_key (out, table, caller->caller);
          if (caller->legacy)
            put_int (out, caller->nc);
          else
            {
              put_tuple_header (out, 4);
              put_int (out, caller->nc);
              put_int (out, caller->cc);
              put_float (out, caller->tt);
              put_float (out, caller->ct);
            }
        }
      put_byte (out, TYPE_NULL);

      if (out->len >= 256 * 1024)
        {
          if (!g_output_stream_write_all (stream, out->data, out->len, NULL, cancellable, error))
            return FALSE;
          g_byte_array_set_size (out, 0);
        }
    }
  put_byte (out, TYPE_NULL);

  return g_output_stream_write_all (stream, out->data, out->len, NULL, cancellable, error);
}
