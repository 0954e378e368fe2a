/* smprof-local-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* getdents64() */
#define _GNU_SOURCE

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smprof-local-source.h"
#include "smprof-pevents.h"

struct _SmprofLocalSource
{
  GObject  parent_instance;

  char    *root;   /* the folder that holds framework/, absolute */
  char    *scope;  /* what to list, relative to root: framework[/<fw>[/<profiler>]] */
  guint    scope_depth;
};

static void source_iface_init (SmprofSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SmprofLocalSource, smprof_local_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMPROF_TYPE_SOURCE, source_iface_init))

static void
smprof_local_source_finalize (GObject *object)
{
  SmprofLocalSource *self = SMPROF_LOCAL_SOURCE (object);

  g_clear_pointer (&self->root, g_free);
  g_clear_pointer (&self->scope, g_free);

  G_OBJECT_CLASS (smprof_local_source_parent_class)->finalize (object);
}

static void
smprof_local_source_class_init (SmprofLocalSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_local_source_finalize;
}

static void
smprof_local_source_init (SmprofLocalSource *self)
{
}

static gboolean
is_directory (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

/* Profile folders are the profiler names smdebug writes. framework/ also holds
 * pevents/, detailed_profiling/ and other outputs that are not Python stats. */
static gboolean
is_profiler_folder_name (const char *name)
{
  return strcmp (name, "cprofile") == 0 || strcmp (name, "pyinstrument") == 0;
}

/**
 * smprof_local_source_new:
 * @path: a job root (the folder holding framework/) or a folder below it, down
 *   to framework/<framework>/<profiler>
 * @error: a location for a #GError, or %NULL
 *
 * Returns: (transfer full) (nullable): the source, or %NULL if @path is not a job
 */
SmprofSource *
smprof_local_source_new (const char  *path,
                         GError     **error)
{
  g_autoptr(SmprofLocalSource) self = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *display = NULL;
  g_autofree char *framework = NULL;
  char *up[4] = { NULL };
  GStatBuf st;
  int depth = -1;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open “%s”: %s"), display, g_strerror (saved_errno));
      return NULL;
    }

  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("“%s” is not a folder"), display);
      return NULL;
    }

  canonical = g_canonicalize_filename (path, NULL);
  framework = g_build_filename (canonical, "framework", NULL);

  /* up[i] is the folder i levels above the one given */
  up[0] = g_strdup (canonical);
  for (int i = 1; i < 4; i++)
    up[i] = g_path_get_dirname (up[i - 1]);

  if (is_directory (framework))
    depth = 0;
  else
    for (int i = 0; i < 3; i++)
      {
        g_autofree char *base = g_path_get_basename (up[i]);

        if (strcmp (base, "framework") == 0 && strcmp (up[i], up[i + 1]) != 0)
          {
            depth = i + 1;
            break;
          }
      }

  if (depth < 0)
    {
      for (int i = 0; i < 4; i++)
        g_free (up[i]);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("“%s” is not a SageMaker Debugger profiler output: it has no framework/ folder"),
                   display);
      return NULL;
    }

  self = g_object_new (SMPROF_TYPE_LOCAL_SOURCE, NULL);
  self->scope_depth = depth;
  if (depth == 0)
    {
      self->root = g_strdup (canonical);
      self->scope = g_strdup ("framework");
    }
  else
    {
      self->root = g_strdup (up[depth]);
      self->scope = g_strdup (canonical + strlen (up[depth]) + (strcmp (up[depth], "/") == 0 ? 0 : 1));
    }

  for (int i = 0; i < 4; i++)
    g_free (up[i]);

  return SMPROF_SOURCE (g_steal_pointer (&self));
}

const char *
smprof_local_source_get_root (SmprofLocalSource *self)
{
  g_return_val_if_fail (SMPROF_IS_LOCAL_SOURCE (self), NULL);

  return self->root;
}

static char *
smprof_local_source_dup_location (SmprofSource *source)
{
  return g_strdup (SMPROF_LOCAL_SOURCE (source)->root);
}

static char *
smprof_local_source_dup_file_location (SmprofSource *source,
                                       const char   *path)
{
  return g_build_filename (SMPROF_LOCAL_SOURCE (source)->root, path, NULL);
}

static void
add_io_problem (SmprofListing *listing,
                const char    *relative,
                GError        *error)
{
  smprof_listing_add_problem (listing, relative, error->message);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Names sorted, so listings (and ties in the record order) do not depend on the
 * file system's order. */
static GPtrArray *
read_sorted_folder (const char  *path,
                    GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  GPtrArray *names;
  const char *name;

  if (dir == NULL)
    return NULL;

  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  return names;
}

static void
list_interval_folder (SmprofLocalSource *self,
                      SmprofListing     *listing,
                      const char        *relative)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;
  guint n_files = 0;

  names = read_sorted_folder (path, &error);
  if (names == NULL)
    {
      add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_autofree char *child_relative = g_strconcat (relative, "/", name, NULL);
      GStatBuf st;

      if (g_stat (child, &st) != 0)
        {
          int saved_errno = errno;

          smprof_listing_add_problem (listing, child_relative, g_strerror (saved_errno));
          continue;
        }

      if (S_ISDIR (st.st_mode))
        continue;

      smprof_listing_add (listing, child_relative, SMPROF_LISTING_FILE, st.st_size);
      n_files++;
    }

  if (n_files == 0)
    smprof_listing_add (listing, relative, SMPROF_LISTING_EMPTY_FOLDER, 0);
}

static void
list_node_folder_by_path (SmprofLocalSource *self,
                          SmprofListing     *listing,
                          const char        *relative,
                          GCancellable      *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;

  names = read_sorted_folder (path, &error);
  if (names == NULL)
    {
      add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < names->len && !g_cancellable_is_cancelled (cancellable); i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_autofree char *child_relative = g_strconcat (relative, "/", name, NULL);
      GStatBuf st;

      if (g_stat (child, &st) != 0)
        {
          int saved_errno = errno;

          smprof_listing_add_problem (listing, child_relative, g_strerror (saved_errno));
          continue;
        }

      if (S_ISDIR (st.st_mode))
        list_interval_folder (self, listing, child_relative);
      else
        smprof_listing_add (listing, child_relative, SMPROF_LISTING_FILE, st.st_size);
    }
}

/* A job holds one interval folder per profiled step interval, tens of
 * thousands of them, so listing costs a few system calls per folder at most:
 * folders are opened relative to their node folder, and entries the directory
 * already says are folders are not stat()ed. Whatever fails on this path is
 * retried on the plain one above, which words the problem. */
typedef struct
{
  char   *name;
  guint8  type;   /* d_type, or DT_UNKNOWN */
} FolderName;

static void
folder_name_clear (gpointer data)
{
  g_free (((FolderName *) data)->name);
}

static int
compare_folder_names (gconstpointer a,
                      gconstpointer b)
{
  return strcmp (((const FolderName *) a)->name, ((const FolderName *) b)->name);
}

static void
add_folder_name (GArray     *names,
                 const char *name,
                 guint8      type)
{
  FolderName entry = { NULL, type };

  if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0)
    return;

  entry.name = g_strdup (name);
  g_array_append_val (names, entry);
}

/* Returns the names in the folder open at @fd (which stays open) sorted, or
 * %NULL if it cannot be read. */
static GArray *
read_sorted_fd (int fd)
{
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (FolderName));

  g_array_set_clear_func (names, folder_name_clear);

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

            add_folder_name (names, dent->d_name, dent->d_type);
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
      add_folder_name (names, dent->d_name, dent->d_type);
#else
      add_folder_name (names, dent->d_name, DT_UNKNOWN);
#endif

    if (errno != 0)
      {
        closedir (dir);
        return NULL;
      }

    closedir (dir);
  }
#endif

  g_array_sort (names, compare_folder_names);

  return g_steal_pointer (&names);
}

/* list_interval_folder(), for an interval folder in the node folder @node_fd.
 * Returns %FALSE, having added nothing, when the folder cannot be read. */
static gboolean
list_interval_folder_at (SmprofListing *listing,
                         int            node_fd,
                         const char    *name,
                         const char    *relative)
{
  g_autoptr(GArray) names = NULL;
  guint n_files = 0;
  int fd;

  /* A stat() or two instead of reading the folder, when that is all the
   * caller needs (see SmprofListing.stats_only). Records come from the file
   * names, whichever profiler folder they are in, so both are looked for. */
  if (listing->stats_only)
    {
      static const char * const stats_files[] = { "python_stats", "python_stats.json" };
      struct stat st[G_N_ELEMENTS (stats_files)];
      gboolean found[G_N_ELEMENTS (stats_files)];
      gboolean any = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (stats_files); i++)
        {
          char probe[512];

          found[i] = g_snprintf (probe, sizeof probe, "%s/%s", name, stats_files[i]) < (int) sizeof probe &&
                     fstatat (node_fd, probe, &st[i], 0) == 0 && !S_ISDIR (st[i].st_mode);
          any |= found[i];
        }

      if (any)
        {
          for (guint i = 0; i < G_N_ELEMENTS (stats_files); i++)
            if (found[i])
              smprof_listing_take (listing, g_strconcat (relative, "/", stats_files[i], NULL),
                                   SMPROF_LISTING_FILE, st[i].st_size);
          return TRUE;
        }
    }

  fd = openat (node_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;

  names = read_sorted_fd (fd);
  if (names == NULL)
    {
      close (fd);
      return FALSE;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const FolderName *child = &g_array_index (names, FolderName, i);
      g_autofree char *child_relative = g_strconcat (relative, "/", child->name, NULL);
      struct stat st;

      if (fstatat (fd, child->name, &st, 0) != 0)
        {
          int saved_errno = errno;

          smprof_listing_add_problem (listing, child_relative, g_strerror (saved_errno));
          continue;
        }

      if (S_ISDIR (st.st_mode))
        continue;

      smprof_listing_add (listing, child_relative, SMPROF_LISTING_FILE, st.st_size);
      n_files++;
    }

  close (fd);

  if (n_files == 0)
    smprof_listing_add (listing, relative, SMPROF_LISTING_EMPTY_FOLDER, 0);

  return TRUE;
}

/* The entries @from to @to of @names, in the node folder @relative open at
 * @fd, listed into @listing as list_node_folder() describes. */
static void
list_node_entries (SmprofLocalSource *self,
                   SmprofListing     *listing,
                   int                fd,
                   const char        *relative,
                   GArray            *names,
                   guint              from,
                   guint              to,
                   gboolean           names_only,
                   GCancellable      *cancellable)
{
  for (guint i = from; i < to && !g_cancellable_is_cancelled (cancellable); i++)
    {
      const FolderName *child = &g_array_index (names, FolderName, i);
      g_autofree char *child_relative = g_strconcat (relative, "/", child->name, NULL);
      struct stat st;

      if (child->type == DT_DIR)
        {
          if (names_only)
            {
              smprof_listing_take (listing, g_steal_pointer (&child_relative), SMPROF_LISTING_FOLDER, 0);
              continue;
            }
          if (list_interval_folder_at (listing, fd, child->name, child_relative))
            continue;
        }

      if (fstatat (fd, child->name, &st, 0) != 0)
        {
          int saved_errno = errno;

          smprof_listing_add_problem (listing, child_relative, g_strerror (saved_errno));
          continue;
        }

      if (!S_ISDIR (st.st_mode))
        smprof_listing_add (listing, child_relative, SMPROF_LISTING_FILE, st.st_size);
      else if (names_only)
        smprof_listing_add (listing, child_relative, SMPROF_LISTING_FOLDER, 0);
      else if (!list_interval_folder_at (listing, fd, child->name, child_relative))
        list_interval_folder (self, listing, child_relative);
    }
}

/* One of the parts a node folder listed in full is split into. */
typedef struct
{
  SmprofLocalSource *self;
  SmprofListing     *listing;
  int                fd;
  const char        *relative;
  GArray            *names;
  guint              from;
  guint              to;
  GCancellable      *cancellable;
} NodePart;

static gpointer
list_node_part (gpointer data)
{
  NodePart *part = data;

  list_node_entries (part->self, part->listing, part->fd, part->relative, part->names,
                     part->from, part->to, FALSE, part->cancellable);
  return NULL;
}

/* Below this many entries a node folder is not worth a thread. */
#define MIN_SPLIT_ENTRIES 512

/* Lists the node folder @relative: its interval folders with the files in
 * them, or, with @names_only (SmprofListing.names_only), the interval folders
 * by name without looking into them, so that a job can choose the few node
 * folders it needs in full from a listing of all of them that costs one
 * getdents64() pass per node folder. Files and folders of other types are
 * listed the same either way. Listed in full, a large folder is split into
 * @n_parts runs of entries listed on as many threads (when fewer node
 * folders than cores are listed in full, as for smdebug's "any" node), and
 * the runs are joined in order. */
static void
list_node_folder (SmprofLocalSource *self,
                  SmprofListing     *listing,
                  const char        *relative,
                  gboolean           names_only,
                  guint              n_parts,
                  GCancellable      *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GArray) names = NULL;
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    names = read_sorted_fd (fd);

  if (names == NULL)
    {
      if (fd >= 0)
        close (fd);
      list_node_folder_by_path (self, listing, relative, cancellable);
      return;
    }

  if (names_only || n_parts < 2 || names->len < MIN_SPLIT_ENTRIES)
    list_node_entries (self, listing, fd, relative, names, 0, names->len, names_only, cancellable);
  else
    {
      g_autofree NodePart *parts = g_new0 (NodePart, n_parts);
      g_autofree GThread **threads = g_new0 (GThread *, n_parts);

      for (guint p = 0; p < n_parts; p++)
        {
          parts[p] = (NodePart) { self, p == 0 ? listing : smprof_listing_new (), fd, relative, names,
                                  (guint) ((guint64) names->len * p / n_parts),
                                  (guint) ((guint64) names->len * (p + 1) / n_parts), cancellable };
          parts[p].listing->stats_only = listing->stats_only;
          if (p > 0)
            threads[p] = g_thread_new ("smprof-list", list_node_part, &parts[p]);
        }

      /* The first run goes straight into @listing, the others after it. */
      list_node_part (&parts[0]);
      for (guint p = 1; p < n_parts; p++)
        {
          g_thread_join (threads[p]);
          g_ptr_array_extend_and_steal (listing->entries, g_steal_pointer (&parts[p].listing->entries));
          g_ptr_array_extend_and_steal (listing->problems, g_steal_pointer (&parts[p].listing->problems));
          g_free (parts[p].listing);
        }
    }

  close (fd);
}

typedef struct
{
  SmprofLocalSource *self;
  SmprofListing     *request;   /* the caller's listing: what to list how */
  GPtrArray         *nodes;     /* relative paths of node folders, or NULL for a file */
  SmprofListing    **listings;  /* one per node, filled by the workers */
  SmprofListing    **to_cache;  /* copies of those listed by name, for request->names_cache */
  GCancellable      *cancellable;
  guint              n_parts;   /* how many threads list a node folder in full */
  int                next;      /* atomic */
} NodeBatch;

static gboolean
lists_names_only (const SmprofListing *request,
                  const char          *node_relative)
{
  return request->names_only &&
         (request->full_nodes == NULL || !g_hash_table_contains (request->full_nodes, node_relative));
}

static void
copy_listing (SmprofListing       *to,
              const SmprofListing *from)
{
  for (guint i = 0; i < from->entries->len; i++)
    {
      const SmprofListingEntry *entry = g_ptr_array_index (from->entries, i);

      smprof_listing_add (to, entry->path, entry->kind, entry->size);
    }

  for (guint i = 0; i < from->problems->len; i++)
    {
      const SmprofProblem *problem = g_ptr_array_index (from->problems, i);

      smprof_listing_add_problem (to, problem->path, problem->message);
    }
}

static gpointer
list_nodes_worker (gpointer data)
{
  NodeBatch *batch = data;
  int i;

  while ((i = g_atomic_int_add (&batch->next, 1)) < (int) batch->nodes->len)
    {
      const char *relative = g_ptr_array_index (batch->nodes, i);

      if (relative == NULL || g_cancellable_is_cancelled (batch->cancellable))
        continue;

      if (lists_names_only (batch->request, relative))
        {
          /* read only while the workers run: filled after they are joined */
          SmprofListing *cached = batch->request->names_cache != NULL
                                  ? g_hash_table_lookup (batch->request->names_cache, relative) : NULL;

          if (cached != NULL)
            copy_listing (batch->listings[i], cached);
          else
            {
              list_node_folder (batch->self, batch->listings[i], relative, TRUE, 1, batch->cancellable);
              /* copied here, in parallel, rather than when joined */
              if (batch->request->names_cache != NULL)
                {
                  batch->to_cache[i] = smprof_listing_new ();
                  copy_listing (batch->to_cache[i], batch->listings[i]);
                }
            }
        }
      else
        list_node_folder (batch->self, batch->listings[i], relative, FALSE, batch->n_parts, batch->cancellable);
    }

  return NULL;
}

/* Node folders are listed in parallel, each into its own listing; the
 * listings are then joined in name order, so the result does not depend on
 * which thread finished first. */
static void
list_profiler_folder (SmprofLocalSource *self,
                      SmprofListing     *listing,
                      const char        *relative,
                      GCancellable      *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GPtrArray) threads = NULL;
  g_autoptr(GError) error = NULL;
  NodeBatch batch = { self, listing, NULL, NULL, NULL, cancellable, 1, 0 };
  guint n_threads, n_full = 0;

  names = read_sorted_folder (path, &error);
  if (names == NULL)
    {
      add_io_problem (listing, relative, error);
      return;
    }

  nodes = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (path, name, NULL);
      char *child_relative = g_strconcat (relative, "/", name, NULL);

      if (is_directory (child))
        g_ptr_array_add (nodes, child_relative);
      else
        {
          g_ptr_array_add (nodes, NULL);
          g_free (child_relative);
        }
    }

  /* With fewer node folders to list in full than cores, the cores left over
   * share them. */
  for (guint i = 0; i < nodes->len; i++)
    {
      const char *node_relative = g_ptr_array_index (nodes, i);

      if (node_relative != NULL && !lists_names_only (listing, node_relative))
        n_full++;
    }
  if (n_full > 0 && n_full < g_get_num_processors ())
    batch.n_parts = g_get_num_processors () / n_full;

  batch.nodes = nodes;
  batch.listings = g_new0 (SmprofListing *, MAX (nodes->len, 1));
  batch.to_cache = g_new0 (SmprofListing *, MAX (nodes->len, 1));
  for (guint i = 0; i < nodes->len; i++)
    {
      batch.listings[i] = smprof_listing_new ();
      batch.listings[i]->stats_only = listing->stats_only;
    }

  threads = g_ptr_array_new ();
  n_threads = MIN (g_get_num_processors (), nodes->len);
  for (guint i = 1; i < n_threads; i++)
    g_ptr_array_add (threads, g_thread_new ("smprof-list", list_nodes_worker, &batch));
  list_nodes_worker (&batch);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));

  for (guint i = 0; i < nodes->len; i++)
    {
      SmprofListing *part = batch.listings[i];
      const char *node_relative = g_ptr_array_index (nodes, i);

      if (batch.to_cache[i] != NULL && !g_hash_table_contains (listing->names_cache, node_relative) &&
          !g_cancellable_is_cancelled (cancellable))
        g_hash_table_insert (listing->names_cache, g_strdup (node_relative), g_steal_pointer (&batch.to_cache[i]));
      g_clear_pointer (&batch.to_cache[i], smprof_listing_free);

      if (g_ptr_array_index (nodes, i) == NULL)
        {
          g_autofree char *child_relative = g_strconcat (relative, "/", (const char *) g_ptr_array_index (names, i), NULL);

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
list_framework_folder (SmprofLocalSource *self,
                       SmprofListing     *listing,
                       const char        *relative,
                       GCancellable      *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;

  names = read_sorted_folder (path, &error);
  if (names == NULL)
    {
      add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_autofree char *child_relative = g_strconcat (relative, "/", name, NULL);

      if (is_profiler_folder_name (name) && is_directory (child))
        list_profiler_folder (self, listing, child_relative, cancellable);
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
  g_autoptr(GPtrArray) hours = NULL;
  g_autoptr(GError) error = NULL;

  hours = read_sorted_folder (path, &error);
  if (hours == NULL)
    {
      add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < hours->len; i++)
    {
      const char *hour = g_ptr_array_index (hours, i);
      g_autofree char *hour_path = g_build_filename (path, hour, NULL);
      g_autofree char *hour_relative = g_strconcat (relative, "/", hour, NULL);
      g_autoptr(GPtrArray) names = NULL;

      if (!is_directory (hour_path))
        continue;

      names = read_sorted_folder (hour_path, &error);
      if (names == NULL)
        {
          add_io_problem (listing, hour_relative, error);
          g_clear_error (&error);
          continue;
        }

      for (guint j = 0; j < names->len; j++)
        {
          const char *name = g_ptr_array_index (names, j);
          g_autofree char *file = g_build_filename (hour_path, name, NULL);
          g_autofree char *file_relative = g_strconcat (hour_relative, "/", name, NULL);
          GStatBuf st;

          if (smprof_pevents_is_timeline_path (file_relative) &&
              g_stat (file, &st) == 0 && S_ISREG (st.st_mode))
            smprof_listing_add (listing, file_relative, SMPROF_LISTING_FILE, st.st_size);
        }
    }
}

static gboolean
smprof_local_source_list (SmprofSource   *source,
                          SmprofListing  *listing,
                          GCancellable   *cancellable,
                          GError        **error)
{
  SmprofLocalSource *self = SMPROF_LOCAL_SOURCE (source);

  switch (self->scope_depth)
    {
    case 0:
    case 1:
      {
        g_autofree char *path = g_build_filename (self->root, self->scope, NULL);
        g_autoptr(GPtrArray) names = read_sorted_folder (path, error);

        if (names == NULL)
          return FALSE;

        for (guint i = 0; i < names->len; i++)
          {
            const char *name = g_ptr_array_index (names, i);
            g_autofree char *child = g_build_filename (path, name, NULL);
            g_autofree char *child_relative = g_strconcat (self->scope, "/", name, NULL);

            if (!is_directory (child))
              continue;
            if (strcmp (child_relative, "framework/pevents") == 0)
              list_pevents_folder (self, listing, child_relative);
            else
              list_framework_folder (self, listing, child_relative, cancellable);
          }
      }
      break;

    case 2:
      list_framework_folder (self, listing, self->scope, cancellable);
      break;

    case 3:
      list_profiler_folder (self, listing, self->scope, cancellable);
      break;

    default:
      g_assert_not_reached ();
    }

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* Loading a job reads tens of thousands of small files on a few threads, each
 * parsed and let go at once. A fresh buffer per file would come from memory
 * the parsed arrays have just taken, so every read would fault its pages in;
 * one buffer per thread, handed back when the bytes are freed, is read into
 * warm. */
typedef struct
{
  char  *data;
  gsize  size;
} ReadBuffer;

/* Larger buffers are not kept after their file. */
#define MAX_KEPT_BUFFER (4u << 20)

static void
read_buffer_free (gpointer data)
{
  ReadBuffer *buffer = data;

  if (buffer == NULL)
    return;

  g_free (buffer->data);
  g_free (buffer);
}

static GPrivate read_buffer_key = G_PRIVATE_INIT (read_buffer_free);

/* The free function of the bytes: the buffer goes back to the thread that
 * frees them, if that thread holds none, and is freed otherwise. */
static void
read_buffer_give_back (gpointer data)
{
  ReadBuffer *buffer = data;

  if (buffer->size <= MAX_KEPT_BUFFER && g_private_get (&read_buffer_key) == NULL)
    g_private_set (&read_buffer_key, buffer);
  else
    read_buffer_free (buffer);
}

/* The contents of the regular file @path, read with one open() and one
 * fstat(); %NULL, with nothing reported, for anything else (a missing file,
 * a FIFO, a read error...), which the caller then reads the long way so that
 * the error is the one it always gave. */
static GBytes *
load_regular_file (const char *path)
{
  ReadBuffer *buffer;
  struct stat st;
  gsize length = 0;
  int fd;

  /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return NULL;

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size < 0 || st.st_size >= G_MAXINT32)
    {
      close (fd);
      return NULL;
    }

  buffer = g_private_get (&read_buffer_key);
  if (buffer != NULL)
    g_private_set (&read_buffer_key, NULL);
  else
    buffer = g_new0 (ReadBuffer, 1);

  /* As g_file_get_contents(): at most the size fstat() gave, NUL-terminated. */
  if (buffer->size < (gsize) st.st_size + 1)
    {
      g_free (buffer->data);
      buffer->size = MAX ((gsize) st.st_size + 1, 64 * 1024);
      buffer->data = g_malloc (buffer->size);
    }

  while (length < (gsize) st.st_size)
    {
      ssize_t n = read (fd, buffer->data + length, (gsize) st.st_size - length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          close (fd);
          read_buffer_give_back (buffer);
          return NULL;
        }
      if (n == 0)
        break;
      length += n;
    }

  close (fd);
  buffer->data[length] = '\0';

  return g_bytes_new_with_free_func (buffer->data, length, read_buffer_give_back, buffer);
}

static GBytes *
smprof_local_source_load (SmprofSource  *source,
                          const char    *relative,
                          GCancellable  *cancellable,
                          GError       **error)
{
  SmprofLocalSource *self = SMPROF_LOCAL_SOURCE (source);
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  char *contents = NULL;
  gsize length = 0;
  GStatBuf st;
  GBytes *bytes;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  bytes = load_regular_file (path);
  if (bytes != NULL)
    return bytes;

  /* A FIFO named python_stats would block the read forever, a link to
   * /dev/zero would fill the memory, and so would a huge sparse file (the
   * parsers refuse 2 GiB and more anyway). */
  if (g_stat (path, &st) == 0)
    {
      if (!S_ISREG (st.st_mode))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                               _("not a regular file"));
          return NULL;
        }
      if (st.st_size >= G_MAXINT32)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       _("%llu bytes, too large to be a profile"),
                       (unsigned long long) st.st_size);
          return NULL;
        }
    }

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;

  return g_bytes_new_take (contents, length);
}

static void
source_iface_init (SmprofSourceInterface *iface)
{
  iface->dup_location = smprof_local_source_dup_location;
  iface->dup_file_location = smprof_local_source_dup_file_location;
  iface->list = smprof_local_source_list;
  iface->load = smprof_local_source_load;
}
