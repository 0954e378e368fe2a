/* smprof-node-chooser.h: a button whose popover picks several nodes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SMPROF_TYPE_NODE_CHOOSER (smprof_node_chooser_get_type ())

G_DECLARE_FINAL_TYPE (SmprofNodeChooser, smprof_node_chooser, SMPROF, NODE_CHOOSER, GtkWidget)

GtkWidget  *smprof_node_chooser_new          (void);
void        smprof_node_chooser_set_node_ids (SmprofNodeChooser  *self,
                                              const char * const *node_ids);
void        smprof_node_chooser_set_chosen   (SmprofNodeChooser  *self,
                                              const char * const *chosen);
char      **smprof_node_chooser_dup_chosen   (SmprofNodeChooser  *self);
GtkCheckButton *smprof_node_chooser_get_check_button (SmprofNodeChooser *self,
                                                      const char        *node_id);

G_END_DECLS
