/* smprof-s3-cache.h: S3 objects and listings kept on disk between opens
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* 1 GiB; SMPROF_S3_CACHE_MAX_SIZE overrides it */
#define SMPROF_S3_CACHE_DEFAULT_MAX_SIZE (G_GUINT64_CONSTANT (1) << 30)

#define SMPROF_TYPE_S3_CACHE (smprof_s3_cache_get_type ())

G_DECLARE_FINAL_TYPE (SmprofS3Cache, smprof_s3_cache, SMPROF, S3_CACHE, GObject)

/* A copy of one object being written: smprof_s3_cache_writer_new() */
typedef struct _SmprofS3CacheWriter SmprofS3CacheWriter;

char          *smprof_s3_cache_dup_default_dir       (void);
gboolean       smprof_s3_cache_parse_size            (const char     *text,
                                                      guint64        *size);
char          *smprof_s3_cache_key_to_relative_path  (const char     *endpoint,
                                                      const char     *bucket,
                                                      const char     *key);

SmprofS3Cache *smprof_s3_cache_new                   (const char     *dir,
                                                      guint64         max_size);
const char    *smprof_s3_cache_get_dir               (SmprofS3Cache  *self);
guint64        smprof_s3_cache_get_max_size          (SmprofS3Cache  *self);
GBytes        *smprof_s3_cache_lookup                (SmprofS3Cache  *self,
                                                      const char     *endpoint,
                                                      const char     *bucket,
                                                      const char     *key,
                                                      const char     *etag,
                                                      guint64         size);
gboolean       smprof_s3_cache_contains              (SmprofS3Cache  *self,
                                                      const char     *endpoint,
                                                      const char     *bucket,
                                                      const char     *key,
                                                      const char     *etag,
                                                      guint64         size);
gboolean       smprof_s3_cache_store                 (SmprofS3Cache  *self,
                                                      const char     *endpoint,
                                                      const char     *bucket,
                                                      const char     *key,
                                                      const char     *etag,
                                                      GBytes         *data,
                                                      GError        **error);
gboolean       smprof_s3_cache_store_full            (SmprofS3Cache  *self,
                                                      const char     *endpoint,
                                                      const char     *bucket,
                                                      const char     *key,
                                                      const char     *listed_etag,
                                                      const char     *response_etag,
                                                      GBytes         *data,
                                                      GError        **error);
gboolean       smprof_s3_cache_trim                  (SmprofS3Cache  *self,
                                                      GError        **error);
void           smprof_s3_cache_close                 (SmprofS3Cache  *self);
GBytes        *smprof_s3_cache_lookup_listing        (SmprofS3Cache  *self,
                                                      const char     *id);
gboolean       smprof_s3_cache_store_listing         (SmprofS3Cache  *self,
                                                      const char     *id,
                                                      GBytes         *data,
                                                      GError        **error);


SmprofS3CacheWriter *smprof_s3_cache_writer_new      (SmprofS3Cache        *self,
                                                      const char           *endpoint,
                                                      const char           *bucket,
                                                      const char           *key,
                                                      GError              **error);
gboolean             smprof_s3_cache_writer_reset    (SmprofS3CacheWriter  *writer,
                                                      GError              **error);
gboolean             smprof_s3_cache_writer_write    (SmprofS3CacheWriter  *writer,
                                                      const guint8         *data,
                                                      gsize                 length,
                                                      GError              **error);
guint64              smprof_s3_cache_writer_get_size (SmprofS3CacheWriter  *writer);
gboolean             smprof_s3_cache_writer_commit   (SmprofS3CacheWriter  *writer,
                                                      const char           *listed_etag,
                                                      const char           *response_etag,
                                                      GBytes              **body,
                                                      GError              **error);
void                 smprof_s3_cache_writer_free     (SmprofS3CacheWriter  *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofS3CacheWriter, smprof_s3_cache_writer_free)

G_END_DECLS
