/* test-viewer-preferences.c: the Preferences window shows the plugin's page,
 * which edits the settings the plugin reads, both ways, and closes with Escape
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-application.h"
#include "smv-preferences-window.h"
#include "viewer-test-utils.h"

/* The SageMaker plugin's own schema, read here as any GSettings user would. */
#define PLUGIN_SCHEMA_ID "io.github.smprof.Viewer.Plugin.SageMaker"

static GtkAdjustment *
adjustment_of (GtkWidget  *window,
               const char *name)
{
  GtkWidget *spin = viewer_test_find (window, name);

  g_assert_true (GTK_IS_SPIN_BUTTON (spin));

  return gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (spin));
}

static SmvSourceRegistry *
plugin_registry (void)
{
  g_auto(GStrv) dirs = smv_source_registry_dup_default_dirs ();
  SmvSourceRegistry *registry = smv_source_registry_new ((const char * const *) dirs);

  g_assert_cmpuint (smv_source_registry_get_n_sources (registry), ==, 1);

  return registry;
}

static void
test_bindings (void)
{
  g_autoptr(SmvSourceRegistry) registry = plugin_registry ();
  g_autoptr(GSettings) settings = g_settings_new (PLUGIN_SCHEMA_ID);
  g_autoptr(GSettings) s3 = g_settings_get_child (settings, "s3");
  g_autofree char *scheme = NULL;
  GtkWidget *window;
  AdwComboRow *colors;
  GtkSwitch *steps;

  VIEWER_TEST_REQUIRE_DISPLAY ();

  g_settings_reset (settings, "flame-graph-color-scheme");
  g_settings_reset (settings, "show-step-columns");
  g_settings_reset (s3, "max-connections");
  g_settings_reset (s3, "cache-size");
  g_settings_reset (s3, "refresh-interval");
  g_settings_reset (settings, "outlier-threshold");

  g_assert_true (smv_preferences_window_has_pages (registry));
  window = smv_preferences_window_new (NULL, registry);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_present (GTK_WINDOW (window));
  viewer_test_spin (100);

  /* The plugin's page, shown. */
  g_assert_true (ADW_IS_PREFERENCES_PAGE (viewer_test_find (window, "sagemaker-preferences")));
  g_assert_true (gtk_widget_get_mapped (viewer_test_find (window, "sagemaker-preferences")));

  /* The defaults, shown. */
  colors = ADW_COMBO_ROW (viewer_test_find (window, "flame-graph-color-scheme"));
  g_assert_nonnull (colors);
  g_assert_cmpuint (adw_combo_row_get_selected (colors), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment_of (window, "max-connections")), ==, 8);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment_of (window, "cache-size")), ==, 1024);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment_of (window, "refresh-interval")), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment_of (window, "outlier-threshold")), ==, 5);
  steps = GTK_SWITCH (viewer_test_find (window, "show-step-columns"));
  g_assert_nonnull (steps);
  g_assert_false (gtk_switch_get_active (steps));

  /* The controls write the settings... */
  gtk_adjustment_set_value (adjustment_of (window, "max-connections"), 3);
  g_assert_cmpuint (g_settings_get_uint (s3, "max-connections"), ==, 3);
  gtk_adjustment_set_value (adjustment_of (window, "cache-size"), 64);
  g_assert_cmpuint (g_settings_get_uint64 (s3, "cache-size"), ==, G_GUINT64_CONSTANT (64) << 20);
  gtk_adjustment_set_value (adjustment_of (window, "cache-size"), 0);
  g_assert_cmpuint (g_settings_get_uint64 (s3, "cache-size"), ==, 0);
  gtk_adjustment_set_value (adjustment_of (window, "refresh-interval"), 45);
  g_assert_cmpuint (g_settings_get_uint (s3, "refresh-interval"), ==, 45);
  gtk_adjustment_set_value (adjustment_of (window, "outlier-threshold"), 3.5);
  g_assert_cmpfloat (g_settings_get_double (settings, "outlier-threshold"), ==, 3.5);
  adw_combo_row_set_selected (colors, 2);
  scheme = g_settings_get_string (settings, "flame-graph-color-scheme");
  g_assert_cmpstr (scheme, ==, "colorblind");
  gtk_switch_set_active (steps, TRUE);
  g_assert_true (g_settings_get_boolean (settings, "show-step-columns"));

  /* ...and follow them. */
  g_settings_set_string (settings, "flame-graph-color-scheme", "module");
  g_assert_cmpuint (adw_combo_row_get_selected (colors), ==, 1);
  g_settings_set_boolean (settings, "show-step-columns", FALSE);
  g_assert_false (gtk_switch_get_active (steps));
  g_settings_set_uint (s3, "max-connections", 16);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment_of (window, "max-connections")), ==, 16);
  g_settings_set_double (settings, "outlier-threshold", 8);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment_of (window, "outlier-threshold")), ==, 8);

  /* The schema's range holds. */
  gtk_adjustment_set_value (adjustment_of (window, "max-connections"), 500);
  g_assert_cmpuint (g_settings_get_uint (s3, "max-connections"), <=, 64);

  /* Escape closes it. */
  g_assert_true (viewer_test_press_shortcut (window, "Escape"));
  viewer_test_spin (100);
  g_assert_null (window);

  g_settings_reset (settings, "flame-graph-color-scheme");
  g_settings_reset (settings, "show-step-columns");
  g_settings_reset (s3, "max-connections");
  g_settings_reset (s3, "cache-size");
  g_settings_reset (s3, "refresh-interval");
  g_settings_reset (settings, "outlier-threshold");
}

int
main (int   argc,
      char *argv[])
{
  viewer_test_init (&argc, &argv);

  g_test_add_func ("/viewer/preferences/bindings", test_bindings);

  return g_test_run ();
}
