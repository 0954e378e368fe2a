/* smprof-diff-export.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-diff-export.h"
#include "smprof-export-private.h"
#include "smprof-json-writer.h"
#include "smprof-query.h"
#include "smprof-stats-json.h"

/**
 * smprof_diff_export_options_init:
 * @options: (out caller-allocates): the options to fill
 *
 * The defaults: every function, sorted by the largest change of self time,
 * and a 1200-pixel flame graph with frames under 0.1 pixel left out.
 */
void
smprof_diff_export_options_init (SmprofDiffExportOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->metric = SMPROF_DIFF_METRIC_TOTTIME;
  options->sort = SMPROF_DIFF_COLUMN_ABS_DELTA;
  options->limit = -1;
  options->direction = SMPROF_FLAME_DIRECTION_UP;
  options->width = 1200;
  options->min_frame_width = 0.1;
}

/* Whether a function's self or cumulative time changed by @min_delta or more. */
gboolean
smprof_diff_row_passes (const SmprofDiffRow *row,
                        double               min_delta)
{
  g_return_val_if_fail (row != NULL, FALSE);

  return min_delta <= 0 ||
         fabs (row->tottime[SMPROF_DIFF_B] - row->tottime[SMPROF_DIFF_A]) >= min_delta ||
         fabs (row->cumtime[SMPROF_DIFF_B] - row->cumtime[SMPROF_DIFF_A]) >= min_delta;
}

static const char *
sides_to_string (SmprofDiffSides sides)
{
  return sides == SMPROF_DIFF_IN_BOTH ? "both" : sides == SMPROF_DIFF_IN_A ? "a" : "b";
}

/* ------------------------------------------------------------------ JSON */

static void
write_side (SmprofJsonWriter *writer,
            SmprofDiff       *diff,
            SmprofDiffSide    side,
            const char       *label)
{
  SmprofProfile *profile = smprof_diff_get_profile (diff, side);
  const char * const *node_ids = smprof_profile_get_node_ids (profile);
  GPtrArray *records = smprof_profile_get_records (profile);

  smprof_json_writer_begin_object (writer);
  smprof_json_writer_member (writer, "selection");
  if (label != NULL)
    smprof_json_writer_string (writer, label);
  else
    smprof_json_writer_null (writer);
  smprof_stats_json_write_selection (writer, node_ids, records);
  smprof_json_writer_member (writer, "n_intervals");
  smprof_json_writer_int (writer, records->len);
  smprof_json_writer_member (writer, "n_steps");
  smprof_json_writer_int (writer, smprof_diff_get_n_steps (diff, side));
  smprof_json_writer_member (writer, "divisor");
  smprof_json_writer_double (writer, smprof_diff_get_divisor (diff, side));
  smprof_json_writer_member (writer, "total_time");
  smprof_json_writer_double (writer, smprof_diff_get_total_time (diff, side));
  smprof_json_writer_end_object (writer);
}

/* A count Pyinstrument does not have is null; a ratio with no value (0/0,
 * x/0) is null too, the "in" member says which side has the function. */
static void
write_number (SmprofJsonWriter *writer,
              const char       *name,
              double            value,
              gboolean          known)
{
  smprof_json_writer_member (writer, name);
  if (known && isfinite (value))
    smprof_json_writer_double (writer, value);
  else
    smprof_json_writer_null (writer);
}

static void
write_values (SmprofJsonWriter    *writer,
              const char          *name,
              const SmprofDiffRow *row,
              int                  which)   /* a side, or -1 delta, -2 ratio */
{
  gboolean counted = row->ncalls[SMPROF_DIFF_A] >= 0 && row->ncalls[SMPROF_DIFF_B] >= 0;

  smprof_json_writer_member (writer, name);
  smprof_json_writer_begin_object (writer);
  for (SmprofDiffMetric metric = SMPROF_DIFF_METRIC_TOTTIME; metric <= SMPROF_DIFF_METRIC_NCALLS; metric++)
    {
      double v[2];
      double value;

      smprof_diff_row_get (row, metric, v);
      if (which >= 0)
        value = v[which];
      else if (which == -1)
        value = v[SMPROF_DIFF_B] - v[SMPROF_DIFF_A];
      else
        value = smprof_diff_ratio (v[SMPROF_DIFF_A], v[SMPROF_DIFF_B]);

      write_number (writer, smprof_diff_metric_to_string (metric), value,
                    metric != SMPROF_DIFF_METRIC_NCALLS || counted);
    }
  smprof_json_writer_end_object (writer);
}

static void
write_frame_values (SmprofJsonWriter         *writer,
                    guint32                   index,
                    const SmprofCallTreeNode *node,
                    gpointer                  user_data)
{
  const SmprofDiffFrame *frame = smprof_diff_get_frame (user_data, index);

  smprof_json_writer_member (writer, "in");
  smprof_json_writer_string (writer, sides_to_string (frame->sides));
  smprof_json_writer_member (writer, "a");
  smprof_json_writer_double (writer, frame->total[SMPROF_DIFF_A]);
  smprof_json_writer_member (writer, "b");
  smprof_json_writer_double (writer, frame->total[SMPROF_DIFF_B]);
  smprof_json_writer_member (writer, "a_self");
  smprof_json_writer_double (writer, frame->self[SMPROF_DIFF_A]);
  smprof_json_writer_member (writer, "b_self");
  smprof_json_writer_double (writer, frame->self[SMPROF_DIFF_B]);
  smprof_json_writer_member (writer, "delta");
  smprof_json_writer_double (writer, frame->total[SMPROF_DIFF_B] - frame->total[SMPROF_DIFF_A]);
}

/**
 * smprof_diff_write_json:
 * @diff: a comparison
 * @options: the sort, limit and minimum change of the functions
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Writes `{"profiler", "normalize", "normalize_requested", "estimated", "a": {...}, "b": {...},
 * "functions": [...], "tree": [...]}`: each side's selection, nodes,
 * intervals, step count, divisor and total time; per function its key, the
 * sides it is in, and "a", "b", "delta" (B − A) and "ratio" (B / A, null when
 * undefined) of tottime, cumtime and ncalls; the differential tree with A and
 * B times per frame. All numbers are normalised.
 *
 * Returns: %FALSE on a write error
 */
gboolean
smprof_diff_write_json (SmprofDiff                     *diff,
                        const SmprofDiffExportOptions  *options,
                        GOutputStream                  *stream,
                        GCancellable                   *cancellable,
                        GError                        **error)
{
  SmprofJsonWriter *writer = smprof_json_writer_new (FALSE);
  SmprofFunctionKeys *table = smprof_diff_get_function_keys (diff);
  SmprofProfile *a = smprof_diff_get_profile (diff, SMPROF_DIFF_A);
  g_autoptr(GArray) order = smprof_diff_sorted (diff, options->metric, options->sort);
  g_autofree char *text = NULL;
  guint written = 0;

  smprof_json_writer_begin_object (writer);
  smprof_json_writer_member (writer, "profiler");
  smprof_json_writer_string (writer, smprof_profiler_to_string (smprof_profile_get_profiler (a)));
  smprof_json_writer_member (writer, "normalize");
  smprof_json_writer_string (writer, smprof_diff_normalize_to_string (smprof_diff_get_normalize (diff)));
  smprof_json_writer_member (writer, "normalize_requested");
  smprof_json_writer_string (writer, smprof_diff_normalize_to_string (smprof_diff_get_requested_normalize (diff)));
  smprof_json_writer_member (writer, "estimated");
  smprof_json_writer_boolean (writer, smprof_profile_is_estimated (a));
  smprof_json_writer_member (writer, "a");
  write_side (writer, diff, SMPROF_DIFF_A, options->a_label);
  smprof_json_writer_member (writer, "b");
  write_side (writer, diff, SMPROF_DIFF_B, options->b_label);

  smprof_json_writer_member (writer, "functions");
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < order->len && (options->limit < 0 || written < (guint) options->limit); i++)
    {
      const SmprofDiffRow *row = smprof_diff_get_row (diff, g_array_index (order, guint, i));

      if (!smprof_diff_row_passes (row, options->min_delta))
        continue;

      written++;
      smprof_json_writer_begin_object (writer);
      smprof_stats_json_write_function_key (writer, table, row->func);
      smprof_json_writer_member (writer, "in");
      smprof_json_writer_string (writer, sides_to_string (row->sides));
      write_values (writer, "a", row, SMPROF_DIFF_A);
      write_values (writer, "b", row, SMPROF_DIFF_B);
      write_values (writer, "delta", row, -1);
      write_values (writer, "ratio", row, -2);
      smprof_json_writer_end_object (writer);
    }
  smprof_json_writer_end_array (writer);

  smprof_json_writer_member (writer, "tree");
  smprof_stats_json_write_tree (writer, smprof_diff_get_tree (diff), write_frame_values, diff);
  smprof_json_writer_end_object (writer);

  text = smprof_json_writer_free_to_string (writer);

  return g_output_stream_write_all (stream, text, strlen (text), NULL, cancellable, error) &&
         g_output_stream_write_all (stream, "\n", 1, NULL, cancellable, error);
}

/* ------------------------------------------------------------------ difffolded */

typedef struct
{
  SmprofFunctionKeys *table;
  GHashTable         *index;     /* stack text -> position + 1 in stacks */
  GPtrArray          *stacks;    /* char *, in first-seen order */
  GArray             *weights;   /* double[2] per stack */
  GString            *line;
  double              divisor;
  SmprofDiffSide      side;
} Folded;

static gboolean
fold_stack (const guint32 *funcs,
            guint          depth,
            double         weight,
            gpointer       user_data)
{
  Folded *self = user_data;
  double *slot;
  gpointer found;

  if (!(weight > 0))
    return TRUE;

  g_string_truncate (self->line, 0);
  for (guint i = 0; i < depth; i++)
    {
      g_autofree char *raw = smprof_export_dup_frame_label (self->table, funcs[i]);
      g_autofree char *label = g_utf8_make_valid (raw, -1);

      /* The same rules as the folded export: ';' parts frames, ' ' ends the stack's text. */
      g_strdelimit (label, ";", ',');
      g_strdelimit (label, "\r\n", ' ');
      if (i > 0)
        g_string_append_c (self->line, ';');
      g_string_append (self->line, label);
    }

  found = g_hash_table_lookup (self->index, self->line->str);
  if (found == NULL)
    {
      double zero[2] = { 0, 0 };
      char *stack = g_strdup (self->line->str);

      g_ptr_array_add (self->stacks, stack);
      g_array_append_vals (self->weights, zero, 1);
      found = GUINT_TO_POINTER (self->stacks->len);
      g_hash_table_insert (self->index, stack, found);
    }

  slot = &g_array_index (self->weights, double, 2 * (GPOINTER_TO_UINT (found) - 1));
  slot[self->side] += weight / self->divisor;

  return TRUE;
}

/**
 * smprof_diff_write_folded:
 * @diff: a comparison
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Writes Brendan Gregg's difffolded format, the input of `flamegraph.pl`
 * for a differential flame graph: `frame;frame;frame A B` per stack, A and B
 * its self time on each side in whole microseconds (normalised), stacks in
 * the order the profiles first give them, A's first.
 *
 * Returns: %FALSE on a write error
 */
gboolean
smprof_diff_write_folded (SmprofDiff     *diff,
                          GOutputStream  *stream,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) stacks = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, 2 * sizeof (double));
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  Folded folded = { smprof_diff_get_function_keys (diff), index, stacks, weights, line, 1, SMPROF_DIFF_A };

  for (SmprofDiffSide side = SMPROF_DIFF_A; side <= SMPROF_DIFF_B; side++)
    {
      folded.side = side;
      folded.divisor = smprof_diff_get_divisor (diff, side);
      smprof_export_walk_stacks (smprof_diff_get_profile (diff, side), fold_stack, &folded);
    }

  for (guint i = 0; i < stacks->len; i++)
    {
      const double *w = &g_array_index (weights, double, 2 * i);
      gint64 a = llround (w[SMPROF_DIFF_A] * 1e6);
      gint64 b = llround (w[SMPROF_DIFF_B] * 1e6);

      if (a == 0 && b == 0)
        continue;

      g_string_append_printf (out, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n",
                              (const char *) g_ptr_array_index (stacks, i), a, b);
      if (out->len > 256 * 1024)
        {
          if (!g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
            return FALSE;
          g_string_truncate (out, 0);
        }
    }

  return g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error);
}

/* ------------------------------------------------------------------ SVG */

/**
 * smprof_diff_get_max_frame_delta:
 * @diff: a comparison
 *
 * Returns: the largest |B − A| of a frame's time, which the strongest colour
 *   stands for
 */
double
smprof_diff_get_max_frame_delta (SmprofDiff *diff)
{
  SmprofCallTree *tree = smprof_diff_get_tree (diff);
  double max = 0;

  for (guint32 i = 1; i < smprof_call_tree_get_n_nodes (tree); i++)
    {
      const SmprofDiffFrame *frame = smprof_diff_get_frame (diff, i);

      max = MAX (max, fabs (frame->total[SMPROF_DIFF_B] - frame->total[SMPROF_DIFF_A]));
    }

  return max;
}

/**
 * smprof_diff_frame_color:
 * @diff: a comparison
 * @node: a frame of its tree
 * @min_delta: changes under this are grey
 * @max_delta: the change the strongest colour stands for
 * @rgb: (out caller-allocates): the fill
 *
 * Red where B spent more time in the frame (its callees included) than A,
 * blue where less, as flamegraph.pl's differential graphs; the colour deepens
 * with |B − A| / @max_delta. The deepest red and blue keep a WCAG contrast of
 * 4.5:1 or more with black labels.
 */
void
smprof_diff_frame_color (SmprofDiff *diff,
                         guint32     node,
                         double      min_delta,
                         double      max_delta,
                         double      rgb[3])
{
  const SmprofDiffFrame *frame = smprof_diff_get_frame (diff, node);
  double delta = frame->total[SMPROF_DIFF_B] - frame->total[SMPROF_DIFF_A];
  double strength, pale;

  if (delta == 0 || fabs (delta) < min_delta || !(max_delta > 0))
    {
      rgb[0] = rgb[1] = rgb[2] = 0.84;
      return;
    }

  strength = CLAMP (fabs (delta) / max_delta, 0.0, 1.0);
  /* From almost white to the deepest tone; 0.4 keeps the contrast. */
  pale = 0.92 - strength * (0.92 - 0.4);
  if (delta > 0)
    {
      rgb[0] = 1.0;
      rgb[1] = rgb[2] = pale;
    }
  else
    {
      rgb[0] = rgb[1] = pale;
      rgb[2] = 1.0;
    }
}

typedef struct
{
  SmprofDiff *diff;
  double      min_delta;
  double      max_delta;
} Style;

static void
style_color (guint32   node,
             double    rgb[3],
             gboolean *dashed,
             gpointer  user_data)
{
  Style *style = user_data;

  smprof_diff_frame_color (style->diff, node, style->min_delta, style->max_delta, rgb);
  *dashed = smprof_diff_get_frame (style->diff, node)->sides == SMPROF_DIFF_IN_A;
}

static void
append_ms (GString *out,
           double   seconds)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (out, "%s ms", g_ascii_formatd (buffer, sizeof buffer, "%.3f", seconds * 1000));
}

static void
style_describe (guint32   node,
                GString  *out,
                gpointer  user_data)
{
  Style *style = user_data;
  const SmprofDiffFrame *frame = smprof_diff_get_frame (style->diff, node);
  double delta = frame->total[SMPROF_DIFF_B] - frame->total[SMPROF_DIFF_A];
  double ratio = smprof_diff_ratio (frame->total[SMPROF_DIFF_A], frame->total[SMPROF_DIFF_B]);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, "A ");
  append_ms (out, frame->total[SMPROF_DIFF_A]);
  g_string_append (out, ", B ");
  append_ms (out, frame->total[SMPROF_DIFF_B]);
  g_string_append (out, ", B − A ");
  if (delta >= 0)
    g_string_append_c (out, '+');
  append_ms (out, delta);
  if (isfinite (ratio))
    g_string_append_printf (out, " (×%s)", g_ascii_formatd (buffer, sizeof buffer, "%.2f", ratio));
  if (frame->sides == SMPROF_DIFF_IN_A)
    g_string_append_printf (out, " · %s", _("only in A"));
  else if (frame->sides == SMPROF_DIFF_IN_B)
    g_string_append_printf (out, " · %s", _("only in B"));
}

/* "A: train steps 3–5 (0-algo-1, 6 intervals, 1.234 s)": a side named by its
 * label, or by its steps when it has none (a time range), with its total. */
static char *
dup_side_line (SmprofDiff     *diff,
               SmprofDiffSide  side,
               const char     *label)
{
  SmprofProfile *profile = smprof_diff_get_profile (diff, side);
  g_autofree char *nodes = g_strjoinv (", ", (char **) smprof_profile_get_node_ids (profile));
  g_autofree char *steps = label == NULL ? smprof_records_describe_steps (smprof_profile_get_records (profile)) : NULL;
  guint n = smprof_profile_get_records (profile)->len;
  g_autofree char *intervals = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", n), n);
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("%s: %s (%s, %s, %s s)", side == SMPROF_DIFF_A ? "A" : "B",
                          label != NULL ? label : steps, nodes, intervals,
                          g_ascii_formatd (number, sizeof number, "%.3f", smprof_profile_get_total_time (profile)));
}

/* What the colours and outlines of the differential graph mean. */
static SmprofFlameLegend *
new_diff_legend (double min_delta)
{
  SmprofFlameLegend *legend = smprof_flame_legend_new (_("Colour: B − A:"));
  static const double slower[3] = { 1.0, 0.55, 0.55 };
  static const double faster[3] = { 0.55, 0.55, 1.0 };
  static const double same[3] = { 0.84, 0.84, 0.84 };
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *under = g_strdup_printf (_("change under %s ms"),
                                            g_ascii_formatd (buffer, sizeof buffer, "%.3f", min_delta * 1000));

  smprof_flame_legend_add (legend, slower, FALSE, _("slower in B"));
  smprof_flame_legend_add (legend, faster, FALSE, _("faster in B"));
  smprof_flame_legend_add (legend, same, FALSE, under);
  smprof_flame_legend_add (legend, same, TRUE, _("only in A (A’s width)"));

  return legend;
}

/**
 * smprof_diff_write_svg:
 * @diff: a comparison
 * @options: the picture's options
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Draws the differential flame graph with the flame graph's own layout and
 * SVG writer: frame widths from B (a stack B lacks keeps its A width and a
 * dashed outline), colours from B − A (smprof_diff_frame_color()), a subtitle
 * naming A and B, and a note that says how to read it.
 *
 * Returns: %FALSE on a write error
 */
gboolean
smprof_diff_write_svg (SmprofDiff                     *diff,
                       const SmprofDiffExportOptions  *options,
                       GOutputStream                  *stream,
                       GCancellable                   *cancellable,
                       GError                        **error)
{
  Style style = { diff, options->min_delta, smprof_diff_get_max_frame_delta (diff) };
  SmprofFlameStyle flame_style = { style_color, style_describe, &style };
  g_autofree char *a_line = dup_side_line (diff, SMPROF_DIFF_A, options->a_label);
  g_autofree char *b_line = dup_side_line (diff, SMPROF_DIFF_B, options->b_label);
  g_autofree char *subtitle = NULL;
  g_autofree char *note = NULL;
  g_autoptr(GString) per = g_string_new (NULL);
  g_autoptr(SmprofFlameLayout) layout = NULL;
  g_autoptr(SmprofFlameLegend) legend = new_diff_legend (options->min_delta);
  SmprofFlameRenderOptions render = {
    .title = options->title != NULL ? options->title : _("Differential flame graph"),
    .direction = options->direction,
    .width = options->width,
    .style = &flame_style,
  };
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  switch (smprof_diff_get_normalize (diff))
    {
    case SMPROF_DIFF_NORMALIZE_STEP:
      g_string_append_printf (per, " · %s", _("per step"));
      break;
    case SMPROF_DIFF_NORMALIZE_INTERVAL:
      g_string_append_printf (per, " · %s", _("per interval"));
      break;
    case SMPROF_DIFF_NORMALIZE_AUTO: /* resolved by smprof_diff_new() */
    case SMPROF_DIFF_NORMALIZE_NONE:
    default:
      break;
    }

  subtitle = g_strdup_printf ("%s · %s%s", a_line, b_line, per->str);
  note = g_strdup_printf (_("Width: B’s time (frames only in A: A’s, dashed) · red: slower in B, "
                            "blue: faster · grey: change under %s ms%s"),
                          g_ascii_formatd (buffer, sizeof buffer, "%.3f", options->min_delta * 1000),
                          smprof_profile_is_estimated (smprof_diff_get_profile (diff, SMPROF_DIFF_A))
                          ? _(" · call trees estimated from cProfile’s call graph") : "");
  render.subtitle = subtitle;
  render.note = note;
  render.legend = legend;

  layout = smprof_flame_layout_new (smprof_diff_get_tree (diff), SMPROF_CALL_TREE_ROOT,
                                    options->min_frame_width / smprof_flame_render_get_frames_width (&render));

  return smprof_flame_render_svg (layout, &render, stream, cancellable, error);
}
