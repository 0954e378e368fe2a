/* smprof-s3-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* SmprofS3Source itself: the object, its progress and how it is reported,
 * construction and the SmprofSource glue. The live listing, the cached
 * listing and the downloads are in smprof-s3-source-listing.c,
 * smprof-s3-source-listing-cache.c and smprof-s3-source-fetch.c. */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-aws-config.h"
#include "smprof-aws-credentials.h"
#include "smprof-s3-cache.h"
#include "smprof-s3-client.h"
#include "smprof-s3-error.h"
#include "smprof-s3-source-private.h"

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
  /* the run is over: the cache goes back under its limit */
  if (self->cache != NULL)
    smprof_s3_cache_close (self->cache);
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

/* Called with the lock held, after a counter changed;
 * _smprof_s3_source_deliver_progress() tells the listeners once the lock is
 * released. */
void
_smprof_s3_source_progress_bump_locked (SmprofS3Source *self)
{
  self->progress_seq++;
}

/* Listeners run without the lock (they may ask the source anything), yet see
 * snapshots in order: one older than what was delivered is dropped, so a
 * display never goes back to "busy" after the last "idle". */
void
_smprof_s3_source_deliver_progress (SmprofS3Source *self)
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
void
_smprof_s3_source_set_busy (SmprofS3Source *self,
                            gboolean        busy)
{
  g_mutex_lock (&self->lock);
  if (busy)
    self->n_busy++;
  else
    self->n_busy--;
  self->progress.busy = self->n_busy > 0;
  _smprof_s3_source_progress_bump_locked (self);
  g_mutex_unlock (&self->lock);

  _smprof_s3_source_deliver_progress (self);
}

ObjectInfo *
_smprof_s3_source_lookup_info_locked (SmprofS3Source *self,
                                      const char     *path)
{
  return g_hash_table_lookup (self->objects, path);
}

/* Each path is counted once as wanted and once as done, however many times
 * prefetch and load see it. */
void
_smprof_s3_source_account_wanted_locked (SmprofS3Source *self,
                                         const char     *path)
{
  ObjectInfo *info;

  if (g_hash_table_contains (self->accounted, path))
    return;

  g_hash_table_add (self->accounted, g_strdup (path));
  info = _smprof_s3_source_lookup_info_locked (self, path);
  self->progress.objects_wanted++;
  self->progress.bytes_wanted += info != NULL ? info->size : 0;
}

void
_smprof_s3_source_account_done (SmprofS3Source *self,
                                const char     *path,
                                DoneKind        kind,
                                guint64         bytes)
{
  g_mutex_lock (&self->lock);

  _smprof_s3_source_account_wanted_locked (self, path);
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

  _smprof_s3_source_progress_bump_locked (self);
  g_mutex_unlock (&self->lock);

  _smprof_s3_source_deliver_progress (self);
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

  if (!smprof_source_text_is_s3_uri (uri) || uri[5] == '\0' || uri[5] == '/')
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

  self->max_object_size = options->max_object_size;
  if (self->max_object_size == 0)
    {
      const char *text = smprof_aws_env_get (NULL, "SMPROF_S3_MAX_OBJECT_SIZE");

      self->max_object_size = SMPROF_S3_DEFAULT_MAX_OBJECT_SIZE;
      if (text != NULL && (!smprof_s3_cache_parse_size (text, &self->max_object_size) || self->max_object_size == 0))
        {
          g_warning ("SMPROF_S3_MAX_OBJECT_SIZE=%s is not a size; using 256 MiB", text);
          self->max_object_size = SMPROF_S3_DEFAULT_MAX_OBJECT_SIZE;
        }
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

char *
_smprof_s3_source_join_key (const char *root,
                            const char *path)
{
  if (root == NULL || root[0] == '\0')
    return g_strdup (path);

  return g_strconcat (root, "/", path, NULL);
}

char *
_smprof_s3_source_dup_key (SmprofS3Source *self,
                           const char     *path)
{
  G_GNUC_UNUSED g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  return _smprof_s3_source_join_key (self->resolved ? self->root : self->prefix, path);
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
  g_autofree char *key = _smprof_s3_source_dup_key (self, path);

  return g_strdup_printf ("s3://%s/%s", self->bucket, key);
}

/* Lists everything, whatever the options but @fresh and @nodes_only: listing
 * S3 costs the same requests either way, but for node folders by name, which
 * the delimiter listing of each profiler folder gives alone. */
static gboolean
smprof_s3_source_list (SmprofSource                *source,
                       const SmprofListingOptions  *options,
                       SmprofListing               *listing,
                       GCancellable                *cancellable,
                       GError                     **error)
{
  SmprofS3Source *self = SMPROF_S3_SOURCE (source);
  gboolean ok;

  _smprof_s3_source_set_busy (self, TRUE);
  ok = _smprof_s3_source_list_into (self, options->fresh, options->nodes_only, listing, cancellable, error);
  _smprof_s3_source_set_busy (self, FALSE);

  return ok;
}

static void
source_iface_init (SmprofSourceInterface *iface)
{
  iface->dup_location = smprof_s3_source_dup_location;
  iface->dup_file_location = smprof_s3_source_dup_file_location;
  iface->list = smprof_s3_source_list;
  iface->load = _smprof_s3_source_load;
  iface->prefetch = _smprof_s3_source_prefetch;
}
