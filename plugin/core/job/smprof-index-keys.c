/* smprof-index-keys.c: a job's function keys in the parsed index
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stddef.h>
#include <string.h>

#include "smprof-index-file.h"

struct _SmprofIndexKeys
{
  GBytes               *bytes;
  const guint8         *data;
  SmprofIndexKeysHeader header;
  const char           *strings;
  const SmprofIndexKey *keys;
  guint64              *chain;    /* worked out on reading: chain[i] covers keys 0..i */
};

static gboolean
invalid (GError     **error,
         const char  *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "keys file: %s", what);
  return FALSE;
}

static gboolean
parse (SmprofIndexKeys  *self,
       const char       *identity,
       GError          **error)
{
  const SmprofIndexKeysHeader *header = &self->header;
  gsize size = g_bytes_get_size (self->bytes);
  guint64 chain = SMPROF_INDEX_CHAIN_SEED;

  if (size < sizeof *header)
    return invalid (error, "truncated");

  memcpy (&self->header, self->data, sizeof self->header);

  if (memcmp (header->magic, SMPROF_INDEX_KEYS_MAGIC, 8) != 0)
    return invalid (error, "not a keys file");
  if (header->version != SMPROF_INDEX_FILE_VERSION)
    return invalid (error, "another version");
  if (header->byte_order != SMPROF_INDEX_BYTE_ORDER)
    return invalid (error, "another byte order");
  if (header->file_size != size)
    return invalid (error, "truncated or extended");

  /* The layout is fixed: every region where the writer puts it. */
  if (header->strings_offset != sizeof *header ||
      header->strings_size == 0 || header->strings_size > size - header->strings_offset ||
      header->keys_offset != ((header->strings_offset + header->strings_size + 7) & ~(guint64) 7) ||
      header->keys_offset > size ||
      (size - header->keys_offset) / sizeof (SmprofIndexKey) != header->n_keys ||
      (size - header->keys_offset) % sizeof (SmprofIndexKey) != 0)
    return invalid (error, "bad layout");

  if (header->checksum != _smprof_index_file_checksum (header, sizeof *header,
                                                       offsetof (SmprofIndexKeysHeader, checksum),
                                                       self->data + sizeof *header, size - sizeof *header))
    return invalid (error, "checksum mismatch");

  self->strings = (const char *) self->data + header->strings_offset;
  self->keys = (const SmprofIndexKey *) (gconstpointer) (self->data + header->keys_offset);

  if (!_smprof_index_check_string (self->strings, header->strings_size, 0, header->identity_length))
    return invalid (error, "bad identity");
  if (identity != NULL && strcmp (self->strings, identity) != 0)
    return invalid (error, "another job's");

  self->chain = g_new (guint64, MAX (header->n_keys, 1));
  for (guint i = 0; i < header->n_keys; i++)
    {
      const SmprofIndexKey *key = &self->keys[i];

      if (!_smprof_index_check_string (self->strings, header->strings_size, key->file_offset, key->file_length) ||
          !_smprof_index_check_string (self->strings, header->strings_size, key->name_offset, key->name_length))
        return invalid (error, "bad key");

      chain = _smprof_index_chain_next (chain, self->strings + key->file_offset, key->line,
                                        self->strings + key->name_offset);
      self->chain[i] = chain;
    }

  return TRUE;
}

/**
 * _smprof_index_keys_new:
 * @bytes: a keys file
 * @identity: (nullable): the job it must be of, or %NULL for any
 * @error: a location for a #GError, or %NULL
 *
 * Reads and checks a keys file.
 *
 * Returns: (transfer full) (nullable): the keys, or %NULL if the file is not
 *   one, is damaged, of another version or another job
 */
SmprofIndexKeys *
_smprof_index_keys_new (GBytes      *bytes,
                        const char  *identity,
                        GError     **error)
{
  SmprofIndexKeys *self = g_new0 (SmprofIndexKeys, 1);

  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, NULL);

  if (!parse (self, identity, error))
    {
      _smprof_index_keys_free (self);
      return NULL;
    }

  return self;
}

void
_smprof_index_keys_free (SmprofIndexKeys *self)
{
  if (self == NULL)
    return;

  g_bytes_unref (self->bytes);
  g_free (self->chain);
  g_free (self);
}

guint
_smprof_index_keys_get_n_keys (SmprofIndexKeys *self)
{
  return self->header.n_keys;
}

const guint64 *
_smprof_index_keys_get_lineage (SmprofIndexKeys *self)
{
  return self->header.lineage;
}

/* The chain of the first @n_keys keys; the seed for none. */
guint64
_smprof_index_keys_get_chain (SmprofIndexKeys *self,
                              guint            n_keys)
{
  g_return_val_if_fail (n_keys <= self->header.n_keys, 0);

  return n_keys == 0 ? SMPROF_INDEX_CHAIN_SEED : self->chain[n_keys - 1];
}

void
_smprof_index_keys_get_key (SmprofIndexKeys  *self,
                            guint             index,
                            const char      **file,
                            gsize            *file_length,
                            gint64           *line,
                            const char      **name,
                            gsize            *name_length)
{
  const SmprofIndexKey *key;

  g_return_if_fail (index < self->header.n_keys);

  key = &self->keys[index];
  *file = self->strings + key->file_offset;
  *file_length = key->file_length;
  *line = key->line;
  *name = self->strings + key->name_offset;
  *name_length = key->name_length;
}

/* Appends @text with its NUL to @strings; returns its offset. */
static guint32
add_string (GByteArray *strings,
            const char *text,
            gsize       length)
{
  guint32 offset = strings->len;

  g_byte_array_append (strings, (const guint8 *) text, length);
  g_byte_array_append (strings, (const guint8 *) "", 1);

  return offset;
}

/**
 * _smprof_index_keys_build:
 * @identity: the job's identity
 * @lineage: (array fixed-size=2): the lineage the file belongs to
 * @table: the job's function keys
 * @n_keys: how many of them, from the first: every id the node files written
 *   with this one use is below it
 *
 * Returns: (transfer full): the keys file, whole
 */
GBytes *
_smprof_index_keys_build (const char         *identity,
                          const guint64      *lineage,
                          SmprofFunctionKeys *table,
                          guint               n_keys)
{
  g_autoptr(GByteArray) strings = g_byte_array_new ();
  g_autoptr(GHashTable) files = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree SmprofIndexKey *keys = g_new0 (SmprofIndexKey, MAX (n_keys, 1));
  SmprofIndexKeysHeader header = { { 0 } };
  GByteArray *file;

  header.identity_length = strlen (identity);
  add_string (strings, identity, header.identity_length);

  for (guint i = 0; i < n_keys; i++)
    {
      const char *file_name = smprof_function_keys_get_file (table, i);
      const char *name = smprof_function_keys_get_name (table, i);
      gpointer offset;

      /* Thousands of functions share a few hundred files: one copy each. */
      if (!g_hash_table_lookup_extended (files, file_name, NULL, &offset))
        {
          offset = GUINT_TO_POINTER (add_string (strings, file_name, strlen (file_name)));
          g_hash_table_insert (files, (gpointer) file_name, offset);
        }

      keys[i].file_offset = GPOINTER_TO_UINT (offset);
      keys[i].file_length = strlen (file_name);
      keys[i].name_length = strlen (name);
      keys[i].name_offset = add_string (strings, name, keys[i].name_length);
      keys[i].line = smprof_function_keys_get_line (table, i);
    }

  memcpy (header.magic, SMPROF_INDEX_KEYS_MAGIC, 8);
  header.version = SMPROF_INDEX_FILE_VERSION;
  header.byte_order = SMPROF_INDEX_BYTE_ORDER;
  header.lineage[0] = lineage[0];
  header.lineage[1] = lineage[1];
  header.n_keys = n_keys;
  header.strings_offset = sizeof header;
  header.strings_size = strings->len;
  header.keys_offset = (header.strings_offset + header.strings_size + 7) & ~(guint64) 7;
  header.file_size = header.keys_offset + (guint64) n_keys * sizeof (SmprofIndexKey);

  file = g_byte_array_sized_new (header.file_size);
  g_byte_array_append (file, (const guint8 *) &header, sizeof header);
  g_byte_array_append (file, strings->data, strings->len);
  while (file->len < header.keys_offset)
    g_byte_array_append (file, (const guint8 *) "", 1);
  g_byte_array_append (file, (const guint8 *) keys, n_keys * sizeof (SmprofIndexKey));

  _smprof_index_seal (file->data, file->len);

  return g_byte_array_free_to_bytes (file);
}
