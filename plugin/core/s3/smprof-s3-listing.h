/* smprof-s3-listing.h: one page of an S3 ListObjectsV2 answer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SmprofS3Object:
 * @key: the object's key, decoded
 * @size: its size in bytes
 * @etag: (nullable): its ETag, quotes included, as S3 gives it
 */
typedef struct
{
  char    *key;
  guint64  size;
  char    *etag;
} SmprofS3Object;

/**
 * SmprofS3ListPage:
 * @objects: (element-type SmprofS3Object): the `Contents` of the page
 * @prefixes: (element-type utf8): the `CommonPrefixes`, decoded
 * @truncated: whether more pages follow
 * @next_continuation_token: (nullable): what to send for the next page
 * @bad_keys: (element-type utf8): objects that were skipped, each as
 *   "key: why", because their key or size could not be read
 *
 * One answer of ListObjectsV2. Keys and prefixes are decoded when the answer
 * says `EncodingType` `url` (the client always asks for it, so that keys with
 * bytes XML cannot carry still list).
 */
typedef struct
{
  GPtrArray *objects;
  GPtrArray *prefixes;
  gboolean   truncated;
  char      *next_continuation_token;
  GPtrArray *bad_keys;
} SmprofS3ListPage;

SmprofS3ListPage *smprof_s3_list_page_parse (const char        *data,
                                             gsize              length,
                                             GError           **error);
void              smprof_s3_list_page_free  (SmprofS3ListPage  *page);
void              smprof_s3_object_free     (SmprofS3Object    *object);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofS3ListPage, smprof_s3_list_page_free)

G_END_DECLS
