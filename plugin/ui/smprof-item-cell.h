/* smprof-item-cell.h: a list view cell that knows its row's item
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SMPROF_TYPE_ITEM_CELL (smprof_item_cell_get_type ())

G_DECLARE_FINAL_TYPE (SmprofItemCell, smprof_item_cell, SMPROF, ITEM_CELL, GtkWidget)

GObject   *smprof_item_cell_get_item         (SmprofItemCell *self);
GtkWidget *smprof_item_cell_get_child        (SmprofItemCell *self);
char      *smprof_item_cell_dup_tooltip_text (SmprofItemCell *self);
void       smprof_item_cell_set_child        (SmprofItemCell *self,
                                              GtkWidget      *child);
gpointer   smprof_item_cell_find_item        (GtkWidget      *picked);

GtkListItemFactory *smprof_item_cell_label_factory_new (const char *property);

G_END_DECLS
