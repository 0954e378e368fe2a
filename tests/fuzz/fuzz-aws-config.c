/* fuzz-aws-config.c: the AWS shared config/credentials file parser on
 * arbitrary files, then the profile, region and endpoint resolution over them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The same bytes serve as ~/.aws/config and ~/.aws/credentials, read through
 * smprof_aws_shared_config_load() from a temporary file, with and without a
 * profile named in the environment.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "fuzz-common.h"
#include "smprof-aws-config.h"

FUZZ_DEFINE_INITIALIZE ()

static char *tmp_path;

static void
remove_tmp (void)
{
  if (tmp_path != NULL)
    g_unlink (tmp_path);
}

static void
check_string (const char *value)
{
  /* Values go into HTTP requests and messages: they must at least be strings. */
  FUZZ_CHECK (value == NULL || strlen (value) < G_MAXINT32);
}

static void
resolve (const char * const *envp)
{
  g_autoptr(SmprofAwsSharedConfig) shared = smprof_aws_shared_config_load (envp);
  g_autofree char *region = NULL;
  g_autofree char *endpoint = NULL;
  const char *origin = NULL;

  FUZZ_CHECK (shared != NULL && shared->profile != NULL);
  smprof_aws_shared_config_has_profile (shared);
  check_string (smprof_aws_shared_config_get (shared, "region"));
  check_string (smprof_aws_shared_config_get (shared, "s3.addressing_style"));
  check_string (smprof_aws_shared_config_get_credential (shared, "aws_access_key_id", &origin));
  check_string (smprof_aws_shared_config_get_credential (shared, "aws_secret_access_key", &origin));
  check_string (smprof_aws_shared_config_get_credential (shared, "aws_session_token", &origin));
  region = smprof_aws_resolve_region (envp, shared);
  endpoint = smprof_aws_resolve_s3_endpoint (envp, shared);
  check_string (region);
  check_string (endpoint);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char *sections[] = { "default", "profile default", "profile dev", "dev", "sso-session x", "" };
  static const char *keys[] = { "region", "aws_access_key_id", "s3", "s3.addressing_style",
                                "s3.endpoint_url", "endpoint_url", "services", "" };
  g_autofree char *text = fuzz_copy (data, size);
  g_autoptr(SmprofAwsConfig) config = smprof_aws_config_new_from_data (text, size);
  g_autofree char *config_env = NULL;
  g_autofree char *credentials_env = NULL;

  FUZZ_CHECK (config != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      smprof_aws_config_has_section (config, sections[i]);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        check_string (smprof_aws_config_get (config, sections[i], keys[k]));
    }

  if (tmp_path == NULL)
    {
      int fd = g_file_open_tmp ("smprof-fuzz-aws-XXXXXX", &tmp_path, NULL);

      FUZZ_CHECK (fd >= 0);
      close (fd);
      atexit (remove_tmp);
    }
  /* Not g_file_set_contents(): it would fsync() on every input. */
  FUZZ_CHECK (g_file_set_contents_full (tmp_path, (const char *) data, size,
                                        G_FILE_SET_CONTENTS_NONE, 0600, NULL));

  config_env = g_strconcat ("AWS_CONFIG_FILE=", tmp_path, NULL);
  credentials_env = g_strconcat ("AWS_SHARED_CREDENTIALS_FILE=", tmp_path, NULL);
  {
    const char *plain[] = { config_env, credentials_env, "HOME=/nonexistent", NULL };
    const char *named[] = { config_env, credentials_env, "HOME=/nonexistent", "AWS_PROFILE=dev",
                            "AWS_REGION=", NULL };

    resolve (plain);
    resolve (named);
  }

  return 0;
}
