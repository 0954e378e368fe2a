/* test-s3-source.c: SmprofS3Source and the job loader over a small in-memory
 * S3 on a loopback server (ListObjectsV2 with prefixes, delimiters and
 * pages), filled with a real job from tests/data
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "s3-fake-server.h"
#include "smprof-job.h"
#include "smprof-local-source.h"
#include "smprof-s3-source.h"

#define ROOT "jobs/pt/profiler-output"
#define PAGE_SIZE 7   /* small pages: every listing of a node takes several */

typedef struct
{
  GMutex      lock;
  GTree      *objects;       /* key -> GBytes */
  GHashTable *failing;       /* keys that always answer 500 */
  guint       n_lists;
  guint       n_gets;
  GHashTable *gets;          /* key -> count */
} Bucket;

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_uri_escape_string (text, "/", FALSE);
  g_autofree char *xml = g_markup_escape_text (escaped, -1);

  g_string_append (out, xml);
}

static void
list_objects (Bucket            *bucket,
              SoupServerMessage *message,
              GHashTable        *params)
{
  const char *prefix = g_hash_table_lookup (params, "prefix");
  const char *delimiter = g_hash_table_lookup (params, "delimiter");
  const char *token = g_hash_table_lookup (params, "continuation-token");
  const char *max_text = g_hash_table_lookup (params, "max-keys");
  guint max = max_text != NULL ? (guint) g_ascii_strtoull (max_text, NULL, 10) : PAGE_SIZE;
  guint start = token != NULL ? (guint) g_ascii_strtoull (token, NULL, 10) : 0;
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GString) out = g_string_new ("<?xml version=\"1.0\"?><ListBucketResult>");
  g_autofree char *last_prefix = NULL;
  guint count = 0;
  guint i;

  if (prefix == NULL)
    prefix = "";

  {
    GTreeNode *node;

    for (node = g_tree_node_first (bucket->objects); node != NULL; node = g_tree_node_next (node))
      if (g_str_has_prefix (g_tree_node_key (node), prefix))
        g_ptr_array_add (keys, g_tree_node_key (node));
  }

  for (i = start; i < keys->len && count < max; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      const char *rest = key + strlen (prefix);
      const char *cut = delimiter != NULL ? strstr (rest, delimiter) : NULL;

      if (cut != NULL)
        {
          g_autofree char *common = g_strndup (key, cut + strlen (delimiter) - key);

          if (g_strcmp0 (common, last_prefix) != 0)
            {
              g_string_append (out, "<CommonPrefixes><Prefix>");
              append_escaped (out, common);
              g_string_append (out, "</Prefix></CommonPrefixes>");
              g_free (last_prefix);
              last_prefix = g_steal_pointer (&common);
              count++;
            }
          continue;
        }

      g_string_append (out, "<Contents><Key>");
      append_escaped (out, key);
      g_string_append_printf (out, "</Key><Size>%" G_GSIZE_FORMAT "</Size><ETag>&quot;%u&quot;</ETag></Contents>",
                              g_bytes_get_size (g_tree_lookup (bucket->objects, key)),
                              g_bytes_hash (g_tree_lookup (bucket->objects, key)));
      count++;
    }

  /* a common prefix's other keys belong to this page */
  while (i < keys->len && last_prefix != NULL && g_str_has_prefix (g_ptr_array_index (keys, i), last_prefix))
    i++;

  if (i < keys->len)
    g_string_append_printf (out, "<IsTruncated>true</IsTruncated><NextContinuationToken>%u</NextContinuationToken>", i);
  else
    g_string_append (out, "<IsTruncated>false</IsTruncated>");
  g_string_append (out, "<EncodingType>url</EncodingType></ListBucketResult>");

  fake_server_respond (message, 200, out->str);
}

static void
bucket_handler (SoupServerMessage *message,
                const char        *path,
                gpointer           user_data)
{
  Bucket *bucket = user_data;
  GUri *uri = soup_server_message_get_uri (message);
  const char *query = g_uri_get_query (uri);
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *key = NULL;
  GBytes *bytes;

  params = query != NULL ? g_uri_parse_params (query, -1, "&", G_URI_PARAMS_NONE, NULL)
                         : g_hash_table_new (g_str_hash, g_str_equal);

  if (strcmp (path, "/bucket") == 0 && g_hash_table_contains (params, "list-type"))
    {
      g_mutex_lock (&bucket->lock);
      bucket->n_lists++;
      list_objects (bucket, message, params);
      g_mutex_unlock (&bucket->lock);
      return;
    }

  if (!g_str_has_prefix (path, "/bucket/"))
    {
      fake_server_respond (message, 404, "<Error><Code>NoSuchBucket</Code></Error>");
      return;
    }

  key = g_strdup (path + strlen ("/bucket/"));
  g_mutex_lock (&bucket->lock);
  bucket->n_gets++;
  g_hash_table_replace (bucket->gets, g_strdup (key),
                        GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (bucket->gets, key)) + 1));
  bytes = g_tree_lookup (bucket->objects, key);
  if (g_hash_table_contains (bucket->failing, key))
    fake_server_respond (message, 500, "<Error><Code>InternalError</Code></Error>");
  else if (bytes == NULL)
    fake_server_respond (message, 404, "<Error><Code>NoSuchKey</Code></Error>");
  else
    {
      g_autofree char *etag = g_strdup_printf ("\"%u\"", g_bytes_hash (bytes));

      soup_message_headers_replace (soup_server_message_get_response_headers (message), "ETag", etag);
      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, "application/octet-stream", SOUP_MEMORY_COPY,
                                        g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }
  g_mutex_unlock (&bucket->lock);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  return strcmp (a, b);
}

static void
add_tree (Bucket     *bucket,
          const char *folder,
          const char *prefix)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autofree char *key = g_strconcat (prefix, "/", name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        add_tree (bucket, path, key);
      else
        {
          char *contents = NULL;
          gsize length = 0;

          g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
          g_tree_insert (bucket->objects, g_steal_pointer (&key), g_bytes_new_take (contents, length));
        }
    }
}

typedef struct
{
  Bucket      bucket;
  FakeServer *server;
  char       *local;   /* the same job on disk */
  char       *home;
  char       *cache;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = NULL;
  g_autofree char *framework = NULL;

  g_mutex_init (&fixture->bucket.lock);
  fixture->bucket.objects = g_tree_new_full (compare_keys, NULL, g_free, (GDestroyNotify) g_bytes_unref);
  fixture->bucket.failing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fixture->bucket.gets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  fixture->local = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  framework = g_build_filename (fixture->local, "framework", NULL);
  add_tree (&fixture->bucket, framework, ROOT "/framework");

  fixture->server = fake_server_new (bucket_handler, &fixture->bucket);
  url = fake_server_dup_url (fixture->server);

  fixture->home = g_dir_make_tmp ("smprof-s3-home-XXXXXX", NULL);
  fixture->cache = g_build_filename (fixture->home, "cache", NULL);
  g_setenv ("HOME", fixture->home, TRUE);
  g_setenv ("AWS_ENDPOINT_URL", url, TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIDTEST", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", "secret", TRUE);
  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("AWS_REGION");
  g_unsetenv ("AWS_ENDPOINT_URL_S3");
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
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
  g_clear_pointer (&fixture->server, fake_server_free);
  g_tree_unref (fixture->bucket.objects);
  g_hash_table_unref (fixture->bucket.failing);
  g_hash_table_unref (fixture->bucket.gets);
  g_mutex_clear (&fixture->bucket.lock);
  remove_tree (fixture->home);
  g_free (fixture->home);
  g_free (fixture->cache);
  g_free (fixture->local);
}

static SmprofSource *
open_s3 (const char                  *uri,
         const SmprofS3SourceOptions *options)
{
  g_autoptr(GError) error = NULL;
  SmprofSource *source = smprof_s3_source_new (uri, options, &error);

  g_assert_no_error (error);
  return source;
}

static SmprofJob *
load_job (SmprofSource *source)
{
  g_autoptr(GError) error = NULL;
  SmprofJob *job = smprof_job_new (source);

  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);
  return job;
}

static guint
count_records (SmprofJob *job)
{
  return smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len +
         smprof_job_get_records (job, SMPROF_PROFILER_PYINSTRUMENT)->len;
}

/* Same records as the local copy, each stats file fetched exactly once
 * (prefetched over the pool, handed to load without a cache), none failing. */
static void
test_open_and_load (Fixture       *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_connections = 4 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(SmprofJob) local = load_job (local_source);
  g_autoptr(GPtrArray) problems = NULL;
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  GPtrArray *local_records = smprof_job_get_records (local, SMPROF_PROFILER_CPROFILE);
  g_autofree char *location = smprof_source_dup_location (source);
  SmprofS3Progress progress;

  g_assert_cmpstr (location, ==, "s3://bucket/" ROOT);
  g_assert_cmpuint (records->len, ==, local_records->len);
  g_assert_cmpuint (records->len, >, 0);
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *a = g_ptr_array_index (records, i);
      SmprofRecord *b = g_ptr_array_index (local_records, i);

      g_assert_cmpstr (a->path, ==, b->path);
      g_assert_cmpstr (a->node_id, ==, b->node_id);
    }

  g_assert_cmpuint (fixture->bucket.n_gets, ==, 0);
  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_false (record->failed);
      g_assert_nonnull (record->pstats);
    }
  g_assert_cmpuint (fixture->bucket.n_gets, ==, records->len);

  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);

  smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
  g_assert_cmpuint (progress.objects_listed, ==, records->len);
  g_assert_cmpuint (progress.objects_wanted, ==, records->len);
  g_assert_cmpuint (progress.objects_fetched, ==, records->len);
  g_assert_cmpuint (progress.bytes_fetched, ==, progress.bytes_wanted);
  g_assert_cmpuint (progress.objects_cached, ==, 0);
  /* pages of PAGE_SIZE entries: several per node */
  g_assert_cmpuint (progress.list_requests, >, records->len / PAGE_SIZE);
  g_assert_false (progress.busy);
}

/* A key that always fails: tried max_attempts times by the prefetch, not
 * again by load, reported for its record; the rest loads. */
static void
test_failing_key (Fixture       *fixture,
                  gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_attempts = 2 };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(GPtrArray) problems = NULL;
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  SmprofRecord *victim = g_ptr_array_index (records, 3);
  g_autofree char *key = g_strconcat (ROOT "/", victim->path, NULL);
  SmprofS3Progress progress;

  g_hash_table_add (fixture->bucket.failing, g_strdup (key));
  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_cmpint (record->failed, ==, record == victim);
    }
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (fixture->bucket.gets, key)), ==, 2);

  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpstr (((SmprofProblem *) g_ptr_array_index (problems, 0))->path, ==, victim->path);

  smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
  g_assert_cmpuint (progress.objects_failed, ==, 1);
  g_assert_cmpuint (progress.objects_fetched, ==, records->len - 1);
}

typedef struct
{
  guint    n_calls;
  gboolean last_busy;
  guint64  last_listed;
} ProgressLog;

static void
progress_cb (SmprofS3Source         *source,
             const SmprofS3Progress *progress,
             gpointer                user_data)
{
  ProgressLog *log = user_data;
  SmprofS3Progress again;

  /* a listener may ask the source anything */
  smprof_s3_source_get_progress (source, &again);
  log->n_calls++;
  log->last_busy = progress->busy;
  log->last_listed = progress->objects_listed;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* The viewer's loading bar: property notifications on the main context,
 * or a callback from the workers. */
static void
test_progress (Fixture       *fixture,
               gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = NULL;
  ProgressLog log = { 0 };
  guint notified = 0;
  guint64 listed = 0, fetched = 0;

  smprof_s3_source_set_progress_func (SMPROF_S3_SOURCE (source), progress_cb, &log, NULL);
  g_signal_connect (source, "notify::objects-fetched", G_CALLBACK (count_notify_cb), &notified);

  job = load_job (source);
  g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));

  g_assert_cmpuint (log.n_calls, >, 2);
  g_assert_false (log.last_busy);
  g_assert_cmpuint (log.last_listed, ==, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len);

  /* notifications wait for the main context, and come coalesced */
  g_assert_cmpuint (notified, ==, 0);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (notified, ==, 1);

  g_object_get (source, "objects-listed", &listed, "objects-fetched", &fetched, NULL);
  g_assert_cmpuint (listed, ==, log.last_listed);
  g_assert_cmpuint (fetched, ==, listed);

  smprof_s3_source_set_progress_func (SMPROF_S3_SOURCE (source), NULL, NULL, NULL);
}

/* A second source over the same cache opens from the cached listing and the
 * cached files: no request at all. set_refresh() lists again. */
static void
test_cache (Fixture       *fixture,
            gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  guint n_lists, n_gets;

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
  }
  n_lists = fixture->bucket.n_lists;
  n_gets = fixture->bucket.n_gets;
  g_assert_cmpuint (n_gets, >, 0);

  {
    g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = load_job (source);
    GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
    SmprofS3Progress progress;

    g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
    g_assert_cmpuint (fixture->bucket.n_lists, ==, n_lists);
    g_assert_cmpuint (fixture->bucket.n_gets, ==, n_gets);
    smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
    g_assert_true (progress.listing_from_cache);
    g_assert_cmpuint (progress.objects_cached, ==, records->len);

    smprof_s3_source_set_refresh (SMPROF_S3_SOURCE (source), TRUE);
    g_clear_object (&job);
    job = load_job (source);
    g_assert_cmpuint (fixture->bucket.n_lists, >, n_lists);
  }
}

static void
test_deeper_prefix (Fixture       *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/" ROOT "/framework/pytorch/cprofile/", &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = load_job (source);
  g_autoptr(SmprofJob) local = load_job (local_source);
  g_autofree char *location = smprof_source_dup_location (source);
  g_autofree char *file = NULL;

  g_assert_cmpuint (count_records (job), ==, count_records (local));
  g_assert_cmpstr (location, ==, "s3://bucket/" ROOT);
  file = smprof_source_dup_file_location (source, "framework/x");
  g_assert_cmpstr (file, ==, "s3://bucket/" ROOT "/framework/x");
}

static void
test_not_a_job (Fixture       *fixture,
                gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = open_s3 ("s3://bucket/jobs/none", &options);
  g_autoptr(SmprofJob) job = smprof_job_new (source);
  g_autoptr(GError) error = NULL;

  g_assert_false (smprof_job_load (job, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_bad_uris (void)
{
  static const char *bad[] = { "s3://", "s3:///key", "http://bucket/key", "bucket/key" };

  g_assert_true (smprof_s3_uri_is_s3 ("S3://b/k"));
  g_assert_false (smprof_s3_uri_is_s3 ("/data/s3://x"));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SmprofSource) source = smprof_s3_source_new (bad[i], NULL, &error);

      g_assert_null (source);
      g_assert_nonnull (error);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/s3-source/open-and-load", test_open_and_load);
  ADD ("/s3-source/failing-key", test_failing_key);
  ADD ("/s3-source/progress", test_progress);
  ADD ("/s3-source/cache", test_cache);
  ADD ("/s3-source/deeper-prefix", test_deeper_prefix);
  ADD ("/s3-source/not-a-job", test_not_a_job);
#undef ADD
  g_test_add_func ("/s3-source/bad-uris", test_bad_uris);

  return g_test_run ();
}
