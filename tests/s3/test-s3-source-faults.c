/* test-s3-source-faults.c: SmprofS3Source against a loopback S3 that
 * misbehaves in transfers (bodies cut with and without "Connection: close",
 * half-length answers, an object replaced by a larger one after it was
 * listed, objects above the size limit, GET ETags other than the listing's)
 * and a cache damaged from outside (an edited listing, FIFOs), and the
 * cache's size after a run
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "s3-source-test-util.h"
#include "smprof-local-source.h"
#include "smprof-s3-cache.h"

/* A body cut halfway (headers whole, then the connection closed), with and
 * without "Connection: close", or a whole answer of half the listed size:
 * retried as a transfer fault, never read as a damaged stats file. */
typedef enum
{
  CUT_CLOSE,
  CUT_KEEP_ALIVE,
  SHORT_LENGTH,
} Cut;

static void
test_cut_body (S3TestFixture *fixture,
               gconstpointer  data)
{
  Cut cut = GPOINTER_TO_INT (data);
  SmprofS3SourceOptions options = { .no_cache = TRUE, .max_attempts = 5 };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) job = s3_test_load_job (source);
  g_autoptr(SmprofJob) local = s3_test_load_job (local_source);
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *key = NULL;
  SmprofRecord *victim = s3_test_record_and_key (job, 5, &key);
  SmprofRecord *twin = s3_test_same_record (local, victim);

  if (cut == SHORT_LENGTH)
    fake_bucket_short_length (fixture->bucket, key, 2);
  else
    fake_bucket_cut_body (fixture->bucket, key, 2, cut == CUT_CLOSE);

  g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
  g_assert_true (smprof_job_load_stats (local, smprof_job_get_records (local, SMPROF_PROFILER_CPROFILE), NULL, NULL));

  g_assert_false (victim->failed);
  g_assert_nonnull (victim->pstats);
  g_assert_cmpint (victim->pstats->total_calls, ==, twin->pstats->total_calls);
  g_assert_cmpfloat (victim->pstats->total_tt, ==, twin->pstats->total_tt);
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 3);
  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);
}

/* An object replaced by a larger one after it was listed: the answer's
 * length is more than listed, so its key is listed again, once, and the new
 * object read. */
static void
test_replaced_object (S3TestFixture *fixture,
                      gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_autoptr(SmprofJob) job = s3_test_load_job (source);
  g_autofree char *key = NULL;
  g_autofree char *donor_key = NULL;
  SmprofRecord *victim = s3_test_record_and_key (job, 2, &key);
  SmprofRecord *donor = NULL;
  g_autoptr(GBytes) small = fake_bucket_dup_object (fixture->bucket, key);
  g_autoptr(GBytes) larger = NULL;
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  g_autoptr(GPtrArray) problems = NULL;
  gint64 donor_calls;
  guint n_lists;

  /* the largest stats file of the job takes the victim's place */
  for (guint i = 0; i < records->len; i++)
    {
      g_autofree char *other = NULL;
      g_autoptr(GBytes) bytes = NULL;
      SmprofRecord *record = s3_test_record_and_key (job, i, &other);

      bytes = fake_bucket_dup_object (fixture->bucket, other);
      if (larger == NULL || g_bytes_get_size (bytes) > g_bytes_get_size (larger))
        {
          g_clear_pointer (&larger, g_bytes_unref);
          larger = g_steal_pointer (&bytes);
          donor = record;
          g_free (donor_key);
          donor_key = g_steal_pointer (&other);
        }
    }
  if (donor == NULL)
    g_error ("the job has no cProfile record");
  g_assert_cmpuint (g_bytes_get_size (larger), >, g_bytes_get_size (small));
  g_ptr_array_add (one, donor);
  g_assert_true (smprof_job_load_stats (job, one, NULL, NULL));
  donor_calls = donor->pstats->total_calls;

  fake_bucket_put (fixture->bucket, key, larger);
  n_lists = fake_bucket_get_n_lists (fixture->bucket);
  g_ptr_array_set_size (one, 0);
  g_ptr_array_add (one, victim);
  g_assert_true (smprof_job_load_stats (job, one, NULL, NULL));

  g_assert_false (victim->failed);
  g_assert_nonnull (victim->pstats);
  g_assert_cmpint (victim->pstats->total_calls, ==, donor_calls);
  g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), ==, n_lists + 1);
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 2);
  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);
}

/* Stats files listed above the size limit are reported and skipped without
 * a request; the others load. */
static void
test_too_large (S3TestFixture *fixture,
                gconstpointer  data)
{
  SmprofS3SourceOptions options = { .no_cache = TRUE };
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofJob) job = NULL;
  GPtrArray *records;

  /* as a user sets it (SmprofS3SourceOptions.max_object_size likewise) */
  g_setenv ("SMPROF_S3_MAX_OBJECT_SIZE", "50K", TRUE);
  source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_unsetenv ("SMPROF_S3_MAX_OBJECT_SIZE");
  job = s3_test_load_job (source);
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) problems = NULL;
  guint n_large = 0;

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  problems = smprof_job_dup_problems (job);

  for (guint i = 0; i < records->len; i++)
    {
      g_autofree char *key = NULL;
      SmprofRecord *record = s3_test_record_and_key (job, i, &key);
      g_autoptr(GBytes) bytes = fake_bucket_dup_object (fixture->bucket, key);
      gboolean large = g_bytes_get_size (bytes) > 50 * 1024;

      g_assert_cmpint (record->failed, ==, large);
      if (large)
        {
          n_large++;
          g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 0);
        }
    }

  g_assert_cmpuint (n_large, >, 0);
  g_assert_cmpuint (n_large, <, records->len);
  g_assert_cmpuint (problems->len, ==, n_large);
  for (guint i = 0; i < problems->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (problems, i);

      /* g_format_size() puts a no-break space before the unit */
      g_assert_nonnull (strstr (problem->message, "50.0\u00a0KiB"));
      g_assert_nonnull (strstr (problem->message, "SMPROF_S3_MAX_OBJECT_SIZE"));
    }
}

/* A server whose GETs answer another ETag than its listings give: the copy
 * kept finds its object again, and a second open downloads nothing. */
static void
test_etag_differs (S3TestFixture *fixture,
                   gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  guint n_gets;

  fake_bucket_set_etag_differs (fixture->bucket, TRUE);
  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);
    GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

    g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
    /* each once: load() found what the prefetch kept */
    g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, records->len);
  }
  n_gets = fake_bucket_get_n_gets (fixture->bucket);

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);
    GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
    SmprofS3Progress progress;

    g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
    g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets);
    smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
    g_assert_cmpuint (progress.objects_cached, ==, records->len);
  }

  /* and a listing made again (the listing's ETags, not the download's) too */
  options.refresh = TRUE;
  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
    g_assert_cmpuint (fake_bucket_get_n_gets (fixture->bucket), ==, n_gets);
  }
}

/* The one listing kept in @cache. */
static char *
find_listing_file (const char *cache)
{
  g_autofree char *folder = g_build_filename (cache, "listings", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  char *found = NULL;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".listing"))
      {
        g_assert_null (found);
        found = g_build_filename (folder, name, NULL);
      }

  g_assert_nonnull (found);
  return found;
}

typedef enum
{
  EDIT_DELETE_LINE,
  EDIT_DUPLICATE_LINE,
  EDIT_CHANGE_PATH,
  EDIT_TRUNCATE,
  N_EDITS,
} Edit;

/* Damages the kept listing of a job as a hand, a disk or another program
 * might: the "line" holding @path (from the newline before it to the one
 * after, whatever the format) deleted or written twice, one byte of @path
 * changed, or the end cut off. */
static void
edit_listing (const char *file,
              const char *path,
              Edit        edit)
{
  g_autofree char *contents = NULL;
  g_autoptr(GString) edited = NULL;
  gsize length = 0;
  const char *found;
  gsize start, end;

  g_assert_true (g_file_get_contents (file, &contents, &length, NULL));
  found = NULL;
  for (gsize i = 0; found == NULL && i + strlen (path) <= length; i++)
    if (memcmp (contents + i, path, strlen (path)) == 0)
      found = contents + i;
  g_assert_nonnull (found);

  start = found - contents;
  while (start > 0 && contents[start - 1] != '\n')
    start--;
  end = found - contents + strlen (path);
  while (end < length && contents[end] != '\n')
    end++;
  if (end < length)
    end++;

  edited = g_string_new_len (contents, length);
  switch (edit)
    {
    case EDIT_DELETE_LINE:
      g_string_erase (edited, start, end - start);
      break;
    case EDIT_DUPLICATE_LINE:
      g_string_insert_len (edited, end, contents + start, end - start);
      break;
    case EDIT_CHANGE_PATH:
      edited->str[found - contents + strlen (path) - 1] ^= 0x01;
      break;
    case EDIT_TRUNCATE:
      g_string_truncate (edited, length - 5);
      break;
    case N_EDITS:
    default:
      g_assert_not_reached ();
    }

  g_assert_true (g_file_set_contents (file, edited->str, edited->len, NULL));
}

/* A kept listing with one entry fewer, one more, one changed or cut short
 * is no listing: S3 is listed again, and the job has every interval once. */
static void
test_edited_listing (S3TestFixture *fixture,
                     gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  g_autoptr(SmprofSource) local_source = smprof_local_source_new (fixture->local, NULL);
  g_autoptr(SmprofJob) local = s3_test_load_job (local_source);
  SmprofRecord *victim = g_ptr_array_index (smprof_job_get_records (local, SMPROF_PROFILER_CPROFILE), 7);

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);
  }

  for (Edit edit = 0; edit < N_EDITS; edit++)
    {
      g_autofree char *file = find_listing_file (fixture->cache);
      g_autoptr(SmprofSource) source = NULL;
      g_autoptr(SmprofJob) job = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      guint n_lists = fake_bucket_get_n_lists (fixture->bucket);
      SmprofS3Progress progress;

      edit_listing (file, victim->path, edit);
      source = s3_test_open ("s3://bucket/" ROOT, &options);
      job = s3_test_load_job (source);
      smprof_s3_source_get_progress (SMPROF_S3_SOURCE (source), &progress);
      problems = smprof_job_dup_problems (job);

      g_test_message ("edit %d: %u records, %u problems, listed again: %s", edit, s3_test_count_records (job),
                      problems->len, fake_bucket_get_n_lists (fixture->bucket) > n_lists ? "yes" : "no");
      g_assert_cmpuint (s3_test_count_records (job), ==, s3_test_count_records (local));
      g_assert_cmpuint (problems->len, ==, 0);
      g_assert_false (progress.listing_from_cache);
      g_assert_cmpuint (fake_bucket_get_n_lists (fixture->bucket), >, n_lists);
    }
}

typedef struct
{
  SmprofSource *source;
  guint         n_records;
  guint         n_failed;
  GMutex        lock;
  GCond         cond;
  gboolean      done;
} Opener;

static gpointer
open_thread (gpointer data)
{
  Opener *opener = data;
  g_autoptr(SmprofJob) job = s3_test_load_job (opener->source);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  g_mutex_lock (&opener->lock);
  opener->n_records = records->len;
  for (guint i = 0; i < records->len; i++)
    if (((SmprofRecord *) g_ptr_array_index (records, i))->failed)
      opener->n_failed++;
  opener->done = TRUE;
  g_cond_signal (&opener->cond);
  g_mutex_unlock (&opener->lock);

  return NULL;
}

/* A FIFO where the kept listing and a kept object are: a miss, never waited
 * on (an open() of a FIFO for reading blocks until a writer comes). */
static void
test_fifo_in_cache (S3TestFixture *fixture,
                    gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache };
  g_autofree char *listing = NULL;
  g_autofree char *object = NULL;
  g_autofree char *key = NULL;
  Opener opener = { 0 };
  GThread *thread;
  gint64 deadline;

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);
    g_autofree char *relative = NULL;
    g_autofree char *endpoint = fake_bucket_dup_url (fixture->bucket);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
    s3_test_record_and_key (job, 4, &key);
    relative = smprof_s3_cache_key_to_relative_path (endpoint, "bucket", key);
    object = g_build_filename (fixture->cache, relative, NULL);
  }

  listing = find_listing_file (fixture->cache);
  g_assert_cmpint (g_unlink (listing), ==, 0);
  g_assert_cmpint (mkfifo (listing, 0600), ==, 0);
  g_assert_cmpint (g_unlink (object), ==, 0);
  g_assert_cmpint (mkfifo (object, 0600), ==, 0);

  opener.source = s3_test_open ("s3://bucket/" ROOT, &options);
  g_mutex_init (&opener.lock);
  g_cond_init (&opener.cond);
  thread = g_thread_new ("open", open_thread, &opener);

  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  g_mutex_lock (&opener.lock);
  while (!opener.done)
    if (!g_cond_wait_until (&opener.cond, &opener.lock, deadline))
      g_error ("opening a job whose cache holds FIFOs still waits after 20 s");
  g_mutex_unlock (&opener.lock);
  g_thread_join (thread);

  g_assert_cmpuint (opener.n_records, ==, 82);
  g_assert_cmpuint (opener.n_failed, ==, 0);
  /* the object behind the FIFO was downloaded again */
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture->bucket, key), ==, 2);

  g_clear_object (&opener.source);
  g_mutex_clear (&opener.lock);
  g_cond_clear (&opener.cond);
}

/* Bytes of the regular files below @path. */
static guint64
folder_size (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint64 total = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      GStatBuf st;

      if (g_lstat (child, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        total += folder_size (child);
      else if (S_ISREG (st.st_mode))
        total += st.st_size;
    }

  return total;
}

/* A run that reads more than the cache may hold leaves it, listings
 * included, under its limit once it is done. */
static void
test_cache_limit_after_run (S3TestFixture *fixture,
                            gconstpointer  data)
{
  SmprofS3SourceOptions options = { .cache_dir = fixture->cache, .cache_max_size = 200 * 1024 };

  {
    g_autoptr(SmprofSource) source = s3_test_open ("s3://bucket/" ROOT, &options);
    g_autoptr(SmprofJob) job = s3_test_load_job (source);

    g_assert_true (smprof_job_load_stats (job, smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), NULL, NULL));
    /* while the job is open, what it uses stays */
    g_assert_cmpuint (folder_size (fixture->cache), >, 200 * 1024);
  }

  g_test_message ("the cache holds %" G_GUINT64_FORMAT " bytes after the run", folder_size (fixture->cache));
  g_assert_cmpuint (folder_size (fixture->cache), <=, 200 * 1024);
  g_assert_cmpuint (folder_size (fixture->cache), >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, S3TestFixture, NULL, s3_test_set_up, func, s3_test_tear_down)
  ADD ("/s3-source/replaced-object", test_replaced_object);
  ADD ("/s3-source/too-large", test_too_large);
  ADD ("/s3-source/etag-differs", test_etag_differs);
  ADD ("/s3-source/edited-listing", test_edited_listing);
  ADD ("/s3-source/fifo-in-cache", test_fifo_in_cache);
  ADD ("/s3-source/cache-limit-after-run", test_cache_limit_after_run);
#undef ADD
  g_test_add ("/s3-source/cut-body/connection-close", S3TestFixture, GINT_TO_POINTER (CUT_CLOSE),
              s3_test_set_up, test_cut_body, s3_test_tear_down);
  g_test_add ("/s3-source/cut-body/keep-alive", S3TestFixture, GINT_TO_POINTER (CUT_KEEP_ALIVE),
              s3_test_set_up, test_cut_body, s3_test_tear_down);
  g_test_add ("/s3-source/cut-body/short-length", S3TestFixture, GINT_TO_POINTER (SHORT_LENGTH),
              s3_test_set_up, test_cut_body, s3_test_tear_down);

  return g_test_run ();
}
