/* smprof-s3-source-fetch.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Downloading stats files: load() one at a time, prefetch() many over the
 * connection pool (whose worker loop the live listing uses too), both
 * through the cache. */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-parallel.h"
#include "smprof-s3-cache.h"
#include "smprof-s3-client-private.h"
#include "smprof-s3-error.h"
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

/* A sink that streams the body into the cache's temporary file. */
typedef struct
{
  SmprofS3Sink         parent;
  SmprofS3CacheWriter *writer;
} CacheSink;

static gboolean
cache_sink_begin (SmprofS3Sink  *sink,
                  gint64         length,
                  GError       **error)
{
  return smprof_s3_cache_writer_reset (((CacheSink *) sink)->writer, error);
}

static gboolean
cache_sink_write (SmprofS3Sink  *sink,
                  const guint8  *data,
                  gsize          length,
                  GError       **error)
{
  return smprof_s3_cache_writer_write (((CacheSink *) sink)->writer, data, length, error);
}

/* The listing of @path's key alone, for an object that is not the size it
 * was listed with: it may have been replaced since. Updates what the source
 * knows of it. */
static gboolean
list_again (SmprofS3Source  *self,
            const char      *path,
            const char      *key,
            GCancellable    *cancellable,
            GError         **error)
{
  g_autoptr(SmprofS3ListPage) page = NULL;
  SmprofS3Object *object = NULL;

  page = smprof_s3_client_list_objects (self->client, self->bucket, key, NULL, NULL, 1, cancellable, error);
  if (page == NULL)
    return FALSE;

  if (page->objects->len > 0 && strcmp (((SmprofS3Object *) g_ptr_array_index (page->objects, 0))->key, key) == 0)
    object = g_ptr_array_index (page->objects, 0);

  if (object == NULL)
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_SUCH_KEY,
                   _("s3://%s/%s is no longer listed"), self->bucket, key);
      return FALSE;
    }

  g_mutex_lock (&self->lock);
  {
    ObjectInfo *info = _smprof_s3_source_lookup_info_locked (self, path);

    if (info != NULL)
      {
        g_free (info->etag);
        info->etag = g_strdup (object->etag);
        info->size = object->size;
      }
  }
  g_mutex_unlock (&self->lock);

  return TRUE;
}

static GError *
too_large_error (SmprofS3Source *self,
                 const char     *key,
                 guint64         size)
{
  g_autofree char *size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *limit_text = g_format_size_full (self->max_object_size, G_FORMAT_SIZE_IEC_UNITS);

  return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_TOO_LARGE,
                      _("s3://%s/%s is listed at %s, more than the %s a stats file may have "
                        "(SMPROF_S3_MAX_OBJECT_SIZE); not read"),
                      self->bucket, key, size_text, limit_text);
}

/* One GET of @path into the cache (when there is one: the body goes to its
 * file as it arrives) or into memory. *received is the body's size. */
static gboolean
fetch_once (SmprofS3Source  *self,
            const char      *path,
            const char      *key,
            gboolean         want_bytes,
            GBytes         **bytes,
            gboolean        *cached,
            guint64         *received,
            GCancellable    *cancellable,
            GError         **error)
{
  g_autofree char *listed_etag = NULL;
  g_autofree char *etag = NULL;
  guint64 listed_size = G_MAXUINT64;
  const char *endpoint = smprof_s3_client_get_endpoint_id (self->client);

  if (!lookup_cached_info (self, path, &listed_etag, &listed_size))
    listed_size = G_MAXUINT64;

  /* Refused before a request: memory and disk follow what is listed. */
  if (listed_size != G_MAXUINT64 && listed_size > self->max_object_size)
    {
      g_propagate_error (error, too_large_error (self, key, listed_size));
      return FALSE;
    }

  if (self->cache != NULL)
    {
      g_autoptr(SmprofS3CacheWriter) writer = NULL;
      g_autoptr(GError) local_error = NULL;

      writer = smprof_s3_cache_writer_new (self->cache, endpoint, self->bucket, key, &local_error);
      if (writer != NULL)
        {
          CacheSink sink = { { cache_sink_begin, cache_sink_write }, writer };

          if (!smprof_s3_client_get_object_to (self->client, self->bucket, key, listed_size, self->max_object_size,
                                               &sink.parent, &etag, cancellable, &local_error))
            {
              /* S3's failure, or cancelled; else the cache's file failed
               * (a full disk), and memory is tried below */
              if (local_error->domain != G_IO_ERROR ||
                  g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&local_error));
                  return FALSE;
                }
            }
          else
            {
              *received = smprof_s3_cache_writer_get_size (writer);
              /* Kept under the listing's ETag and the download's: see
               * smprof_s3_cache_lookup() for the rule. */
              if (smprof_s3_cache_writer_commit (writer, listed_etag, etag, want_bytes ? bytes : NULL,
                                                 &local_error))
                {
                  *cached = TRUE;
                  if (want_bytes && *bytes == NULL)
                    {
                      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                                   _("cannot read back the cached copy of s3://%s/%s"), self->bucket, key);
                      return FALSE;
                    }
                  return TRUE;
                }
            }
        }

      /* A cache that cannot take it (a full disk): read it into memory. */
      g_debug ("cannot cache s3://%s/%s: %s", self->bucket, key, local_error->message);
      g_clear_pointer (&etag, g_free);
    }

  {
    MemorySink sink;

    _smprof_s3_memory_sink_init (&sink);
    if (!smprof_s3_client_get_object_to (self->client, self->bucket, key, listed_size, self->max_object_size,
                                         &sink.parent, &etag, cancellable, error))
      {
        _smprof_s3_memory_sink_clear (&sink);
        return FALSE;
      }
    *bytes = _smprof_s3_memory_sink_steal (&sink);
    *received = g_bytes_get_size (*bytes);
  }

  return TRUE;
}

/* Downloads one stats file and keeps it. An object that is not the size it
 * was listed with was replaced since: its key is listed again, once, and
 * fetched at its new size. @bytes is set unless the copy went to the cache
 * and @want_bytes is %FALSE. */
static gboolean
fetch (SmprofS3Source  *self,
       const char      *path,
       gboolean         want_bytes,
       GBytes         **bytes,
       gboolean        *cached,
       guint64         *received,
       GCancellable    *cancellable,
       GError         **error)
{
  g_autofree char *key = _smprof_s3_source_dup_key (self, path);
  g_autoptr(GError) local_error = NULL;

  *bytes = NULL;
  *cached = FALSE;
  *received = 0;

  if (fetch_once (self, path, key, want_bytes, bytes, cached, received, cancellable, &local_error))
    return TRUE;

  if (!g_error_matches (local_error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_CHANGED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_debug ("%s; listing it again", local_error->message);
  if (!list_again (self, path, key, cancellable, error))
    return FALSE;

  return fetch_once (self, path, key, want_bytes, bytes, cached, received, cancellable, error);
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
  g_autoptr(GError) local_error = NULL;
  GBytes *bytes = NULL;
  gboolean cached = FALSE;
  gboolean ok;
  guint64 received = 0;
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
  ok = fetch (self, path, TRUE, &bytes, &cached, &received, cancellable, &local_error);
  _smprof_s3_source_set_busy (self, FALSE);
  if (!ok)
    {
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _smprof_s3_source_account_done (self, path, DONE_FAILED, 0);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  _smprof_s3_source_account_done (self, path, DONE_FETCHED, received);

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
  guint64 received = 0;

  /* A copy the cache took is not read back: load() finds it there. */
  if (!fetch (self, path, FALSE, &bytes, &cached, &received, context->cancellable, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      _smprof_s3_source_account_done (self, path, DONE_FAILED, 0);
      g_mutex_lock (&self->lock);
      g_hash_table_replace (self->failed, g_strdup (path), g_steal_pointer (&error));
      g_mutex_unlock (&self->lock);
      return;
    }

  _smprof_s3_source_account_done (self, path, DONE_FETCHED, received);

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
