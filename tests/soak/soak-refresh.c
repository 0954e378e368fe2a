/* soak-refresh.c: a job page on live refresh for a long time (30 minutes by
 * default) while its job is written, on disk or on a loopback S3 that
 * misbehaves at random; it must end with the command line's answer on the
 * finished job, and with memory flat once the job stops growing.
 *
 * On demand only (built with -Dbenchmarks=true; tests/soak/README.md):
 *
 *   xvfb-run -a env GSK_RENDERER=cairo GTK_A11Y=none GSETTINGS_BACKEND=memory \
 *     SMPROF_CLI=_build/cli/smprof _build/tests/soak/soak-refresh --source s3 --minutes 30
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "s3-fake-bucket.h"
#include "smprof-job-page-private.h"
#include "smprof-sagemaker-source.h"
#include "smprof-viewer-api.h"
#include "ui-test-util.h"

#define ROOT "jobs/soak/profiler-output"
#define CPROFILE "framework/pytorch/cprofile"
#define T0_US 1800000000000000.0
#define STEP_US 100000.0

typedef struct
{
  /* the command line */
  double      minutes;
  guint       refresh_seconds;
  guint       nodes;
  guint       steps;
  gboolean    s3;
  const char *json_out;

  /* the job */
  GPtrArray  *templates;   /* GBytes: real python_stats */
  char       *tmp;
  char       *job_dir;     /* local: what the page reads; s3: the finished job, for the CLI */
  FakeBucket *bucket;
  gint64      start_us;
  gint64      end_us;
  int         writing;     /* atomic: the writer is still writing */
  double      written_at;  /* seconds from the start when the writer ended */
  int         faulting;    /* atomic: faults are still injected */
  guint       n_written;   /* intervals written (writer thread) */
  guint       n_faults;    /* faults injected */
} Soak;

static double
progress_of (Soak *soak)
{
  return (double) (g_get_monotonic_time () - soak->start_us) / (double) (soak->end_us - soak->start_us);
}

static void
read_templates (Soak       *soak,
                const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        read_templates (soak, path);
      else if (strcmp (name, "python_stats") == 0)
        {
          char *contents = NULL;
          gsize length = 0;

          g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
          g_ptr_array_add (soak->templates, g_bytes_new_take (contents, length));
        }
    }
}

/* The relative path of interval @k (0 or 1) of @step on @node: PyTorch's two
 * intervals a step, stepstart to forwardpassend and on to the next step. */
static char *
interval_path (guint node,
               guint step,
               guint k)
{
  double start = T0_US + step * STEP_US + (k == 0 ? 0 : 40000.0) + node * 7.0;
  double end = T0_US + step * STEP_US + (k == 0 ? 40000.0 : STEP_US) + node * 7.0 - 1.0;

  if (k == 0)
    return g_strdup_printf (CPROFILE "/%u-algo-1/train-%u-stepstart-%.1f_train-%u-forwardpassend-%.1f/python_stats",
                            node, step, start, step, end);
  return g_strdup_printf (CPROFILE "/%u-algo-1/train-%u-forwardpassend-%.1f_train-%u-stepstart-%.1f/python_stats",
                          node, step, start, step + 1, end);
}

static GBytes *
contents_of (Soak  *soak,
             guint  node,
             guint  step,
             guint  k)
{
  return g_ptr_array_index (soak->templates, (node * 7 + step * 2 + k) % soak->templates->len);
}

static void
write_local (const char *path,
             GBytes     *bytes,
             gboolean    in_chunks)
{
  g_autofree char *folder = g_path_get_dirname (path);
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  gsize size = g_bytes_get_size (bytes);
  int fd;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_assert_cmpint (fd, >=, 0);
  for (gsize done = 0; done < size; done += 512)
    {
      gsize n = MIN (512, size - done);

      g_assert_cmpint (write (fd, data + done, n), ==, (gssize) n);
      if (in_chunks)
        g_usleep (500);
    }
  close (fd);
}

/* One interval arrives: on disk in 512-byte pieces; on S3 as the file was
 * half-way (a sync mid-write), then whole. */
static void
write_interval (Soak     *soak,
                guint     node,
                guint     step,
                guint     k,
                gboolean  live)
{
  g_autofree char *relative = interval_path (node, step, k);
  g_autofree char *local = g_build_filename (soak->job_dir, relative, NULL);
  GBytes *bytes = contents_of (soak, node, step, k);

  if (!soak->s3)
    {
      write_local (local, bytes, live);
      return;
    }

  {
    g_autofree char *key = g_strconcat (ROOT "/", relative, NULL);
    g_autoptr(GBytes) half = g_bytes_new_from_bytes (bytes, 0, g_bytes_get_size (bytes) / 2);

    /* long enough for a listing to see it, short enough for the writer
     * to keep its pace */
    if (live)
      {
        fake_bucket_put (soak->bucket, key, half);
        g_usleep (20 * 1000);
      }
    fake_bucket_put (soak->bucket, key, bytes);
  }
}

/* The job grows for the first 40% of the run, at an even pace. */
static gpointer
writer_thread (gpointer data)
{
  Soak *soak = data;
  guint first = MAX (soak->steps / 10, 1);

  for (guint step = first; step < soak->steps; step++)
    {
      double due = 0.4 * (step - first + 1) / (double) (soak->steps - first);

      while (progress_of (soak) < due)
        g_usleep (20 * 1000);
      for (guint node = 0; node < soak->nodes; node++)
        for (guint k = 0; k < 2; k++)
          {
            write_interval (soak, node, step, k, TRUE);
            soak->n_written++;
          }
    }

  soak->written_at = (g_get_monotonic_time () - soak->start_us) / 1e6;
  g_atomic_int_set (&soak->writing, FALSE);
  return NULL;
}

/* S3 misbehaves at random until 90% of the run: bodies cut or half-sent,
 * an object failing for a while, node listings failing (now and then on
 * every attempt), pages repeating keys. */
static gpointer
fault_thread (gpointer data)
{
  Soak *soak = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (18);
  g_autoptr(GPtrArray) failing = g_ptr_array_new_with_free_func (g_free);

  while (progress_of (soak) < 0.9)
    {
      guint node = g_rand_int_range (rand, 0, soak->nodes);
      guint step = g_rand_int_range (rand, 0, MAX (soak->steps / 10, 1));
      g_autofree char *relative = interval_path (node, step, g_rand_int_range (rand, 0, 2));
      g_autofree char *key = g_strconcat (ROOT "/", relative, NULL);
      g_autofree char *node_prefix = g_strdup_printf (ROOT "/" CPROFILE "/%u-algo-1/", node);

      switch (g_rand_int_range (rand, 0, 6))
        {
        case 0:
          fake_bucket_cut_body (soak->bucket, key, 1, g_rand_boolean (rand));
          break;
        case 1:
          fake_bucket_short_length (soak->bucket, key, 1);
          break;
        case 2:
          fake_bucket_add_failing_key (soak->bucket, key);
          g_ptr_array_add (failing, g_steal_pointer (&key));
          break;
        case 3:
          fake_bucket_fail_listings (soak->bucket, node_prefix, 2);
          break;
        case 4:
          fake_bucket_fail_listings (soak->bucket, node_prefix, 5);
          break;
        case 5:
        default:
          fake_bucket_set_repeat_seams (soak->bucket, g_rand_boolean (rand));
          break;
        }
      soak->n_faults++;

      /* a failing object recovers some seconds later */
      while (failing->len > 2)
        {
          fake_bucket_remove_failing_key (soak->bucket, g_ptr_array_index (failing, 0));
          g_ptr_array_remove_index (failing, 0);
        }

      g_usleep (g_rand_int_range (rand, 500, 3000) * 1000);
    }

  for (guint i = 0; i < failing->len; i++)
    fake_bucket_remove_failing_key (soak->bucket, g_ptr_array_index (failing, i));
  fake_bucket_set_repeat_seams (soak->bucket, FALSE);
  for (guint node = 0; node < soak->nodes; node++)
    {
      g_autofree char *node_prefix = g_strdup_printf (ROOT "/" CPROFILE "/%u-algo-1/", node);

      fake_bucket_fail_listings (soak->bucket, node_prefix, 0);
    }

  g_atomic_int_set (&soak->faulting, FALSE);
  return NULL;
}

typedef struct
{
  double  at;       /* seconds since the start */
  guint64 rss;      /* VmRSS, bytes */
  guint64 anon;     /* RssAnon, bytes */
  guint   n_refreshes;
  guint   n_records;
} Sample;

static guint64
status_field (const char *name)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (line = strstr (status, name)) == NULL)
    return 0;

  return g_ascii_strtoull (line + strlen (name), NULL, 10) * 1024;
}

/* `smprof stats JOB --all --node all --json`: total calls and time. */
static gboolean
cli_totals (const char *job,
            gint64     *calls,
            double     *seconds)
{
  const char *smprof = g_getenv ("SMPROF_CLI");
  const char *argv[] = { smprof, "stats", job, "--all", "--node", "all", "--json", NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "SMPROF_S3_CACHE_MAX_SIZE", "0", TRUE);
  g_autofree char *out = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status = 0;
  JsonObject *root;

  if (smprof == NULL ||
      !g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL) || !json_parser_load_from_data (parser, out, -1, NULL))
    return FALSE;

  root = json_node_get_object (json_parser_get_root (parser));
  *calls = json_object_get_int_member (root, "total_calls");
  *seconds = json_object_get_double_member (root, "total_time");
  return TRUE;
}

static void
open_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
page_idle (SmprofJobPage *page)
{
  return !smprof_job_page_get_busy (page) && smprof_job_page_get_profile (page) != NULL;
}

static void
iterate_until (SmprofJobPage *page,
               gboolean     (*done) (SmprofJobPage *page, guint value),
               guint          value)
{
  gint64 deadline = g_get_monotonic_time () + 10 * 60 * G_USEC_PER_SEC;

  while (!done (page, value))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the page did not settle in 10 minutes");
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

static gboolean
refreshed (SmprofJobPage *page,
           guint          n)
{
  return _smprof_job_page_get_n_refreshes (page) >= n;
}

static gboolean
idle (SmprofJobPage *page,
      guint          unused)
{
  return page_idle (page);
}

int
main (int   argc,
      char *argv[])
{
  Soak soak = { .minutes = 30, .refresh_seconds = 5, .nodes = 8, .steps = 400 };
  const char *source_name = "s3";
  GOptionEntry entries[] = {
    { "minutes", 0, 0, G_OPTION_ARG_DOUBLE, &soak.minutes, "How long to run (30)", "M" },
    { "refresh-seconds", 0, 0, G_OPTION_ARG_INT, &soak.refresh_seconds, "Live refresh interval (5)", "S" },
    { "nodes", 0, 0, G_OPTION_ARG_INT, &soak.nodes, "Node folders (8)", "N" },
    { "steps", 0, 0, G_OPTION_ARG_INT, &soak.steps, "Steps per node, two intervals each (400)", "N" },
    { "source", 0, 0, G_OPTION_ARG_STRING, &source_name, "s3 (a loopback S3 with faults) or local", "WHERE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &soak.json_out, "Write the figures there too", "FILE" },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- live refresh soak test");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  g_autoptr(GFile) location = NULL;
  g_autoptr(SmvDataSource) data_source = NULL;
  g_autoptr(SmvDocument) document = NULL;
  g_autoptr(SmvProgress) progress = smv_progress_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *templates_dir = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *cli_source = NULL;
  SmprofJobPage *page;
  GtkWidget *window;
  GThread *writer, *faults = NULL;
  gint64 next_sample = 0, cli_calls = 0, page_calls;
  double cli_seconds = 0, page_seconds;
  guint64 stable_first_max = 0, stable_last_max = 0, stable_min = G_MAXUINT64, written_rss = 0;
  gboolean same, flat;
  guint n;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("soak-refresh: %s\n", error->message);
      return 2;
    }
  soak.s3 = g_strcmp0 (source_name, "s3") == 0;

  soak.tmp = g_dir_make_tmp ("smprof-soak-XXXXXX", NULL);
  cache = g_build_filename (soak.tmp, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  g_setenv ("AWS_MAX_ATTEMPTS", "3", TRUE);
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  gtk_init ();

  soak.templates = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  templates_dir = g_build_filename (SMPROF_SOURCE_ROOT, "tests", "data", "real-smdebug", "pt-cprofile", NULL);
  read_templates (&soak, templates_dir);
  g_assert_cmpuint (soak.templates->len, >, 0);

  /* the finished job on disk (local: the page's own folder, written as it
   * goes; s3: the CLI's reference, written whole now) */
  soak.job_dir = g_build_filename (soak.tmp, "job", NULL);
  if (soak.s3)
    {
      g_autofree char *url = NULL;

      for (guint step = 0; step < soak.steps; step++)
        for (guint node = 0; node < soak.nodes; node++)
          for (guint k = 0; k < 2; k++)
            {
              g_autofree char *relative = interval_path (node, step, k);
              g_autofree char *path = g_build_filename (soak.job_dir, relative, NULL);

              write_local (path, contents_of (&soak, node, step, k), FALSE);
            }
      soak.bucket = fake_bucket_new (0);
      url = fake_bucket_dup_url (soak.bucket);
      g_setenv ("AWS_ENDPOINT_URL_S3", url, TRUE);
      g_setenv ("AWS_ACCESS_KEY_ID", "AKIDSOAK", TRUE);
      g_setenv ("AWS_SECRET_ACCESS_KEY", "soak", TRUE);
    }

  for (guint step = 0; step < MAX (soak.steps / 10, 1); step++)
    for (guint node = 0; node < soak.nodes; node++)
      for (guint k = 0; k < 2; k++)
        write_interval (&soak, node, step, k, FALSE);

  cli_source = soak.s3 ? g_strdup ("s3://bucket/" ROOT) : g_strdup (soak.job_dir);
  location = soak.s3 ? g_file_new_for_uri (cli_source) : g_file_new_for_path (cli_source);
  data_source = g_object_new (SMPROF_TYPE_SAGEMAKER_SOURCE, NULL);
  smv_data_source_open_async (data_source, location, progress, NULL, open_ready_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  document = smv_data_source_open_finish (data_source, result, &error);
  if (document == NULL)
    g_error ("cannot open %s: %s", cli_source, error->message);

  page = SMPROF_JOB_PAGE (smv_data_source_create_page (data_source, document));
  window = ui_test_present (GTK_WIDGET (page), 1400, 900);
  iterate_until (page, idle, 0);

  soak.start_us = g_get_monotonic_time ();
  soak.end_us = soak.start_us + (gint64) (soak.minutes * 60 * G_USEC_PER_SEC);
  soak.writing = TRUE;
  soak.faulting = soak.s3;
  _smprof_job_page_set_refresh_interval (page, soak.refresh_seconds * 1000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.live-refresh", NULL));
  writer = g_thread_new ("writer", writer_thread, &soak);
  if (soak.s3)
    faults = g_thread_new ("faults", fault_thread, &soak);

  g_print ("soak-refresh: %s, %u nodes x %u steps (%u intervals), %.1f min, refresh every %u s\n",
           soak.s3 ? "loopback S3 with faults" : "local folder", soak.nodes, soak.steps,
           soak.nodes * soak.steps * 2, soak.minutes, soak.refresh_seconds);

  while (g_get_monotonic_time () < soak.end_us || g_atomic_int_get (&soak.writing) ||
         g_atomic_int_get (&soak.faulting))
    {
      g_main_context_iteration (NULL, FALSE);
      if (g_get_monotonic_time () >= next_sample)
        {
          Sample sample = { (g_get_monotonic_time () - soak.start_us) / 1e6, status_field ("VmRSS:"),
                            status_field ("RssAnon:"), _smprof_job_page_get_n_refreshes (page),
                            smprof_job_get_records (smprof_job_page_get_job (page), SMPROF_PROFILER_CPROFILE)->len };

          g_array_append_val (samples, sample);
          g_print ("  %7.1f s  rss %6.1f MiB  anon %6.1f MiB  %5u refreshes  %6u intervals shown\n",
                   sample.at, sample.rss / 1048576.0, sample.anon / 1048576.0, sample.n_refreshes, sample.n_records);
          /* forty samples at least, every 10 s at most */
          next_sample = g_get_monotonic_time () + MIN (10 * G_USEC_PER_SEC, (soak.end_us - soak.start_us) / 40);
        }
      g_usleep (2000);
    }
  g_thread_join (writer);
  if (faults != NULL)
    g_thread_join (faults);

  /* two refreshes that began after the job and S3 settled, then the page */
  n = _smprof_job_page_get_n_refreshes (page);
  iterate_until (page, refreshed, n + 2);
  iterate_until (page, idle, 0);

  page_calls = smprof_cprofile_profile_get_total_calls (smprof_profile_get_cprofile (smprof_job_page_get_profile (page)));
  page_seconds = smprof_cprofile_profile_get_total_tt (smprof_profile_get_cprofile (smprof_job_page_get_profile (page)));
  same = cli_totals (cli_source, &cli_calls, &cli_seconds) && cli_calls == page_calls &&
         fabs (cli_seconds - page_seconds) <= 1e-9 * MAX (1.0, cli_seconds);

  /* flat: once the job stopped growing, the second half of what remained
   * of the run holds no more than the first half, give or take 10% */
  for (guint i = 0; i < samples->len; i++)
    {
      Sample *sample = &g_array_index (samples, Sample, i);
      double middle = soak.written_at + (soak.minutes * 60 - soak.written_at) / 2;

      if (sample->at <= soak.written_at)
        written_rss = sample->rss;
      else if (sample->at < middle)
        stable_first_max = MAX (stable_first_max, sample->rss);
      else
        stable_last_max = MAX (stable_last_max, sample->rss);
      if (sample->at > soak.written_at)
        stable_min = MIN (stable_min, sample->rss);
    }
  flat = stable_first_max > 0 && stable_last_max > 0 &&
         stable_last_max <= stable_first_max + stable_first_max / 10;

  g_print ("soak-refresh: %u intervals written, %u faults injected, %u refreshes\n"
           "  page:         %" G_GINT64_FORMAT " calls, %.6f s\n"
           "  smprof stats: %" G_GINT64_FORMAT " calls, %.6f s  -> %s\n"
           "  memory: %.1f MiB when the writer ended (%.0f s); since: %.1f to %.1f MiB (peak %.1f in the "
           "first half of that time, %.1f in the second) -> %s; VmHWM %.1f MiB\n",
           soak.n_written, soak.n_faults, _smprof_job_page_get_n_refreshes (page),
           page_calls, page_seconds, cli_calls, cli_seconds, same ? "the same" : "DIFFERENT",
           written_rss / 1048576.0, soak.written_at, stable_min / 1048576.0,
           MAX (stable_first_max, stable_last_max) / 1048576.0,
           stable_first_max / 1048576.0, stable_last_max / 1048576.0, flat ? "flat" : "GROWING",
           status_field ("VmHWM:") / 1048576.0);

  if (soak.json_out != NULL)
    {
      g_autoptr(GString) json = g_string_new ("{\n  \"samples\": [");

      for (guint i = 0; i < samples->len; i++)
        {
          Sample *sample = &g_array_index (samples, Sample, i);

          g_string_append_printf (json, "%s\n    {\"at\": %.1f, \"rss\": %" G_GUINT64_FORMAT ", \"anon\": %"
                                  G_GUINT64_FORMAT ", \"refreshes\": %u, \"intervals\": %u}",
                                  i > 0 ? "," : "", sample->at, sample->rss, sample->anon, sample->n_refreshes,
                                  sample->n_records);
        }
      g_string_append_printf (json, "\n  ],\n  \"same_answer\": %s,\n  \"flat\": %s\n}\n",
                              same ? "true" : "false", flat ? "true" : "false");
      g_file_set_contents (soak.json_out, json->str, json->len, NULL);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_pointer (&soak.bucket, fake_bucket_free);
  {
    const char *rm[] = { "rm", "-rf", soak.tmp, NULL };

    g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }

  return same && flat ? 0 : 1;
}
