/* fuzz-s3-cache-listing.c: a job's listing as kept in the S3 cache, as a
 * crash, a full disk or another smprof version may have left it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Checks: what _smprof_s3_listing_parse() accepts is a whole listing (root,
 * scope, a depth of 1 to 3, entries and problems) whose problem messages are
 * valid UTF-8 (they are shown as they are); written back with
 * _smprof_s3_listing_serialize() it reads back the same, and writing that
 * again gives the same bytes.
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-s3-source-private.h"

FUZZ_DEFINE_INITIALIZE ()

static void
check_same (SmprofS3Found *a,
            SmprofS3Found *b)
{
  FUZZ_CHECK (a->entries->len == b->entries->len);
  FUZZ_CHECK (a->problems->len == b->problems->len);

  for (guint i = 0; i < a->entries->len; i++)
    {
      const SmprofS3FoundEntry *x = g_ptr_array_index (a->entries, i);
      const SmprofS3FoundEntry *y = g_ptr_array_index (b->entries, i);

      FUZZ_CHECK (strcmp (x->path, y->path) == 0);
      FUZZ_CHECK (x->kind == y->kind);
      FUZZ_CHECK (x->size == y->size);
      FUZZ_CHECK (g_strcmp0 (x->etag, y->etag) == 0);
    }

  for (guint i = 0; i < a->problems->len; i++)
    {
      const SmprofS3FoundProblem *x = g_ptr_array_index (a->problems, i);
      const SmprofS3FoundProblem *y = g_ptr_array_index (b->problems, i);

      FUZZ_CHECK (strcmp (x->path, y->path) == 0);
      FUZZ_CHECK (strcmp (x->message, y->message) == 0);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = fuzz_bytes (data, size);
  g_autoptr(SmprofS3Found) found = NULL;
  g_autoptr(SmprofS3Found) again = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GBytes) rewritten = NULL;
  g_autofree char *root = NULL;
  g_autofree char *scope = NULL;
  g_autofree char *root_again = NULL;
  g_autofree char *scope_again = NULL;
  guint depth = 0;
  guint depth_again = 0;

  found = _smprof_s3_listing_parse (bytes, &root, &scope, &depth);
  if (found == NULL)
    return 0;

  FUZZ_CHECK (root != NULL && scope != NULL);
  FUZZ_CHECK (depth >= 1 && depth <= 3);

  for (guint i = 0; i < found->entries->len; i++)
    {
      const SmprofS3FoundEntry *entry = g_ptr_array_index (found->entries, i);

      FUZZ_CHECK (entry->path != NULL);
      FUZZ_CHECK (entry->kind == SMPROF_LISTING_FILE || entry->kind == SMPROF_LISTING_EMPTY_FOLDER);
      FUZZ_CHECK (entry->etag == NULL || entry->etag[0] != '\0');
    }

  for (guint i = 0; i < found->problems->len; i++)
    {
      const SmprofS3FoundProblem *problem = g_ptr_array_index (found->problems, i);

      FUZZ_CHECK (problem->path != NULL && problem->message != NULL);
      FUZZ_CHECK (g_utf8_validate (problem->message, -1, NULL));
    }

  written = _smprof_s3_listing_serialize (root, scope, depth, found);
  again = _smprof_s3_listing_parse (written, &root_again, &scope_again, &depth_again);
  FUZZ_CHECK (again != NULL);
  FUZZ_CHECK (strcmp (root, root_again) == 0);
  FUZZ_CHECK (strcmp (scope, scope_again) == 0);
  FUZZ_CHECK (depth == depth_again);
  check_same (found, again);

  rewritten = _smprof_s3_listing_serialize (root_again, scope_again, depth_again, again);
  FUZZ_CHECK (g_bytes_equal (written, rewritten));

  return 0;
}
