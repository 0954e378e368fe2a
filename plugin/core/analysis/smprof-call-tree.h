/* smprof-call-tree.h: a calling-context tree merged over intervals
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-function-keys.h"
#include "smprof-pyinstrument.h"

G_BEGIN_DECLS

#define SMPROF_CALL_TREE_ROOT 0u
#define SMPROF_CALL_TREE_NONE G_MAXUINT32

/* Node 0 is a synthetic root whose children are the merged root frames. */
typedef struct
{
  guint32 func;
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  double  total;
  double  self;
} SmprofCallTreeNode;

typedef struct _SmprofCallTree SmprofCallTree;

SmprofCallTree           *smprof_call_tree_new          (SmprofFunctionKeys              *table);
void                      smprof_call_tree_free         (SmprofCallTree                  *self);
guint32                   smprof_call_tree_ensure_child (SmprofCallTree                  *self,
                                                         guint32                          parent,
                                                         guint32                          func);
void                      smprof_call_tree_add_time     (SmprofCallTree                  *self,
                                                         guint32                          node,
                                                         double                           total,
                                                         double                           self_time);
void                      smprof_call_tree_add_session  (SmprofCallTree                  *self,
                                                         const SmprofPyinstrumentSession *session);
void                      smprof_call_tree_merge        (SmprofCallTree                  *self,
                                                         SmprofCallTree                  *other);
void                      smprof_call_tree_sort         (SmprofCallTree                  *self);
guint                     smprof_call_tree_get_n_nodes  (SmprofCallTree                  *self);
const SmprofCallTreeNode *smprof_call_tree_get_node     (SmprofCallTree                  *self,
                                                         guint32                          index);
SmprofFunctionKeys       *smprof_call_tree_get_table    (SmprofCallTree                  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofCallTree, smprof_call_tree_free)

G_END_DECLS
