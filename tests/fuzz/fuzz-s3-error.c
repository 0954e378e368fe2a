/* fuzz-s3-error.c: smprof_s3_error_response_parse() on arbitrary bodies, as
 * S3 (or anything between smprof and S3) may send with a failed request
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-s3-error.h"

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *body = fuzz_copy (data, size);
  g_autoptr(SmprofS3ErrorResponse) response = smprof_s3_error_response_parse (body, size);

  if (response == NULL)
    return 0;

  /* The code, message and region end up in messages for the user. */
  FUZZ_CHECK (response->code != NULL && g_utf8_validate (response->code, -1, NULL));
  FUZZ_CHECK (response->message == NULL || g_utf8_validate (response->message, -1, NULL));
  FUZZ_CHECK (response->region == NULL || g_utf8_validate (response->region, -1, NULL));
  FUZZ_CHECK (response->endpoint == NULL || g_utf8_validate (response->endpoint, -1, NULL));

  return 0;
}
