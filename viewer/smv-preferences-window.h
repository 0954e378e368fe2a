/* smv-preferences-window.h: the plugins' settings, one page each
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "smv-source-registry.h"

G_BEGIN_DECLS

#define SMV_TYPE_PREFERENCES_WINDOW (smv_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (SmvPreferencesWindow, smv_preferences_window, SMV, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget *smv_preferences_window_new       (GtkWindow         *parent,
                                             SmvSourceRegistry *registry);
gboolean   smv_preferences_window_has_pages (SmvSourceRegistry *registry);

G_END_DECLS
