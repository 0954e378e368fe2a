/* smv-color-scheme.h: light or dark, as the desktop asks
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SMV_TYPE_COLOR_SCHEME (smv_color_scheme_get_type ())

G_DECLARE_FINAL_TYPE (SmvColorScheme, smv_color_scheme, SMV, COLOR_SCHEME, GObject)

SmvColorScheme *smv_color_scheme_new         (GtkSettings    *settings);
gboolean        smv_color_scheme_get_dark    (SmvColorScheme *self);
const char     *smv_color_scheme_get_origin  (SmvColorScheme *self);

G_END_DECLS
