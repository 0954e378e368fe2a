/* smv-preferences-window.h: what the user sets, in one small window
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SMV_TYPE_PREFERENCES_WINDOW (smv_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (SmvPreferencesWindow, smv_preferences_window, SMV, PREFERENCES_WINDOW, GtkWindow)

GtkWidget *smv_preferences_window_new (GtkWindow *parent);

G_END_DECLS
