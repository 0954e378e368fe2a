/* smprof-local-source-listing.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Listing a local job: reading a folder with the types of its entries, and
 * from the scope down through the framework and profiler folders to the node
 * folders, which are listed in parallel (each one by
 * smprof-local-source-node.c), and the framework timelines. */

/* getdents64(), RUSAGE_THREAD */
#define _GNU_SOURCE

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smprof-local-source-private.h"
#include "smprof-parallel.h"
#include "smprof-pevents.h"

/* Profile folders are the profiler names smdebug writes. framework/ also holds
 * pevents/, detailed_profiling/ and other outputs that are not Python stats. */
static gboolean
is_profiler_folder_name (const char *name)
{
  return strcmp (name, "cprofile") == 0 || strcmp (name, "pyinstrument") == 0;
}

void
_smprof_local_source_add_io_problem (SmprofListing *listing,
                                     const char    *relative,
                                     GError        *error)
{
  smprof_listing_add_problem (listing, relative, error->message);
}

/* A job holds one interval folder per profiled step interval, tens of
 * thousands of them, so listing costs a few system calls per folder at most:
 * folders are read straight from the kernel, and entries the directory
 * already says are folders (or files) are not stat()ed. */
static void
folder_entry_clear (gpointer data)
{
  g_free (((SmprofFolderEntry *) data)->name);
}

/* Names sorted, so listings (and ties in the record order) do not depend on the
 * file system's order. */
static int
compare_folder_entries (gconstpointer a,
                        gconstpointer b)
{
  return strcmp (((const SmprofFolderEntry *) a)->name, ((const SmprofFolderEntry *) b)->name);
}

static void
add_folder_entry (GArray     *entries,
                  const char *name,
                  guint8      type)
{
  SmprofFolderEntry entry = { NULL, type };

  if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0)
    return;

  entry.name = g_strdup (name);
  g_array_append_val (entries, entry);
}

static GArray *
new_folder_entries (void)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (SmprofFolderEntry));

  g_array_set_clear_func (entries, folder_entry_clear);

  return entries;
}

/**
 * _smprof_local_source_read_sorted_fd:
 * @fd: a folder, open (it stays open)
 *
 * Returns: (transfer full) (nullable) (element-type SmprofFolderEntry): the
 *   entries of the folder sorted by name, with their types where the file
 *   system gives them, or %NULL if it cannot be read
 */
GArray *
_smprof_local_source_read_sorted_fd (int fd)
{
  g_autoptr(GArray) entries = new_folder_entries ();

#if defined(__GLIBC__) && __GLIBC_PREREQ (2, 30)
  {
    /* Straight from the kernel: a DIR would cost an fstat(), an fcntl() and
     * a 32 KiB buffer per folder, which tens of thousands of folders feel.
     * A node folder holds thousands of entries, though, which fewer, larger
     * reads list a quarter faster: after a first read that fills the small
     * buffer, the rest is read into a large one. */
    union { struct dirent64 align; char bytes[4096]; } small;
    g_autofree char *large = NULL;
    char *buffer = small.bytes;
    gsize buffer_size = sizeof small.bytes;
    ssize_t length;

    while ((length = getdents64 (fd, buffer, buffer_size)) > 0)
      {
        for (ssize_t offset = 0; offset < length;)
          {
            const struct dirent64 *dent = (const struct dirent64 *) (gpointer) (buffer + offset);

            add_folder_entry (entries, dent->d_name, dent->d_type);
            offset += dent->d_reclen;
          }

        if (large == NULL && (gsize) length + 1024 > buffer_size)
          {
            buffer_size = 64 * 1024;
            buffer = large = g_malloc (buffer_size);
          }
      }

    if (length < 0)
      return NULL;
  }
#else
  {
    int copy = dup (fd);
    DIR *dir = copy >= 0 ? fdopendir (copy) : NULL;
    struct dirent *dent;

    if (dir == NULL)
      {
        if (copy >= 0)
          close (copy);
        return NULL;
      }

    errno = 0;
    while ((dent = readdir (dir)) != NULL)
#ifdef _DIRENT_HAVE_D_TYPE
      add_folder_entry (entries, dent->d_name, dent->d_type);
#else
      add_folder_entry (entries, dent->d_name, DT_UNKNOWN);
#endif

    if (errno != 0)
      {
        closedir (dir);
        return NULL;
      }

    closedir (dir);
  }
#endif

  g_array_sort (entries, compare_folder_entries);

  return g_steal_pointer (&entries);
}

/**
 * _smprof_local_source_read_sorted_folder:
 * @path: a folder
 * @error: a location for a #GError, or %NULL
 *
 * _smprof_local_source_read_sorted_fd() for a folder by its path. When that
 * fails, the folder is read the plain way (every type then unknown), which
 * words the error as it always was.
 *
 * Returns: (transfer full) (nullable) (element-type SmprofFolderEntry): the
 *   entries sorted by name, or %NULL with @error set
 */
GArray *
_smprof_local_source_read_sorted_folder (const char  *path,
                                         GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  GArray *entries = NULL;
  const char *name;
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    {
      entries = _smprof_local_source_read_sorted_fd (fd);
      close (fd);
      if (entries != NULL)
        return entries;
    }

  dir = g_dir_open (path, 0, error);
  if (dir == NULL)
    return NULL;

  entries = new_folder_entries ();
  while ((name = g_dir_read_name (dir)) != NULL)
    add_folder_entry (entries, name, DT_UNKNOWN);
  g_array_sort (entries, compare_folder_entries);

  return entries;
}

/**
 * _smprof_local_source_entry_is_directory:
 * @folder: the folder @entry is in
 * @entry: one of its entries
 *
 * Whether @entry is a folder, or a link to one, as _smprof_local_source_is_directory()
 * says: from its type where the folder gave one, with a stat() only for an
 * unknown type or a symbolic link.
 */
gboolean
_smprof_local_source_entry_is_directory (const char              *folder,
                                         const SmprofFolderEntry *entry)
{
  g_autofree char *path = NULL;

  if (entry->type == DT_DIR)
    return TRUE;
  if (entry->type != DT_UNKNOWN && entry->type != DT_LNK)
    return FALSE;

  path = g_build_filename (folder, entry->name, NULL);

  return _smprof_local_source_is_directory (path);
}

typedef struct
{
  SmprofLocalSource          *self;
  const SmprofListingOptions *options;
  GPtrArray                  *nodes;     /* relative paths of node folders, or NULL for a file */
  SmprofListing             **listings;  /* one per node, filled by the workers */
  SmprofListing             **to_cache;  /* copies of those listed by name, for options->names_cache */
  GCancellable               *cancellable;
  guint                       n_parts;   /* how many threads list a node folder in full */
} NodeBatch;

static gboolean
lists_names_only (const SmprofListingOptions *options,
                  const char                 *node_relative)
{
  return options->names_only &&
         (options->full_nodes == NULL || !g_hash_table_contains (options->full_nodes, node_relative));
}

static void
copy_listing (SmprofListing       *to,
              const SmprofListing *from)
{
  for (guint i = 0; i < from->entries->len; i++)
    {
      const SmprofListingEntry *entry = g_ptr_array_index (from->entries, i);

      smprof_listing_add_full (to, entry->path, entry->kind, entry->size, entry->version);
    }

  for (guint i = 0; i < from->problems->len; i++)
    {
      const SmprofProblem *problem = g_ptr_array_index (from->problems, i);

      smprof_listing_add_problem (to, problem->path, problem->message);
    }
}

static void
list_node_at (guint    i,
              gpointer data)
{
  NodeBatch *batch = data;
  const char *relative = g_ptr_array_index (batch->nodes, i);

  if (relative == NULL)
    return;

  /* a node folder the caller does not ask for, not even by name */
  if (lists_names_only (batch->options, relative) && batch->options->full_nodes_only)
    return;

  if (lists_names_only (batch->options, relative))
    {
      /* read only while the workers run: filled after they are joined */
      SmprofListing *cached = batch->options->names_cache != NULL
                              ? g_hash_table_lookup (batch->options->names_cache, relative) : NULL;

      if (cached != NULL)
        copy_listing (batch->listings[i], cached);
      else
        {
          _smprof_local_source_list_node_folder (batch->self, batch->options, batch->listings[i], relative,
                                                 TRUE, 1, batch->cancellable);
          /* copied here, in parallel, rather than when joined */
          if (batch->options->names_cache != NULL)
            {
              batch->to_cache[i] = smprof_listing_new ();
              copy_listing (batch->to_cache[i], batch->listings[i]);
            }
        }
    }
  else
    _smprof_local_source_list_node_folder (batch->self, batch->options, batch->listings[i], relative,
                                           FALSE, batch->n_parts, batch->cancellable);
}

/* With @options' nodes_only, the node folders of a profiler folder by name:
 * a profiler folder of another name (a scope that names it) gives no
 * profiler to file its nodes under, so it is listed as always. */
static gboolean
lists_node_names (const SmprofListingOptions *options,
                  const char                 *profiler_relative)
{
  const char *slash = strrchr (profiler_relative, '/');

  return options->nodes_only && is_profiler_folder_name (slash != NULL ? slash + 1 : profiler_relative);
}

/* How many threads list node folders that are not in memory, whatever the
 * number of cores: listing a cold folder waits for the disk at every
 * interval folder (its entries, then its stats file's inode), and more
 * requests in flight take less time in all (see tests/bench/README.md). On
 * the large corpus, a second open of one node with the page cache dropped
 * took 240-280 ms on 16, 200-218 ms on 48, no less on 64 or 96.
 *
 * Folders in memory are listed on as many threads as there are cores: there
 * the threads only compete for them. In the viewer, 48 of them starting
 * while a 256-node job's page was opening kept its main thread from running
 * for 30-68 ms in six runs of seven (178 ms once in another series), and
 * the first answer came no sooner. */
#define LIST_THREADS 48

/* Whether the node folder @node_relative is in memory: the first interval
 * folder it lists looked into for its stats file, with nothing read from a
 * disk by this thread meanwhile, and without waiting (no voluntary context
 * switch: a network file system's answer is waited for too, while being
 * preempted is not waiting). What it reads the listing would read first
 * anyway. A job's folders are written, and read, together: the first one
 * tells of the others. */
static gboolean
node_folder_is_cached (SmprofLocalSource *self,
                       const char        *node_relative)
{
  g_autofree char *path = g_build_filename (self->root, node_relative, NULL);
  struct rusage before, after;
  int fd;

  if (getrusage (RUSAGE_THREAD, &before) != 0)
    return FALSE;

  fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
#if defined(__GLIBC__) && __GLIBC_PREREQ (2, 30)
      union { struct dirent64 align; char bytes[4096]; } buffer;
      ssize_t length = getdents64 (fd, buffer.bytes, sizeof buffer.bytes);

      for (ssize_t offset = 0; offset < length;)
        {
          const struct dirent64 *dent = (const struct dirent64 *) (gpointer) (buffer.bytes + offset);
          char probe[512];
          struct stat st;

          offset += dent->d_reclen;
          if (strcmp (dent->d_name, ".") == 0 || strcmp (dent->d_name, "..") == 0)
            continue;
          /* Either answer will do: the lookup is what is measured. */
          if (g_snprintf (probe, sizeof probe, "%s/python_stats", dent->d_name) < (int) sizeof probe)
            (void) !fstatat (fd, probe, &st, 0);
          break;
        }
#endif
      close (fd);
    }

  return getrusage (RUSAGE_THREAD, &after) == 0 && after.ru_inblock == before.ru_inblock &&
         after.ru_nvcsw == before.ru_nvcsw;
}

/* How many threads the last listing of a profiler folder allowed for its
 * node folders: for tests. */
guint
_smprof_local_source_get_list_threads (SmprofLocalSource *self)
{
  return self->list_threads;
}

/* Node folders are listed in parallel, each into its own listing; the
 * listings are then joined in name order, so the result does not depend on
 * which thread finished first. */
static void
list_profiler_folder (SmprofLocalSource          *self,
                      const SmprofListingOptions *options,
                      SmprofListing              *listing,
                      const char                 *relative,
                      GCancellable               *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GArray) names = NULL;
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GError) error = NULL;
  NodeBatch batch = { self, options, NULL, NULL, NULL, cancellable, 1 };
  const char *first_full = NULL;
  const char *first_node = NULL;
  guint n_threads;
  guint n_full = 0;

  names = _smprof_local_source_read_sorted_folder (path, &error);
  if (names == NULL)
    {
      _smprof_local_source_add_io_problem (listing, relative, error);
      return;
    }

  nodes = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < names->len; i++)
    {
      const SmprofFolderEntry *entry = &g_array_index (names, SmprofFolderEntry, i);

      if (_smprof_local_source_entry_is_directory (path, entry))
        g_ptr_array_add (nodes, g_strconcat (relative, "/", entry->name, NULL));
      else
        g_ptr_array_add (nodes, NULL);
    }

  /* By name: nothing looked up inside the node folders. */
  if (lists_node_names (options, relative))
    {
      for (guint i = 0; i < nodes->len; i++)
        {
          const char *node_relative = g_ptr_array_index (nodes, i);

          if (node_relative != NULL)
            smprof_listing_add (listing, node_relative, SMPROF_LISTING_FOLDER, 0);
          else
            smprof_listing_take (listing,
                                 g_strconcat (relative, "/", g_array_index (names, SmprofFolderEntry, i).name, NULL),
                                 SMPROF_LISTING_FILE, 0);
        }
      return;
    }

  /* With fewer node folders to list in full than threads, the threads left
   * over share them. */
  for (guint i = 0; i < nodes->len; i++)
    {
      const char *node_relative = g_ptr_array_index (nodes, i);

      if (node_relative == NULL)
        continue;
      if (first_node == NULL)
        first_node = node_relative;
      if (!lists_names_only (options, node_relative) && n_full++ == 0)
        first_full = node_relative;
    }
  /* Node folders read for their names alone wait for the disk too. */
  n_threads = g_get_num_processors ();
  if (first_node != NULL && !node_folder_is_cached (self, first_full != NULL ? first_full : first_node))
    n_threads = MAX (n_threads, LIST_THREADS);
  self->list_threads = n_threads;
  if (n_full > 0 && n_full < n_threads)
    batch.n_parts = n_threads / n_full;

  batch.nodes = nodes;
  batch.listings = g_new0 (SmprofListing *, MAX (nodes->len, 1));
  batch.to_cache = g_new0 (SmprofListing *, MAX (nodes->len, 1));
  for (guint i = 0; i < nodes->len; i++)
    batch.listings[i] = smprof_listing_new ();

  smprof_parallel_for ("smprof-list", nodes->len, n_threads, list_node_at, &batch, cancellable);

  for (guint i = 0; i < nodes->len; i++)
    {
      SmprofListing *part = batch.listings[i];
      const char *node_relative = g_ptr_array_index (nodes, i);

      if (batch.to_cache[i] != NULL && !g_hash_table_contains (options->names_cache, node_relative) &&
          !g_cancellable_is_cancelled (cancellable))
        g_hash_table_insert (options->names_cache, g_strdup (node_relative), g_steal_pointer (&batch.to_cache[i]));
      g_clear_pointer (&batch.to_cache[i], smprof_listing_free);

      if (g_ptr_array_index (nodes, i) == NULL)
        {
          g_autofree char *child_relative = g_strconcat (relative, "/", g_array_index (names, SmprofFolderEntry, i).name,
                                                         NULL);

          smprof_listing_add (listing, child_relative, SMPROF_LISTING_FILE, 0);
        }

      g_ptr_array_extend_and_steal (listing->entries, g_steal_pointer (&part->entries));
      g_ptr_array_extend_and_steal (listing->problems, g_steal_pointer (&part->problems));
      g_free (part);
    }

  g_free (batch.listings);
  g_free (batch.to_cache);
}

static void
list_framework_folder (SmprofLocalSource          *self,
                       const SmprofListingOptions *options,
                       SmprofListing              *listing,
                       const char                 *relative,
                       GCancellable               *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GArray) names = NULL;
  g_autoptr(GError) error = NULL;

  names = _smprof_local_source_read_sorted_folder (path, &error);
  if (names == NULL)
    {
      _smprof_local_source_add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const SmprofFolderEntry *entry = &g_array_index (names, SmprofFolderEntry, i);

      if (is_profiler_folder_name (entry->name) && _smprof_local_source_entry_is_directory (path, entry))
        {
          g_autofree char *child_relative = g_strconcat (relative, "/", entry->name, NULL);

          list_profiler_folder (self, options, listing, child_relative, cancellable);
        }
    }
}

/* framework/pevents/<hour>/: the framework timelines, `*_pythontimeline.json`
 * only (the model, Horovod and merged traces there are not read). Listed for
 * the whole job only: a scope below framework/ asks for one profiler. */
static void
list_pevents_folder (SmprofLocalSource *self,
                     SmprofListing     *listing,
                     const char        *relative)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GArray) hours = NULL;
  g_autoptr(GError) error = NULL;

  hours = _smprof_local_source_read_sorted_folder (path, &error);
  if (hours == NULL)
    {
      _smprof_local_source_add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < hours->len; i++)
    {
      const SmprofFolderEntry *hour = &g_array_index (hours, SmprofFolderEntry, i);
      g_autofree char *hour_path = NULL;
      g_autofree char *hour_relative = NULL;
      g_autoptr(GArray) names = NULL;

      if (!_smprof_local_source_entry_is_directory (path, hour))
        continue;

      hour_path = g_build_filename (path, hour->name, NULL);
      hour_relative = g_strconcat (relative, "/", hour->name, NULL);

      names = _smprof_local_source_read_sorted_folder (hour_path, &error);
      if (names == NULL)
        {
          _smprof_local_source_add_io_problem (listing, hour_relative, error);
          g_clear_error (&error);
          continue;
        }

      for (guint j = 0; j < names->len; j++)
        {
          const SmprofFolderEntry *entry = &g_array_index (names, SmprofFolderEntry, j);
          g_autofree char *file = NULL;
          g_autofree char *file_relative = g_strconcat (hour_relative, "/", entry->name, NULL);
          GStatBuf st;

          /* a folder is no timeline; a file's size and times are needed */
          if (entry->type == DT_DIR || !smprof_pevents_is_timeline_path (file_relative))
            continue;

          file = g_build_filename (hour_path, entry->name, NULL);
          if (g_stat (file, &st) == 0 && S_ISREG (st.st_mode))
            smprof_listing_add_full (listing, file_relative, SMPROF_LISTING_FILE, st.st_size,
                                       _smprof_local_source_version (&st));
        }
    }
}

gboolean
_smprof_local_source_list (SmprofSource                *source,
                           const SmprofListingOptions  *options,
                           SmprofListing               *listing,
                           GCancellable                *cancellable,
                           GError                     **error)
{
  SmprofLocalSource *self = SMPROF_LOCAL_SOURCE (source);

  switch (self->scope_depth)
    {
    case 0:
    case 1:
      {
        g_autofree char *path = g_build_filename (self->root, self->scope, NULL);
        g_autoptr(GArray) names = _smprof_local_source_read_sorted_folder (path, error);

        if (names == NULL)
          return FALSE;

        for (guint i = 0; i < names->len; i++)
          {
            const SmprofFolderEntry *entry = &g_array_index (names, SmprofFolderEntry, i);
            g_autofree char *child_relative = NULL;

            if (!_smprof_local_source_entry_is_directory (path, entry))
              continue;
            child_relative = g_strconcat (self->scope, "/", entry->name, NULL);
            /* the timelines are no node folder */
            if (strcmp (child_relative, "framework/pevents") == 0 && options->nodes_only)
              continue;
            if (strcmp (child_relative, "framework/pevents") == 0)
              list_pevents_folder (self, listing, child_relative);
            else
              list_framework_folder (self, options, listing, child_relative, cancellable);
          }
      }
      break;

    case 2:
      list_framework_folder (self, options, listing, self->scope, cancellable);
      break;

    case 3:
      list_profiler_folder (self, options, listing, self->scope, cancellable);
      break;

    default:
      g_assert_not_reached ();
    }

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}
