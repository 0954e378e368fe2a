/* smprof-function-keys.h: function keys interned once per job
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Every distinct (file, line, name) triple of a job, cProfile's function key and
 * Pyinstrument's frame identity alike, gets one small id. Per-interval stats then
 * hold ids, so a key is stored once however many thousand intervals mention it. */
typedef struct _SmprofFunctionKeys SmprofFunctionKeys;

#define SMPROF_FUNC_NONE G_MAXUINT32

SmprofFunctionKeys *smprof_function_keys_new       (void);
void                smprof_function_keys_free      (SmprofFunctionKeys *self);
guint32             smprof_function_keys_intern    (SmprofFunctionKeys *self,
                                                    const char         *file,
                                                    gsize               file_len,
                                                    gint64              line,
                                                    const char         *name,
                                                    gsize               name_len);
guint32             smprof_function_keys_lookup    (SmprofFunctionKeys *self,
                                                    const char         *file,
                                                    gint64              line,
                                                    const char         *name);
guint               smprof_function_keys_get_size  (SmprofFunctionKeys *self);
const char         *smprof_function_keys_get_file  (SmprofFunctionKeys *self,
                                                    guint32             id);
gint64              smprof_function_keys_get_line  (SmprofFunctionKeys *self,
                                                    guint32             id);
const char         *smprof_function_keys_get_name  (SmprofFunctionKeys *self,
                                                    guint32             id);
char               *smprof_function_keys_dup_label (SmprofFunctionKeys *self,
                                                    guint32             id);
int                 smprof_function_keys_compare   (SmprofFunctionKeys *self,
                                                    guint32             a,
                                                    guint32             b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofFunctionKeys, smprof_function_keys_free)

G_END_DECLS
