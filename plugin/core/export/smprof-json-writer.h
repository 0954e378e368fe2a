/* smprof-json-writer.h: streaming JSON output with Python-style numbers
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SmprofJsonWriter SmprofJsonWriter;

SmprofJsonWriter *smprof_json_writer_new          (gboolean          pretty);
void              smprof_json_writer_free         (SmprofJsonWriter *self);
char             *smprof_json_writer_free_to_string (SmprofJsonWriter *self);
void              smprof_json_writer_begin_object (SmprofJsonWriter *self);
void              smprof_json_writer_end_object   (SmprofJsonWriter *self);
void              smprof_json_writer_begin_array  (SmprofJsonWriter *self);
void              smprof_json_writer_end_array    (SmprofJsonWriter *self);
void              smprof_json_writer_member       (SmprofJsonWriter *self,
                                                   const char       *name);
void              smprof_json_writer_string       (SmprofJsonWriter *self,
                                                   const char       *value);
void              smprof_json_writer_int          (SmprofJsonWriter *self,
                                                   gint64            value);
void              smprof_json_writer_double       (SmprofJsonWriter *self,
                                                   double            value);
void              smprof_json_writer_boolean      (SmprofJsonWriter *self,
                                                   gboolean          value);
void              smprof_json_writer_null         (SmprofJsonWriter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofJsonWriter, smprof_json_writer_free)

G_END_DECLS
