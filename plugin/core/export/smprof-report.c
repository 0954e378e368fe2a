/* smprof-report.c: a report's content, and the folder or page it is written as
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-export-private.h"
#include "smprof-float.h"
#include "smprof-report-private.h"

/**
 * smprof_report_options_init:
 * @options: (out caller-allocates): the options to fill
 *
 * The exports' defaults, no selection words and no command line.
 */
void
smprof_report_options_init (SmprofReportOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  smprof_export_options_init (&options->flame);
  smprof_diff_export_options_init (&options->diff);
  smprof_step_rule_init (&options->steps);
}

/**
 * smprof_report_format_for_path:
 * @path: where the report goes
 * @html: a page was asked for
 *
 * Returns: a page when asked or when @path ends in ".html", else a folder
 */
SmprofReportFormat
smprof_report_format_for_path (const char *path,
                               gboolean    html)
{
  if (html || (path != NULL && (g_str_has_suffix (path, ".html") || g_str_has_suffix (path, ".htm"))))
    return SMPROF_REPORT_HTML;

  return SMPROF_REPORT_FOLDER;
}

/* ------------------------------------------------------------------ content */

static void
append_float (GString *out,
              double   value)
{
  char buffer[SMPROF_FLOAT_BUF_SIZE];

  if (isfinite (value))
    g_string_append (out, smprof_float_format_repr (buffer, value));
  else if (isinf (value))
    g_string_append (out, value > 0 ? "inf" : "-inf");
  g_string_append_c (out, ',');
}

static void
append_count (GString *out,
              double   value)
{
  if (value >= 0)
    g_string_append_printf (out, "%.0f", value);
  g_string_append_c (out, ',');
}

static void
append_function_fields (GString            *out,
                        SmprofFunctionKeys *table,
                        guint32             func)
{
  g_autofree char *line = g_strdup_printf ("%" G_GINT64_FORMAT, smprof_function_keys_get_line (table, func));

  smprof_export_append_csv_field (out, smprof_function_keys_get_name (table, func), FALSE);
  smprof_export_append_csv_field (out, smprof_function_keys_get_file (table, func), FALSE);
  smprof_export_append_csv_field (out, line, FALSE);
}

/* Every step's total, with the outlier and straggler marks of `smprof steps`. */
static char *
dup_steps_csv (SmprofStepStats *steps)
{
  GString *out = g_string_new ("node,mode,step,intervals,partial,start_time_since_epoch_in_micros,"
                               "total_time,wall_time,median_time,score,outlier,"
                               "others_median,straggler_score,straggler\r\n");

  for (guint i = 0; i < smprof_step_stats_get_n_steps (steps); i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (steps, i);

      smprof_export_append_csv_field (out, step->node_id, FALSE);
      g_string_append_printf (out, "%s,%" G_GINT64_FORMAT ",%u,%s,", smprof_mode_to_string (step->mode),
                              step->step, step->n_intervals, step->partial ? "true" : "false");
      append_float (out, step->start_us);
      append_float (out, step->total_time);
      append_float (out, step->wall_time);
      append_float (out, step->median_time);
      append_float (out, step->score);
      g_string_append (out, step->outlier ? "true," : "false,");
      if (isnan (step->others_median))
        g_string_append_c (out, ',');
      else
        append_float (out, step->others_median);
      append_float (out, step->straggler_score);
      g_string_append (out, step->straggler ? "true\r\n" : "false\r\n");
    }

  return g_string_free (out, FALSE);
}

/* Each function's self time per step, as the Functions table's extra columns. */
static char *
dup_step_functions_csv (SmprofStepStats *steps)
{
  SmprofFunctionKeys *table = smprof_job_get_function_keys (smprof_step_stats_get_job (steps));
  GString            *out = g_string_new ("function,file,line,count,total,min,median,p95,max\r\n");

  for (guint i = 0; i < smprof_step_stats_get_n_functions (steps); i++)
    {
      const SmprofStepFunction *function = smprof_step_stats_get_function (steps, i);

      append_function_fields (out, table, function->func);
      g_string_append_printf (out, "%u,", function->count);
      append_float (out, function->total);
      append_float (out, function->min);
      append_float (out, function->median);
      append_float (out, function->p95);
      append_float (out, function->max);
      g_string_overwrite (out, out->len - 1, "\r\n");
    }

  return g_string_free (out, FALSE);
}

/* The diff table, every function, the largest change of self time first. */
static char *
dup_diff_csv (SmprofDiff                    *diff,
              const SmprofDiffExportOptions *options)
{
  static const char *const sides[] = { [SMPROF_DIFF_IN_A] = "a", [SMPROF_DIFF_IN_B] = "b",
                                       [SMPROF_DIFF_IN_BOTH] = "both" };
  SmprofFunctionKeys *table = smprof_diff_get_function_keys (diff);
  g_autoptr(GArray) order = smprof_diff_sorted (diff, SMPROF_DIFF_METRIC_TOTTIME, SMPROF_DIFF_COLUMN_ABS_DELTA);
  GString *out = g_string_new ("function,file,line,in,a_tottime,b_tottime,delta_tottime,ratio_tottime,"
                               "a_cumtime,b_cumtime,delta_cumtime,a_ncalls,b_ncalls\r\n");

  for (guint i = 0; i < order->len; i++)
    {
      const SmprofDiffRow *row = smprof_diff_get_row (diff, g_array_index (order, guint, i));
      double ratio;

      if (!smprof_diff_row_passes (row, options->min_delta))
        continue;

      append_function_fields (out, table, row->func);
      g_string_append_printf (out, "%s,", sides[row->sides]);
      append_float (out, row->tottime[SMPROF_DIFF_A]);
      append_float (out, row->tottime[SMPROF_DIFF_B]);
      append_float (out, row->tottime[SMPROF_DIFF_B] - row->tottime[SMPROF_DIFF_A]);
      ratio = smprof_diff_ratio (row->tottime[SMPROF_DIFF_A], row->tottime[SMPROF_DIFF_B]);
      if (isnan (ratio))
        g_string_append_c (out, ',');
      else
        append_float (out, ratio);
      append_float (out, row->cumtime[SMPROF_DIFF_A]);
      append_float (out, row->cumtime[SMPROF_DIFF_B]);
      append_float (out, row->cumtime[SMPROF_DIFF_B] - row->cumtime[SMPROF_DIFF_A]);
      append_count (out, row->ncalls[SMPROF_DIFF_A]);
      append_count (out, row->ncalls[SMPROF_DIFF_B]);
      g_string_overwrite (out, out->len - 1, "\r\n");
    }

  return g_string_free (out, FALSE);
}

/* A writer into memory, its bytes as a string. */
typedef gboolean (*WriteFunc) (GOutputStream  *stream,
                               gpointer        user_data,
                               GCancellable   *cancellable,
                               GError        **error);

static char *
dup_written (WriteFunc      func,
             gpointer       user_data,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();

  if (!func (memory, user_data, cancellable, error) ||
      !g_output_stream_write_all (memory, "", 1, NULL, cancellable, error) ||
      !g_output_stream_close (memory, cancellable, error))
    return NULL;

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (memory));
}

typedef struct
{
  SmprofReportContent *content;
  SmprofExportFormat   format;
} ProfileWrite;

static gboolean
write_profile (GOutputStream  *stream,
               gpointer        user_data,
               GCancellable   *cancellable,
               GError        **error)
{
  ProfileWrite *write = user_data;

  return smprof_export_profile (write->content->profile, write->format, &write->content->options->flame,
                                stream, cancellable, error);
}

static gboolean
write_diff_svg (GOutputStream  *stream,
                gpointer        user_data,
                GCancellable   *cancellable,
                GError        **error)
{
  SmprofReportContent *content = user_data;

  return smprof_diff_write_svg (content->diff, &content->options->diff, stream, cancellable, error);
}

/**
 * smprof_report_content_new: (skip)
 *
 * Makes every picture and table of a report. Blocks: a UI calls it through
 * smprof_report_write_async().
 *
 * Returns: (transfer full) (nullable): the content, or %NULL with @error set
 */
SmprofReportContent *
smprof_report_content_new (SmprofProfile              *profile,
                           GPtrArray                  *records,
                           SmprofDiff                 *diff,
                           const SmprofReportOptions  *options,
                           GCancellable               *cancellable,
                           GError                    **error)
{
  g_autoptr(SmprofReportContent) content = g_new0 (SmprofReportContent, 1);
  SmprofJob *job = smprof_profile_get_job (profile);
  ProfileWrite flame = { content, SMPROF_EXPORT_SVG };
  ProfileWrite csv = { content, SMPROF_EXPORT_CSV };

  content->profile = g_object_ref (profile);
  content->diff = diff != NULL ? g_object_ref (diff) : NULL;
  content->options = options;
  content->location = smprof_source_dup_location (smprof_job_get_source (job));
  /* All the selected intervals, the unreadable too: they make their steps partial. */
  content->steps = smprof_step_stats_new_with_rule (job, smprof_profile_get_profiler (profile),
                                                    smprof_profile_get_node_ids (profile),
                                                    records != NULL ? records : smprof_profile_get_records (profile),
                                                    &options->steps);

  if ((content->flame_svg = dup_written (write_profile, &flame, cancellable, error)) == NULL ||
      (content->functions_csv = dup_written (write_profile, &csv, cancellable, error)) == NULL)
    return NULL;

  content->steps_csv = dup_steps_csv (content->steps);
  content->step_functions_csv = dup_step_functions_csv (content->steps);

  if (diff != NULL)
    {
      if ((content->diff_svg = dup_written (write_diff_svg, content, cancellable, error)) == NULL)
        return NULL;
      content->diff_csv = dup_diff_csv (diff, &options->diff);
    }

  return g_steal_pointer (&content);
}

void
smprof_report_content_free (SmprofReportContent *content)
{
  if (content == NULL)
    return;

  g_clear_object (&content->profile);
  g_clear_object (&content->diff);
  g_clear_pointer (&content->steps, smprof_step_stats_free);
  g_free (content->location);
  g_free (content->flame_svg);
  g_free (content->functions_csv);
  g_free (content->steps_csv);
  g_free (content->step_functions_csv);
  g_free (content->diff_svg);
  g_free (content->diff_csv);
  g_free (content);
}

/* "label · nodes · N intervals · N steps · T s": a side of the comparison,
 * as the page and the summary both state it. */
char *
smprof_report_dup_side_summary (SmprofDiff     *diff,
                                SmprofDiffSide  side,
                                const char     *label)
{
  SmprofProfile *profile = smprof_diff_get_profile (diff, side);
  g_autofree char *nodes = g_strjoinv (", ", (char **) smprof_profile_get_node_ids (profile));
  g_autofree char *counts = smprof_diff_dup_side_counts (diff, side);

  return g_strdup_printf ("%s · %s · %s · %.6f s", label != NULL ? label : "", nodes, counts,
                          smprof_diff_get_total_time (diff, side));
}

/**
 * smprof_report_dup_timer_note: (skip)
 *
 * What the times measure: smdebug's cProfile timer is a setting of the job
 * that its files do not record (see docs/smdebug-format.md, 1.6).
 *
 * Returns: (transfer full): a translated sentence or two
 */
char *
smprof_report_dup_timer_note (SmprofProfile *profile)
{
  if (smprof_profile_get_profiler (profile) != SMPROF_PROFILER_CPROFILE)
    return g_strdup (_("Pyinstrument samples stacks: its times are estimated from samples, and it counts no calls."));

  return g_strdup (_("cProfile times are measured by the timer of the job’s cProfileTimer setting, which "
                     "the stats files do not record: total_time (wall clock, smdebug’s default), cpu_time or "
                     "off_cpu_time; SageMaker’s “default” uses a different one at steps 9, 10 and 11. "
                     "smdebug’s timers tick every 10 ms."));
}

static int
compare_tottime (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  SmprofProfile *profile = user_data;
  double x = smprof_profile_get_function (profile, *(const guint *) a)->tottime;
  double y = smprof_profile_get_function (profile, *(const guint *) b)->tottime;

  if (x != y)
    return x < y ? 1 : -1;

  return (*(const guint *) a > *(const guint *) b) - (*(const guint *) a < *(const guint *) b);
}

/**
 * smprof_report_top_functions: (skip)
 *
 * Returns: (transfer full) (element-type guint): the indexes of the @n
 *   functions of most self time
 */
GArray *
smprof_report_top_functions (SmprofProfile *profile,
                             guint          n)
{
  guint n_functions = smprof_profile_get_n_functions (profile);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_functions);

  for (guint i = 0; i < n_functions; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_tottime, profile);
  if (order->len > n)
    g_array_set_size (order, n);

  return order;
}

/**
 * smprof_report_top_changes: (skip)
 *
 * Returns: (transfer full) (element-type guint): the indexes of the rows of
 *   @diff whose self time changed most, at most @n of them, those that
 *   change less than @min_delta left out
 */
GArray *
smprof_report_top_changes (SmprofDiff *diff,
                           double      min_delta,
                           guint       n)
{
  g_autoptr(GArray) order = smprof_diff_sorted (diff, SMPROF_DIFF_METRIC_TOTTIME, SMPROF_DIFF_COLUMN_ABS_DELTA);
  GArray *top = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < order->len && top->len < n; i++)
    if (smprof_diff_row_passes (smprof_diff_get_row (diff, g_array_index (order, guint, i)), min_delta))
      g_array_append_val (top, g_array_index (order, guint, i));

  return top;
}

/**
 * smprof_report_outlier_steps: (skip)
 *
 * Returns: (transfer full) (element-type guint): the indexes of the outlier
 *   steps and the stragglers, the one that stands out most first
 *   (smprof_step_stats_dup_ranking())
 */
GArray *
smprof_report_outlier_steps (SmprofStepStats *steps)
{
  return smprof_step_stats_dup_ranking (steps, TRUE);
}

/**
 * smprof_report_dup_step_marks: (skip)
 *
 * Returns: (transfer full): "outlier", "straggler" or both, translated
 */
char *
smprof_report_dup_step_marks (const SmprofStep *step)
{
  if (step->outlier && step->straggler)
    return g_strdup_printf ("%s, %s", _("outlier"), _("straggler"));

  return g_strdup (step->outlier ? _("outlier") : _("straggler"));
}

/* ------------------------------------------------------------------ writing */

static gboolean
write_child (GFile         *folder,
             const char    *name,
             const char    *text,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFile) file = g_file_get_child (folder, name);

  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                  cancellable, error);
}

static gboolean
make_folder (GFile         *out,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;

  if (g_file_make_directory_with_parents (out, cancellable, &local_error))
    return TRUE;

  name = g_file_get_parse_name (out);
  if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not make the report folder %s: %s"), name, local_error->message);
      return FALSE;
    }

  if (g_file_query_file_type (out, G_FILE_QUERY_INFO_NONE, cancellable) != G_FILE_TYPE_DIRECTORY)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("%s exists and is not a folder: a report folder cannot be written there"), name);
      return FALSE;
    }

  return TRUE;
}

static gboolean
write_folder (SmprofReportContent  *content,
              GFile                *out,
              GCancellable         *cancellable,
              GError              **error)
{
  static const char *const diff_files[] = { SMPROF_REPORT_DIFF_FLAME_FILE, SMPROF_REPORT_DIFF_FILE };
  g_autofree char *summary = NULL;

  if (!make_folder (out, cancellable, error))
    return FALSE;

  summary = smprof_report_dup_markdown (content);
  if (!write_child (out, SMPROF_REPORT_FLAME_FILE, content->flame_svg, cancellable, error) ||
      !write_child (out, SMPROF_REPORT_FUNCTIONS_FILE, content->functions_csv, cancellable, error) ||
      !write_child (out, SMPROF_REPORT_STEPS_FILE, content->steps_csv, cancellable, error) ||
      !write_child (out, SMPROF_REPORT_STEP_FUNCTIONS_FILE, content->step_functions_csv, cancellable, error))
    return FALSE;

  if (content->diff != NULL)
    {
      if (!write_child (out, SMPROF_REPORT_DIFF_FLAME_FILE, content->diff_svg, cancellable, error) ||
          !write_child (out, SMPROF_REPORT_DIFF_FILE, content->diff_csv, cancellable, error))
        return FALSE;
    }
  else
    /* A comparison an earlier report of this folder held is no longer true. */
    for (guint i = 0; i < G_N_ELEMENTS (diff_files); i++)
      {
        g_autoptr(GFile) stale = g_file_get_child (out, diff_files[i]);

        g_file_delete (stale, cancellable, NULL);
      }

  /* The summary last: a folder with a README is a finished report. */
  return write_child (out, SMPROF_REPORT_SUMMARY_FILE, summary, cancellable, error);
}

/**
 * smprof_report_write:
 * @profile: the aggregated selection
 * @records: (nullable) (element-type SmprofRecord): every interval selected,
 *   read or not, for the per-step statistics; %NULL for @profile's records
 * @diff: (nullable): a comparison to include
 * @format: a folder or one page
 * @options: what to say and how to draw
 * @out: the folder (made if needed; the report's files in it are replaced) or the page
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Writes the report: the flame graph, the Functions table, the per-step
 * statistics, the comparison if any, and a summary naming the job, nodes,
 * selection, profiler, timer, smprof's version and @options' command line.
 * Reads only immutable data: call it from a worker thread in a UI.
 *
 * Returns: %FALSE with @error set, naming the path, when writing failed
 */
gboolean
smprof_report_write (SmprofProfile              *profile,
                     GPtrArray                  *records,
                     SmprofDiff                 *diff,
                     SmprofReportFormat          format,
                     const SmprofReportOptions  *options,
                     GFile                      *out,
                     GCancellable               *cancellable,
                     GError                    **error)
{
  g_autoptr(SmprofReportContent) content = NULL;
  g_autofree char *html = NULL;

  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (diff == NULL || SMPROF_IS_DIFF (diff), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (out), FALSE);

  content = smprof_report_content_new (profile, records, diff, options, cancellable, error);
  if (content == NULL)
    return FALSE;

  if (format == SMPROF_REPORT_FOLDER)
    return write_folder (content, out, cancellable, error);

  html = smprof_report_dup_html (content);

  return g_file_replace_contents (out, html, strlen (html), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                  cancellable, error);
}

typedef struct
{
  SmprofProfile       *profile;
  GPtrArray           *records;
  SmprofDiff          *diff;
  SmprofReportFormat   format;
  SmprofReportOptions  options;   /* its strings are the copies below */
  char                *strings[7];
  GFile               *out;
} ReportTask;

static void
report_task_free (gpointer data)
{
  ReportTask *task = data;

  g_clear_object (&task->profile);
  g_clear_pointer (&task->records, g_ptr_array_unref);
  g_clear_object (&task->diff);
  g_clear_object (&task->out);
  for (guint i = 0; i < G_N_ELEMENTS (task->strings); i++)
    g_free (task->strings[i]);
  g_free (task);
}

static gboolean
report_task_write (gpointer       task_data,
                   GCancellable  *cancellable,
                   GError       **error)
{
  ReportTask *data = task_data;

  return smprof_report_write (data->profile, data->records, data->diff, data->format, &data->options,
                              data->out, cancellable, error);
}

/* Keeps a copy of *@text for the task and points *@text at it. */
static void
own_string (ReportTask  *data,
            guint        index,
            const char **text)
{
  data->strings[index] = g_strdup (*text);
  *text = data->strings[index];
}

/**
 * smprof_report_write_async:
 * @profile: the aggregated selection
 * @records: (nullable) (element-type SmprofRecord): as smprof_report_write()'s
 * @diff: (nullable): a comparison to include
 * @format: a folder or one page
 * @options: what to say and how to draw; copied
 * @out: the folder or the page
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called on the calling thread's main context when done
 * @user_data: for @callback
 *
 * smprof_report_write() on a worker thread, for a UI.
 */
void
smprof_report_write_async (SmprofProfile              *profile,
                           GPtrArray                  *records,
                           SmprofDiff                 *diff,
                           SmprofReportFormat          format,
                           const SmprofReportOptions  *options,
                           GFile                      *out,
                           GCancellable               *cancellable,
                           GAsyncReadyCallback         callback,
                           gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  ReportTask *data;

  g_return_if_fail (SMPROF_IS_PROFILE (profile));
  g_return_if_fail (diff == NULL || SMPROF_IS_DIFF (diff));
  g_return_if_fail (options != NULL);
  g_return_if_fail (G_IS_FILE (out));

  data = g_new0 (ReportTask, 1);
  data->profile = g_object_ref (profile);
  data->records = records != NULL ? g_ptr_array_ref (records) : NULL;
  data->diff = diff != NULL ? g_object_ref (diff) : NULL;
  data->format = format;
  data->options = *options;
  data->out = g_object_ref (out);
  own_string (data, 0, &data->options.selection);
  own_string (data, 1, &data->options.command_line);
  own_string (data, 2, &data->options.flame.title);
  own_string (data, 3, &data->options.flame.selection);
  own_string (data, 4, &data->options.diff.title);
  own_string (data, 5, &data->options.diff.a_label);
  own_string (data, 6, &data->options.diff.b_label);

  task = smprof_export_task_new (profile, report_task_write, data, report_task_free, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_report_write_async);
  smprof_export_task_run (task);
}

/**
 * smprof_report_write_finish:
 * @profile: the profile given to smprof_report_write_async()
 * @result: the result given to its callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: %FALSE with @error set when the report could not be written
 */
gboolean
smprof_report_write_finish (SmprofProfile  *profile,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, profile), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
