/* fuzz-aws-credentials.c: smprof_aws_credentials_parse_json() on arbitrary
 * bodies, as a container credentials endpoint or the instance metadata
 * service (or anything answering in their place) may send
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-aws-credentials.h"

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *body = fuzz_copy (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofAwsCredentials) credentials =
    smprof_aws_credentials_parse_json (body, size, "fuzz", &error);

  if (credentials == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message != NULL);
      FUZZ_CHECK (g_utf8_validate (error->message, -1, NULL));
      return 0;
    }

  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (credentials->access_key_id != NULL && credentials->secret_access_key != NULL);
  smprof_aws_credentials_needs_refresh (credentials, 0);
  smprof_aws_credentials_needs_refresh (credentials, G_MAXINT64);

  return 0;
}
