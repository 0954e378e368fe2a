/* fuzz-s3-listing.c: smprof_s3_list_page_parse() on arbitrary bodies, as a
 * hostile or broken S3 endpoint may send for ListObjectsV2
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-s3-error.h"
#include "smprof-s3-listing.h"

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *body = fuzz_copy (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofS3ListPage) page = smprof_s3_list_page_parse (body, size, &error);

  if (page == NULL)
    {
      fuzz_check_error (error, SMPROF_S3_ERROR);
      return 0;
    }

  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (page->objects != NULL && page->prefixes != NULL && page->bad_keys != NULL);

  /* Keys become paths in the job index and names on screen. */
  for (guint i = 0; i < page->objects->len; i++)
    {
      const SmprofS3Object *object = g_ptr_array_index (page->objects, i);

      FUZZ_CHECK (object->key != NULL && g_utf8_validate (object->key, -1, NULL));
      FUZZ_CHECK (object->etag == NULL || g_utf8_validate (object->etag, -1, NULL));
    }
  for (guint i = 0; i < page->prefixes->len; i++)
    FUZZ_CHECK (g_utf8_validate (g_ptr_array_index (page->prefixes, i), -1, NULL));
  for (guint i = 0; i < page->bad_keys->len; i++)
    FUZZ_CHECK (g_utf8_validate (g_ptr_array_index (page->bad_keys, i), -1, NULL));
  FUZZ_CHECK (page->next_continuation_token == NULL ||
              g_utf8_validate (page->next_continuation_token, -1, NULL));

  return 0;
}
