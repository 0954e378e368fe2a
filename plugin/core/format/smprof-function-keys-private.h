/* smprof-function-keys-private.h: what the stats readers need beyond the public table
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-function-keys.h"

G_BEGIN_DECLS

guint32 _smprof_function_keys_find (SmprofFunctionKeys *self,
                                    const char         *file,
                                    gsize               file_len,
                                    gint64              line,
                                    const char         *name,
                                    gsize               name_len);

guint64 _smprof_function_keys_hash_string (const char         *bytes,
                                           gsize               len);
guint32 _smprof_function_keys_find_hashed (SmprofFunctionKeys *self,
                                           guint64             file_hash,
                                           const char         *file,
                                           gsize               file_len,
                                           gint64              line,
                                           guint64             name_hash,
                                           const char         *name,
                                           gsize               name_len);

G_END_DECLS
