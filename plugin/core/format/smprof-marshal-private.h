/* smprof-marshal-private.h: decoding many dumps without allocating per dump
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-marshal.h"

G_BEGIN_DECLS

/* Zero-initialise; free with _smprof_marshal_scratch_clear(). */
typedef struct
{
  SmprofMarshal  marshal;
  guint          values_size;
  guint          items_size;
  guint32       *refs;
  guint          refs_size;
  guint32       *stack;
  guint          stack_size;
} SmprofMarshalScratch;

gboolean _smprof_marshal_parse_scratch    (SmprofMarshalScratch  *scratch,
                                           GBytes                *bytes,
                                           GError               **error);
gsize    _smprof_marshal_scratch_get_size (SmprofMarshalScratch  *scratch);
void     _smprof_marshal_scratch_clear    (SmprofMarshalScratch  *scratch);

G_END_DECLS
