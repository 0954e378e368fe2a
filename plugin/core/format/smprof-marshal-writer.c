/* smprof-marshal-writer.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The writing side of smprof-marshal.c: the types a pstats file holds, as
 * CPython's marshal writes them (smdebug-format.md §1.7), for the pstats
 * export and for tests that need input no real file holds. Nothing here
 * checks or converts text: what @text holds is written. */

#include "config.h"

#include <string.h>

#include "smprof-marshal-writer.h"

#define TYPE_NULL         '0'
#define TYPE_NONE         'N'
#define TYPE_TRUE         'T'
#define TYPE_FALSE        'F'
#define TYPE_INT          'i'
#define TYPE_LONG         'l'
#define TYPE_FLOAT        'f'
#define TYPE_BINARY_FLOAT 'g'
#define TYPE_UNICODE      'u'
#define TYPE_SHORT_ASCII  'z'
#define TYPE_TUPLE        '('
#define TYPE_SMALL_TUPLE  ')'
#define TYPE_DICT         '{'
#define TYPE_REF          'r'
#define FLAG_REF          0x80

/* Python longs are written in base 2^15, least significant digit first. */
#define LONG_SHIFT 15
#define LONG_MASK  0x7fff

static gsize
put_type (GByteArray *out,
          guint8      type)
{
  gsize offset = out->len;

  g_byte_array_append (out, &type, 1);

  return offset;
}

static void
put_u8 (GByteArray *out,
        guint8      value)
{
  g_byte_array_append (out, &value, 1);
}

static void
put_u32 (GByteArray *out,
         guint32     value)
{
  guint32 le = GUINT32_TO_LE (value);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

gsize
smprof_marshal_put_none (GByteArray *out)
{
  g_return_val_if_fail (out != NULL, 0);

  return put_type (out, TYPE_NONE);
}

gsize
smprof_marshal_put_bool (GByteArray *out,
                         gboolean    value)
{
  g_return_val_if_fail (out != NULL, 0);

  return put_type (out, value ? TYPE_TRUE : TYPE_FALSE);
}

/**
 * smprof_marshal_put_int:
 * @out: where to append
 * @value: any 64-bit integer
 *
 * Appends @value as CPython writes an int: 32 bits when it fits, otherwise
 * in the long form (smprof_marshal_put_long()).
 *
 * Returns: the offset of the type byte
 */
gsize
smprof_marshal_put_int (GByteArray *out,
                        gint64      value)
{
  gsize offset;

  g_return_val_if_fail (out != NULL, 0);

  if (value < G_MININT32 || value > G_MAXINT32)
    return smprof_marshal_put_long (out, value);

  offset = put_type (out, TYPE_INT);
  put_u32 (out, (guint32) (gint32) value);

  return offset;
}

/**
 * smprof_marshal_put_long:
 * @out: where to append
 * @value: any 64-bit integer
 *
 * Appends @value in the long form, whatever its size, as Python 2 wrote its
 * longs: a signed count of digits, then the magnitude in 15-bit digits,
 * least significant first. Zero has no digits.
 *
 * Returns: the offset of the type byte
 */
gsize
smprof_marshal_put_long (GByteArray *out,
                         gint64      value)
{
  guint64 magnitude = value < 0 ? (guint64) 0 - (guint64) value : (guint64) value;
  guint16 digits[(64 + LONG_SHIFT - 1) / LONG_SHIFT];
  gint32 n = 0;
  gsize offset;

  g_return_val_if_fail (out != NULL, 0);

  while (magnitude != 0)
    {
      digits[n++] = magnitude & LONG_MASK;
      magnitude >>= LONG_SHIFT;
    }

  offset = put_type (out, TYPE_LONG);
  put_u32 (out, (guint32) (value < 0 ? -n : n));
  for (gint32 i = 0; i < n; i++)
    {
      guint16 le = GUINT16_TO_LE (digits[i]);

      g_byte_array_append (out, (const guint8 *) &le, sizeof le);
    }

  return offset;
}

/* The binary form of marshal version 2 and later: the double's 8 bytes,
 * little-endian, so every value (NaN, infinities, -0.0) goes through. */
gsize
smprof_marshal_put_float (GByteArray *out,
                          double      value)
{
  guint64 bits;
  gsize offset;

  g_return_val_if_fail (out != NULL, 0);

  memcpy (&bits, &value, sizeof bits);
  bits = GUINT64_TO_LE (bits);
  offset = put_type (out, TYPE_BINARY_FLOAT);
  g_byte_array_append (out, (const guint8 *) &bits, sizeof bits);

  return offset;
}

/* The text form of marshal versions 0 and 1: repr() of the float, at most
 * 255 bytes. */
gsize
smprof_marshal_put_float_text (GByteArray *out,
                               const char *text)
{
  gsize length;
  gsize offset;

  g_return_val_if_fail (out != NULL, 0);
  g_return_val_if_fail (text != NULL, 0);

  length = strlen (text);
  g_return_val_if_fail (length <= G_MAXUINT8, 0);

  offset = put_type (out, TYPE_FLOAT);
  put_u8 (out, (guint8) length);
  g_byte_array_append (out, (const guint8 *) text, length);

  return offset;
}

/**
 * smprof_marshal_put_string:
 * @out: where to append
 * @text: the string's UTF-8 bytes (NUL bytes allowed)
 * @length: how many bytes of @text
 *
 * Appends a str as marshal version 4 writes it: the short ASCII form for
 * ASCII under 256 bytes, otherwise the UTF-8 form. @text is written as it
 * is: make it valid UTF-8 first (g_utf8_make_valid()) for a file CPython
 * must load.
 *
 * Returns: the offset of the type byte
 */
gsize
smprof_marshal_put_string (GByteArray *out,
                           const char *text,
                           gsize       length)
{
  gboolean ascii = TRUE;
  gsize offset;

  g_return_val_if_fail (out != NULL, 0);
  g_return_val_if_fail (text != NULL || length == 0, 0);
  g_return_val_if_fail (length <= G_MAXINT32, 0);

  for (gsize i = 0; i < length && ascii; i++)
    ascii = (guchar) text[i] < 0x80;

  if (ascii && length <= G_MAXUINT8)
    {
      offset = put_type (out, TYPE_SHORT_ASCII);
      put_u8 (out, (guint8) length);
    }
  else
    {
      offset = put_type (out, TYPE_UNICODE);
      put_u32 (out, (guint32) length);
    }
  if (length > 0)
    g_byte_array_append (out, (const guint8 *) text, (guint) length);

  return offset;
}

/* A tuple's head; its @n_items items follow. */
gsize
smprof_marshal_put_tuple (GByteArray *out,
                          guint32     n_items)
{
  gsize offset;

  g_return_val_if_fail (out != NULL, 0);
  g_return_val_if_fail (n_items <= G_MAXINT32, 0);

  if (n_items <= G_MAXUINT8)
    {
      offset = put_type (out, TYPE_SMALL_TUPLE);
      put_u8 (out, (guint8) n_items);
    }
  else
    {
      offset = put_type (out, TYPE_TUPLE);
      put_u32 (out, n_items);
    }

  return offset;
}

/* A dict's head; key, value, key, value... and smprof_marshal_put_dict_end()
 * follow. */
gsize
smprof_marshal_put_dict (GByteArray *out)
{
  g_return_val_if_fail (out != NULL, 0);

  return put_type (out, TYPE_DICT);
}

void
smprof_marshal_put_dict_end (GByteArray *out)
{
  g_return_if_fail (out != NULL);

  put_type (out, TYPE_NULL);
}

/* A back-reference to the @slot-th flagged object (smprof_marshal_flag_ref()),
 * counted from 0 in the order their type bytes come. */
gsize
smprof_marshal_put_ref (GByteArray *out,
                        guint32     slot)
{
  gsize offset;

  g_return_val_if_fail (out != NULL, 0);

  offset = put_type (out, TYPE_REF);
  put_u32 (out, slot);

  return offset;
}

/**
 * smprof_marshal_flag_ref:
 * @out: what was written
 * @offset: the type byte of a value written to @out
 *
 * Flags the value so that a reader keeps it for back-references
 * (smprof_marshal_put_ref()), as CPython does with objects it meets more
 * than once. None, True and False take no slot, flagged or not.
 */
void
smprof_marshal_flag_ref (GByteArray *out,
                         gsize       offset)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (offset < out->len);

  out->data[offset] |= FLAG_REF;
}
