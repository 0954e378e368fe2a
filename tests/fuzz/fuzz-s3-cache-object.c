/* fuzz-s3-cache-object.c: a cached S3 object file, as a crash, a full disk,
 * another program or another smprof version may have left it in the cache
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each input is read by _smprof_s3_cache_parse_trailer() as a whole file,
 * then written as the cache file of one object and looked at the two ways
 * the S3 source does: smprof_s3_cache_contains() (the trailer and the
 * file's size) and smprof_s3_cache_lookup() (all of it, checksum included).
 */

#include "config.h"

#include <glib/gstdio.h>

#include "fuzz-common.h"
#include "smprof-s3-cache-private.h"

#define ENDPOINT "s3.us-west-2.amazonaws.com"
#define BUCKET "fuzz-bucket"
#define KEY "job/profiler-output/framework/pytorch/cprofile/1-algo-1/prefix/python_stats"

static SmprofS3Cache *cache;
static char *cache_dir;
static char *object_file;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  g_remove (path);
}

static void
remove_cache (void)
{
  g_clear_object (&cache);
  remove_tree (cache_dir);
}

/* One cache in a private folder for the whole run. */
static void
ensure_cache (void)
{
  g_autofree char *relative = NULL;
  g_autofree char *folder = NULL;

  if (cache != NULL)
    return;

  cache_dir = g_dir_make_tmp ("smprof-fuzz-s3-cache-XXXXXX", NULL);
  FUZZ_CHECK (cache_dir != NULL);
  cache = smprof_s3_cache_new (cache_dir, 0);
  relative = smprof_s3_cache_key_to_relative_path (ENDPOINT, BUCKET, KEY);
  object_file = g_build_filename (smprof_s3_cache_get_dir (cache), relative, NULL);
  folder = g_path_get_dirname (object_file);
  FUZZ_CHECK (g_mkdir_with_parents (folder, 0700) == 0);
  atexit (remove_cache);
}

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *file = fuzz_copy (data, size);
  g_autoptr(GBytes) kept = NULL;
  SmprofS3CacheTrailer trailer = { 0 };
  gsize tail_length = MIN (size, SMPROF_S3_CACHE_MAX_TRAILER + 12);
  const char *etag = "";
  guint64 listed_size = 0;
  gboolean parsed, complete, contained;

  parsed = _smprof_s3_cache_parse_trailer ((const guint8 *) file + size - tail_length, tail_length, size,
                                           &trailer);
  if (parsed)
    {
      /* The trailer lies after the body it describes, within the bytes
       * read for it; its strings hold no NUL. */
      FUZZ_CHECK (trailer.size == trailer.body_offset_end);
      FUZZ_CHECK (trailer.size <= size - 12);
      FUZZ_CHECK (size - trailer.size - 12 <= SMPROF_S3_CACHE_MAX_TRAILER);
      FUZZ_CHECK (trailer.key != NULL && trailer.listed_etag != NULL && trailer.response_etag != NULL);
      FUZZ_CHECK (strlen (trailer.key) < size && strlen (trailer.listed_etag) < size);

      etag = trailer.listed_etag;
      listed_size = trailer.size;
    }

  /* The same bytes as the cache file of KEY listed with the trailer's ETag
   * and size: it is kept only when the trailer names that key. */
  ensure_cache ();
  FUZZ_CHECK (g_file_set_contents (object_file, file, size, NULL));
  complete = parsed && strcmp (trailer.key, KEY) == 0;

  contained = smprof_s3_cache_contains (cache, ENDPOINT, BUCKET, KEY, etag, listed_size);
  FUZZ_CHECK (contained == complete);

  kept = smprof_s3_cache_lookup (cache, ENDPOINT, BUCKET, KEY, etag, listed_size);
  if (kept != NULL)
    {
      guint8 digest[32];
      gsize digest_length = sizeof digest;
      g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

      /* What is handed out is the body, and only a body that matches its
       * checksum. */
      FUZZ_CHECK (complete);
      FUZZ_CHECK (g_bytes_get_size (kept) == trailer.size);
      FUZZ_CHECK (memcmp (g_bytes_get_data (kept, NULL), file, trailer.size) == 0);
      g_checksum_update (checksum, g_bytes_get_data (kept, NULL), g_bytes_get_size (kept));
      g_checksum_get_digest (checksum, digest, &digest_length);
      FUZZ_CHECK (memcmp (digest, trailer.sha256, 32) == 0);
    }
  else if (complete)
    {
      guint8 digest[32];
      gsize digest_length = sizeof digest;
      g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

      /* refused only for a wrong checksum, and then thrown away */
      g_checksum_update (checksum, (const guchar *) file, trailer.size);
      g_checksum_get_digest (checksum, digest, &digest_length);
      FUZZ_CHECK (memcmp (digest, trailer.sha256, 32) != 0);
      FUZZ_CHECK (!g_file_test (object_file, G_FILE_TEST_EXISTS));
    }

  _smprof_s3_cache_trailer_clear (&trailer);
  g_remove (object_file);

  return 0;
}
