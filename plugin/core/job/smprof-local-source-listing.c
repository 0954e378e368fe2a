/* smprof-local-source-listing.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Listing a local job: from the scope down through the framework and
 * profiler folders to the node folders, which are listed in parallel (each
 * one by smprof-local-source-node.c), and the framework timelines. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

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

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Names sorted, so listings (and ties in the record order) do not depend on the
 * file system's order. */
GPtrArray *
_smprof_local_source_read_sorted_folder (const char  *path,
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
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GError) error = NULL;
  NodeBatch batch = { self, options, NULL, NULL, NULL, cancellable, 1 };
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
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (path, name, NULL);
      char *child_relative = g_strconcat (relative, "/", name, NULL);

      if (_smprof_local_source_is_directory (child))
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

      if (node_relative != NULL && !lists_names_only (options, node_relative))
        n_full++;
    }
  if (n_full > 0 && n_full < g_get_num_processors ())
    batch.n_parts = g_get_num_processors () / n_full;

  batch.nodes = nodes;
  batch.listings = g_new0 (SmprofListing *, MAX (nodes->len, 1));
  batch.to_cache = g_new0 (SmprofListing *, MAX (nodes->len, 1));
  for (guint i = 0; i < nodes->len; i++)
    batch.listings[i] = smprof_listing_new ();

  smprof_parallel_for ("smprof-list", nodes->len, g_get_num_processors (), list_node_at, &batch, cancellable);

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
list_framework_folder (SmprofLocalSource          *self,
                       const SmprofListingOptions *options,
                       SmprofListing              *listing,
                       const char                 *relative,
                       GCancellable               *cancellable)
{
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;

  names = _smprof_local_source_read_sorted_folder (path, &error);
  if (names == NULL)
    {
      _smprof_local_source_add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_autofree char *child_relative = g_strconcat (relative, "/", name, NULL);

      if (is_profiler_folder_name (name) && _smprof_local_source_is_directory (child))
        list_profiler_folder (self, options, listing, child_relative, cancellable);
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

  hours = _smprof_local_source_read_sorted_folder (path, &error);
  if (hours == NULL)
    {
      _smprof_local_source_add_io_problem (listing, relative, error);
      return;
    }

  for (guint i = 0; i < hours->len; i++)
    {
      const char *hour = g_ptr_array_index (hours, i);
      g_autofree char *hour_path = g_build_filename (path, hour, NULL);
      g_autofree char *hour_relative = g_strconcat (relative, "/", hour, NULL);
      g_autoptr(GPtrArray) names = NULL;

      if (!_smprof_local_source_is_directory (hour_path))
        continue;

      names = _smprof_local_source_read_sorted_folder (hour_path, &error);
      if (names == NULL)
        {
          _smprof_local_source_add_io_problem (listing, hour_relative, error);
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
        g_autoptr(GPtrArray) names = _smprof_local_source_read_sorted_folder (path, error);

        if (names == NULL)
          return FALSE;

        for (guint i = 0; i < names->len; i++)
          {
            const char *name = g_ptr_array_index (names, i);
            g_autofree char *child = g_build_filename (path, name, NULL);
            g_autofree char *child_relative = g_strconcat (self->scope, "/", name, NULL);

            if (!_smprof_local_source_is_directory (child))
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
