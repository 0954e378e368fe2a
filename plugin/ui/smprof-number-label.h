/* smprof-number-label.h: one line of figures, drawn from glyphs kept per font
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SMPROF_TYPE_NUMBER_LABEL (smprof_number_label_get_type ())

G_DECLARE_FINAL_TYPE (SmprofNumberLabel, smprof_number_label, SMPROF, NUMBER_LABEL, GtkWidget)

GtkWidget  *smprof_number_label_new      (const char        *text);
const char *smprof_number_label_get_text (SmprofNumberLabel *self);
void        smprof_number_label_set_text (SmprofNumberLabel *self,
                                          const char        *text);
void        smprof_number_label_follow   (SmprofNumberLabel *self,
                                          GObject           *object,
                                          const char        *property);

GtkListItemFactory *smprof_number_label_factory_new (const char *property);

G_END_DECLS
