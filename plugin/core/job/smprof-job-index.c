/* smprof-job-index.c: what one job keeps of the parsed index: its keys file
 * read and interned, its node files mapped; filling records from them, and
 * writing what was parsed
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "smprof-index-cache-private.h"
#include "smprof-index-file.h"
#include "smprof-job-private.h"
#include "smprof-parallel.h"

/* A node file is mapped with its pages read in at once when a load uses at
 * least this many of its intervals; fewer fault in only what they touch,
 * so that a one-step query on a cold cache reads a few pages, not the node. */
#define POPULATE_MIN_INTERVALS 64

typedef struct
{
  char            *relative;  /* the node folder, relative to the job root */
  char            *identity;
  char            *path;      /* its node file */
  gboolean         opened;
  SmprofIndexFile *file;      /* NULL when there is none usable */
} NodeState;

struct _SmprofJobIndex
{
  SmprofIndexCache *cache;
  char             *location;
  char             *keys_path;

  /* The keys and the node table; one store at a time. */
  GMutex            lock;
  gboolean          keys_opened;
  SmprofIndexKeys  *keys;       /* the keys file read, when usable */
  guint32          *remap;      /* its keys' ids in the job, NULL when those are their positions */
  guint64           lineage[2]; /* of the files this job writes */
  guint             n_lineage;  /* keys of that lineage on disk: the job's first n_lineage */
  GArray           *chain;      /* guint64: the chain of the job's first i + 1 keys */
  GHashTable       *nodes;      /* node folder -> NodeState */
  GPtrArray        *read_ahead; /* GThread: _smprof_job_index_read_ahead()'s, joined when freed */

  int               hits;       /* atomic */
  int               misses;
  int               nodes_written;
  int               keys_written;
};

static void
node_state_free (gpointer data)
{
  NodeState *node = data;

  g_free (node->relative);
  g_free (node->identity);
  g_free (node->path);
  g_clear_pointer (&node->file, _smprof_index_file_free);
  g_free (node);
}

/**
 * _smprof_job_index_new:
 * @cache: the cache
 * @location: the job's location (smprof_source_dup_location()): what its
 *   files are keyed on, with each node folder's path
 *
 * Returns: (transfer full): the job's use of @cache
 */
SmprofJobIndex *
_smprof_job_index_new (SmprofIndexCache *cache,
                       const char       *location)
{
  SmprofJobIndex *self = g_new0 (SmprofJobIndex, 1);

  self->cache = g_object_ref (cache);
  self->location = g_strdup (location);
  self->keys_path = _smprof_index_cache_dup_path (cache, "keys", location);
  g_mutex_init (&self->lock);
  self->chain = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->nodes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, node_state_free);
  self->read_ahead = g_ptr_array_new ();

  return self;
}

void
_smprof_job_index_free (SmprofJobIndex *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->read_ahead->len; i++)
    g_thread_join (g_ptr_array_index (self->read_ahead, i));
  g_ptr_array_unref (self->read_ahead);
  g_hash_table_unref (self->nodes);
  g_array_unref (self->chain);
  g_clear_pointer (&self->keys, _smprof_index_keys_free);
  g_free (self->remap);
  g_mutex_clear (&self->lock);
  g_free (self->keys_path);
  g_free (self->location);
  g_object_unref (self->cache);
  g_free (self);
}

SmprofIndexCache *
_smprof_job_index_get_cache (SmprofJobIndex *self)
{
  return self->cache;
}

void
_smprof_job_index_get_counts (SmprofJobIndex       *self,
                              SmprofJobIndexCounts *counts)
{
  counts->hits = g_atomic_int_get (&self->hits);
  counts->misses = g_atomic_int_get (&self->misses);
  counts->nodes_written = g_atomic_int_get (&self->nodes_written);
  counts->keys_written = g_atomic_int_get (&self->keys_written);
}

/* The node folder of a stats file: its path less the interval folder and
 * the file name. */
static char *
node_folder_of (const SmprofRecord *record)
{
  const char *end = strrchr (record->path, '/');

  while (end != NULL && end > record->path && end[-1] != '/')
    end--;
  if (end == NULL || end == record->path)
    return NULL;

  return g_strndup (record->path, end - 1 - record->path);
}

/* Whether @record may be read from and written to the cache: cProfile stats
 * of a file whose source says when it changes. */
static gboolean
is_cacheable (const SmprofRecord *record)
{
  return record->profiler == SMPROF_PROFILER_CPROFILE && record->version != 0;
}

static NodeState *
lookup_node (SmprofJobIndex *self,
             const char     *relative)
{
  NodeState *node = g_hash_table_lookup (self->nodes, relative);

  if (node == NULL)
    {
      node = g_new0 (NodeState, 1);
      node->relative = g_strdup (relative);
      node->identity = g_strconcat (self->location, "\n", relative, NULL);
      node->path = _smprof_index_cache_dup_path (self->cache, "node", node->identity);
      g_hash_table_insert (self->nodes, node->relative, node);
    }

  return node;
}

static void
new_lineage (SmprofJobIndex *self)
{
  self->lineage[0] = ((guint64) g_random_int () << 32) | g_random_int ();
  self->lineage[1] = ((guint64) g_random_int () << 32) | g_random_int ();
  self->n_lineage = 0;
}

/* Reads the keys file, once, and interns its keys in the job's table. When
 * they take ids equal to their positions (the table was empty, or held the
 * same keys), node files of its lineage are used in place, and what this job
 * writes continues that lineage; otherwise their ids are mapped, and this
 * job starts a lineage of its own. Called with the lock held. */
static void
open_keys (SmprofJobIndex     *self,
           SmprofFunctionKeys *table)
{
  g_autoptr(GBytes) bytes = NULL;
  gboolean identity = TRUE;
  guint n_keys;

  if (self->keys_opened)
    return;
  self->keys_opened = TRUE;
  new_lineage (self);

  bytes = _smprof_index_map (self->keys_path, FALSE, NULL);
  if (bytes != NULL)
    self->keys = _smprof_index_keys_new (bytes, self->location, NULL);
  if (self->keys == NULL)
    return;

  _smprof_index_cache_mark_used (self->cache, self->keys_path, TRUE);

  n_keys = _smprof_index_keys_get_n_keys (self->keys);
  self->remap = g_new (guint32, MAX (n_keys, 1));
  for (guint i = 0; i < n_keys; i++)
    {
      const char *file, *name;
      gsize file_length, name_length;
      gint64 line;

      _smprof_index_keys_get_key (self->keys, i, &file, &file_length, &line, &name, &name_length);
      self->remap[i] = smprof_function_keys_intern (table, file, file_length, line, name, name_length);
      identity &= self->remap[i] == i;
    }

  if (identity)
    {
      const guint64 *lineage = _smprof_index_keys_get_lineage (self->keys);

      g_clear_pointer (&self->remap, g_free);
      self->lineage[0] = lineage[0];
      self->lineage[1] = lineage[1];
      self->n_lineage = n_keys;
    }
}

/* Maps a node file and keeps it when its keys are the keys file's: the same
 * lineage, and the same keys up to the number it uses. */
static void
open_node (SmprofJobIndex *self,
           NodeState      *node,
           gboolean        populate)
{
  g_autoptr(GBytes) bytes = NULL;
  SmprofIndexFile *file = NULL;

  node->opened = TRUE;

  if (self->keys == NULL)
    return;

  bytes = _smprof_index_map (node->path, populate, NULL);
  if (bytes != NULL)
    file = _smprof_index_file_new (bytes, node->identity, NULL);
  if (file == NULL)
    return;

  if (memcmp (_smprof_index_file_get_lineage (file), _smprof_index_keys_get_lineage (self->keys),
              2 * sizeof (guint64)) != 0 ||
      _smprof_index_file_get_n_keys (file) > _smprof_index_keys_get_n_keys (self->keys) ||
      _smprof_index_file_get_keys_chain (file) !=
      _smprof_index_keys_get_chain (self->keys, _smprof_index_file_get_n_keys (file)))
    {
      _smprof_index_file_free (file);
      return;
    }

  _smprof_index_cache_mark_used (self->cache, node->path, TRUE);
  node->file = file;
}

/* Whether some of the @n bytes of @fd are on disk only: a byte at its
 * start, middle and end is looked at without waiting for it (RWF_NOWAIT). A
 * file system that cannot tell says no. */
static gboolean
is_cold (int     fd,
         goffset n)
{
  const goffset offsets[] = { 0, n / 2, n - 1 };

  for (guint i = 0; i < G_N_ELEMENTS (offsets); i++)
    {
      char byte;
      struct iovec vector = { &byte, 1 };

      if (preadv2 (fd, &vector, 1, offsets[i], RWF_NOWAIT) < 0 && errno == EAGAIN)
        return TRUE;
    }

  return FALSE;
}

/* How much a read-ahead thread asks for at a time: large enough that the
 * kernel's own readahead keeps the disk busy between its calls. */
#define READ_AHEAD_BUFFER (1u << 20)

/* Reads a file of the parsed index that is on disk into the page cache, and
 * drops what it read: the load that needs the file maps it then. (The
 * kernel's POSIX_FADV_WILLNEED reads no more than its readahead window.) */
static gpointer
read_ahead_thread (gpointer data)
{
  g_autofree char *path = data;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;

  if (fd < 0)
    return NULL;

  if (fstat (fd, &st) == 0 && st.st_size > 0 && is_cold (fd, st.st_size))
    {
      g_autofree char *buffer = g_malloc (READ_AHEAD_BUFFER);

      while (read (fd, buffer, READ_AHEAD_BUFFER) > 0)
        ;
    }

  close (fd);
  return NULL;
}

static void
read_ahead_file (SmprofJobIndex *self,
                 const char     *path)
{
  GThread *thread = g_thread_try_new ("smprof-index-ra", read_ahead_thread, g_strdup (path), NULL);

  if (thread != NULL)
    g_ptr_array_add (self->read_ahead, thread);
}

/**
 * _smprof_job_index_read_ahead:
 * @self: a job's index
 * @node_folders: (element-type utf8 utf8): a set of node folders, relative
 *   to the job root
 *
 * Has the disk read the keys file and the node files of @node_folders while
 * the caller does something else: a query on named nodes knows its node
 * folders before it lists them in full, and on a cold disk that listing
 * (an inode for every stats file) and the reading of the parsed index
 * (tens of megabytes a node) then overlap instead of following each other.
 * A thread reads each file that is on disk (and only then); nothing is
 * opened for use, so a file that changes meanwhile is checked when it is,
 * as always.
 */
void
_smprof_job_index_read_ahead (SmprofJobIndex *self,
                              GHashTable     *node_folders)
{
  GHashTableIter iter;
  gpointer relative;

  g_mutex_lock (&self->lock);
  read_ahead_file (self, self->keys_path);
  g_hash_table_iter_init (&iter, node_folders);
  while (g_hash_table_iter_next (&iter, &relative, NULL))
    read_ahead_file (self, lookup_node (self, relative)->path);
  g_mutex_unlock (&self->lock);
}

typedef struct
{
  SmprofJobIndex *self;
  GPtrArray      *records;   /* SmprofRecord, to fill */
  GPtrArray      *nodes;     /* NodeState of each record */
  GPtrArray      *to_open;   /* NodeState */
  GArray         *populate;  /* gboolean, for to_open */
  gboolean        count_misses;
} Fill;

static void
fill_open (guint    index,
           gpointer data)
{
  Fill *fill = data;

  open_node (fill->self, g_ptr_array_index (fill->to_open, index),
             g_array_index (fill->populate, gboolean, index));
}

static void
fill_read (guint    index,
           gpointer data)
{
  Fill *fill = data;
  SmprofRecord *record = g_ptr_array_index (fill->records, index);
  NodeState *node = g_ptr_array_index (fill->nodes, index);
  const SmprofIndexInterval *interval;
  guint at;

  if (node->file != NULL && _smprof_index_file_find (node->file, record->interval, &at))
    {
      interval = _smprof_index_file_get_interval (node->file, at);
      if (interval->size == record->size && interval->version == record->version)
        {
          SmprofPstats *pstats = _smprof_index_file_read (node->file, at, fill->self->remap, NULL);

          if (pstats != NULL)
            {
              _smprof_record_publish_stats (record, _smprof_record_stats_new (pstats, NULL));
              g_atomic_int_inc (&fill->self->hits);
              return;
            }
        }
    }

  if (fill->count_misses)
    g_atomic_int_inc (&fill->self->misses);
}

/**
 * _smprof_job_index_fill:
 * @self: a job's cache
 * @table: the job's function keys
 * @records: (element-type SmprofRecord): records about to be read, which
 *   the caller may fill
 * @flags: how
 * @cancellable: (nullable): a #GCancellable
 *
 * Sets the stats of the records of @records that the cache holds for their
 * stats files as listed (same size and version), checked: the others are
 * left for the stats files.
 */
void
_smprof_job_index_fill (SmprofJobIndex     *self,
                        SmprofFunctionKeys *table,
                        GPtrArray          *records,
                        SmprofJobIndexFillFlags flags,
                        GCancellable       *cancellable)
{
  g_autoptr(GPtrArray) wanted = g_ptr_array_new ();
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr(GPtrArray) to_open = g_ptr_array_new ();
  g_autoptr(GArray) populate = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  g_autofree char *last_relative = NULL;
  NodeState *last = NULL;
  gboolean count_misses = !(flags & SMPROF_JOB_INDEX_FILL_ASKED_AGAIN);
  guint n_threads = (flags & SMPROF_JOB_INDEX_FILL_THIS_THREAD) ? 1 : g_get_num_processors ();
  Fill fill = { self, wanted, nodes, to_open, populate, count_misses };

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (is_cacheable (record) && record->stats == NULL && !record->failed)
        g_ptr_array_add (wanted, record);
    }
  if (wanted->len == 0)
    return;

  g_mutex_lock (&self->lock);

  open_keys (self, table);

  for (guint i = 0; i < wanted->len; i++)
    {
      g_autofree char *relative = node_folder_of (g_ptr_array_index (wanted, i));

      /* Records come node by node, mostly. */
      if (relative != NULL && (last_relative == NULL || strcmp (relative, last_relative) != 0))
        {
          last = lookup_node (self, relative);
          g_free (last_relative);
          last_relative = g_steal_pointer (&relative);
        }
      if (last_relative == NULL)
        {
          g_ptr_array_remove_index (wanted, i--);
          continue;
        }

      g_ptr_array_add (nodes, last);
      g_hash_table_insert (counts, last, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, last)) + 1));
    }

  {
    GHashTableIter iter;
    gpointer node, count;

    g_hash_table_iter_init (&iter, counts);
    while (g_hash_table_iter_next (&iter, &node, &count))
      if (!((NodeState *) node)->opened)
        {
          gboolean whole = GPOINTER_TO_UINT (count) >= POPULATE_MIN_INTERVALS;

          g_ptr_array_add (to_open, node);
          g_array_append_val (populate, whole);
        }
  }

  /* Node files are opened under the lock: a load that needs one another is
   * opening waits for it. */
  smprof_parallel_for ("smprof-index", to_open->len, n_threads, fill_open, &fill, NULL);

  g_mutex_unlock (&self->lock);

  /* Opened node files do not change: read without the lock. */
  smprof_parallel_for ("smprof-index", wanted->len, n_threads, fill_read, &fill, cancellable);

  /* G_MESSAGES_DEBUG=smprof shows it (on standard output, as GLib writes
   * debug messages): the tests and the benchmark check that a second open
   * parses nothing. Misses not counted here are asked for again, and
   * reported, by the caller's next call. */
  {
    guint hits = 0;

    for (guint i = 0; i < wanted->len; i++)
      hits += ((SmprofRecord *) g_ptr_array_index (wanted, i))->stats != NULL;
    g_debug ("parsed index: %u of %u cProfile intervals read from the cache", hits,
             count_misses ? wanted->len : hits);
  }
}

/* The chain of the job's first @n_keys keys, worked out as far as needed. */
static guint64
job_chain (SmprofJobIndex     *self,
           SmprofFunctionKeys *table,
           guint               n_keys)
{
  while (self->chain->len < n_keys)
    {
      guint i = self->chain->len;
      guint64 previous = i == 0 ? SMPROF_INDEX_CHAIN_SEED : g_array_index (self->chain, guint64, i - 1);
      guint64 next = _smprof_index_chain_next (previous, smprof_function_keys_get_file (table, i),
                                               smprof_function_keys_get_line (table, i),
                                               smprof_function_keys_get_name (table, i));

      g_array_append_val (self->chain, next);
    }

  return n_keys == 0 ? SMPROF_INDEX_CHAIN_SEED : g_array_index (self->chain, guint64, n_keys - 1);
}

/* Writes the keys file of this job's lineage when the job has more keys than
 * the one on disk. Called with the lock held. */
static gboolean
store_keys (SmprofJobIndex     *self,
            SmprofFunctionKeys *table,
            guint               n_keys)
{
  g_autoptr(GBytes) bytes = NULL;

  if (self->n_lineage >= n_keys)
    return TRUE;

  bytes = _smprof_index_keys_build (self->location, self->lineage, table, n_keys);
  if (bytes == NULL || !_smprof_index_write_bytes (self->keys_path, bytes, NULL))
    return FALSE;

  self->n_lineage = n_keys;
  g_atomic_int_inc (&self->keys_written);
  _smprof_index_cache_mark_used (self->cache, self->keys_path, FALSE);

  return TRUE;
}

/* Writes one node file: every interval of it that is in memory, and those
 * its file on disk holds for stats files as listed now. */
static void
store_node (SmprofJobIndex *self,
            NodeState      *node,
            GPtrArray      *records,
            guint           n_keys,
            guint64         chain)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (SmprofIndexEntry));
  /* Records other loads may be filling meanwhile: what is read of them is
   * held until written. */
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func ((GDestroyNotify) _smprof_record_stats_unref);

  /* ... and what is carried over from the file on disk, read back. */
  g_autoptr(GPtrArray) carried = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_pstats_free);

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);
      SmprofRecordStats *box = _smprof_record_dup_stats (record);
      const SmprofPstats *stats = box != NULL ? box->pstats : NULL;
      SmprofIndexEntry entry = { record->interval, record->size, record->version };
      guint at;

      if (box != NULL)
        g_ptr_array_add (held, box);

      /* The file's ids are read as the job's. */
      if (stats == NULL && node->file != NULL && _smprof_index_file_find (node->file, record->interval, &at) &&
          _smprof_index_file_get_interval (node->file, at)->size == record->size &&
          _smprof_index_file_get_interval (node->file, at)->version == record->version &&
          (stats = _smprof_index_file_read (node->file, at, self->remap, NULL)) != NULL)
        g_ptr_array_add (carried, (gpointer) stats);

      if (stats == NULL)
        continue;

      entry.funcs = stats->funcs;
      entry.n_funcs = stats->n_funcs;
      entry.callers = stats->callers;
      entry.n_callers = stats->n_callers;
      entry.total_calls = stats->total_calls;
      entry.prim_calls = stats->prim_calls;
      entry.total_tt = stats->total_tt;

      g_array_append_val (entries, entry);
    }

  /* A node that alone would pass the limit is not kept. */
  if (_smprof_index_file_write (node->path, node->identity, self->lineage, n_keys, chain,
                                (SmprofIndexEntry *) (gpointer) entries->data, entries->len,
                                smprof_index_cache_get_max_size (self->cache), NULL))
    {
      g_atomic_int_inc (&self->nodes_written);
      _smprof_index_cache_mark_used (self->cache, node->path, FALSE);
    }
}

/**
 * _smprof_job_index_store:
 * @self: a job's cache
 * @table: the job's function keys
 * @job_records: (element-type SmprofRecord): the job's cProfile records
 * @parsed: (element-type SmprofRecord): records whose stats files were
 *   just read
 *
 * Writes the node files of the node folders of @parsed (and the keys file,
 * when the job has keys it lacks), then keeps the folder under its limit.
 */
void
_smprof_job_index_store (SmprofJobIndex     *self,
                         SmprofFunctionKeys *table,
                         GPtrArray          *job_records,
                         GPtrArray          *parsed)
{
  g_autoptr(GHashTable) by_node = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_ptr_array_unref);
  GHashTableIter iter;
  gpointer key, value;
  guint n_keys;
  guint64 chain;

  for (guint i = 0; i < parsed->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (parsed, i);
      char *relative;

      if (!is_cacheable (record) || record->stats == NULL)
        continue;
      relative = node_folder_of (record);
      if (relative != NULL && !g_hash_table_contains (by_node, relative))
        g_hash_table_insert (by_node, g_steal_pointer (&relative), g_ptr_array_new ());
      g_free (relative);
    }
  if (g_hash_table_size (by_node) == 0)
    return;

  for (guint i = 0; i < job_records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (job_records, i);
      g_autofree char *relative = NULL;
      GPtrArray *list;

      if (!is_cacheable (record))
        continue;
      relative = node_folder_of (record);
      if (relative != NULL && (list = g_hash_table_lookup (by_node, relative)) != NULL)
        g_ptr_array_add (list, record);
    }

  if (!_smprof_index_cache_ensure_dir (self->cache, NULL))
    return;

  g_mutex_lock (&self->lock);

  open_keys (self, table);
  n_keys = smprof_function_keys_get_size (table);
  chain = job_chain (self, table, n_keys);

  if (store_keys (self, table, n_keys))
    {
      g_hash_table_iter_init (&iter, by_node);
      while (g_hash_table_iter_next (&iter, &key, &value))
        store_node (self, lookup_node (self, key), value, n_keys, chain);
    }

  g_mutex_unlock (&self->lock);

  smprof_index_cache_trim (self->cache, NULL);
}
