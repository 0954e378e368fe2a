/* smprof-s3-source-fetch.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Downloading stats files: load() one at a time, prefetch() many over the
 * connection pool (whose worker loop the live listing uses too), both
 * through the cache. */

#include "config.h"

#include "smprof-parallel.h"
#include "smprof-s3-cache.h"
#include "smprof-s3-client.h"
#include "smprof-s3-source-private.h"

/* Parallel work ----------------------------------------------------------------- */

typedef struct
{
  GPtrArray *items;
  WorkFunc   func;
  gpointer   user_data;
} Work;

static void
work_on_item (guint    index,
              gpointer data)
{
  Work *work = data;

  work->func (g_ptr_array_index (work->items, index), work->user_data);
}

/* Runs @func on every item with at most @n_threads at once, the calling
 * thread among them (smprof_parallel_for()). Each thread makes blocking
 * requests, so this is the connection pool's width too. */
void
_smprof_s3_source_run_parallel (GPtrArray    *items,
                                guint         n_threads,
                                WorkFunc      func,
                                gpointer      user_data,
                                GCancellable *cancellable)
{
  Work work = { items, func, user_data };

  smprof_parallel_for ("smprof-s3", items->len, n_threads, work_on_item, &work, cancellable);
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
  g_autofree char *key = _smprof_s3_source_dup_key (self, path);
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
    ObjectInfo *info = _smprof_s3_source_lookup_info_locked (self, path);

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
  ObjectInfo *info = _smprof_s3_source_lookup_info_locked (self, path);

  if (info == NULL)
    return FALSE;

  *etag = g_strdup (info->etag);
  *size = info->size;

  return TRUE;
}

GBytes *
_smprof_s3_source_load (SmprofSource  *source,
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
    _smprof_s3_source_account_wanted_locked (self, path);
  }
  g_mutex_unlock (&self->lock);

  key = _smprof_s3_source_dup_key (self, path);

  if (self->cache != NULL && lookup_cached_info (self, path, &etag, &size))
    {
      bytes = smprof_s3_cache_lookup (self->cache, smprof_s3_client_get_endpoint_id (self->client),
                                      self->bucket, key, etag, size);
      if (bytes != NULL)
        {
          _smprof_s3_source_account_done (self, path, DONE_CACHED, g_bytes_get_size (bytes));
          return bytes;
        }
    }

  _smprof_s3_source_set_busy (self, TRUE);
  bytes = fetch (self, path, &cached, cancellable, error);
  _smprof_s3_source_set_busy (self, FALSE);
  if (bytes == NULL)
    {
      if (error == NULL || *error == NULL || !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _smprof_s3_source_account_done (self, path, DONE_FAILED, 0);
      return NULL;
    }

  _smprof_s3_source_account_done (self, path, DONE_FETCHED, g_bytes_get_size (bytes));

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

      _smprof_s3_source_account_done (self, path, DONE_FAILED, 0);
      g_mutex_lock (&self->lock);
      g_hash_table_replace (self->failed, g_strdup (path), g_steal_pointer (&error));
      g_mutex_unlock (&self->lock);
      return;
    }

  _smprof_s3_source_account_done (self, path, DONE_FETCHED, g_bytes_get_size (bytes));

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
gboolean
_smprof_s3_source_prefetch (SmprofSource        *source,
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
      _smprof_s3_source_account_wanted_locked (self, paths[i]);
      known = g_hash_table_contains (self->handoff, paths[i]) || g_hash_table_contains (self->failed, paths[i]);
      g_mutex_unlock (&self->lock);

      if (known)
        continue;

      if (self->cache != NULL && lookup_cached_info (self, paths[i], &etag, &size))
        {
          g_autofree char *key = _smprof_s3_source_dup_key (self, paths[i]);

          if (smprof_s3_cache_contains (self->cache, endpoint, self->bucket, key, etag, size))
            continue;
        }

      g_ptr_array_add (todo, (gpointer) paths[i]);
    }

  _smprof_s3_source_set_busy (self, TRUE);
  _smprof_s3_source_run_parallel (todo, smprof_s3_client_get_max_connections (self->client),
                                  prefetch_one, &context, cancellable);

  if (self->cache != NULL)
    smprof_s3_cache_trim (self->cache, NULL);
  _smprof_s3_source_set_busy (self, FALSE);

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}
