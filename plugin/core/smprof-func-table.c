/* smprof-func-table.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-func-table.h"

/* Entries live in fixed blocks that never move, so readers on other threads may
 * look up any id below the published size while a worker interns new keys. */
#define BLOCK_SHIFT 12
#define BLOCK_SIZE  (1u << BLOCK_SHIFT)
#define MAX_BLOCKS  (1u << 16)

typedef struct
{
  const char *file;
  const char *name;
  gint64      line;
} FuncEntry;

struct _SmprofFuncTable
{
  GMutex        lock;
  GStringChunk *strings;
  GHashTable   *ids;      /* FuncEntry* -> id + 1 */
  FuncEntry   **blocks;
  guint         size;     /* read atomically */
};

static guint
func_entry_hash (gconstpointer data)
{
  const FuncEntry *entry = data;

  return g_str_hash (entry->file) * 31u + g_str_hash (entry->name) * 17u + (guint) entry->line;
}

static gboolean
func_entry_equal (gconstpointer a,
                  gconstpointer b)
{
  const FuncEntry *x = a;
  const FuncEntry *y = b;

  return x->line == y->line && strcmp (x->name, y->name) == 0 && strcmp (x->file, y->file) == 0;
}

SmprofFuncTable *
smprof_func_table_new (void)
{
  SmprofFuncTable *self = g_new0 (SmprofFuncTable, 1);

  g_mutex_init (&self->lock);
  self->strings = g_string_chunk_new (64 * 1024);
  self->ids = g_hash_table_new (func_entry_hash, func_entry_equal);
  self->blocks = g_new0 (FuncEntry *, MAX_BLOCKS);

  return self;
}

void
smprof_func_table_free (SmprofFuncTable *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < MAX_BLOCKS && self->blocks[i] != NULL; i++)
    g_free (self->blocks[i]);
  g_free (self->blocks);
  g_hash_table_unref (self->ids);
  g_string_chunk_free (self->strings);
  g_mutex_clear (&self->lock);
  g_free (self);
}

static inline FuncEntry *
entry_at (SmprofFuncTable *self,
          guint32          id)
{
  return &self->blocks[id >> BLOCK_SHIFT][id & (BLOCK_SIZE - 1)];
}

/* Strings need not be NUL-terminated: they usually point into a file's bytes. */
guint32
smprof_func_table_intern (SmprofFuncTable *self,
                          const char      *file,
                          gsize            file_len,
                          gint64           line,
                          const char      *name,
                          gsize            name_len)
{
  g_autofree char *file_z = g_strndup (file, file_len);
  g_autofree char *name_z = g_strndup (name, name_len);
  FuncEntry key = { file_z, name_z, line };
  gpointer found;
  guint32 id;

  g_mutex_lock (&self->lock);

  found = g_hash_table_lookup (self->ids, &key);
  if (found != NULL)
    {
      g_mutex_unlock (&self->lock);
      return GPOINTER_TO_UINT (found) - 1;
    }

  id = self->size;
  if (id >= BLOCK_SIZE * MAX_BLOCKS - 1)
    g_error ("More than %u distinct functions in one job", id);

  if (self->blocks[id >> BLOCK_SHIFT] == NULL)
    self->blocks[id >> BLOCK_SHIFT] = g_new0 (FuncEntry, BLOCK_SIZE);

  {
    FuncEntry *entry = entry_at (self, id);

    entry->file = g_string_chunk_insert_const (self->strings, file_z);
    entry->name = g_string_chunk_insert (self->strings, name_z);
    entry->line = line;
    g_hash_table_insert (self->ids, entry, GUINT_TO_POINTER (id + 1));
  }

  g_atomic_int_set (&self->size, id + 1);
  g_mutex_unlock (&self->lock);

  return id;
}

guint32
smprof_func_table_lookup (SmprofFuncTable *self,
                          const char      *file,
                          gint64           line,
                          const char      *name)
{
  FuncEntry key = { file, name, line };
  gpointer found;

  g_mutex_lock (&self->lock);
  found = g_hash_table_lookup (self->ids, &key);
  g_mutex_unlock (&self->lock);

  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : SMPROF_FUNC_NONE;
}

guint
smprof_func_table_get_size (SmprofFuncTable *self)
{
  return g_atomic_int_get (&self->size);
}

const char *
smprof_func_table_get_file (SmprofFuncTable *self,
                            guint32          id)
{
  g_return_val_if_fail (id < smprof_func_table_get_size (self), NULL);

  return entry_at (self, id)->file;
}

gint64
smprof_func_table_get_line (SmprofFuncTable *self,
                            guint32          id)
{
  g_return_val_if_fail (id < smprof_func_table_get_size (self), 0);

  return entry_at (self, id)->line;
}

const char *
smprof_func_table_get_name (SmprofFuncTable *self,
                            guint32          id)
{
  g_return_val_if_fail (id < smprof_func_table_get_size (self), NULL);

  return entry_at (self, id)->name;
}

/* pstats.func_std_string: built-ins are keyed ("~", 0, "<built-in method x>")
 * and shown as {built-in method x}; everything else as file:line(name). */
char *
smprof_func_table_dup_label (SmprofFuncTable *self,
                             guint32          id)
{
  const FuncEntry *entry;

  g_return_val_if_fail (id < smprof_func_table_get_size (self), NULL);

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
smprof_func_table_compare (SmprofFuncTable *self,
                           guint32          a,
                           guint32          b)
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
