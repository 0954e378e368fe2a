/* fuzz-common.h: what every fuzz target shares
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each fuzz-*.c defines LLVMFuzzerTestOneInput. Built with clang and
 * -Dfuzzing=true it links libFuzzer; built with any compiler it links
 * replay-main.c, which feeds it the files of the seed and regression corpora
 * (the `fuzz-replay` tests of a normal `meson test`).
 *
 * A target aborts (through FUZZ_CHECK or a fatal GLib critical) when the code
 * under test breaks a promise; a rejected input is not a failure.
 */

#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

int LLVMFuzzerInitialize   (int            *argc,
                            char         ***argv);
int LLVMFuzzerTestOneInput (const uint8_t  *data,
                            size_t          size);

#define FUZZ_CHECK(cond)                                                      \
  G_STMT_START {                                                              \
    if (G_UNLIKELY (!(cond)))                                                 \
      {                                                                       \
        fprintf (stderr, "%s:%d: fuzz check failed: %s\n",                    \
                 __FILE__, __LINE__, #cond);                                  \
        abort ();                                                             \
      }                                                                       \
  } G_STMT_END

/* A g_return_if_fail() or g_warning() reached from input is a bug too. GLib's
 * own fatal path raises SIGTRAP, which libFuzzer does not catch; abort()
 * makes it a crash with a saved input. */
#define FUZZ_DEFINE_INITIALIZE()                                              \
  static GLogWriterOutput                                                     \
  fuzz_log_writer (GLogLevelFlags   level,                                    \
                   const GLogField *fields,                                   \
                   gsize            n_fields,                                 \
                   gpointer         user_data)                                \
  {                                                                           \
    GLogWriterOutput result =                                                 \
      g_log_writer_standard_streams (level, fields, n_fields, user_data);     \
                                                                              \
    if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) \
      abort ();                                                               \
    return result;                                                            \
  }                                                                           \
                                                                              \
  int                                                                         \
  LLVMFuzzerInitialize (int    *argc,                                         \
                        char ***argv)                                         \
  {                                                                           \
    g_log_set_writer_func (fuzz_log_writer, NULL, NULL);                      \
    return 0;                                                                 \
  }

/* An exact-size copy, so that AddressSanitizer sees a read one byte past the
 * end (a file read from disk has a NUL there, an S3 body does not). The empty
 * input has no data pointer, as an empty S3 object does. */
static inline GBytes *
fuzz_bytes (const uint8_t *data,
            size_t         size)
{
  return size == 0 ? g_bytes_new (NULL, 0) : g_bytes_new (data, size);
}

/* An exact-size heap copy for parsers that take (data, length). */
static inline char *
fuzz_copy (const uint8_t *data,
           size_t         size)
{
  char *copy = g_malloc (size > 0 ? size : 1);

  if (size > 0)
    memcpy (copy, data, size);
  return copy;
}

/* Every message a parser makes is shown to a person: valid UTF-8. */
static inline void
fuzz_check_error (const GError *error,
                  GQuark        domain)
{
  FUZZ_CHECK (error != NULL);
  FUZZ_CHECK (error->domain == domain);
  FUZZ_CHECK (error->message != NULL && error->message[0] != '\0');
  FUZZ_CHECK (g_utf8_validate (error->message, -1, NULL));
}
