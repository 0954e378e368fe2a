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
gboolean       smprof_s3_cache_trim                  (SmprofS3Cache  *self,
                                                      GError        **error);
GBytes        *smprof_s3_cache_lookup_listing        (SmprofS3Cache  *self,
                                                      const char     *id);
gboolean       smprof_s3_cache_store_listing         (SmprofS3Cache  *self,
                                                      const char     *id,
                                                      GBytes         *data,
                                                      GError        **error);

G_END_DECLS
