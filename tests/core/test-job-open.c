/* test-job-open.c: smprof_job_open(), first and as a live refresh opens a
 * job again: what it shares with the job before, what it reads again, what
 * it says changed, what outlives it, and a writer thread writing interval
 * files in small chunks while the job is opened again and again
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core-test-util.h"
#include "smprof-job.h"
#include "smprof-local-source.h"

#define CPROFILE_DIR "framework/pytorch/cprofile"

typedef struct
{
  char         *dir;      /* a copy of pt-cprofile */
  SmprofSource *source;
} Fixture;

static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr(GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL);
      g_autofree char *b = g_build_filename (to, name, NULL);

      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        copy_tree (a, b);
      else
        {
          g_autofree char *contents = NULL;
          gsize length = 0;

          g_assert_true (g_file_get_contents (a, &contents, &length, NULL));
          g_assert_true (g_file_set_contents (b, contents, length, NULL));
        }
    }
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *original = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("smprof-job-open-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;

  fixture->dir = g_build_filename (tmp, "job", NULL);
  copy_tree (original, fixture->dir);
  fixture->source = smprof_local_source_new (fixture->dir, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *tmp = g_path_get_dirname (fixture->dir);

  g_clear_object (&fixture->source);
  core_test_remove_tree (tmp);
  g_free (fixture->dir);
}

static SmprofJob *
open_job (SmprofSource     *source,
          SmprofJob        *previous,
          SmprofJobChanges *changes)
{
  g_autoptr(GError) error = NULL;
  SmprofJob *job = smprof_job_open (source, previous, changes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
  return job;
}

static GPtrArray *
cprofile (SmprofJob *job)
{
  return smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
}

static void
load_all (SmprofJob *job)
{
  g_assert_true (smprof_job_load_stats (job, cprofile (job), NULL, NULL));
}

/* The calls of every cProfile record read, and how many could not be. */
static gint64
total_calls (SmprofJob *job,
             guint     *n_failed)
{
  gint64 calls = 0;

  *n_failed = 0;
  for (guint i = 0; i < cprofile (job)->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (cprofile (job), i);

      if (record->pstats != NULL)
        calls += record->pstats->total_calls;
      if (record->failed)
        (*n_failed)++;
    }

  return calls;
}

static SmprofRecord *
find_record (SmprofJob  *job,
             const char *path)
{
  for (guint i = 0; i < cprofile (job)->len; i++)
    if (strcmp (((SmprofRecord *) g_ptr_array_index (cprofile (job), i))->path, path) == 0)
      return g_ptr_array_index (cprofile (job), i);

  return NULL;
}

static char *
file_of (Fixture      *fixture,
         SmprofRecord *record)
{
  return g_build_filename (fixture->dir, record->path, NULL);
}

/* Opened first, a job is listed, indexed, with its steps, and nothing read. */
static void
test_first_open (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(SmprofJob) job = open_job (fixture->source, NULL, NULL);
  g_auto(GStrv) nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);

  g_assert_cmpuint (cprofile (job)->len, ==, 82);
  g_assert_nonnull (smprof_job_get_step_events (job, nodes[0]));
  for (guint i = 0; i < cprofile (job)->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (cprofile (job), i);

      g_assert_null (record->pstats);
      g_assert_cmpuint (record->size, >, 0);
      g_assert_cmpuint (record->version, !=, 0);
    }
}

/* What a record says of itself, as one line. */
static char *
describe_record (SmprofRecord *record)
{
  return g_strdup_printf ("%s %s %s %s %" G_GINT64_FORMAT, record->framework, record->node_id, record->interval,
                          record->path, record->pstats != NULL ? record->pstats->total_calls : -1);
}

/* The job's records, strings and stats, outlive it for whoever keeps their
 * array (a page keeps the records it shows while a refresh replaces the
 * job). */
static void
test_records_outlive_job (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(SmprofJob) job = open_job (fixture->source, NULL, NULL);
  g_autoptr(GPtrArray) kept = NULL;
  g_autoptr(GPtrArray) described = g_ptr_array_new_with_free_func (g_free);

  load_all (job);
  kept = g_ptr_array_ref (cprofile (job));
  for (guint i = 0; i < kept->len; i++)
    g_ptr_array_add (described, describe_record (g_ptr_array_index (kept, i)));

  g_assert_finalize_object (g_steal_pointer (&job));

  g_assert_cmpuint (kept->len, ==, 82);
  for (guint i = 0; i < kept->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (kept, i);
      g_autofree char *now = describe_record (record);
      g_autofree char *file = file_of (fixture, record);

      g_assert_cmpstr (now, ==, g_ptr_array_index (described, i));
      g_assert_nonnull (record->pstats);
      g_assert_cmpint (record->pstats->total_calls, >, 0);
      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_str_has_suffix (record->path, "/python_stats"));
      g_assert_true (strstr (record->path, record->interval) != NULL);
    }
}

/* Nothing changed: nothing is read, and the new job holds the very stats of
 * the one before (one copy), in the same function keys. */
static void
test_unchanged_shares (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(SmprofJob) first = open_job (fixture->source, NULL, NULL);
  g_autoptr(SmprofJob) again = NULL;
  SmprofJobChanges changes;
  guint n_failed;

  load_all (first);
  again = open_job (fixture->source, first, &changes);

  g_assert_cmpint (changes, ==, SMPROF_JOB_CHANGED_NOTHING);
  g_assert_true (smprof_job_get_function_keys (again) == smprof_job_get_function_keys (first));
  for (guint i = 0; i < cprofile (again)->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (cprofile (again), i);

      g_assert_nonnull (record->pstats);
      g_assert_true (record->pstats == find_record (first, record->path)->pstats);
    }
  g_assert_cmpint (total_calls (again, &n_failed), ==, total_calls (first, &n_failed));

  /* the first job can go: the second keeps what it shares */
  g_assert_finalize_object (g_steal_pointer (&first));
  g_assert_cmpint (total_calls (again, &n_failed), >, 0);
  g_assert_cmpuint (n_failed, ==, 0);
}

/* A file half-written at the first look fails to read; each refresh reads it
 * again (nothing changes while it stays so); whole, it counts. */
static void
test_half_written (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(SmprofJob) first = open_job (fixture->source, NULL, NULL);
  g_autoptr(SmprofJob) second = NULL;
  g_autoptr(SmprofJob) third = NULL;
  g_autoptr(SmprofJob) fresh = NULL;
  g_autofree char *path = g_strdup (((SmprofRecord *) g_ptr_array_index (cprofile (first), 9))->path);
  g_autofree char *file = g_build_filename (fixture->dir, path, NULL);
  g_autofree char *whole = NULL;
  SmprofJobChanges changes;
  gsize length = 0;
  guint n_failed;

  g_assert_true (g_file_get_contents (file, &whole, &length, NULL));
  g_assert_true (g_file_set_contents (file, whole, length / 2, NULL));
  g_clear_object (&first);

  first = open_job (fixture->source, NULL, NULL);
  load_all (first);
  total_calls (first, &n_failed);
  g_assert_cmpuint (n_failed, ==, 1);

  second = open_job (fixture->source, first, &changes);
  g_assert_cmpint (changes, ==, SMPROF_JOB_CHANGED_NOTHING);
  /* read again: failed again, not merely never read */
  g_assert_true (find_record (second, path)->failed);

  g_assert_true (g_file_set_contents (file, whole, length, NULL));
  third = open_job (fixture->source, second, &changes);
  g_assert_true (changes & SMPROF_JOB_CHANGED_STATS);
  g_assert_true (changes & SMPROF_JOB_CHANGED_INTERVALS);
  g_assert_true (changes & SMPROF_JOB_CHANGED_PROBLEMS);
  g_assert_nonnull (find_record (third, path)->pstats);

  fresh = open_job (fixture->source, NULL, NULL);
  load_all (fresh);
  g_assert_cmpint (total_calls (third, &n_failed), ==, total_calls (fresh, &n_failed));
  g_assert_cmpuint (n_failed, ==, 0);
}

/* A file replaced by another after it was read is read again; an interval
 * that appears is listed, not read. */
static void
test_changed_and_new (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(SmprofJob) first = open_job (fixture->source, NULL, NULL);
  g_autoptr(SmprofJob) again = NULL;
  SmprofRecord *victim = g_ptr_array_index (cprofile (first), 3);
  SmprofRecord *donor = g_ptr_array_index (cprofile (first), 40);
  g_autofree char *victim_file = file_of (fixture, victim);
  g_autofree char *donor_file = file_of (fixture, donor);
  g_autofree char *new_folder = g_build_filename (fixture->dir, CPROFILE_DIR, "0-algo-1",
                                                  "train-900-stepstart-1995987298499655.0_train-900-stepend-1995987298599655.0",
                                                  NULL);
  g_autofree char *new_file = g_build_filename (new_folder, "python_stats", NULL);
  g_autofree char *contents = NULL;
  SmprofJobChanges changes;
  SmprofRecord *added;
  gsize length = 0;

  load_all (first);
  g_assert_cmpint (victim->pstats->total_calls, !=, donor->pstats->total_calls);
  g_assert_true (g_file_get_contents (donor_file, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (victim_file, contents, length, NULL));
  g_assert_cmpint (g_mkdir_with_parents (new_folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (new_file, contents, length, NULL));

  again = open_job (fixture->source, first, &changes);
  g_assert_true (changes & SMPROF_JOB_CHANGED_INTERVALS);
  g_assert_true (changes & SMPROF_JOB_CHANGED_STATS);
  g_assert_cmpuint (cprofile (again)->len, ==, cprofile (first)->len + 1);

  g_assert_cmpint (find_record (again, victim->path)->pstats->total_calls, ==, donor->pstats->total_calls);
  g_assert_true (find_record (again, donor->path)->pstats == donor->pstats);
  added = find_record (again, "framework/pytorch/cprofile/0-algo-1/"
                       "train-900-stepstart-1995987298499655.0_train-900-stepend-1995987298599655.0/python_stats");
  g_assert_nonnull (added);
  g_assert_null (added->pstats);
  g_assert_false (added->failed);
}

/* A folder that goes away takes its intervals with it. */
static void
test_interval_gone (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SmprofJob) first = open_job (fixture->source, NULL, NULL);
  g_autoptr(SmprofJob) again = NULL;
  SmprofRecord *gone = g_ptr_array_index (cprofile (first), 5);
  g_autofree char *file = file_of (fixture, gone);
  g_autofree char *folder = g_path_get_dirname (file);
  SmprofJobChanges changes;

  g_assert_cmpint (g_unlink (file), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
  again = open_job (fixture->source, first, &changes);

  g_assert_true (changes & SMPROF_JOB_CHANGED_INTERVALS);
  g_assert_cmpuint (cprofile (again)->len, ==, cprofile (first)->len - 1);
  g_assert_null (find_record (again, gone->path));
}

typedef struct
{
  Fixture   *fixture;
  GPtrArray *files;     /* paths relative to the job, in the order written */
  GPtrArray *contents;  /* GBytes */
  int        done;      /* atomic */
} Writer;

/* Writes each file in 300-byte pieces, a little apart, as a profiler and a
 * sync do, each interval folder made first. */
static gpointer
writer_thread (gpointer data)
{
  Writer *writer = data;

  for (guint i = 0; i < writer->files->len; i++)
    {
      g_autofree char *path = g_build_filename (writer->fixture->dir, g_ptr_array_index (writer->files, i), NULL);
      g_autofree char *folder = g_path_get_dirname (path);
      GBytes *bytes = g_ptr_array_index (writer->contents, i);
      const guint8 *data_bytes = g_bytes_get_data (bytes, NULL);
      gsize size = g_bytes_get_size (bytes);
      int fd;

      g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
      fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      g_assert_cmpint (fd, >=, 0);
      for (gsize done = 0; done < size; done += 300)
        {
          gsize n = MIN (300, size - done);

          g_assert_cmpint (write (fd, data_bytes + done, n), ==, (gssize) n);
          g_usleep (200);
        }
      close (fd);
    }

  g_atomic_int_set (&writer->done, TRUE);
  return NULL;
}

/* A writer writes half the job's intervals while the job is opened again
 * and again, every stats file read each time as a page showing the whole job
 * would: the last refresh after the writer is done reads as the finished
 * job, and no interval stays unreadable. */
static void
test_writer_thread (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SmprofJob) finished = open_job (fixture->source, NULL, NULL);
  g_autoptr(SmprofJob) job = NULL;
  Writer writer = { fixture, g_ptr_array_new_with_free_func (g_free),
                    g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), FALSE };
  guint n_refreshes = 0, n_seen_failed = 0, n_failed;
  gint64 finished_calls;
  GThread *thread;

  load_all (finished);
  finished_calls = total_calls (finished, &n_failed);

  /* the later half of the records, by record order, written again */
  for (guint i = cprofile (finished)->len / 2; i < cprofile (finished)->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (cprofile (finished), i);
      g_autofree char *file = file_of (fixture, record);
      g_autofree char *folder = g_path_get_dirname (file);
      char *contents = NULL;
      gsize length = 0;

      g_assert_true (g_file_get_contents (file, &contents, &length, NULL));
      g_ptr_array_add (writer.files, g_strdup (record->path));
      g_ptr_array_add (writer.contents, g_bytes_new_take (contents, length));
      g_assert_cmpint (g_unlink (file), ==, 0);
      g_assert_cmpint (g_rmdir (folder), ==, 0);
    }

  job = open_job (fixture->source, NULL, NULL);
  load_all (job);
  thread = g_thread_new ("writer", writer_thread, &writer);

  for (guint after_done = 0; after_done < 2;)
    {
      SmprofJobChanges changes;
      SmprofJob *next;

      if (g_atomic_int_get (&writer.done))
        after_done++;
      next = open_job (fixture->source, job, &changes);
      load_all (next);
      total_calls (next, &n_failed);
      n_seen_failed += n_failed;
      g_object_unref (job);
      job = next;
      n_refreshes++;
    }
  g_thread_join (thread);

  g_test_message ("%u refreshes while writing, %u half-written reads met", n_refreshes, n_seen_failed);
  g_assert_cmpuint (cprofile (job)->len, ==, cprofile (finished)->len);
  g_assert_cmpint (total_calls (job, &n_failed), ==, finished_calls);
  g_assert_cmpuint (n_failed, ==, 0);
  {
    g_autoptr(GPtrArray) problems = smprof_job_dup_problems (job);

    g_assert_cmpuint (problems->len, ==, 0);
  }

  g_ptr_array_unref (writer.files);
  g_ptr_array_unref (writer.contents);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/job-open/first", test_first_open);
  ADD ("/job-open/records-outlive-job", test_records_outlive_job);
  ADD ("/job-open/unchanged-shares", test_unchanged_shares);
  ADD ("/job-open/half-written", test_half_written);
  ADD ("/job-open/changed-and-new", test_changed_and_new);
  ADD ("/job-open/interval-gone", test_interval_gone);
  ADD ("/job-open/writer-thread", test_writer_thread);
#undef ADD

  return g_test_run ();
}
