/* smprof-func-table.h: function keys interned once per job
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
typedef struct _SmprofFuncTable SmprofFuncTable;

#define SMPROF_FUNC_NONE G_MAXUINT32

SmprofFuncTable *smprof_func_table_new       (void);
void             smprof_func_table_free      (SmprofFuncTable *self);
guint32          smprof_func_table_intern    (SmprofFuncTable *self,
                                              const char      *file,
                                              gsize            file_len,
                                              gint64           line,
                                              const char      *name,
                                              gsize            name_len);
guint32          smprof_func_table_lookup    (SmprofFuncTable *self,
                                              const char      *file,
                                              gint64           line,
                                              const char      *name);
guint            smprof_func_table_get_size  (SmprofFuncTable *self);
const char      *smprof_func_table_get_file  (SmprofFuncTable *self,
                                              guint32          id);
gint64           smprof_func_table_get_line  (SmprofFuncTable *self,
                                              guint32          id);
const char      *smprof_func_table_get_name  (SmprofFuncTable *self,
                                              guint32          id);
char            *smprof_func_table_dup_label (SmprofFuncTable *self,
                                              guint32          id);
int              smprof_func_table_compare   (SmprofFuncTable *self,
                                              guint32          a,
                                              guint32          b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofFuncTable, smprof_func_table_free)

G_END_DECLS
