/* smprof-flame-graph-diff.c: the flame graph drawing a comparison: frames
 * from the differential tree, coloured by B − A, tooltips with both sides
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-diff-export.h"
#include "smprof-flame-graph-private.h"
#include "smprof-ui-format.h"

/* The colours' scale is the largest change in the whole tree, computed once
 * per diff rather than per frame. */
void
_smprof_flame_graph_diff_color (SmprofFlameGraph *self,
                                guint32           node,
                                double            rgb[3],
                                gboolean         *dashed)
{
  smprof_diff_frame_color (self->diff, node, self->min_delta, self->max_delta, rgb);
  *dashed = smprof_diff_get_frame (self->diff, node)->sides == SMPROF_DIFF_IN_A;
}

/* A frame's two sides, its change and ratio. @head is the name and place
 * lines as the normal details write them. */
char *
_smprof_flame_graph_diff_dup_details (SmprofFlameGraph *self,
                                      guint32           node,
                                      const char       *head,
                                      gboolean          markup)
{
  const SmprofDiffFrame *frame = smprof_diff_get_frame (self->diff, node);
  double a = frame->total[SMPROF_DIFF_A];
  double b = frame->total[SMPROF_DIFF_B];
  double ratio = smprof_diff_ratio (a, b);
  g_autofree char *a_text = smprof_ui_format_duration (a);
  g_autofree char *b_text = smprof_ui_format_duration (b);
  g_autofree char *delta_text = smprof_ui_format_duration (fabs (b - a));
  g_autofree char *ratio_text = isfinite (ratio) ? g_strdup_printf ("×%.2f", ratio) : g_strdup ("—");
  const char *sides = "";

  if (frame->sides == SMPROF_DIFF_IN_A)
    sides = _(" · only in A");
  else if (frame->sides == SMPROF_DIFF_IN_B)
    sides = _(" · only in B");

  /* Translators: a frame of a comparison: its total time in selection A and
   * in B, the change B − A with its sign, and the ratio B / A, as in
   * "A: 1.20 s · B: 1.50 s · Δ: +300 ms · Ratio: ×1.25" */
  return g_strdup_printf (markup ? _("%sA: %s\nB: %s\nΔ: %s%s\nRatio: %s%s")
                                 : _("%sA: %s · B: %s · Δ: %s%s · Ratio: %s%s"),
                          head, a_text, b_text, b - a < 0 ? "−" : "+", delta_text, ratio_text, sides);
}

/* Dashes around a frame only A has: what B lost, drawn at A's width. */
void
_smprof_flame_graph_diff_draw_dashes (SmprofFlameGraph      *self,
                                      GtkSnapshot           *snapshot,
                                      const graphene_rect_t *area)
{
  cairo_t *cr;
  double text_rgb[3];

  if (area->size.width < 3 || area->size.height < 3)
    return;

  smprof_flame_text_color (self->dark, text_rgb);
  cr = gtk_snapshot_append_cairo (snapshot, area);
  cairo_set_source_rgba (cr, text_rgb[0], text_rgb[1], text_rgb[2], 0.8);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, (const double[]) { 3, 2 }, 2, 0);
  cairo_rectangle (cr, area->origin.x + 0.5, area->origin.y + 0.5,
                   area->size.width - 2, area->size.height - 2);
  cairo_stroke (cr);
  cairo_destroy (cr);
}

/**
 * smprof_flame_graph_set_diff:
 * @self: a flame graph
 * @diff: (nullable): the comparison to draw, or %NULL for the profile again
 *
 * Draws @diff's differential tree: B's time as the width (and A's for the
 * stacks only A has, outlined with dashes), red where B is slower, blue where
 * it is faster, grey under the minimum change.
 */
void
smprof_flame_graph_set_diff (SmprofFlameGraph *self,
                             SmprofDiff       *diff)
{
  g_autoptr(SmprofDiff) old_diff = NULL;

  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (self));
  g_return_if_fail (diff == NULL || SMPROF_IS_DIFF (diff));

  if (diff == self->diff)
    return;

  /* The layout points into the old tree until it is replaced. */
  old_diff = g_steal_pointer (&self->diff);
  self->diff = diff != NULL ? g_object_ref (diff) : NULL;
  self->max_delta = diff != NULL ? smprof_diff_get_max_frame_delta (diff) : 0;

  _smprof_flame_graph_reset_tree (self);
}

SmprofDiff *
smprof_flame_graph_get_diff (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), NULL);

  return self->diff;
}

/**
 * smprof_flame_graph_set_min_delta:
 * @self: a flame graph
 * @seconds: changes smaller than this (after normalisation) are drawn grey
 */
void
smprof_flame_graph_set_min_delta (SmprofFlameGraph *self,
                                  double            seconds)
{
  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (self));

  seconds = MAX (seconds, 0);
  if (seconds == self->min_delta)
    return;

  self->min_delta = seconds;
  if (self->diff != NULL)
    _smprof_flame_graph_invalidate_render (self);
}
