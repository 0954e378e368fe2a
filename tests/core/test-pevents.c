/* test-pevents.c: smdebug's framework timeline read, damaged, and merged into a job
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Real files: tests/data/real-smdebug/pt-cprofile/framework/pevents/ (the
 * job's own timelines) and tests/data/pevents/ (sagemaker-debugger's test
 * resources); see tests/data/pevents/README.md.
 */

#include <glib/gstdio.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-job.h"
#include "smprof-local-source.h"
#include "smprof-pevents.h"

#define PT_PEVENTS "framework/pevents/2026112921/"
#define PT_NODE0   "1795987298554975_0-algo-1_pythontimeline.json"
#define PT_NODE1   "1795987298595715_1-algo-2_pythontimeline.json"
#define MERGE_FILE "1594662624718694_905-b88ab1bb8259_pythontimeline.json"
#define ROTATE_FILE "1589930988000000_4487_0000_pythontimeline.json"

static char *
pt_path (const char *file)
{
  return g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", "framework", "pevents",
                                "2026112921", file, NULL);
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);

  return text;
}

static GArray *
parse_text (const char  *text,
            gssize       length,
            const char  *name,
            GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, length < 0 ? strlen (text) : (gsize) length);

  return smprof_pevents_parse (bytes, name, error);
}

/* The number of times @needle occurs in @text: an independent count. */
static guint
count_occurrences (const char *text,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;

  return n;
}

/* smdebug writes one event per line: the line of @event must be in @text
 * with the same relative ts, dur and step (start time read independently). */
static void
check_event_in_text (const char            *text,
                     const SmprofStepEvent *event,
                     double                 start_us)
{
  g_autofree char *head = g_strdup_printf ("{\"name\": \"%s\", \"pid\": ", event->phase);
  g_autofree char *times = g_strdup_printf ("\"ph\": \"X\", \"ts\": %.0f, \"dur\": %.0f,",
                                            event->start_us - start_us, event->end_us - event->start_us);
  g_autofree char *step = g_strdup_printf ("\"step_num\": \"%" G_GINT64_FORMAT "\"}}", event->step);
  const char *line = strstr (text, times);

  g_assert_nonnull (line);
  while (line > text && line[-1] != '\n')
    line--;
  g_assert_true (g_str_has_prefix (line, head));
  g_assert_nonnull (strstr (line, step));
  g_assert_true (strstr (line, step) < strchr (line, '\n'));
}

/* The start time as the first line gives it, read without JSON. */
static double
first_line_start (const char *text)
{
  const char *key = "\"start_time_since_epoch_in_micros\": ";
  const char *p = strstr (text, key);

  g_assert_nonnull (p);
  return g_ascii_strtod (p + strlen (key), NULL);
}

static void
test_parse_pytorch (void)
{
  const char *files[] = { PT_NODE0, PT_NODE1 };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = pt_path (files[f]);
      g_autofree char *text = read_text (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) events = parse_text (text, -1, files[f], &error);
      double start_us = first_line_start (text);
      guint n_train = 0, n_eval = 0;
      gint64 last_train = -1, last_eval = -1;

      g_assert_no_error (error);
      g_assert_cmpuint (events->len, ==, count_occurrences (text, "\n{\"name\": \"Step:ModeKeys."));
      g_assert_cmpuint (events->len, ==, 20);

      for (guint i = 0; i < events->len; i++)
        {
          const SmprofStepEvent *e = &g_array_index (events, SmprofStepEvent, i);

          check_event_in_text (text, e, start_us);
          g_assert_null (e->node_id);
          g_assert_cmpfloat (e->end_us, >=, e->start_us);
          if (i > 0)
            g_assert_cmpfloat (e->start_us, >=, g_array_index (events, SmprofStepEvent, i - 1).end_us);

          /* the timeline numbers steps per mode, each from 0 */
          if (e->mode == SMPROF_MODE_TRAIN)
            {
              g_assert_cmpstr (e->phase, ==, "Step:ModeKeys.TRAIN");
              g_assert_cmpint (e->step, ==, last_train + 1);
              last_train = e->step;
              n_train++;
            }
          else
            {
              g_assert_cmpint (e->mode, ==, SMPROF_MODE_EVAL);
              g_assert_cmpstr (e->phase, ==, "Step:ModeKeys.EVAL");
              g_assert_cmpint (e->step, ==, last_eval + 1);
              last_eval = e->step;
              n_eval++;
            }
        }
      g_assert_cmpuint (n_train, ==, 16);
      g_assert_cmpuint (n_eval, ==, 4);
    }

  /* documented numbers of node 0-algo-1 (first and last line of steps) */
  {
    g_autofree char *path = pt_path (PT_NODE0);
    g_autofree char *text = read_text (path);
    g_autoptr(GArray) events = parse_text (text, -1, PT_NODE0, NULL);
    const SmprofStepEvent *first = &g_array_index (events, SmprofStepEvent, 0);
    const SmprofStepEvent *last = &g_array_index (events, SmprofStepEvent, events->len - 1);

    g_assert_cmpint (first->mode, ==, SMPROF_MODE_TRAIN);
    g_assert_cmpint (first->step, ==, 0);
    g_assert_cmpfloat (first->start_us, ==, 1795987296224332.0 + 41948);
    g_assert_cmpfloat (first->end_us, ==, 1795987296224332.0 + 41948 + 42083);
    g_assert_cmpint (last->mode, ==, SMPROF_MODE_EVAL);
    g_assert_cmpint (last->step, ==, 3);
    g_assert_cmpfloat (last->start_us, ==, 1795987296224332.0 + 2319011);
    g_assert_cmpfloat (last->end_us, ==, 1795987296224332.0 + 2319011 + 11632);
  }
}

static void
test_parse_samples (void)
{
  g_autofree char *merge_path = g_test_build_filename (G_TEST_DIST, "data", "pevents", MERGE_FILE, NULL);
  g_autofree char *rotate_path = g_test_build_filename (G_TEST_DIST, "data", "pevents", ROTATE_FILE, NULL);
  g_autofree char *merge = read_text (merge_path);
  g_autofree char *rotate = read_text (rotate_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) events = parse_text (merge, -1, MERGE_FILE, &error);
  g_autoptr(GArray) none = NULL;
  double start_us = first_line_start (merge);
  guint n_train = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (events->len, ==, count_occurrences (merge, "\n{\"name\": \"Step:ModeKeys."));
  g_assert_cmpuint (events->len, ==, 40);
  for (guint i = 0; i < events->len; i++)
    {
      const SmprofStepEvent *e = &g_array_index (events, SmprofStepEvent, i);

      check_event_in_text (merge, e, start_us);
      n_train += e->mode == SMPROF_MODE_TRAIN;
    }
  g_assert_cmpuint (n_train, ==, 30);

  /* a timeline of another phase only: no step, no error */
  none = parse_text (rotate, -1, ROTATE_FILE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_file_names (void)
{
  g_autofree char *a = smprof_pevents_dup_node_id (PT_PEVENTS PT_NODE0);
  g_autofree char *b = smprof_pevents_dup_node_id (ROTATE_FILE);

  g_assert_cmpstr (a, ==, "0-algo-1");
  g_assert_cmpstr (b, ==, "4487_0000");
  g_assert_null (smprof_pevents_dup_node_id ("1_pythontimeline.json"));
  g_assert_null (smprof_pevents_dup_node_id ("x1_n_pythontimeline.json"));
  g_assert_null (smprof_pevents_dup_node_id ("_n_pythontimeline.json"));
  g_assert_null (smprof_pevents_dup_node_id ("1_n_model_timeline.json"));

  g_assert_true (smprof_pevents_is_timeline_path (PT_PEVENTS PT_NODE0));
  g_assert_false (smprof_pevents_is_timeline_path ("framework/pevents/" PT_NODE0));
  g_assert_false (smprof_pevents_is_timeline_path (PT_PEVENTS "x/" PT_NODE0));
  g_assert_false (smprof_pevents_is_timeline_path (PT_PEVENTS "1_0-algo-1_model_timeline.json"));
  g_assert_false (smprof_pevents_is_timeline_path ("framework/pytorch/cprofile/" PT_NODE0));
}

/* @text with its first @old replaced by @new. */
static char *
replace_once (const char *text,
              const char *old,
              const char *new)
{
  const char *p = strstr (text, old);
  g_autofree char *head = NULL;

  g_assert_nonnull (p);
  head = g_strndup (text, p - text);

  return g_strconcat (head, new, p + strlen (old), NULL);
}

static void
expect_damaged (const char *text,
                gssize      length,
                const char *what)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) events = parse_text (text, length, "hour/42_node-1_pythontimeline.json", &error);

  g_test_message ("%s: %s", what, error != NULL ? error->message : "(no error)");
  g_assert_null (events);
  g_assert_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT);
  g_assert_true (g_str_has_prefix (error->message, "hour/42_node-1_pythontimeline.json: "));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

/* the first step event's line, up to its step number */
#define STEP0 "\"ts\": 41948, \"dur\": 42083, \"args\": {\"pid\": 25270, "

static void
test_damaged (void)
{
  g_autofree char *path = pt_path (PT_NODE0);
  g_autofree char *text = read_text (path);
  gsize length = strlen (text);
  const char *first_step = "\"ts\": 41948, \"dur\": 42083, \"args\": {\"pid\": 25270, \"step_num\": \"0\"}";
  struct
  {
    const char *old;
    const char *new;
    const char *what;
  } edits[] = {
    { "\"ts\": 41948, \"dur\": 42083", "\"ts\": \"41948\", \"dur\": 42083", "ts a string" },
    { "\"ts\": 41948, \"dur\": 42083", "\"ts\": 41948, \"dur\": null", "dur null" },
    { "\"ts\": 41948, \"dur\": 42083", "\"ts\": 1e308, \"dur\": 42083", "ts 1e308" },
    { "\"ts\": 41948, \"dur\": 42083", "\"ts\": 41948, \"dur\": 1e308", "dur 1e308" },
    { "\"ts\": 41948, \"dur\": 42083", "\"ts\": -41948, \"dur\": 42083", "ts negative" },
    { "\"ts\": 41948, \"dur\": 42083", "\"ts\": 41948, \"dur\": 1e999", "dur overflows" },
    { "{\"start_time_since_epoch_in_micros\": 1795987296224332}", "{\"start_time_since_epoch_in_micros\": 1e308}", "start 1e308" },
    { "{\"start_time_since_epoch_in_micros\": 1795987296224332}", "{\"start_time_since_epoch_in_micros\": \"1795987296224332\"}", "start a string" },
    { "{\"start_time_since_epoch_in_micros\": 1795987296224332}", "{\"sort_index\": 0}", "no start time" },
    { STEP0 "\"step_num\": \"0\"}", STEP0 "\"step_num\": \"zero\"}", "step not a number" },
    { STEP0 "\"step_num\": \"0\"}", STEP0 "\"step_num\": \"99999999999999999999\"}", "step too large" },
    { STEP0 "\"step_num\": \"0\"}", STEP0 "\"step_num\": 0.5}", "step a fraction" },
    { STEP0 "\"step_num\": \"0\"}", STEP0 "\"none\": 0}", "no step" },
    { "{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"sort_index\": 0}},",
      "[1],", "an event not an object" },
    { "{\"name\": \"process_sort_index\", \"ph\": \"M\"", "{\"name\": \"process_sort_index\", \"ph\": 7", "ph not a string" },
    { "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 2, \"args\": {\"name\": \"Step:ModeKeys.TRAIN\"}}",
      "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": \"2\", \"args\": {\"name\": \"Step:ModeKeys.TRAIN\"}}", "pid a string" },
  };

  /* the edits below hit the first step event */
  g_assert_nonnull (strstr (text, first_step));

  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_autofree char *damaged = replace_once (text, edits[i].old, edits[i].new);

      expect_damaged (damaged, -1, edits[i].what);
    }

  /* truncated anywhere: at a third, mid-file, a byte short of the end */
  expect_damaged (text, length / 3, "truncated at a third");
  expect_damaged (text, length / 2, "truncated in the middle");
  expect_damaged (text, length - 2, "truncated before the bracket");
  expect_damaged ("", 0, "empty");
  expect_damaged ("{\"traceEvents\": []}", -1, "an object");
  expect_damaged ("[]", -1, "no start time at all");

  {
    GString *deep = g_string_new (NULL);

    for (guint i = 0; i < 100000; i++)
      g_string_append_c (deep, '[');
    expect_damaged (deep->str, deep->len, "deeply nested");
    g_string_free (deep, TRUE);
  }

  /* over the size limit: refused before parsing */
  {
    gsize big = SMPROF_PEVENTS_MAX_BYTES + 1;
    g_autofree char *huge = g_malloc (big);

    memset (huge, ' ', big);
    huge[0] = '[';
    expect_damaged (huge, big, "too large");
  }
}

/* The job lists its timelines, reads them after the index, and each node's
 * steps fall in with its profiled intervals: the k-th step starts a few ms
 * before the k-th `stepstart` boundary smdebug wrote in a folder name. */
static void
test_job_pytorch (void)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (root, &error);
  g_autoptr(SmprofJob) job = smprof_job_new (source);
  g_autoptr(GPtrArray) problems = NULL;
  g_auto(GStrv) nodes = NULL;

  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);

  nodes = smprof_job_dup_node_ids (job, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (g_strv_length (nodes), ==, 2);
  g_assert_null (smprof_job_get_step_events (job, nodes[0]));   /* not read yet */

  g_assert_true (smprof_job_load_step_events (job, NULL, &error));
  g_assert_no_error (error);
  problems = smprof_job_dup_problems (job);
  for (guint i = 0; i < problems->len; i++)
    g_test_message ("problem: %s: %s", ((SmprofProblem *) g_ptr_array_index (problems, i))->path,
                    ((SmprofProblem *) g_ptr_array_index (problems, i))->message);
  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_null (smprof_job_get_step_events (job, "no-such-node"));

  for (guint n = 0; nodes[n] != NULL; n++)
    {
      GArray *events = smprof_job_get_step_events (job, nodes[n]);
      GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
      g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (double));

      g_assert_nonnull (events);
      g_assert_cmpuint (events->len, ==, 20);

      for (guint i = 0; i < records->len; i++)
        {
          const SmprofRecord *r = g_ptr_array_index (records, i);

          if (strcmp (r->node_id, nodes[n]) == 0 && r->name.start_phase == SMPROF_PHASE_STEP_START)
            g_array_append_val (starts, r->name.start_time_us);
        }
      g_assert_cmpuint (starts->len, ==, events->len);

      for (guint i = 0; i < events->len; i++)
        {
          const SmprofStepEvent *e = &g_array_index (events, SmprofStepEvent, i);
          double lead = g_array_index (starts, double, i) - e->start_us;

          g_assert_cmpstr (e->node_id, ==, nodes[n]);
          g_assert_cmpfloat (lead, >=, 0);
          g_assert_cmpfloat (lead, <, 20000);
        }
    }
}

static void
write_file (const char *root,
            const char *relative,
            const char *contents,
            gssize      length)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, length, &error));
  g_assert_no_error (error);
}

/* Two hours of one node merge, sorted; a damaged file is a problem naming it
 * and the rest loads; other trace files are not listed. */
static void
test_job_merge_and_damage (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("smprof-pevents-XXXXXX", NULL);
  g_autofree char *node0 = pt_path (PT_NODE0);
  g_autofree char *node1 = pt_path (PT_NODE1);
  g_autofree char *merge_path = g_test_build_filename (G_TEST_DIST, "data", "pevents", MERGE_FILE, NULL);
  g_autofree char *stats_path = NULL;
  g_autofree char *text0 = read_text (node0);
  g_autofree char *text1 = read_text (node1);
  g_autofree char *merge = read_text (merge_path);
  g_autofree char *stats = NULL;
  gsize stats_length = 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = NULL;
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  const char *interval = "framework/pytorch/cprofile/0-algo-1/"
                         "train-3-stepstart-1795987296675539.0_train-3-forwardpassend-1795987296686280.5/python_stats";
  GArray *events;

  stats_path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", interval, NULL);
  g_assert_true (g_file_get_contents (stats_path, &stats, &stats_length, NULL));
  write_file (tmp, interval, stats, stats_length);
  /* node 0-algo-1: its real hour, and the 2020 sample as an earlier hour */
  write_file (tmp, PT_PEVENTS PT_NODE0, text0, -1);
  write_file (tmp, "framework/pevents/2020071317/1594662624718694_0-algo-1_pythontimeline.json", merge, -1);
  /* node 1-algo-2: truncated */
  write_file (tmp, PT_PEVENTS PT_NODE1, text1, strlen (text1) / 2);
  /* not framework timelines */
  write_file (tmp, PT_PEVENTS "1795987298554975_0-algo-1_model_timeline.json", "garbage", -1);
  write_file (tmp, "framework/pevents/stray.json", "garbage", -1);

  source = smprof_local_source_new (tmp, &error);
  g_assert_no_error (error);
  job = smprof_job_new (source);
  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE)->len, ==, 1);
  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 0);
  g_clear_pointer (&problems, g_ptr_array_unref);

  g_assert_true (smprof_job_load_step_events (job, NULL, &error));
  g_assert_no_error (error);

  events = smprof_job_get_step_events (job, "0-algo-1");
  g_assert_nonnull (events);
  g_assert_cmpuint (events->len, ==, 60);
  for (guint i = 1; i < events->len; i++)
    g_assert_cmpfloat (g_array_index (events, SmprofStepEvent, i - 1).start_us, <=,
                       g_array_index (events, SmprofStepEvent, i).start_us);
  /* the 2020 hour comes first */
  g_assert_cmpfloat (g_array_index (events, SmprofStepEvent, 0).start_us, <, 1.6e15);
  g_assert_cmpfloat (g_array_index (events, SmprofStepEvent, 40).start_us, >, 1.7e15);

  g_assert_null (smprof_job_get_step_events (job, "1-algo-2"));
  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 1);
  {
    const SmprofProblem *problem = g_ptr_array_index (problems, 0);

    g_test_message ("%s: %s", problem->path, problem->message);
    g_assert_cmpstr (problem->path, ==, PT_PEVENTS PT_NODE1);
    g_assert_nonnull (strstr (problem->message, PT_PEVENTS PT_NODE1));
  }

  core_test_remove_tree (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pevents/parse/pytorch", test_parse_pytorch);
  g_test_add_func ("/pevents/parse/samples", test_parse_samples);
  g_test_add_func ("/pevents/file-names", test_file_names);
  g_test_add_func ("/pevents/damaged", test_damaged);
  g_test_add_func ("/pevents/job/pytorch", test_job_pytorch);
  g_test_add_func ("/pevents/job/merge-and-damage", test_job_merge_and_damage);

  return g_test_run ();
}
