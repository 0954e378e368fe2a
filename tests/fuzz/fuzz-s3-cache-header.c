/* fuzz-s3-cache-header.c: the header of a cached S3 object file, as a crash,
 * a full disk or another smprof version may have left it in the cache
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each input is read by _smprof_s3_cache_parse_header(), then written as the
 * cache file of one object and looked at the two ways the S3 source does:
 * smprof_s3_cache_contains() (the header and the file's size) and
 * smprof_s3_cache_lookup() (all of it, checksum included).
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
  SmprofS3CacheHeader header = { 0 };
  const char *etag = "";
  guint64 listed_size = 0;
  gboolean parsed, complete, contained;

  parsed = _smprof_s3_cache_parse_header (file, size, &header);
  if (parsed)
    {
      const char *first_newline = memchr (file, '\n', size);
      gsize line_length;

      FUZZ_CHECK (first_newline != NULL);
      line_length = first_newline + 1 - file;

      /* The header lies in the bytes read for it and ends with an empty
       * line; its fields are single lines. */
      FUZZ_CHECK (header.header_length > line_length);
      FUZZ_CHECK (header.header_length <= MIN (size, SMPROF_S3_CACHE_MAX_HEADER));
      FUZZ_CHECK (memcmp (file + header.header_length - 2, "\n\n", 2) == 0);
      FUZZ_CHECK (header.etag != NULL && header.sha256 != NULL);
      FUZZ_CHECK (strchr (header.etag, '\n') == NULL && strlen (header.etag) < header.header_length);
      FUZZ_CHECK (strchr (header.sha256, '\n') == NULL && strlen (header.sha256) < header.header_length);

      etag = header.etag;
      listed_size = header.size;
    }

  /* The same bytes as the cache file of an object listed with the header's
   * ETag and size: it is kept only when the body is exactly that size. The
   * header holds an ETag escaped ('%', CR and LF as %XX), so one with '%' or
   * CR never equals a listed ETag's escaped form. */
  ensure_cache ();
  FUZZ_CHECK (g_file_set_contents (object_file, file, size, NULL));
  complete = parsed && header.size == size - header.header_length && strpbrk (header.etag, "%\r") == NULL;

  contained = smprof_s3_cache_contains (cache, ENDPOINT, BUCKET, KEY, etag, listed_size);
  FUZZ_CHECK (contained == complete);

  kept = smprof_s3_cache_lookup (cache, ENDPOINT, BUCKET, KEY, etag, listed_size);
  if (kept != NULL)
    {
      g_autofree char *digest = NULL;

      /* What is handed out is the body, and only a body that matches its
       * checksum. */
      FUZZ_CHECK (complete);
      FUZZ_CHECK (g_bytes_get_size (kept) == header.size);
      FUZZ_CHECK (memcmp (g_bytes_get_data (kept, NULL), file + header.header_length, header.size) == 0);
      digest = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, kept);
      FUZZ_CHECK (strcmp (digest, header.sha256) == 0);
    }
  else if (complete)
    {
      g_autofree char *digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                             (const guchar *) file + header.header_length,
                                                             header.size);

      /* refused only for a wrong checksum, and then thrown away */
      FUZZ_CHECK (strcmp (digest, header.sha256) != 0);
      FUZZ_CHECK (!g_file_test (object_file, G_FILE_TEST_EXISTS));
    }

  _smprof_s3_cache_header_clear (&header);
  g_remove (object_file);

  return 0;
}
