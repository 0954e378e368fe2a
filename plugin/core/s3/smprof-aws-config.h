/* smprof-aws-config.h: the AWS shared files (~/.aws/credentials, ~/.aws/config)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SmprofAwsConfig:
 *
 * One INI file as the AWS tools read it: `[section]` headers, `key = value`
 * (or `key: value`) lines, `#` and `;` comment lines, keys case-insensitive,
 * indented lines continuing a value, and nested blocks (`s3 =` followed by
 * indented `addressing_style = path`) stored as `s3.addressing_style`.
 */
typedef struct _SmprofAwsConfig SmprofAwsConfig;

SmprofAwsConfig  *smprof_aws_config_new_from_data (const char             *data,
                                                   gssize                  length);
SmprofAwsConfig  *smprof_aws_config_new_from_file (const char             *path,
                                                   GError                **error);
void              smprof_aws_config_free          (SmprofAwsConfig        *self);
gboolean          smprof_aws_config_has_section   (SmprofAwsConfig        *self,
                                                   const char             *section);
const char       *smprof_aws_config_get           (SmprofAwsConfig        *self,
                                                   const char             *section,
                                                   const char             *key);

/**
 * SmprofAwsSharedConfig:
 * @profile: the profile in use (`AWS_PROFILE`, else `default`)
 * @profile_from_env: whether @profile was named by the environment
 * @credentials_path: the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`)
 * @config_path: the shared config file (`AWS_CONFIG_FILE`)
 * @credentials: (nullable): @credentials_path parsed, %NULL if it could not be read
 * @config: (nullable): @config_path parsed, likewise
 * @credentials_problem: (nullable): why @credentials is %NULL
 * @config_problem: (nullable): why @config is %NULL
 *
 * The two shared files and the profile, found as the AWS CLI finds them.
 */
typedef struct
{
  char            *profile;
  gboolean         profile_from_env;
  char            *credentials_path;
  char            *config_path;
  SmprofAwsConfig *credentials;
  SmprofAwsConfig *config;
  char            *credentials_problem;
  char            *config_problem;
} SmprofAwsSharedConfig;

SmprofAwsSharedConfig *smprof_aws_shared_config_load            (const char * const    *envp);
void                   smprof_aws_shared_config_free            (SmprofAwsSharedConfig *self);
gboolean               smprof_aws_shared_config_has_profile     (SmprofAwsSharedConfig *self);
const char            *smprof_aws_shared_config_get             (SmprofAwsSharedConfig *self,
                                                                 const char            *key);
const char            *smprof_aws_shared_config_get_credential  (SmprofAwsSharedConfig *self,
                                                                 const char            *key,
                                                                 const char           **origin);

char                  *smprof_aws_resolve_region                (const char * const    *envp,
                                                                 SmprofAwsSharedConfig *shared);
char                  *smprof_aws_resolve_s3_endpoint           (const char * const    *envp,
                                                                 SmprofAwsSharedConfig *shared);
const char            *smprof_aws_env_get                       (const char * const    *envp,
                                                                 const char            *name);
gboolean               smprof_aws_env_is_true                   (const char * const    *envp,
                                                                 const char            *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofAwsConfig, smprof_aws_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofAwsSharedConfig, smprof_aws_shared_config_free)

G_END_DECLS
