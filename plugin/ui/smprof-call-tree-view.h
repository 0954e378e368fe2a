/* smprof-call-tree-view.h: the call tree of an aggregated selection
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-profile.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_CALL_TREE_VIEW (smprof_call_tree_view_get_type ())

G_DECLARE_FINAL_TYPE (SmprofCallTreeView, smprof_call_tree_view, SMPROF, CALL_TREE_VIEW, GtkWidget)

GtkWidget     *smprof_call_tree_view_new               (void);
SmprofProfile *smprof_call_tree_view_get_profile       (SmprofCallTreeView *self);
void           smprof_call_tree_view_set_profile       (SmprofCallTreeView *self,
                                                        SmprofProfile      *profile);
guint32        smprof_call_tree_view_get_selected_node (SmprofCallTreeView *self);
GListModel    *smprof_call_tree_view_get_model         (SmprofCallTreeView *self);
gboolean       smprof_call_tree_view_get_inverted      (SmprofCallTreeView *self);
void           smprof_call_tree_view_set_inverted      (SmprofCallTreeView *self,
                                                        gboolean            inverted);

G_END_DECLS
