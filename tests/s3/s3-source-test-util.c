/* s3-source-test-util.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "s3-source-test-util.h"
void
s3_test_set_up (S3TestFixture *fixture,
                gconstpointer  data)
{
  g_autofree char *url = NULL;
  g_autofree char *framework = NULL;

  fixture->local = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  framework = g_build_filename (fixture->local, "framework", NULL);
  fixture->bucket = fake_bucket_new_from_folder (ROOT "/framework", framework, PAGE_SIZE);
  url = fake_bucket_dup_url (fixture->bucket);

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

void
s3_test_remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          s3_test_remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

void
s3_test_tear_down (S3TestFixture *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->bucket, fake_bucket_free);
  s3_test_remove_tree (fixture->home);
  g_free (fixture->home);
  g_free (fixture->cache);
  g_free (fixture->local);
}

SmprofSource *
s3_test_open (const char                  *uri,
              const SmprofS3SourceOptions *options)
{
  g_autoptr(GError) error = NULL;
  SmprofSource *source = smprof_s3_source_new (uri, options, &error);

  g_assert_no_error (error);
  return source;
}

SmprofJob *
s3_test_load_job (SmprofSource *source)
{
  g_autoptr(GError) error = NULL;
  SmprofJob *job = smprof_job_new (source);

  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);
  return job;
}

guint
s3_test_count_records (SmprofJob *job)
{
  return smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len +
         smprof_job_get_records (job, SMPROF_PROFILER_PYINSTRUMENT)->len;
}

/* The sums of what every cProfile record of @job read: calls and self time. */
void
s3_test_job_totals (SmprofJob *job,
                    gint64    *calls,
                    double    *seconds)
{
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  *calls = 0;
  *seconds = 0;
  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_nonnull (record->pstats);
      *calls += record->pstats->total_calls;
      *seconds += record->pstats->total_tt;
    }
}

/* How many of @job's problems hold @needle in their path or message. */
guint
s3_test_count_problems (SmprofJob  *job,
                        const char *needle)
{
  g_autoptr(GPtrArray) problems = smprof_job_dup_problems (job);
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    {
      SmprofProblem *problem = g_ptr_array_index (problems, i);

      if (strstr (problem->path, needle) != NULL || strstr (problem->message, needle) != NULL)
        n++;
    }

  return n;
}

/* The key of @job's cProfile record @index, and the record. */
SmprofRecord *
s3_test_record_and_key (SmprofJob  *job,
                        guint       index,
                        char      **key)
{
  SmprofRecord *record = g_ptr_array_index (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE), index);

  *key = g_strconcat (ROOT "/", record->path, NULL);
  return record;
}

/* The local copy's record of the same interval as @record. */
SmprofRecord *
s3_test_same_record (SmprofJob    *job,
                     SmprofRecord *record)
{
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);

  for (guint i = 0; i < records->len; i++)
    if (strcmp (((SmprofRecord *) g_ptr_array_index (records, i))->path, record->path) == 0)
      return g_ptr_array_index (records, i);

  g_assert_not_reached ();
}
