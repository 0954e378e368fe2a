/* smprof-ui-settings.h: the plugin's settings (its own schema), and what they set
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-s3-source.h"

G_BEGIN_DECLS

/* The plugin's schema (data/io.github.smprof.Viewer.Plugin.SageMaker.gschema.xml),
 * installed with the plugin. */
#define SMPROF_UI_SETTINGS_SCHEMA_ID "io.github.smprof.Viewer.Plugin.SageMaker"

/* Where the plugin looks for its compiled schema when GSettings' own folders
 * lack it (a Flatpak extension's prefix is not among them); tests name an
 * empty folder here to see the plugin without its schema. */
#define SMPROF_UI_SETTINGS_DIR_ENV "SMPROF_PLUGIN_SCHEMA_DIR"

GSettings *smprof_ui_settings_new                   (const char            *child);
void       smprof_ui_settings_get_s3_options        (GSettings             *s3_settings,
                                                     SmprofS3SourceOptions *options);
void       smprof_ui_settings_bind                  (const char            *key,
                                                     gpointer               object,
                                                     const char            *property);
GFile     *smprof_ui_settings_dup_export_folder     (void);
void       smprof_ui_settings_set_export_folder     (GFile                 *folder);

G_END_DECLS
