/* smprof-sagemaker-preferences.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-sagemaker-preferences.h"
#include "smprof-ui-settings.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)

/* The plugin's settings (its own schema, smprof-ui-settings.c), as a page the
 * viewer puts in its Preferences window (SmvDataSource's
 * create_preferences_page). Every row is bound to its key, so a change
 * applies at once (GNOME's instant-apply style): the flame graphs recolour,
 * the function tables show or hide their per-step
 * columns, the next S3 open uses the new limits, a page's live refresh its
 * new period, the job pages their outlier threshold. The last export folder is remembered, not set here. */
struct _SmprofSagemakerPreferences
{
  AdwPreferencesPage  parent_instance;

  GSettings          *settings;
  GSettings          *s3_settings;

  AdwComboRow        *color_scheme_row;
  GtkSwitch          *step_columns_switch;
  GtkSpinButton      *connections_spin;
  GtkSpinButton      *cache_spin;
  GtkSpinButton      *refresh_spin;
  GtkSpinButton      *outlier_threshold_spin;
};

G_DEFINE_FINAL_TYPE (SmprofSagemakerPreferences, smprof_sagemaker_preferences, ADW_TYPE_PREFERENCES_PAGE)

/* The enum's nicks, in the combo row's order. */
static const char * const color_schemes[] = { "default", "module", "colorblind" };

static gboolean
scheme_to_index (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (color_schemes); i++)
    if (g_strcmp0 (nick, color_schemes[i]) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  return FALSE;
}

static GVariant *
index_to_scheme (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  guint index = g_value_get_uint (value);

  if (index >= G_N_ELEMENTS (color_schemes))
    return NULL;

  return g_variant_new_string (color_schemes[index]);
}

/* The cache size is kept in bytes and shown in MiB. */
static gboolean
bytes_to_mib (GValue   *value,
              GVariant *variant,
              gpointer  user_data)
{
  g_value_set_double (value, (double) (g_variant_get_uint64 (variant) / MIB));

  return TRUE;
}

static GVariant *
mib_to_bytes (const GValue       *value,
              const GVariantType *expected_type,
              gpointer            user_data)
{
  return g_variant_new_uint64 ((guint64) g_value_get_double (value) * MIB);
}

static void
smprof_sagemaker_preferences_dispose (GObject *object)
{
  SmprofSagemakerPreferences *self = SMPROF_SAGEMAKER_PREFERENCES (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_SAGEMAKER_PREFERENCES);
  g_clear_object (&self->settings);
  g_clear_object (&self->s3_settings);

  G_OBJECT_CLASS (smprof_sagemaker_preferences_parent_class)->dispose (object);
}

static void
smprof_sagemaker_preferences_class_init (SmprofSagemakerPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_sagemaker_preferences_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/"
                                               "smprof-sagemaker-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofSagemakerPreferences, color_scheme_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofSagemakerPreferences, step_columns_switch);
  gtk_widget_class_bind_template_child (widget_class, SmprofSagemakerPreferences, connections_spin);
  gtk_widget_class_bind_template_child (widget_class, SmprofSagemakerPreferences, cache_spin);
  gtk_widget_class_bind_template_child (widget_class, SmprofSagemakerPreferences, refresh_spin);
  gtk_widget_class_bind_template_child (widget_class, SmprofSagemakerPreferences, outlier_threshold_spin);
}

static void
smprof_sagemaker_preferences_init (SmprofSagemakerPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* AdwPreferencesPage:name hides GtkWidget's in the .ui file */
  gtk_widget_set_name (GTK_WIDGET (self), "sagemaker-preferences");
}

/**
 * smprof_sagemaker_preferences_new:
 *
 * Returns: (transfer floating) (nullable): the page, bound to the plugin's
 *   settings, or %NULL when their schema is not installed
 */
AdwPreferencesPage *
smprof_sagemaker_preferences_new (void)
{
  SmprofSagemakerPreferences *self;
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);
  g_autoptr(GSettings) s3_settings = smprof_ui_settings_new ("s3");

  if (settings == NULL || s3_settings == NULL)
    return NULL;

  self = g_object_new (SMPROF_TYPE_SAGEMAKER_PREFERENCES, NULL);
  self->settings = g_steal_pointer (&settings);
  self->s3_settings = g_steal_pointer (&s3_settings);

  g_settings_bind_with_mapping (self->settings, "flame-graph-color-scheme", self->color_scheme_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, scheme_to_index, index_to_scheme, NULL, NULL);
  g_settings_bind (self->settings, "show-step-columns", self->step_columns_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->s3_settings, "max-connections",
                   gtk_spin_button_get_adjustment (self->connections_spin), "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->s3_settings, "cache-size",
                                gtk_spin_button_get_adjustment (self->cache_spin), "value",
                                G_SETTINGS_BIND_DEFAULT, bytes_to_mib, mib_to_bytes, NULL, NULL);
  g_settings_bind (self->settings, "outlier-threshold",
                   gtk_spin_button_get_adjustment (self->outlier_threshold_spin), "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->s3_settings, "refresh-interval",
                   gtk_spin_button_get_adjustment (self->refresh_spin), "value", G_SETTINGS_BIND_DEFAULT);

  return ADW_PREFERENCES_PAGE (self);
}
