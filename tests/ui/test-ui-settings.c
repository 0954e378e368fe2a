/* test-ui-settings.c: the viewer's S3 settings reach the S3 source's options,
 * the environment wins over them, and a host without the schema is fine
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

/* In a fresh process whose schema folders hold no viewer schema: no
 * settings, no abort, and the options keep the core's defaults. */
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui-settings/s3/defaults", test_defaults);
  g_test_add_func ("/ui-settings/s3/values", test_values);
  g_test_add_func ("/ui-settings/s3/environment-wins", test_environment_wins);
  g_test_add_func ("/ui-settings/no-schema", test_no_schema);

  return g_test_run ();
}
