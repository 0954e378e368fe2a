/* smprof-s3-error.h: S3's error answers, and the errors smprof reports for them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SMPROF_S3_ERROR (smprof_s3_error_quark ())

/**
 * SmprofS3Error:
 * @SMPROF_S3_ERROR_INVALID_URI: not an `s3://bucket/prefix` URI
 * @SMPROF_S3_ERROR_NO_CREDENTIALS: no credentials were found; the message says where smprof looked
 * @SMPROF_S3_ERROR_ACCESS_DENIED: S3 refused: access denied, an unknown access key or a wrong secret
 * @SMPROF_S3_ERROR_NO_SUCH_BUCKET: the bucket does not exist
 * @SMPROF_S3_ERROR_NO_SUCH_KEY: the object does not exist
 * @SMPROF_S3_ERROR_WRONG_REGION: the bucket lives in another region than the one asked
 * @SMPROF_S3_ERROR_UNREACHABLE: the endpoint could not be reached
 * @SMPROF_S3_ERROR_BAD_RESPONSE: the answer could not be understood
 * @SMPROF_S3_ERROR_FAILED: any other failure, S3's code and message in the text
 * @SMPROF_S3_ERROR_CHANGED: the object is not the size the listing gave: it
 *   changed since it was listed
 * @SMPROF_S3_ERROR_TOO_LARGE: the object is larger than a stats file may be
 * @SMPROF_S3_ERROR_CLOCK_SKEWED: S3 refused the request's time: the
 *   machine's clock is off; the message says by how much
 *
 * What went wrong talking to S3, in terms a user can act on.
 */
typedef enum
{
  SMPROF_S3_ERROR_INVALID_URI,
  SMPROF_S3_ERROR_NO_CREDENTIALS,
  SMPROF_S3_ERROR_ACCESS_DENIED,
  SMPROF_S3_ERROR_NO_SUCH_BUCKET,
  SMPROF_S3_ERROR_NO_SUCH_KEY,
  SMPROF_S3_ERROR_WRONG_REGION,
  SMPROF_S3_ERROR_UNREACHABLE,
  SMPROF_S3_ERROR_BAD_RESPONSE,
  SMPROF_S3_ERROR_FAILED,
  SMPROF_S3_ERROR_CHANGED,
  SMPROF_S3_ERROR_TOO_LARGE,
  SMPROF_S3_ERROR_CLOCK_SKEWED,
} SmprofS3Error;

GQuark smprof_s3_error_quark (void);

/**
 * SmprofS3ErrorResponse:
 * @code: S3's error code, such as `AccessDenied` or `SlowDown`
 * @message: (nullable): S3's message; for access denied it may name the principal
 * @region: (nullable): the region S3 says the bucket is in
 * @endpoint: (nullable): the endpoint S3 says to use
 *
 * The `<Error>` document S3 sends with a failed request.
 */
typedef struct
{
  char *code;
  char *message;
  char *region;
  char *endpoint;
} SmprofS3ErrorResponse;

SmprofS3ErrorResponse *smprof_s3_error_response_parse (const char            *data,
                                                       gsize                  length);
void                   smprof_s3_error_response_free  (SmprofS3ErrorResponse *response);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofS3ErrorResponse, smprof_s3_error_response_free)

G_END_DECLS
