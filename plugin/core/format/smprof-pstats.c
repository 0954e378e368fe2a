/* smprof-pstats.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Reading a pstats file: the general path, through the marshal decoder, for
 * any file; and the entry points, which try the fast path
 * (smprof-pstats-fast.c) first, with each thread's scratch memory. */

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "smprof-function-keys-private.h"
#include "smprof-marshal-private.h"
#include "smprof-pstats-private.h"
#include "smprof-stats-slab.h"
#include "smprof-types.h"

#define NOT_FOUND G_MAXUINT32

/* In key_ids, marks a string value already found to be valid UTF-8: file
 * names are shared by reference between many keys. */
#define VALID_STRING (SMPROF_FUNC_NONE - 1)

/* key_ids is filled with 0xff bytes to mean "not interned yet". */
G_STATIC_ASSERT (SMPROF_FUNC_NONE == 0xffffffffu);

typedef struct
{
  SmprofMarshal      *marshal;
  SmprofFunctionKeys *table;
  guint32            *key_ids;     /* value index -> func id of a key tuple, for keys
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
  *out_id = _smprof_function_keys_find (reader->table, file, file_len, line, name, name_len);
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

  *out_id = smprof_function_keys_intern (reader->table, file, file_len, line, name, name_len);
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

/* A scratch grown past this by a huge file is given back after it. */
#define MAX_KEPT_SCRATCH (16u << 20)

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

static SmprofPstats *
parse (GBytes              *bytes,
       SmprofFunctionKeys  *table,
       gboolean             use_fast,
       gboolean             fast_only,
       GError             **error)
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
      self = _smprof_pstats_parse_fast_scratch (scratch, bytes, table);
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
smprof_pstats_parse (GBytes              *bytes,
                     SmprofFunctionKeys  *table,
                     GError             **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse (bytes, table, TRUE, FALSE, error);
}

/* The general path alone, for tests that hold the fast one to it. */
SmprofPstats *
_smprof_pstats_parse_general (GBytes              *bytes,
                              SmprofFunctionKeys  *table,
                              GError             **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (table != NULL, NULL);

  return parse (bytes, table, FALSE, FALSE, error);
}

/* The fast path alone: %NULL where it gives up. It never interns a key. */
SmprofPstats *
_smprof_pstats_parse_fast (GBytes             *bytes,
                           SmprofFunctionKeys *table)
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
