/* smprof-s3-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-aws-config.h"
#include "smprof-aws-credentials.h"
#include "smprof-pevents.h"
#include "smprof-s3-cache.h"
#include "smprof-s3-client.h"
#include "smprof-s3-error.h"
#include "smprof-s3-source-private.h"

#define LISTING_MAGIC "smprof-s3-listing 1"
#define CPROFILE_FILE "python_stats"
#define PYINSTRUMENT_FILE "python_stats.json"
#define PYINSTRUMENT_HTML "python_stats.html"

typedef struct
{
  char    *etag;
  guint64  size;
} ObjectInfo;

struct _SmprofS3Source
{
  GObject                parent_instance;

  char                  *bucket;
  char                  *prefix;       /* as given, without surrounding '/' */
  gboolean               refresh;      /* atomic */
  gboolean               anonymous;

  SmprofS3Client        *client;
  SmprofS3Cache         *cache;        /* NULL: nothing kept on disk */

  GMutex                 lock;         /* guards what follows, up to callback_lock */
  char                  *root;         /* the job root's key prefix, "" for the bucket's root */
  char                  *scope;        /* framework[/<fw>[/<profiler>]] */
  guint                  depth;        /* segments in scope */
  gboolean               resolved;
  GHashTable            *objects;      /* path -> ObjectInfo, from the listing */
  GHashTable            *handoff;      /* path -> GBytes prefetched but not cached */
  GHashTable            *failed;       /* path -> GError of a prefetch */
  GHashTable            *accounted;    /* paths counted as wanted */
  GHashTable            *done;         /* paths counted as fetched, cached or failed */
  SmprofS3Progress       progress;
  guint64                progress_seq; /* bumped on every change */
  guint                  n_busy;       /* lists, prefetches and lone fetches under way */

  GMutex                 callback_lock; /* guards the listener */
  guint64                delivered_seq;
  SmprofS3ProgressFunc   progress_func;
  gpointer               progress_data;
  GDestroyNotify         progress_destroy;

  GMainContext          *context;      /* where property notifications go */
  int                    notify_queued; /* atomic */
};

enum {
  PROP_0,
  PROP_OBJECTS_LISTED,
  PROP_BYTES_LISTED,
  PROP_OBJECTS_WANTED,
  PROP_BYTES_WANTED,
  PROP_OBJECTS_FETCHED,
  PROP_BYTES_FETCHED,
  PROP_OBJECTS_CACHED,
  PROP_OBJECTS_FAILED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void source_iface_init (SmprofSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SmprofS3Source, smprof_s3_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMPROF_TYPE_SOURCE, source_iface_init))

static void
object_info_free (gpointer data)
{
  ObjectInfo *info = data;

  g_free (info->etag);
  g_free (info);
}

static void
smprof_s3_source_finalize (GObject *object)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (object);

  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);

  g_clear_pointer (&self->bucket, g_free);
  g_clear_pointer (&self->prefix, g_free);
  g_clear_pointer (&self->root, g_free);
  g_clear_pointer (&self->scope, g_free);
  g_clear_object (&self->client);
  g_clear_object (&self->cache);
  g_clear_pointer (&self->objects, g_hash_table_unref);
  g_clear_pointer (&self->handoff, g_hash_table_unref);
  g_clear_pointer (&self->failed, g_hash_table_unref);
  g_clear_pointer (&self->accounted, g_hash_table_unref);
  g_clear_pointer (&self->done, g_hash_table_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->callback_lock);

  G_OBJECT_CLASS (smprof_s3_source_parent_class)->finalize (object);
}

static void
smprof_s3_source_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (object);
  SmprofS3Progress progress;

  smprof_s3_source_get_progress (self, &progress);

  switch (prop_id)
    {
    case PROP_OBJECTS_LISTED:
      g_value_set_uint64 (value, progress.objects_listed);
      break;
    case PROP_BYTES_LISTED:
      g_value_set_uint64 (value, progress.bytes_listed);
      break;
    case PROP_OBJECTS_WANTED:
      g_value_set_uint64 (value, progress.objects_wanted);
      break;
    case PROP_BYTES_WANTED:
      g_value_set_uint64 (value, progress.bytes_wanted);
      break;
    case PROP_OBJECTS_FETCHED:
      g_value_set_uint64 (value, progress.objects_fetched);
      break;
    case PROP_BYTES_FETCHED:
      g_value_set_uint64 (value, progress.bytes_fetched);
      break;
    case PROP_OBJECTS_CACHED:
      g_value_set_uint64 (value, progress.objects_cached);
      break;
    case PROP_OBJECTS_FAILED:
      g_value_set_uint64 (value, progress.objects_failed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_s3_source_class_init (SmprofS3SourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = smprof_s3_source_finalize;
  object_class->get_property = smprof_s3_source_get_property;

  /**
   * SmprofS3Source:objects-listed:
   *
   * Stats files found by the listing. Every progress property is notified on
   * the main context that was the thread-default one when the source was
   * created, at most once per turn of it, so a loading bar can bind them.
   */
  properties[PROP_OBJECTS_LISTED] = g_param_spec_uint64 ("objects-listed", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_BYTES_LISTED] = g_param_spec_uint64 ("bytes-listed", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OBJECTS_WANTED] = g_param_spec_uint64 ("objects-wanted", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_BYTES_WANTED] = g_param_spec_uint64 ("bytes-wanted", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OBJECTS_FETCHED] = g_param_spec_uint64 ("objects-fetched", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_BYTES_FETCHED] = g_param_spec_uint64 ("bytes-fetched", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OBJECTS_CACHED] = g_param_spec_uint64 ("objects-cached", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OBJECTS_FAILED] = g_param_spec_uint64 ("objects-failed", NULL, NULL, 0, G_MAXUINT64, 0, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
smprof_s3_source_init (SmprofS3Source *self)
{
  g_mutex_init (&self->lock);
  g_mutex_init (&self->callback_lock);
  self->objects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, object_info_free);
  self->handoff = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  self->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_error_free);
  self->accounted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->context = g_main_context_ref_thread_default ();
}

/* Progress ------------------------------------------------------------------ */

static gboolean
notify_progress_cb (gpointer data)
{
  GWeakRef *ref = data;
  g_autoptr(SmprofS3Source) self = g_weak_ref_get (ref);

  if (self == NULL)
    return G_SOURCE_REMOVE;

  g_atomic_int_set (&self->notify_queued, FALSE);

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 1; i < N_PROPS; i++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[i]);
  g_object_thaw_notify (G_OBJECT (self));

  return G_SOURCE_REMOVE;
}

static void
weak_ref_free (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

/* Called with the lock held, after a counter changed; deliver_progress()
 * tells the listeners once the lock is released. */
static void
progress_bump_locked (SmprofS3Source *self)
{
  self->progress_seq++;
}

/* Listeners run without the lock (they may ask the source anything), yet see
 * snapshots in order: one older than what was delivered is dropped, so a
 * display never goes back to "busy" after the last "idle". */
static void
deliver_progress (SmprofS3Source *self)
{
  SmprofS3Progress snapshot;
  guint requests = 0, retries = 0;
  guint64 seq;

  g_mutex_lock (&self->lock);
  snapshot = self->progress;
  seq = self->progress_seq;
  g_mutex_unlock (&self->lock);

  smprof_s3_client_get_counters (self->client, &requests, &retries);
  snapshot.requests = requests;
  snapshot.retries = retries;

  g_mutex_lock (&self->callback_lock);
  if (seq > self->delivered_seq)
    {
      self->delivered_seq = seq;
      if (self->progress_func != NULL)
        self->progress_func (self, &snapshot, self->progress_data);
    }
  g_mutex_unlock (&self->callback_lock);

  /* A weak reference: a CLI never runs this context, and its source must
   * still be freed. */
  if (g_atomic_int_compare_and_exchange (&self->notify_queued, FALSE, TRUE))
    {
      GWeakRef *ref = g_new0 (GWeakRef, 1);
      GSource *idle = g_idle_source_new ();

      g_weak_ref_init (ref, self);
      g_source_set_callback (idle, notify_progress_cb, ref, weak_ref_free);
      g_source_set_static_name (idle, "[smprof] s3 progress");
      g_source_attach (idle, self->context);
      g_source_unref (idle);
    }
}

/* Brackets every list, prefetch and lone download, so a progress display
 * knows when to take itself away. */
static void
set_busy (SmprofS3Source *self,
          gboolean        busy)
{
  g_mutex_lock (&self->lock);
  if (busy)
    self->n_busy++;
  else
    self->n_busy--;
  self->progress.busy = self->n_busy > 0;
  progress_bump_locked (self);
  g_mutex_unlock (&self->lock);

  deliver_progress (self);
}

static ObjectInfo *
lookup_info_locked (SmprofS3Source *self,
                    const char     *path)
{
  return g_hash_table_lookup (self->objects, path);
}

/* Each path is counted once as wanted and once as done, however many times
 * prefetch and load see it. */
static void
account_wanted_locked (SmprofS3Source *self,
                       const char     *path)
{
  ObjectInfo *info;

  if (g_hash_table_contains (self->accounted, path))
    return;

  g_hash_table_add (self->accounted, g_strdup (path));
  info = lookup_info_locked (self, path);
  self->progress.objects_wanted++;
  self->progress.bytes_wanted += info != NULL ? info->size : 0;
}

typedef enum
{
  DONE_FETCHED,
  DONE_CACHED,
  DONE_FAILED,
} DoneKind;

static void
account_done (SmprofS3Source *self,
              const char     *path,
              DoneKind        kind,
              guint64         bytes)
{
  g_mutex_lock (&self->lock);

  account_wanted_locked (self, path);
  if (g_hash_table_contains (self->done, path))
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  g_hash_table_add (self->done, g_strdup (path));

  switch (kind)
    {
    case DONE_FETCHED:
      self->progress.objects_fetched++;
      self->progress.bytes_fetched += bytes;
      break;
    case DONE_CACHED:
      self->progress.objects_cached++;
      self->progress.bytes_cached += bytes;
      break;
    case DONE_FAILED:
      self->progress.objects_failed++;
      break;
    default:
      g_assert_not_reached ();
    }

  progress_bump_locked (self);
  g_mutex_unlock (&self->lock);

  deliver_progress (self);
}

/**
 * smprof_s3_source_get_progress:
 * @self: a source
 * @progress: (out caller-allocates): a snapshot of what it has done
 *
 * Thread-safe.
 */
void
smprof_s3_source_get_progress (SmprofS3Source   *self,
                               SmprofS3Progress *progress)
{
  guint requests = 0, retries = 0;

  g_return_if_fail (SMPROF_IS_S3_SOURCE (self));
  g_return_if_fail (progress != NULL);

  g_mutex_lock (&self->lock);
  *progress = self->progress;
  g_mutex_unlock (&self->lock);

  smprof_s3_client_get_counters (self->client, &requests, &retries);
  progress->requests = requests;
  progress->retries = retries;
}

/**
 * smprof_s3_source_set_progress_func:
 * @self: a source
 * @func: (nullable): called on every change, from the thread that made it
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * For a caller without a main loop (the CLI); a viewer would rather listen to
 * the `notify` of the progress properties, which arrive on its main context.
 */
void
smprof_s3_source_set_progress_func (SmprofS3Source       *self,
                                    SmprofS3ProgressFunc  func,
                                    gpointer              user_data,
                                    GDestroyNotify        destroy)
{
  GDestroyNotify old_destroy;
  gpointer old_data;

  g_return_if_fail (SMPROF_IS_S3_SOURCE (self));

  g_mutex_lock (&self->callback_lock);
  old_destroy = self->progress_destroy;
  old_data = self->progress_data;
  self->progress_func = func;
  self->progress_data = user_data;
  self->progress_destroy = destroy;
  g_mutex_unlock (&self->callback_lock);

  if (old_destroy != NULL)
    old_destroy (old_data);
}

/**
 * smprof_s3_source_set_refresh:
 * @self: a source
 * @refresh: whether the next listing goes to S3 even if one is cached
 *
 * A viewer polling a job that still trains turns this on, then lists again.
 */
void
smprof_s3_source_set_refresh (SmprofS3Source *self,
                              gboolean        refresh)
{
  g_return_if_fail (SMPROF_IS_S3_SOURCE (self));

  g_atomic_int_set (&self->refresh, refresh);
}

/* Construction -------------------------------------------------------------- */

/**
 * smprof_s3_uri_is_s3:
 * @text: a SOURCE as a user typed it
 *
 * Returns: whether @text is an `s3://` URI
 */
gboolean
smprof_s3_uri_is_s3 (const char *text)
{
  return text != NULL && g_ascii_strncasecmp (text, "s3://", 5) == 0;
}

static guint
env_uint (const char *name,
          guint       minimum,
          guint       maximum,
          guint       fallback)
{
  const char *text = smprof_aws_env_get (NULL, name);
  guint64 value;

  if (text != NULL && g_ascii_string_to_unsigned (text, 10, minimum, maximum, &value, NULL))
    return (guint) value;

  return fallback;
}

/**
 * smprof_s3_source_new:
 * @uri: `s3://bucket/prefix`, the prefix being the job root (the one holding
 *   `framework/`, such as `.../<job>/profiler-output`) or a prefix below it,
 *   down to `framework/<framework>/<profiler>`
 * @options: (nullable): how to open it, %NULL for the defaults
 * @error: a location for a #GError, or %NULL
 *
 * Reads the configuration (region, endpoint, shared files) but sends nothing:
 * the first request is made by smprof_source_list(), on the caller's worker
 * thread. Credentials are looked up then too.
 *
 * Returns: (transfer full) (nullable): the source, or %NULL if @uri is not an
 *   S3 URI or the endpoint configured is not a URL
 */
SmprofSource *
smprof_s3_source_new (const char                   *uri,
                      const SmprofS3SourceOptions  *options,
                      GError                      **error)
{
  g_autoptr(SmprofS3Source) self = NULL;
  g_autoptr(SmprofAwsSharedConfig) shared = NULL;
  g_autoptr(SmprofAwsCredentialsProvider) credentials = NULL;
  g_autofree char *region = NULL;
  g_autofree char *endpoint = NULL;
  SmprofS3SourceOptions defaults = { 0 };
  SmprofS3ClientOptions client_options = { 0 };
  const char *rest;
  const char *slash;
  guint64 cache_size = 0;

  g_return_val_if_fail (uri != NULL, NULL);

  if (options == NULL)
    options = &defaults;

  if (!smprof_s3_uri_is_s3 (uri) || uri[5] == '\0' || uri[5] == '/')
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_INVALID_URI,
                   _("“%s” is not an S3 location: expected s3://BUCKET/PREFIX"), uri);
      return NULL;
    }

  self = g_object_new (SMPROF_TYPE_S3_SOURCE, NULL);

  rest = uri + 5;
  slash = strchr (rest, '/');
  self->bucket = slash != NULL ? g_strndup (rest, slash - rest) : g_strdup (rest);
  self->prefix = g_strdup (slash != NULL ? slash + 1 : "");
  while (g_str_has_suffix (self->prefix, "/"))
    self->prefix[strlen (self->prefix) - 1] = '\0';
  self->refresh = options->refresh;
  self->anonymous = options->anonymous;

  shared = smprof_aws_shared_config_load (NULL);
  region = smprof_aws_resolve_region (NULL, shared);
  endpoint = smprof_aws_resolve_s3_endpoint (NULL, shared);

  if (!options->anonymous)
    credentials = smprof_aws_credentials_provider_new (NULL);

  client_options.endpoint_url = endpoint;
  client_options.region = region;
  client_options.credentials = credentials;
  client_options.max_connections = options->max_connections > 0
                                   ? options->max_connections
                                   : env_uint ("SMPROF_S3_MAX_CONNECTIONS", 1, 256, SMPROF_S3_DEFAULT_MAX_CONNECTIONS);
  client_options.timeout = options->timeout > 0
                           ? options->timeout
                           : env_uint ("SMPROF_S3_TIMEOUT", 1, 3600, SMPROF_S3_DEFAULT_TIMEOUT);
  client_options.max_attempts = options->max_attempts > 0
                                ? options->max_attempts
                                : env_uint ("AWS_MAX_ATTEMPTS", 1, 100, SMPROF_S3_DEFAULT_MAX_ATTEMPTS);

  self->client = smprof_s3_client_new (&client_options, error);
  if (self->client == NULL)
    return NULL;

  cache_size = options->cache_max_size;
  if (cache_size == 0)
    {
      const char *text = smprof_aws_env_get (NULL, "SMPROF_S3_CACHE_MAX_SIZE");

      cache_size = SMPROF_S3_CACHE_DEFAULT_MAX_SIZE;
      if (text != NULL && !smprof_s3_cache_parse_size (text, &cache_size))
        g_warning ("SMPROF_S3_CACHE_MAX_SIZE=%s is not a size; using 1 GiB", text);
    }

  /* A limit of 0 turns the cache off. */
  if (!options->no_cache && cache_size > 0)
    self->cache = smprof_s3_cache_new (options->cache_dir, cache_size);

  return SMPROF_SOURCE (g_steal_pointer (&self));
}

const char *
smprof_s3_source_get_bucket (SmprofS3Source *self)
{
  g_return_val_if_fail (SMPROF_IS_S3_SOURCE (self), NULL);

  return self->bucket;
}

/**
 * smprof_s3_source_get_prefix:
 * @self: a source
 *
 * Returns: the prefix as given, without surrounding slashes
 */
const char *
smprof_s3_source_get_prefix (SmprofS3Source *self)
{
  g_return_val_if_fail (SMPROF_IS_S3_SOURCE (self), NULL);

  return self->prefix;
}

/* Keys and locations ----------------------------------------------------------- */

static char *
join_key (const char *root,
          const char *path)
{
  if (root == NULL || root[0] == '\0')
    return g_strdup (path);

  return g_strconcat (root, "/", path, NULL);
}

static char *
dup_key (SmprofS3Source *self,
         const char     *path)
{
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  return join_key (self->resolved ? self->root : self->prefix, path);
}

static char *
smprof_s3_source_dup_location (SmprofSource *source)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (source);
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  const char *root = self->resolved ? self->root : self->prefix;

  return g_strdup_printf ("s3://%s%s%s", self->bucket, root[0] != '\0' ? "/" : "", root);
}

static char *
smprof_s3_source_dup_file_location (SmprofSource *source,
                                    const char   *path)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (source);
  g_autofree char *key = dup_key (self, path);

  return g_strdup_printf ("s3://%s/%s", self->bucket, key);
}

/* Parallel work ----------------------------------------------------------------- */

typedef void (*WorkFunc) (gpointer item,
                          gpointer user_data);

typedef struct
{
  GPtrArray    *items;
  WorkFunc      func;
  gpointer      user_data;
  GCancellable *cancellable;
  int           next;   /* atomic */
} Work;

static gpointer
work_thread (gpointer data)
{
  Work *work = data;
  int index;

  while ((index = g_atomic_int_add (&work->next, 1)) < (int) work->items->len)
    {
      if (g_cancellable_is_cancelled (work->cancellable))
        break;
      work->func (g_ptr_array_index (work->items, index), work->user_data);
    }

  return NULL;
}

/* Runs @func on every item with at most @n_threads at once, the calling
 * thread among them. Each thread makes blocking requests, so this is the
 * connection pool's width too. */
static void
run_parallel (GPtrArray    *items,
              guint         n_threads,
              WorkFunc      func,
              gpointer      user_data,
              GCancellable *cancellable)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  Work work = { items, func, user_data, cancellable, 0 };

  n_threads = MIN (n_threads, items->len);
  for (guint i = 1; i < n_threads; i++)
    g_ptr_array_add (threads, g_thread_new ("smprof-s3", work_thread, &work));
  work_thread (&work);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));
}

/* Listing ----------------------------------------------------------------------- */

/* The listing types of smprof-s3-source-private.h, by their short names. */
typedef SmprofS3FoundEntry Entry;
typedef SmprofS3FoundProblem Problem;
typedef SmprofS3Found Found;

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->path);
  g_free (entry->etag);
  g_free (entry);
}

static void
problem_free (gpointer data)
{
  Problem *problem = data;

  g_free (problem->path);
  g_free (problem->message);
  g_free (problem);
}

static Found *
found_new (void)
{
  Found *found = g_new0 (Found, 1);

  found->entries = g_ptr_array_new_with_free_func (entry_free);
  found->problems = g_ptr_array_new_with_free_func (problem_free);

  return found;
}

void
_smprof_s3_found_free (Found *found)
{
  if (found == NULL)
    return;

  g_ptr_array_unref (found->entries);
  g_ptr_array_unref (found->problems);
  g_free (found);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Found, _smprof_s3_found_free)

static void
found_add (Found             *found,
           const char        *path,
           SmprofListingKind  kind,
           guint64            size,
           const char        *etag)
{
  Entry *entry = g_new0 (Entry, 1);

  entry->path = g_strdup (path);
  entry->kind = kind;
  entry->size = size;
  entry->etag = g_strdup (etag);
  g_ptr_array_add (found->entries, entry);
}

static void
found_add_problem (Found      *found,
                   const char *path,
                   const char *message)
{
  Problem *problem = g_new0 (Problem, 1);

  problem->path = g_strdup (path);
  problem->message = g_strdup (message);
  g_ptr_array_add (found->problems, problem);
}

static gboolean
is_stats_file (const char *name)
{
  return strcmp (name, CPROFILE_FILE) == 0 || strcmp (name, PYINSTRUMENT_FILE) == 0;
}

static gboolean
is_profiler_name (const char *name)
{
  return strcmp (name, "cprofile") == 0 || strcmp (name, "pyinstrument") == 0;
}

/* A segment a folder could not have: the index would read "" and ".." as
 * names, and a local copy could not hold them. */
static gboolean
is_odd_segment (const char *segment,
                gsize       length)
{
  return length == 0 || (length == 1 && segment[0] == '.') ||
         (length == 2 && segment[0] == '.' && segment[1] == '.');
}

static gboolean
has_odd_segment (const char *path)
{
  const char *segment = path;

  for (;;)
    {
      const char *slash = strchr (segment, '/');
      gsize length = slash != NULL ? (gsize) (slash - segment) : strlen (segment);

      if (is_odd_segment (segment, length))
        return TRUE;
      if (slash == NULL)
        return FALSE;
      segment = slash + 1;
    }
}

static void
count_page (SmprofS3Source *self)
{
  g_mutex_lock (&self->lock);
  self->progress.list_requests++;
  progress_bump_locked (self);
  g_mutex_unlock (&self->lock);

  deliver_progress (self);
}

/* Every page of one listing. */
static gboolean
list_all (SmprofS3Source  *self,
          const char      *prefix,
          const char      *delimiter,
          GPtrArray       *objects,
          GPtrArray       *prefixes,
          GPtrArray       *bad_keys,
          GCancellable    *cancellable,
          GError         **error)
{
  g_autoptr(GHashTable) tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *token = NULL;

  for (;;)
    {
      g_autoptr(SmprofS3ListPage) page = NULL;

      page = smprof_s3_client_list_objects (self->client, self->bucket, prefix, delimiter, token, 0,
                                            cancellable, error);
      if (page == NULL)
        return FALSE;

      count_page (self);

      if (objects != NULL)
        g_ptr_array_extend_and_steal (objects, g_steal_pointer (&page->objects));
      if (prefixes != NULL)
        g_ptr_array_extend_and_steal (prefixes, g_steal_pointer (&page->prefixes));
      if (bad_keys != NULL)
        g_ptr_array_extend_and_steal (bad_keys, g_steal_pointer (&page->bad_keys));

      if (!page->truncated)
        return TRUE;

      if (page->next_continuation_token == NULL || page->next_continuation_token[0] == '\0')
        {
          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                       _("the listing of s3://%s/%s says there is more but gives no way to get it"),
                       self->bucket, prefix);
          return FALSE;
        }

      /* A token seen before would start a loop that never ends. */
      if (!g_hash_table_add (tokens, g_strdup (page->next_continuation_token)))
        {
          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                       _("the listing of s3://%s/%s loops: S3 gave the same continuation token twice"),
                       self->bucket, prefix);
          return FALSE;
        }

      g_free (token);
      token = g_steal_pointer (&page->next_continuation_token);
    }
}

/* The last segment of a common prefix ("a/b/c/" -> "c"). */
static char *
prefix_name (const char *prefix,
             const char *parent)
{
  const char *name = prefix + strlen (parent);
  gsize length = strlen (name);

  if (length > 0 && name[length - 1] == '/')
    length--;

  return g_strndup (name, length);
}

typedef struct
{
  char  *prefix;    /* the node's key prefix, with its '/' */
  char  *path;      /* the node folder, relative to the job root */
  Found *found;
  GError *error;
} NodeTask;

static void
node_task_free (gpointer data)
{
  NodeTask *task = data;

  g_free (task->prefix);
  g_free (task->path);
  _smprof_s3_found_free (task->found);
  g_clear_error (&task->error);
  g_free (task);
}

typedef struct
{
  SmprofS3Source *self;
  GCancellable   *cancellable;
} ListContext;

typedef struct
{
  gboolean has_stats;
  gboolean has_html;
  guint64  html_size;
  char    *path;
} IntervalSeen;

/* One node: every key under it, in pages, no delimiter (a node holds only
 * interval folders, so a delimiter would cost a request per interval). Only
 * stats files become entries; the HTML twin is listed only for an interval
 * that has nothing else, so the index reports it as it does for a folder. */
static void
list_node (gpointer item,
           gpointer user_data)
{
  NodeTask *task = item;
  ListContext *context = user_data;
  SmprofS3Source *self = context->self;
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autoptr(GPtrArray) bad_keys = g_ptr_array_new_with_free_func (g_free);
  IntervalSeen interval = { 0 };
  gsize prefix_length = strlen (task->prefix);

  task->found = found_new ();

  if (!list_all (self, task->prefix, NULL, objects, NULL, bad_keys, context->cancellable, &task->error))
    return;

  for (guint i = 0; i < bad_keys->len; i++)
    found_add_problem (task->found, task->path, g_ptr_array_index (bad_keys, i));

  for (guint i = 0; i <= objects->len; i++)
    {
      SmprofS3Object *object = i < objects->len ? g_ptr_array_index (objects, i) : NULL;
      g_auto(GStrv) parts = NULL;
      g_autofree char *relative = NULL;
      g_autofree char *interval_path = NULL;
      gboolean is_file = TRUE;

      if (object != NULL)
        {
          const char *rest = object->key + prefix_length;
          gsize rest_length;
          g_autofree char *trimmed = NULL;

          if (!g_str_has_prefix (object->key, task->prefix) || rest[0] == '\0')
            continue;

          /* "interval/" is a folder marker (the S3 console makes them): it
           * shows the interval exists, and is no file. */
          rest_length = strlen (rest);
          is_file = rest[rest_length - 1] != '/';
          trimmed = g_strndup (rest, is_file ? rest_length : rest_length - 1);

          relative = g_strconcat (task->path, "/", trimmed, NULL);
          if (has_odd_segment (trimmed))
            {
              found_add_problem (task->found, relative,
                                 _("the key has an empty, “.” or “..” segment; skipped"));
              continue;
            }

          parts = g_strsplit (trimmed, "/", 3);
          if (parts[1] != NULL || !is_file)
            interval_path = g_strconcat (task->path, "/", parts[0], NULL);
        }

      /* Keys come sorted, so an interval's keys are together: close the
       * previous interval when another one starts. */
      if (interval.path != NULL && g_strcmp0 (interval.path, interval_path) != 0)
        {
          if (!interval.has_stats && interval.has_html)
            {
              g_autofree char *html = g_strconcat (interval.path, "/" PYINSTRUMENT_HTML, NULL);

              found_add (task->found, html, SMPROF_LISTING_FILE, interval.html_size, NULL);
            }
          else if (!interval.has_stats)
            found_add (task->found, interval.path, SMPROF_LISTING_EMPTY_FOLDER, 0, NULL);
          g_clear_pointer (&interval.path, g_free);
        }

      if (object == NULL)
        break;

      if (interval_path == NULL)
        {
          /* a file where interval folders belong: the index reports it */
          found_add (task->found, relative, SMPROF_LISTING_FILE, object->size, NULL);
          continue;
        }

      if (interval.path == NULL)
        interval = (IntervalSeen) { FALSE, FALSE, 0, g_steal_pointer (&interval_path) };

      if (!is_file || parts[1] == NULL || parts[2] != NULL)
        continue;   /* a marker, or below the interval folder: not smdebug's */

      if (is_stats_file (parts[1]))
        {
          interval.has_stats = TRUE;
          found_add (task->found, relative, SMPROF_LISTING_FILE, object->size, object->etag);
        }
      else if (strcmp (parts[1], PYINSTRUMENT_HTML) == 0)
        {
          interval.has_html = TRUE;
          interval.html_size = object->size;
        }
    }

  g_free (interval.path);
}

/* framework/<fw>/<profiler>: its common prefixes are the nodes; keys right
 * in it are stray files. */
static gboolean
collect_nodes (SmprofS3Source  *self,
               const char      *profiler_prefix,
               const char      *profiler_path,
               Found           *found,
               GPtrArray       *tasks,
               GCancellable    *cancellable,
               GError         **error)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autoptr(GPtrArray) prefixes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) bad_keys = g_ptr_array_new_with_free_func (g_free);

  if (!list_all (self, profiler_prefix, "/", objects, prefixes, bad_keys, cancellable, error))
    return FALSE;

  for (guint i = 0; i < bad_keys->len; i++)
    found_add_problem (found, profiler_path, g_ptr_array_index (bad_keys, i));

  for (guint i = 0; i < objects->len; i++)
    {
      SmprofS3Object *object = g_ptr_array_index (objects, i);
      g_autofree char *name = prefix_name (object->key, profiler_prefix);
      g_autofree char *path = g_strconcat (profiler_path, "/", name, NULL);

      if (!is_odd_segment (name, strlen (name)))
        found_add (found, path, SMPROF_LISTING_FILE, object->size, NULL);
    }

  for (guint i = 0; i < prefixes->len; i++)
    {
      const char *prefix = g_ptr_array_index (prefixes, i);
      g_autofree char *name = prefix_name (prefix, profiler_prefix);
      NodeTask *task;

      if (is_odd_segment (name, strlen (name)))
        {
          g_autofree char *path = g_strconcat (profiler_path, "/", name, NULL);

          found_add_problem (found, path, _("the key has an empty, “.” or “..” segment; skipped"));
          continue;
        }

      task = g_new0 (NodeTask, 1);
      task->prefix = g_strdup (prefix);
      task->path = g_strconcat (profiler_path, "/", name, NULL);
      g_ptr_array_add (tasks, task);
    }

  return TRUE;
}

/* framework/pevents/: the framework timelines, `<hour>/<ts>_<node>_pythontimeline.json`
 * only, in one listing without a delimiter (a folder per hour would cost a
 * request each). The other trace files there are not kept. */
static gboolean
list_pevents (SmprofS3Source  *self,
              const char      *root,
              Found           *found,
              GCancellable    *cancellable,
              GError         **error)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autofree char *prefix = join_key (root, "framework/pevents/");
  gsize prefix_length = strlen (prefix);

  if (!list_all (self, prefix, NULL, objects, NULL, NULL, cancellable, error))
    return FALSE;

  for (guint i = 0; i < objects->len; i++)
    {
      SmprofS3Object *object = g_ptr_array_index (objects, i);
      g_autofree char *relative = NULL;

      if (!g_str_has_prefix (object->key, prefix) || has_odd_segment (object->key + prefix_length))
        continue;

      relative = g_strconcat ("framework/pevents/", object->key + prefix_length, NULL);
      if (smprof_pevents_is_timeline_path (relative))
        found_add (found, relative, SMPROF_LISTING_FILE, object->size, object->etag);
    }

  return TRUE;
}

/* The folders of @prefix (a "…/" prefix), by name. */
static GPtrArray *
list_folder_names (SmprofS3Source  *self,
                   const char      *prefix,
                   gboolean        *empty,
                   GCancellable    *cancellable,
                   GError         **error)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autoptr(GPtrArray) prefixes = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *names;

  if (!list_all (self, prefix, "/", objects, prefixes, NULL, cancellable, error))
    return NULL;

  if (empty != NULL)
    *empty = objects->len == 0 && prefixes->len == 0;

  names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < prefixes->len; i++)
    {
      char *name = prefix_name (g_ptr_array_index (prefixes, i), prefix);

      if (is_odd_segment (name, strlen (name)))
        g_free (name);
      else
        g_ptr_array_add (names, name);
    }

  return names;
}

/* Which level the prefix names: a prefix ending in framework,
 * framework/<fw> or framework/<fw>/<profiler> is below the job root, unless
 * the job itself has a framework/ (a job could be named "framework"). */
static gboolean
resolve_scope (SmprofS3Source  *self,
               char           **root,
               char           **scope,
               guint           *depth,
               GCancellable    *cancellable,
               GError         **error)
{
  g_auto(GStrv) segments = g_strsplit (self->prefix, "/", -1);
  guint n = self->prefix[0] != '\0' ? g_strv_length (segments) : 0;
  guint candidate = 0;

  for (guint d = 1; d <= 3 && d <= n; d++)
    if (strcmp (segments[n - d], "framework") == 0)
      {
        candidate = d;
        break;
      }

  if (candidate > 0)
    {
      g_autofree char *probe = join_key (self->prefix, "framework/");
      g_autoptr(SmprofS3ListPage) page = NULL;

      page = smprof_s3_client_list_objects (self->client, self->bucket, probe, "/", NULL, 1, cancellable, error);
      if (page == NULL)
        return FALSE;
      if (page->objects->len > 0 || page->prefixes->len > 0)
        candidate = 0;
    }

  if (candidate == 0)
    {
      *root = g_strdup (self->prefix);
      *scope = g_strdup ("framework");
      *depth = 1;
      return TRUE;
    }

  {
    g_autofree char *root_part = NULL;
    g_autofree char *scope_part = NULL;
    char *saved = segments[n - candidate];

    segments[n - candidate] = NULL;
    root_part = g_strjoinv ("/", segments);
    segments[n - candidate] = saved;
    scope_part = g_strjoinv ("/", segments + (n - candidate));

    *root = g_steal_pointer (&root_part);
    *scope = g_steal_pointer (&scope_part);
    *depth = candidate;
  }

  return TRUE;
}

static GError *
not_a_job_error (SmprofS3Source *self,
                 const char     *root)
{
  return g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                      _("“s3://%s/%s” is not a SageMaker Debugger profiler output: there is nothing "
                        "under %s%sframework/"),
                      self->bucket, self->prefix, root, root[0] != '\0' ? "/" : "");
}

static Found *
list_live (SmprofS3Source  *self,
           char           **root_out,
           char           **scope_out,
           guint           *depth_out,
           GCancellable    *cancellable,
           GError         **error)
{
  g_autoptr(Found) found = found_new ();
  g_autoptr(GPtrArray) tasks = g_ptr_array_new_with_free_func (node_task_free);
  g_autoptr(GPtrArray) profilers = g_ptr_array_new_with_free_func (g_free);   /* paths */
  g_autofree char *root = NULL;
  g_autofree char *scope = NULL;
  guint depth = 0;
  ListContext context = { self, cancellable };

  if (!resolve_scope (self, &root, &scope, &depth, cancellable, error))
    return NULL;

  if (depth == 3)
    g_ptr_array_add (profilers, g_strdup (scope));
  else
    {
      g_autoptr(GPtrArray) frameworks = g_ptr_array_new_with_free_func (g_free);   /* paths */

      if (depth == 2)
        g_ptr_array_add (frameworks, g_strdup (scope));
      else
        {
          g_autofree char *prefix = join_key (root, "framework/");
          g_autoptr(GPtrArray) names = NULL;
          gboolean empty = TRUE;

          names = list_folder_names (self, prefix, &empty, cancellable, error);
          if (names == NULL)
            return NULL;
          if (empty)
            {
              g_propagate_error (error, not_a_job_error (self, root));
              return NULL;
            }
          for (guint i = 0; i < names->len; i++)
            {
              const char *name = g_ptr_array_index (names, i);

              /* Optional: a job without it, or where it cannot be listed,
               * loads all the same. */
              if (strcmp (name, "pevents") == 0)
                {
                  g_autoptr(GError) local_error = NULL;

                  if (!list_pevents (self, root, found, cancellable, &local_error))
                    {
                      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                        {
                          g_propagate_error (error, g_steal_pointer (&local_error));
                          return NULL;
                        }
                      found_add_problem (found, "framework/pevents", local_error->message);
                    }
                  continue;
                }

              g_ptr_array_add (frameworks, g_strconcat ("framework/", name, NULL));
            }
        }

      for (guint i = 0; i < frameworks->len; i++)
        {
          const char *framework = g_ptr_array_index (frameworks, i);
          g_autofree char *relative = g_strconcat (framework, "/", NULL);
          g_autofree char *prefix = join_key (root, relative);
          g_autoptr(GPtrArray) names = NULL;
          g_autoptr(GError) local_error = NULL;
          gboolean empty = TRUE;

          names = list_folder_names (self, prefix, &empty, cancellable, &local_error);
          if (names == NULL)
            {
              if (depth == 2 || g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&local_error));
                  return NULL;
                }
              found_add_problem (found, framework, local_error->message);
              continue;
            }
          if (depth == 2 && empty)
            {
              g_propagate_error (error, not_a_job_error (self, root));
              return NULL;
            }

          for (guint j = 0; j < names->len; j++)
            if (is_profiler_name (g_ptr_array_index (names, j)))
              g_ptr_array_add (profilers, g_strconcat (framework, "/", (char *) g_ptr_array_index (names, j), NULL));
        }
    }

  for (guint i = 0; i < profilers->len; i++)
    {
      const char *profiler = g_ptr_array_index (profilers, i);
      g_autofree char *relative = g_strconcat (profiler, "/", NULL);
      g_autofree char *prefix = join_key (root, relative);
      g_autoptr(GError) local_error = NULL;
      guint before = tasks->len;

      if (!collect_nodes (self, prefix, profiler, found, tasks, cancellable, &local_error))
        {
          if (depth == 3 || g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }
          found_add_problem (found, profiler, local_error->message);
        }
      else if (depth == 3 && tasks->len == before && found->entries->len == 0)
        {
          g_propagate_error (error, not_a_job_error (self, root));
          return NULL;
        }
    }

  /* The nodes, in parallel over the connection pool. */
  run_parallel (tasks, smprof_s3_client_get_max_connections (self->client), list_node, &context, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  for (guint i = 0; i < tasks->len; i++)
    {
      NodeTask *task = g_ptr_array_index (tasks, i);

      if (task->error != NULL)
        {
          found_add_problem (found, task->path, task->error->message);
          continue;
        }

      g_ptr_array_extend_and_steal (found->entries, g_steal_pointer (&task->found->entries));
      g_ptr_array_extend_and_steal (found->problems, g_steal_pointer (&task->found->problems));
      task->found->entries = g_ptr_array_new ();
      task->found->problems = g_ptr_array_new ();
    }

  *root_out = g_steal_pointer (&root);
  *scope_out = g_steal_pointer (&scope);
  *depth_out = depth;

  return g_steal_pointer (&found);
}

/* The cached listing: a header line, the root and scope, then one line per
 * entry or problem, fields separated by tabs, text escaped. */

static void
append_escaped (GString    *out,
                const char *text)
{
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      if (*p == '%' || *p == '\t' || *p == '\n' || *p == '\r')
        g_string_append_printf (out, "%%%02X", (guchar) *p);
      else
        g_string_append_c (out, *p);
    }
}

static char *
unescape (const char *text)
{
  return g_uri_unescape_string (text, NULL);
}

GBytes *
_smprof_s3_listing_serialize (const char  *root,
                              const char  *scope,
                              guint        depth,
                              Found       *found)
{
  GString *out = g_string_new (LISTING_MAGIC "\n");

  g_string_append (out, "R\t");
  append_escaped (out, root);
  g_string_append_printf (out, "\t%u\t", depth);
  append_escaped (out, scope);
  g_string_append_c (out, '\n');

  for (guint i = 0; i < found->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (found->entries, i);

      g_string_append_printf (out, "%c\t%" G_GUINT64_FORMAT "\t",
                              entry->kind == SMPROF_LISTING_FILE ? 'F' : 'E', entry->size);
      append_escaped (out, entry->etag);
      g_string_append_c (out, '\t');
      append_escaped (out, entry->path);
      g_string_append_c (out, '\n');
    }

  for (guint i = 0; i < found->problems->len; i++)
    {
      Problem *problem = g_ptr_array_index (found->problems, i);

      g_string_append (out, "P\t");
      append_escaped (out, problem->path);
      g_string_append_c (out, '\t');
      append_escaped (out, problem->message);
      g_string_append_c (out, '\n');
    }

  g_string_append (out, "END\n");

  return g_string_free_to_bytes (out);
}

Found *
_smprof_s3_listing_parse (GBytes  *bytes,
                          char   **root,
                          char   **scope,
                          guint   *depth)
{
  g_autoptr(Found) found = found_new ();
  gsize length = 0;
  const char *data = g_bytes_get_data (bytes, &length);
  /* an empty GBytes may have no data pointer */
  g_autofree char *text = g_strndup (data != NULL ? data : "", length);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean ended = FALSE;
  guint n = g_strv_length (lines);

  if (n < 3 || strcmp (lines[0], LISTING_MAGIC) != 0)
    return NULL;

  for (guint i = 1; i < n && !ended; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "\t", -1);
      guint n_fields = g_strv_length (fields);

      if (i == 1)
        {
          guint64 value;

          if (n_fields != 4 || strcmp (fields[0], "R") != 0 ||
              !g_ascii_string_to_unsigned (fields[2], 10, 1, 3, &value, NULL) ||
              (*root = unescape (fields[1])) == NULL || (*scope = unescape (fields[3])) == NULL)
            return NULL;
          *depth = (guint) value;
        }
      else if (n_fields == 4 && (strcmp (fields[0], "F") == 0 || strcmp (fields[0], "E") == 0))
        {
          g_autofree char *etag = unescape (fields[2]);
          g_autofree char *path = unescape (fields[3]);
          guint64 size;

          if (etag == NULL || path == NULL || !g_ascii_string_to_unsigned (fields[1], 10, 0, G_MAXUINT64, &size, NULL))
            return NULL;
          found_add (found, path, fields[0][0] == 'F' ? SMPROF_LISTING_FILE : SMPROF_LISTING_EMPTY_FOLDER,
                     size, etag[0] != '\0' ? etag : NULL);
        }
      else if (n_fields == 3 && strcmp (fields[0], "P") == 0)
        {
          g_autofree char *path = unescape (fields[1]);
          g_autofree char *message = unescape (fields[2]);

          /* Messages are shown as they are, and the ones written here were
           * all UTF-8: anything else is damage. */
          if (path == NULL || message == NULL || !g_utf8_validate (message, -1, NULL))
            return NULL;
          found_add_problem (found, path, message);
        }
      else if (n_fields == 1 && strcmp (fields[0], "END") == 0)
        ended = TRUE;
      else
        return NULL;
    }

  /* a listing cut short is not a listing */
  return ended ? g_steal_pointer (&found) : NULL;
}

static char *
listing_id (SmprofS3Source *self)
{
  return g_strdup_printf ("%s\n%s\n%s", smprof_s3_client_get_endpoint_id (self->client), self->bucket, self->prefix);
}

static gboolean
list_into (SmprofS3Source  *self,
           SmprofListing   *listing,
           GCancellable    *cancellable,
           GError         **error)
{
  g_autoptr(Found) found = NULL;
  g_autofree char *id = listing_id (self);
  g_autofree char *root = NULL;
  g_autofree char *scope = NULL;
  gboolean from_cache = FALSE;
  guint64 bytes = 0;
  guint64 files = 0;
  guint depth = 0;

  if (self->cache != NULL && !g_atomic_int_get (&self->refresh))
    {
      g_autoptr(GBytes) cached = smprof_s3_cache_lookup_listing (self->cache, id);

      if (cached != NULL)
        found = _smprof_s3_listing_parse (cached, &root, &scope, &depth);
      if (found == NULL)
        {
          g_clear_pointer (&root, g_free);
          g_clear_pointer (&scope, g_free);
        }
      from_cache = found != NULL;
    }

  if (found == NULL)
    {
      found = list_live (self, &root, &scope, &depth, cancellable, error);
      if (found == NULL)
        return FALSE;

      if (self->cache != NULL)
        {
          g_autoptr(GBytes) serialized = _smprof_s3_listing_serialize (root, scope, depth, found);
          g_autoptr(GError) local_error = NULL;

          if (!smprof_s3_cache_store_listing (self->cache, id, serialized, &local_error))
            g_debug ("cannot cache the listing of s3://%s/%s: %s", self->bucket, self->prefix, local_error->message);
        }
    }

  g_mutex_lock (&self->lock);

  g_free (self->root);
  self->root = g_steal_pointer (&root);
  g_free (self->scope);
  self->scope = g_steal_pointer (&scope);
  self->depth = depth;
  self->resolved = TRUE;

  g_hash_table_remove_all (self->objects);
  for (guint i = 0; i < found->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (found->entries, i);
      const char *name = strrchr (entry->path, '/');

      smprof_listing_add (listing, entry->path, entry->kind, entry->size);

      /* Timelines are fetched like stats files (the ETag keeps the cache
       * honest), but the progress counts stats files only. */
      if (entry->kind == SMPROF_LISTING_FILE && smprof_pevents_is_timeline_path (entry->path))
        {
          ObjectInfo *info = g_new0 (ObjectInfo, 1);

          info->etag = g_strdup (entry->etag);
          info->size = entry->size;
          g_hash_table_replace (self->objects, g_strdup (entry->path), info);
        }
      else if (entry->kind == SMPROF_LISTING_FILE && name != NULL && is_stats_file (name + 1))
        {
          ObjectInfo *info = g_new0 (ObjectInfo, 1);

          info->etag = g_strdup (entry->etag);
          info->size = entry->size;
          g_hash_table_replace (self->objects, g_strdup (entry->path), info);
          files++;
          bytes += entry->size;
        }
    }

  for (guint i = 0; i < found->problems->len; i++)
    {
      Problem *problem = g_ptr_array_index (found->problems, i);

      smprof_listing_add_problem (listing, problem->path, problem->message);
    }

  /* A new listing may name newer copies: what a failed prefetch said is stale. */
  g_hash_table_remove_all (self->failed);
  self->progress.objects_listed = files;
  self->progress.bytes_listed = bytes;
  self->progress.listing_from_cache = from_cache;
  progress_bump_locked (self);

  g_mutex_unlock (&self->lock);

  deliver_progress (self);

  return TRUE;
}

static gboolean
smprof_s3_source_list (SmprofSource   *source,
                       SmprofListing  *listing,
                       GCancellable   *cancellable,
                       GError        **error)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (source);
  gboolean ok;

  set_busy (self, TRUE);
  ok = list_into (self, listing, cancellable, error);
  set_busy (self, FALSE);

  return ok;
}

/* Loading ------------------------------------------------------------------------ */

static gboolean lookup_cached_info (SmprofS3Source  *self,
                                    const char      *path,
                                    char           **etag,
                                    guint64         *size);

/* Downloads one stats file and keeps it; the listing's ETag is updated when
 * the object changed since it was listed, so the next look-up finds it. */
static GBytes *
fetch (SmprofS3Source  *self,
       const char      *path,
       gboolean        *cached,
       GCancellable    *cancellable,
       GError         **error)
{
  g_autofree char *key = dup_key (self, path);
  g_autofree char *etag = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local_error = NULL;

  g_autofree char *listed_etag = NULL;
  guint64 listed_size = G_MAXUINT64;

  *cached = FALSE;

  if (!lookup_cached_info (self, path, &listed_etag, &listed_size))
    listed_size = G_MAXUINT64;

  bytes = smprof_s3_client_get_object (self->client, self->bucket, key, listed_size, &etag, cancellable, error);
  if (bytes == NULL)
    return NULL;

  g_mutex_lock (&self->lock);
  {
    ObjectInfo *info = lookup_info_locked (self, path);

    if (info != NULL && etag != NULL && g_strcmp0 (info->etag, etag) != 0)
      {
        g_free (info->etag);
        info->etag = g_strdup (etag);
        info->size = g_bytes_get_size (bytes);
      }
  }
  g_mutex_unlock (&self->lock);

  if (self->cache != NULL)
    {
      *cached = smprof_s3_cache_store (self->cache, smprof_s3_client_get_endpoint_id (self->client),
                                       self->bucket, key, etag, bytes, &local_error);
      if (!*cached)
        g_debug ("cannot cache s3://%s/%s: %s", self->bucket, key, local_error->message);
    }

  return g_steal_pointer (&bytes);
}

static gboolean
lookup_cached_info (SmprofS3Source  *self,
                    const char      *path,
                    char           **etag,
                    guint64         *size)
{
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  ObjectInfo *info = lookup_info_locked (self, path);

  if (info == NULL)
    return FALSE;

  *etag = g_strdup (info->etag);
  *size = info->size;

  return TRUE;
}

static GBytes *
smprof_s3_source_load (SmprofSource  *source,
                       const char    *path,
                       GCancellable  *cancellable,
                       GError       **error)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (source);
  g_autofree char *etag = NULL;
  g_autofree char *key = NULL;
  GBytes *bytes = NULL;
  gboolean cached = FALSE;
  guint64 size = 0;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  /* What a prefetch already decided */
  g_mutex_lock (&self->lock);
  {
    gpointer stolen_key = NULL;
    gpointer value = NULL;

    if (g_hash_table_steal_extended (self->failed, path, &stolen_key, &value))
      {
        g_free (stolen_key);
        g_mutex_unlock (&self->lock);
        g_propagate_error (error, value);
        return NULL;
      }
    if (g_hash_table_steal_extended (self->handoff, path, &stolen_key, &value))
      {
        g_free (stolen_key);
        g_mutex_unlock (&self->lock);
        return value;
      }
    account_wanted_locked (self, path);
  }
  g_mutex_unlock (&self->lock);

  key = dup_key (self, path);

  if (self->cache != NULL && lookup_cached_info (self, path, &etag, &size))
    {
      bytes = smprof_s3_cache_lookup (self->cache, smprof_s3_client_get_endpoint_id (self->client),
                                      self->bucket, key, etag, size);
      if (bytes != NULL)
        {
          account_done (self, path, DONE_CACHED, g_bytes_get_size (bytes));
          return bytes;
        }
    }

  set_busy (self, TRUE);
  bytes = fetch (self, path, &cached, cancellable, error);
  set_busy (self, FALSE);
  if (bytes == NULL)
    {
      if (error == NULL || *error == NULL || !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        account_done (self, path, DONE_FAILED, 0);
      return NULL;
    }

  account_done (self, path, DONE_FETCHED, g_bytes_get_size (bytes));

  return bytes;
}

typedef struct
{
  SmprofS3Source *self;
  GCancellable   *cancellable;
} PrefetchContext;

static void
prefetch_one (gpointer item,
              gpointer user_data)
{
  const char *path = item;
  PrefetchContext *context = user_data;
  SmprofS3Source *self = context->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gboolean cached = FALSE;

  bytes = fetch (self, path, &cached, context->cancellable, &error);

  if (bytes == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      account_done (self, path, DONE_FAILED, 0);
      g_mutex_lock (&self->lock);
      g_hash_table_replace (self->failed, g_strdup (path), g_steal_pointer (&error));
      g_mutex_unlock (&self->lock);
      return;
    }

  account_done (self, path, DONE_FETCHED, g_bytes_get_size (bytes));

  /* Without a cache copy, load() takes the bytes from here. */
  if (!cached)
    {
      g_mutex_lock (&self->lock);
      g_hash_table_replace (self->handoff, g_strdup (path), g_steal_pointer (&bytes));
      g_mutex_unlock (&self->lock);
    }
}

/* Downloads every file of @paths that the cache lacks, over the pool, so that
 * load() finds them at once. Failures are kept for load() to report. */
static gboolean
smprof_s3_source_prefetch (SmprofSource        *source,
                           const char * const  *paths,
                           GCancellable        *cancellable,
                           GError             **error)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (source);
  g_autoptr(GPtrArray) todo = g_ptr_array_new ();
  const char *endpoint = smprof_s3_client_get_endpoint_id (self->client);
  PrefetchContext context = { self, cancellable };

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *etag = NULL;
      guint64 size = 0;
      gboolean known;

      g_mutex_lock (&self->lock);
      account_wanted_locked (self, paths[i]);
      known = g_hash_table_contains (self->handoff, paths[i]) || g_hash_table_contains (self->failed, paths[i]);
      g_mutex_unlock (&self->lock);

      if (known)
        continue;

      if (self->cache != NULL && lookup_cached_info (self, paths[i], &etag, &size))
        {
          g_autofree char *key = dup_key (self, paths[i]);

          if (smprof_s3_cache_contains (self->cache, endpoint, self->bucket, key, etag, size))
            continue;
        }

      g_ptr_array_add (todo, (gpointer) paths[i]);
    }

  set_busy (self, TRUE);
  run_parallel (todo, smprof_s3_client_get_max_connections (self->client), prefetch_one, &context, cancellable);

  if (self->cache != NULL)
    smprof_s3_cache_trim (self->cache, NULL);
  set_busy (self, FALSE);

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

static void
source_iface_init (SmprofSourceInterface *iface)
{
  iface->dup_location = smprof_s3_source_dup_location;
  iface->dup_file_location = smprof_s3_source_dup_file_location;
  iface->list = smprof_s3_source_list;
  iface->load = smprof_s3_source_load;
  iface->prefetch = smprof_s3_source_prefetch;
}
