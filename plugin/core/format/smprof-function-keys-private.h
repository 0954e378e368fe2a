/* smprof-function-keys-private.h: what the stats readers need beyond the public table
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "smprof-function-keys.h"

G_BEGIN_DECLS

/* Parsing a job interns every function key of every file, hundreds of times
 * per file; most are hits. Hashing the raw bytes where they lie, without a
 * copy or a lock, keeps that cheap, and these are inline for the readers,
 * which hash every key they meet. Any decent mix will do: equality is always
 * checked on the bytes, and hashes live only as long as the process. */
static inline guint64
_smprof_function_keys_hash_mix (guint64 h)
{
  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  h ^= h >> 33;
  return h;
}

static inline guint64
_smprof_function_keys_hash_bytes (guint64     h,
                                  const char *bytes,
                                  gsize       len)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  for (; len >= 8; bytes += 8, len -= 8)
    {
      guint64 word;

      memcpy (&word, bytes, 8);
      h = (h ^ word) * k;
      h ^= h >> 29;
    }

  if (len > 0)
    {
      guint64 word = 0;

      /* byte by byte: a memcpy() of a length not known here is a call */
      for (gsize i = 0; i < len; i++)
        word |= (guint64) (guint8) bytes[i] << (8 * i);
      h = (h ^ word ^ ((guint64) len << 59)) * k;
      h ^= h >> 29;
    }

  return h;
}

/* The hash of one string of a key, for _smprof_function_keys_find_hashed().
 * Each string is hashed on its own and the two hashes combined with the line,
 * so a reader that meets the same string object many times in one file (the
 * marshal format refers back to it) hashes its bytes once. */
static inline guint64
_smprof_function_keys_hash_string (const char *bytes,
                                   gsize       len)
{
  return _smprof_function_keys_hash_mix (_smprof_function_keys_hash_bytes (len, bytes, len));
}

guint32 _smprof_function_keys_find (SmprofFunctionKeys *self,
                                    const char         *file,
                                    gsize               file_len,
                                    gint64              line,
                                    const char         *name,
                                    gsize               name_len);

guint32 _smprof_function_keys_find_hashed (SmprofFunctionKeys *self,
                                           guint64             file_hash,
                                           const char         *file,
                                           gsize               file_len,
                                           gint64              line,
                                           guint64             name_hash,
                                           const char         *name,
                                           gsize               name_len);

G_END_DECLS
