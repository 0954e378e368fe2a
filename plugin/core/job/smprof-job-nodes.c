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
 * The node folders are listed by name first (one read of each profiler
 * folder), then those of the nodes asked for in full, and nothing of the
 * others: reading their interval folders' names would cost as much as the
 * listing of the node asked for. */

/* The node folder of @path (framework/<framework>/<profiler>/<node>, alone
 * as a folder listed by name, or with more parts after it), its length in
 * @path, and the node id in @node_id; 0 when @path is neither. */
static gsize
node_folder_length (const char              *path,
                    SmprofListingKind        kind,
                    const char             **node_id,
                    gsize                   *node_id_length)
{
  const char *slash = path;
  const char *starts[4];
  const char *end;

  /* the starts of the first four parts */
  for (guint part = 0; part < 4; part++)
    {
      if (slash == NULL)
        return 0;
      starts[part] = slash;
      slash = strchr (slash, '/');
      if (slash != NULL)
        slash++;
    }

  if (strncmp (starts[0], "framework/", strlen ("framework/")) != 0 ||
      strncmp (starts[1], "pevents/", strlen ("pevents/")) == 0)
    return 0;

  /* a fifth part follows, or the path is a node folder listed by name */
  if (slash != NULL)
    end = slash - 1;
  else if (kind == SMPROF_LISTING_FOLDER)
    end = starts[3] + strlen (starts[3]);
  else
    return 0;

  *node_id = starts[3];
  *node_id_length = end - starts[3];
  return end - path;
}

/**
 * smprof_job_load_for_nodes:
 * @self: a job
 * @node_ids: (array zero-terminated=1): the nodes a query asks for
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * As smprof_job_load(), for a query on @node_ids alone: the records indexed
 * are those of the node folders of @node_ids; the other node folders are
 * not looked into, and give neither a record nor a problem. When a node of
 * @node_ids has no folder, the whole job is indexed, so that the caller can
 * say which nodes there are.
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
  g_autoptr(GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) found = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(SmprofListing) nodes = smprof_listing_new ();
  g_autoptr(SmprofListing) listing = smprof_listing_new ();
  g_autoptr(GString) node_id = g_string_new (NULL);
  SmprofListingOptions nodes_options = { .stats_only = TRUE, .nodes_only = TRUE };
  SmprofListingOptions options = { .stats_only = TRUE, .names_only = TRUE, .full_nodes = full,
                                   .full_nodes_only = TRUE };

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (node_ids != NULL, FALSE);

  for (guint i = 0; node_ids[i] != NULL; i++)
    g_hash_table_add (wanted, (gpointer) node_ids[i]);

  if (!smprof_source_list (self->source, &nodes_options, nodes, cancellable, error))
    return FALSE;

  /* A source may list more than the node folders (S3, from a cached
   * listing): a node folder is then known by the files in it. */
  for (guint i = 0; i < nodes->entries->len; i++)
    {
      SmprofListingEntry *entry = g_ptr_array_index (nodes->entries, i);
      const char *id, *wanted_id;
      gsize id_length;
      gsize length = node_folder_length (entry->path, entry->kind, &id, &id_length);

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

  if (self->index != NULL)
    _smprof_job_index_read_ahead (self->index, full);

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
