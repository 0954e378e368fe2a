/* smprof-s3-source.h: a job under an S3 prefix
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-source.h"

G_BEGIN_DECLS

/**
 * SmprofS3SourceOptions:
 * @anonymous: send unsigned requests (a public bucket), as `aws --no-sign-request`
 * @refresh: list S3 again even when a listing of this prefix is cached
 * @max_connections: parallel requests, 0 for `SMPROF_S3_MAX_CONNECTIONS` or 8
 * @timeout: seconds a request may make no progress before it is retried, 0
 *   for `SMPROF_S3_TIMEOUT` or 30
 * @max_attempts: attempts per request, 0 for `AWS_MAX_ATTEMPTS` or 5
 * @no_cache: keep nothing on disk
 * @cache_dir: (nullable): the cache folder, %NULL for `$XDG_CACHE_HOME/smprof/s3`
 * @cache_max_size: bytes the cache may hold, 0 for `SMPROF_S3_CACHE_MAX_SIZE`
 *   or 1 GiB
 * @max_object_size: the largest stats file read, in bytes, 0 for
 *   `SMPROF_S3_MAX_OBJECT_SIZE` or 256 MiB; a larger one is reported and
 *   skipped without a request
 *
 * How to open a job on S3. Zero-initialise, set what you need; the rest comes
 * from the environment as documented in the README. A viewer maps its
 * settings onto this.
 */
typedef struct
{
  gboolean    anonymous;
  gboolean    refresh;
  guint       max_connections;
  guint       timeout;
  guint       max_attempts;
  gboolean    no_cache;
  const char *cache_dir;
  guint64     cache_max_size;
  guint64     max_object_size;
} SmprofS3SourceOptions;

/* 256 MiB: real stats files are kilobytes to a few megabytes */
#define SMPROF_S3_DEFAULT_MAX_OBJECT_SIZE (G_GUINT64_CONSTANT (256) << 20)

/**
 * SmprofS3Progress:
 * @objects_listed: stats files found by the listing
 * @bytes_listed: their total size
 * @list_requests: ListObjectsV2 pages requested (0 when the listing came from the cache)
 * @listing_from_cache: whether the listing came from the cache
 * @objects_wanted: stats files asked for so far (by load or prefetch)
 * @bytes_wanted: their total size, as listed
 * @objects_fetched: of those, downloaded
 * @bytes_fetched: bytes downloaded
 * @objects_cached: of those, served from the cache
 * @bytes_cached: bytes served from the cache
 * @objects_failed: of those, given up on
 * @requests: HTTP requests sent, retries included
 * @retries: of which retries
 * @busy: whether a listing or downloads are under way; %FALSE once they end
 *
 * A snapshot of what a source has done; a loading bar shows
 * (fetched + cached + failed) of wanted.
 */
typedef struct
{
  guint64  objects_listed;
  guint64  bytes_listed;
  guint64  list_requests;
  gboolean listing_from_cache;
  guint64  objects_wanted;
  guint64  bytes_wanted;
  guint64  objects_fetched;
  guint64  bytes_fetched;
  guint64  objects_cached;
  guint64  bytes_cached;
  guint64  objects_failed;
  guint64  requests;
  guint64  retries;
  gboolean busy;
} SmprofS3Progress;

#define SMPROF_TYPE_S3_SOURCE (smprof_s3_source_get_type ())

G_DECLARE_FINAL_TYPE (SmprofS3Source, smprof_s3_source, SMPROF, S3_SOURCE, GObject)

/**
 * SmprofS3ProgressFunc:
 * @source: the source
 * @progress: what it has done so far
 * @user_data: the data given with the function
 *
 * Called from whichever thread made progress (often a worker), one call at a
 * time and never with an older snapshot after a newer one: copy what you need
 * and return quickly.
 */
typedef void (*SmprofS3ProgressFunc) (SmprofS3Source         *source,
                                      const SmprofS3Progress *progress,
                                      gpointer                user_data);

SmprofSource *smprof_s3_source_new                (const char                   *uri,
                                                   const SmprofS3SourceOptions  *options,
                                                   GError                      **error);
const char   *smprof_s3_source_get_bucket         (SmprofS3Source               *self);
const char   *smprof_s3_source_get_prefix         (SmprofS3Source               *self);
void          smprof_s3_source_get_progress       (SmprofS3Source               *self,
                                                   SmprofS3Progress             *progress);
void          smprof_s3_source_set_progress_func  (SmprofS3Source               *self,
                                                   SmprofS3ProgressFunc          func,
                                                   gpointer                      user_data,
                                                   GDestroyNotify                destroy);
void          smprof_s3_source_set_refresh        (SmprofS3Source               *self,
                                                   gboolean                      refresh);

G_END_DECLS
