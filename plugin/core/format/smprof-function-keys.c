/* smprof-function-keys.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-function-keys-private.h"

/* Entries live in fixed blocks that never move, so readers on other threads may
 * look up any id below the published size while a worker interns new keys. */
#define BLOCK_SHIFT 12
#define BLOCK_SIZE  (1u << BLOCK_SHIFT)
#define MAX_BLOCKS  (1u << 16)

#define INITIAL_SLOTS 1024

typedef struct
{
  const char *file;
  const char *name;
  gint64      line;
  guint32     hash;
  guint32     file_len;
  guint32     name_len;
} FuncEntry;

/* An open-addressing index of the entries: each slot holds id + 1, or 0 when
 * empty. Slots are only ever filled, never cleared, and a full-enough table is
 * replaced by a larger copy rather than rehashed in place, so a reader needs no
 * lock: it sees either a published id or an empty slot. */
typedef struct
{
  guint   mask;
  guint32 slots[];
} SlotTable;

struct _SmprofFunctionKeys
{
  GMutex        lock;      /* serialises inserts; lookups never take it */
  GStringChunk *strings;
  SlotTable    *index;     /* read atomically */
  GPtrArray    *retired;   /* replaced indexes, which readers may still hold */
  FuncEntry   **blocks;
  guint         size;      /* read atomically */
};

static inline guint32
hash_combine (guint64 file_hash,
              gint64  line,
              guint64 name_hash)
{
  guint64 h = _smprof_function_keys_hash_mix (file_hash ^ (guint64) line);

  return (guint32) _smprof_function_keys_hash_mix (h ^ (name_hash * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)));
}

static inline guint32
hash_key (const char *file,
          gsize       file_len,
          gint64      line,
          const char *name,
          gsize       name_len)
{
  return hash_combine (_smprof_function_keys_hash_string (file, file_len), line,
                       _smprof_function_keys_hash_string (name, name_len));
}

static SlotTable *
slot_table_new (guint n_slots)
{
  SlotTable *table = g_malloc0 (sizeof (SlotTable) + n_slots * sizeof (guint32));

  table->mask = n_slots - 1;
  return table;
}

SmprofFunctionKeys *
smprof_function_keys_new (void)
{
  SmprofFunctionKeys *self = g_new0 (SmprofFunctionKeys, 1);

  g_mutex_init (&self->lock);
  self->strings = g_string_chunk_new (64 * 1024);
  self->index = slot_table_new (INITIAL_SLOTS);
  self->retired = g_ptr_array_new_with_free_func (g_free);
  self->blocks = g_new0 (FuncEntry *, MAX_BLOCKS);

  return self;
}

void
smprof_function_keys_free (SmprofFunctionKeys *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < MAX_BLOCKS && self->blocks[i] != NULL; i++)
    g_free (self->blocks[i]);
  g_free (self->blocks);
  g_ptr_array_unref (self->retired);
  g_free (self->index);
  g_string_chunk_free (self->strings);
  g_mutex_clear (&self->lock);
  g_free (self);
}

static inline FuncEntry *
entry_at (SmprofFunctionKeys *self,
          guint32             id)
{
  return &self->blocks[id >> BLOCK_SHIFT][id & (BLOCK_SIZE - 1)];
}

static inline gboolean
entry_matches (const FuncEntry *entry,
               guint32          hash,
               const char      *file,
               gsize            file_len,
               gint64           line,
               const char      *name,
               gsize            name_len)
{
  return entry->hash == hash && entry->line == line &&
         entry->file_len == file_len && entry->name_len == name_len &&
         memcmp (entry->name, name, name_len) == 0 &&
         memcmp (entry->file, file, file_len) == 0;
}

static guint32
find (SmprofFunctionKeys *self,
      guint32             hash,
      const char         *file,
      gsize               file_len,
      gint64              line,
      const char         *name,
      gsize               name_len)
{
  SlotTable *index = g_atomic_pointer_get (&self->index);

  for (guint i = hash & index->mask;; i = (i + 1) & index->mask)
    {
      guint32 slot = (guint32) g_atomic_int_get ((gint *) &index->slots[i]);

      if (slot == 0)
        return SMPROF_FUNC_NONE;

      if (entry_matches (entry_at (self, slot - 1), hash, file, file_len, line, name, name_len))
        return slot - 1;
    }
}

static void
index_insert (SlotTable *index,
              guint32    hash,
              guint32    id)
{
  guint i = hash & index->mask;

  while (index->slots[i] != 0)
    i = (i + 1) & index->mask;

  g_atomic_int_set ((gint *) &index->slots[i], (gint) (id + 1));
}

/* Called with the lock held, when the index would pass half full. */
static void
grow_index (SmprofFunctionKeys *self)
{
  SlotTable *old = self->index;
  SlotTable *index = slot_table_new ((old->mask + 1) * 2);

  for (guint32 id = 0; id < self->size; id++)
    index_insert (index, entry_at (self, id)->hash, id);

  g_atomic_pointer_set (&self->index, index);
  g_ptr_array_add (self->retired, old);
}

/**
 * _smprof_function_keys_find:
 * @self: a table
 * @file: (array length=file_len): the file, not necessarily NUL-terminated
 * @line: the line
 * @name: (array length=name_len): the function name, likewise
 *
 * Looks a key up without taking a lock or copying it; safe from any thread
 * while others intern. The bytes need not be valid UTF-8: the table holds only
 * valid keys, so a key that is not valid is simply not found.
 *
 * Returns: the key's id, or %SMPROF_FUNC_NONE
 */
guint32
_smprof_function_keys_find (SmprofFunctionKeys *self,
                            const char         *file,
                            gsize               file_len,
                            gint64              line,
                            const char         *name,
                            gsize               name_len)
{
  return find (self, hash_key (file, file_len, line, name, name_len),
               file, file_len, line, name, name_len);
}

/**
 * _smprof_function_keys_find_hashed:
 * @file_hash: _smprof_function_keys_hash_string() of @file
 * @name_hash: _smprof_function_keys_hash_string() of @name
 *
 * _smprof_function_keys_find() with the strings hashed already.
 */
guint32
_smprof_function_keys_find_hashed (SmprofFunctionKeys *self,
                                   guint64             file_hash,
                                   const char         *file,
                                   gsize               file_len,
                                   gint64              line,
                                   guint64             name_hash,
                                   const char         *name,
                                   gsize               name_len)
{
  return find (self, hash_combine (file_hash, line, name_hash),
               file, file_len, line, name, name_len);
}

/* Strings need not be NUL-terminated: they usually point into a file's bytes. */
guint32
smprof_function_keys_intern (SmprofFunctionKeys *self,
                             const char         *file,
                             gsize               file_len,
                             gint64              line,
                             const char         *name,
                             gsize               name_len)
{
  guint32 hash = hash_key (file, file_len, line, name, name_len);
  guint32 id = find (self, hash, file, file_len, line, name, name_len);
  FuncEntry *entry;

  if (id != SMPROF_FUNC_NONE)
    return id;

  /* Table strings are C strings: a key ends at its first NUL, as it did when
   * keys were copied with g_strndup(). Stored keys hold no NUL, so a raw key
   * with one was not found above. */
  file_len = strnlen (file, file_len);
  name_len = strnlen (name, name_len);
  hash = hash_key (file, file_len, line, name, name_len);

  g_mutex_lock (&self->lock);

  /* Another thread may have added it since. */
  id = find (self, hash, file, file_len, line, name, name_len);
  if (id != SMPROF_FUNC_NONE)
    {
      g_mutex_unlock (&self->lock);
      return id;
    }

  id = self->size;
  if (id >= BLOCK_SIZE * MAX_BLOCKS - 1 || file_len > G_MAXUINT32 || name_len > G_MAXUINT32)
    g_error ("More than %u distinct functions in one job", id);

  if (self->blocks[id >> BLOCK_SHIFT] == NULL)
    self->blocks[id >> BLOCK_SHIFT] = g_new0 (FuncEntry, BLOCK_SIZE);

  entry = entry_at (self, id);
  {
    /* The chunk shares one copy of each file name between its functions. */
    g_autofree char *file_z = g_strndup (file, file_len);

    entry->file = g_string_chunk_insert_const (self->strings, file_z);
  }
  entry->name = g_string_chunk_insert_len (self->strings, name, name_len);
  entry->line = line;
  entry->hash = hash;
  entry->file_len = file_len;
  entry->name_len = name_len;

  if ((id + 1) * 2 > self->index->mask + 1)
    grow_index (self);

  /* The entry is complete before its slot is published. */
  index_insert (self->index, hash, id);
  g_atomic_int_set (&self->size, id + 1);

  g_mutex_unlock (&self->lock);

  return id;
}

guint32
smprof_function_keys_lookup (SmprofFunctionKeys *self,
                             const char         *file,
                             gint64              line,
                             const char         *name)
{
  return _smprof_function_keys_find (self, file, strlen (file), line, name, strlen (name));
}

guint
smprof_function_keys_get_size (SmprofFunctionKeys *self)
{
  return g_atomic_int_get (&self->size);
}

const char *
smprof_function_keys_get_file (SmprofFunctionKeys *self,
                               guint32             id)
{
  g_return_val_if_fail (id < smprof_function_keys_get_size (self), NULL);

  return entry_at (self, id)->file;
}

gint64
smprof_function_keys_get_line (SmprofFunctionKeys *self,
                               guint32             id)
{
  g_return_val_if_fail (id < smprof_function_keys_get_size (self), 0);

  return entry_at (self, id)->line;
}

const char *
smprof_function_keys_get_name (SmprofFunctionKeys *self,
                               guint32             id)
{
  g_return_val_if_fail (id < smprof_function_keys_get_size (self), NULL);

  return entry_at (self, id)->name;
}

/* pstats.func_std_string: built-ins are keyed ("~", 0, "<built-in method x>")
 * and shown as {built-in method x}; everything else as file:line(name). */
char *
smprof_function_keys_dup_label (SmprofFunctionKeys *self,
                                guint32             id)
{
  const FuncEntry *entry;

  g_return_val_if_fail (id < smprof_function_keys_get_size (self), NULL);

  entry = entry_at (self, id);

  if (strcmp (entry->file, "~") == 0 && entry->line == 0)
    {
      gsize len = strlen (entry->name);

      if (len >= 2 && entry->name[0] == '<' && entry->name[len - 1] == '>')
        return g_strdup_printf ("{%.*s}", (int) (len - 2), entry->name + 1);

      return g_strdup (entry->name);
    }

  return g_strdup_printf ("%s:%" G_GINT64_FORMAT "(%s)", entry->file, entry->line, entry->name);
}

/* The order of Python's tuple comparison on (file, line, name). */
int
smprof_function_keys_compare (SmprofFunctionKeys *self,
                              guint32             a,
                              guint32             b)
{
  const FuncEntry *x = entry_at (self, a);
  const FuncEntry *y = entry_at (self, b);
  int cmp = strcmp (x->file, y->file);

  if (cmp != 0)
    return cmp;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp (x->name, y->name);
}
