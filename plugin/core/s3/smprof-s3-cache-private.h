/* smprof-s3-cache-private.h: the header of a cached object file, for the
 * fuzz target (tests/fuzz/fuzz-s3-cache.c)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-s3-cache.h"

G_BEGIN_DECLS

/* The most of a file read for its header: a longer one is not a header. */
#define SMPROF_S3_CACHE_MAX_HEADER 4096

typedef struct
{
  char    *etag;
  char    *sha256;
  guint64  size;
  gsize    header_length;   /* the body starts here */
} SmprofS3CacheHeader;

gboolean _smprof_s3_cache_parse_header (const char          *data,
                                        gsize                length,
                                        SmprofS3CacheHeader *header);
void     _smprof_s3_cache_header_clear (SmprofS3CacheHeader *header);

G_END_DECLS
