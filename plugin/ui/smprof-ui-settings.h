/* smprof-ui-settings.h: the viewer's settings, when the viewer installed them, and what they set
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-s3-source.h"

G_BEGIN_DECLS

/* The viewer's schema; the plugin never installs it. */
#define SMPROF_UI_SETTINGS_SCHEMA_ID "io.github.smprof.Viewer"

GSettings *smprof_ui_settings_new            (const char            *child);
void       smprof_ui_settings_get_s3_options (GSettings             *s3_settings,
                                              SmprofS3SourceOptions *options);

G_END_DECLS
