/* smprof-s3-cache-private.h: what smprof-s3-cache.c and
 * smprof-s3-cache-object.c share, and the trailer of a cached object file,
 * for the fuzz target (tests/fuzz/fuzz-s3-cache-header.c)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-s3-cache.h"

G_BEGIN_DECLS

/* The longest trailer read back: a longer one is not a trailer. */
#define SMPROF_S3_CACHE_MAX_TRAILER (64 * 1024)

typedef struct
{
  char    *key;
  char    *listed_etag;      /* "" when there was none */
  char    *response_etag;    /* likewise */
  guint64  size;             /* of the body, at the start of the file */
  guint8   sha256[32];       /* of the body */
  guint64  body_offset_end;  /* where the trailer starts: the body's size */
} SmprofS3CacheTrailer;

gboolean    _smprof_s3_cache_parse_trailer (const guint8          *tail,
                                            gsize                  tail_length,
                                            guint64                file_size,
                                            SmprofS3CacheTrailer  *trailer);
void        _smprof_s3_cache_trailer_clear (SmprofS3CacheTrailer  *trailer);

/* smprof-s3-cache.c, for smprof-s3-cache-object.c */
const char *_smprof_s3_cache_get_dir       (SmprofS3Cache         *self);
int         _smprof_s3_cache_open_regular  (const char            *path,
                                            guint64               *size);
void        _smprof_s3_cache_touch         (const char            *path);
void        _smprof_s3_cache_add_to_total  (SmprofS3Cache         *self,
                                            guint64                bytes);

G_END_DECLS
