/* smprof-index-file.c: one node's parsed stats in the parsed index
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "smprof-index-file.h"
#include "smprof-stats-slab.h"

/* The tables are read where they are mapped. */
G_STATIC_ASSERT (sizeof (SmprofIndexInterval) % 8 == 0);
G_STATIC_ASSERT (sizeof (SmprofIndexNodeHeader) % 8 == 0);

struct _SmprofIndexFile
{
  GBytes                    *bytes;
  const guint8              *data;
  SmprofIndexNodeHeader      header;
  const char                *strings;
  const SmprofIndexInterval *intervals;
  const guint8              *arrays;
};

static gboolean
invalid (GError     **error,
         const char  *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "node file: %s", what);
  return FALSE;
}

static gboolean
parse (SmprofIndexFile  *self,
       const char       *identity,
       GError          **error)
{
  const SmprofIndexNodeHeader *header = &self->header;
  gsize size = g_bytes_get_size (self->bytes);
  guint64 meta_end;

  if (size < sizeof *header)
    return invalid (error, "truncated");

  memcpy (&self->header, self->data, sizeof self->header);

  if (memcmp (header->magic, SMPROF_INDEX_NODE_MAGIC, 8) != 0)
    return invalid (error, "not a node file");
  if (header->version != SMPROF_INDEX_FILE_VERSION)
    return invalid (error, "another version");
  if (header->byte_order != SMPROF_INDEX_BYTE_ORDER ||
      header->func_size != sizeof (SmprofFuncStat) || header->caller_size != sizeof (SmprofCallerStat))
    return invalid (error, "another layout");
  if (header->file_size != size)
    return invalid (error, "truncated or extended");

  /* The layout is fixed: every region where the writer puts it. */
  if (header->strings_offset != sizeof *header ||
      header->strings_size == 0 || header->strings_size > size - header->strings_offset ||
      header->intervals_offset != ((header->strings_offset + header->strings_size + 7) & ~(guint64) 7) ||
      header->intervals_offset > size ||
      header->n_intervals > (size - header->intervals_offset) / sizeof (SmprofIndexInterval))
    return invalid (error, "bad layout");

  meta_end = header->intervals_offset + (guint64) header->n_intervals * sizeof (SmprofIndexInterval);
  if (header->data_offset != meta_end || header->data_size != size - meta_end)
    return invalid (error, "bad layout");

  if (header->checksum != _smprof_index_file_checksum (header, sizeof *header,
                                                       offsetof (SmprofIndexNodeHeader, checksum),
                                                       self->data + sizeof *header, meta_end - sizeof *header))
    return invalid (error, "checksum mismatch");

  self->strings = (const char *) self->data + header->strings_offset;
  self->intervals = (const SmprofIndexInterval *) (gconstpointer) (self->data + header->intervals_offset);
  self->arrays = self->data + header->data_offset;

  if (!_smprof_index_check_string (self->strings, header->strings_size, 0, header->identity_length))
    return invalid (error, "bad identity");
  if (identity != NULL && strcmp (self->strings, identity) != 0)
    return invalid (error, "another node's");

  /* Names in strictly increasing order, for _smprof_index_file_find(); the
   * arrays are checked when first used. */
  for (guint i = 0; i < header->n_intervals; i++)
    {
      const SmprofIndexInterval *interval = &self->intervals[i];

      if (!_smprof_index_check_string (self->strings, header->strings_size, interval->name_offset, interval->name_length))
        return invalid (error, "bad interval name");

      if (i > 0 && strcmp (self->strings + self->intervals[i - 1].name_offset,
                           self->strings + interval->name_offset) >= 0)
        return invalid (error, "intervals out of order");
    }

  return TRUE;
}

/**
 * _smprof_index_file_new:
 * @bytes: a node file
 * @identity: (nullable): the node folder it must be of, or %NULL for any
 * @error: a location for a #GError, or %NULL
 *
 * Reads and checks a node file's header and tables. Each interval's arrays
 * are checked when it is first read (_smprof_index_file_read()).
 *
 * Returns: (transfer full) (nullable): the file, or %NULL if it is not one,
 *   is damaged, of another version or another node
 */
SmprofIndexFile *
_smprof_index_file_new (GBytes      *bytes,
                        const char  *identity,
                        GError     **error)
{
  SmprofIndexFile *self = g_new0 (SmprofIndexFile, 1);

  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, NULL);

  if (!parse (self, identity, error))
    {
      _smprof_index_file_free (self);
      return NULL;
    }

  return self;
}

void
_smprof_index_file_free (SmprofIndexFile *self)
{
  if (self == NULL)
    return;

  g_bytes_unref (self->bytes);
  g_free (self);
}

const guint64 *
_smprof_index_file_get_lineage (SmprofIndexFile *self)
{
  return self->header.lineage;
}

guint
_smprof_index_file_get_n_keys (SmprofIndexFile *self)
{
  return self->header.n_keys;
}

guint64
_smprof_index_file_get_keys_chain (SmprofIndexFile *self)
{
  return self->header.keys_chain;
}

guint
_smprof_index_file_get_n_intervals (SmprofIndexFile *self)
{
  return self->header.n_intervals;
}

const SmprofIndexInterval *
_smprof_index_file_get_interval (SmprofIndexFile *self,
                                 guint            index)
{
  g_return_val_if_fail (index < self->header.n_intervals, NULL);

  return &self->intervals[index];
}

const char *
_smprof_index_file_get_interval_name (SmprofIndexFile *self,
                                      guint            index)
{
  g_return_val_if_fail (index < self->header.n_intervals, NULL);

  return self->strings + self->intervals[index].name_offset;
}

/**
 * _smprof_index_file_find:
 * @self: a node file
 * @interval: an interval folder name
 * @index: (out): where it is
 *
 * Returns: whether the file holds @interval
 */
gboolean
_smprof_index_file_find (SmprofIndexFile *self,
                         const char      *interval,
                         guint           *index)
{
  guint lo = 0;
  guint hi = self->header.n_intervals;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int cmp = strcmp (self->strings + self->intervals[mid].name_offset, interval);

      if (cmp == 0)
        {
          *index = mid;
          return TRUE;
        }
      if (cmp < 0)
        lo = mid + 1;
      else
        hi = mid;
    }

  return FALSE;
}

/* Where an interval's arrays lie, when inside the data. */
static const guint8 *
interval_data (SmprofIndexFile           *self,
               const SmprofIndexInterval *interval)
{
  if (interval->data_offset > self->header.data_size ||
      interval->data_length > self->header.data_size - interval->data_offset)
    return NULL;

  return self->arrays + interval->data_offset;
}

static SmprofPstats *
refuse (GError     **error,
        const char  *what)
{
  invalid (error, what);
  return NULL;
}

/**
 * _smprof_index_file_read:
 * @self: a node file
 * @index: one of its intervals
 * @remap: (nullable): the job's id of each key the file uses, or %NULL when
 *   they are the job's ids already
 * @error: a location for a #GError, or %NULL
 *
 * An interval's stats, read from its arrays and checked: where they lie,
 * their checksum, and all they say, as smprof_pstats_parse() would have
 * left them: function and caller ids of the keys the file uses, each
 * function's callers right after the previous one's, and the totals pstats
 * sums from them in the same order. With @remap, each id is mapped.
 *
 * Returns: (transfer full) (nullable): the stats, or %NULL if the interval
 *   fails its checks
 */
SmprofPstats *
_smprof_index_file_read (SmprofIndexFile  *self,
                         guint             index,
                         const guint32    *remap,
                         GError          **error)
{
  const SmprofIndexInterval *interval;
  const guint8 *data;
  g_autoptr(SmprofPstats) stats = NULL;
  SmprofPstats totals = { 0 };

  g_return_val_if_fail (index < self->header.n_intervals, NULL);

  interval = &self->intervals[index];
  data = interval_data (self, interval);
  if (data == NULL)
    return refuse (error, "bad interval");

  /* The arrays cannot be smaller than their entries' smallest forms. */
  if (interval->data_length < (guint64) interval->n_funcs * 3 + (guint64) interval->n_callers * 2)
    return refuse (error, "bad interval");

  if (interval->checksum != _smprof_index_checksum (data, interval->data_length, 0))
    return refuse (error, "interval checksum mismatch");

  stats = g_new0 (SmprofPstats, 1);
  stats->n_funcs = interval->n_funcs;
  stats->n_callers = interval->n_callers;
  _smprof_stats_slab_take_arrays (stats, stats->n_funcs, stats->n_callers);

  if (!_smprof_index_arrays_decode (data, interval->data_length, self->header.n_keys, remap,
                                    stats->funcs, stats->n_funcs, stats->callers, stats->n_callers, &totals))
    return refuse (error, "bad arrays");

  /* Bit for bit: the sums come out the same in the same order. */
  if (totals.total_calls != interval->total_calls || totals.prim_calls != interval->prim_calls ||
      memcmp (&totals.total_tt, &interval->total_tt, sizeof totals.total_tt) != 0)
    return refuse (error, "bad totals");

  stats->total_calls = interval->total_calls;
  stats->prim_calls = interval->prim_calls;
  stats->total_tt = interval->total_tt;

  return g_steal_pointer (&stats);
}

/**
 * _smprof_index_file_check:
 * @self: a node file
 * @index: one of its intervals
 * @error: a location for a #GError, or %NULL
 *
 * Returns: whether the interval may be used: _smprof_index_file_read()
 *   would give its stats
 */
gboolean
_smprof_index_file_check (SmprofIndexFile  *self,
                          guint             index,
                          GError          **error)
{
  g_autoptr(SmprofPstats) stats = _smprof_index_file_read (self, index, NULL, error);

  return stats != NULL;
}

/* Writes sequentially through a buffer, keeping the checksum of what one
 * interval's arrays add. */
typedef struct
{
  int      fd;
  guint8  *buffer;
  gsize    used;
  gsize    size;
  guint64  written;
  GError **error;
  gboolean failed;
} Writer;

static void
writer_flush (Writer *writer)
{
  const guint8 *p = writer->buffer;
  gsize left = writer->used;

  while (!writer->failed && left > 0)
    {
      ssize_t n = write (writer->fd, p, left);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error_literal (writer->error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                               g_strerror (saved_errno));
          writer->failed = TRUE;
          break;
        }
      p += n;
      left -= n;
    }

  writer->used = 0;
}

/* Room for @size bytes in the buffer, to fill. */
static guint8 *
writer_reserve (Writer *writer,
                gsize   size)
{
  guint8 *at;

  if (writer->size - writer->used < size)
    writer_flush (writer);
  if (writer->size < size)
    {
      writer->size = size;
      writer->buffer = g_realloc (writer->buffer, size);
    }

  at = writer->buffer + writer->used;
  writer->used += size;
  writer->written += size;
  return at;
}

static void
writer_append (Writer     *writer,
               const void *data,
               gsize       size)
{
  if (size > 0)
    memcpy (writer_reserve (writer, size), data, size);
}

/* One interval's arrays, compact, with their ids mapped; returns their
 * checksum and sets *length, or sets *bad when an id is out of range. */
static guint64
write_arrays (Writer                 *writer,
              const SmprofIndexEntry *entry,
              guint                   n_keys,
              guint64                *length,
              gboolean               *bad)
{
  gsize most = (gsize) entry->n_funcs * SMPROF_INDEX_FUNC_MAX_BYTES +
               (gsize) entry->n_callers * SMPROF_INDEX_CALLER_MAX_BYTES;
  guint8 *at = writer_reserve (writer, most);
  gsize used = _smprof_index_arrays_encode (at, entry, n_keys, bad);

  /* What was reserved and not used is given back. */
  writer->used -= most - used;
  writer->written -= most - used;
  *length = used;

  return _smprof_index_checksum (at, used, 0);
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (((const SmprofIndexEntry *) a)->interval, ((const SmprofIndexEntry *) b)->interval);
}

/**
 * _smprof_index_file_write:
 * @path: where the node file goes
 * @identity: the node folder's identity
 * @lineage: (array fixed-size=2): the lineage of the keys file its ids are positions in
 * @n_keys: how many keys of that file it may use
 * @keys_chain: that file's chain at @n_keys
 * @entries: (array length=n_entries): its intervals, sorted here by name;
 *   the same name must not come twice
 * @n_entries: how many
 * @max_size: the most bytes the file may take; a larger one is not written
 * @error: a location for a #GError, or %NULL
 *
 * Writes a node file atomically: the arrays first, after the room the
 * tables take, then the tables with the arrays' places and checksums.
 *
 * Returns: whether it was written
 */
gboolean
_smprof_index_file_write (const char        *path,
                          const char        *identity,
                          const guint64     *lineage,
                          guint              n_keys,
                          guint64            keys_chain,
                          SmprofIndexEntry  *entries,
                          guint              n_entries,
                          guint64            max_size,
                          GError           **error)
{
  g_autoptr(GByteArray) strings = g_byte_array_new ();
  g_autofree SmprofIndexInterval *intervals = g_new0 (SmprofIndexInterval, MAX (n_entries, 1));
  g_autofree guint8 *padding = g_malloc0 (8);
  SmprofIndexNodeHeader header = { { 0 } };
  Writer writer = { -1, NULL, 0, 1 << 20, 0, error, FALSE };
  char *temporary = NULL;
  gboolean bad = FALSE;
  guint64 data_size = 0;

  qsort (entries, n_entries, sizeof *entries, compare_entries);

  header.identity_length = strlen (identity);
  g_byte_array_append (strings, (const guint8 *) identity, header.identity_length + 1);
  for (guint i = 0; i < n_entries; i++)
    {
      intervals[i].name_offset = strings->len;
      intervals[i].name_length = strlen (entries[i].interval);
      g_byte_array_append (strings, (const guint8 *) entries[i].interval, intervals[i].name_length + 1);
    }

  if (strings->len > G_MAXUINT32)
    return invalid (error, "too large");

  memcpy (header.magic, SMPROF_INDEX_NODE_MAGIC, 8);
  header.version = SMPROF_INDEX_FILE_VERSION;
  header.byte_order = SMPROF_INDEX_BYTE_ORDER;
  header.func_size = sizeof (SmprofFuncStat);
  header.caller_size = sizeof (SmprofCallerStat);
  header.lineage[0] = lineage[0];
  header.lineage[1] = lineage[1];
  header.keys_chain = keys_chain;
  header.n_keys = n_keys;
  header.n_intervals = n_entries;
  header.strings_offset = sizeof header;
  header.strings_size = strings->len;
  header.intervals_offset = (header.strings_offset + header.strings_size + 7) & ~(guint64) 7;
  header.data_offset = header.intervals_offset + (guint64) n_entries * sizeof (SmprofIndexInterval);

  writer.fd = _smprof_index_open_temporary (path, &temporary, error);
  if (writer.fd < 0)
    return FALSE;
  writer.buffer = g_malloc (writer.size);

  /* The arrays, where they go; the tables are written over the start once
   * the arrays' checksums are known. */
  if (lseek (writer.fd, header.data_offset, SEEK_SET) < 0)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
      writer.failed = TRUE;
    }

  for (guint i = 0; i < n_entries && !writer.failed; i++)
    {
      const SmprofIndexEntry *entry = &entries[i];

      intervals[i].size = entry->size;
      intervals[i].version = entry->version;
      intervals[i].data_offset = data_size;
      intervals[i].n_funcs = entry->n_funcs;
      intervals[i].n_callers = entry->n_callers;
      intervals[i].total_calls = entry->total_calls;
      intervals[i].prim_calls = entry->prim_calls;
      intervals[i].total_tt = entry->total_tt;
      intervals[i].checksum = write_arrays (&writer, entry, n_keys, &intervals[i].data_length, &bad);
      data_size += intervals[i].data_length;

      if (header.data_offset + data_size > max_size && !writer.failed)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "node file: more than %" G_GUINT64_FORMAT " bytes",
                       max_size);
          writer.failed = TRUE;
        }
    }
  writer_flush (&writer);

  if (bad && !writer.failed)
    {
      invalid (error, "an id past the keys");
      writer.failed = TRUE;
    }

  header.data_size = data_size;
  header.file_size = header.data_offset + data_size;
  header.checksum = 0;

  if (!writer.failed && lseek (writer.fd, 0, SEEK_SET) == 0)
    {
      g_autoptr(GByteArray) meta = g_byte_array_sized_new (header.data_offset);

      g_byte_array_append (meta, (const guint8 *) &header, sizeof header);
      g_byte_array_append (meta, strings->data, strings->len);
      g_byte_array_append (meta, padding, header.intervals_offset - meta->len);
      g_byte_array_append (meta, (const guint8 *) intervals, n_entries * sizeof (SmprofIndexInterval));
      header.checksum = _smprof_index_file_checksum (&header, sizeof header, offsetof (SmprofIndexNodeHeader, checksum),
                                                     meta->data + sizeof header, meta->len - sizeof header);
      memcpy (meta->data, &header, sizeof header);
      writer_append (&writer, meta->data, meta->len);
      writer_flush (&writer);
    }
  else if (!writer.failed)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
      writer.failed = TRUE;
    }

  g_free (writer.buffer);

  return _smprof_index_commit (writer.fd, temporary, path, !writer.failed, error);
}
