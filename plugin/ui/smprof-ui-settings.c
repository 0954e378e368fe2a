/* smprof-ui-settings.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-ui-settings.h"

/**
 * smprof_ui_settings_new:
 * @child: (nullable): a child schema's name ("s3"), or %NULL for the top one
 *
 * The plugin runs in hosts other than the viewer (and in tests without its
 * schema), where g_settings_new() would abort: the schema is looked up first,
 * and its absence only means the built-in defaults apply.
 *
 * Returns: (transfer full) (nullable): the settings, or %NULL when the
 *   viewer's schema is not installed
 */
GSettings *
smprof_ui_settings_new (const char *child)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_auto(GStrv) children = NULL;

  if (source == NULL)
    return NULL;

  schema = g_settings_schema_source_lookup (source, SMPROF_UI_SETTINGS_SCHEMA_ID, TRUE);
  if (schema == NULL)
    return NULL;

  settings = g_settings_new_full (schema, NULL, NULL);
  if (child == NULL)
    return g_steal_pointer (&settings);

  children = g_settings_schema_list_children (schema);
  if (!g_strv_contains ((const char * const *) children, child))  /* an older viewer */
    return NULL;

  return g_settings_get_child (settings, child);
}

static gboolean
env_is_set (const char *name)
{
  const char *value = g_getenv (name);

  return value != NULL && value[0] != '\0';
}

/**
 * smprof_ui_settings_get_s3_options:
 * @s3_settings: (nullable): the viewer's "s3" settings (smprof_ui_settings_new ("s3"))
 * @options: (inout): the options of the S3 source about to be made
 *
 * Sets the parallel requests and the cache's size from the settings. The
 * environment variables the core reads (`SMPROF_S3_MAX_CONNECTIONS`,
 * `SMPROF_S3_CACHE_MAX_SIZE`) win over the settings, so tests and scripts
 * can force a value whatever the user chose; without the settings or the
 * variables, the core's defaults apply. A cache-size of 0 turns the cache off.
 */
void
smprof_ui_settings_get_s3_options (GSettings             *s3_settings,
                                   SmprofS3SourceOptions *options)
{
  g_return_if_fail (s3_settings == NULL || G_IS_SETTINGS (s3_settings));
  g_return_if_fail (options != NULL);

  if (s3_settings == NULL)
    return;

  if (!env_is_set ("SMPROF_S3_MAX_CONNECTIONS"))
    options->max_connections = g_settings_get_uint (s3_settings, "max-connections");

  if (!env_is_set ("SMPROF_S3_CACHE_MAX_SIZE"))
    {
      guint64 size = g_settings_get_uint64 (s3_settings, "cache-size");

      if (size == 0)
        options->no_cache = TRUE;
      else
        options->cache_max_size = size;
    }
}
