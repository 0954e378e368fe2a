/* smprof-aws-credentials.h: AWS credentials, found as the AWS tools find them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * SmprofAwsCredentials:
 * @access_key_id: the access key id
 * @secret_access_key: the secret; never print it
 * @session_token: (nullable): the session token of temporary credentials; never print it
 * @expiration: when they expire, in seconds since the epoch, or 0 for never
 * @origin: where they were found, for messages (no secret in it)
 *
 * A set of credentials. Immutable and reference counted, so a request can
 * keep the set it signed with while another thread refreshes.
 */
typedef struct
{
  char   *access_key_id;
  char   *secret_access_key;
  char   *session_token;
  gint64  expiration;
  char   *origin;
} SmprofAwsCredentials;

SmprofAwsCredentials *smprof_aws_credentials_new          (const char            *access_key_id,
                                                           const char            *secret_access_key,
                                                           const char            *session_token,
                                                           gint64                 expiration,
                                                           const char            *origin);
SmprofAwsCredentials *smprof_aws_credentials_ref          (SmprofAwsCredentials  *self);
void                  smprof_aws_credentials_unref        (SmprofAwsCredentials  *self);
gboolean              smprof_aws_credentials_needs_refresh (SmprofAwsCredentials *self,
                                                           gint64                 now);
SmprofAwsCredentials *smprof_aws_credentials_parse_json   (const char            *data,
                                                           gsize                  length,
                                                           const char            *origin,
                                                           GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofAwsCredentials, smprof_aws_credentials_unref)

#define SMPROF_TYPE_AWS_CREDENTIALS_PROVIDER (smprof_aws_credentials_provider_get_type ())

G_DECLARE_FINAL_TYPE (SmprofAwsCredentialsProvider, smprof_aws_credentials_provider,
                      SMPROF, AWS_CREDENTIALS_PROVIDER, GObject)

SmprofAwsCredentialsProvider *smprof_aws_credentials_provider_new        (const char * const            *envp);
SmprofAwsCredentials         *smprof_aws_credentials_provider_get        (SmprofAwsCredentialsProvider  *self,
                                                                          GCancellable                  *cancellable,
                                                                          GError                       **error);
void                          smprof_aws_credentials_provider_invalidate (SmprofAwsCredentialsProvider  *self);

G_END_DECLS
