/* smprof-job-any.c: indexing only the node folders smdebug's "any" node needs
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-job-private.h"

/* smdebug's "any" node is the node of the first record in record order (start
 * time, then node id). Finding it from a full listing costs a probe of every
 * interval folder of every node for its stats file, which for a large job is
 * as long as reading the chosen node's stats. Interval folder names give each
 * node folder a lower bound of its records' start times for the cost of
 * reading the node folder alone, so node folders are listed in full only
 * while one of them could still hold a record earlier than the earliest found
 * so far; then every folder of the chosen node id is listed in full, and the
 * rest stays listed by name. */

typedef struct
{
  const char *node_id;     /* in the key of NodeChooser.folders */
  double      first_us;    /* the earliest start of its well-named interval folders, or +inf */
  gboolean    valid_utf8;
  gboolean    has_interval; /* a well-named interval folder */
  guint       round;       /* the listing that first listed it by name */
} NodeFolder;

typedef struct
{
  const char *target;      /* the stats file name of the profiler asked for */
  GHashTable *folders;     /* node folder path -> NodeFolder, once listed by name */
  GHashTable *full;        /* node folder paths to list in full */
  gboolean    listed_some; /* some node folder was listed in full already */
  guint       round;       /* listings made so far */
} NodeChooser;

typedef struct
{
  double      start_us;
  const char *node_id;
} RecordKey;

/* record order: compare_record_order() in smprof-job.c */
static int
compare_keys (const RecordKey *a,
              const RecordKey *b)
{
  if (a->start_us != b->start_us)
    return a->start_us < b->start_us ? -1 : 1;

  return strcmp (a->node_id, b->node_id);
}

/* Splits framework/<framework>/<profiler>/<node>/<interval>[/<file>] into
 * @parts (the string is modified); returns the number of parts, at most 7
 * counted. */
static guint
split_path (char        *path,
            const char **parts)
{
  guint n_parts = 1;

  parts[0] = path;
  for (char *c = path; *c != '\0'; c++)
    if (*c == '/')
      {
        *c = '\0';
        if (n_parts < 6)
          parts[n_parts] = c + 1;
        if (n_parts < 7)
          n_parts++;
      }

  return n_parts;
}

/* One pass over a listing: the node folders listed by name are collected in
 * @names_only (their earliest start read from the names the first time), and
 * the earliest record of the profiler asked for among those listed in full
 * goes to @best. */
static void
scan_listing (NodeChooser   *chooser,
              SmprofListing *listing,
              GPtrArray     *names_only,
              RecordKey     *best,
              GString       *scratch)
{
  const char *parts[6];
  char *last = NULL;            /* the last entry's node folder, a key of chooser->folders */
  NodeFolder *last_folder = NULL;

  for (guint i = 0; i < listing->entries->len; i++)
    {
      SmprofListingEntry *entry = g_ptr_array_index (listing->entries, i);
      SmprofIntervalName name;
      guint n_parts;

      g_string_assign (scratch, entry->path);
      n_parts = split_path (scratch->str, parts);

      /* As index_entry() reads them: what can be a record, or an interval
       * folder of a node folder listed by name. */
      if (n_parts < 5 || strcmp (parts[0], "framework") != 0 || strcmp (parts[1], "pevents") == 0)
        continue;

      if (entry->kind == SMPROF_LISTING_FOLDER && n_parts == 5)
        {
          gsize node_length = parts[3] - parts[0] + strlen (parts[3]);

          /* a node folder's entries come together */
          if (last == NULL || strlen (last) != node_length || strncmp (last, entry->path, node_length) != 0)
            {
              g_autofree char *node_path = g_strndup (entry->path, node_length);

              if (!g_hash_table_lookup_extended (chooser->folders, node_path,
                                                 (gpointer *) &last, (gpointer *) &last_folder))
                {
                  last = g_steal_pointer (&node_path);
                  last_folder = g_new0 (NodeFolder, 1);
                  last_folder->node_id = last + (parts[3] - parts[0]);
                  last_folder->first_us = INFINITY;
                  last_folder->valid_utf8 = g_utf8_validate (parts[3], -1, NULL);
                  last_folder->round = chooser->round;
                  g_hash_table_insert (chooser->folders, last, last_folder);
                }
              g_ptr_array_add (names_only, last);
            }

          if (last_folder->round == chooser->round && last_folder->valid_utf8 &&
              smprof_interval_name_parse (parts[4], &name, NULL))
            {
              last_folder->first_us = MIN (last_folder->first_us, name.start_time_us);
              last_folder->has_interval = TRUE;
            }
          continue;
        }

      if (entry->kind != SMPROF_LISTING_FILE || n_parts != 6 || strcmp (parts[5], chooser->target) != 0 ||
          !g_utf8_validate (parts[3], -1, NULL) || !smprof_interval_name_parse (parts[4], &name, NULL))
        continue;

      {
        RecordKey key = { name.start_time_us, parts[3] };

        if (best->node_id == NULL || compare_keys (&key, best) < 0)
          {
            /* parts[3] lives in @scratch, which the next entry overwrites */
            g_free ((char *) best->node_id);
            best->start_us = key.start_us;
            best->node_id = g_strdup (parts[3]);
          }
      }
    }
}

/* Adds to chooser->full the node folders the next listing needs in full;
 * returns %FALSE when none: the listing just made answers the question. */
static gboolean
choose_full_nodes (NodeChooser *chooser,
                   GPtrArray   *names_only,
                   RecordKey   *best)
{
  const char *earliest = NULL;
  NodeFolder *earliest_folder = NULL;
  gboolean more = FALSE;

  for (guint i = 0; i < names_only->len; i++)
    {
      const char *path = g_ptr_array_index (names_only, i);
      NodeFolder *folder = g_hash_table_lookup (chooser->folders, path);
      RecordKey key = { folder->first_us, folder->node_id };

      /* The index reports each entry of a node folder whose name is not
       * UTF-8: listed in full, the same entries as smprof_job_load(). */
      if (!folder->valid_utf8)
        {
          more |= g_hash_table_add (chooser->full, g_strdup (path));
          continue;
        }

      if (!folder->has_interval)
        continue;

      /* Every folder of the chosen node id holds records of the query. */
      if (best->node_id != NULL && strcmp (folder->node_id, best->node_id) == 0)
        {
          more |= g_hash_table_add (chooser->full, g_strdup (path));
          continue;
        }

      /* Nothing found in the node folder listed in full for it: the
       * profiler asked for is rare in this job (or absent), so every node
       * folder that may hold a record is listed in full. */
      if (best->node_id == NULL && chooser->listed_some)
        {
          more |= g_hash_table_add (chooser->full, g_strdup (path));
          continue;
        }

      if (earliest_folder == NULL ||
          compare_keys (&key, &(RecordKey) { earliest_folder->first_us, earliest_folder->node_id }) < 0)
        {
          earliest = path;
          earliest_folder = folder;
        }
    }

  if (earliest != NULL && !g_hash_table_contains (chooser->full, earliest) &&
      (best->node_id == NULL ||
       compare_keys (&(RecordKey) { earliest_folder->first_us, earliest_folder->node_id }, best) <= 0))
    {
      g_hash_table_add (chooser->full, g_strdup (earliest));
      chooser->listed_some = TRUE;
      more = TRUE;
    }

  return more;
}

/**
 * smprof_job_load_for_any_node:
 * @self: a job
 * @profiler: (nullable): the profiler the query is about, or %NULL for the
 *   command line's default (cProfile when the job has cProfile records,
 *   otherwise Pyinstrument)
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * smprof_job_load() for a query on smdebug's "any" node: the records of that
 * node are the same, in the same order, and the first record of @profiler is
 * the same, but other nodes may be missing, and the interval folders of those
 * are not looked into (their names are still checked, so malformed names are
 * reported as problems; folders without stats are not). With a source that
 * cannot list node folders by name, this is smprof_job_load().
 *
 * Returns: %TRUE on success
 */
gboolean
smprof_job_load_for_any_node (SmprofJob             *self,
                              const SmprofProfiler  *profiler,
                              GCancellable          *cancellable,
                              GError               **error)
{
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) full = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) names_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             (GDestroyNotify) smprof_listing_free);
  g_autoptr(GString) scratch = g_string_new (NULL);
  NodeChooser chooser = { NULL, folders, full, FALSE, 0 };

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);

  chooser.target = profiler != NULL && *profiler == SMPROF_PROFILER_PYINSTRUMENT
                   ? "python_stats.json" : "python_stats";

  for (;;)
    {
      g_autoptr(SmprofListing) listing = smprof_listing_new ();
      g_autoptr(GPtrArray) names_only = g_ptr_array_new ();
      SmprofListingOptions options = { .stats_only = TRUE, .names_only = TRUE, .full_nodes = full,
                                       .names_cache = names_cache };
      RecordKey best = { 0, NULL };
      gboolean more;

      if (!smprof_source_list (self->source, &options, listing, cancellable, error))
        return FALSE;

      chooser.round++;
      scan_listing (&chooser, listing, names_only, &best, scratch);
      more = choose_full_nodes (&chooser, names_only, &best);
      g_free ((char *) best.node_id);

      if (!more)
        {
          _smprof_job_index_listing (self, listing);
          return TRUE;
        }
    }
}
