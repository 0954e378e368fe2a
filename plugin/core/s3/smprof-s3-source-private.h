/* smprof-s3-source-private.h: what a listing found and the form it is kept
 * in on disk, for the fuzz target (tests/fuzz/fuzz-s3-cached-listing.c)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-s3-source.h"
#include "smprof-source.h"

G_BEGIN_DECLS

typedef struct
{
  char              *path;
  SmprofListingKind  kind;
  guint64            size;
  char              *etag;   /* NULL when the listing gave none */
} SmprofS3FoundEntry;

typedef struct
{
  char *path;
  char *message;
} SmprofS3FoundProblem;

/* What one listing (live or cached) found, in the order the index gets it. */
typedef struct
{
  GPtrArray *entries;   /* SmprofS3FoundEntry */
  GPtrArray *problems;  /* SmprofS3FoundProblem */
} SmprofS3Found;

void           _smprof_s3_found_free        (SmprofS3Found  *found);
GBytes        *_smprof_s3_listing_serialize (const char     *root,
                                             const char     *scope,
                                             guint           depth,
                                             SmprofS3Found  *found);
SmprofS3Found *_smprof_s3_listing_parse     (GBytes         *bytes,
                                             char          **root,
                                             char          **scope,
                                             guint          *depth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofS3Found, _smprof_s3_found_free)

G_END_DECLS
