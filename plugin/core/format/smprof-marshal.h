/* smprof-marshal.h: the subset of CPython's marshal format that pstats files use
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SMPROF_MARSHAL_NONE,
  SMPROF_MARSHAL_BOOL,
  SMPROF_MARSHAL_INT,
  SMPROF_MARSHAL_FLOAT,
  SMPROF_MARSHAL_STRING,
  SMPROF_MARSHAL_TUPLE,
  SMPROF_MARSHAL_DICT,
} SmprofMarshalType;

/* A decoded document is a flat array of values; containers refer to their items
 * by index, so a back-reference costs nothing and nothing is freed one by one. */
typedef struct
{
  SmprofMarshalType type;
  guint32           length;   /* string bytes, tuple items, dict pairs */
  gsize             offset;   /* byte offset of the type byte, for error messages */
  union
  {
    gint64      i;            /* INT, BOOL */
    double      f;            /* FLOAT */
    const char *s;            /* STRING: points into the input, not NUL-terminated */
    guint32     items;        /* TUPLE, DICT: first index in SmprofMarshal.items;
                               * a dict's items are key, value, key, value, ... */
  } v;
} SmprofMarshalValue;

typedef struct
{
  GBytes             *bytes;
  SmprofMarshalValue *values;
  guint               n_values;
  guint32            *items;     /* indices into values */
  guint               n_items;
  guint32             root;
} SmprofMarshal;

SmprofMarshal *smprof_marshal_parse (GBytes        *bytes,
                                     GError       **error);
void           smprof_marshal_free  (SmprofMarshal *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofMarshal, smprof_marshal_free)

G_END_DECLS
