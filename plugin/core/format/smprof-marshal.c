/* smprof-marshal.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "smprof-marshal-private.h"
#include "smprof-types.h"

#define FLAG_REF  0x80
#define MAX_DEPTH 64
/* The largest dump whose value arrays are sized before it is read. */
#define PRESIZE_MAX_BYTES (16u << 20)

/* A reference slot whose container is still being read. */
#define SLOT_PENDING G_MAXUINT32

/* Python longs are stored in base 2^15; five digits already exceed 64 bits. */
#define LONG_SHIFT      15
#define LONG_MAX_DIGITS 5

typedef struct
{
  const guint8       *data;
  gsize               len;
  gsize               pos;

  /* Bytes that the open containers still need after the current object: one
   * for each tuple item not started yet and for each dict's end marker. Every
   * length is checked against what remains beyond them, so a hostile count
   * fails at once instead of reserving memory the input could never fill. */
  gsize               pending;
  guint               depth;

  SmprofMarshalValue *values;
  guint               n_values;
  guint               values_size;
  guint32            *items;
  guint               n_items;
  guint               items_size;
  guint32            *refs;      /* reference table: value indices */
  guint               n_refs;
  guint               refs_size;
  guint32            *stack;     /* keys and values of the dicts being read */
  guint               n_stack;
  guint               stack_size;

  GError            **error;
} Reader;

static gboolean read_object (Reader  *reader,
                             guint32 *out_index);

static gpointer
grow (gpointer array,
      guint   *size,
      gsize    needed,
      gsize    element_size)
{
  gsize new_size = MAX ((gsize) *size * 2, 64);

  if (new_size < needed)
    new_size = needed;
  /* Counts never exceed the input length, which is below G_MAXINT32. */
  new_size = MIN (new_size, G_MAXUINT);

  *size = new_size;
  return g_realloc_n (array, new_size, element_size);
}

static gboolean G_GNUC_PRINTF (4, 5)
fail (Reader           *reader,
      SmprofFormatError code,
      gsize             offset,
      const char       *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (reader->error, SMPROF_FORMAT_ERROR, code,
               "byte %" G_GSIZE_FORMAT ": %s", offset, message);
  return FALSE;
}

static inline gsize
available (Reader *reader)
{
  g_assert (reader->len - reader->pos >= reader->pending);

  return reader->len - reader->pos - reader->pending;
}

static inline guint8
take_u8 (Reader *reader)
{
  return reader->data[reader->pos++];
}

static inline guint32
take_u32 (Reader *reader)
{
  guint32 le;

  memcpy (&le, reader->data + reader->pos, sizeof le);
  reader->pos += sizeof le;
  return GUINT32_FROM_LE (le);
}

static guint32
add_value (Reader           *reader,
           SmprofMarshalType type,
           gsize             offset)
{
  SmprofMarshalValue *value;

  if (reader->n_values == reader->values_size)
    reader->values = grow (reader->values, &reader->values_size,
                           reader->n_values + 1, sizeof *reader->values);

  value = &reader->values[reader->n_values];
  value->type = type;
  value->length = 0;
  value->offset = offset;
  value->v.i = 0;

  return reader->n_values++;
}

/* Returns the slot's index so that a container can fill it once complete. */
static guint
add_ref (Reader  *reader,
         guint32  value_index)
{
  if (reader->n_refs == reader->refs_size)
    reader->refs = grow (reader->refs, &reader->refs_size,
                         reader->n_refs + 1, sizeof *reader->refs);

  reader->refs[reader->n_refs] = value_index;
  return reader->n_refs++;
}

static void
push (Reader  *reader,
      guint32  value_index)
{
  if (reader->n_stack == reader->stack_size)
    reader->stack = grow (reader->stack, &reader->stack_size,
                          reader->n_stack + 1, sizeof *reader->stack);

  reader->stack[reader->n_stack++] = value_index;
}

static gboolean
read_length (Reader     *reader,
             gboolean    short_form,
             gsize       start,
             const char *what,
             guint32    *out_length)
{
  gint32 length;

  if (short_form)
    {
      if (available (reader) < 1)
        return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                     "file ends inside the length of a %s", what);
      *out_length = take_u8 (reader);
      return TRUE;
    }

  if (available (reader) < 4)
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside the length of a %s", what);

  length = (gint32) take_u32 (reader);
  if (length < 0)
    return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                 "negative %s length %d", what, length);

  *out_length = (guint32) length;
  return TRUE;
}

static gboolean
enter (Reader *reader,
       gsize   start)
{
  if (reader->depth >= MAX_DEPTH)
    return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                 "containers nested deeper than %d levels", MAX_DEPTH);

  reader->depth++;
  return TRUE;
}

static gboolean
read_tuple (Reader   *reader,
            gboolean  small,
            gboolean  flag,
            gsize     start,
            guint32  *out_index)
{
  guint32 index;
  guint32 count;
  guint32 base;
  guint slot = 0;

  if (!read_length (reader, small, start, "tuple", &count))
    return FALSE;

  /* Each item takes at least its type byte. */
  if (count > available (reader))
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside a tuple of %u items", count);

  if (!enter (reader, start))
    return FALSE;

  index = add_value (reader, SMPROF_MARSHAL_TUPLE, start);
  if (flag)
    slot = add_ref (reader, SLOT_PENDING);

  /* A tuple's items are contiguous; nested containers put theirs after. */
  if (reader->n_items + (gsize) count > reader->items_size)
    reader->items = grow (reader->items, &reader->items_size,
                          reader->n_items + (gsize) count, sizeof *reader->items);
  base = reader->n_items;
  reader->n_items += count;
  reader->values[index].length = count;
  reader->values[index].v.items = base;

  reader->pending += count;
  for (guint32 i = 0; i < count; i++)
    {
      guint32 item;

      /* Not straight into items[]: reading the item may move the array. */
      reader->pending--;
      if (!read_object (reader, &item))
        return FALSE;
      reader->items[base + i] = item;
    }

  reader->depth--;
  if (flag)
    reader->refs[slot] = index;

  *out_index = index;
  return TRUE;
}

static gboolean
read_dict (Reader   *reader,
           gboolean  flag,
           gsize     start,
           guint32  *out_index)
{
  guint32 index;
  guint stack_base = reader->n_stack;
  guint n_pairs;
  guint slot = 0;

  /* The end marker. */
  if (available (reader) < 1)
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside a dict");

  if (!enter (reader, start))
    return FALSE;

  index = add_value (reader, SMPROF_MARSHAL_DICT, start);
  if (flag)
    slot = add_ref (reader, SLOT_PENDING);

  reader->pending++;
  for (;;)
    {
      guint32 key;
      guint32 value;

      /* CPython's reader ends a dict at any NULL, flagged or not. */
      if ((reader->data[reader->pos] & ~FLAG_REF) == '0')
        {
          reader->pos++;
          reader->pending--;
          break;
        }

      /* The key's type byte and at least one byte of value. */
      if (available (reader) < 2)
        return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                     "file ends inside a dict");

      reader->pending++;
      if (!read_object (reader, &key))
        return FALSE;
      reader->pending--;

      /* CPython silently ends the dict at a NULL value and drops the key; no
       * writer produces that, so it is treated as damage. */
      if ((reader->data[reader->pos] & ~FLAG_REF) == '0')
        return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, reader->pos,
                     "a dict key has no value");

      if (!read_object (reader, &value))
        return FALSE;

      push (reader, key);
      push (reader, value);
    }

  n_pairs = (reader->n_stack - stack_base) / 2;
  if (reader->n_items + (gsize) n_pairs * 2 > reader->items_size)
    reader->items = grow (reader->items, &reader->items_size,
                          reader->n_items + (gsize) n_pairs * 2, sizeof *reader->items);
  if (n_pairs > 0)
    memcpy (reader->items + reader->n_items, reader->stack + stack_base,
            (gsize) n_pairs * 2 * sizeof *reader->items);
  reader->values[index].length = n_pairs;
  reader->values[index].v.items = reader->n_items;
  reader->n_items += n_pairs * 2;
  reader->n_stack = stack_base;

  reader->depth--;
  if (flag)
    reader->refs[slot] = index;

  *out_index = index;
  return TRUE;
}

static gboolean
read_string (Reader   *reader,
             gboolean  short_form,
             gsize     start,
             guint32  *out_index)
{
  guint32 index;
  guint32 length;

  if (!read_length (reader, short_form, start, "string", &length))
    return FALSE;

  if (length > available (reader))
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside a string of %u bytes", length);

  index = add_value (reader, SMPROF_MARSHAL_STRING, start);
  reader->values[index].length = length;
  reader->values[index].v.s = (const char *) reader->data + reader->pos;
  reader->pos += length;

  *out_index = index;
  return TRUE;
}

static gboolean
read_long (Reader   *reader,
           gsize     start,
           gint64   *out_value)
{
  gint32 n;
  guint n_digits;
  gboolean negative;
  guint64 limit;
  guint64 magnitude = 0;
  const guint8 *digits;

  if (available (reader) < 4)
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside the size of an integer");

  n = (gint32) take_u32 (reader);
  negative = n < 0;
  n_digits = negative ? (guint) -(gint64) n : (guint) n;

  if ((gsize) n_digits * 2 > available (reader))
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside an integer of %u digits", n_digits);

  digits = reader->data + reader->pos;
  reader->pos += (gsize) n_digits * 2;

  if (n_digits > LONG_MAX_DIGITS)
    return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                 "integer of %u digits does not fit in 64 bits", n_digits);

  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;

  for (guint i = n_digits; i-- > 0;)
    {
      guint digit = digits[2 * i] | (guint) digits[2 * i + 1] << 8;

      if (digit >> LONG_SHIFT != 0)
        return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                     "integer digit 0x%04x out of range", digit);
      if (digit == 0 && i == n_digits - 1)
        return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                     "integer has a leading zero digit");
      if (magnitude > (limit - digit) >> LONG_SHIFT)
        return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                     "integer does not fit in 64 bits");

      magnitude = magnitude << LONG_SHIFT | digit;
    }

  if (!negative)
    *out_value = (gint64) magnitude;
  else if (magnitude == (guint64) G_MAXINT64 + 1)
    *out_value = G_MININT64;
  else
    *out_value = -(gint64) magnitude;

  return TRUE;
}

/* Marshal's pre-3.x text float: a length byte, then repr() text. */
static gboolean
read_text_float (Reader *reader,
                 gsize   start,
                 double *out_value)
{
  char text[256];
  char *end = NULL;
  guint length;

  if (available (reader) < 1)
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside a float");
  length = take_u8 (reader);
  if (length > available (reader))
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends inside a float of %u characters", length);

  memcpy (text, reader->data + reader->pos, length);
  text[length] = '\0';
  reader->pos += length;

  *out_value = g_ascii_strtod (text, &end);
  if (length == 0 || end != text + length)
    return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                 "a text float is not a number");

  return TRUE;
}

static gboolean
read_object (Reader  *reader,
             guint32 *out_index)
{
  gsize start = reader->pos;
  guint8 code;
  gboolean flag;
  guint32 index = 0;

  if (available (reader) < 1)
    return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                 "file ends where an object should start");

  code = take_u8 (reader);
  flag = (code & FLAG_REF) != 0;

  switch (code & ~FLAG_REF)
    {
    case '{':
      return read_dict (reader, flag, start, out_index);

    case ')':
    case '(':
      return read_tuple (reader, (code & ~FLAG_REF) == ')', flag, start, out_index);

    case 'z':
    case 'Z':
    case 'a':
    case 'A':
    case 'u':
    case 't':
      if (!read_string (reader, (code & ~FLAG_REF) == 'z' || (code & ~FLAG_REF) == 'Z',
                        start, &index))
        return FALSE;
      break;

    case 'i':
      if (available (reader) < 4)
        return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                     "file ends inside an integer");
      index = add_value (reader, SMPROF_MARSHAL_INT, start);
      reader->values[index].v.i = (gint32) take_u32 (reader);
      break;

    case 'l':
      {
        gint64 value = 0;

        if (!read_long (reader, start, &value))
          return FALSE;
        index = add_value (reader, SMPROF_MARSHAL_INT, start);
        reader->values[index].v.i = value;
      }
      break;

    case 'g':
      {
        guint64 bits;
        double value;

        if (available (reader) < 8)
          return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                       "file ends inside a float");
        memcpy (&bits, reader->data + reader->pos, sizeof bits);
        reader->pos += sizeof bits;
        bits = GUINT64_FROM_LE (bits);
        memcpy (&value, &bits, sizeof value);
        index = add_value (reader, SMPROF_MARSHAL_FLOAT, start);
        reader->values[index].v.f = value;
      }
      break;

    case 'f':
      {
        double value;

        if (!read_text_float (reader, start, &value))
          return FALSE;
        index = add_value (reader, SMPROF_MARSHAL_FLOAT, start);
        reader->values[index].v.f = value;
      }
      break;

    case 'r':
      {
        guint32 ref;

        if (available (reader) < 4)
          return fail (reader, SMPROF_FORMAT_ERROR_TRUNCATED, start,
                       "file ends inside a back-reference");
        ref = take_u32 (reader);
        if (ref >= reader->n_refs)
          return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                       "back-reference to object %u of %u", ref, reader->n_refs);
        if (reader->refs[ref] == SLOT_PENDING)
          return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                       "back-reference to a container that is still being read");
        *out_index = reader->refs[ref];
        return TRUE;
      }

    /* Singletons take no reference slot in CPython, flag or not. */
    case 'N':
      *out_index = add_value (reader, SMPROF_MARSHAL_NONE, start);
      return TRUE;

    case 'T':
    case 'F':
      index = add_value (reader, SMPROF_MARSHAL_BOOL, start);
      reader->values[index].v.i = (code & ~FLAG_REF) == 'T';
      *out_index = index;
      return TRUE;

    case '0':
      return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                   "a NULL marker where an object should be");

    default:
      return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, start,
                   "unknown marshal type 0x%02x", (guint) (code & ~FLAG_REF));
    }

  if (flag)
    add_ref (reader, index);

  *out_index = index;
  return TRUE;
}

/* Decodes @bytes with the reader's arrays, which it may grow; on failure
 * they are kept for the caller to free or reuse. */
static gboolean
parse_all (Reader   *reader,
           GBytes   *bytes,
           guint32  *out_root)
{
  gsize len;

  reader->data = g_bytes_get_data (bytes, &len);
  reader->len = len;

  /* Keeps every index and length within 32 bits. */
  if (len >= G_MAXINT32)
    return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, 0,
                 "%" G_GSIZE_FORMAT " bytes is too large for a marshal dump", len);

  /* pstats dumps hold roughly one value per 6 to 8 bytes: room for them is
   * made before reading, for dumps up to PRESIZE_MAX_BYTES. The arrays of a
   * larger one grow as it is read, so that what it costs follows what it
   * holds, not what its length claims (a large file of garbage costs
   * nothing). */
  if (reader->values_size < MIN (len, PRESIZE_MAX_BYTES) / 8 + 16)
    {
      reader->values_size = MIN (len, PRESIZE_MAX_BYTES) / 8 + 16;
      reader->values = g_renew (SmprofMarshalValue, reader->values, reader->values_size);
    }
  if (reader->items_size < MIN (len, PRESIZE_MAX_BYTES) / 8 + 16)
    {
      reader->items_size = MIN (len, PRESIZE_MAX_BYTES) / 8 + 16;
      reader->items = g_renew (guint32, reader->items, reader->items_size);
    }

  if (!read_object (reader, out_root))
    return FALSE;

  if (reader->pos != reader->len)
    return fail (reader, SMPROF_FORMAT_ERROR_CORRUPT, reader->pos,
                 "%" G_GSIZE_FORMAT " bytes after the end of the data",
                 reader->len - reader->pos);

  return TRUE;
}

/**
 * smprof_marshal_parse:
 * @bytes: a whole marshal dump
 * @error: return location for a #SMPROF_FORMAT_ERROR
 *
 * Decodes one marshal object that must span all of @bytes. Strings point into
 * @bytes, which the result keeps a reference to.
 *
 * Returns: (transfer full) (nullable): the decoded document, or %NULL on error
 */
SmprofMarshal *
smprof_marshal_parse (GBytes  *bytes,
                      GError **error)
{
  Reader reader = { 0 };
  SmprofMarshal *self;
  guint32 root;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  reader.error = error;

  if (!parse_all (&reader, bytes, &root))
    {
      g_free (reader.values);
      g_free (reader.items);
      g_free (reader.refs);
      g_free (reader.stack);
      return NULL;
    }

  g_free (reader.refs);
  g_free (reader.stack);

  self = g_new0 (SmprofMarshal, 1);
  self->bytes = g_bytes_ref (bytes);
  self->values = reader.values;
  self->n_values = reader.n_values;
  self->items = reader.items;
  self->n_items = reader.n_items;
  self->root = root;

  return self;
}

/*
 * _smprof_marshal_parse_scratch:
 * @scratch: arrays kept from the last parse, grown as needed
 * @bytes: a whole marshal dump
 * @error: return location for a #SMPROF_FORMAT_ERROR
 *
 * smprof_marshal_parse() into @scratch->marshal, reusing its arrays: a job
 * is tens of thousands of small files, and allocating and freeing a few
 * arrays per file both costs time and leaves holes between the stats that
 * stay loaded. @scratch->marshal is valid until the next parse and does not
 * hold a reference to @bytes.
 *
 * Returns: %TRUE on success
 */
gboolean
_smprof_marshal_parse_scratch (SmprofMarshalScratch  *scratch,
                               GBytes                *bytes,
                               GError               **error)
{
  Reader reader = { 0 };
  guint32 root = 0;
  gboolean ok;

  g_return_val_if_fail (scratch != NULL, FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reader.error = error;
  reader.values = scratch->marshal.values;
  reader.values_size = scratch->values_size;
  reader.items = scratch->marshal.items;
  reader.items_size = scratch->items_size;
  reader.refs = scratch->refs;
  reader.refs_size = scratch->refs_size;
  reader.stack = scratch->stack;
  reader.stack_size = scratch->stack_size;

  ok = parse_all (&reader, bytes, &root);

  scratch->marshal.bytes = NULL;
  scratch->marshal.values = reader.values;
  scratch->marshal.n_values = ok ? reader.n_values : 0;
  scratch->marshal.items = reader.items;
  scratch->marshal.n_items = ok ? reader.n_items : 0;
  scratch->marshal.root = root;
  scratch->values_size = reader.values_size;
  scratch->items_size = reader.items_size;
  scratch->refs = reader.refs;
  scratch->refs_size = reader.refs_size;
  scratch->stack = reader.stack;
  scratch->stack_size = reader.stack_size;

  return ok;
}

gsize
_smprof_marshal_scratch_get_size (SmprofMarshalScratch *scratch)
{
  return (gsize) scratch->values_size * sizeof (SmprofMarshalValue) +
         (gsize) (scratch->items_size + scratch->refs_size + scratch->stack_size) * sizeof (guint32);
}

void
_smprof_marshal_scratch_clear (SmprofMarshalScratch *scratch)
{
  g_clear_pointer (&scratch->marshal.values, g_free);
  g_clear_pointer (&scratch->marshal.items, g_free);
  g_clear_pointer (&scratch->refs, g_free);
  g_clear_pointer (&scratch->stack, g_free);
  memset (scratch, 0, sizeof *scratch);
}

void
smprof_marshal_free (SmprofMarshal *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->items, g_free);
  g_free (self);
}
