/* smprof-pstats.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "smprof-func-table-private.h"
#include "smprof-marshal-private.h"
#include "smprof-pstats-private.h"
#include "smprof-stats-slab.h"
#include "smprof-types.h"

#define NOT_FOUND G_MAXUINT32

/* marshal's flag on a type byte: the object takes a back-reference slot. */
#define FLAG_REF 0x80

/* In key_ids, marks a string value already found to be valid UTF-8: file
 * names are shared by reference between many keys. */
#define VALID_STRING (SMPROF_FUNC_NONE - 1)

/* key_ids is filled with 0xff bytes to mean "not interned yet". */
G_STATIC_ASSERT (SMPROF_FUNC_NONE == 0xffffffffu);

/* Func id -> position in the dict being read. A dict may repeat a key (Python
 * keeps the first position and the last value), and a per-file array indexed
 * by func id would be as large as the whole job's table, so this is a small
 * open-addressing table. Stamps let it be reused for the next dict without
 * clearing it. */
typedef struct
{
  guint32 *keys;
  guint32 *positions;
  guint32 *stamps;
  guint    mask;
  guint32  stamp;
} PosMap;

typedef struct
{
  SmprofMarshal    *marshal;
  SmprofFuncTable  *table;
  guint32          *key_ids;     /* value index -> func id of a key tuple, for keys
                                  * repeated by reference, or VALID_STRING */
  SmprofCallerStat *callers;
  guint             n_callers;
  guint             callers_size;
  PosMap            funcs_map;
  PosMap            callers_map;
  GError          **error;
} Reader;

static void
pos_map_begin (PosMap *map,
               guint   n_keys)
{
  gsize size = 16;

  while (size < (gsize) n_keys * 2)
    size *= 2;

  if (map->keys == NULL || size > (gsize) map->mask + 1)
    {
      g_free (map->keys);
      g_free (map->positions);
      g_free (map->stamps);
      map->keys = g_new (guint32, size);
      map->positions = g_new (guint32, size);
      map->stamps = g_new0 (guint32, size);
      map->mask = size - 1;
      map->stamp = 0;
    }

  if (++map->stamp == 0)
    {
      memset (map->stamps, 0, ((gsize) map->mask + 1) * sizeof *map->stamps);
      map->stamp = 1;
    }
}

/* Returns the key's position if it was seen, otherwise records @position. */
static guint32
pos_map_find_or_add (PosMap  *map,
                     guint32  key,
                     guint32  position)
{
  guint32 hash = key;
  guint i;

  hash ^= hash >> 16;
  hash *= 0x45d9f3bu;
  hash ^= hash >> 16;

  for (i = hash & map->mask; map->stamps[i] == map->stamp; i = (i + 1) & map->mask)
    if (map->keys[i] == key)
      return map->positions[i];

  map->stamps[i] = map->stamp;
  map->keys[i] = key;
  map->positions[i] = position;
  return NOT_FOUND;
}

static void
pos_map_clear (PosMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->positions, g_free);
  g_clear_pointer (&map->stamps, g_free);
}

static inline const SmprofMarshalValue *
value_at (Reader  *reader,
          guint32  index)
{
  return &reader->marshal->values[index];
}

static inline guint32
item_at (Reader                   *reader,
         const SmprofMarshalValue *container,
         guint32                   i)
{
  return reader->marshal->items[container->v.items + i];
}

static void
describe (const SmprofMarshalValue *value,
          char                     *buffer,
          gsize                     size)
{
  switch (value->type)
    {
    case SMPROF_MARSHAL_NONE:
      g_strlcpy (buffer, "None", size);
      break;
    case SMPROF_MARSHAL_BOOL:
      g_strlcpy (buffer, "a bool", size);
      break;
    case SMPROF_MARSHAL_INT:
      g_strlcpy (buffer, "an int", size);
      break;
    case SMPROF_MARSHAL_FLOAT:
      g_strlcpy (buffer, "a float", size);
      break;
    case SMPROF_MARSHAL_STRING:
      g_strlcpy (buffer, "a string", size);
      break;
    case SMPROF_MARSHAL_TUPLE:
      g_snprintf (buffer, size, "a %u-tuple", value->length);
      break;
    case SMPROF_MARSHAL_DICT:
      g_strlcpy (buffer, "a dict", size);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* @format names what was expected and ends with "found %s", the actual type. */
static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader                   *reader,
      const SmprofMarshalValue *value,
      const char               *format,
      ...)
{
  g_autofree char *message = NULL;
  char found[32];
  va_list args;

  describe (value, found, sizeof found);

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (reader->error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
               "byte %" G_GSIZE_FORMAT ": %s%s", value->offset, message, found);
  return FALSE;
}

static gboolean
read_int (Reader     *reader,
          guint32     index,
          const char *what,
          gint64     *out_value)
{
  const SmprofMarshalValue *value = value_at (reader, index);

  if (value->type != SMPROF_MARSHAL_INT)
    return fail (reader, value, "%s must be an int, found ", what);

  *out_value = value->v.i;
  return TRUE;
}

/* cProfile writes floats; a custom timer returning ints makes int times. */
static gboolean
read_number (Reader     *reader,
             guint32     index,
             const char *what,
             double     *out_value)
{
  const SmprofMarshalValue *value = value_at (reader, index);

  if (value->type == SMPROF_MARSHAL_FLOAT)
    *out_value = value->v.f;
  else if (value->type == SMPROF_MARSHAL_INT)
    *out_value = (double) value->v.i;
  else
    return fail (reader, value, "%s must be a number, found ", what);

  return TRUE;
}

static gboolean
read_string (Reader      *reader,
             guint32      index,
             const char  *what,
             const char **out_string,
             gsize       *out_length)
{
  const SmprofMarshalValue *value = value_at (reader, index);

  if (value->type != SMPROF_MARSHAL_STRING)
    return fail (reader, value, "%s must be a string, found ", what);

  *out_string = value->v.s;
  *out_length = value->length;
  return TRUE;
}

/* Returns a valid UTF-8 copy of the string at @index, or %NULL if it is valid. */
static char *
dup_valid_utf8 (Reader  *reader,
                guint32  index)
{
  const SmprofMarshalValue *value = value_at (reader, index);

  if (reader->key_ids[index] == VALID_STRING)
    return NULL;

  /* CPython writes str with "surrogatepass", so a lone surrogate (or, from a
   * hostile file, any byte) can arrive; the table holds valid UTF-8 only. */
  if (!g_utf8_validate_len (value->v.s, value->length, NULL))
    return g_utf8_make_valid (value->v.s, value->length);

  reader->key_ids[index] = VALID_STRING;
  return NULL;
}

static gboolean
read_key (Reader  *reader,
          guint32  index,
          guint32 *out_id)
{
  const SmprofMarshalValue *key = value_at (reader, index);
  g_autofree char *valid_file = NULL;
  g_autofree char *valid_name = NULL;
  const char *file = NULL;
  const char *name = NULL;
  gsize file_len = 0;
  gsize name_len = 0;
  gint64 line = 0;

  /* A string's mark is no func id: a key that is a string fails below. */
  if (reader->key_ids[index] != SMPROF_FUNC_NONE && reader->key_ids[index] != VALID_STRING)
    {
      *out_id = reader->key_ids[index];
      return TRUE;
    }

  if (key->type != SMPROF_MARSHAL_TUPLE || key->length != 3)
    return fail (reader, key, "a function key must be a (file, line, name) 3-tuple, found ");

  if (!read_string (reader, item_at (reader, key, 0), "a function key's file", &file, &file_len) ||
      !read_int (reader, item_at (reader, key, 1), "a function key's line", &line) ||
      !read_string (reader, item_at (reader, key, 2), "a function key's name", &name, &name_len))
    return FALSE;

  /* Nearly every key of a job is already in the table after its first few
   * files. A key found by its raw bytes is valid UTF-8, since the table holds
   * only valid keys, so validation is needed only for new keys. */
  *out_id = _smprof_func_table_find (reader->table, file, file_len, line, name, name_len);
  if (*out_id != SMPROF_FUNC_NONE)
    {
      reader->key_ids[index] = *out_id;
      return TRUE;
    }

  valid_file = dup_valid_utf8 (reader, item_at (reader, key, 0));
  if (valid_file != NULL)
    {
      file = valid_file;
      file_len = strlen (valid_file);
    }
  valid_name = dup_valid_utf8 (reader, item_at (reader, key, 2));
  if (valid_name != NULL)
    {
      name = valid_name;
      name_len = strlen (valid_name);
    }

  *out_id = smprof_func_table_intern (reader->table, file, file_len, line, name, name_len);
  reader->key_ids[index] = *out_id;
  return TRUE;
}

static SmprofCallerStat *
add_caller (Reader *reader)
{
  if (reader->n_callers == reader->callers_size)
    {
      reader->callers_size = MAX (reader->callers_size * 2, 64);
      reader->callers = g_renew (SmprofCallerStat, reader->callers, reader->callers_size);
    }

  return &reader->callers[reader->n_callers++];
}

static gboolean
read_callers (Reader         *reader,
              guint32         index,
              SmprofFuncStat *stat)
{
  const SmprofMarshalValue *dict = value_at (reader, index);

  stat->first_caller = reader->n_callers;
  stat->n_callers = 0;

  pos_map_begin (&reader->callers_map, dict->length);

  for (guint32 i = 0; i < dict->length; i++)
    {
      const SmprofMarshalValue *value = value_at (reader, item_at (reader, dict, 2 * i + 1));
      SmprofCallerStat caller = { 0 };
      guint32 position;

      if (!read_key (reader, item_at (reader, dict, 2 * i), &caller.caller))
        return FALSE;

      if (value->type == SMPROF_MARSHAL_TUPLE && value->length == 4)
        {
          /* The caller tuple counts (nc, cc), the reverse of the function's. */
          if (!read_int (reader, item_at (reader, value, 0),
                         "a caller's call count", &caller.nc) ||
              !read_int (reader, item_at (reader, value, 1),
                         "a caller's primitive call count", &caller.cc) ||
              !read_number (reader, item_at (reader, value, 2),
                            "a caller's self time", &caller.tt) ||
              !read_number (reader, item_at (reader, value, 3),
                            "a caller's cumulative time", &caller.ct))
            return FALSE;
        }
      else if (value->type == SMPROF_MARSHAL_INT)
        {
          caller.legacy = TRUE;
          caller.nc = value->v.i;
          caller.cc = value->v.i;
        }
      else
        return fail (reader, value, "a caller stat must be a 4-tuple or an int, found ");

      /* As in a Python dict, a repeated caller keeps its place and takes the
       * later value. */
      position = pos_map_find_or_add (&reader->callers_map, caller.caller,
                                      stat->first_caller + stat->n_callers);
      if (position != NOT_FOUND)
        {
          reader->callers[position] = caller;
          continue;
        }

      *add_caller (reader) = caller;
      stat->n_callers++;
    }

  return TRUE;
}

/* A repeated function key left its earlier callers behind in the array, and
 * its new ones out of order. */
static void
compact_callers (Reader       *reader,
                 SmprofPstats *self)
{
  guint size = MAX (reader->n_callers, 1);
  SmprofCallerStat *callers = g_new (SmprofCallerStat, size);
  guint n = 0;

  for (guint i = 0; i < self->n_funcs; i++)
    {
      SmprofFuncStat *stat = &self->funcs[i];

      memcpy (&callers[n], &reader->callers[stat->first_caller],
              stat->n_callers * sizeof *callers);
      stat->first_caller = n;
      n += stat->n_callers;
    }

  g_free (reader->callers);
  reader->callers = callers;
  reader->n_callers = n;
  reader->callers_size = size;
}

static gboolean
read_stats (Reader       *reader,
            SmprofPstats *self)
{
  const SmprofMarshalValue *root = value_at (reader, reader->marshal->root);
  gboolean repeated_keys = FALSE;

  if (root->type != SMPROF_MARSHAL_DICT)
    return fail (reader, root, "a pstats file must hold a dict, found ");

  self->funcs = g_new (SmprofFuncStat, root->length);
  pos_map_begin (&reader->funcs_map, root->length);

  for (guint32 i = 0; i < root->length; i++)
    {
      const SmprofMarshalValue *value = value_at (reader, item_at (reader, root, 2 * i + 1));
      SmprofFuncStat stat = { 0 };
      guint32 position;

      if (!read_key (reader, item_at (reader, root, 2 * i), &stat.func))
        return FALSE;

      if (value->type != SMPROF_MARSHAL_TUPLE || value->length != 5)
        return fail (reader, value, "a function stat must be a 5-tuple, found ");

      if (!read_int (reader, item_at (reader, value, 0),
                     "a function's primitive call count", &stat.cc) ||
          !read_int (reader, item_at (reader, value, 1),
                     "a function's call count", &stat.nc) ||
          !read_number (reader, item_at (reader, value, 2),
                        "a function's self time", &stat.tt) ||
          !read_number (reader, item_at (reader, value, 3),
                        "a function's cumulative time", &stat.ct))
        return FALSE;

      {
        const SmprofMarshalValue *callers = value_at (reader, item_at (reader, value, 4));

        if (callers->type != SMPROF_MARSHAL_DICT)
          return fail (reader, callers, "a function's callers must be a dict, found ");
        if (!read_callers (reader, item_at (reader, value, 4), &stat))
          return FALSE;
      }

      /* Python's dict semantics rather than an error: pstats itself loads such
       * a file, with the first position and the last value. */
      position = pos_map_find_or_add (&reader->funcs_map, stat.func, self->n_funcs);
      if (position != NOT_FOUND)
        {
          self->funcs[position] = stat;
          repeated_keys = TRUE;
          continue;
        }

      self->funcs[self->n_funcs++] = stat;
    }

  if (repeated_keys)
    compact_callers (reader, self);

  /* pstats.Stats.get_top_level_stats: the same sums in the same order, so
   * that total_tt matches Python's bit for bit. */
  for (guint i = 0; i < self->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &self->funcs[i];

      if (__builtin_add_overflow (self->total_calls, stat->nc, &self->total_calls) ||
          __builtin_add_overflow (self->prim_calls, stat->cc, &self->prim_calls))
        {
          g_set_error (reader->error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                       "byte %" G_GSIZE_FORMAT ": the call counts add up to more than 64 bits",
                       root->offset);
          return FALSE;
        }
      self->total_tt += stat->tt;
    }

  return TRUE;
}

/* The fast path: a single pass over the bytes for the files that look the
 * way pstats writes them, with every key already in the job's table (after
 * a job's first few files, nearly all of them). It decodes no value it does
 * not need and interns nothing; whatever it does not expect (a new key, a
 * type or an encoding the writer does not use, damage of any kind) makes it
 * give up without a trace, and the general path above reads the file from
 * the start. Where it succeeds, it gives exactly what the general path would:
 * the same entries in the same order, with the same dict semantics. */

typedef enum
{
  FAST_REF_PENDING,  /* a container still being read */
  FAST_REF_OPAQUE,   /* a container the fast path does not reuse */
  FAST_REF_INT,
  FAST_REF_FLOAT,
  FAST_REF_STRING,
  FAST_REF_KEY,
} FastRefType;

typedef struct
{
  FastRefType type;
  guint32     length;   /* STRING */
  gboolean    hashed;   /* STRING: hash holds the table's hash of it */
  guint64     hash;
  union
  {
    gint64      i;
    double      f;
    const char *s;
    guint32     func;
  } v;
} FastRef;

/* What one thread keeps from file to file. A job is tens of thousands of
 * files read by a few threads; with the decoder's arrays, the key cache, the
 * position maps and the callers buffer kept per thread, the only allocations
 * per file are the arrays that stay loaded, each exactly sized, so no holes
 * open up between them. */
typedef struct
{
  SmprofMarshalScratch  marshal;
  guint32              *key_ids;
  guint                 key_ids_size;
  PosMap                funcs_map;
  PosMap                callers_map;
  SmprofCallerStat     *callers;
  guint                 callers_size;

  /* The fast path's: back-references, the functions read so far, and where
   * each func id was last seen, stamped per file and per callers dict. */
  FastRef              *refs;
  guint                 refs_size;
  SmprofFuncStat       *funcs;
  guint                 funcs_size;
  guint32              *func_stamps;
  guint32              *func_positions;
  guint32              *caller_stamps;
  guint32              *caller_positions;
  guint                 n_func_slots;
  guint32               func_stamp;
  guint32               caller_stamp;
} Scratch;

/* A scratch grown past this by a huge file is given back after it. */
#define MAX_KEPT_SCRATCH (16u << 20)

/* Jobs with more functions than this take the general path only, so that
 * the per-thread arrays indexed by func id stay small. */
#define MAX_FAST_FUNCS (1u << 20)

static void
scratch_free (gpointer data)
{
  Scratch *scratch = data;

  _smprof_marshal_scratch_clear (&scratch->marshal);
  g_free (scratch->key_ids);
  pos_map_clear (&scratch->funcs_map);
  pos_map_clear (&scratch->callers_map);
  g_free (scratch->callers);
  g_free (scratch->refs);
  g_free (scratch->funcs);
  g_free (scratch->func_stamps);
  g_free (scratch->func_positions);
  g_free (scratch->caller_stamps);
  g_free (scratch->caller_positions);
  g_free (scratch);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static gsize
scratch_get_size (Scratch *scratch)
{
  return _smprof_marshal_scratch_get_size (&scratch->marshal) +
         (gsize) scratch->key_ids_size * sizeof (guint32) +
         ((gsize) scratch->funcs_map.mask + (gsize) scratch->callers_map.mask + 2) * sizeof (guint32) * 3 +
         (gsize) scratch->callers_size * sizeof (SmprofCallerStat) +
         (gsize) scratch->refs_size * sizeof (FastRef) +
         (gsize) scratch->funcs_size * sizeof (SmprofFuncStat) +
         (gsize) scratch->n_func_slots * sizeof (guint32) * 4;
}

typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
  Scratch      *scratch;
  guint         n_refs;
  guint         n_funcs;
  guint         n_callers;
  SmprofFuncTable *table;
} Fast;

#define FAST_NEED(fast, n) G_STMT_START { if ((fast)->len - (fast)->pos < (gsize) (n)) return FALSE; } G_STMT_END

static inline guint32
fast_u32 (Fast *fast)
{
  guint32 le;

  memcpy (&le, fast->data + fast->pos, sizeof le);
  fast->pos += sizeof le;
  return GUINT32_FROM_LE (le);
}

static inline FastRef *
fast_new_ref (Fast        *fast,
              FastRefType  type)
{
  Scratch *scratch = fast->scratch;

  if (fast->n_refs == scratch->refs_size)
    {
      scratch->refs_size = MAX (scratch->refs_size * 2, 256);
      scratch->refs = g_renew (FastRef, scratch->refs, scratch->refs_size);
    }

  scratch->refs[fast->n_refs].type = type;
  scratch->refs[fast->n_refs].hashed = FALSE;
  return &scratch->refs[fast->n_refs++];
}

/* A back-reference to something already read, of the one type expected. */
static inline const FastRef *
fast_back_ref (Fast        *fast,
               FastRefType  type)
{
  guint32 index;

  FAST_NEED (fast, 4);
  index = fast_u32 (fast);
  if (index >= fast->n_refs || fast->scratch->refs[index].type != type)
    return NULL;

  return &fast->scratch->refs[index];
}

static gboolean
fast_int (Fast   *fast,
          gint64 *out_value)
{
  guint8 code;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];

  if ((code & ~FLAG_REF) == 'i')
    {
      FAST_NEED (fast, 4);
      *out_value = (gint32) fast_u32 (fast);
      if (code & FLAG_REF)
        fast_new_ref (fast, FAST_REF_INT)->v.i = *out_value;
      return TRUE;
    }

  if ((code & ~FLAG_REF) == 'r')
    {
      const FastRef *ref = fast_back_ref (fast, FAST_REF_INT);

      if (ref == NULL)
        return FALSE;
      *out_value = ref->v.i;
      return TRUE;
    }

  return FALSE;
}

static gboolean
fast_number (Fast   *fast,
             double *out_value)
{
  guint8 code;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos];

  switch (code & ~FLAG_REF)
    {
    case 'g':
      {
        guint64 bits;

        fast->pos++;
        FAST_NEED (fast, 8);
        memcpy (&bits, fast->data + fast->pos, sizeof bits);
        fast->pos += sizeof bits;
        bits = GUINT64_FROM_LE (bits);
        memcpy (out_value, &bits, sizeof *out_value);
        if (code & FLAG_REF)
          fast_new_ref (fast, FAST_REF_FLOAT)->v.f = *out_value;
        return TRUE;
      }

    case 'i':
      {
        gint64 value;

        if (!fast_int (fast, &value))
          return FALSE;
        *out_value = (double) value;
        return TRUE;
      }

    case 'r':
      {
        guint32 index;
        const FastRef *ref;

        fast->pos++;
        FAST_NEED (fast, 4);
        index = fast_u32 (fast);
        if (index >= fast->n_refs)
          return FALSE;
        ref = &fast->scratch->refs[index];
        if (ref->type == FAST_REF_FLOAT)
          *out_value = ref->v.f;
        else if (ref->type == FAST_REF_INT)
          *out_value = (double) ref->v.i;
        else
          return FALSE;
        return TRUE;
      }

    default:
      return FALSE;
    }
}

static gboolean
fast_string (Fast        *fast,
             const char **out_string,
             guint32     *out_length)
{
  guint8 code;
  guint32 length;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];

  switch (code & ~FLAG_REF)
    {
    case 'z':
    case 'Z':
      FAST_NEED (fast, 1);
      length = fast->data[fast->pos++];
      break;

    case 'a':
    case 'A':
    case 'u':
    case 't':
      FAST_NEED (fast, 4);
      length = fast_u32 (fast);
      if (length > G_MAXINT32)
        return FALSE;
      break;

    case 'r':
      {
        const FastRef *ref = fast_back_ref (fast, FAST_REF_STRING);

        if (ref == NULL)
          return FALSE;
        *out_string = ref->v.s;
        *out_length = ref->length;
        return TRUE;
      }

    default:
      return FALSE;
    }

  FAST_NEED (fast, length);
  *out_string = (const char *) fast->data + fast->pos;
  *out_length = length;
  fast->pos += length;

  if (code & FLAG_REF)
    {
      FastRef *ref = fast_new_ref (fast, FAST_REF_STRING);

      ref->v.s = *out_string;
      ref->length = length;
    }

  return TRUE;
}

/* A tuple of @n_items items; its reference slot, if it takes one, in *slot. */
static gboolean
fast_tuple (Fast    *fast,
            guint32  n_items,
            guint   *slot)
{
  guint8 code;
  guint32 length;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];

  if ((code & ~FLAG_REF) == ')')
    {
      FAST_NEED (fast, 1);
      length = fast->data[fast->pos++];
    }
  else if ((code & ~FLAG_REF) == '(')
    {
      FAST_NEED (fast, 4);
      length = fast_u32 (fast);
    }
  else
    return FALSE;

  if (length != n_items)
    return FALSE;

  *slot = G_MAXUINT;
  if (code & FLAG_REF)
    {
      *slot = fast->n_refs;
      fast_new_ref (fast, FAST_REF_PENDING);
    }

  return TRUE;
}

static inline void
fast_close (Fast        *fast,
            guint        slot,
            FastRefType  type)
{
  if (slot != G_MAXUINT)
    fast->scratch->refs[slot].type = type;
}

/* A string of a key, and its reference slot if it has one (G_MAXUINT32 if
 * not). A file name or a function name usually appears many times in a
 * file, written once and then referred back to. */
static inline gboolean
fast_key_string (Fast        *fast,
                 const char **out_string,
                 guint32     *out_length,
                 guint32     *out_slot)
{
  guint first_ref = fast->n_refs;

  FAST_NEED (fast, 1);
  if ((fast->data[fast->pos] & ~FLAG_REF) == 'r')
    {
      const FastRef *ref;

      fast->pos++;
      ref = fast_back_ref (fast, FAST_REF_STRING);
      if (ref == NULL)
        return FALSE;
      *out_string = ref->v.s;
      *out_length = ref->length;
      *out_slot = ref - fast->scratch->refs;
      return TRUE;
    }

  if (!fast_string (fast, out_string, out_length))
    return FALSE;

  *out_slot = fast->n_refs != first_ref ? first_ref : G_MAXUINT32;
  return TRUE;
}

/* The table's hash of a key string, kept with its reference slot. */
static inline guint64
fast_key_hash (Fast       *fast,
               const char *string,
               guint32     length,
               guint32     slot)
{
  FastRef *ref;

  if (slot == G_MAXUINT32)
    return _smprof_func_table_hash_string (string, length);

  ref = &fast->scratch->refs[slot];
  if (!ref->hashed)
    {
      ref->hash = _smprof_func_table_hash_string (string, length);
      ref->hashed = TRUE;
    }

  return ref->hash;
}

static gboolean
fast_key (Fast    *fast,
          guint32 *out_id)
{
  const char *file, *name;
  guint32 file_len, name_len;
  guint32 file_slot, name_slot;
  gint64 line;
  guint slot;

  FAST_NEED (fast, 1);
  if ((fast->data[fast->pos] & ~FLAG_REF) == 'r')
    {
      const FastRef *ref;

      fast->pos++;
      ref = fast_back_ref (fast, FAST_REF_KEY);
      if (ref == NULL)
        return FALSE;
      *out_id = ref->v.func;
      return TRUE;
    }

  if (!fast_tuple (fast, 3, &slot) ||
      !fast_key_string (fast, &file, &file_len, &file_slot) ||
      !fast_int (fast, &line) ||
      !fast_key_string (fast, &name, &name_len, &name_slot))
    return FALSE;

  /* Only keys the table knows: interning is left to the general path. */
  *out_id = _smprof_func_table_find_hashed (fast->table,
                                            fast_key_hash (fast, file, file_len, file_slot),
                                            file, file_len, line,
                                            fast_key_hash (fast, name, name_len, name_slot),
                                            name, name_len);
  if (*out_id == SMPROF_FUNC_NONE || *out_id >= fast->scratch->n_func_slots)
    return FALSE;

  if (slot != G_MAXUINT)
    {
      fast->scratch->refs[slot].type = FAST_REF_KEY;
      fast->scratch->refs[slot].v.func = *out_id;
    }

  return TRUE;
}

/* A dict's NULL end marker, which CPython's reader accepts flagged or not. */
static inline gboolean
fast_dict_end (Fast     *fast,
               gboolean *ended)
{
  FAST_NEED (fast, 1);
  *ended = (fast->data[fast->pos] & ~FLAG_REF) == '0';
  if (*ended)
    fast->pos++;
  return TRUE;
}

static gboolean
fast_dict_start (Fast  *fast,
                 guint *slot)
{
  guint8 code;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];
  if ((code & ~FLAG_REF) != '{')
    return FALSE;

  *slot = G_MAXUINT;
  if (code & FLAG_REF)
    {
      *slot = fast->n_refs;
      fast_new_ref (fast, FAST_REF_PENDING);
    }

  return TRUE;
}

static SmprofCallerStat *
fast_add_caller (Fast *fast)
{
  Scratch *scratch = fast->scratch;

  if (fast->n_callers == scratch->callers_size)
    {
      scratch->callers_size = MAX (scratch->callers_size * 2, 64);
      scratch->callers = g_renew (SmprofCallerStat, scratch->callers, scratch->callers_size);
    }

  return &scratch->callers[fast->n_callers++];
}

static gboolean
fast_callers (Fast           *fast,
              SmprofFuncStat *stat)
{
  Scratch *scratch = fast->scratch;
  guint slot;

  if (!fast_dict_start (fast, &slot))
    return FALSE;

  stat->first_caller = fast->n_callers;
  stat->n_callers = 0;

  if (++scratch->caller_stamp == 0)
    {
      memset (scratch->caller_stamps, 0, scratch->n_func_slots * sizeof (guint32));
      scratch->caller_stamp = 1;
    }

  for (;;)
    {
      SmprofCallerStat caller = { 0 };
      gboolean ended;
      guint8 code;

      if (!fast_dict_end (fast, &ended))
        return FALSE;
      if (ended)
        break;

      if (!fast_key (fast, &caller.caller))
        return FALSE;

      FAST_NEED (fast, 1);
      code = fast->data[fast->pos] & ~FLAG_REF;
      if (code == ')' || code == '(')
        {
          guint value_slot;

          /* (nc, cc, tt, ct): the reverse of the function's counts. */
          if (!fast_tuple (fast, 4, &value_slot) ||
              !fast_int (fast, &caller.nc) ||
              !fast_int (fast, &caller.cc) ||
              !fast_number (fast, &caller.tt) ||
              !fast_number (fast, &caller.ct))
            return FALSE;
          fast_close (fast, value_slot, FAST_REF_OPAQUE);
        }
      else if (code == 'i' || code == 'r')
        {
          if (!fast_int (fast, &caller.nc))
            return FALSE;
          caller.legacy = TRUE;
          caller.cc = caller.nc;
        }
      else
        return FALSE;

      /* As in a Python dict, a repeated caller keeps its place and takes the
       * later value. */
      if (scratch->caller_stamps[caller.caller] == scratch->caller_stamp)
        {
          scratch->callers[scratch->caller_positions[caller.caller]] = caller;
          continue;
        }

      scratch->caller_stamps[caller.caller] = scratch->caller_stamp;
      scratch->caller_positions[caller.caller] = stat->first_caller + stat->n_callers;
      *fast_add_caller (fast) = caller;
      stat->n_callers++;
    }

  fast_close (fast, slot, FAST_REF_OPAQUE);
  return TRUE;
}

/* Room for the arrays that stay loaded, both in one piece of slab memory
 * when there is some; %NULL for an empty one, as g_memdup2() gives. */
static void
pstats_take_arrays (SmprofPstats *self,
                    guint         n_funcs,
                    guint         n_callers)
{
  gsize funcs_size = (gsize) n_funcs * sizeof (SmprofFuncStat);
  gsize size = funcs_size + (gsize) n_callers * sizeof (SmprofCallerStat);
  SmprofStatsSlab *slab = NULL;
  char *memory = size > 0 ? _smprof_stats_slab_alloc (size, &slab) : NULL;

  if (memory != NULL)
    {
      self->slab = slab;
      self->funcs = n_funcs > 0 ? (SmprofFuncStat *) (gpointer) memory : NULL;
      self->callers = n_callers > 0 ? (SmprofCallerStat *) (gpointer) (memory + funcs_size) : NULL;
    }
  else
    {
      self->funcs = n_funcs > 0 ? g_new (SmprofFuncStat, n_funcs) : NULL;
      self->callers = n_callers > 0 ? g_new (SmprofCallerStat, n_callers) : NULL;
    }
}

static gboolean
fast_stats (Fast         *fast,
            SmprofPstats *self)
{
  Scratch *scratch = fast->scratch;
  gboolean repeated_keys = FALSE;
  guint root_slot;

  if (!fast_dict_start (fast, &root_slot))
    return FALSE;

  if (++scratch->func_stamp == 0)
    {
      memset (scratch->func_stamps, 0, scratch->n_func_slots * sizeof (guint32));
      scratch->func_stamp = 1;
    }

  for (;;)
    {
      SmprofFuncStat stat = { 0 };
      gboolean ended;
      guint slot;

      if (!fast_dict_end (fast, &ended))
        return FALSE;
      if (ended)
        break;

      if (!fast_key (fast, &stat.func) ||
          !fast_tuple (fast, 5, &slot) ||
          !fast_int (fast, &stat.cc) ||
          !fast_int (fast, &stat.nc) ||
          !fast_number (fast, &stat.tt) ||
          !fast_number (fast, &stat.ct) ||
          !fast_callers (fast, &stat))
        return FALSE;
      fast_close (fast, slot, FAST_REF_OPAQUE);

      /* Python's dict semantics: the first position and the last value. */
      if (scratch->func_stamps[stat.func] == scratch->func_stamp)
        {
          scratch->funcs[scratch->func_positions[stat.func]] = stat;
          repeated_keys = TRUE;
          continue;
        }

      if (fast->n_funcs == scratch->funcs_size)
        {
          scratch->funcs_size = MAX (scratch->funcs_size * 2, 256);
          scratch->funcs = g_renew (SmprofFuncStat, scratch->funcs, scratch->funcs_size);
        }
      scratch->func_stamps[stat.func] = scratch->func_stamp;
      scratch->func_positions[stat.func] = fast->n_funcs;
      scratch->funcs[fast->n_funcs++] = stat;
    }

  if (fast->pos != fast->len)
    return FALSE;

  /* pstats.Stats.get_top_level_stats, as read_stats() sums it; an overflow
   * is for the general path to report. */
  for (guint i = 0; i < fast->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &scratch->funcs[i];

      if (__builtin_add_overflow (self->total_calls, stat->nc, &self->total_calls) ||
          __builtin_add_overflow (self->prim_calls, stat->cc, &self->prim_calls))
        return FALSE;
      self->total_tt += stat->tt;
    }

  /* The stats that stay loaded, exactly sized, callers compacted in function
   * order as compact_callers() leaves them. */
  self->n_funcs = fast->n_funcs;
  if (!repeated_keys)
    {
      pstats_take_arrays (self, fast->n_funcs, fast->n_callers);
      if (fast->n_funcs > 0)
        memcpy (self->funcs, scratch->funcs, fast->n_funcs * sizeof (SmprofFuncStat));
      if (fast->n_callers > 0)
        memcpy (self->callers, scratch->callers, fast->n_callers * sizeof (SmprofCallerStat));
      self->n_callers = fast->n_callers;
    }
  else
    {
      guint n = 0;

      for (guint i = 0; i < fast->n_funcs; i++)
        n += scratch->funcs[i].n_callers;

      pstats_take_arrays (self, fast->n_funcs, n);
      if (fast->n_funcs > 0)
        memcpy (self->funcs, scratch->funcs, fast->n_funcs * sizeof (SmprofFuncStat));
      n = 0;
      for (guint i = 0; i < self->n_funcs; i++)
        {
          SmprofFuncStat *stat = &self->funcs[i];

          /* callers is NULL only when no function has a caller */
          if (stat->n_callers > 0 && self->callers != NULL)
            memcpy (&self->callers[n], &scratch->callers[stat->first_caller],
                    stat->n_callers * sizeof (SmprofCallerStat));
          stat->first_caller = n;
          n += stat->n_callers;
        }
      self->n_callers = n;
    }

  return TRUE;
}

/* Returns %NULL when the file is for the general path. */
static SmprofPstats *
parse_fast (Scratch         *scratch,
            GBytes          *bytes,
            SmprofFuncTable *table)
{
  guint n_funcs = smprof_func_table_get_size (table);
  Fast fast = { 0 };
  gsize len;
  SmprofPstats *self;

  if (n_funcs == 0 || n_funcs > MAX_FAST_FUNCS)
    return NULL;

  if (scratch->n_func_slots < n_funcs)
    {
      guint n_slots = MAX (n_funcs * 2, 1024);

      scratch->func_stamps = g_renew (guint32, scratch->func_stamps, n_slots);
      scratch->func_positions = g_renew (guint32, scratch->func_positions, n_slots);
      scratch->caller_stamps = g_renew (guint32, scratch->caller_stamps, n_slots);
      scratch->caller_positions = g_renew (guint32, scratch->caller_positions, n_slots);
      memset (scratch->func_stamps, 0, n_slots * sizeof (guint32));
      memset (scratch->caller_stamps, 0, n_slots * sizeof (guint32));
      scratch->func_stamp = 0;
      scratch->caller_stamp = 0;
      scratch->n_func_slots = n_slots;
    }

  fast.data = g_bytes_get_data (bytes, &len);
  fast.len = len;
  fast.scratch = scratch;
  fast.table = table;

  self = g_new0 (SmprofPstats, 1);
  if (len >= G_MAXINT32 || !fast_stats (&fast, self))
    {
      smprof_pstats_free (self);
      return NULL;
    }

  return self;
}

static SmprofPstats *
parse (GBytes           *bytes,
       SmprofFuncTable  *table,
       gboolean          use_fast,
       gboolean          fast_only,
       GError          **error)
{
  g_autoptr(SmprofPstats) self = NULL;
  Reader reader = { 0 };
  Scratch *scratch;
  gboolean ok;

  scratch = g_private_get (&scratch_key);
  if (scratch == NULL)
    {
      scratch = g_new0 (Scratch, 1);
      g_private_set (&scratch_key, scratch);
    }

  if (use_fast)
    {
      self = parse_fast (scratch, bytes, table);
      if (self != NULL || fast_only)
        {
          if (scratch_get_size (scratch) > MAX_KEPT_SCRATCH)
            g_private_replace (&scratch_key, NULL);
          return g_steal_pointer (&self);
        }
    }

  ok = _smprof_marshal_parse_scratch (&scratch->marshal, bytes, error);
  if (ok)
    {
      SmprofMarshal *marshal = &scratch->marshal.marshal;

      if (scratch->key_ids_size < marshal->n_values)
        {
          scratch->key_ids_size = marshal->n_values;
          scratch->key_ids = g_renew (guint32, scratch->key_ids, scratch->key_ids_size);
        }

      reader.marshal = marshal;
      reader.table = table;
      reader.error = error;
      reader.key_ids = scratch->key_ids;
      memset (reader.key_ids, 0xff, (gsize) marshal->n_values * sizeof *reader.key_ids);
      reader.funcs_map = scratch->funcs_map;
      reader.callers_map = scratch->callers_map;
      reader.callers = scratch->callers;
      reader.callers_size = scratch->callers_size;

      self = g_new0 (SmprofPstats, 1);
      ok = read_stats (&reader, self);

      scratch->funcs_map = reader.funcs_map;
      scratch->callers_map = reader.callers_map;
      scratch->callers = reader.callers;
      scratch->callers_size = reader.callers_size;

      if (ok && reader.n_callers > 0)
        {
          self->callers = g_memdup2 (reader.callers, reader.n_callers * sizeof (SmprofCallerStat));
          self->n_callers = reader.n_callers;
        }
    }

  if (scratch_get_size (scratch) > MAX_KEPT_SCRATCH)
    g_private_replace (&scratch_key, NULL);

  if (!ok)
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * smprof_pstats_parse:
 * @bytes: the contents of one `python_stats` file
 * @table: the job's function table; every key of the file is interned in it
 * @error: return location for a #SMPROF_FORMAT_ERROR
 *
 * Reads the dict that `pstats.Stats.dump_stats` writes. The error message
 * starts with the byte offset; the caller adds the file name. Safe to call
 * from several threads at once.
 *
 * Returns: (transfer full) (nullable): the stats, or %NULL on error
 */
SmprofPstats *
smprof_pstats_parse (GBytes          *bytes,
                     SmprofFuncTable *table,
                     GError         **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse (bytes, table, TRUE, FALSE, error);
}

/* The general path alone, for tests that hold the fast one to it. */
SmprofPstats *
_smprof_pstats_parse_general (GBytes           *bytes,
                              SmprofFuncTable  *table,
                              GError          **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (table != NULL, NULL);

  return parse (bytes, table, FALSE, FALSE, error);
}

/* The fast path alone: %NULL where it gives up. It never interns a key. */
SmprofPstats *
_smprof_pstats_parse_fast (GBytes          *bytes,
                           SmprofFuncTable *table)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (table != NULL, NULL);

  return parse (bytes, table, TRUE, TRUE, NULL);
}

void
smprof_pstats_free (SmprofPstats *self)
{
  if (self == NULL)
    return;

  if (self->slab != NULL)
    _smprof_stats_slab_release (self->slab);
  else
    {
      g_free (self->funcs);
      g_free (self->callers);
    }
  g_free (self);
}
