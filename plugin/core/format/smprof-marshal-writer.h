/* smprof-marshal-writer.h: CPython marshal data, written
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Each function appends one value, or a container's head, to @out and
 * returns the offset of its type byte (for smprof_marshal_flag_ref()). A
 * tuple's items follow its head; a dict's keys and values follow its head,
 * then smprof_marshal_put_dict_end(). */
gsize smprof_marshal_put_none       (GByteArray *out);
gsize smprof_marshal_put_bool       (GByteArray *out,
                                     gboolean    value);
gsize smprof_marshal_put_int        (GByteArray *out,
                                     gint64      value);
gsize smprof_marshal_put_long       (GByteArray *out,
                                     gint64      value);
gsize smprof_marshal_put_float      (GByteArray *out,
                                     double      value);
gsize smprof_marshal_put_float_text (GByteArray *out,
                                     const char *text);
gsize smprof_marshal_put_string     (GByteArray *out,
                                     const char *text,
                                     gsize       length);
gsize smprof_marshal_put_tuple      (GByteArray *out,
                                     guint32     n_items);
gsize smprof_marshal_put_dict       (GByteArray *out);
void  smprof_marshal_put_dict_end   (GByteArray *out);
gsize smprof_marshal_put_ref        (GByteArray *out,
                                     guint32     slot);
void  smprof_marshal_flag_ref       (GByteArray *out,
                                     gsize       offset);

G_END_DECLS
