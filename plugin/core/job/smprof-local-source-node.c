/* smprof-local-source-node.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Listing one node folder: its interval folders and the files in them, with
 * as few system calls as tens of thousands of folders need (getdents64(),
 * entry types from the folder, folders opened relative to their parent, a
 * large folder split over threads), and the plain way when that fails. */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smprof-local-source-private.h"
#include "smprof-parallel.h"

static void
list_interval_folder (SmprofLocalSource *self,
                      SmprofListing     *listing,
                      const char        *relative)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GArray) names = NULL;
  g_autoptr(GError) error = NULL;
  guint n_files = 0;

  names = _smprof_local_source_read_sorted_folder (path, &error);
  if (names == NULL)
    {
      _smprof_local_source_add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_array_index (names, SmprofFolderEntry, i).name;
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

      smprof_listing_add_full (listing, child_relative, SMPROF_LISTING_FILE, st.st_size,
                                 _smprof_local_source_version (&st));
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
  g_autoptr(GArray) names = NULL;
  g_autoptr(GError) error = NULL;

  names = _smprof_local_source_read_sorted_folder (path, &error);
  if (names == NULL)
    {
      _smprof_local_source_add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < names->len && !g_cancellable_is_cancelled (cancellable); i++)
    {
      const char *name = g_array_index (names, SmprofFolderEntry, i).name;
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
        smprof_listing_add_full (listing, child_relative, SMPROF_LISTING_FILE, st.st_size,
                                 _smprof_local_source_version (&st));
    }
}

/* list_interval_folder(), for an interval folder in the node folder @node_fd.
 * Returns %FALSE, having added nothing, when the folder cannot be read. */
static gboolean
list_interval_folder_at (SmprofListing *listing,
                         gboolean       stats_only,
                         int            node_fd,
                         const char    *name,
                         const char    *relative)
{
  g_autoptr(GArray) names = NULL;
  guint n_files = 0;
  int fd;

  /* A stat() or two instead of reading the folder, when that is all the
   * caller needs (see SmprofListingOptions.stats_only). Records come from
   * the file names, whichever profiler folder they are in, so both are
   * looked for: reading the folder to see which is there would cost more
   * (an openat(), two getdents64() and a close(), then the stat() of the
   * stats file all the same, whose size and times the parsed index and a
   * refresh key on). */
  if (stats_only)
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
              smprof_listing_take_full (listing, g_strconcat (relative, "/", stats_files[i], NULL),
                                        SMPROF_LISTING_FILE, st[i].st_size, _smprof_local_source_version (&st[i]));
          return TRUE;
        }
    }

  fd = openat (node_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;

  names = _smprof_local_source_read_sorted_fd (fd);
  if (names == NULL)
    {
      close (fd);
      return FALSE;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const SmprofFolderEntry *child = &g_array_index (names, SmprofFolderEntry, i);
      g_autofree char *child_relative = NULL;
      struct stat st;

      /* A folder in an interval folder is not smdebug's: skipped unseen. A
       * file's size and times are needed (the parsed index and a refresh
       * key on them), so it is stat()ed whatever its type. */
      if (child->type == DT_DIR)
        continue;

      child_relative = g_strconcat (relative, "/", child->name, NULL);
      if (fstatat (fd, child->name, &st, 0) != 0)
        {
          int saved_errno = errno;

          smprof_listing_add_problem (listing, child_relative, g_strerror (saved_errno));
          continue;
        }

      if (S_ISDIR (st.st_mode))
        continue;

      smprof_listing_add_full (listing, child_relative, SMPROF_LISTING_FILE, st.st_size,
                                 _smprof_local_source_version (&st));
      n_files++;
    }

  close (fd);

  if (n_files == 0)
    smprof_listing_add (listing, relative, SMPROF_LISTING_EMPTY_FOLDER, 0);

  return TRUE;
}

/* The entries @from to @to of @names, in the node folder @relative open at
 * @fd, listed into @listing as _smprof_local_source_list_node_folder()
 * describes. */
static void
list_node_entries (SmprofLocalSource          *self,
                   const SmprofListingOptions *options,
                   SmprofListing              *listing,
                   int                         fd,
                   const char                 *relative,
                   GArray                     *names,
                   guint                       from,
                   guint                       to,
                   gboolean                    names_only,
                   GCancellable               *cancellable)
{
  for (guint i = from; i < to && !g_cancellable_is_cancelled (cancellable); i++)
    {
      const SmprofFolderEntry *child = &g_array_index (names, SmprofFolderEntry, i);
      g_autofree char *child_relative = g_strconcat (relative, "/", child->name, NULL);
      struct stat st;

      if (child->type == DT_DIR)
        {
          if (names_only)
            {
              smprof_listing_take (listing, g_steal_pointer (&child_relative), SMPROF_LISTING_FOLDER, 0);
              continue;
            }
          if (list_interval_folder_at (listing, options->stats_only, fd, child->name, child_relative))
            continue;
        }

      if (fstatat (fd, child->name, &st, 0) != 0)
        {
          int saved_errno = errno;

          smprof_listing_add_problem (listing, child_relative, g_strerror (saved_errno));
          continue;
        }

      if (!S_ISDIR (st.st_mode))
        smprof_listing_add_full (listing, child_relative, SMPROF_LISTING_FILE, st.st_size,
                                 _smprof_local_source_version (&st));
      else if (names_only)
        smprof_listing_add (listing, child_relative, SMPROF_LISTING_FOLDER, 0);
      else if (!list_interval_folder_at (listing, options->stats_only, fd, child->name, child_relative))
        list_interval_folder (self, listing, child_relative);
    }
}

/* A node folder listed in full, split into runs of entries. */
typedef struct
{
  SmprofLocalSource          *self;
  const SmprofListingOptions *options;
  SmprofListing             **listings;   /* one per run */
  int                         fd;
  const char                 *relative;
  GArray                     *names;
  guint                       n_parts;
  GCancellable               *cancellable;
} NodeParts;

static void
list_node_part (guint    p,
                gpointer data)
{
  NodeParts *parts = data;

  list_node_entries (parts->self, parts->options, parts->listings[p], parts->fd, parts->relative, parts->names,
                     (guint) ((guint64) parts->names->len * p / parts->n_parts),
                     (guint) ((guint64) parts->names->len * (p + 1) / parts->n_parts),
                     FALSE, parts->cancellable);
}

/* Below this many entries a node folder is not worth a thread. */
#define MIN_SPLIT_ENTRIES 512

/* Lists the node folder @relative: its interval folders with the files in
 * them (only their stats files with @options' stats_only), or, with
 * @names_only (SmprofListingOptions.names_only), the interval folders
 * by name without looking into them, so that a job can choose the few node
 * folders it needs in full from a listing of all of them that costs one
 * getdents64() pass per node folder. Files and folders of other types are
 * listed the same either way. Listed in full, a large folder is split into
 * @n_parts runs of entries listed on as many threads (when fewer node
 * folders than cores are listed in full, as for smdebug's "any" node), and
 * the runs are joined in order. */
void
_smprof_local_source_list_node_folder (SmprofLocalSource          *self,
                                       const SmprofListingOptions *options,
                                       SmprofListing              *listing,
                                       const char                 *relative,
                                       gboolean                    names_only,
                                       guint                       n_parts,
                                       GCancellable               *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GArray) names = NULL;
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    names = _smprof_local_source_read_sorted_fd (fd);

  if (names == NULL)
    {
      if (fd >= 0)
        close (fd);
      list_node_folder_by_path (self, listing, relative, cancellable);
      return;
    }

  if (names_only || n_parts < 2 || names->len < MIN_SPLIT_ENTRIES)
    list_node_entries (self, options, listing, fd, relative, names, 0, names->len, names_only, cancellable);
  else
    {
      g_autofree SmprofListing **listings = g_new0 (SmprofListing *, n_parts);
      NodeParts parts = { self, options, listings, fd, relative, names, n_parts, cancellable };

      /* The first run goes straight into @listing, the others after it. */
      listings[0] = listing;
      for (guint p = 1; p < n_parts; p++)
        listings[p] = smprof_listing_new ();

      smprof_parallel_for ("smprof-list", n_parts, n_parts, list_node_part, &parts, cancellable);

      for (guint p = 1; p < n_parts; p++)
        {
          g_ptr_array_extend_and_steal (listing->entries, g_steal_pointer (&listings[p]->entries));
          g_ptr_array_extend_and_steal (listing->problems, g_steal_pointer (&listings[p]->problems));
          g_free (listings[p]);
        }
    }

  close (fd);
}
