/* test-s3-cache.c: the S3 object cache: safe paths, validation, eviction
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
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

  /* same length, one byte of the body (at the start of the file) flipped:
   * the checksum tells */
  contents[3] ^= 1;
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

/* A large body is kept and handed back whole (mapped from its file). */
static void
test_large_object (Fixture       *fixture,
                   gconstpointer  data)
{
  gsize size = 3 * 1024 * 1024 + 17;
  guint8 *data_bytes = g_malloc (size);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) back = NULL;
  g_autoptr(SmprofS3CacheWriter) writer = NULL;
  g_autoptr(GBytes) committed = NULL;
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < size; i++)
    data_bytes[i] = (guint8) (i * 2654435761u >> 13);
  body = g_bytes_new_take (data_bytes, size);

  /* written in pieces as a download would, a first attempt forgotten */
  writer = smprof_s3_cache_writer_new (fixture->cache, ENDPOINT, BUCKET, "big", &error);
  g_assert_no_error (error);
  g_assert_true (smprof_s3_cache_writer_write (writer, (const guint8 *) "first attempt", 13, &error));
  g_assert_true (smprof_s3_cache_writer_reset (writer, &error));
  for (gsize done = 0; done < size; done += 65536)
    g_assert_true (smprof_s3_cache_writer_write (writer, (const guint8 *) g_bytes_get_data (body, NULL) + done,
                                                 MIN (65536, size - done), &error));
  g_assert_cmpuint (smprof_s3_cache_writer_get_size (writer), ==, size);
  g_assert_true (smprof_s3_cache_writer_commit (writer, "\"e\"", "\"e\"", &committed, &error));
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (committed, body));

  back = smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "big", "\"e\"", size);
  g_assert_nonnull (back);
  g_assert_true (g_bytes_equal (back, body));
}

/* A writer given up on leaves nothing, not even its temporary file. */
static void
test_writer_abandoned (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *path = cached_file (fixture, "gone");
  g_autofree char *folder = g_path_get_dirname (path);
  SmprofS3CacheWriter *writer = smprof_s3_cache_writer_new (fixture->cache, ENDPOINT, BUCKET, "gone", NULL);
  g_autoptr(GDir) dir = NULL;

  g_assert_nonnull (writer);
  g_assert_true (smprof_s3_cache_writer_write (writer, (const guint8 *) "partial", 7, NULL));
  smprof_s3_cache_writer_free (writer);

  dir = g_dir_open (folder, 0, NULL);
  g_assert_nonnull (dir);
  g_assert_null (g_dir_read_name (dir));
  g_assert_false (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "gone", NULL, 7));
}

/* The keying rule: a copy serves a listing that gives its size and either
 * ETag it was stored with, the listing's or the download's. */
static void
test_etag_rule (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GBytes) body = bytes_of ("the stats");

  g_assert_true (smprof_s3_cache_store_full (fixture->cache, ENDPOINT, BUCKET, "k", "\"listed\"", "\"got\"", body,
                                             NULL));
  g_assert_true (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "k", "\"listed\"", 9));
  g_assert_true (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "k", "\"got\"", 9));
  g_assert_false (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "k", "\"other\"", 9));
  g_assert_false (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "k", "\"listed\"", 8));
  g_assert_false (smprof_s3_cache_contains (fixture->cache, ENDPOINT, BUCKET, "k", NULL, 9));

  {
    g_autoptr(GBytes) a = smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "k", "\"listed\"", 9);
    g_autoptr(GBytes) b = smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "k", "\"got\"", 9);

    g_assert_true (a != NULL && g_bytes_equal (a, body));
    g_assert_true (b != NULL && g_bytes_equal (b, body));
  }
}

typedef struct
{
  SmprofS3Cache *cache;
  const char    *listing_id;
  gboolean       object_found;
  gboolean       listing_found;
  gboolean       done;   /* atomic */
} FifoLookup;

static gpointer
fifo_lookup_thread (gpointer data)
{
  FifoLookup *lookup = data;
  g_autoptr(GBytes) object = smprof_s3_cache_lookup (lookup->cache, ENDPOINT, BUCKET, "fifo", "\"e\"", 9);
  g_autoptr(GBytes) listing = smprof_s3_cache_lookup_listing (lookup->cache, lookup->listing_id);

  lookup->object_found = object != NULL ||
                         smprof_s3_cache_contains (lookup->cache, ENDPOINT, BUCKET, "fifo", "\"e\"", 9);
  lookup->listing_found = listing != NULL;
  g_atomic_int_set (&lookup->done, TRUE);

  return NULL;
}

/* A FIFO, or a link, where a copy belongs is a miss, and nothing waits on it. */
static void
test_not_regular (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GBytes) body = bytes_of ("the stats");
  g_autofree char *object = cached_file (fixture, "fifo");
  g_autofree char *listing_file = NULL;
  g_autofree char *target = NULL;
  FifoLookup lookup = { fixture->cache, "endpoint\nbucket\nprefix", FALSE, FALSE, FALSE };
  GThread *thread;
  gint64 deadline;

  g_assert_true (smprof_s3_cache_store (fixture->cache, ENDPOINT, BUCKET, "fifo", "\"e\"", body, NULL));
  g_assert_true (smprof_s3_cache_store_listing (fixture->cache, lookup.listing_id, body, NULL));
  {
    g_autofree char *folder = g_build_filename (fixture->dir, "listings", NULL);
    g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);

    listing_file = g_build_filename (folder, g_dir_read_name (dir), NULL);
  }

  g_assert_cmpint (g_unlink (object), ==, 0);
  g_assert_cmpint (mkfifo (object, 0600), ==, 0);
  g_assert_cmpint (g_unlink (listing_file), ==, 0);
  g_assert_cmpint (mkfifo (listing_file, 0600), ==, 0);

  thread = g_thread_new ("lookup", fifo_lookup_thread, &lookup);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!g_atomic_int_get (&lookup.done))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("a cache look-up still waits on a FIFO after 10 s");
      g_usleep (10 * 1000);
    }
  g_thread_join (thread);
  g_assert_false (lookup.object_found);
  g_assert_false (lookup.listing_found);

  /* a link to a good copy elsewhere is not followed either */
  g_assert_cmpint (g_unlink (object), ==, 0);
  g_assert_true (smprof_s3_cache_store (fixture->cache, ENDPOINT, BUCKET, "elsewhere", "\"e\"", body, NULL));
  target = cached_file (fixture, "elsewhere");
  g_assert_cmpint (symlink (target, object), ==, 0);
  g_assert_null (smprof_s3_cache_lookup (fixture->cache, ENDPOINT, BUCKET, "fifo", "\"e\"", 9));
}

/* Listings count against the limit too, and closing the cache trims what
 * this process used, down to 90% of the limit, oldest first. */
static void
test_close_trims (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("smprof-s3-close-XXXXXX", &error);
  g_autoptr(SmprofS3Cache) cache = smprof_s3_cache_new (dir, 10000);
  g_autofree char *filler = g_strnfill (1000, 'z');
  g_autoptr(GBytes) body = bytes_of (filler);
  g_autofree char *listings = g_build_filename (dir, "listings", NULL);
  guint objects_kept = 0;

  g_assert_no_error (error);

  /* 6 KB of listings, then 10 KB of objects, all used by this process */
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *id = g_strdup_printf ("listing %u", i);

      g_assert_true (smprof_s3_cache_store_listing (cache, id, body, NULL));
    }
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *key = g_strdup_printf ("obj-%u", i);

      g_assert_true (smprof_s3_cache_store (cache, ENDPOINT, BUCKET, key, "\"e\"", body, NULL));
    }

  /* while the job is open, nothing it used goes */
  g_assert_true (smprof_s3_cache_trim (cache, NULL));
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *key = g_strdup_printf ("obj-%u", i);

      g_assert_true (smprof_s3_cache_contains (cache, ENDPOINT, BUCKET, key, "\"e\"", 1000));
    }

  smprof_s3_cache_close (cache);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *key = g_strdup_printf ("obj-%u", i);

      if (smprof_s3_cache_contains (cache, ENDPOINT, BUCKET, key, "\"e\"", 1000))
        objects_kept++;
    }

  /* about 1.1 KB an object, 1 KB a listing: 9 KB at most remain */
  g_assert_cmpuint (objects_kept, >, 0);
  g_assert_cmpuint (objects_kept, <, 10);
  {
    g_autoptr(GDir) folder = g_dir_open (listings, 0, NULL);
    guint n_listings = 0;

    while (folder != NULL && g_dir_read_name (folder) != NULL)
      n_listings++;
    g_assert_cmpuint (n_listings * 1000 + objects_kept * 1000, <=, 9000);
  }

  remove_tree (dir);
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
  g_test_add ("/s3-cache/large-object", Fixture, NULL, fixture_set_up, test_large_object, fixture_tear_down);
  g_test_add ("/s3-cache/writer-abandoned", Fixture, NULL, fixture_set_up, test_writer_abandoned, fixture_tear_down);
  g_test_add ("/s3-cache/etag-rule", Fixture, NULL, fixture_set_up, test_etag_rule, fixture_tear_down);
  g_test_add ("/s3-cache/not-regular", Fixture, NULL, fixture_set_up, test_not_regular, fixture_tear_down);
  g_test_add_func ("/s3-cache/close-trims", test_close_trims);

  return g_test_run ();
}
