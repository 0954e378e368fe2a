/* smprof-function-menu.h: the context menu of a function, in every view that shows one
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-function-keys.h"

G_BEGIN_DECLS

/*
 * The menu's items are actions. The views handle "function-view.copy"
 * themselves; the others are the page's: it inserts an action group named
 * "function" on itself (or any ancestor of the views) with these actions,
 * and the views' menus find it. Where no ancestor provides an action, its
 * item is left out of the menu (hidden-when="action-missing"). The job page
 * provides them all (smprof-job-page-transforms.c).
 *
 *   function.focus               u   focus on the function (SMPROF_TRANSFORM_FOCUS_FUNCTION)
 *   function.focus-subtree       au  focus on the frame whose stack, from a root, is these functions
 *   function.merge               u   merge the function
 *   function.collapse-recursion  u   collapse the function's recursion
 *   function.collapse-file       s   collapse the frames of this file
 *   function.collapse-package    s   collapse the frames of this package
 *   function.show-in-functions   u   select the function in the Functions table
 *   function.show-callers        u   show who called it (the Functions table's callers pane)
 *   function.show-callees        u   show what it called
 *   function.compare-nodes       u   compare the function across nodes (the node matrix)
 *
 * u is a function id of the job's SmprofFunctionKeys.
 */
#define SMPROF_FUNCTION_ACTION_GROUP "function"

#define SMPROF_FUNCTION_VIEW_COPY    "function-view.copy"
#define SMPROF_FUNCTION_VIEW_MENU    "function-view.menu"

void        smprof_function_menu_install_actions (GtkWidgetClass     *widget_class,
                                                  GtkWidgetActionActivateFunc menu_action);
GMenuModel *smprof_function_menu_new             (SmprofFunctionKeys *table,
                                                  guint32             func,
                                                  const guint32      *path,
                                                  guint               depth);
GtkWidget  *smprof_function_menu_popup           (GtkWidget          *widget,
                                                  GMenuModel         *model,
                                                  const graphene_rect_t *at);

G_END_DECLS
