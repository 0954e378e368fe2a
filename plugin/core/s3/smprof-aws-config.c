/* smprof-aws-config.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-aws-config.h"

struct _SmprofAwsConfig
{
  GHashTable *sections;  /* name -> GHashTable (key -> value) */
};

/* "[ profile   foo ]" and "[profile foo]" name the same section. */
static char *
normalize_section_name (const char *text,
                        gsize       length)
{
  g_autofree char *raw = g_strndup (text, length);
  g_auto(GStrv) words = g_strsplit_set (g_strstrip (raw), " \t", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, words[i]);
    }

  return g_string_free (out, FALSE);
}

static void
set_value (GHashTable *section,
           const char *key,
           const char *value)
{
  g_hash_table_insert (section, g_ascii_strdown (key, -1), g_strdup (value));
}

/**
 * smprof_aws_config_new_from_data:
 * @data: the file's text
 * @length: its length, or -1 if nul-terminated
 *
 * Parses leniently: a line that is neither a header, a comment nor a
 * `key = value` is skipped, as is anything before the first section, so one
 * odd line never hides the rest of a user's profiles.
 *
 * Returns: (transfer full): the parsed file
 */
SmprofAwsConfig *
smprof_aws_config_new_from_data (const char *data,
                                 gssize      length)
{
  SmprofAwsConfig *self = g_new0 (SmprofAwsConfig, 1);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *section = NULL;
  g_autofree char *last_key = NULL;   /* for continuation and nested lines */
  gboolean last_key_nested = FALSE;

  self->sections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) g_hash_table_unref);

  g_return_val_if_fail (data != NULL || length == 0, self);

  /* g_strndup (NULL, 0) is NULL, not "": no data is an empty file. */
  if (data == NULL)
    text = g_strdup ("");
  else
    text = length < 0 ? g_strdup (data) : g_strndup (data, length);
  lines = g_strsplit (g_str_has_prefix (text, "\xEF\xBB\xBF") ? text + 3 : text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = lines[i];
      gsize len = strlen (line);
      gboolean indented;
      char *stripped;
      char *sep;

      if (len > 0 && line[len - 1] == '\r')
        line[--len] = '\0';

      indented = line[0] == ' ' || line[0] == '\t';
      stripped = g_strstrip (line);

      if (stripped[0] == '\0' || stripped[0] == '#' || stripped[0] == ';')
        continue;

      if (!indented && stripped[0] == '[')
        {
          const char *close = strrchr (stripped, ']');
          g_autofree char *name = NULL;

          if (close == NULL)
            {
              section = NULL;
              continue;
            }

          name = normalize_section_name (stripped + 1, close - stripped - 1);
          section = g_hash_table_lookup (self->sections, name);
          if (section == NULL)
            {
              section = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
              g_hash_table_insert (self->sections, g_steal_pointer (&name), section);
            }
          g_clear_pointer (&last_key, g_free);
          continue;
        }

      if (section == NULL)
        continue;

      if (indented && last_key != NULL)
        {
          sep = strpbrk (stripped, "=:");
          if (last_key_nested && sep != NULL)
            {
              g_autofree char *sub = g_strndup (stripped, sep - stripped);
              g_autofree char *full = g_strconcat (last_key, ".", g_strstrip (sub), NULL);

              set_value (section, full, g_strstrip (sep + 1));
            }
          else if (!last_key_nested)
            {
              /* configparser keeps continuation lines, joined by newlines */
              const char *previous = g_hash_table_lookup (section, last_key);
              g_autofree char *joined = g_strconcat (previous, "\n", stripped, NULL);

              set_value (section, last_key, joined);
            }
          continue;
        }

      sep = strpbrk (stripped, "=:");
      if (sep == NULL)
        continue;

      {
        g_autofree char *key = g_strndup (stripped, sep - stripped);
        const char *value = g_strstrip (sep + 1);

        g_strstrip (key);
        if (key[0] == '\0')
          continue;

        g_free (last_key);
        last_key = g_ascii_strdown (key, -1);
        last_key_nested = value[0] == '\0';
        if (!last_key_nested)
          set_value (section, last_key, value);
      }
    }

  return self;
}

/**
 * smprof_aws_config_new_from_file:
 * @path: a file
 * @error: a location for a #GError, or %NULL
 *
 * Returns: (transfer full) (nullable): the parsed file, or %NULL if it cannot
 *   be read (%G_FILE_ERROR_NOENT when it does not exist)
 */
SmprofAwsConfig *
smprof_aws_config_new_from_file (const char  *path,
                                 GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;

  return smprof_aws_config_new_from_data (contents, length);
}

void
smprof_aws_config_free (SmprofAwsConfig *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->sections);
  g_free (self);
}

gboolean
smprof_aws_config_has_section (SmprofAwsConfig *self,
                               const char      *section)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (section != NULL, FALSE);

  return g_hash_table_contains (self->sections, section);
}

/**
 * smprof_aws_config_get:
 * @self: a parsed file
 * @section: a section name, words separated by one space (`profile foo`)
 * @key: a key, lower case; `parent.child` for a nested one
 *
 * Returns: (nullable): the value, or %NULL
 */
const char *
smprof_aws_config_get (SmprofAwsConfig *self,
                       const char      *section,
                       const char      *key)
{
  GHashTable *values;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (section != NULL && key != NULL, NULL);

  values = g_hash_table_lookup (self->sections, section);
  if (values == NULL)
    return NULL;

  return g_hash_table_lookup (values, key);
}

/**
 * smprof_aws_env_get:
 * @envp: (nullable): an environment, %NULL for the process's
 * @name: a variable
 *
 * Empty variables count as unset, as they do for the AWS CLI.
 *
 * Returns: (nullable): the value, or %NULL
 */
const char *
smprof_aws_env_get (const char * const *envp,
                    const char         *name)
{
  const char *value;

  if (envp == NULL)
    value = g_getenv (name);
  else
    value = g_environ_getenv ((char **) envp, name);

  return value != NULL && value[0] != '\0' ? value : NULL;
}

gboolean
smprof_aws_env_is_true (const char * const *envp,
                        const char         *name)
{
  const char *value = smprof_aws_env_get (envp, name);

  return value != NULL && g_ascii_strcasecmp (value, "true") == 0;
}

static char *
expand_home (const char * const *envp,
             const char         *path)
{
  const char *home = smprof_aws_env_get (envp, "HOME");

  if (home == NULL)
    home = g_get_home_dir ();

  if (strcmp (path, "~") == 0)
    return g_strdup (home);
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (home, path + 2, NULL);

  return g_strdup (path);
}

static SmprofAwsConfig *
load_shared_file (const char  *path,
                  char       **problem)
{
  g_autoptr(GError) error = NULL;
  SmprofAwsConfig *config = smprof_aws_config_new_from_file (path, &error);

  if (config == NULL)
    *problem = g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT)
               ? g_strdup (_("not found"))
               : g_strdup (error->message);

  return config;
}

/**
 * smprof_aws_shared_config_load:
 * @envp: (nullable): the environment to read, %NULL for the process's
 *
 * Reads `AWS_SHARED_CREDENTIALS_FILE` (default `~/.aws/credentials`),
 * `AWS_CONFIG_FILE` (default `~/.aws/config`) and the profile
 * (`AWS_PROFILE`, then `AWS_DEFAULT_PROFILE`, else `default`). Missing files
 * are not errors: they are noted for the "where did it look" message.
 *
 * Returns: (transfer full): what was found
 */
SmprofAwsSharedConfig *
smprof_aws_shared_config_load (const char * const *envp)
{
  SmprofAwsSharedConfig *self = g_new0 (SmprofAwsSharedConfig, 1);
  const char *profile = smprof_aws_env_get (envp, "AWS_PROFILE");
  const char *path;

  if (profile == NULL)
    profile = smprof_aws_env_get (envp, "AWS_DEFAULT_PROFILE");
  self->profile_from_env = profile != NULL;
  self->profile = g_strdup (profile != NULL ? profile : "default");

  path = smprof_aws_env_get (envp, "AWS_SHARED_CREDENTIALS_FILE");
  self->credentials_path = expand_home (envp, path != NULL ? path : "~/.aws/credentials");
  path = smprof_aws_env_get (envp, "AWS_CONFIG_FILE");
  self->config_path = expand_home (envp, path != NULL ? path : "~/.aws/config");

  self->credentials = load_shared_file (self->credentials_path, &self->credentials_problem);
  self->config = load_shared_file (self->config_path, &self->config_problem);

  return self;
}

void
smprof_aws_shared_config_free (SmprofAwsSharedConfig *self)
{
  if (self == NULL)
    return;

  g_free (self->profile);
  g_free (self->credentials_path);
  g_free (self->config_path);
  g_clear_pointer (&self->credentials, smprof_aws_config_free);
  g_clear_pointer (&self->config, smprof_aws_config_free);
  g_free (self->credentials_problem);
  g_free (self->config_problem);
  g_free (self);
}

/* In the config file a profile is "[profile NAME]", except the default one,
 * which is "[default]" (botocore accepts "[profile default]" too). */
static const char *
config_profile_get (SmprofAwsSharedConfig *self,
                    const char            *key)
{
  g_autofree char *section = NULL;
  const char *value;

  if (self->config == NULL)
    return NULL;

  section = g_strconcat ("profile ", self->profile, NULL);
  value = smprof_aws_config_get (self->config, section, key);
  if (value == NULL && strcmp (self->profile, "default") == 0)
    value = smprof_aws_config_get (self->config, "default", key);

  return value;
}

gboolean
smprof_aws_shared_config_has_profile (SmprofAwsSharedConfig *self)
{
  g_autofree char *section = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  section = g_strconcat ("profile ", self->profile, NULL);

  return (self->credentials != NULL && smprof_aws_config_has_section (self->credentials, self->profile)) ||
         (self->config != NULL && (smprof_aws_config_has_section (self->config, section) ||
                                   (strcmp (self->profile, "default") == 0 &&
                                    smprof_aws_config_has_section (self->config, "default"))));
}

/**
 * smprof_aws_shared_config_get:
 * @self: the shared files
 * @key: a key of the profile in the config file, such as `region`
 *
 * Returns: (nullable): the value, or %NULL
 */
const char *
smprof_aws_shared_config_get (SmprofAwsSharedConfig *self,
                              const char            *key)
{
  g_return_val_if_fail (self != NULL, NULL);

  return config_profile_get (self, key);
}

/**
 * smprof_aws_shared_config_get_credential:
 * @self: the shared files
 * @key: such as `aws_access_key_id`
 * @origin: (out) (optional): the file it came from
 *
 * The credentials file wins over the config file, as in the AWS CLI.
 *
 * Returns: (nullable): the value, or %NULL
 */
const char *
smprof_aws_shared_config_get_credential (SmprofAwsSharedConfig  *self,
                                         const char             *key,
                                         const char            **origin)
{
  const char *value = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->credentials != NULL)
    value = smprof_aws_config_get (self->credentials, self->profile, key);
  if (value != NULL)
    {
      if (origin != NULL)
        *origin = self->credentials_path;
      return value;
    }

  value = config_profile_get (self, key);
  if (value != NULL && origin != NULL)
    *origin = self->config_path;

  return value;
}

/**
 * smprof_aws_resolve_region:
 * @envp: (nullable): the environment, %NULL for the process's
 * @shared: (nullable): the shared files
 *
 * `AWS_REGION`, then `AWS_DEFAULT_REGION`, then the profile's `region`.
 *
 * Returns: (transfer full) (nullable): the region, or %NULL when nothing says
 */
char *
smprof_aws_resolve_region (const char * const    *envp,
                           SmprofAwsSharedConfig *shared)
{
  const char *region = smprof_aws_env_get (envp, "AWS_REGION");

  if (region == NULL)
    region = smprof_aws_env_get (envp, "AWS_DEFAULT_REGION");
  if (region == NULL && shared != NULL)
    region = smprof_aws_shared_config_get (shared, "region");

  return g_strdup (region);
}

/**
 * smprof_aws_resolve_s3_endpoint:
 * @envp: (nullable): the environment, %NULL for the process's
 * @shared: (nullable): the shared files
 *
 * `AWS_ENDPOINT_URL_S3`, then `AWS_ENDPOINT_URL`, then the profile's
 * `endpoint_url`; none of them when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` is
 * true.
 *
 * Returns: (transfer full) (nullable): the endpoint URL, or %NULL for AWS's own
 */
char *
smprof_aws_resolve_s3_endpoint (const char * const    *envp,
                                SmprofAwsSharedConfig *shared)
{
  const char *endpoint;

  if (smprof_aws_env_is_true (envp, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"))
    return NULL;

  endpoint = smprof_aws_env_get (envp, "AWS_ENDPOINT_URL_S3");
  if (endpoint == NULL)
    endpoint = smprof_aws_env_get (envp, "AWS_ENDPOINT_URL");
  if (endpoint == NULL && shared != NULL)
    endpoint = smprof_aws_shared_config_get (shared, "endpoint_url");

  return g_strdup (endpoint);
}
