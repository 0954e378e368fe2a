/* smv-window.h: a viewer window, showing one document
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "smv-recent.h"
#include "smv-source-registry.h"

G_BEGIN_DECLS

/* The manual (help/C/index.page), in the desktop's help browser. */
#define SMV_HELP_URI "help:smprof"

#define SMV_TYPE_WINDOW (smv_window_get_type ())

G_DECLARE_FINAL_TYPE (SmvWindow, smv_window, SMV, WINDOW, AdwApplicationWindow)

SmvWindow       *smv_window_new               (GtkApplication    *application,
                                               SmvSourceRegistry *registry,
                                               SmvRecent         *recent);
void             smv_window_open              (SmvWindow         *self,
                                               GFile             *location);
void             smv_window_cancel            (SmvWindow         *self);
void             smv_window_save_state        (SmvWindow         *self);
gboolean         smv_window_is_loading        (SmvWindow         *self);
SmvDocument     *smv_window_get_document      (SmvWindow         *self);
GtkWidget       *smv_window_get_page          (SmvWindow         *self);
SmvProgress     *smv_window_get_progress      (SmvWindow         *self);
const char      *smv_window_get_view_name     (SmvWindow         *self);
GtkInfoBar      *smv_window_get_banner        (SmvWindow         *self);
GtkInfoBar      *smv_window_get_page_banner   (SmvWindow         *self);
AdwToastOverlay *smv_window_get_toast_overlay (SmvWindow         *self);

G_END_DECLS
