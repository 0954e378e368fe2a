/* smprof-export-syscap.c: a Sysprof capture of the selection
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sysprof-capture.h>
#include <unistd.h>

#include "smprof-export-private.h"

/* Sysprof knows processes, marks and sampled stacks, so the job becomes:
 * - one process per node, named by the node id (pids are made up);
 * - one mark per interval: group the node, name its bounds, message the
 *   interval folder, at its place on the job's clock;
 * - for each node, the call tree's stacks as samples whose functions are
 *   named through jitmap, one sample per SMPROF_SYSCAP_SAMPLE_PERIOD_US of
 *   self time, spread evenly over the node's selected intervals.
 * Sysprof draws nothing stamped before the header's start time, which the
 * writer sets to "now": every time is moved to start there. */

#define FIRST_PID 10000

typedef struct
{
  SysprofCaptureWriter  *writer;
  GArray                *addresses;   /* SysprofCaptureAddress per function id, 0 until named */
  SmprofFunctionKeys    *table;
  gint64                 period_us;
  guint64                n_samples;   /* counted, or written so far */

  /* Writing a node's samples */
  gboolean               writing;
  gint32                 pid;
  guint64                node_samples;
  GArray                *spans;       /* Span, the node's intervals by start time */
  double                 covered_us;
  guint                  span;
  double                 span_offset_us;  /* the covered time before spans[span] */
  gint64                 t0;
  double                 origin_us;
  SysprofCaptureAddress *stack;
  gboolean               failed;
} SyscapWriter;

typedef struct
{
  double start_us;
  double end_us;
} Span;

static guint64
samples_for (SyscapWriter *self,
             double        self_time)
{
  gint64 weight = llround (self_time * 1e6);

  if (weight <= 0)
    return 0;

  return (guint64) ((weight + self->period_us / 2) / self->period_us);
}

static SysprofCaptureAddress
address_for (SyscapWriter *self,
             guint32       func)
{
  SysprofCaptureAddress *slot;

  if (func >= self->addresses->len)
    g_array_set_size (self->addresses, func + 1);

  slot = &g_array_index (self->addresses, SysprofCaptureAddress, func);
  if (*slot == 0)
    {
      g_autofree char *label = smprof_export_dup_frame_label (self->table, func);
      g_autofree char *valid = g_utf8_make_valid (label, -1);

      *slot = sysprof_capture_writer_add_jitmap (self->writer, valid);
    }

  return *slot;
}

/* Where the k-th of a node's samples goes: evenly over its intervals. */
static gint64
sample_time (SyscapWriter *self)
{
  double position = (self->node_samples + 0.5) * self->covered_us / MAX (self->n_samples, 1);
  const Span *span;

  while (self->span + 1 < self->spans->len)
    {
      span = &g_array_index (self->spans, Span, self->span);
      if (position < self->span_offset_us + (span->end_us - span->start_us))
        break;
      self->span_offset_us += span->end_us - span->start_us;
      self->span++;
    }

  span = &g_array_index (self->spans, Span, self->span);

  return self->t0 + llround ((span->start_us - self->origin_us + MAX (position - self->span_offset_us, 0.0)) * 1000);
}

static gboolean
syscap_stack (const guint32 *funcs,
              guint          depth,
              double         self_time,
              gpointer       user_data)
{
  SyscapWriter *self = user_data;
  guint64 count = samples_for (self, self_time);

  if (!self->writing)
    {
      self->n_samples += count;
      return TRUE;
    }

  if (count == 0)
    return TRUE;

  /* Sysprof wants the innermost frame first. */
  for (guint i = 0; i < depth; i++)
    self->stack[i] = address_for (self, funcs[depth - 1 - i]);

  for (guint64 k = 0; k < count; k++, self->node_samples++)
    if (!sysprof_capture_writer_add_sample (self->writer, sample_time (self), 0, self->pid, self->pid,
                                            self->stack, depth))
      {
        self->failed = TRUE;
        return FALSE;
      }

  return TRUE;
}

static guint
max_depth (SmprofCallTree *tree)
{
  guint deepest = 0;
  g_autofree guint *depths = g_new0 (guint, smprof_call_tree_get_n_nodes (tree));

  /* Children always come after their parent in the node array. */
  for (guint32 i = 1; i < smprof_call_tree_get_n_nodes (tree); i++)
    {
      guint32 parent = smprof_call_tree_get_node (tree, i)->parent;

      depths[i] = (parent == SMPROF_CALL_TREE_ROOT ? 0 : depths[parent]) + 1;
      deepest = MAX (deepest, depths[i]);
    }

  return deepest;
}

static void
append_bound (GString     *out,
              SmprofMode   mode,
              gint64       step,
              SmprofPhase  phase,
              gboolean     with_mode)
{
  if (with_mode)
    g_string_append_printf (out, "%s ", smprof_mode_to_string (mode));
  if (step == SMPROF_STEP_ANY_START || step == SMPROF_STEP_INFINITY)
    g_string_append (out, "* ");
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT " ", step);
  g_string_append (out, smprof_phase_to_string (phase));
}

/* A mark's name holds 39 bytes: "train 3 stepstart->forwardpassend" within a
 * step, "eval 9 stepend->train 10 stepstart" across; what does not fit drops
 * the end's phase, then the end (the message names the whole interval). */
static char *
mark_name (const SmprofIntervalName *name)
{
  GString *out = g_string_new (NULL);
  gsize start_len;

  append_bound (out, name->start_mode, name->start_step, name->start_phase, TRUE);
  g_string_append (out, "->");
  start_len = out->len;

  if (name->start_mode == name->end_mode && name->start_step == name->end_step)
    g_string_append (out, smprof_phase_to_string (name->end_phase));
  else
    append_bound (out, name->end_mode, name->end_step, name->end_phase, name->start_mode != name->end_mode);

  if (out->len >= sizeof (((SysprofCaptureMark *) NULL)->name) && strrchr (out->str, ' ') > out->str + start_len)
    g_string_truncate (out, strrchr (out->str, ' ') - out->str);
  if (out->len >= sizeof (((SysprofCaptureMark *) NULL)->name))
    g_string_truncate (out, start_len);

  return g_string_free (out, FALSE);
}

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  double x = ((const Span *) a)->start_us;
  double y = ((const Span *) b)->start_us;

  return x < y ? -1 : x > y ? 1 : 0;
}

static void
set_capture_error (GError     **error,
                   const char  *path,
                   int          saved_errno)
{
  if (saved_errno != 0)
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                 _("Could not write a Sysprof capture to %s: %s"), path, g_strerror (saved_errno));
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write a Sysprof capture to %s"), path);
}

static gboolean
write_capture (SmprofProfile  *profile,
               const char     *path,
               GError        **error)
{
  GPtrArray *records = smprof_profile_get_records (profile);
  g_autoptr(GPtrArray) node_profiles = smprof_export_dup_node_profiles (profile);
  g_autoptr(GArray) addresses = g_array_new (FALSE, TRUE, sizeof (SysprofCaptureAddress));
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autofree SysprofCaptureAddress *stack = NULL;
  g_autofree char *metadata = NULL;
  SyscapWriter self = { 0 };
  gboolean ok = TRUE;
  guint deepest = 0;
  int saved_errno;

  sysprof_clock_init ();
  errno = 0;
  self.writer = sysprof_capture_writer_new (path, 0);
  if (self.writer == NULL)
    {
      set_capture_error (error, path, errno);
      return FALSE;
    }

  self.t0 = SYSPROF_CAPTURE_CURRENT_TIME;
  self.addresses = addresses;
  self.table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  self.origin_us = G_MAXDOUBLE;
  for (guint i = 0; i < records->len; i++)
    self.origin_us = MIN (self.origin_us, ((SmprofRecord *) g_ptr_array_index (records, i))->name.start_time_us);

  /* One sample period for the whole capture, so samples weigh alike. */
  self.period_us = SMPROF_SYSCAP_SAMPLE_PERIOD_US;
  for (;;)
    {
      self.n_samples = 0;
      for (guint n = 0; n < node_profiles->len; n++)
        smprof_export_walk_stacks (g_ptr_array_index (node_profiles, n), syscap_stack, &self);
      if (self.n_samples <= SMPROF_SYSCAP_MAX_SAMPLES)
        break;
      self.period_us *= 10;
    }

  metadata = g_strdup_printf ("sample-period-us=%" G_GINT64_FORMAT "\nprofiler=%s\nestimated=%s\nintervals=%u\n",
                              self.period_us, smprof_profiler_to_string (smprof_profile_get_profiler (profile)),
                              smprof_profile_is_estimated (profile) ? "true" : "false", records->len);
  ok &= sysprof_capture_writer_add_metadata (self.writer, self.t0, -1, -1, "smprof", metadata, -1);

  for (guint n = 0; n < node_profiles->len && ok; n++)
    {
      SmprofProfile *node_profile = g_ptr_array_index (node_profiles, n);
      const char *node_id = smprof_profile_get_node_ids (node_profile)[0];
      GPtrArray *node_records = smprof_profile_get_records (node_profile);
      gint32 pid = FIRST_PID + (gint32) n;

      ok &= sysprof_capture_writer_add_process (self.writer, self.t0, -1, pid, node_id);

      for (guint i = 0; i < node_records->len && ok; i++)
        {
          const SmprofRecord *record = g_ptr_array_index (node_records, i);
          const SmprofIntervalName *name = &record->name;
          g_autofree char *label = mark_name (name);
          g_autofree char *message = g_strconcat (record->node_id, "/", record->interval, NULL);
          gint64 time = self.t0 + llround ((name->start_time_us - self.origin_us) * 1000);
          gint64 duration = llround (MAX (name->end_time_us - name->start_time_us, 0.0) * 1000);

          ok &= sysprof_capture_writer_add_mark (self.writer, time, -1, pid, duration, node_id, label, message);
        }

      deepest = MAX (deepest, max_depth (smprof_profile_get_call_tree (node_profile)));
    }

  stack = g_new (SysprofCaptureAddress, MAX (deepest, 1));
  self.stack = stack;
  self.spans = spans;
  self.writing = TRUE;

  for (guint n = 0; n < node_profiles->len && ok; n++)
    {
      SmprofProfile *node_profile = g_ptr_array_index (node_profiles, n);
      GPtrArray *node_records = smprof_profile_get_records (node_profile);

      /* This node's share of the count, for spreading its samples. */
      self.writing = FALSE;
      self.n_samples = 0;
      smprof_export_walk_stacks (node_profile, syscap_stack, &self);
      self.writing = TRUE;

      g_array_set_size (spans, 0);
      self.covered_us = 0;
      for (guint i = 0; i < node_records->len; i++)
        {
          const SmprofRecord *record = g_ptr_array_index (node_records, i);
          Span span = { record->name.start_time_us, MAX (record->name.end_time_us, record->name.start_time_us) };

          g_array_append_val (spans, span);
          self.covered_us += span.end_us - span.start_us;
        }
      g_array_sort (spans, compare_spans);

      self.pid = FIRST_PID + (gint32) n;
      self.node_samples = 0;
      self.span = 0;
      self.span_offset_us = 0;
      if (spans->len > 0)
        ok &= smprof_export_walk_stacks (node_profile, syscap_stack, &self);
    }

  ok &= !self.failed && sysprof_capture_writer_flush (self.writer);
  saved_errno = errno;
  sysprof_capture_writer_unref (self.writer);

  if (!ok)
    {
      set_capture_error (error, path, saved_errno);
      return FALSE;
    }

  return TRUE;
}

/* libsysprof-capture writes to a file of its own; that file is then copied to
 * @stream, which may be anything (a GFile's replace stream, a pipe). */
gboolean
smprof_export_write_syscap (SmprofProfile  *profile,
                            GOutputStream  *stream,
                            GCancellable   *cancellable,
                            GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) input = NULL;
  gboolean ok;
  int fd;

  fd = g_file_open_tmp ("smprof-XXXXXX.syscap", &path, error);
  if (fd < 0)
    return FALSE;
  close (fd);

  ok = write_capture (profile, path, error);
  if (ok)
    {
      file = g_file_new_for_path (path);
      input = g_file_read (file, cancellable, error);
      ok = input != NULL &&
           g_output_stream_splice (stream, G_INPUT_STREAM (input), G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE,
                                   cancellable, error) >= 0;
    }

  g_unlink (path);

  return ok;
}
