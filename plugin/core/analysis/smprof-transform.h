/* smprof-transform.h: reshaping a call tree (merge, focus, collapse, hide libraries, invert)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-call-tree.h"

G_BEGIN_DECLS

/**
 * SmprofTransformKind:
 * @SMPROF_TRANSFORM_MERGE: take a function out of every stack; its own time
 *   goes to its caller (a root keeps its own time, having no caller)
 * @SMPROF_TRANSFORM_FOCUS_FUNCTION: keep only the stacks that hold a
 *   function, each from the function's outermost frame: one root, all its
 *   calls merged
 * @SMPROF_TRANSFORM_FOCUS_SUBTREE: keep only one frame (a path from a root)
 *   and what it called, that frame as the root
 * @SMPROF_TRANSFORM_COLLAPSE_RECURSION: a function's frames inside one of its
 *   own fold into the outermost (every function's, with no function given)
 * @SMPROF_TRANSFORM_COLLAPSE_GROUP: frames of one source file, or of one
 *   package, that call one another become one frame named after it
 * @SMPROF_TRANSFORM_HIDE_LIBRARIES: frames of the standard library, of
 *   site-packages and dist-packages and built-ins fold into their first
 *   user-code caller (the outermost of them, at the top of a stack)
 *
 * What a transform does; they apply in order, each to the tree the previous
 * one left.
 */
typedef enum
{
  SMPROF_TRANSFORM_MERGE,
  SMPROF_TRANSFORM_FOCUS_FUNCTION,
  SMPROF_TRANSFORM_FOCUS_SUBTREE,
  SMPROF_TRANSFORM_COLLAPSE_RECURSION,
  SMPROF_TRANSFORM_COLLAPSE_GROUP,
  SMPROF_TRANSFORM_HIDE_LIBRARIES,
} SmprofTransformKind;

typedef struct _SmprofTransform SmprofTransform;

#define SMPROF_TYPE_TRANSFORM (smprof_transform_get_type ())

GType                smprof_transform_get_type              (void) G_GNUC_CONST;
SmprofTransform     *smprof_transform_new_merge             (guint32                 func);
SmprofTransform     *smprof_transform_new_focus_function    (guint32                 func);
SmprofTransform     *smprof_transform_new_focus_subtree     (const guint32          *path,
                                                             guint                   depth);
SmprofTransform     *smprof_transform_new_collapse_recursion (guint32                func);
SmprofTransform     *smprof_transform_new_collapse_file     (const char             *file);
SmprofTransform     *smprof_transform_new_collapse_package  (const char             *package);
SmprofTransform     *smprof_transform_new_hide_libraries    (void);
SmprofTransform     *smprof_transform_ref                   (SmprofTransform        *self);
void                 smprof_transform_unref                 (SmprofTransform        *self);
SmprofTransformKind  smprof_transform_get_kind              (const SmprofTransform  *self);
guint32              smprof_transform_get_function          (const SmprofTransform  *self);
const guint32       *smprof_transform_get_path              (const SmprofTransform  *self,
                                                             guint                  *depth);
const char          *smprof_transform_get_group             (const SmprofTransform  *self);
gboolean             smprof_transform_changes_calls         (const SmprofTransform  *self);
char                *smprof_transform_describe              (const SmprofTransform  *self,
                                                             SmprofFunctionKeys     *table);
char                *smprof_transform_to_option             (const SmprofTransform  *self,
                                                             SmprofFunctionKeys     *table);
SmprofCallTree      *smprof_transform_apply                 (const SmprofTransform  *self,
                                                             SmprofCallTree         *tree);

SmprofCallTree      *smprof_call_tree_new_inverted          (SmprofCallTree         *tree);

gboolean             smprof_file_is_library                 (const char             *file);
gboolean             smprof_function_is_group               (SmprofFunctionKeys     *table,
                                                             guint32                 func);
char                *smprof_file_dup_package                (const char             *file);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofTransform, smprof_transform_unref)

G_END_DECLS
