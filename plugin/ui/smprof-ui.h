/* smprof-ui.h: what every widget of the UI library shares
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void     smprof_ui_ensure_resources  (void);
void     smprof_ui_follow_scroll_end (GtkScrolledWindow *scroller);
double   smprof_ui_luminance         (const GdkRGBA     *color);
gboolean smprof_ui_widget_is_dark    (GtkWidget         *widget);
void     smprof_ui_scroll_to_end     (GtkScrolledWindow *scroller);

GtkListItemFactory *smprof_ui_property_factory_new (GCallback   setup,
                                                    GCallback   bind,
                                                    GCallback   unbind,
                                                    const char *property);

G_END_DECLS
