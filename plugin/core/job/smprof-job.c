/* smprof-job.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-job-private.h"

G_DEFINE_FINAL_TYPE (SmprofJob, smprof_job, G_TYPE_OBJECT)

#define CPROFILE_FILE     "python_stats"
#define PYINSTRUMENT_FILE "python_stats.json"
#define PYINSTRUMENT_HTML "python_stats.html"

static void
record_stats_clear (gpointer data)
{
  SmprofRecordStats *stats = data;

  g_clear_pointer (&stats->pstats, smprof_pstats_free);
  g_clear_pointer (&stats->session, smprof_pyinstrument_session_free);
}

/* Takes @pstats or @session. */
SmprofRecordStats *
_smprof_record_stats_new (SmprofPstats              *pstats,
                          SmprofPyinstrumentSession *session)
{
  SmprofRecordStats *stats = g_atomic_rc_box_new0 (SmprofRecordStats);

  stats->pstats = pstats;
  stats->session = session;

  return stats;
}

void
_smprof_record_stats_unref (SmprofRecordStats *stats)
{
  g_atomic_rc_box_release_full (stats, record_stats_clear);
}

/* Gives @record the stats @stats owns (taking the reference), visible to
 * another thread's _smprof_record_dup_stats() once this returns: a refresh
 * may look at a record while a worker reads its file. */
void
_smprof_record_publish_stats (SmprofRecord      *record,
                              SmprofRecordStats *stats)
{
  record->pstats = stats->pstats;
  record->session = stats->session;
  g_atomic_pointer_set (&record->stats, stats);
}

/* Forgets @record's stats, so that they are freed once nobody else holds
 * them; a later load reads the file again. Only for a record no other thread
 * is reading or using (smprof_job_fold_stats()). */
void
_smprof_record_drop_stats (SmprofRecord *record)
{
  SmprofRecordStats *stats = record->stats;

  if (stats == NULL)
    return;

  g_atomic_pointer_set (&record->stats, NULL);
  record->pstats = NULL;
  record->session = NULL;
  _smprof_record_stats_unref (stats);
}

/* A reference to @record's stats, or NULL if it has none (yet). */
SmprofRecordStats *
_smprof_record_dup_stats (SmprofRecord *record)
{
  SmprofRecordStats *stats = g_atomic_pointer_get (&record->stats);

  return stats != NULL ? g_atomic_rc_box_acquire (stats) : NULL;
}

static void
shared_keys_clear (gpointer data)
{
  g_clear_pointer (&((SmprofSharedKeys *) data)->keys, smprof_function_keys_free);
}

/* Makes @self intern into @previous's function keys, before it has any. */
void
_smprof_job_share_keys (SmprofJob *self,
                        SmprofJob *previous)
{
  g_assert (smprof_function_keys_get_size (self->function_keys) == 0);

  g_atomic_rc_box_release_full (self->shared_keys, shared_keys_clear);
  self->shared_keys = g_atomic_rc_box_acquire (previous->shared_keys);
  self->function_keys = self->shared_keys->keys;
}

static void
shared_keys_release (SmprofSharedKeys *shared_keys)
{
  g_atomic_rc_box_release_full (shared_keys, shared_keys_clear);
}

static void
smprof_job_finalize (GObject *object)
{
  SmprofJob *self = SMPROF_JOB (object);

  for (guint i = 0; i < SMPROF_N_PROFILERS; i++)
    {
      g_clear_pointer (&self->records[i], g_ptr_array_unref);
      g_clear_pointer (&self->node_folders[i], g_ptr_array_unref);
      g_clear_pointer (&self->node_ids[i], g_strfreev);
    }
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->index, _smprof_job_index_free);
  _smprof_job_clear_step_events (self);
  self->function_keys = NULL;
  g_clear_pointer (&self->shared_keys, shared_keys_release);
  g_clear_pointer (&self->names, g_string_chunk_free);
  g_clear_pointer (&self->record_store, _smprof_record_store_unref);
  g_clear_object (&self->source);
  g_mutex_clear (&self->problems_lock);
  g_mutex_clear (&self->node_ids_lock);
  g_clear_pointer (&self->stats_loading, g_hash_table_unref);
  g_mutex_clear (&self->stats_lock);
  g_cond_clear (&self->stats_cond);
  g_mutex_clear (&self->fold_lock);
  g_cond_clear (&self->fold_cond);

  G_OBJECT_CLASS (smprof_job_parent_class)->finalize (object);
}

static void
smprof_job_class_init (SmprofJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_job_finalize;
}

static void
smprof_job_init (SmprofJob *self)
{
  g_mutex_init (&self->problems_lock);
  g_mutex_init (&self->node_ids_lock);
  g_mutex_init (&self->stats_lock);
  g_cond_init (&self->stats_cond);
  g_mutex_init (&self->fold_lock);
  g_cond_init (&self->fold_cond);
  self->stats_loading = g_hash_table_new (NULL, NULL);
  self->shared_keys = g_atomic_rc_box_new0 (SmprofSharedKeys);
  self->shared_keys->keys = smprof_function_keys_new ();
  self->function_keys = self->shared_keys->keys;
  self->names = g_string_chunk_new (4096);
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_problem_free);
  self->record_store = _smprof_record_store_new ();
  for (guint i = 0; i < SMPROF_N_PROFILERS; i++)
    {
      self->records[i] = g_ptr_array_new_with_free_func (_smprof_record_release);
      self->node_folders[i] = g_ptr_array_new ();
    }
  self->timeline_paths = g_ptr_array_new_with_free_func (g_free);
}

/**
 * smprof_job_new:
 * @source: where the job's files are
 *
 * Returns: (transfer full): a job with nothing read yet; call smprof_job_load()
 */
SmprofJob *
smprof_job_new (SmprofSource *source)
{
  SmprofJob *self;

  g_return_val_if_fail (SMPROF_IS_SOURCE (source), NULL);

  self = g_object_new (SMPROF_TYPE_JOB, NULL);
  self->source = g_object_ref (source);

  return self;
}

void
_smprof_job_add_problem (SmprofJob  *self,
                         const char *path,
                         const char *message)
{
  g_autofree char *valid_path = g_utf8_make_valid (path, -1);

  g_mutex_lock (&self->problems_lock);
  g_ptr_array_add (self->problems, smprof_problem_new (valid_path, message));
  g_mutex_unlock (&self->problems_lock);
}

typedef enum
{
  INTERVAL_UNSEEN,
  INTERVAL_MALFORMED,
  INTERVAL_ONLY_HTML,
  INTERVAL_NO_STATS,
  INTERVAL_OK,
} IntervalState;

/* An interval folder as the listing gives it: a run of entries under one
 * folder (a listing gives a folder's files one after another). Jobs have
 * tens of thousands of interval folders, nearly all with their stats file:
 * a run costs a few bytes and no lookup. Only when some folder ends up
 * without stats are the runs of one folder merged (a source that listed a
 * folder in two places), to report each such folder once. */
typedef struct
{
  const char    *path;   /* the interval folder, relative to the job root, in Indexer.paths */
  IntervalState  state;
} IntervalRun;

typedef struct
{
  SmprofJob    *self;
  GArray       *runs;           /* IntervalRun, in listing order */
  GStringChunk *paths;          /* of the runs */
  GHashTable   *malformed;      /* interval folders whose names did not parse (owned keys) */
  GString      *parts;          /* the entry's path, its '/' turned into NULs */
  GString      *interval_path;  /* the entry's interval folder */
  const char   *framework;      /* the last record's, in self->record_store */
  const char   *node_id;        /* likewise */
} Indexer;

/* Listings come node by node: the last record's strings nearly always do. */
static const char *
intern_name (SmprofJob   *self,
             const char **last,
             const char  *name)
{
  if (*last == NULL || strcmp (*last, name) != 0)
    *last = _smprof_record_store_intern (self->record_store, name);

  return *last;
}

static IntervalRun *
add_run (Indexer       *indexer,
         const char    *interval_path,
         IntervalState  state)
{
  IntervalRun run = { g_string_chunk_insert (indexer->paths, interval_path), state };

  g_array_append_val (indexer->runs, run);
  return &g_array_index (indexer->runs, IntervalRun, indexer->runs->len - 1);
}

/* The run @interval_path continues, if it is the last one. */
static IntervalRun *
current_run (Indexer    *indexer,
             const char *interval_path)
{
  IntervalRun *last;

  if (indexer->runs->len == 0)
    return NULL;

  last = &g_array_index (indexer->runs, IntervalRun, indexer->runs->len - 1);
  return strcmp (last->path, interval_path) == 0 ? last : NULL;
}

/* A folder listed by name only (SMPROF_LISTING_FOLDER) is one entry, and
 * what it holds is not known, so nothing is reported about it later: it
 * needs no run (and costs none, for tens of thousands of them). A malformed
 * folder name is reported once for all the files listed in the folder. */
static gboolean
parse_interval (Indexer             *indexer,
                const char          *interval_path,
                const char          *interval,
                gboolean             names_only,
                SmprofIntervalName  *name,
                IntervalRun        **out_run)
{
  g_autoptr(GError) error = NULL;
  IntervalRun *run = names_only ? NULL : current_run (indexer, interval_path);

  if (run != NULL && run->state == INTERVAL_MALFORMED)
    return FALSE;
  if (run == NULL && !names_only && g_hash_table_size (indexer->malformed) > 0 &&
      g_hash_table_contains (indexer->malformed, interval_path))
    {
      add_run (indexer, interval_path, INTERVAL_MALFORMED);
      return FALSE;
    }

  if (!smprof_interval_name_parse (interval, name, &error))
    {
      g_autofree char *message = g_strdup_printf (_("malformed interval folder name, skipped: %s"),
                                                   error->message);

      _smprof_job_add_problem (indexer->self, interval_path, message);
      if (!names_only)
        {
          if (run == NULL)
            run = add_run (indexer, interval_path, INTERVAL_MALFORMED);
          run->state = INTERVAL_MALFORMED;
          g_hash_table_add (indexer->malformed, g_strdup (interval_path));
        }
      return FALSE;
    }

  if (run == NULL && !names_only)
    run = add_run (indexer, interval_path, INTERVAL_NO_STATS);

  *out_run = run;
  return TRUE;
}

static void
mark_interval (IntervalRun   *run,
               IntervalState  state)
{
  IntervalState current = run->state;

  if (current == INTERVAL_MALFORMED || current == INTERVAL_OK)
    return;
  if (state == INTERVAL_ONLY_HTML && current != INTERVAL_NO_STATS && current != INTERVAL_UNSEEN)
    return;

  run->state = state;
}

/* A node folder listed by name (SmprofListingOptions.nodes_only): its node
 * id, filed under the profiler its folder is named after; a record's
 * profiler comes from its file name, which in the folder of a profiler is
 * that profiler's. */
static void
index_node_folder (Indexer            *indexer,
                   SmprofListingEntry *entry,
                   const char * const *parts)
{
  SmprofJob *self = indexer->self;

  for (SmprofProfiler p = 0; p < SMPROF_N_PROFILERS; p++)
    if (strcmp (parts[2], smprof_profiler_to_string (p)) == 0)
      {
        if (!g_utf8_validate (parts[3], -1, NULL))
          _smprof_job_add_problem (self, entry->path, _("the node folder name is not valid UTF-8, skipped"));
        else
          g_ptr_array_add (self->node_folders[p], (gpointer) g_string_chunk_insert_const (self->names, parts[3]));
        return;
      }
}

/* Takes the entry's path for the record it makes. */
static void
index_entry (Indexer            *indexer,
             SmprofListingEntry *entry)
{
  SmprofJob *self = indexer->self;
  const char *parts[7] = { NULL };
  guint n_parts = 1;
  IntervalRun *interval;
  SmprofIntervalName name;
  SmprofProfiler profiler;
  SmprofRecord *record;

  /* g_strsplit (path, "/", 0) in place, keeping the first six parts. */
  g_string_assign (indexer->parts, entry->path);
  parts[0] = indexer->parts->str;
  for (char *c = indexer->parts->str; *c != '\0'; c++)
    if (*c == '/')
      {
        *c = '\0';
        if (n_parts < G_N_ELEMENTS (parts))
          parts[n_parts] = c + 1;
        n_parts++;
      }

  /* framework/<framework>/<profiler>/<node>/<interval>/<file> */
  if (n_parts < 4 || strcmp (parts[0], "framework") != 0)
    return;

  /* The framework timelines are read apart: smprof_job_load_step_events(). */
  if (strcmp (parts[1], "pevents") == 0)
    {
      if (entry->kind == SMPROF_LISTING_FILE && smprof_pevents_is_timeline_path (entry->path))
        g_ptr_array_add (self->timeline_paths, g_steal_pointer (&entry->path));
      return;
    }

  if (n_parts == 4 && entry->kind == SMPROF_LISTING_FOLDER)
    {
      index_node_folder (indexer, entry, parts);
      return;
    }

  if (n_parts == 4)
    {
      _smprof_job_add_problem (self, entry->path, _("a file where node folders belong, skipped"));
      return;
    }

  if (n_parts == 5 && entry->kind == SMPROF_LISTING_FILE)
    {
      _smprof_job_add_problem (self, entry->path, _("a file where interval folders belong, skipped"));
      return;
    }

  if (!g_utf8_validate (parts[3], -1, NULL))
    {
      _smprof_job_add_problem (self, entry->path, _("the node folder name is not valid UTF-8, skipped"));
      return;
    }

  /* The first five parts, as they were. */
  g_string_truncate (indexer->interval_path, 0);
  g_string_append_len (indexer->interval_path, entry->path, parts[4] + strlen (parts[4]) - parts[0]);
  if (!parse_interval (indexer, indexer->interval_path->str, parts[4], entry->kind == SMPROF_LISTING_FOLDER,
                       &name, &interval))
    return;

  if (n_parts != 6 || entry->kind != SMPROF_LISTING_FILE)
    return;

  if (strcmp (parts[5], CPROFILE_FILE) == 0)
    profiler = SMPROF_PROFILER_CPROFILE;
  else if (strcmp (parts[5], PYINSTRUMENT_FILE) == 0)
    profiler = SMPROF_PROFILER_PYINSTRUMENT;
  else
    {
      /* smdebug skips unknown files too; the HTML page is a second rendering of
       * the JSON and is never read. */
      if (strcmp (parts[5], PYINSTRUMENT_HTML) == 0)
        mark_interval (interval, INTERVAL_ONLY_HTML);
      return;
    }

  mark_interval (interval, INTERVAL_OK);

  record = _smprof_record_store_add (self->record_store);
  record->profiler = profiler;
  /* As in smdebug's local reader, the profiler comes from the file name; the
   * framework is the folder two levels above the node folder. */
  record->framework = intern_name (self, &indexer->framework, parts[1]);
  record->node_id = intern_name (self, &indexer->node_id, parts[3]);
  record->name = name;
  record->interval = _smprof_record_store_add_string (self->record_store, parts[4]);
  /* The listing made it: a copy would only add to the heap. */
  record->path = g_steal_pointer (&entry->path);
  record->size = entry->size;
  record->version = entry->version;
  g_ptr_array_add (self->records[profiler], record);
}

static int
compare_record_order (gconstpointer a,
                      gconstpointer b)
{
  const SmprofRecord *x = *(SmprofRecord * const *) a;
  const SmprofRecord *y = *(SmprofRecord * const *) b;

  if (x->name.start_time_us != y->name.start_time_us)
    return x->name.start_time_us < y->name.start_time_us ? -1 : 1;

  return strcmp (x->node_id, y->node_id);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The state of a folder listed in two runs: its stats file in either makes
 * it good; otherwise the more telling problem. */
static IntervalState
merge_states (IntervalState a,
              IntervalState b)
{
  static const IntervalState precedence[] = { INTERVAL_OK, INTERVAL_MALFORMED, INTERVAL_ONLY_HTML,
                                              INTERVAL_NO_STATS };

  for (guint i = 0; i < G_N_ELEMENTS (precedence); i++)
    if (a == precedence[i] || b == precedence[i])
      return precedence[i];

  return a;
}

static gboolean
is_without_stats (IntervalState state)
{
  return state == INTERVAL_NO_STATS || state == INTERVAL_ONLY_HTML;
}

static void
report_intervals_without_stats (Indexer *indexer)
{
  g_autoptr(GHashTable) merged = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  GHashTableIter iter;
  gpointer key, value;
  gboolean any = FALSE;

  for (guint i = 0; i < indexer->runs->len && !any; i++)
    any = is_without_stats (g_array_index (indexer->runs, IntervalRun, i).state);
  if (!any)
    return;

  /* path -> state + 1 */
  merged = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < indexer->runs->len; i++)
    {
      const IntervalRun *run = &g_array_index (indexer->runs, IntervalRun, i);
      gpointer known = g_hash_table_lookup (merged, run->path);
      IntervalState state = known != NULL ? merge_states (GPOINTER_TO_UINT (known) - 1, run->state) : run->state;

      g_hash_table_insert (merged, (gpointer) run->path, GUINT_TO_POINTER (state + 1));
    }

  paths = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, merged);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (is_without_stats (GPOINTER_TO_UINT (value) - 1))
      g_ptr_array_add (paths, key);

  g_ptr_array_sort (paths, compare_strings);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      IntervalState state = GPOINTER_TO_UINT (g_hash_table_lookup (merged, path)) - 1;

      _smprof_job_add_problem (indexer->self, path,
                               state == INTERVAL_ONLY_HTML
                               ? _("holds only python_stats.html, without the python_stats.json it renders; skipped")
                               : _("an interval folder without python_stats or python_stats.json; skipped"));
    }
}

/**
 * smprof_job_load:
 * @self: a job
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Lists the source and builds the index. Only a source that cannot be listed
 * at all is an error; a bad folder or file becomes a problem and is skipped.
 * Stats files are read later, by smprof_job_load_stats(), for what a query needs.
 *
 * Returns: %TRUE on success
 */
gboolean
smprof_job_load (SmprofJob     *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(SmprofListing) listing = smprof_listing_new ();
  /* The index reads nothing but the stats files from a folder that has one. */
  SmprofListingOptions options = { .stats_only = TRUE };

  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);

  if (!smprof_source_list (self->source, &options, listing, cancellable, error))
    return FALSE;

  _smprof_job_index_listing (self, listing);

  return TRUE;
}

/* Builds the index from @listing, taking the paths of its entries. */
void
_smprof_job_index_listing (SmprofJob     *self,
                           SmprofListing *listing)
{
  Indexer indexer = { self, NULL, NULL, NULL, NULL, NULL, NULL, NULL };

  for (guint i = 0; i < listing->problems->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (listing->problems, i);

      _smprof_job_add_problem (self, problem->path, problem->message);
    }

  indexer.runs = g_array_new (FALSE, FALSE, sizeof (IntervalRun));
  indexer.paths = g_string_chunk_new (64 * 1024);
  indexer.malformed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  indexer.parts = g_string_new (NULL);
  indexer.interval_path = g_string_new (NULL);
  for (guint i = 0; i < listing->entries->len; i++)
    index_entry (&indexer, g_ptr_array_index (listing->entries, i));
  report_intervals_without_stats (&indexer);
  g_array_unref (indexer.runs);
  g_string_chunk_free (indexer.paths);
  g_hash_table_unref (indexer.malformed);
  g_string_free (indexer.parts, TRUE);
  g_string_free (indexer.interval_path, TRUE);

  for (guint p = 0; p < SMPROF_N_PROFILERS; p++)
    {
      g_ptr_array_sort (self->records[p], compare_record_order);
      for (guint i = 0; i < self->records[p]->len; i++)
        ((SmprofRecord *) g_ptr_array_index (self->records[p], i))->order = i;
    }
}

SmprofSource *
smprof_job_get_source (SmprofJob *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB (self), NULL);

  return self->source;
}

/**
 * smprof_job_set_index_cache:
 * @self: a job
 * @cache: (nullable): where parsed stats are kept between runs, or %NULL
 *   for none (the default)
 *
 * From now on, smprof_job_load_stats() takes from @cache the cProfile stats
 * of every interval whose stats file is unchanged since it was cached, and
 * writes to it what it had to parse. Answers are the same either way, bit
 * for bit. Call it before loading stats.
 */
void
smprof_job_set_index_cache (SmprofJob        *self,
                            SmprofIndexCache *cache)
{
  g_autofree char *location = NULL;

  g_return_if_fail (SMPROF_IS_JOB (self));
  g_return_if_fail (cache == NULL || SMPROF_IS_INDEX_CACHE (cache));

  g_clear_pointer (&self->index, _smprof_job_index_free);
  if (cache == NULL)
    return;

  location = smprof_source_dup_location (self->source);
  self->index = _smprof_job_index_new (cache, location);
}

/**
 * smprof_job_get_index_cache:
 * @self: a job
 *
 * Returns: (transfer none) (nullable): the cache smprof_job_set_index_cache() gave
 */
SmprofIndexCache *
smprof_job_get_index_cache (SmprofJob *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB (self), NULL);

  return self->index != NULL ? _smprof_job_index_get_cache (self->index) : NULL;
}

void
_smprof_job_get_index_counts (SmprofJob            *self,
                              SmprofJobIndexCounts *counts)
{
  memset (counts, 0, sizeof *counts);
  if (self->index != NULL)
    _smprof_job_index_get_counts (self->index, counts);
}

SmprofFunctionKeys *
smprof_job_get_function_keys (SmprofJob *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB (self), NULL);

  return self->function_keys;
}

/**
 * smprof_job_get_records:
 * @self: a job
 * @profiler: which profiler's records
 *
 * Returns: (transfer none) (element-type SmprofRecord): the records in
 *   smdebug's order: start time, then node id
 */
GPtrArray *
smprof_job_get_records (SmprofJob      *self,
                        SmprofProfiler  profiler)
{
  g_return_val_if_fail (SMPROF_IS_JOB (self), NULL);
  g_return_val_if_fail (profiler < SMPROF_N_PROFILERS, NULL);

  return self->records[profiler];
}

gboolean
smprof_job_has_profiler (SmprofJob      *self,
                         SmprofProfiler  profiler)
{
  g_return_val_if_fail (SMPROF_IS_JOB (self), FALSE);
  g_return_val_if_fail (profiler < SMPROF_N_PROFILERS, FALSE);

  return self->records[profiler]->len > 0 || self->node_folders[profiler]->len > 0;
}

/**
 * smprof_job_dup_node_ids:
 * @self: a job
 * @profiler: which profiler
 *
 * Returns: (transfer full): the node ids of @profiler's records (and of its
 *   node folders, loaded by smprof_job_load_node_names()), sorted
 */
static char **
list_node_ids (SmprofJob      *self,
               SmprofProfiler  profiler)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  GPtrArray *records = self->records[profiler];
  const char *last = NULL;

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      /* Runs of one node share the string: skip the hash for them. */
      if (record->node_id == last)
        continue;
      last = record->node_id;
      if (g_hash_table_add (seen, (gpointer) record->node_id))
        g_ptr_array_add (ids, g_strdup (record->node_id));
    }
  for (guint i = 0; i < self->node_folders[profiler]->len; i++)
    {
      const char *node_id = g_ptr_array_index (self->node_folders[profiler], i);

      if (g_hash_table_add (seen, (gpointer) node_id))
        g_ptr_array_add (ids, g_strdup (node_id));
    }

  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_add (ids, NULL);

  return (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
}

char **
smprof_job_dup_node_ids (SmprofJob      *self,
                         SmprofProfiler  profiler)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (SMPROF_IS_JOB (self), NULL);
  g_return_val_if_fail (profiler < SMPROF_N_PROFILERS, NULL);

  locker = g_mutex_locker_new (&self->node_ids_lock);
  if (self->node_ids[profiler] == NULL ||
      self->node_ids_n_records[profiler] != self->records[profiler]->len ||
      self->node_ids_n_folders[profiler] != self->node_folders[profiler]->len)
    {
      g_strfreev (self->node_ids[profiler]);
      self->node_ids[profiler] = list_node_ids (self, profiler);
      self->node_ids_n_records[profiler] = self->records[profiler]->len;
      self->node_ids_n_folders[profiler] = self->node_folders[profiler]->len;
    }

  return g_strdupv (self->node_ids[profiler]);
}

/**
 * smprof_job_dup_problems:
 * @self: a job
 *
 * Returns: (transfer container) (element-type SmprofProblem): what was skipped
 *   so far, in the order it was found
 */
GPtrArray *
smprof_job_dup_problems (SmprofJob *self)
{
  GPtrArray *copy;

  g_return_val_if_fail (SMPROF_IS_JOB (self), NULL);

  g_mutex_lock (&self->problems_lock);
  copy = g_ptr_array_new_full (self->problems->len, NULL);
  for (guint i = 0; i < self->problems->len; i++)
    g_ptr_array_add (copy, g_ptr_array_index (self->problems, i));
  g_mutex_unlock (&self->problems_lock);

  return copy;
}
