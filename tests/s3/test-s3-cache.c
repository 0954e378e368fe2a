/* test-s3-cache.c: the S3 object cache: safe paths, validation, eviction
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <utime.h>

#include "smprof-s3-cache.h"

#define ENDPOINT "http://127.0.0.1:8080"
#define BUCKET "jobs"

typedef struct
{
  char          *dir;
  SmprofS3Cache *cache;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("smprof-s3-cache-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->cache = smprof_s3_cache_new (fixture->dir, 1 << 20);
}

static void
remove_tree (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->cache);
  remove_tree (fixture->dir);
  g_free (fixture->dir);
}

static gboolean
component_is_safe (const char *component)
{
  return component[0] != '\0' && strcmp (component, ".") != 0 && strcmp (component, "..") != 0;
}

/* Every component of the mapped path is a plain name: no "", ".", "..", so
 * joining it under the cache folder cannot leave the folder. */
static void
assert_safe (const char *key)
{
  g_autofree char *relative = smprof_s3_cache_key_to_relative_path (ENDPOINT, BUCKET, key);
  g_auto(GStrv) parts = g_strsplit (relative, "/", -1);
  g_autofree char *canonical = NULL;
  g_autofree char *joined = NULL;

  g_assert_true (g_str_has_prefix (relative, "objects/"));
  g_assert_false (g_path_is_absolute (relative));
  g_assert_true (g_utf8_validate (relative, -1, NULL));
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_assert_true (component_is_safe (parts[i]));
      g_assert_cmpuint (strlen (parts[i]), <=, 255);
      for (const char *p = parts[i]; *p != '\0'; p++)
        g_assert_true (g_ascii_isprint (*p));
    }
  g_assert_true (g_str_has_suffix (relative, "@"));

  joined = g_build_filename ("/cache", relative, NULL);
  canonical = g_canonicalize_filename (joined, NULL);
  g_assert_true (g_str_has_prefix (canonical, "/cache/objects/"));
}

static void
test_hostile_keys (void)
{
  static const char *keys[] = {
    "../../../../etc/passwd",
    "..",
    ".",
    "a/./b/../../..",
    "/absolute/key",
    "//double//slashes//",
    "",
    "trailing/",
    ".hidden/.x",
    "back\\slash\\..\\..",
    "new\nline/tab\there",
    "\x01\x02\x7f\xff\xfe",
    "é/ünïcödé/日本",
    "%2E%2E/%2F",
    "a@/b@",
    "con/nul/aux",
  };
  g_autofree char *long_segment = g_strnfill (1000, 'x');
  g_autofree char *deep = NULL;
  GString *many = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    assert_safe (keys[i]);

  assert_safe (long_segment);
  for (guint i = 0; i < 400; i++)
    g_string_append (many, "../");
  deep = g_string_free (many, FALSE);
  assert_safe (deep);
}

/* Distinct keys never share a file, nor a file a folder. */
static void
test_no_collisions (void)
{
  static const char *keys[] = {
    "a", "a/", "a/b", "a//b", "A", "a b", "a%20b", "a+b", "a@", "a%40", ".a", "%2Ea", "..", "%2E.",
    "a/..", "a/.", "", "/", "python_stats", "python_stats.json",
  };
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      char *relative = smprof_s3_cache_key_to_relative_path (ENDPOINT, BUCKET, keys[i]);
      char *folder = g_path_get_dirname (relative);

      g_assert_false (g_hash_table_contains (seen, relative));
      g_hash_table_add (seen, relative);
      g_hash_table_add (folders, folder);
    }

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *relative = smprof_s3_cache_key_to_relative_path (ENDPOINT, BUCKET, keys[i]);

      g_assert_false (g_hash_table_contains (folders, relative));
    }
}

static void
test_readable_paths (void)
{
  g_autofree char *relative = smprof_s3_cache_key_to_relative_path (
    ENDPOINT, BUCKET, "job/framework/pytorch/cprofile/0-algo-1/prestepzero-*-start-1.0_train-0-stepstart-2.5/python_stats");

  g_assert_cmpstr (relative, ==,
                   "objects/http%3A%2F%2F127.0.0.1%3A8080/jobs/job/framework/pytorch/cprofile/0-algo-1/"
                   "prestepzero-%2A-start-1.0_train-0-stepstart-2.5/python_stats@");
}

static GBytes *
bytes_of (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GBytes) body = bytes_of ("the stats");
  g_autoptr(GBytes) back = NULL;
  g_autoptr(GError) error = NULL;
  const char *key = "../../x/python_stats";

  g_assert_null (smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, key, "\"e1\"", 9));
  g_assert_true (smprof_s3_cache_store (fixture->cache, ENDPOINT, BUCKET, key, "\"e1\"", body, &error));
  g_assert_no_error (error);

  g_assert_true (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, key, "\"e1\"", 9));
  back = smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, key, "\"e1\"", 9);
  g_assert_nonnull (back);
  g_assert_true (g_bytes_equal (back, body));

  /* another ETag or size: another version of the object */
  g_assert_false (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, key, "\"e2\"", 9));
  g_assert_null (smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, key, "\"e2\"", 9));
  g_assert_null (smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, key, "\"e1\"", 10));
  g_assert_null (smprof_s3_cache_lookup (fixture->cache, "http://other", BUCKET, key, "\"e1\"", 9));

  /* an ETag that the header escapes (S3's are quoted hex, but a
   * compatible server may send anything) still finds its copy */
  {
    const char *odd_etag = "\"50%\r\nx\"";
    g_autoptr(GBytes) odd_back = NULL;

    g_assert_true (smprof_s3_cache_store (fixture->cache, ENDPOINT, BUCKET, "odd", odd_etag, body, NULL));
    g_assert_true (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "odd", odd_etag, 9));
    odd_back = smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "odd", odd_etag, 9);
    g_assert_nonnull (odd_back);
    g_assert_true (g_bytes_equal (odd_back, body));
    g_assert_false (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "odd", "\"50%25\r\nx\"", 9));
  }

  /* an empty object and a missing ETag are fine */
  {
    g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
    g_autoptr(GBytes) empty_back = NULL;

    g_assert_true (smprof_s3_cache_store (fixture->cache, ENDPOINT, BUCKET, "empty", NULL, empty, NULL));
    empty_back = smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "empty", NULL, 0);
    g_assert_nonnull (empty_back);
    g_assert_cmpuint (g_bytes_get_size (empty_back), ==, 0);
  }
}

static char *
cached_file (Fixture    *fixture,
             const char *key)
{
  g_autofree char *relative = smprof_s3_cache_key_to_relative_path (ENDPOINT, BUCKET, key);

  return g_build_filename (fixture->dir, relative, NULL);
}

/* A file cut short, grown or flipped is never trusted, and is removed. */
static void
test_damaged_files (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GBytes) body = bytes_of ("0123456789");
  g_autofree char *path = cached_file (fixture, "k");
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_true (smprof_s3_cache_store (fixture->cache, ENDPOINT, BUCKET, "k", "\"e\"", body, NULL));
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));

  /* cut */
  g_assert_true (g_file_set_contents (path, contents, length - 3, NULL));
  g_assert_false (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "k", "\"e\"", 10));
  g_assert_null (smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "k", "\"e\"", 10));

  /* same length, one byte of the body flipped: the checksum tells */
  contents[length - 1] ^= 1;
  g_assert_true (g_file_set_contents (path, contents, length, NULL));
  g_assert_true (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "k", "\"e\"", 10));
  g_assert_null (smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "k", "\"e\"", 10));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* garbage */
  g_assert_true (g_file_set_contents (path, "garbage", -1, NULL));
  g_assert_null (smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "k", "\"e\"", 10));

  /* a leftover temporary file is not the object */
  g_assert_true (smprof_s3_cache_store (fixture->cache, ENDPOINT, BUCKET, "k", "\"e\"", body, NULL));
  {
    g_autofree char *temp = g_strconcat (path, ".AB12CD", NULL);

    g_assert_true (g_file_set_contents (temp, "partial", -1, NULL));
    g_assert_true (smprof_s3_cache_trim (fixture->cache, NULL));
  }
}

static void
set_age (const char *path,
         gint64      seconds_ago)
{
  struct utimbuf times;

  times.actime = times.modtime = g_get_real_time () / G_USEC_PER_SEC - seconds_ago;
  g_assert_cmpint (g_utime (path, &times), ==, 0);
}

/* Over its limit, the cache drops the least recently used objects first,
 * down to 90% of the limit, never those this process used. */
static void
test_eviction (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("smprof-s3-evict-XXXXXX", &error);
  g_autoptr(SmprofS3Cache) writer = smprof_s3_cache_new (dir, 1 << 30);
  g_autoptr(SmprofS3Cache) cache = NULL;
  g_autofree char *filler = g_strnfill (1000, 'z');
  g_autoptr(GBytes) body = bytes_of (filler);
  guint kept = 0;

  g_assert_no_error (error);

  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *key = g_strdup_printf ("obj-%u", i);
      g_autofree char *relative = smprof_s3_cache_key_to_relative_path (ENDPOINT, BUCKET, key);
      g_autofree char *path = g_build_filename (dir, relative, NULL);

      g_assert_true (smprof_s3_cache_store (writer, ENDPOINT, BUCKET, key, "\"e\"", body, NULL));
      /* obj-0 is the oldest */
      set_age (path, 1000 - i * 10);
    }

  /* a new process with a 5 KB limit: about 1.1 KB per object */
  cache = smprof_s3_cache_new (dir, 5000);
  g_assert_true (smprof_s3_cache_trim (cache, NULL));

  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *key = g_strdup_printf ("obj-%u", i);
      gboolean present = smprof_s3_cache_contains (cache, ENDPOINT, BUCKET, key, "\"e\"", 1000);

      if (present)
        kept++;
      /* the newest survive */
      if (i >= 7)
        g_assert_true (present);
      if (i < 5)
        g_assert_false (present);
    }
  g_assert_cmpuint (kept, <=, 4);

  /* what this process stores now is never evicted by it */
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *key = g_strdup_printf ("new-%u", i);

      g_assert_true (smprof_s3_cache_store (cache, ENDPOINT, BUCKET, key, "\"e\"", body, NULL));
    }
  g_assert_true (smprof_s3_cache_trim (cache, NULL));
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *key = g_strdup_printf ("new-%u", i);

      g_assert_true (smprof_s3_cache_contains (cache, ENDPOINT, BUCKET, key, "\"e\"", 1000));
    }

  remove_tree (dir);
}

static void
test_listing (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GBytes) listing = bytes_of ("smprof-s3-listing 1\nEND\n");
  g_autoptr(GBytes) back = NULL;

  g_assert_null (smprof_s3_cache_lookup_listing (fixture->cache, "endpoint\nbucket\nprefix"));
  g_assert_true (smprof_s3_cache_store_listing (fixture->cache, "endpoint\nbucket\nprefix", listing, NULL));
  back = smprof_s3_cache_lookup_listing (fixture->cache, "endpoint\nbucket\nprefix");
  g_assert_true (g_bytes_equal (back, listing));
  g_assert_null (smprof_s3_cache_lookup_listing (fixture->cache, "endpoint\nbucket\nprefix/"));
}

static void
test_parse_size (void)
{
  static const struct { const char *text; gboolean ok; guint64 value; } cases[] = {
    { "0", TRUE, 0 },
    { "1073741824", TRUE, G_GUINT64_CONSTANT (1) << 30 },
    { "512M", TRUE, G_GUINT64_CONSTANT (512) << 20 },
    { "2G", TRUE, G_GUINT64_CONSTANT (2) << 30 },
    { "2GiB", TRUE, G_GUINT64_CONSTANT (2) << 30 },
    { "10k", TRUE, 10240 },
    { " 3T ", TRUE, G_GUINT64_CONSTANT (3) << 40 },
    { "100B", TRUE, 100 },
    { "", FALSE, 0 },
    { "-1", FALSE, 0 },
    { "1.5G", FALSE, 0 },
    { "12X", FALSE, 0 },
    { "99999999999999999999", FALSE, 0 },
    { "99999999999T", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint64 value = 0;

      g_assert_cmpint (smprof_s3_cache_parse_size (cases[i].text, &value), ==, cases[i].ok);
      if (cases[i].ok)
        g_assert_cmpuint (value, ==, cases[i].value);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/s3-cache/path/hostile-keys", test_hostile_keys);
  g_test_add_func ("/s3-cache/path/no-collisions", test_no_collisions);
  g_test_add_func ("/s3-cache/path/readable", test_readable_paths);
  g_test_add ("/s3-cache/round-trip", Fixture, NULL, fixture_set_up, test_round_trip, fixture_tear_down);
  g_test_add ("/s3-cache/damaged-files", Fixture, NULL, fixture_set_up, test_damaged_files, fixture_tear_down);
  g_test_add_func ("/s3-cache/eviction", test_eviction);
  g_test_add ("/s3-cache/listing", Fixture, NULL, fixture_set_up, test_listing, fixture_tear_down);
  g_test_add_func ("/s3-cache/parse-size", test_parse_size);

  return g_test_run ();
}
