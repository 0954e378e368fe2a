/* smprof-cell-factories.h: column view cells made in code
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkListItemFactory *smprof_numeric_cell_factory_new   (const char *text_property);
GtkListItemFactory *smprof_label_cell_factory_new     (const char *text_property);
GtkListItemFactory *smprof_sparkline_cell_factory_new (const char *series_property);

G_END_DECLS
