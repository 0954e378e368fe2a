/* smprof-export-text.c: the text exports: folded stacks, speedscope, CSV, JSON
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-export-private.h"
#include "smprof-float.h"
#include "smprof-stats-json.h"

#define FLUSH_SIZE (256 * 1024)

static gboolean
write_out (GOutputStream  *stream,
           GString        *out,
           gboolean        force,
           GCancellable   *cancellable,
           GError        **error)
{
  if (!force && out->len < FLUSH_SIZE)
    return TRUE;

  if (!g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
    return FALSE;

  g_string_truncate (out, 0);
  return TRUE;
}

/* ------------------------------------------------------------------ folded */

typedef struct
{
  GOutputStream       *stream;
  GCancellable        *cancellable;
  GError             **error;
  SmprofFunctionKeys  *table;
  GPtrArray           *labels;   /* char * per function id, made when first needed */
  GString             *out;
} FoldedWriter;

/* ';' separates frames and a line ends with " N", so a label can hold
 * neither ';' nor a line break; both are rare in Python names and files. */
static const char *
folded_label (FoldedWriter *self,
              guint32       func)
{
  char *label;

  if (func >= self->labels->len)
    g_ptr_array_set_size (self->labels, func + 1);

  label = g_ptr_array_index (self->labels, func);
  if (label == NULL)
    {
      g_autofree char *raw = smprof_export_dup_frame_label (self->table, func);

      label = g_utf8_make_valid (raw, -1);
      g_strdelimit (label, ";", ',');
      g_strdelimit (label, "\r\n", ' ');
      g_ptr_array_index (self->labels, func) = label;
    }

  return label;
}

static gboolean
folded_stack (const guint32 *funcs,
              guint          depth,
              double         self_time,
              gpointer       user_data)
{
  FoldedWriter *self = user_data;
  gint64 weight = llround (self_time * 1e6);

  if (weight <= 0)
    return TRUE;

  for (guint i = 0; i < depth; i++)
    {
      if (i > 0)
        g_string_append_c (self->out, ';');
      g_string_append (self->out, folded_label (self, funcs[i]));
    }
  g_string_append_printf (self->out, " %" G_GINT64_FORMAT "\n", weight);

  return write_out (self->stream, self->out, FALSE, self->cancellable, self->error);
}

/* One line per stack with weight: its frames from the root down, then the
 * weight (smprof_export_walk_stacks()) in whole microseconds, as flamegraph.pl
 * and inferno want integers; the lines add up to the profile's total time
 * within half a microsecond a line. */
gboolean
smprof_export_write_folded (SmprofProfile  *profile,
                            GOutputStream  *stream,
                            GCancellable   *cancellable,
                            GError        **error)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) out = g_string_new (NULL);
  FoldedWriter writer = {
    stream, cancellable, error, smprof_call_tree_get_table (tree), labels, out
  };

  if (!smprof_export_walk_stacks (profile, folded_stack, &writer))
    return FALSE;

  return write_out (stream, out, TRUE, cancellable, error);
}

/* ------------------------------------------------------------------ speedscope */

typedef struct
{
  GArray *frame_of_func;  /* guint32 per function id: its frame index, or G_MAXUINT32 */
  GArray *frames;         /* guint32 function ids, in frame index order */
  GArray *stacks;         /* guint32 frame indices, every sample's stack end to end */
  GArray *stack_ends;     /* guint per sample: where its stack ends in stacks */
  GArray *weights;        /* double per sample: seconds */
} Samples;

static guint32
frame_index (Samples *samples,
             guint32  func)
{
  guint32 *slot;

  if (func >= samples->frame_of_func->len)
    {
      guint old = samples->frame_of_func->len;

      g_array_set_size (samples->frame_of_func, func + 1);
      memset (&g_array_index (samples->frame_of_func, guint32, old), 0xff, (func + 1 - old) * sizeof (guint32));
    }

  slot = &g_array_index (samples->frame_of_func, guint32, func);
  if (*slot == G_MAXUINT32)
    {
      *slot = samples->frames->len;
      g_array_append_val (samples->frames, func);
    }

  return *slot;
}

static gboolean
speedscope_stack (const guint32 *funcs,
                  guint          depth,
                  double         self_time,
                  gpointer       user_data)
{
  Samples *samples = user_data;
  guint end;

  if (!(self_time > 0))
    return TRUE;

  for (guint i = 0; i < depth; i++)
    {
      guint32 index = frame_index (samples, funcs[i]);

      g_array_append_val (samples->stacks, index);
    }
  end = samples->stacks->len;
  g_array_append_val (samples->stack_ends, end);
  g_array_append_val (samples->weights, self_time);

  return TRUE;
}

static void
write_speedscope_profile (SmprofJsonWriter *writer,
                          const char       *name,
                          Samples          *samples,
                          guint             first_sample,
                          guint             end_sample)
{
  double sum = 0;

  smprof_json_writer_begin_object (writer);
  smprof_json_writer_member (writer, "type");
  smprof_json_writer_string (writer, "sampled");
  smprof_json_writer_member (writer, "name");
  smprof_json_writer_string (writer, name);
  smprof_json_writer_member (writer, "unit");
  smprof_json_writer_string (writer, "seconds");
  smprof_json_writer_member (writer, "startValue");
  smprof_json_writer_int (writer, 0);

  smprof_json_writer_member (writer, "samples");
  smprof_json_writer_begin_array (writer);
  for (guint s = first_sample; s < end_sample; s++)
    {
      guint start = s > 0 ? g_array_index (samples->stack_ends, guint, s - 1) : 0;
      guint end = g_array_index (samples->stack_ends, guint, s);

      smprof_json_writer_begin_array (writer);
      for (guint i = start; i < end; i++)
        smprof_json_writer_int (writer, g_array_index (samples->stacks, guint32, i));
      smprof_json_writer_end_array (writer);
    }
  smprof_json_writer_end_array (writer);

  smprof_json_writer_member (writer, "weights");
  smprof_json_writer_begin_array (writer);
  for (guint s = first_sample; s < end_sample; s++)
    {
      double weight = g_array_index (samples->weights, double, s);

      smprof_json_writer_double (writer, weight);
      sum += weight;
    }
  smprof_json_writer_end_array (writer);

  smprof_json_writer_member (writer, "endValue");
  smprof_json_writer_double (writer, sum);
  smprof_json_writer_end_object (writer);
}

/* speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile whose samples are the tree's stacks weighted by their
 * self time in seconds, then, when several nodes were summed, one per node. */
gboolean
smprof_export_write_speedscope (SmprofProfile              *profile,
                                const SmprofExportOptions  *options,
                                GOutputStream              *stream,
                                GCancellable               *cancellable,
                                GError                    **error)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  g_autoptr(GPtrArray) node_profiles = NULL;
  g_autoptr(GArray) firsts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *subtitle = smprof_export_dup_subtitle (profile, options->selection);
  g_autofree char *text = NULL;
  SmprofJsonWriter *writer;
  Samples samples = {
    g_array_new (FALSE, FALSE, sizeof (guint32)),
    g_array_new (FALSE, FALSE, sizeof (guint32)),
    g_array_new (FALSE, FALSE, sizeof (guint32)),
    g_array_new (FALSE, FALSE, sizeof (guint)),
    g_array_new (FALSE, FALSE, sizeof (double)),
  };
  guint first = 0;
  gboolean ok;

  g_array_append_val (firsts, first);
  smprof_export_walk_stacks (profile, speedscope_stack, &samples);

  if (g_strv_length ((char **) smprof_profile_get_node_ids (profile)) > 1)
    {
      node_profiles = smprof_export_dup_node_profiles (profile);
      for (guint i = 0; i < node_profiles->len; i++)
        {
          first = samples.weights->len;
          g_array_append_val (firsts, first);
          smprof_export_walk_stacks (g_ptr_array_index (node_profiles, i), speedscope_stack, &samples);
        }
    }

  writer = smprof_json_writer_new (FALSE);
  smprof_json_writer_begin_object (writer);
  smprof_json_writer_member (writer, "$schema");
  smprof_json_writer_string (writer, "https://www.speedscope.app/file-format-schema.json");
  smprof_json_writer_member (writer, "exporter");
  smprof_json_writer_string (writer, "smprof " PACKAGE_VERSION);
  smprof_json_writer_member (writer, "name");
  smprof_json_writer_string (writer, options->title != NULL ? options->title : subtitle);
  smprof_json_writer_member (writer, "activeProfileIndex");
  smprof_json_writer_int (writer, 0);

  smprof_json_writer_member (writer, "shared");
  smprof_json_writer_begin_object (writer);
  smprof_json_writer_member (writer, "frames");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < samples.frames->len; i++)
    {
      guint32     func = g_array_index (samples.frames, guint32, i);
      const char *file = smprof_function_keys_get_file (table, func);
      g_autofree char *label = smprof_function_keys_dup_label (table, func);

      smprof_json_writer_begin_object (writer);
      smprof_json_writer_member (writer, "name");
      if (strcmp (file, "~") == 0)
        smprof_json_writer_string (writer, label);
      else
        {
          smprof_json_writer_string (writer, smprof_function_keys_get_name (table, func));
          smprof_json_writer_member (writer, "file");
          smprof_json_writer_string (writer, file);
          smprof_json_writer_member (writer, "line");
          smprof_json_writer_int (writer, smprof_function_keys_get_line (table, func));
        }
      smprof_json_writer_end_object (writer);
    }
  smprof_json_writer_end_array (writer);
  smprof_json_writer_end_object (writer);

  smprof_json_writer_member (writer, "profiles");
  smprof_json_writer_begin_array (writer);
  for (guint p = 0; p < firsts->len; p++)
    {
      guint start = g_array_index (firsts, guint, p);
      guint end = p + 1 < firsts->len ? g_array_index (firsts, guint, p + 1) : samples.weights->len;
      g_autofree char *name = NULL;

      if (p == 0)
        name = g_strdup (subtitle);
      else
        name = g_strdup (smprof_profile_get_node_ids (g_ptr_array_index (node_profiles, p - 1))[0]);

      write_speedscope_profile (writer, name, &samples, start, end);
    }
  smprof_json_writer_end_array (writer);
  smprof_json_writer_end_object (writer);

  text = smprof_json_writer_free_to_string (writer);
  ok = g_output_stream_write_all (stream, text, strlen (text), NULL, cancellable, error) &&
       g_output_stream_write_all (stream, "\n", 1, NULL, cancellable, error);

  g_array_unref (samples.frame_of_func);
  g_array_unref (samples.frames);
  g_array_unref (samples.stacks);
  g_array_unref (samples.stack_ends);
  g_array_unref (samples.weights);

  return ok;
}

/* ------------------------------------------------------------------ CSV */

/* RFC 4180: quote a field that holds a separator, a quote or a line break. */
static void
append_csv_field (GString    *out,
                  const char *text,
                  gboolean    last)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  if (strpbrk (valid, ",\"\r\n") != NULL || g_ascii_isspace (valid[0]))
    {
      g_string_append_c (out, '"');
      for (const char *p = valid; *p != '\0'; p++)
        {
          if (*p == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '"');
    }
  else
    g_string_append (out, valid);

  g_string_append (out, last ? "\r\n" : ",");
}

/* The same quoting for the report's own tables. */
void
smprof_export_append_csv_field (GString    *out,
                                const char *text,
                                gboolean    last)
{
  append_csv_field (out, text, last);
}

static void
append_csv_count (GString *out,
                  gint64   value)
{
  if (value >= 0)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, value);
  g_string_append_c (out, ',');
}

static void
append_csv_float (GString *out,
                  double   value,
                  gboolean known)
{
  char buffer[SMPROF_FLOAT_BUF_SIZE];

  if (known)
    g_string_append (out, smprof_float_format_repr (buffer, value));
  g_string_append_c (out, ',');
}

/* pstats' columns, with its two "percall"s told apart: tottime over ncalls and
 * cumtime over primitive calls, as print_stats() divides. Pyinstrument counts
 * no calls, so those cells stay empty for it. */
gboolean
smprof_export_write_csv (SmprofProfile  *profile,
                         GOutputStream  *stream,
                         GCancellable   *cancellable,
                         GError        **error)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  g_autoptr(GString) out = g_string_new ("ncalls,primitive_calls,tottime,tottime_percall,"
                                         "cumtime,cumtime_percall,file,line,function,label\r\n");

  for (guint i = 0; i < smprof_profile_get_n_functions (profile); i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);
      g_autofree char *label = smprof_function_keys_dup_label (table, row->func);
      g_autofree char *line = g_strdup_printf ("%" G_GINT64_FORMAT, smprof_function_keys_get_line (table, row->func));

      append_csv_count (out, row->ncalls);
      append_csv_count (out, row->pcalls);
      append_csv_float (out, row->tottime, TRUE);
      append_csv_float (out, row->ncalls > 0 ? row->tottime / row->ncalls : 0, row->ncalls > 0);
      append_csv_float (out, row->cumtime, TRUE);
      append_csv_float (out, row->pcalls > 0 ? row->cumtime / row->pcalls : 0, row->pcalls > 0);
      append_csv_field (out, smprof_function_keys_get_file (table, row->func), FALSE);
      append_csv_field (out, line, FALSE);
      append_csv_field (out, smprof_function_keys_get_name (table, row->func), FALSE);
      append_csv_field (out, label, TRUE);

      if (!write_out (stream, out, FALSE, cancellable, error))
        return FALSE;
    }

  return write_out (stream, out, TRUE, cancellable, error);
}

/* ------------------------------------------------------------------ JSON */

/* Byte for byte what `smprof stats --json` prints for the same selection. */
gboolean
smprof_export_write_json (SmprofProfile  *profile,
                          GOutputStream  *stream,
                          GCancellable   *cancellable,
                          GError        **error)
{
  SmprofJsonWriter *writer = smprof_json_writer_new (FALSE);
  g_autofree char *text = NULL;

  smprof_stats_json_write_profile (writer, profile, SMPROF_SORT_NONE, -1, FALSE);

  text = smprof_json_writer_free_to_string (writer);

  return g_output_stream_write_all (stream, text, strlen (text), NULL, cancellable, error) &&
         g_output_stream_write_all (stream, "\n", 1, NULL, cancellable, error);
}
