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

/* The arrays are used where they are mapped, as SmprofPstats holds them;
 * their layout is in the header, and the padding of SmprofFuncStat is
 * written as zeroes. */
G_STATIC_ASSERT (sizeof (SmprofFuncStat) % 8 == 0);
G_STATIC_ASSERT (sizeof (SmprofCallerStat) % 8 == 0);
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
  SmprofStatsSlab           *slab;       /* over @bytes, for stats read in place */
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

  self->slab = _smprof_stats_slab_new_for_bytes (bytes);

  return self;
}

void
_smprof_index_file_free (SmprofIndexFile *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->slab, _smprof_stats_slab_release);
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

static const SmprofFuncStat *
interval_funcs (SmprofIndexFile           *self,
                const SmprofIndexInterval *interval)
{
  return (const SmprofFuncStat *) (gconstpointer) (self->arrays + interval->data_offset);
}

static const SmprofCallerStat *
interval_callers (SmprofIndexFile           *self,
                  const SmprofIndexInterval *interval)
{
  return (const SmprofCallerStat *) (gconstpointer) (self->arrays + interval->data_offset +
                                                     (gsize) interval->n_funcs * sizeof (SmprofFuncStat));
}

/**
 * _smprof_index_file_check:
 * @self: a node file
 * @index: one of its intervals
 * @error: a location for a #GError, or %NULL
 *
 * Checks an interval's arrays: where they lie, their checksum, and all they
 * say, as smprof_pstats_parse() would have left them: function and caller
 * ids of the keys the file uses, each function's callers right after the
 * previous one's, and the totals pstats sums from them in the same order.
 *
 * Returns: whether the interval may be used
 */
gboolean
_smprof_index_file_check (SmprofIndexFile  *self,
                          guint             index,
                          GError          **error)
{
  const SmprofIndexInterval *interval;
  const SmprofFuncStat *funcs;
  const SmprofCallerStat *callers;
  guint64 length;
  guint32 next_caller = 0;
  gint64 total_calls = 0, prim_calls = 0;
  double total_tt = 0;

  g_return_val_if_fail (index < self->header.n_intervals, FALSE);

  interval = &self->intervals[index];
  length = (guint64) interval->n_funcs * sizeof (SmprofFuncStat) +
           (guint64) interval->n_callers * sizeof (SmprofCallerStat);

  if (interval->data_offset % 8 != 0 || interval->data_offset > self->header.data_size ||
      length > self->header.data_size - interval->data_offset)
    return invalid (error, "bad interval");

  if (interval->checksum != _smprof_index_checksum (self->arrays + interval->data_offset, length, 0))
    return invalid (error, "interval checksum mismatch");

  funcs = interval_funcs (self, interval);
  callers = interval_callers (self, interval);

  for (guint i = 0; i < interval->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &funcs[i];

      if (stat->func >= self->header.n_keys || stat->first_caller != next_caller ||
          stat->n_callers > interval->n_callers - next_caller)
        return invalid (error, "bad function");
      next_caller += stat->n_callers;

      if (__builtin_add_overflow (total_calls, stat->nc, &total_calls) ||
          __builtin_add_overflow (prim_calls, stat->cc, &prim_calls))
        return invalid (error, "bad counts");
      total_tt += stat->tt;
    }

  if (next_caller != interval->n_callers)
    return invalid (error, "bad callers");

  for (guint i = 0; i < interval->n_callers; i++)
    if (callers[i].caller >= self->header.n_keys || (callers[i].legacy != FALSE && callers[i].legacy != TRUE))
      return invalid (error, "bad caller");

  /* Bit for bit: the sums come out the same in the same order. */
  if (total_calls != interval->total_calls || prim_calls != interval->prim_calls ||
      memcmp (&total_tt, &interval->total_tt, sizeof total_tt) != 0)
    return invalid (error, "bad totals");

  return TRUE;
}

/**
 * _smprof_index_file_read:
 * @self: a node file
 * @index: one of its intervals
 * @remap: (nullable): the job's id of each key the file uses, or %NULL when
 *   they are the job's ids already
 * @error: a location for a #GError, or %NULL
 *
 * An interval's stats, checked (_smprof_index_file_check()): without
 * @remap, the arrays are used where they lie in the file, which stays
 * mapped as long as they do; with it, they are copied with the ids mapped.
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
  SmprofPstats *stats;

  if (!_smprof_index_file_check (self, index, error))
    return NULL;

  interval = &self->intervals[index];
  stats = g_new0 (SmprofPstats, 1);
  stats->n_funcs = interval->n_funcs;
  stats->n_callers = interval->n_callers;
  stats->total_calls = interval->total_calls;
  stats->prim_calls = interval->prim_calls;
  stats->total_tt = interval->total_tt;

  if (remap == NULL)
    {
      /* As the parsers leave them: NULL for an empty array. */
      stats->funcs = interval->n_funcs > 0 ? (SmprofFuncStat *) interval_funcs (self, interval) : NULL;
      stats->callers = interval->n_callers > 0 ? (SmprofCallerStat *) interval_callers (self, interval) : NULL;
      stats->slab = _smprof_stats_slab_ref (self->slab);
      return stats;
    }

  if (interval->n_funcs > 0)
    {
      stats->funcs = g_memdup2 (interval_funcs (self, interval), (gsize) interval->n_funcs * sizeof (SmprofFuncStat));
      for (guint i = 0; i < interval->n_funcs; i++)
        stats->funcs[i].func = remap[stats->funcs[i].func];
    }
  if (interval->n_callers > 0)
    {
      stats->callers = g_memdup2 (interval_callers (self, interval),
                                  (gsize) interval->n_callers * sizeof (SmprofCallerStat));
      for (guint i = 0; i < interval->n_callers; i++)
        stats->callers[i].caller = remap[stats->callers[i].caller];
    }

  return stats;
}

/**
 * _smprof_index_file_get_entry:
 * @self: a node file
 * @index: one of its intervals, checked
 * @remap: (nullable): as for _smprof_index_file_read()
 * @entry: (out caller-allocates): the interval, to write into another file
 */
void
_smprof_index_file_get_entry (SmprofIndexFile  *self,
                              guint             index,
                              const guint32    *remap,
                              SmprofIndexEntry *entry)
{
  const SmprofIndexInterval *interval = &self->intervals[index];

  entry->interval = self->strings + interval->name_offset;
  entry->size = interval->size;
  entry->version = interval->version;
  entry->funcs = interval_funcs (self, interval);
  entry->n_funcs = interval->n_funcs;
  entry->callers = interval_callers (self, interval);
  entry->n_callers = interval->n_callers;
  entry->total_calls = interval->total_calls;
  entry->prim_calls = interval->prim_calls;
  entry->total_tt = interval->total_tt;
  entry->remap = remap;
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

/* One interval's arrays, with their ids mapped and SmprofFuncStat's padding
 * zeroed; returns their checksum, or sets *bad when an id is out of range. */
static guint64
write_arrays (Writer                 *writer,
              const SmprofIndexEntry *entry,
              guint                   n_keys,
              gboolean               *bad)
{
  gsize funcs_size = (gsize) entry->n_funcs * sizeof (SmprofFuncStat);
  gsize callers_size = (gsize) entry->n_callers * sizeof (SmprofCallerStat);
  guint8 *at = writer_reserve (writer, funcs_size + callers_size);
  SmprofFuncStat *funcs = (SmprofFuncStat *) (gpointer) at;
  SmprofCallerStat *callers = (SmprofCallerStat *) (gpointer) (at + funcs_size);

  memset (at, 0, funcs_size + callers_size);

  for (guint i = 0; i < entry->n_funcs; i++)
    {
      const SmprofFuncStat *from = &entry->funcs[i];
      SmprofFuncStat *to = &funcs[i];

      to->func = entry->remap != NULL ? entry->remap[from->func] : from->func;
      to->first_caller = from->first_caller;
      to->n_callers = from->n_callers;
      to->cc = from->cc;
      to->nc = from->nc;
      to->tt = from->tt;
      to->ct = from->ct;
      *bad |= to->func >= n_keys;
    }

  for (guint i = 0; i < entry->n_callers; i++)
    {
      const SmprofCallerStat *from = &entry->callers[i];
      SmprofCallerStat *to = &callers[i];

      to->caller = entry->remap != NULL ? entry->remap[from->caller] : from->caller;
      to->legacy = from->legacy != FALSE;
      to->nc = from->nc;
      to->cc = from->cc;
      to->tt = from->tt;
      to->ct = from->ct;
      *bad |= to->caller >= n_keys;
    }

  return _smprof_index_checksum (at, funcs_size + callers_size, 0);
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
 * @error: a location for a #GError, or %NULL
 *
 * Writes a node file atomically: the arrays first, after the room the
 * tables take, then the tables with the arrays' checksums.
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
      intervals[i].checksum = write_arrays (&writer, entry, n_keys, &bad);
      data_size += (guint64) entry->n_funcs * sizeof (SmprofFuncStat) +
                   (guint64) entry->n_callers * sizeof (SmprofCallerStat);
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
