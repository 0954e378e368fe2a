/* smprof-export.c: formats, options, the pictures, and the dispatch to the writers
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-export-picture.h"
#include "smprof-export-private.h"
#include "smprof-query.h"
#include "smprof-transform.h"

G_DEFINE_QUARK (smprof-export-error-quark, smprof_export_error)

#define MIN_WIDTH_PX 100.0
#define MAX_WIDTH_PX 16384.0

static const struct
{
  const char *name;
  const char *extension;
  const char *mime_type;
} formats[SMPROF_EXPORT_N_FORMATS] = {
  [SMPROF_EXPORT_SVG] = { "svg", ".svg", "image/svg+xml" },
  [SMPROF_EXPORT_PNG] = { "png", ".png", "image/png" },
  [SMPROF_EXPORT_PDF] = { "pdf", ".pdf", "application/pdf" },
  [SMPROF_EXPORT_FOLDED] = { "folded", ".folded", "text/plain" },
  [SMPROF_EXPORT_SPEEDSCOPE] = { "speedscope", ".speedscope.json", "application/json" },
  [SMPROF_EXPORT_PSTATS] = { "pstats", ".prof", "application/octet-stream" },
  [SMPROF_EXPORT_CSV] = { "csv", ".csv", "text/csv" },
  [SMPROF_EXPORT_JSON] = { "json", ".json", "application/json" },
  [SMPROF_EXPORT_SYSCAP] = { "syscap", ".syscap", "application/x-sysprof-capture" },
};

/**
 * smprof_export_options_init:
 * @options: (out caller-allocates): the options to fill
 *
 * The defaults: a 1200-pixel flame graph of the whole profile, frames under
 * 0.1 pixel left out (flamegraph.pl's default), light colours, default title.
 */
void
smprof_export_options_init (SmprofExportOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->direction = SMPROF_FLAME_DIRECTION_UP;
  options->width = 1200;
  options->min_frame_width = 0.1;
  options->zoom_node = SMPROF_CALL_TREE_ROOT;
}

gboolean
smprof_export_format_from_string (const char         *text,
                                  SmprofExportFormat *format)
{
  g_return_val_if_fail (format != NULL, FALSE);

  if (text == NULL)
    return FALSE;

  for (guint i = 0; i < SMPROF_EXPORT_N_FORMATS; i++)
    if (g_ascii_strcasecmp (text, formats[i].name) == 0)
      {
        *format = i;
        return TRUE;
      }

  return FALSE;
}

const char *
smprof_export_format_to_string (SmprofExportFormat format)
{
  g_return_val_if_fail (format < SMPROF_EXPORT_N_FORMATS, NULL);

  return formats[format].name;
}

/* The file name ending a save dialog should suggest, dot included. */
const char *
smprof_export_format_get_extension (SmprofExportFormat format)
{
  g_return_val_if_fail (format < SMPROF_EXPORT_N_FORMATS, NULL);

  return formats[format].extension;
}

const char *
smprof_export_format_get_mime_type (SmprofExportFormat format)
{
  g_return_val_if_fail (format < SMPROF_EXPORT_N_FORMATS, NULL);

  return formats[format].mime_type;
}

/* A local job is named by its last two folders ("data/sample-job",
 * "my-job/profiler-output"): enough to tell jobs apart in a report, without
 * the machine's paths. A URI (s3://bucket/prefix) stays whole. */
static char *
short_location (char *location)
{
  g_auto(GStrv) parts = NULL;
  guint n;

  if (strstr (location, "://") != NULL || !g_path_is_absolute (location))
    return location;

  parts = g_strsplit (location, G_DIR_SEPARATOR_S, -1);
  n = g_strv_length (parts);
  while (n > 0 && *parts[n - 1] == '\0')
    n--;
  if (n < 3)
    return location;

  g_free (location);

  return g_strconcat (parts[n - 2], G_DIR_SEPARATOR_S, parts[n - 1], NULL);
}

/* "2.031 s", "87.4 ms": a total for a heading. */
static char *
dup_total (double seconds)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  if (seconds >= 1)
    return g_strdup_printf (_("%s s"), g_ascii_formatd (number, sizeof number, "%.3f", seconds));
  return g_strdup_printf (_("%s ms"), g_ascii_formatd (number, sizeof number, "%.1f", seconds * 1000));
}

/**
 * smprof_export_dup_subtitle:
 * @profile: a profile
 * @selection: (nullable): what was selected, in words; %NULL to say it by
 *   the steps and modes of the intervals (what a time range selected)
 *
 * The job, the profiler and the nodes, the selection, the number of
 * intervals and the total time, separated by " · " (where a picture too narrow
 * for one line wraps it).
 *
 * Returns: (transfer full): the subtitle
 */
char *
smprof_export_dup_subtitle (SmprofProfile *profile,
                            const char    *selection)
{
  SmprofJob *job;
  g_autofree char *location = NULL;
  g_autofree char *nodes = NULL;
  g_autofree char *steps = NULL;
  g_autofree char *total = NULL;
  GString *out;
  guint n_records;

  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), NULL);

  job = smprof_profile_get_job (profile);
  location = short_location (smprof_source_dup_location (smprof_job_get_source (job)));
  nodes = g_strjoinv (", ", (char **) smprof_profile_get_node_ids (profile));
  n_records = smprof_profile_get_records (profile)->len;
  total = dup_total (smprof_profile_get_total_time (profile));

  out = g_string_new (location);
  g_string_append_printf (out, " · %s ", smprof_profiler_to_string (smprof_profile_get_profiler (profile)));
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "on node %s", "on nodes %s",
                                         g_strv_length ((char **) smprof_profile_get_node_ids (profile))),
                          nodes);
  g_string_append (out, " · ");
  if (selection == NULL)
    selection = steps = smprof_records_describe_steps (smprof_profile_get_records (profile));
  if (*selection != '\0')
    g_string_append_printf (out, "%s · ", selection);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", n_records), n_records);
  /* TRANSLATORS: the total time of a picture's selection, such as "2.031 s" */
  g_string_append_printf (out, _(" · total %s"), total);

  return g_string_free (out, FALSE);
}

/**
 * smprof_export_dup_reshaping:
 * @profile: a profile
 *
 * Returns: (transfer full) (nullable): the transforms @profile's tree went
 *   through, in order ("Merge … › Hide library frames"), or %NULL
 */
char *
smprof_export_dup_reshaping (SmprofProfile *profile)
{
  GPtrArray *transforms = smprof_profile_get_transforms (profile);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  GString *out;

  if (transforms->len == 0 && !smprof_profile_is_inverted (profile))
    return NULL;

  out = g_string_new (NULL);
  for (guint i = 0; i < transforms->len; i++)
    {
      g_autofree char *text = smprof_transform_describe (g_ptr_array_index (transforms, i), table);

      g_string_append_printf (out, "%s%s", i == 0 ? "" : " › ", text);
    }
  if (smprof_profile_is_inverted (profile))
    g_string_append_printf (out, "%s%s", transforms->len == 0 ? "" : " › ", _("Inverted: callers below"));

  return g_string_free (out, FALSE);
}

/**
 * smprof_export_dup_frame_label:
 * @table: a function table
 * @func: a function id
 *
 * The label of a frame in the stack exports (folded, speedscope names in
 * Sysprof): `function (file:line)`, short enough to read in a flame graph and
 * still unambiguous; a built-in, which has no file, gets pstats' label
 * (`{built-in method time.sleep}`).
 *
 * Returns: (transfer full): the label
 */
char *
smprof_export_dup_frame_label (SmprofFunctionKeys *table,
                               guint32             func)
{
  const char *file;

  g_return_val_if_fail (table != NULL, NULL);

  file = smprof_function_keys_get_file (table, func);
  if (strcmp (file, "~") == 0 && smprof_function_keys_get_line (table, func) == 0)
    return smprof_function_keys_dup_label (table, func);

  return g_strdup_printf ("%s (%s:%" G_GINT64_FORMAT ")", smprof_function_keys_get_name (table, func), file,
                          smprof_function_keys_get_line (table, func));
}

/**
 * smprof_export_walk_stacks:
 * @profile: a profile
 * @func: (scope call): called for every frame, parents first
 * @user_data: for @func
 *
 * Gives every stack of @profile's call tree with its frame's self time, the
 * tree every view draws: the weights sum to the root frames' time, which is
 * the profile's total time. Iterative, so a deep tree cannot overflow the
 * stack.
 *
 * Returns: %FALSE when @func stopped the walk
 */
gboolean
smprof_export_walk_stacks (SmprofProfile   *profile,
                           SmprofStackFunc  func,
                           gpointer         user_data)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 current = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->first_child;

  while (current != SMPROF_CALL_TREE_NONE)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, current);

      g_array_append_val (path, node->func);
      if (!func ((const guint32 *) (gpointer) path->data, path->len, node->self, user_data))
        return FALSE;

      if (node->first_child != SMPROF_CALL_TREE_NONE)
        {
          current = node->first_child;
          continue;
        }

      /* Leave this frame, then every ancestor whose children are all done. */
      for (;;)
        {
          g_array_set_size (path, path->len - 1);

          if (node->next_sibling != SMPROF_CALL_TREE_NONE)
            {
              current = node->next_sibling;
              break;
            }

          if (node->parent == SMPROF_CALL_TREE_ROOT)
            {
              current = SMPROF_CALL_TREE_NONE;
              break;
            }

          node = smprof_call_tree_get_node (tree, node->parent);
        }
    }

  return TRUE;
}

/**
 * smprof_export_dup_node_profiles:
 * @profile: a profile
 *
 * The same selection, one profile per node, for the formats that keep nodes
 * apart, reshaped as @profile is. A one-node profile is its own node profile.
 *
 * Returns: (transfer full) (element-type SmprofProfile): one profile per node
 *   that has records, in the order of the profile's node ids
 */
GPtrArray *
smprof_export_dup_node_profiles (SmprofProfile *profile)
{
  const char * const *node_ids = smprof_profile_get_node_ids (profile);
  GPtrArray *records = smprof_profile_get_records (profile);
  GPtrArray *profiles = g_ptr_array_new_with_free_func (g_object_unref);

  if (g_strv_length ((char **) node_ids) <= 1)
    {
      g_ptr_array_add (profiles, g_object_ref (profile));
      return profiles;
    }

  for (guint n = 0; node_ids[n] != NULL; n++)
    {
      g_autoptr(GPtrArray) mine = g_ptr_array_new ();
      const char *one[] = { node_ids[n], NULL };

      for (guint i = 0; i < records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (records, i);

          if (strcmp (record->node_id, node_ids[n]) == 0)
            g_ptr_array_add (mine, record);
        }

      if (mine->len > 0)
        {
          g_autoptr(SmprofProfile) aggregate = smprof_profile_new (smprof_profile_get_job (profile),
                                                                   smprof_profile_get_profiler (profile),
                                                                   one, mine);

          /* Reshaped as the whole selection is. */
          g_ptr_array_add (profiles, smprof_profile_new_transformed (aggregate,
                                                                     smprof_profile_get_transforms (profile),
                                                                     smprof_profile_is_inverted (profile)));
        }
    }

  return profiles;
}

/* ------------------------------------------------------------------ pictures */

static gboolean
write_picture (SmprofProfile              *profile,
               SmprofExportFormat          format,
               const SmprofExportOptions  *options,
               GOutputStream              *stream,
               GCancellable               *cancellable,
               GError                    **error)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  g_autoptr(SmprofFlameLayout) layout = NULL;
  g_autofree char *subtitle = smprof_export_dup_subtitle (profile, options->selection);
  g_autofree char *reshaping = smprof_export_dup_reshaping (profile);
  g_autofree char *note = NULL;
  SmprofFlameRenderOptions render;

  /* A zoomed picture shows one frame's subtree: say whose, or its widths
   * read as the whole selection's. */
  if (options->zoom_node != SMPROF_CALL_TREE_ROOT)
    {
      g_autofree char *frame = smprof_export_dup_frame_label (smprof_call_tree_get_table (tree),
                                                              smprof_call_tree_get_node (tree, options->zoom_node)->func);
      /* TRANSLATORS: a flame graph picture's subtitle, then the frame it is zoomed to */
      char *zoomed = g_strdup_printf (_("%s · zoomed to %s"), subtitle, frame);

      g_free (subtitle);
      subtitle = zoomed;
    }

  /* What the tree is, then how it was reshaped, each a line of the note. */
  if (smprof_profile_is_estimated (profile))
    note = reshaping != NULL ? g_strdup_printf ("%s\n%s", _("Call tree estimated from cProfile’s call graph"), reshaping)
                             : g_strdup (_("Call tree estimated from cProfile’s call graph"));
  else
    note = g_steal_pointer (&reshaping);

  render = (SmprofFlameRenderOptions) {
    .title = options->title,
    .subtitle = subtitle,
    .note = note,
    .direction = options->direction,
    .width = options->width,
    .dark = options->dark,
    .palette = options->palette,
  };

  if (render.title == NULL)
    render.title = options->direction == SMPROF_FLAME_DIRECTION_DOWN ? _("Icicle graph") : _("Flame graph");

  layout = smprof_flame_layout_new (tree, options->zoom_node,
                                    options->min_frame_width / smprof_flame_render_get_frames_width (&render));

  if (format == SMPROF_EXPORT_SVG)
    return smprof_flame_render_svg (layout, &render, stream, cancellable, error);

  return smprof_export_write_picture (layout, &render, format, stream, cancellable, error);
}

/* ------------------------------------------------------------------ entry points */

static gboolean
check_options (SmprofProfile              *profile,
               const SmprofExportOptions  *options,
               GError                    **error)
{
  if (!(options->width >= MIN_WIDTH_PX && options->width <= MAX_WIDTH_PX))
    {
      g_set_error (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID,
                   _("The width must be between %g and %g pixels"), MIN_WIDTH_PX, MAX_WIDTH_PX);
      return FALSE;
    }

  if (!(options->min_frame_width >= 0) || !isfinite (options->min_frame_width))
    {
      g_set_error_literal (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID,
                           _("The minimum frame width must be a number of pixels, 0 or more"));
      return FALSE;
    }

  if (options->zoom_node >= smprof_call_tree_get_n_nodes (smprof_profile_get_call_tree (profile)))
    {
      g_set_error_literal (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID,
                           _("The zoomed frame is not in this profile"));
      return FALSE;
    }

  return TRUE;
}

/**
 * smprof_export_profile:
 * @profile: the aggregated selection
 * @format: what to write
 * @options: (nullable): how; %NULL for smprof_export_options_init()'s defaults
 * @stream: where to write; it is not closed
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Writes @profile in @format. This reads only @profile, which is immutable:
 * call it from a worker thread (GTask) so a large export does not block the UI.
 *
 * Returns: %FALSE with @error set when an option is out of range
 *   (%SMPROF_EXPORT_ERROR_INVALID) or writing failed (a `G_IO_ERROR`)
 */
gboolean
smprof_export_profile (SmprofProfile              *profile,
                       SmprofExportFormat          format,
                       const SmprofExportOptions  *options,
                       GOutputStream              *stream,
                       GCancellable               *cancellable,
                       GError                    **error)
{
  SmprofExportOptions defaults;

  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (format < SMPROF_EXPORT_N_FORMATS, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  if (options == NULL)
    {
      smprof_export_options_init (&defaults);
      options = &defaults;
    }

  if (!check_options (profile, options, error))
    return FALSE;

  switch (format)
    {
    case SMPROF_EXPORT_SVG:
    case SMPROF_EXPORT_PNG:
    case SMPROF_EXPORT_PDF:
      return write_picture (profile, format, options, stream, cancellable, error);
    case SMPROF_EXPORT_FOLDED:
      return smprof_export_write_folded (profile, stream, cancellable, error);
    case SMPROF_EXPORT_SPEEDSCOPE:
      return smprof_export_write_speedscope (profile, options, stream, cancellable, error);
    case SMPROF_EXPORT_PSTATS:
      return smprof_export_write_pstats (profile, stream, cancellable, error);
    case SMPROF_EXPORT_CSV:
      return smprof_export_write_csv (profile, stream, cancellable, error);
    case SMPROF_EXPORT_JSON:
      return smprof_export_write_json (profile, stream, cancellable, error);
    case SMPROF_EXPORT_SYSCAP:
      return smprof_export_write_syscap (profile, stream, cancellable, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

/**
 * smprof_export_profile_to_file:
 * @profile: the aggregated selection
 * @format: what to write
 * @options: (nullable): how
 * @file: the file to write; it is replaced only once the export has succeeded
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * As smprof_export_profile(), into @file.
 *
 * Returns: %FALSE with @error set on failure, @file then untouched
 */
gboolean
smprof_export_profile_to_file (SmprofProfile              *profile,
                               SmprofExportFormat          format,
                               const SmprofExportOptions  *options,
                               GFile                      *file,
                               GCancellable               *cancellable,
                               GError                    **error)
{
  g_autoptr(GFileOutputStream) stream = NULL;
  gboolean existed;

  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  existed = g_file_query_exists (file, cancellable);
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
  if (stream == NULL)
    return FALSE;

  if (!smprof_export_profile (profile, format, options, G_OUTPUT_STREAM (stream), cancellable, error))
    {
      g_autoptr(GCancellable) abort = g_cancellable_new ();

      /* Closing a replace stream through a cancelled cancellable drops the
       * temporary file and keeps whatever @file held before; a file that did
       * not exist is written in place, so it goes. */
      g_cancellable_cancel (abort);
      g_output_stream_close (G_OUTPUT_STREAM (stream), abort, NULL);
      if (!existed)
        g_file_delete (file, NULL, NULL);
      return FALSE;
    }

  return g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, error);
}

typedef struct
{
  SmprofProfile       *profile;
  SmprofExportFormat   format;
  SmprofExportOptions  options;   /* its strings are the two below */
  char                *title;
  char                *selection;
  GFile               *file;
} ExportTask;

static void
export_task_free (gpointer data)
{
  ExportTask *task = data;

  g_clear_object (&task->profile);
  g_clear_object (&task->file);
  g_clear_pointer (&task->title, g_free);
  g_clear_pointer (&task->selection, g_free);
  g_free (task);
}

static gboolean
export_task_write (gpointer       task_data,
                   GCancellable  *cancellable,
                   GError       **error)
{
  ExportTask *data = task_data;

  return smprof_export_profile_to_file (data->profile, data->format, &data->options, data->file,
                                        cancellable, error);
}

typedef struct
{
  SmprofExportWorkFunc  work;
  gpointer              data;
  GDestroyNotify        data_free;
} Work;

static void
work_free (gpointer data)
{
  Work *work = data;

  work->data_free (work->data);
  g_free (work);
}

static void
work_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Work *work = task_data;
  GError *error = NULL;

  if (work->work (work->data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* A task on @profile that smprof_export_task_run() runs @work in, on a
 * worker thread, returning a boolean; the caller sets its source tag. */
GTask *
smprof_export_task_new (SmprofProfile         *profile,
                        SmprofExportWorkFunc   work,
                        gpointer               task_data,
                        GDestroyNotify         task_data_free,
                        GCancellable          *cancellable,
                        GAsyncReadyCallback    callback,
                        gpointer               user_data)
{
  GTask *task = g_task_new (profile, cancellable, callback, user_data);
  Work *data = g_new0 (Work, 1);

  data->work = work;
  data->data = task_data;
  data->data_free = task_data_free;
  g_task_set_task_data (task, data, work_free);

  return task;
}

void
smprof_export_task_run (GTask *task)
{
  g_task_run_in_thread (task, work_in_thread);
}

/**
 * smprof_export_profile_to_file_async:
 * @profile: the aggregated selection
 * @format: what to write
 * @options: (nullable): how; copied
 * @file: the file to write
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called on the calling thread's main context when done
 * @user_data: for @callback
 *
 * smprof_export_profile_to_file() on a worker thread, for a UI.
 */
void
smprof_export_profile_to_file_async (SmprofProfile              *profile,
                                     SmprofExportFormat          format,
                                     const SmprofExportOptions  *options,
                                     GFile                      *file,
                                     GCancellable               *cancellable,
                                     GAsyncReadyCallback         callback,
                                     gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportTask *data;

  g_return_if_fail (SMPROF_IS_PROFILE (profile));
  g_return_if_fail (format < SMPROF_EXPORT_N_FORMATS);
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (ExportTask, 1);
  data->profile = g_object_ref (profile);
  data->format = format;
  data->file = g_object_ref (file);
  if (options != NULL)
    data->options = *options;
  else
    smprof_export_options_init (&data->options);
  data->options.title = data->title = g_strdup (data->options.title);
  data->options.selection = data->selection = g_strdup (data->options.selection);

  task = smprof_export_task_new (profile, export_task_write, data, export_task_free, cancellable, callback, user_data);
  g_task_set_source_tag (task, smprof_export_profile_to_file_async);
  smprof_export_task_run (task);
}

/**
 * smprof_export_profile_to_file_finish:
 * @profile: the profile given to smprof_export_profile_to_file_async()
 * @result: the result given to its callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: %FALSE with @error set when the export failed
 */
gboolean
smprof_export_profile_to_file_finish (SmprofProfile  *profile,
                                      GAsyncResult   *result,
                                      GError        **error)
{
  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, profile), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
