/* smprof-s3-client.h: signed S3 requests with retries, over a bounded pool
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-aws-credentials.h"
#include "smprof-s3-listing.h"

G_BEGIN_DECLS

#define SMPROF_S3_DEFAULT_MAX_CONNECTIONS 8
#define SMPROF_S3_DEFAULT_TIMEOUT 30
#define SMPROF_S3_DEFAULT_MAX_ATTEMPTS 5
/* The longest wait a Retry-After header gets, in seconds: a server may ask
 * for minutes, which would look like a hang. */
#define SMPROF_S3_RETRY_AFTER_MAX 20

typedef struct _SmprofS3Sink SmprofS3Sink;

/**
 * SmprofS3Sink:
 * @begin: a successful answer begins, or begins again for another attempt:
 *   what was written so far is to be forgotten; @length is the length it
 *   announces, or -1
 * @write: its next bytes
 *
 * Where smprof_s3_client_get_object_to() writes an object as it arrives, so
 * that a large one is never held whole in memory. A sink that fails (a full
 * disk) ends the request with its error.
 */
struct _SmprofS3Sink
{
  gboolean (*begin) (SmprofS3Sink  *sink,
                     gint64         length,
                     GError       **error);
  gboolean (*write) (SmprofS3Sink  *sink,
                     const guint8  *data,
                     gsize          length,
                     GError       **error);
};

/**
 * SmprofS3ClientOptions:
 * @endpoint_url: (nullable): an S3-compatible endpoint, addressed path-style;
 *   %NULL for AWS (virtual-hosted, `https://<bucket>.s3.<region>.amazonaws.com`)
 * @region: (nullable): the region to sign for, %NULL for `us-east-1`; corrected
 *   when S3 says the bucket is elsewhere
 * @credentials: (nullable): where to get credentials, %NULL for anonymous
 *   (unsigned) requests
 * @max_connections: how many requests at once, 0 for the default
 * @timeout: seconds without progress before a request is abandoned (and
 *   retried), 0 for the default
 * @max_attempts: attempts per request, 0 for the default
 */
typedef struct
{
  const char                   *endpoint_url;
  const char                   *region;
  SmprofAwsCredentialsProvider *credentials;
  guint                         max_connections;
  guint                         timeout;
  guint                         max_attempts;
} SmprofS3ClientOptions;

#define SMPROF_TYPE_S3_CLIENT (smprof_s3_client_get_type ())

G_DECLARE_FINAL_TYPE (SmprofS3Client, smprof_s3_client, SMPROF, S3_CLIENT, GObject)

SmprofS3Client   *smprof_s3_client_new                 (const SmprofS3ClientOptions  *options,
                                                        GError                      **error);
const char       *smprof_s3_client_get_endpoint_id     (SmprofS3Client               *self);
char             *smprof_s3_client_dup_region          (SmprofS3Client               *self);
guint             smprof_s3_client_get_max_connections (SmprofS3Client               *self);
SmprofS3ListPage *smprof_s3_client_list_objects        (SmprofS3Client               *self,
                                                        const char                   *bucket,
                                                        const char                   *prefix,
                                                        const char                   *delimiter,
                                                        const char                   *continuation_token,
                                                        guint                         max_keys,
                                                        GCancellable                 *cancellable,
                                                        GError                      **error);
GBytes           *smprof_s3_client_get_object          (SmprofS3Client               *self,
                                                        const char                   *bucket,
                                                        const char                   *key,
                                                        guint64                       expected_size,
                                                        char                        **etag,
                                                        GCancellable                 *cancellable,
                                                        GError                      **error);
gboolean          smprof_s3_client_get_object_to       (SmprofS3Client               *self,
                                                        const char                   *bucket,
                                                        const char                   *key,
                                                        guint64                       expected_size,
                                                        guint64                       max_size,
                                                        SmprofS3Sink                 *sink,
                                                        char                        **etag,
                                                        GCancellable                 *cancellable,
                                                        GError                      **error);
void              smprof_s3_client_get_counters        (SmprofS3Client               *self,
                                                        guint                        *requests,
                                                        guint                        *retries);

G_END_DECLS
