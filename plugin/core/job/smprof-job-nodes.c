/* smprof-job-nodes.c: indexing only the node folders of the nodes a query
 * names, or only the names of the node folders
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-job-private.h"

/* A query on named nodes (`--node 0-algo-1`) needs the stats files of those
 * node folders alone, but a full listing probes every interval folder of
 * every node for its stats file: on an 8-node job, eight times the probes.
 * Node folders are listed by the names of their interval folders first (one
 * read of each node folder), then those of the nodes asked for in full. */

/* The node folder of @path (framework/<framework>/<profiler>/<node>/...),
 * its length in @path, and the node id in @node_id; 0 when @path is no
 * interval folder or file of a node folder. */
static gsize
node_folder_length (const char  *path,
                    const char **node_id,
                    gsize       *node_id_length)
{
  const char *slash = path;
  const char *starts[4];

  /* the starts of the first four parts, and a fifth must follow */
  for (guint part = 0; part < 4; part++)
    {
      starts[part] = slash;
      slash = strchr (slash, '/');
      if (slash == NULL)
        return 0;
      slash++;
    }

  if (strncmp (starts[0], "framework/", strlen ("framework/")) != 0 ||
      strncmp (starts[1], "pevents/", strlen ("pevents/")) == 0)
    return 0;

  *node_id = starts[3];
  *node_id_length = (slash - 1) - starts[3];
  return (slash - 1) - path;
}

/**
 * smprof_job_load_for_nodes:
 * @self: a job
 * @node_ids: (array zero-terminated=1): the nodes a query asks for
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * As smprof_job_load(), for a query on @node_ids alone: the records indexed
 * are those of the node folders of @node_ids; the others are listed by the
 * names of their interval folders and give no record (nor a problem about
 * their files). When a node of @node_ids has no folder, the whole job is
 * indexed, so that the caller can say which nodes there are.
 *
 * Returns: %TRUE on success
 */
gboolean
smprof_job_load_for_nodes (SmprofJob           *self,
                           const char * const  *node_ids,
                           GCancellable        *cancellable,
                           GError             **error)
{
  g_autoptr(GHashTable) full = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) names_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             (GDestroyNotify) smprof_listing_free);
  g_autoptr(GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) found = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(SmprofListing) names = smprof_listing_new ();
  g_autoptr(SmprofListing) listing = smprof_listing_new ();
  g_autoptr(GString) node_id = g_string_new (NULL);
  SmprofListingOptions options = { .stats_only = TRUE, .names_only = TRUE, .full_nodes = full,
                                   .names_cache = names_cache };

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (node_ids != NULL, FALSE);

  for (guint i = 0; node_ids[i] != NULL; i++)
    g_hash_table_add (wanted, (gpointer) node_ids[i]);

  if (!smprof_source_list (self->source, &options, names, cancellable, error))
    return FALSE;

  for (guint i = 0; i < names->entries->len; i++)
    {
      SmprofListingEntry *entry = g_ptr_array_index (names->entries, i);
      const char *id, *wanted_id;
      gsize id_length;
      gsize length = node_folder_length (entry->path, &id, &id_length);

      if (length == 0)
        continue;
      g_string_overwrite_len (g_string_truncate (node_id, 0), 0, id, id_length);
      wanted_id = g_hash_table_lookup (wanted, node_id->str);
      if (wanted_id == NULL)
        continue;
      g_hash_table_add (found, (gpointer) wanted_id);
      {
        g_autofree char *folder = g_strndup (entry->path, length);

        if (!g_hash_table_contains (full, folder))
          g_hash_table_add (full, g_steal_pointer (&folder));
      }
    }

  if (g_hash_table_size (found) < g_hash_table_size (wanted))
    return smprof_job_load (self, cancellable, error);

  if (!smprof_source_list (self->source, &options, listing, cancellable, error))
    return FALSE;
  _smprof_job_index_listing (self, listing);

  return TRUE;
}

/**
 * smprof_job_load_node_names:
 * @self: a job
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * As smprof_job_load(), for smprof_job_dup_node_ids() and
 * smprof_job_has_profiler() alone: the node folders are listed by name
 * (#SmprofListingOptions.nodes_only), nothing inside them is looked at, and
 * a profiler's node ids are the names of the node folders in its folders
 * (`cprofile/`, `pyinstrument/`). For a job smdebug wrote those are its
 * records' node ids; a node folder without a stats file counts all the same,
 * and nothing is reported about what the node folders hold. A source that
 * lists more (S3, from a cached listing) gives records too, whose node ids
 * count as well.
 *
 * Returns: %TRUE on success
 */
gboolean
smprof_job_load_node_names (SmprofJob     *self,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(SmprofListing) listing = smprof_listing_new ();
  SmprofListingOptions options = { .stats_only = TRUE, .nodes_only = TRUE };

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);

  if (!smprof_source_list (self->source, &options, listing, cancellable, error))
    return FALSE;

  _smprof_job_index_listing (self, listing);

  return TRUE;
}
