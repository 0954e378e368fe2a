/* smprof-s3-client-private.h: what smprof-s3-client.c (the object, its
 * requests) and smprof-s3-client-perform.c (sending them until they succeed
 * or fail for good) share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "smprof-aws-credentials.h"
#include "smprof-aws-sigv4.h"
#include "smprof-s3-client.h"

G_BEGIN_DECLS

struct _SmprofS3Client
{
  GObject                       parent_instance;

  SoupSession                  *session;
  SmprofAwsCredentialsProvider *credentials;   /* NULL: anonymous */

  /* A custom endpoint, addressed path-style */
  gboolean                      custom;
  char                         *scheme;
  char                         *host;
  int                           port;
  char                         *base_path;     /* decoded, no trailing '/' */
  char                         *endpoint_id;

  guint                         max_connections;
  guint                         max_attempts;

  GMutex                        lock;
  char                         *region;        /* under lock: redirects change it */

  int                           n_requests;    /* atomic */
  int                           n_retries;     /* atomic */
};

typedef struct
{
  const char          *method;
  const char          *bucket;
  const char          *key;            /* NULL: the bucket itself */
  const SmprofAwsPair *query;
  guint                n_query;
  const char          *what;           /* s3://bucket/key, for messages */
  guint64              expected_size;  /* the listed size, G_MAXUINT64 if unknown */
  guint64              max_body;       /* a 2xx body longer than this is refused */
  SmprofS3Sink        *sink;           /* where a 2xx body goes */
} Request;

/* A sink that keeps the body in memory (listings, and objects without a
 * cache), in one block of the size the answer announces. */
typedef struct
{
  SmprofS3Sink  parent;
  guint8       *data;
  gsize         length;
  gsize         allocated;
} MemorySink;

void    _smprof_s3_memory_sink_init  (MemorySink *sink);
GBytes *_smprof_s3_memory_sink_steal (MemorySink *sink);
void    _smprof_s3_memory_sink_clear (MemorySink *sink);

gboolean     _smprof_s3_client_region_is_valid (const char            *region);
char        *_smprof_s3_client_error_document_said (const char        *data,
                                                    gsize              length);
SoupMessage *_smprof_s3_client_build_message   (SmprofS3Client        *self,
                                                const Request         *request,
                                                const char            *region,
                                                SmprofAwsCredentials  *credentials);
gboolean     _smprof_s3_client_perform         (SmprofS3Client        *self,
                                                const Request         *request,
                                                char                 **etag,
                                                GCancellable          *cancellable,
                                                GError               **error);

G_END_DECLS
