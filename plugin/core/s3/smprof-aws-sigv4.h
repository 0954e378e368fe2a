/* smprof-aws-sigv4.h: AWS Signature Version 4, on GLib's checksums and HMAC
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The SHA-256 of an empty body, which every GET signs. */
#define SMPROF_AWS_EMPTY_PAYLOAD_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/**
 * SmprofAwsPair:
 * @name: a query parameter or header name
 * @value: its value, not encoded
 */
typedef struct
{
  const char *name;
  const char *value;
} SmprofAwsPair;

/**
 * SmprofAwsRequest:
 * @method: the HTTP method
 * @path: the request path, not encoded, starting with `/`
 * @query: (array length=n_query): query parameters, not encoded, in any order
 * @n_query: the number of @query parameters
 * @headers: (array length=n_headers): the headers to sign; `host` and
 *   `x-amz-date` must be among them
 * @n_headers: the number of @headers
 * @payload_hash: the hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`
 *
 * What a signature covers. The request that goes on the wire must use the
 * encodings of smprof_aws_uri_encode() and smprof_aws_sigv4_canonical_query(),
 * so that the server rebuilds the same canonical request.
 */
typedef struct
{
  const char          *method;
  const char          *path;
  const SmprofAwsPair *query;
  guint                n_query;
  const SmprofAwsPair *headers;
  guint                n_headers;
  const char          *payload_hash;
} SmprofAwsRequest;

/**
 * SmprofAwsSignature:
 * @authorization: the value of the `Authorization` header
 * @canonical_request: what was signed, for debugging against a server's answer
 * @string_to_sign: likewise
 *
 * None of these hold a secret.
 */
typedef struct
{
  char *authorization;
  char *canonical_request;
  char *string_to_sign;
} SmprofAwsSignature;

char               *smprof_aws_uri_encode              (const char              *text,
                                                        gboolean                 keep_slash);
char               *smprof_aws_sha256_hex              (const void              *data,
                                                        gsize                    length);
char               *smprof_aws_format_amz_date         (GDateTime               *time);
char               *smprof_aws_sigv4_canonical_query   (const SmprofAwsPair     *query,
                                                        guint                    n_query);
char               *smprof_aws_sigv4_canonical_request (const SmprofAwsRequest  *request,
                                                        char                   **signed_headers);
void                smprof_aws_sigv4_signing_key       (const char              *secret_access_key,
                                                        const char              *date,
                                                        const char              *region,
                                                        const char              *service,
                                                        guint8                   key[32]);
SmprofAwsSignature *smprof_aws_sigv4_sign              (const SmprofAwsRequest  *request,
                                                        const char              *access_key_id,
                                                        const char              *secret_access_key,
                                                        const char              *region,
                                                        const char              *service,
                                                        const char              *amz_date);
void                smprof_aws_signature_free          (SmprofAwsSignature      *signature);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofAwsSignature, smprof_aws_signature_free)

G_END_DECLS
