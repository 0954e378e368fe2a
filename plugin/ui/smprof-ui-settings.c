/* smprof-ui-settings.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-ui-settings.h"

/* The plugin owns its settings: a schema it installs beside itself, which the
 * viewer never reads. The plugin runs in hosts other than the viewer, in a
 * Flatpak extension whose prefix GSettings does not search, and in tests
 * without any schema, where g_settings_new() would abort: the schema is
 * looked up, first where GSettings looks, then in the plugin's own
 * installed schema folder, and its absence only means the built-in defaults
 * apply. */

static GSettingsSchema *
lookup_schema (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchemaSource) own = NULL;
  GSettingsSchema *schema = NULL;
  const char *dir = g_getenv (SMPROF_UI_SETTINGS_DIR_ENV);

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SMPROF_UI_SETTINGS_SCHEMA_ID, TRUE);
  if (schema != NULL)
    return schema;

  if (dir == NULL || dir[0] == '\0')
    dir = SMPROF_PLUGIN_SCHEMA_DIR;
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;

  own = g_settings_schema_source_new_from_directory (dir, source, FALSE, NULL);
  if (own == NULL)
    return NULL;

  return g_settings_schema_source_lookup (own, SMPROF_UI_SETTINGS_SCHEMA_ID, FALSE);
}

/**
 * smprof_ui_settings_new:
 * @child: (nullable): a child schema's name ("s3"), or %NULL for the top one
 *
 * Returns: (transfer full) (nullable): the plugin's settings, or %NULL when
 *   its schema is not installed
 */
GSettings *
smprof_ui_settings_new (const char *child)
{
  g_autoptr(GSettingsSchema) schema = lookup_schema ();
  g_autoptr(GSettings) settings = NULL;
  g_auto(GStrv) children = NULL;

  if (schema == NULL)
    return NULL;

  settings = g_settings_new_full (schema, NULL, NULL);
  if (child == NULL)
    return g_steal_pointer (&settings);

  children = g_settings_schema_list_children (schema);
  if (!g_strv_contains ((const char * const *) children, child))
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
 * @s3_settings: (nullable): the plugin's "s3" settings (smprof_ui_settings_new ("s3"))
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

/**
 * smprof_ui_settings_bind:
 * @key: a key of the plugin's top schema
 * @object: (type GObject): an object
 * @property: @object's property to keep equal to @key, both ways
 *
 * g_settings_bind() with %G_SETTINGS_BIND_DEFAULT, when the schema is
 * installed; without it, @property keeps its own value.
 */
void
smprof_ui_settings_bind (const char *key,
                         gpointer    object,
                         const char *property)
{
  g_autoptr(GSettings) settings = NULL;

  g_return_if_fail (key != NULL);
  g_return_if_fail (G_IS_OBJECT (object));
  g_return_if_fail (property != NULL);

  settings = smprof_ui_settings_new (NULL);
  if (settings != NULL)
    g_settings_bind (settings, key, object, property, G_SETTINGS_BIND_DEFAULT);
}

static GFile *
default_export_folder (void)
{
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

  if (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR))
    return g_file_new_for_path (documents);

  return g_file_new_for_path (g_get_home_dir ());
}

/**
 * smprof_ui_settings_dup_export_folder:
 *
 * Where a save dialog (an export, a report) starts: the folder the last one
 * saved in (the last-export-folder setting), else the user's Documents
 * folder, else the home folder; never the folder the viewer was started in.
 *
 * Returns: (transfer full): the folder
 */
GFile *
smprof_ui_settings_dup_export_folder (void)
{
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  g_autofree char *uri = NULL;

  if (settings != NULL)
    uri = g_settings_get_string (settings, "last-export-folder");
  if (uri == NULL || uri[0] == '\0')
    return default_export_folder ();

  return g_file_new_for_uri (uri);
}

/**
 * smprof_ui_settings_set_export_folder:
 * @folder: the folder a save dialog saved in
 *
 * Remembers @folder for the next save dialog.
 */
void
smprof_ui_settings_set_export_folder (GFile *folder)
{
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *uri = NULL;

  g_return_if_fail (G_IS_FILE (folder));

  settings = smprof_ui_settings_new (NULL);
  if (settings == NULL)
    return;

  uri = g_file_get_uri (folder);
  g_settings_set_string (settings, "last-export-folder", uri);
}
