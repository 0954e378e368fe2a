/* bench-s3-open.c: an s3:// job opened in a real viewer window from a
 * loopback S3: how long the listing takes, then the page's timeline, then
 * the answer to one step chosen on every node as soon as the timeline shows,
 * and how many stats files S3 had served by each
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark, run on demand (tests/bench/README.md): a timing is no test.
 *
 *   GSETTINGS_SCHEMA_DIR=BUILD/data GSK_RENDERER=cairo \
 *     xvfb-run -a -s '-screen 0 1920x1200x24' bench-s3-open JOB [--all] [--connections N] [--size WxH]
 *
 * JOB is a job folder (holding framework/): its files are put in the fake
 * bucket of tests/s3 (in memory, answered without delay, one request at a
 * time), under a prefix the viewer then opens as s3://bucket/PREFIX, with
 * the plugin's S3 cache off. The phases, each with the main loop's worst
 * stall (bench-main-loop.c):
 *
 *   listing   open_async() called to the data source's open_finish()
 *             returning (the window builds the page right after);
 *   timeline  open_finish() to the first frame drawn, after the page is
 *             mapped, in which the timeline drew its blocks (rows of its
 *             blocks' cache recorded, smprof-timeline-draw.c);
 *   answer    right then, one step (the middle of the job's step mode) on
 *             every node is chosen through the session's Steps preset;
 *             to the session no longer busy with a profile of that
 *             selection (the whole-job answer the page began with is
 *             never awaited);
 *   all       with --all, then to the range index built: every stats
 *             file read in the background.
 *
 * Prints one JSON object.
 */

#include <stdio.h>
#include <stdlib.h>

#include <smprof-viewer-api.h>

#include "bench-main-loop.h"
#include "core-test-util.h"
#include "s3-fake-bucket.h"
#include "smprof-job-page-private.h"
#include "smprof-sagemaker-document.h"
#include "smprof-sagemaker-source.h"
#include "smprof-timeline-private.h"
#include "smprof-ui-settings.h"
#include "smv-source-registry.h"
#include "smv-window-private.h"

#define ROOT "jobs/bench/profiler-output"
#define URI "s3://bucket/" ROOT
#define WAIT_MS (30 * 60 * 1000)

/* When each phase ended, with the GETs S3 had answered by then (any key:
 * the stats files among them are counted from the bucket's log at the end,
 * in the order it answered them). */
typedef struct
{
  gint64 at;
  guint  gets;
  double stall_ms;   /* the worst stall of the phase it ends */
} Mark;

typedef struct
{
  FakeBucket *bucket;
  SmvWindow  *window;
  Mark        opened;
  Mark        timeline;
  double      create_page_ms;
} Run;

static Run run;

static SmvDocument *(*real_open_finish) (SmvDataSource  *self,
                                         GAsyncResult   *result,
                                         GError        **error);
static GtkWidget *(*real_create_page) (SmvDataSource *self,
                                       SmvDocument   *document);

static void
mark (Mark *mark)
{
  mark->at = g_get_monotonic_time ();
  mark->gets = fake_bucket_get_n_gets (run.bucket);
  mark->stall_ms = bench_stalls_end ();
  bench_stalls_begin ();
}

/* The window calls the data source's open_finish() and create_page() one
 * after the other: wrapped, to tell the listing from the page's making. */
static SmvDocument *
timed_open_finish (SmvDataSource  *self,
                   GAsyncResult   *result,
                   GError        **error)
{
  SmvDocument *document = real_open_finish (self, result, error);

  mark (&run.opened);
  return document;
}

static GtkWidget *
timed_create_page (SmvDataSource *self,
                   SmvDocument   *document)
{
  gint64 t0 = g_get_monotonic_time ();
  GtkWidget *page = real_create_page (self, document);

  run.create_page_ms = (g_get_monotonic_time () - t0) / 1000.0;
  return page;
}

static void
wrap_data_source (void)
{
  gpointer klass = g_type_class_ref (SMPROF_TYPE_SAGEMAKER_SOURCE);
  SmvDataSourceInterface *iface = g_type_interface_peek (klass, SMV_TYPE_DATA_SOURCE);

  real_open_finish = iface->open_finish;
  real_create_page = iface->create_page;
  iface->open_finish = timed_open_finish;
  iface->create_page = timed_create_page;
}

static SmprofJobPage *
job_page (void)
{
  GtkWidget *page = smv_window_get_page (run.window);

  return page != NULL && SMPROF_IS_JOB_PAGE (page) ? SMPROF_JOB_PAGE (page) : NULL;
}

/* Whether the timeline's last snapshot recorded blocks of a row: whole
 * (one node) or, tiled, a row recorded as a frame first showed it
 * (smprof-timeline-draw.c). */
static gboolean
timeline_drew_blocks (SmprofTimeline *timeline)
{
  const SmprofTimelineCache *blocks = &timeline->blocks;

  if (blocks->node != NULL)
    return TRUE;
  for (guint i = 0; blocks->row_tiles != NULL && i < blocks->row_tiles->len; i++)
    {
      const SmprofTimelineRowTiles *row = &g_array_index (blocks->row_tiles, SmprofTimelineRowTiles, i);

      if (row->recorded && row->node != NULL)
        return TRUE;
    }

  return FALSE;
}

/* A frame drawn: did it draw the timeline's rows? */
static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  SmprofJobPage *page = job_page ();
  SmprofTimeline *timeline;

  if (run.timeline.at != 0 || page == NULL)
    return;
  timeline = smprof_job_page_get_timeline (page);
  if (gtk_widget_get_mapped (GTK_WIDGET (timeline)) && timeline->rows != NULL && timeline->rows->len > 0
      && timeline_drew_blocks (timeline))
    mark (&run.timeline);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
load_failed (void)
{
  return run.opened.at != 0 && job_page () == NULL;
}

static gboolean
opened_or_failed (gpointer data)
{
  return run.opened.at != 0 || !smv_window_is_loading (run.window);
}

/* What the window says went wrong. */
static void
open_failed (void)
{
  g_error ("%s: not opened: %s %s", URI, gtk_label_get_label (run.window->banner_title),
           gtk_label_get_label (run.window->banner_detail));
}

static gboolean
timeline_or_failed (gpointer data)
{
  return run.timeline.at != 0 || load_failed ();
}

typedef struct
{
  SmprofSession *session;
  SmprofProfile *before;
  guint          n_records;
} Answer;

static gboolean
answered (gpointer data)
{
  Answer *answer = data;
  GPtrArray *selected = smprof_session_get_selected_records (answer->session);

  return !smprof_session_get_busy (answer->session) && smprof_session_get_profile (answer->session) != NULL
         && smprof_session_get_profile (answer->session) != answer->before
         && selected != NULL && selected->len == answer->n_records;
}

/* The page's count of files its selection needs, as it says it. */
static void
files_to_read_cb (SmprofSession *session,
                  GParamSpec    *pspec,
                  guint         *files_to_read)
{
  guint n = smprof_session_get_files_to_read (session);

  if (n > 0)
    *files_to_read = n;
}

static gboolean
has_range_index (gpointer data)
{
  return smprof_session_get_range_index (data) != NULL;
}

static int
compare_steps (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The middle of the steps of @mode that intervals start at (a job may
 * interleave modes: train steps 0-7 and 10-17 around eval steps 8-9). */
static gboolean
middle_step (GPtrArray  *records,
             SmprofMode  mode,
             gint64     *step)
{
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n = 0;

  for (guint i = 0; i < records->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->name.start_mode == mode && record->name.start_step != SMPROF_STEP_ANY_START)
        g_array_append_val (steps, record->name.start_step);
    }
  if (steps->len == 0)
    return FALSE;
  g_array_sort (steps, compare_steps);
  for (guint i = 0; i < steps->len; i++)
    if (n == 0 || g_array_index (steps, gint64, i) != g_array_index (steps, gint64, n - 1))
      g_array_index (steps, gint64, n++) = g_array_index (steps, gint64, i);
  *step = g_array_index (steps, gint64, n / 2);

  return TRUE;
}

/* Stats files among the first @n GETs S3 answered. */
static guint
stats_gets (GPtrArray *log,
            guint      n)
{
  guint stats = 0;

  for (guint i = 0; i < MIN (n, log->len); i++)
    if (g_str_has_suffix (g_ptr_array_index (log, i), "/python_stats"))
      stats++;

  return stats;
}

static double
ms_between (gint64 from,
            gint64 to)
{
  return (to - from) / 1000.0;
}

/* @text as a JSON string. */
static char *
json_string (const char *text)
{
  GString *out = g_string_new ("\"");

  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    if (*p == '"' || *p == '\\')
      g_string_append_printf (out, "\\%c", *p);
    else if ((guchar) *p < 0x20)
      g_string_append_printf (out, "\\u%04x", (guchar) *p);
    else
      g_string_append_c (out, *p);
  g_string_append_c (out, '"');

  return g_string_free (out, FALSE);
}

static void
usage (void)
{
  g_printerr ("usage: bench-s3-open JOB [--all] [--connections N] [--size WxH]\n");
  exit (2);
}

int
main (int   argc,
      char *argv[])
{
  const char * const no_dirs[] = { NULL };
  g_autoptr(SmvSourceRegistry) registry = NULL;
  g_autoptr(GSettings) s3_settings = NULL;
  g_autoptr(GFile) location = NULL;
  g_autoptr(GPtrArray) get_log = NULL;
  g_autofree char *framework = NULL, *cache = NULL;
  g_autofree char *load_before = NULL, *load_after = NULL, *status = NULL, *step_text = NULL;
  const char *path = NULL;
  gboolean all = FALSE;
  guint connections = 8, files_to_read_at_timeline, files_read_at_timeline, files_to_read_for_step = 0;
  int width = 1920, height = 1080;
  SmprofJobPage *page;
  SmprofSession *session;
  SmprofJob *job;
  GPtrArray *records;
  g_autoptr(GPtrArray) step_records = NULL;
  Answer answer = { 0 };
  Mark selected = { 0 }, answer_in = { 0 }, all_in = { 0 };
  gint64 t0, bucket_t0, step;
  double bucket_s;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--all"))
        all = TRUE;
      else if (g_str_equal (argv[i], "--connections") && i + 1 < argc)
        connections = (guint) CLAMP (strtol (argv[++i], NULL, 10), 1, 64);
      else if (g_str_equal (argv[i], "--size") && i + 1 < argc)
        {
          if (sscanf (argv[++i], "%dx%d", &width, &height) != 2)
            usage ();
        }
      else if (path == NULL && argv[i][0] != '-')
        path = argv[i];
      else
        usage ();
    }
  if (path == NULL)
    usage ();
  framework = g_build_filename (path, "framework", NULL);
  if (!g_file_test (framework, G_FILE_TEST_IS_DIR))
    g_error ("%s: no framework folder: not a job folder", path);

  /* No cache of any kind: every stats file the page reads is a GET. A
   * temporary cache folder besides, set before GLib first reads it. */
  cache = g_dir_make_tmp ("bench-s3-open-XXXXXX", NULL);
  g_assert (cache != NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_unsetenv ("SMPROF_S3_CACHE_MAX_SIZE");
  g_unsetenv ("SMPROF_S3_MAX_CONNECTIONS");

  bucket_t0 = g_get_monotonic_time ();
  run.bucket = fake_bucket_new_from_folder (ROOT "/framework", framework, 0);
  bucket_s = (g_get_monotonic_time () - bucket_t0) / 1e6;
  fake_bucket_export_env (run.bucket);

  gtk_init ();
  smv_data_source_ensure_extension_point ();
  g_io_extension_point_implement (SMV_DATA_SOURCE_EXTENSION_POINT_NAME, SMPROF_TYPE_SAGEMAKER_SOURCE,
                                  "sagemaker", 10);
  wrap_data_source ();
  s3_settings = smprof_ui_settings_new ("s3");
  if (s3_settings == NULL)
    g_error ("no settings schema: set GSETTINGS_SCHEMA_DIR to the build's data folder");
  g_settings_set_uint64 (s3_settings, "cache-size", 0);
  g_settings_set_uint (s3_settings, "max-connections", connections);
  registry = smv_source_registry_new (no_dirs);
  load_before = bench_load_average ();

  run.window = smv_window_new (NULL, registry, NULL);
  gtk_window_set_default_size (GTK_WINDOW (run.window), width, height);
  gtk_window_present (GTK_WINDOW (run.window));
  if (!bench_wait_for (is_mapped, run.window, 10000))
    g_error ("the window was never mapped");
  bench_spin (500);
  bench_stalls_start ();
  g_signal_connect_after (gtk_widget_get_frame_clock (GTK_WIDGET (run.window)), "after-paint",
                          G_CALLBACK (after_paint_cb), NULL);

  /* 1. The listing: the window opens the job through the data source. */
  location = g_file_new_for_uri (URI);
  bench_stalls_begin ();
  t0 = g_get_monotonic_time ();
  smv_window_open (run.window, location);
  if (!bench_wait_for (opened_or_failed, NULL, WAIT_MS))
    g_error ("%s: not opened in 30 minutes", URI);
  if (run.opened.at == 0 || load_failed ())
    open_failed ();

  /* 2. The page, until its timeline is drawn. */
  if (!bench_wait_for (timeline_or_failed, NULL, WAIT_MS) || load_failed ())
    g_error ("%s: the job page never came, or never drew its timeline", URI);
  page = job_page ();
  session = smprof_job_page_get_session (page);
  job = smprof_sagemaker_document_get_job (SMPROF_SAGEMAKER_DOCUMENT (smv_window_get_document (run.window)));
  records = smprof_job_get_records (job, smprof_session_get_profiler (session));
  files_to_read_at_timeline = smprof_session_get_files_to_read (session);
  files_read_at_timeline = smprof_session_get_files_read (session);
  status = json_string (gtk_label_get_label (page->status_label));

  /* 3. Right away, one step in the middle of the job, on every node. */
  if (!middle_step (records, smprof_session_get_step_mode (session), &step))
    g_error ("%s: the job has no steps", URI);
  answer.session = session;
  answer.before = smprof_session_get_profile (session);
  g_signal_connect (session, "notify::files-to-read", G_CALLBACK (files_to_read_cb), &files_to_read_for_step);
  mark (&selected);
  smprof_session_set_step_range (session, step, step);
  step_records = smprof_session_dup_selection_records (session);
  answer.n_records = step_records->len;
  if (answer.n_records == 0)
    g_error ("%s: step %" G_GINT64_FORMAT " selects nothing", URI, step);
  if (!bench_wait_for (answered, &answer, WAIT_MS))
    g_error ("%s: step %" G_GINT64_FORMAT " never answered", URI, step);
  mark (&answer_in);
  g_signal_handlers_disconnect_by_func (session, files_to_read_cb, &files_to_read_for_step);
  step_text = json_string (smprof_mode_get_label (smprof_session_get_step_mode (session)));

  /* 4. The rest in the background, until the range index is built. */
  if (all)
    {
      if (!bench_wait_for (has_range_index, session, WAIT_MS))
        g_error ("%s: no range index in 30 minutes", URI);
      mark (&all_in);
    }

  get_log = fake_bucket_dup_get_log (run.bucket);
  load_after = bench_load_average ();
  printf ("{\"job\": \"%s\", \"uri\": \"%s\", \"size\": \"%dx%d\", \"connections\": %u,\n"
          " \"load_before\": \"%s\", \"load_after\": \"%s\", \"bucket_load_s\": %.1f,\n"
          " \"records\": %u, \"nodes\": %u,\n"
          " \"listing_ms\": %.1f, \"worst_stall_listing_ms\": %.1f, \"stats_gets_at_listing\": %u,\n"
          " \"create_page_ms\": %.1f,\n"
          " \"to_timeline_ms\": %.1f, \"worst_stall_to_timeline_ms\": %.1f, \"stats_gets_at_timeline\": %u,\n"
          " \"files_to_read_at_timeline\": %u, \"files_read_at_timeline\": %u, \"status_at_timeline\": %s,\n"
          " \"step_mode\": %s, \"step\": %" G_GINT64_FORMAT ", \"step_records\": %u, \"files_to_read_for_step\": %u,\n"
          " \"to_answer_ms\": %.1f, \"worst_stall_to_answer_ms\": %.1f, \"stats_gets_at_answer\": %u,\n"
          " \"answer_from_range_index\": %s",
          path, URI, width, height, connections, load_before, load_after, bucket_s,
          records->len, g_strv_length ((char **) smprof_session_get_all_node_ids (session)),
          ms_between (t0, run.opened.at), run.opened.stall_ms, stats_gets (get_log, run.opened.gets),
          run.create_page_ms,
          ms_between (run.opened.at, run.timeline.at), run.timeline.stall_ms, stats_gets (get_log, run.timeline.gets),
          files_to_read_at_timeline, files_read_at_timeline, status,
          step_text, step, answer.n_records, files_to_read_for_step,
          ms_between (selected.at, answer_in.at), answer_in.stall_ms, stats_gets (get_log, answer_in.gets),
          smprof_session_get_from_range_index (session) ? "true" : "false");
  if (all)
    printf (",\n \"to_range_index_ms\": %.1f, \"worst_stall_to_range_index_ms\": %.1f, \"stats_gets_at_range_index\": %u",
            ms_between (answer_in.at, all_in.at), all_in.stall_ms, stats_gets (get_log, all_in.gets));
  printf ("}\n");
  fflush (stdout);

  /* The page's readers stop with it; the bucket is left to the exit. */
  gtk_window_destroy (GTK_WINDOW (run.window));
  bench_spin (200);
  core_test_remove_tree (cache);

  return 0;
}
