/* smprof-index-format.c: what both files of the parsed index share: the
 * checksum, mapping a file, writing one atomically, and sealing (the
 * checksums of a file made by hand: the tests and the fuzz target)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smprof-index-file.h"

#define PRIME_1 G_GUINT64_CONSTANT (0x9e3779b185ebca87)
#define PRIME_2 G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f)
#define PRIME_3 G_GUINT64_CONSTANT (0x165667b19e3779f9)

static inline guint64
rotate (guint64 x,
        int     bits)
{
  return (x << bits) | (x >> (64 - bits));
}

/* One word into one lane: a bijection of the lane for a given word and of
 * the word for a given lane, so a change confined to one word always
 * changes the result, and any other change does but for a 2^-64 chance. */
static inline guint64
round_word (guint64 lane,
            guint64 word)
{
  return rotate (lane + word * PRIME_2, 31) * PRIME_1;
}

static inline guint64
load_word (const guint8 *p)
{
  guint64 word;

  memcpy (&word, p, sizeof word);
  return word;
}

/**
 * _smprof_index_checksum:
 * @data: (array length=size): bytes
 * @size: how many
 * @seed: a value mixed in first
 *
 * A 64-bit checksum of @data, four independent lanes at a time so that a
 * node's arrays (tens of megabytes) are checked at memory speed.
 *
 * Returns: the checksum
 */
guint64
_smprof_index_checksum (const void *data,
                        gsize       size,
                        guint64     seed)
{
  const guint8 *p = data;
  const guint8 *end = p + size;
  guint64 h;

  if (size >= 32)
    {
      guint64 a = seed + PRIME_1 + PRIME_2;
      guint64 b = seed + PRIME_2;
      guint64 c = seed;
      guint64 d = seed - PRIME_1;

      for (; end - p >= 32; p += 32)
        {
          a = round_word (a, load_word (p));
          b = round_word (b, load_word (p + 8));
          c = round_word (c, load_word (p + 16));
          d = round_word (d, load_word (p + 24));
        }

      h = rotate (a, 1) + rotate (b, 7) + rotate (c, 12) + rotate (d, 18);
      h = (h ^ round_word (0, a)) * PRIME_1 + PRIME_3;
      h = (h ^ round_word (0, b)) * PRIME_1 + PRIME_3;
      h = (h ^ round_word (0, c)) * PRIME_1 + PRIME_3;
      h = (h ^ round_word (0, d)) * PRIME_1 + PRIME_3;
    }
  else
    h = seed + PRIME_3;

  h += size;

  for (; end - p >= 8; p += 8)
    h = rotate (h ^ round_word (0, load_word (p)), 27) * PRIME_1 + PRIME_3;

  if (p < end)
    {
      guint64 word = 0;

      memcpy (&word, p, end - p);
      h = rotate (h ^ round_word (0, word), 23) * PRIME_2 + PRIME_1;
    }

  h ^= h >> 33;
  h *= PRIME_2;
  h ^= h >> 29;
  h *= PRIME_3;
  h ^= h >> 32;

  return h;
}

/**
 * _smprof_index_file_checksum:
 * @header: a file's header
 * @header_size: its size
 * @checksum_offset: where its checksum field lies in it
 * @rest: (array length=rest_size): what follows the header that the
 *   checksum covers
 * @rest_size: its size
 *
 * The checksum a file's header holds: of the header (its checksum field
 * read as 0), then of what follows it, without copying either.
 *
 * Returns: the checksum
 */
guint64
_smprof_index_file_checksum (const void *header,
                             gsize       header_size,
                             gsize       checksum_offset,
                             const void *rest,
                             gsize       rest_size)
{
  guint8 copy[256];
  guint64 zero = 0;

  g_assert (header_size <= sizeof copy && checksum_offset + sizeof zero <= header_size);

  memcpy (copy, header, header_size);
  memcpy (copy + checksum_offset, &zero, sizeof zero);

  return _smprof_index_checksum (rest, rest_size, _smprof_index_checksum (copy, header_size, 0));
}

/**
 * _smprof_index_chain_next:
 * @previous: the chain up to the key before, or %SMPROF_INDEX_CHAIN_SEED
 * @file: the key's file
 * @line: its line
 * @name: its function name
 *
 * Returns: the chain up to this key: a checksum of the keys so far, in order
 */
guint64
_smprof_index_chain_next (guint64     previous,
                          const char *file,
                          gint64      line,
                          const char *name)
{
  guint64 key = _smprof_index_checksum (file, strlen (file), (guint64) line);

  key = _smprof_index_checksum (name, strlen (name), key);

  return _smprof_index_checksum (&key, sizeof key, previous);
}

/**
 * _smprof_index_check_string:
 * @strings: a file's string table
 * @strings_size: its size in bytes
 * @offset: where a string starts in it
 * @length: its length, as the file says
 *
 * Returns: whether the string lies inside the table, NUL-terminated right at
 *   its length, holding no other NUL, valid UTF-8 (as every interned key is)
 */
gboolean
_smprof_index_check_string (const char *strings,
                            guint64     strings_size,
                            guint32     offset,
                            guint32     length)
{
  return (guint64) offset + length < strings_size &&
         strings[(gsize) offset + length] == '\0' &&
         memchr (strings + offset, '\0', length) == NULL &&
         g_utf8_validate (strings + offset, length, NULL);
}

typedef struct
{
  gpointer base;
  gsize    size;
} Mapping;

static void
unmap (gpointer data)
{
  Mapping *mapping = data;

  munmap (mapping->base, mapping->size);
  g_free (mapping);
}

/**
 * _smprof_index_map:
 * @path: a cache file
 * @populate: whether to read every page in at once (when most of the file
 *   will be used: one system call instead of a fault per page)
 * @error: a location for a #GError, or %NULL
 *
 * The file mapped read-only.
 *
 * Returns: (transfer full) (nullable): the file's bytes, or %NULL
 */
GBytes *
_smprof_index_map (const char  *path,
                   gboolean     populate,
                   GError     **error)
{
  struct stat st;
  Mapping *mapping;
  gpointer base;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
      return NULL;
    }

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size <= 0 || (guint64) st.st_size > G_MAXSIZE / 2)
    {
      close (fd);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not a cache file");
      return NULL;
    }

  base = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
  close (fd);
  if (base == MAP_FAILED)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
      return NULL;
    }

  mapping = g_new (Mapping, 1);
  mapping->base = base;
  mapping->size = st.st_size;

  return g_bytes_new_with_free_func (base, st.st_size, unmap, mapping);
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         size,
           GError      **error)
{
  while (size > 0)
    {
      ssize_t n = write (fd, data, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
          return FALSE;
        }
      data += n;
      size -= n;
    }

  return TRUE;
}

/* A temporary file next to @path, for _smprof_index_commit(). */
int
_smprof_index_open_temporary (const char  *path,
                              char       **temporary,
                              GError     **error)
{
  char *template = g_strconcat (path, ".XXXXXX", NULL);
  int fd = g_mkstemp_full (template, O_RDWR | O_CLOEXEC, 0600);

  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
      g_free (template);
      return -1;
    }

  *temporary = template;
  return fd;
}

/* Closes @fd and renames @temporary to @path: readers see the old file or
 * the new one whole, never a part. On failure the temporary file goes. */
gboolean
_smprof_index_commit (int          fd,
                      char        *temporary,
                      const char  *path,
                      gboolean     ok,
                      GError     **error)
{
  if (close (fd) != 0 && ok)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
      ok = FALSE;
    }

  if (ok && g_rename (temporary, path) != 0)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
      ok = FALSE;
    }

  if (!ok)
    g_unlink (temporary);
  g_free (temporary);

  return ok;
}

/**
 * _smprof_index_write_bytes:
 * @path: where
 * @bytes: the whole file
 * @error: a location for a #GError, or %NULL
 *
 * Writes @bytes to @path atomically (a temporary file renamed over it).
 *
 * Returns: whether it was written
 */
gboolean
_smprof_index_write_bytes (const char  *path,
                           GBytes      *bytes,
                           GError     **error)
{
  char *temporary = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  int fd = _smprof_index_open_temporary (path, &temporary, error);

  if (fd < 0)
    return FALSE;

  return _smprof_index_commit (fd, temporary, path, write_all (fd, data, size, error), error);
}

/**
 * _smprof_index_seal:
 * @data: (array length=size): a keys file or a node file, made or changed
 *   by hand
 * @size: its size
 *
 * Sets the file's checksums (and a node file's intervals' checksums, where
 * their arrays lie inside it) to match its bytes, so that what reads it
 * goes on to look at the rest: for tests that make a damaged file that is
 * not caught by its checksum, and for the fuzz target.
 */
void
_smprof_index_seal (guint8 *data,
                    gsize   size)
{
  if (size >= sizeof (SmprofIndexKeysHeader) && memcmp (data, SMPROF_INDEX_KEYS_MAGIC, 8) == 0)
    {
      SmprofIndexKeysHeader header;

      memcpy (&header, data, sizeof header);
      header.checksum = _smprof_index_file_checksum (&header, sizeof header,
                                                     offsetof (SmprofIndexKeysHeader, checksum),
                                                     data + sizeof header, size - sizeof header);
      memcpy (data, &header, sizeof header);
      return;
    }

  if (size >= sizeof (SmprofIndexNodeHeader) && memcmp (data, SMPROF_INDEX_NODE_MAGIC, 8) == 0)
    {
      SmprofIndexNodeHeader header;
      gsize meta_end;

      memcpy (&header, data, sizeof header);

      if (header.intervals_offset <= size && header.data_offset <= size &&
          header.n_intervals <= (size - header.intervals_offset) / sizeof (SmprofIndexInterval))
        for (guint i = 0; i < header.n_intervals; i++)
          {
            SmprofIndexInterval interval;
            guint8 *at = data + header.intervals_offset + (gsize) i * sizeof interval;
            guint64 start, length;

            memcpy (&interval, at, sizeof interval);
            start = header.data_offset + interval.data_offset;
            length = interval.data_length;
            if (interval.data_offset > size || start > size || length > size - start)
              continue;
            interval.checksum = _smprof_index_checksum (data + start, length, 0);
            memcpy (at, &interval, sizeof interval);
          }

      meta_end = CLAMP (header.data_offset, sizeof header, size);
      header.checksum = _smprof_index_file_checksum (&header, sizeof header,
                                                     offsetof (SmprofIndexNodeHeader, checksum),
                                                     data + sizeof header, meta_end - sizeof header);
      memcpy (data, &header, sizeof header);
    }
}
