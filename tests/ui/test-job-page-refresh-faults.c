/* test-job-page-refresh-faults.c: live refresh of a job page while the job
 * is written: a stats file half-written at the first look, a writer that
 * writes interval files in small chunks while the page polls (on disk, and
 * on a loopback S3 where a half-synced object is replaced by the whole one),
 * an object S3 failed to send until it recovers. Each ends with the page
 * summing what `smprof stats` ($SMPROF_CLI) sums on the finished job.
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "s3-fake-bucket.h"
#include "smprof-job-page-private.h"
#include "smprof-sagemaker-document.h"
#include "smprof-sagemaker-source.h"
#include "smprof-viewer-api.h"
#include "page-test-util.h"
#include "ui-test-util.h"

#define CPROFILE_DIR "framework/pytorch/cprofile"
#define ROOT "jobs/pt/profiler-output"
#define CHUNK 512

static char *
original_job (void)
{
  return g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
}

/* A copy of pt-cprofile in a new temporary folder. */
static char *
copy_job (void)
{
  g_autofree char *source = original_job ();
  g_autofree char *tmp = g_dir_make_tmp ("smprof-refresh-faults-XXXXXX", NULL);
  char *job_dir;

  g_assert_nonnull (tmp);
  job_dir = g_build_filename (tmp, "job", NULL);
  page_test_run ((const char *[]) { "cp", "-R", source, job_dir, NULL });

  return job_dir;
}

static void
remove_copy (const char *job_dir)
{
  g_autofree char *tmp = g_path_get_dirname (job_dir);

  page_test_run ((const char *[]) { "rm", "-rf", tmp, NULL });
}

/* `smprof stats ARGS... --all --node all --json` (S3's cache off): its
 * total calls and time. */
static void
cli_totals (const char *job,
            gint64     *total_calls,
            double     *total_time)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  const char *argv[] = { smprof, "stats", job, "--all", "--node", "all", "--json", NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "SMPROF_S3_CACHE_MAX_SIZE", "0", TRUE);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  int status;

  g_assert_nonnull (smprof);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  *total_calls = json_object_get_int_member (root, "total_calls");
  *total_time = json_object_get_double_member (root, "total_time");
}

static gint64
page_calls (SmprofJobPage *page)
{
  return smprof_cprofile_profile_get_total_calls (smprof_profile_get_cprofile (smprof_job_page_get_profile (page)));
}

/* The page shows the whole job as `smprof stats` sums @job, and as it sums
 * the finished job @finished. */
static void
assert_page_is_cli (SmprofJobPage *page,
                    const char    *job,
                    const char    *finished)
{
  SmprofCprofileProfile *shown = smprof_profile_get_cprofile (smprof_job_page_get_profile (page));
  gint64 calls, finished_calls;
  double total, finished_total;

  cli_totals (job, &calls, &total);
  cli_totals (finished, &finished_calls, &finished_total);
  g_test_message ("page %" G_GINT64_FORMAT " calls, %.6f s; smprof stats %" G_GINT64_FORMAT " calls, %.6f s",
                  smprof_cprofile_profile_get_total_calls (shown), smprof_cprofile_profile_get_total_tt (shown),
                  calls, total);
  g_assert_cmpint (calls, ==, finished_calls);
  g_assert_cmpfloat_with_epsilon (total, finished_total, 1e-9 * finished_total);
  g_assert_cmpint (smprof_cprofile_profile_get_total_calls (shown), ==, calls);
  g_assert_cmpfloat_with_epsilon (smprof_cprofile_profile_get_total_tt (shown), total, 1e-9 * total);
}

/* Whether one of @document's problems names a path containing @part. */
static gboolean
has_problem (SmvDocument *document,
             const char  *part)
{
  GListModel *problems = smv_document_get_problems (document);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SmvProblem) problem = g_list_model_get_item (problems, i);

      if (strstr (smv_problem_get_path (problem), part) != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
open_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

typedef struct
{
  SmvDataSource *source;
  SmvDocument   *document;
  SmprofJobPage *page;
  GtkWidget     *window;
} Viewer;

/* Opens @location as the viewer does, and shows its page. */
static void
viewer_open (Viewer *viewer,
             GFile  *location)
{
  g_autoptr(SmvProgress) progress = smv_progress_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viewer->source = g_object_new (SMPROF_TYPE_SAGEMAKER_SOURCE, NULL);
  smv_data_source_open_async (viewer->source, location, progress, NULL, open_ready_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  viewer->document = smv_data_source_open_finish (viewer->source, result, &error);
  g_assert_no_error (error);

  viewer->page = SMPROF_JOB_PAGE (smv_data_source_create_page (viewer->source, viewer->document));
  viewer->window = ui_test_present (GTK_WIDGET (viewer->page), 1400, 900);
  g_assert_true (page_test_wait_until (page_test_idle, viewer->page, 0));
}

static void
viewer_close (Viewer *viewer)
{
  gtk_window_destroy (GTK_WINDOW (viewer->window));
  ui_test_settle ();
  g_clear_object (&viewer->document);
  g_clear_object (&viewer->source);
}

/* Lists the job once more (F5) and waits for the page to settle. */
static void
refresh_once (SmprofJobPage *page)
{
  guint n = _smprof_job_page_get_n_refreshes (page);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.refresh", NULL));
  g_assert_true (page_test_wait_until (page_test_refreshed, page, n + 1));
  g_assert_true (page_test_wait_until (page_test_idle, page, 0));
}

static void
write_file (const char   *path,
            const guint8 *data,
            gsize         length)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, (const char *) data, length, &error));
  g_assert_no_error (error);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The third interval folder of node 0-algo-1, by name. */
static char *
victim_interval (const char *job_dir)
{
  g_autofree char *node = g_build_filename (job_dir, CPROFILE_DIR, "0-algo-1", NULL);
  g_autoptr(GDir) dir = g_dir_open (node, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);

  return g_strdup (g_ptr_array_index (names, 2));
}

/* A python_stats half-written when the job is opened, whole later: the
 * first look names it unreadable; a refresh reads it again, and the page
 * sums what the command line sums on the finished job. */
static void
test_half_written (void)
{
  g_autofree char *job_dir = copy_job ();
  g_autofree char *finished = original_job ();
  g_autofree char *interval = victim_interval (job_dir);
  g_autofree char *file = g_build_filename (job_dir, CPROFILE_DIR, "0-algo-1", interval, "python_stats", NULL);
  g_autoptr(GFile) location = g_file_new_for_path (job_dir);
  g_autofree guint8 *whole = NULL;
  gsize length = 0;
  gint64 finished_calls;
  double finished_total;
  Viewer viewer = { 0 };

  g_assert_true (g_file_get_contents (file, (char **) &whole, &length, NULL));
  write_file (file, whole, length / 2);

  viewer_open (&viewer, location);
  cli_totals (finished, &finished_calls, &finished_total);
  g_assert_true (has_problem (viewer.document, interval));
  g_assert_cmpint (page_calls (viewer.page), <, finished_calls);

  /* nothing changed: still short, still named */
  refresh_once (viewer.page);
  g_assert_true (has_problem (viewer.document, interval));

  write_file (file, whole, length);
  refresh_once (viewer.page);

  assert_page_is_cli (viewer.page, job_dir, finished);
  g_assert_false (has_problem (viewer.document, interval));

  viewer_close (&viewer);
  remove_copy (job_dir);
}

/* A refresh that brings a new interval keeps one copy of the stats the page
 * had read: the new job's records hold the very stats of the old job's,
 * and the new interval is the only file read. */
static void
test_one_copy (void)
{
  g_autofree char *job_dir = copy_job ();
  g_autofree char *interval = victim_interval (job_dir);
  g_autofree char *from = g_build_filename (job_dir, CPROFILE_DIR, "0-algo-1", interval, NULL);
  g_autofree char *held = g_strconcat (job_dir, ".held", NULL);
  g_autoptr(GFile) location = g_file_new_for_path (job_dir);
  g_autoptr(SmprofJob) before = NULL;
  GPtrArray *old_records, *new_records;
  SmprofJob *after;
  Viewer viewer = { 0 };
  guint n_shared = 0;

  g_assert_cmpint (g_rename (from, held), ==, 0);
  viewer_open (&viewer, location);
  before = g_object_ref (smprof_job_page_get_job (viewer.page));

  g_assert_cmpint (g_rename (held, from), ==, 0);
  refresh_once (viewer.page);
  after = smprof_job_page_get_job (viewer.page);
  g_assert_true (after != before);

  old_records = smprof_job_get_records (before, SMPROF_PROFILER_CPROFILE);
  new_records = smprof_job_get_records (after, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (new_records->len, ==, old_records->len + 1);
  for (guint i = 0; i < new_records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (new_records, i);

      g_assert_nonnull (record->pstats);
      for (guint j = 0; j < old_records->len; j++)
        {
          SmprofRecord *old = g_ptr_array_index (old_records, j);

          if (strcmp (old->path, record->path) == 0)
            {
              g_assert_nonnull (old->pstats);
              g_assert_true (record->pstats == old->pstats);
              n_shared++;
            }
        }
    }
  g_assert_cmpuint (n_shared, ==, old_records->len);

  viewer_close (&viewer);
  remove_copy (job_dir);
}

/* A writer that writes interval folders into a job, each python_stats in
 * CHUNK-byte pieces, as a training job's profiler and a sync do. The last
 * file stops halfway until the page has listed and aggregated the job twice
 * since, so the page meets it half-written. */
typedef struct
{
  GPtrArray  *arrivals;        /* Arrival, in order */
  FakeBucket *bucket;          /* NULL: the job folder */
  int         idle_refreshes;  /* atomic: refreshes the page had when last seen settled */
  int         n_refreshes;     /* atomic: refreshes the page had last seen */
  int         done;            /* atomic */
} Writer;

typedef struct
{
  char   *path;    /* the file to write (or the key to put) */
  GBytes *bytes;
} Arrival;

static void
arrival_free (gpointer data)
{
  Arrival *arrival = data;

  g_free (arrival->path);
  g_bytes_unref (arrival->bytes);
  g_free (arrival);
}

static void
wait_for_page (Writer *writer)
{
  int seen = g_atomic_int_get (&writer->n_refreshes);

  while (g_atomic_int_get (&writer->idle_refreshes) < seen + 2)
    g_usleep (1000);
}

static gpointer
writer_thread (gpointer data)
{
  Writer *writer = data;

  for (guint i = 0; i < writer->arrivals->len; i++)
    {
      Arrival *arrival = g_ptr_array_index (writer->arrivals, i);
      gsize size = g_bytes_get_size (arrival->bytes);
      const guint8 *bytes = g_bytes_get_data (arrival->bytes, NULL);
      gboolean last = i + 1 == writer->arrivals->len;

      if (writer->bucket != NULL)
        {
          /* an upload of the file as it was half-way (a sync mid-write),
           * then of the whole file */
          g_autoptr(GBytes) half = g_bytes_new_from_bytes (arrival->bytes, 0, size / 2);

          fake_bucket_put (writer->bucket, arrival->path, half);
          if (last)
            wait_for_page (writer);
          else
            g_usleep (20 * 1000);
          fake_bucket_put (writer->bucket, arrival->path, arrival->bytes);
          continue;
        }

      {
        g_autofree char *folder = g_path_get_dirname (arrival->path);
        int fd;

        g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
        fd = open (arrival->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        g_assert_cmpint (fd, >=, 0);
        for (gsize done = 0; done < size; done += CHUNK)
          {
            g_assert_cmpint (write (fd, bytes + done, MIN (CHUNK, size - done)), ==, (gssize) MIN (CHUNK, size - done));
            if (last && done < size / 2 && done + CHUNK >= size / 2)
              wait_for_page (writer);
            else
              g_usleep (300);
          }
        close (fd);
      }
    }

  g_atomic_int_set (&writer->done, TRUE);
  return NULL;
}

/* Runs the page's main loop while @writer writes, telling the writer what
 * the page did; then waits for two refreshes that began after the writer
 * ended, and for the page to settle. */
static void
run_while_writing (SmprofJobPage *page,
                   Writer        *writer)
{
  GThread *thread = g_thread_new ("writer", writer_thread, writer);
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  guint n;

  while (!g_atomic_int_get (&writer->done))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_atomic_int_set (&writer->n_refreshes, _smprof_job_page_get_n_refreshes (page));
      if (page_test_idle (page, 0))
        g_atomic_int_set (&writer->idle_refreshes, _smprof_job_page_get_n_refreshes (page));
      g_usleep (1000);
    }
  g_thread_join (thread);

  n = _smprof_job_page_get_n_refreshes (page);
  g_assert_true (page_test_wait_until (page_test_refreshed, page, n + 2));
  g_assert_true (page_test_wait_until (page_test_idle, page, 0));
}

/* Every interval folder of the job that ends after the median end time,
 * moved out of @job_dir and listed in @arrivals in the order they ended,
 * with their python_stats, to be written back under @prefix (a folder, or a
 * key prefix). */
static GPtrArray *
hold_later_intervals (const char *job_dir,
                      const char *prefix)
{
  g_autofree char *cprofile = g_build_filename (job_dir, CPROFILE_DIR, NULL);
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_free);   /* node/interval */
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (double));
  GPtrArray *arrivals = g_ptr_array_new_with_free_func (arrival_free);
  g_autoptr(GDir) nodes = g_dir_open (cprofile, 0, NULL);
  const char *node;
  double median;

  g_assert_nonnull (nodes);
  while ((node = g_dir_read_name (nodes)) != NULL)
    {
      g_autofree char *node_dir = g_build_filename (cprofile, node, NULL);
      g_autoptr(GDir) intervals = g_dir_open (node_dir, 0, NULL);
      const char *interval;

      while ((interval = g_dir_read_name (intervals)) != NULL)
        {
          double end = g_ascii_strtod (strrchr (interval, '-') + 1, NULL);

          g_ptr_array_add (all, g_strconcat (node, "/", interval, NULL));
          g_array_append_val (ends, end);
        }
    }

  {
    g_autoptr(GArray) sorted = g_array_copy (ends);

    g_array_sort (sorted, compare_doubles);
    median = g_array_index (sorted, double, sorted->len / 2);
  }

  for (guint i = 0; i < all->len; i++)
    {
      const char *relative = g_ptr_array_index (all, i);
      g_autofree char *folder = g_build_filename (cprofile, relative, NULL);
      g_autofree char *file = g_build_filename (folder, "python_stats", NULL);
      Arrival *arrival;
      char *contents = NULL;
      gsize length = 0;

      if (g_array_index (ends, double, i) <= median || !g_file_test (file, G_FILE_TEST_EXISTS))
        continue;

      g_assert_true (g_file_get_contents (file, &contents, &length, NULL));
      arrival = g_new0 (Arrival, 1);
      arrival->bytes = g_bytes_new_take (contents, length);
      arrival->path = g_strconcat (prefix, "/" CPROFILE_DIR "/", relative, "/python_stats", NULL);
      g_ptr_array_add (arrivals, arrival);
      page_test_run ((const char *[]) { "rm", "-rf", folder, NULL });
    }

  g_assert_cmpuint (arrivals->len, >, 5);
  return arrivals;
}

/* Interval files written in small chunks while the page polls every 50 ms:
 * once the writer is done, the page sums what `smprof stats` sums on the
 * finished job, and names no problem. */
static void
test_writer_local (void)
{
  g_autofree char *job_dir = copy_job ();
  g_autofree char *finished = original_job ();
  g_autoptr(GFile) location = g_file_new_for_path (job_dir);
  Writer writer = { 0 };
  Viewer viewer = { 0 };

  writer.arrivals = hold_later_intervals (job_dir, job_dir);
  viewer_open (&viewer, location);
  _smprof_job_page_set_refresh_interval (viewer.page, 50);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (viewer.page), "page.live-refresh", NULL));

  run_while_writing (viewer.page, &writer);

  assert_page_is_cli (viewer.page, job_dir, finished);
  g_assert_cmpuint (g_list_model_get_n_items (smv_document_get_problems (viewer.document)), ==, 0);

  viewer_close (&viewer);
  g_ptr_array_unref (writer.arrivals);
  remove_copy (job_dir);
}

typedef struct
{
  FakeBucket *bucket;
  char       *job_dir;   /* what the bucket holds, on disk */
} S3Fixture;

/* A fake S3 holding the job (without what @arrivals takes out of it, when
 * given), and the environment that points the S3 source at it. */
static void
s3_set_up (S3Fixture  *fixture,
           GPtrArray **arrivals)
{
  g_autofree char *framework = NULL;

  fixture->job_dir = copy_job ();
  if (arrivals != NULL)
    *arrivals = hold_later_intervals (fixture->job_dir, ROOT);
  framework = g_build_filename (fixture->job_dir, "framework", NULL);
  fixture->bucket = fake_bucket_new_from_folder (ROOT "/framework", framework, 0);
  fake_bucket_export_env (fixture->bucket);
  g_setenv ("AWS_MAX_ATTEMPTS", "2", TRUE);
}

static void
s3_tear_down (S3Fixture *fixture)
{
  g_clear_pointer (&fixture->bucket, fake_bucket_free);
  remove_copy (fixture->job_dir);
  g_free (fixture->job_dir);
}

/* S3 fails one object (500 on every attempt) at the first look; once S3 is
 * healthy, a refresh asks for it again and it counts. */
static void
test_s3_recovers (void)
{
  S3Fixture fixture = { 0 };
  g_autofree char *finished = original_job ();
  g_autofree char *interval = NULL;
  g_autofree char *key = NULL;
  g_autoptr(GFile) location = g_file_new_for_uri ("s3://bucket/" ROOT);
  gint64 finished_calls;
  double finished_total;
  Viewer viewer = { 0 };

  s3_set_up (&fixture, NULL);
  interval = victim_interval (fixture.job_dir);
  key = g_strconcat (ROOT "/" CPROFILE_DIR "/0-algo-1/", interval, "/python_stats", NULL);
  fake_bucket_add_failing_key (fixture.bucket, key);

  viewer_open (&viewer, location);
  cli_totals (finished, &finished_calls, &finished_total);
  g_assert_true (has_problem (viewer.document, interval));
  g_assert_cmpint (page_calls (viewer.page), <, finished_calls);

  /* still failing: asked again, still named */
  refresh_once (viewer.page);
  g_assert_cmpuint (fake_bucket_get_key_gets (fixture.bucket, key), >=, 4);
  g_assert_true (has_problem (viewer.document, interval));

  fake_bucket_remove_failing_key (fixture.bucket, key);
  refresh_once (viewer.page);

  assert_page_is_cli (viewer.page, "s3://bucket/" ROOT, finished);
  g_assert_false (has_problem (viewer.document, interval));

  viewer_close (&viewer);
  s3_tear_down (&fixture);
}

/* Objects arrive in the bucket while the page polls, each first as the file
 * was half-way (synced mid-write), then whole: the page ends with the
 * command line's answer on the finished job. */
static void
test_writer_s3 (void)
{
  S3Fixture fixture = { 0 };
  g_autofree char *finished = original_job ();
  g_autoptr(GFile) location = g_file_new_for_uri ("s3://bucket/" ROOT);
  Writer writer = { 0 };
  Viewer viewer = { 0 };

  /* the bucket holds the job without its later intervals */
  s3_set_up (&fixture, &writer.arrivals);
  writer.bucket = fixture.bucket;

  viewer_open (&viewer, location);
  _smprof_job_page_set_refresh_interval (viewer.page, 50);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (viewer.page), "page.live-refresh", NULL));

  run_while_writing (viewer.page, &writer);

  assert_page_is_cli (viewer.page, "s3://bucket/" ROOT, finished);
  g_assert_cmpuint (g_list_model_get_n_items (smv_document_get_problems (viewer.document)), ==, 0);

  viewer_close (&viewer);
  g_ptr_array_unref (writer.arrivals);
  s3_tear_down (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *cache = g_dir_make_tmp ("smprof-refresh-cache-XXXXXX", NULL);

  /* the S3 cache where nothing else is (read once, by GLib, on first use) */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  gtk_disable_setlocale ();
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-page/refresh-faults/half-written", test_half_written);
  g_test_add_func ("/job-page/refresh-faults/writer", test_writer_local);
  g_test_add_func ("/job-page/refresh-faults/one-copy", test_one_copy);
  g_test_add_func ("/job-page/refresh-faults/s3-recovers", test_s3_recovers);
  g_test_add_func ("/job-page/refresh-faults/s3-writer", test_writer_s3);

  {
    int status = g_test_run ();

    page_test_run ((const char *[]) { "rm", "-rf", cache, NULL });
    return status;
  }
}
