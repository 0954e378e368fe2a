/* test-ui-settings.c: the plugin's own schema (its keys and defaults), its S3
 * settings reaching the S3 source's options with the environment winning, the
 * export folder, the schema found in the plugin's own folder, and a host
 * without the schema
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gstdio.h>

#include "smprof-s3-client.h"
#include "smprof-ui-settings.h"

static GSettings *
s3_settings_reset (void)
{
  GSettings *s3 = smprof_ui_settings_new ("s3");

  g_assert_nonnull (s3);
  g_settings_reset (s3, "max-connections");
  g_settings_reset (s3, "cache-size");
  g_unsetenv ("SMPROF_S3_MAX_CONNECTIONS");
  g_unsetenv ("SMPROF_S3_CACHE_MAX_SIZE");

  return s3;
}

/* The plugin's schema, with every key the plugin reads, and the viewer's
 * schema with none of them. */
static void
test_schema (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = g_settings_schema_source_lookup (source, SMPROF_UI_SETTINGS_SCHEMA_ID, FALSE);
  g_autoptr(GSettingsSchema) s3 = g_settings_schema_source_lookup (source, SMPROF_UI_SETTINGS_SCHEMA_ID ".s3", FALSE);
  g_autoptr(GSettingsSchema) viewer = g_settings_schema_source_lookup (source, "io.github.smprof.Viewer", FALSE);
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  g_autoptr(GSettings) s3_settings = smprof_ui_settings_new ("s3");
  g_autofree char *colors = NULL;
  g_autofree char *folder = NULL;
  g_auto(GStrv) viewer_keys = NULL;
  g_auto(GStrv) viewer_children = NULL;

  g_assert_nonnull (schema);
  g_assert_nonnull (s3);
  for (const char * const *key = (const char * const[]) { "flame-graph-color-scheme", "show-step-columns",
                                                          "last-export-folder", NULL };
       *key != NULL; key++)
    g_assert_true (g_settings_schema_has_key (schema, *key));
  for (const char * const *key = (const char * const[]) { "max-connections", "cache-size", "refresh-interval", NULL };
       *key != NULL; key++)
    g_assert_true (g_settings_schema_has_key (s3, *key));

  /* The same defaults as when the keys were the viewer's: those of the core
   * (SMPROF_S3_DEFAULT_MAX_CONNECTIONS, the 1 GiB cache). */
  g_assert_nonnull (settings);
  g_assert_nonnull (s3_settings);
  g_settings_reset (settings, "flame-graph-color-scheme");
  g_settings_reset (settings, "show-step-columns");
  g_settings_reset (settings, "last-export-folder");
  g_assert_cmpuint (g_settings_get_uint (s3_settings, "max-connections"), ==, SMPROF_S3_DEFAULT_MAX_CONNECTIONS);
  g_assert_cmpuint (g_settings_get_uint64 (s3_settings, "cache-size"), ==, G_GUINT64_CONSTANT (1) << 30);
  g_assert_cmpuint (g_settings_get_uint (s3_settings, "refresh-interval"), ==, 0);
  colors = g_settings_get_string (settings, "flame-graph-color-scheme");
  g_assert_cmpstr (colors, ==, "default");
  g_assert_false (g_settings_get_boolean (settings, "show-step-columns"));
  folder = g_settings_get_string (settings, "last-export-folder");
  g_assert_cmpstr (folder, ==, "");

  /* The viewer's schema keeps only the viewer's keys. */
  g_assert_nonnull (viewer);
  viewer_keys = g_settings_schema_list_keys (viewer);
  viewer_children = g_settings_schema_list_children (viewer);
  for (guint i = 0; viewer_keys[i] != NULL; i++)
    g_assert_false (g_settings_schema_has_key (schema, viewer_keys[i]));
  g_assert_cmpuint (g_strv_length (viewer_children), ==, 0);
}

static void
test_defaults (void)
{
  g_autoptr(GSettings) s3 = s3_settings_reset ();
  SmprofS3SourceOptions options = { 0 };

  smprof_ui_settings_get_s3_options (s3, &options);
  g_assert_cmpuint (options.max_connections, ==, SMPROF_S3_DEFAULT_MAX_CONNECTIONS);
  g_assert_cmpuint (options.cache_max_size, ==, G_GUINT64_CONSTANT (1) << 30);
  g_assert_false (options.no_cache);
}

static void
test_values (void)
{
  g_autoptr(GSettings) s3 = s3_settings_reset ();
  SmprofS3SourceOptions options = { 0 };

  g_settings_set_uint (s3, "max-connections", 3);
  g_settings_set_uint64 (s3, "cache-size", 5 << 20);
  smprof_ui_settings_get_s3_options (s3, &options);
  g_assert_cmpuint (options.max_connections, ==, 3);
  g_assert_cmpuint (options.cache_max_size, ==, 5 << 20);
  g_assert_false (options.no_cache);

  /* 0 turns the cache off, as the schema says. */
  memset (&options, 0, sizeof options);
  g_settings_set_uint64 (s3, "cache-size", 0);
  smprof_ui_settings_get_s3_options (s3, &options);
  g_assert_true (options.no_cache);
  g_assert_cmpuint (options.max_connections, ==, 3);
}

/* The variables leave the option at 0, so the core reads them. */
static void
test_environment_wins (void)
{
  g_autoptr(GSettings) s3 = s3_settings_reset ();
  SmprofS3SourceOptions options = { 0 };

  g_settings_set_uint (s3, "max-connections", 3);
  g_settings_set_uint64 (s3, "cache-size", 0);
  g_setenv ("SMPROF_S3_MAX_CONNECTIONS", "1", TRUE);
  g_setenv ("SMPROF_S3_CACHE_MAX_SIZE", "10M", TRUE);
  smprof_ui_settings_get_s3_options (s3, &options);
  g_assert_cmpuint (options.max_connections, ==, 0);
  g_assert_cmpuint (options.cache_max_size, ==, 0);
  g_assert_false (options.no_cache);

  /* Set but empty is unset. */
  g_setenv ("SMPROF_S3_MAX_CONNECTIONS", "", TRUE);
  smprof_ui_settings_get_s3_options (s3, &options);
  g_assert_cmpuint (options.max_connections, ==, 3);

  g_unsetenv ("SMPROF_S3_MAX_CONNECTIONS");
  g_unsetenv ("SMPROF_S3_CACHE_MAX_SIZE");
}

/* In a fresh process whose schema folders hold no plugin schema, nor its own
 * folder: no settings, no abort, and the options keep the core's defaults. */
static void
test_no_schema (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *empty = g_dir_make_tmp ("smprof-no-schema-XXXXXX", NULL);
      g_autoptr(GSettings) settings = NULL;
      SmprofS3SourceOptions options = { 0 };

      g_assert_nonnull (empty);
      g_setenv ("GSETTINGS_SCHEMA_DIR", empty, TRUE);
      g_setenv ("XDG_DATA_DIRS", empty, TRUE);
      g_setenv ("XDG_DATA_HOME", empty, TRUE);
      g_setenv (SMPROF_UI_SETTINGS_DIR_ENV, empty, TRUE);

      settings = smprof_ui_settings_new ("s3");
      g_assert_null (settings);
      g_assert_null (smprof_ui_settings_new (NULL));
      smprof_ui_settings_get_s3_options (settings, &options);
      g_assert_cmpuint (options.max_connections, ==, 0);
      g_assert_false (options.no_cache);
      g_rmdir (empty);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* A Flatpak extension's prefix is not among GSettings' folders: the plugin
 * finds its schema in its own installed folder. */
static void
test_own_folder (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *empty = g_dir_make_tmp ("smprof-no-schema-XXXXXX", NULL);
      g_autoptr(GSettings) settings = NULL;
      g_autoptr(GSettingsSchema) schema = NULL;

      g_assert_nonnull (empty);
      g_setenv (SMPROF_UI_SETTINGS_DIR_ENV, g_getenv ("GSETTINGS_SCHEMA_DIR"), TRUE);
      g_setenv ("GSETTINGS_SCHEMA_DIR", empty, TRUE);
      g_setenv ("XDG_DATA_DIRS", empty, TRUE);
      g_setenv ("XDG_DATA_HOME", empty, TRUE);

      /* GSettings itself does not find it (it finds no schema at all)... */
      g_assert_null (g_settings_schema_source_get_default ());
      /* ... the plugin does, and its values work. */
      settings = smprof_ui_settings_new (NULL);
      g_assert_nonnull (settings);
      g_object_get (settings, "settings-schema", &schema, NULL);
      g_assert_cmpstr (g_settings_schema_get_id (schema), ==, SMPROF_UI_SETTINGS_SCHEMA_ID);
      g_settings_set_boolean (settings, "show-step-columns", TRUE);
      g_assert_true (g_settings_get_boolean (settings, "show-step-columns"));
      g_clear_object (&settings);
      settings = smprof_ui_settings_new ("s3");
      g_assert_nonnull (settings);
      g_assert_cmpuint (g_settings_get_uint (settings, "max-connections"), ==, SMPROF_S3_DEFAULT_MAX_CONNECTIONS);
      g_rmdir (empty);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* Save dialogs start in the last folder saved in, else Documents or home,
 * never the current folder. */
static void
test_export_folder (void)
{
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GFile) cwd = NULL;
  g_autoptr(GFile) chosen = g_file_new_for_path ("/srv/reports/2026");
  g_autofree char *stored = NULL;
  g_autofree char *here = g_get_current_dir ();

  g_settings_reset (settings, "last-export-folder");
  folder = smprof_ui_settings_dup_export_folder ();
  cwd = g_file_new_for_path (here);
  g_assert_false (g_file_equal (folder, cwd));
  g_assert_true (g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY);

  smprof_ui_settings_set_export_folder (chosen);
  stored = g_settings_get_string (settings, "last-export-folder");
  g_assert_cmpstr (stored, ==, "file:///srv/reports/2026");
  g_clear_object (&folder);
  folder = smprof_ui_settings_dup_export_folder ();
  g_assert_true (g_file_equal (folder, chosen));

  g_settings_reset (settings, "last-export-folder");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui-settings/schema", test_schema);
  g_test_add_func ("/ui-settings/s3/defaults", test_defaults);
  g_test_add_func ("/ui-settings/s3/values", test_values);
  g_test_add_func ("/ui-settings/s3/environment-wins", test_environment_wins);
  g_test_add_func ("/ui-settings/export-folder", test_export_folder);
  g_test_add_func ("/ui-settings/own-folder", test_own_folder);
  g_test_add_func ("/ui-settings/no-schema", test_no_schema);

  return g_test_run ();
}
