/* test-index-cache.c: the parsed index (smprof-index-cache.h) through a
 * job: what a first and a second load read and write (the counts), the
 * parsed stats the same bit for bit as the stats files', damage that its
 * checksums cannot see (files sealed again after the change: an older or
 * newer version, ids past the keys, callers that overrun, bytes left over,
 * other totals) a miss, and trimming the folder to its limit, least
 * recently used first
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <utime.h>

#include <glib/gstdio.h>

#include "core-test-util.h"
#include "smprof-index-file.h"
#include "smprof-job-private.h"
#include "smprof-local-source.h"

typedef struct
{
  char             *tmp;
  char             *job_dir;   /* pt-cprofile, read in place */
  SmprofIndexCache *cache;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *dir = NULL;

  fixture->tmp = g_dir_make_tmp ("smprof-index-cache-XXXXXX", NULL);
  g_assert_nonnull (fixture->tmp);
  fixture->job_dir = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  dir = g_build_filename (fixture->tmp, "index", NULL);
  fixture->cache = smprof_index_cache_new (dir, 0);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->cache);
  core_test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
  g_free (fixture->job_dir);
}

/* Every record's parsed stats, by function key (ids differ from one load
 * to the next), every double by its bits. */
static void
describe_stats (GString            *out,
                SmprofFunctionKeys *keys,
                const SmprofPstats *stats)
{
  g_string_append_printf (out, " calls %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " tt %a\n",
                          stats->total_calls, stats->prim_calls, stats->total_tt);
  for (guint i = 0; i < stats->n_funcs; i++)
    {
      const SmprofFuncStat *f = &stats->funcs[i];

      g_string_append_printf (out, "  %s:%" G_GINT64_FORMAT "(%s) %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %a %a\n",
                              smprof_function_keys_get_file (keys, f->func), smprof_function_keys_get_line (keys, f->func),
                              smprof_function_keys_get_name (keys, f->func), f->cc, f->nc, f->tt, f->ct);
      for (guint c = f->first_caller; c < f->first_caller + f->n_callers; c++)
        {
          const SmprofCallerStat *k = &stats->callers[c];

          g_string_append_printf (out, "    <- %s:%" G_GINT64_FORMAT "(%s) %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %a %a\n",
                                  smprof_function_keys_get_file (keys, k->caller),
                                  smprof_function_keys_get_line (keys, k->caller),
                                  smprof_function_keys_get_name (keys, k->caller), k->legacy, k->nc, k->cc, k->tt, k->ct);
        }
    }
}

/* Loads the job's cProfile stats, with @cache if set; returns their
 * description and sets @counts. */
static char *
load (Fixture              *fixture,
      SmprofIndexCache     *cache,
      SmprofJobIndexCounts *counts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (fixture->job_dir, &error);
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  GPtrArray *records;

  g_assert_no_error (error);
  job = smprof_job_new (source);
  smprof_job_set_index_cache (job, cache);
  g_assert_true (smprof_job_get_index_cache (job) == cache);
  g_assert_true (smprof_job_load (job, NULL, &error));
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (records->len, >, 0);
  g_assert_true (smprof_job_load_stats (job, records, NULL, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_nonnull (record->pstats);
      g_string_append_printf (out, "%s", record->path);
      describe_stats (out, smprof_job_get_function_keys (job), record->pstats);
    }

  _smprof_job_get_index_counts (job, counts);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static guint
n_records (Fixture *fixture)
{
  g_autoptr(SmprofJob) job = core_test_load_job_at (fixture->job_dir);

  return smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len;
}

static GPtrArray *
cache_files (Fixture    *fixture,
             const char *prefix)
{
  const char *dir_path = smprof_index_cache_get_dir (fixture->cache);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, ".smpi"))
      g_ptr_array_add (files, g_build_filename (dir_path, name, NULL));

  return files;
}

static void
test_first_and_second (Fixture       *fixture,
                       gconstpointer  data)
{
  SmprofJobIndexCounts none, first, second;
  g_autofree char *reference = load (fixture, NULL, &none);
  g_autofree char *written = load (fixture, fixture->cache, &first);
  g_autofree char *read = load (fixture, fixture->cache, &second);
  g_autoptr(GPtrArray) nodes = cache_files (fixture, "node-");
  g_autoptr(GPtrArray) keys = cache_files (fixture, "keys-");
  guint n = n_records (fixture);

  g_assert_cmpuint (none.hits + none.misses + none.nodes_written + none.keys_written, ==, 0);

  g_assert_cmpuint (first.hits, ==, 0);
  g_assert_cmpuint (first.misses, ==, n);
  g_assert_cmpuint (first.nodes_written, ==, 2);
  g_assert_cmpuint (first.keys_written, ==, 1);
  g_assert_cmpuint (nodes->len, ==, 2);
  g_assert_cmpuint (keys->len, ==, 1);

  g_assert_cmpuint (second.hits, ==, n);
  g_assert_cmpuint (second.misses, ==, 0);
  g_assert_cmpuint (second.nodes_written, ==, 0);
  g_assert_cmpuint (second.keys_written, ==, 0);

  g_assert_cmpstr (written, ==, reference);
  g_assert_cmpstr (read, ==, reference);
}

/* Applies @change to every file of @prefix, seals it again (so its
 * checksums hold) and checks the next load misses @expected_misses at least
 * and answers as the stats files do. */
typedef void (*Change) (GByteArray *contents);

static void
check_sealed_change (Fixture    *fixture,
                     const char *prefix,
                     Change      change,
                     guint       min_misses)
{
  SmprofJobIndexCounts counts;
  g_autofree char *reference = load (fixture, NULL, &counts);
  g_autofree char *written = load (fixture, fixture->cache, &counts);
  g_autofree char *again = NULL;
  g_autoptr(GPtrArray) files = cache_files (fixture, prefix);
  guint n = n_records (fixture);

  g_assert_cmpuint (files->len, >, 0);
  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GByteArray) contents = NULL;
      char *data;
      gsize size;

      g_assert_true (g_file_get_contents (g_ptr_array_index (files, i), &data, &size, NULL));
      contents = g_byte_array_new_take ((guint8 *) data, size);
      change (contents);
      _smprof_index_seal (contents->data, contents->len);
      g_assert_true (g_file_set_contents (g_ptr_array_index (files, i), (const char *) contents->data, contents->len,
                                          NULL));
    }

  again = load (fixture, fixture->cache, &counts);
  g_assert_cmpstr (again, ==, reference);
  g_assert_cmpuint (counts.misses, >=, min_misses);
  g_assert_cmpuint (counts.hits + counts.misses, ==, n);
  g_assert_cmpuint (counts.nodes_written, >, 0);
}

static void
older_version (GByteArray *contents)
{
  guint32 version = SMPROF_INDEX_FILE_VERSION - 1;

  memcpy (contents->data + 8, &version, sizeof version);
}

static void
newer_version (GByteArray *contents)
{
  guint32 version = SMPROF_INDEX_FILE_VERSION + 1;

  memcpy (contents->data + 8, &version, sizeof version);
}

/* The first interval of a node file, for changes to it. */
static SmprofIndexInterval *
first_interval (guint8                 *data,
                SmprofIndexNodeHeader **header)
{
  *header = (SmprofIndexNodeHeader *) (gpointer) data;
  g_assert_cmpuint ((*header)->n_intervals, >, 0);
  return (SmprofIndexInterval *) (gpointer) (data + (*header)->intervals_offset);
}

typedef void (*ArraysChange) (SmprofPstats *stats,
                              guint         n_keys);

/* Reads the arrays of the first interval of the node file @contents back,
 * has @change change them, and writes them again in their place, with
 * @extra zero bytes after them (the data after them moved, the tables
 * saying where): a file whose checksums, sealed again, hold, and whose
 * first interval, read, fails with @expected. */
static void
change_first_arrays (GByteArray   *contents,
                     ArraysChange  change,
                     gsize         extra,
                     const char   *expected)
{
  SmprofIndexNodeHeader *header;
  SmprofIndexInterval *interval = first_interval (contents->data, &header);
  SmprofPstats stats = { 0 };
  SmprofPstats totals = { 0 };
  SmprofIndexEntry entry = { 0 };
  g_autofree guint8 *encoded = NULL;
  g_autoptr(GByteArray) sealed = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  SmprofIndexFile *file;
  guint64 start = header->data_offset + interval->data_offset;
  guint64 old_length = interval->data_length;
  gboolean bad = FALSE;
  gsize length;
  gssize delta;

  g_assert_cmpuint (interval->n_funcs, >, 1);
  g_assert_cmpuint (interval->n_callers, >, 0);
  stats.n_funcs = interval->n_funcs;
  stats.n_callers = interval->n_callers;
  stats.funcs = g_new0 (SmprofFuncStat, stats.n_funcs);
  stats.callers = g_new0 (SmprofCallerStat, stats.n_callers);
  g_assert_true (_smprof_index_arrays_decode (contents->data + start, old_length, header->n_keys, NULL,
                                              stats.funcs, stats.n_funcs, stats.callers, stats.n_callers, &totals));

  change (&stats, header->n_keys);

  entry.funcs = stats.funcs;
  entry.n_funcs = stats.n_funcs;
  entry.callers = stats.callers;
  entry.n_callers = stats.n_callers;
  encoded = g_malloc0 ((gsize) stats.n_funcs * SMPROF_INDEX_FUNC_MAX_BYTES +
                       (gsize) stats.n_callers * SMPROF_INDEX_CALLER_MAX_BYTES + extra);
  length = _smprof_index_arrays_encode (encoded, &entry, header->n_keys, &bad) + extra;
  g_free (stats.funcs);
  g_free (stats.callers);

  /* In place of the old arrays; then the tables say where everything is. */
  delta = (gssize) length - (gssize) old_length;
  g_byte_array_remove_range (contents, start, old_length);
  {
    g_autoptr(GByteArray) tail = g_byte_array_new ();

    g_byte_array_append (tail, contents->data + start, contents->len - start);
    g_byte_array_set_size (contents, start);
    g_byte_array_append (contents, encoded, length);
    g_byte_array_append (contents, tail->data, tail->len);
  }
  interval = first_interval (contents->data, &header);
  interval->data_length = length;
  for (guint i = 1; i < header->n_intervals; i++)
    interval[i].data_offset += delta;
  header->data_size += delta;
  header->file_size += delta;

  /* The interval fails for the reason the test is about. */
  sealed = g_byte_array_new ();
  g_byte_array_append (sealed, contents->data, contents->len);
  _smprof_index_seal (sealed->data, sealed->len);
  bytes = g_bytes_new (sealed->data, sealed->len);
  file = _smprof_index_file_new (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (_smprof_index_file_read (file, 0, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, expected));
  _smprof_index_file_free (file);
}

static void
func_past_the_keys (SmprofPstats *stats,
                    guint         n_keys)
{
  stats->funcs[1].func = n_keys;
}

static void
id_past_the_keys (GByteArray *contents)
{
  change_first_arrays (contents, func_past_the_keys, 0, "bad arrays");
}

static void
caller_past_the_keys (SmprofPstats *stats,
                      guint         n_keys)
{
  stats->callers[0].caller = n_keys;
}

static void
caller_id_past_the_keys (GByteArray *contents)
{
  change_first_arrays (contents, caller_past_the_keys, 0, "bad arrays");
}

static void
one_more_caller (SmprofPstats *stats,
                 guint         n_keys)
{
  stats->funcs[0].n_callers += 1;
}

static void
callers_overrun (GByteArray *contents)
{
  change_first_arrays (contents, one_more_caller, 0, "bad arrays");
}

static void
unchanged (SmprofPstats *stats,
           guint         n_keys)
{
}

static void
bytes_left_over (GByteArray *contents)
{
  change_first_arrays (contents, unchanged, 1, "bad arrays");
}

static void
other_total (GByteArray *contents)
{
  SmprofIndexNodeHeader *header;

  first_interval (contents->data, &header)->total_tt += 1e-9;
}

static void
more_time (SmprofPstats *stats,
           guint         n_keys)
{
  stats->funcs[1].tt += 1.0;
}

static void
other_function_time (GByteArray *contents)
{
  /* tt changed but the interval's totals not: its sums no longer hold */
  change_first_arrays (contents, more_time, 0, "bad totals");
}

static void
test_older_version (Fixture       *fixture,
                    gconstpointer  data)
{
  check_sealed_change (fixture, "node-", older_version, n_records (fixture));
}

static void
test_newer_version (Fixture       *fixture,
                    gconstpointer  data)
{
  check_sealed_change (fixture, "", newer_version, n_records (fixture));
}

static void
test_keys_older_version (Fixture       *fixture,
                         gconstpointer  data)
{
  check_sealed_change (fixture, "keys-", older_version, n_records (fixture));
}

static void
test_id_past_the_keys (Fixture       *fixture,
                       gconstpointer  data)
{
  check_sealed_change (fixture, "node-", id_past_the_keys, 2);
}

static void
test_caller_id_past_the_keys (Fixture       *fixture,
                              gconstpointer  data)
{
  check_sealed_change (fixture, "node-", caller_id_past_the_keys, 2);
}

static void
test_bytes_left_over (Fixture       *fixture,
                      gconstpointer  data)
{
  check_sealed_change (fixture, "node-", bytes_left_over, 2);
}

static void
test_callers_overrun (Fixture       *fixture,
                      gconstpointer  data)
{
  check_sealed_change (fixture, "node-", callers_overrun, 2);
}

static void
test_other_total (Fixture       *fixture,
                  gconstpointer  data)
{
  check_sealed_change (fixture, "node-", other_total, 2);
}

static void
test_other_function_time (Fixture       *fixture,
                          gconstpointer  data)
{
  check_sealed_change (fixture, "node-", other_function_time, 2);
}

static void
make_file (const char *dir,
           const char *name,
           gsize       size,
           time_t      mtime)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *contents = g_malloc0 (size);
  struct utimbuf times = { mtime, mtime };

  g_assert_true (g_file_set_contents (path, contents, size, NULL));
  g_assert_cmpint (g_utime (path, &times), ==, 0);
}

static gboolean
exists (const char *dir,
        const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static void
test_trim (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *dir = g_build_filename (fixture->tmp, "small", NULL);
  g_autoptr(SmprofIndexCache) cache = smprof_index_cache_new (dir, 1000);
  time_t now = time (NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  make_file (dir, "node-a.smpi", 400, now - 400);
  make_file (dir, "node-b.smpi", 400, now - 300);
  make_file (dir, "keys-c.smpi", 400, now - 200);
  make_file (dir, "node-d.smpi", 400, now - 100);
  make_file (dir, "node-e.smpi.Xy12Ab", 50, now - 7200);   /* a writer that died */
  make_file (dir, "node-f.smpi.Zz34Cd", 50, now);          /* one writing now */
  make_file (dir, "notes.txt", 5000, now - 5000);          /* not the cache's */

  /* 1,600 bytes over a limit of 1,000: down to 900, the oldest first */
  g_assert_true (smprof_index_cache_trim (cache, NULL));
  g_assert_false (exists (dir, "node-a.smpi"));
  g_assert_false (exists (dir, "node-b.smpi"));
  g_assert_true (exists (dir, "keys-c.smpi"));
  g_assert_true (exists (dir, "node-d.smpi"));
  g_assert_false (exists (dir, "node-e.smpi.Xy12Ab"));
  g_assert_true (exists (dir, "node-f.smpi.Zz34Cd"));
  g_assert_true (exists (dir, "notes.txt"));

  /* Under the limit: nothing goes. */
  g_assert_true (smprof_index_cache_trim (cache, NULL));
  g_assert_true (exists (dir, "keys-c.smpi"));
  g_assert_true (exists (dir, "node-d.smpi"));

  /* A file this process uses is spared, however old: the next oldest goes. */
  make_file (dir, "node-g.smpi", 400, now - 50);
  make_file (dir, "node-h.smpi", 400, now - 10);
  {
    g_autofree char *c = g_build_filename (dir, "keys-c.smpi", NULL);

    _smprof_index_cache_mark_used (cache, c, FALSE);
  }
  g_assert_true (smprof_index_cache_trim (cache, NULL));
  g_assert_true (exists (dir, "keys-c.smpi"));
  g_assert_false (exists (dir, "node-d.smpi"));
  g_assert_false (exists (dir, "node-g.smpi"));
  g_assert_true (exists (dir, "node-h.smpi"));
}

/* Writing a job's files trims the folder: an old file of another job goes,
 * the job's own files (in use) stay, and another process reads them. */
static void
test_trim_after_load (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *dir = g_build_filename (fixture->tmp, "tiny", NULL);
  /* more than the job's files (0.19 MB), less than theirs and an old one's */
  g_autoptr(SmprofIndexCache) cache = smprof_index_cache_new (dir, 250000);
  g_autoptr(SmprofIndexCache) later = NULL;
  g_autofree char *old_path = g_build_filename (dir, "node-old.smpi", NULL);
  SmprofJobIndexCounts counts;
  g_autofree char *reference = load (fixture, NULL, &counts);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  make_file (dir, "node-old.smpi", 100000, time (NULL) - 1000);

  first = load (fixture, cache, &counts);
  g_assert_cmpstr (first, ==, reference);
  g_assert_cmpuint (counts.nodes_written, ==, 2);
  g_assert_false (g_file_test (old_path, G_FILE_TEST_EXISTS));

  /* Another process (a new cache object) reads what the first kept. */
  later = smprof_index_cache_new (dir, 250000);
  second = load (fixture, later, &counts);
  g_assert_cmpstr (second, ==, reference);
  g_assert_cmpuint (counts.hits, ==, n_records (fixture));
}

static void
test_parse_size (void)
{
  guint64 size = 0;

  g_assert_true (smprof_parse_size ("512M", &size));
  g_assert_cmpuint (size, ==, G_GUINT64_CONSTANT (512) << 20);
  g_assert_true (smprof_parse_size (" 2GiB ", &size));
  g_assert_cmpuint (size, ==, G_GUINT64_CONSTANT (2) << 30);
  g_assert_true (smprof_parse_size ("0", &size));
  g_assert_cmpuint (size, ==, 0);
  g_assert_false (smprof_parse_size ("big", &size));
  g_assert_false (smprof_parse_size ("12Q", &size));
  g_assert_false (smprof_parse_size ("99999999999T", &size));
}

static void
test_default (void)
{
  g_autoptr(SmprofIndexCache) cache = NULL;
  g_autofree char *expected = g_build_filename (g_get_user_cache_dir (), "smprof", "index", NULL);

  g_unsetenv ("SMPROF_NO_CACHE");
  g_setenv ("SMPROF_INDEX_CACHE_MAX_SIZE", "3M", TRUE);
  cache = smprof_index_cache_new_default ();
  g_assert_nonnull (cache);
  g_assert_cmpstr (smprof_index_cache_get_dir (cache), ==, expected);
  g_assert_cmpuint (smprof_index_cache_get_max_size (cache), ==, 3 << 20);
  g_clear_object (&cache);

  g_setenv ("SMPROF_INDEX_CACHE_MAX_SIZE", "0", TRUE);
  g_assert_null (smprof_index_cache_new_default ());
  g_unsetenv ("SMPROF_INDEX_CACHE_MAX_SIZE");

  g_setenv ("SMPROF_NO_CACHE", "1", TRUE);
  g_assert_null (smprof_index_cache_new_default ());
  g_setenv ("SMPROF_NO_CACHE", "0", TRUE);
  cache = smprof_index_cache_new_default ();
  g_assert_nonnull (cache);
  g_assert_cmpuint (smprof_index_cache_get_max_size (cache), ==, SMPROF_INDEX_CACHE_DEFAULT_MAX_SIZE);
  g_unsetenv ("SMPROF_NO_CACHE");
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/index-cache/first-and-second", test_first_and_second);
  ADD ("/index-cache/sealed/older-version", test_older_version);
  ADD ("/index-cache/sealed/newer-version", test_newer_version);
  ADD ("/index-cache/sealed/keys-older-version", test_keys_older_version);
  ADD ("/index-cache/sealed/id-past-the-keys", test_id_past_the_keys);
  ADD ("/index-cache/sealed/caller-id-past-the-keys", test_caller_id_past_the_keys);
  ADD ("/index-cache/sealed/callers-overrun", test_callers_overrun);
  ADD ("/index-cache/sealed/bytes-left-over", test_bytes_left_over);
  ADD ("/index-cache/sealed/other-total", test_other_total);
  ADD ("/index-cache/sealed/other-function-time", test_other_function_time);
  ADD ("/index-cache/trim", test_trim);
  ADD ("/index-cache/trim-after-load", test_trim_after_load);
  g_test_add_func ("/index-cache/parse-size", test_parse_size);
  g_test_add_func ("/index-cache/default", test_default);

  return g_test_run ();
}
