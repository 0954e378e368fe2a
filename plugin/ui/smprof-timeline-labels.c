/* smprof-timeline-labels.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-private.h"
#include "smprof-timeline-ruler.h"

/* What is drawn around the plot on every frame: the ruler, the node labels
 * with the row stripes, and the legend. None is cached: each is bounded by
 * the pixels, never by the intervals. */

void
_smprof_timeline_append_text (SmprofTimeline *self,
                              GtkSnapshot    *snapshot,
                              PangoLayout    *layout,
                              const char     *text,
                              double          x,
                              double          y,
                              const GdkRGBA  *color)
{
  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

void
_smprof_timeline_draw_ruler (SmprofTimeline               *self,
                             GtkSnapshot                  *snapshot,
                             const SmprofTimelineViewport *vp,
                             double                        rows_height)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double end = vp->start + vp->span;
  GdkRGBA line = self->fg, grid = self->fg, text = self->fg;
  double step, start, range_start, range_end;
  guint n_minor;
  int h;

  line.alpha = 0.3;
  grid.alpha = 0.07;
  text.alpha = 0.8;

  _smprof_timeline_append_rect (snapshot, &line, 0, SMPROF_TIMELINE_RULER_HEIGHT - 1, width, 1);
  _smprof_timeline_append_text (self, snapshot, self->small_text,
                                self->align_by_step ? C_("axis", "Step") : C_("axis", "Time"), 8, 6, &text);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (vp->x - 1, 0, width - vp->x + 1,
                                                         SMPROF_TIMELINE_RULER_HEIGHT + rows_height));

  if (_smprof_timeline_shaded_range (self, &range_start, &range_end))
    {
      GdkRGBA band = _smprof_timeline_accent_color (self, 0.5);
      double x0 = MAX (smprof_timeline_viewport_value_to_x (vp, range_start), vp->x - 2);
      double x1 = MIN (smprof_timeline_viewport_value_to_x (vp, range_end), width + 2);

      if (x1 > x0)
        _smprof_timeline_append_rect (snapshot, &band, x0, SMPROF_TIMELINE_RULER_HEIGHT - 5, MAX (1, x1 - x0), 4);
    }

  pango_layout_set_text (self->small_text, "0", -1);
  pango_layout_get_pixel_size (self->small_text, NULL, &h);

  if (!self->align_by_step)
    {
      step = smprof_timeline_ruler_nice_step (vp->span, vp->width, 90, 0, &n_minor);
      start = ceil (vp->start / step);

      for (double k = start; k * step <= end; k++)
        {
          double t = k * step;
          double x = smprof_timeline_viewport_value_to_x (vp, t);
          g_autofree char *label = smprof_timeline_ruler_format_time (t, step);

          _smprof_timeline_append_rect (snapshot, &line, x, SMPROF_TIMELINE_RULER_HEIGHT - 9, 1, 8);
          _smprof_timeline_append_rect (snapshot, &grid, x, SMPROF_TIMELINE_RULER_HEIGHT, 1, rows_height);
          _smprof_timeline_append_text (self, snapshot, self->small_text, label, x + 3,
                                        SMPROF_TIMELINE_RULER_HEIGHT - 9 - h + 4, &text);
        }

      for (double k = floor (vp->start / (step / n_minor)); k * step / n_minor <= end; k++)
        {
          double x = smprof_timeline_viewport_value_to_x (vp, k * step / n_minor);

          _smprof_timeline_append_rect (snapshot, &line, x, SMPROF_TIMELINE_RULER_HEIGHT - 4, 1, 3);
        }
    }
  else if (self->layout != NULL)
    {
      guint n_steps = smprof_timeline_layout_get_n_steps (self->layout);

      step = smprof_timeline_ruler_nice_step (vp->span, vp->width, 48, 1, &n_minor);
      start = MAX (0, ceil (vp->start / step));

      for (double k = start; k * step <= end && k * step < n_steps; k++)
        {
          double x = smprof_timeline_viewport_value_to_x (vp, k * step);
          g_autofree char *label = smprof_timeline_layout_dup_step_label (self->layout, (guint) (k * step));

          _smprof_timeline_append_rect (snapshot, &line, x, SMPROF_TIMELINE_RULER_HEIGHT - 9, 1, 8);
          _smprof_timeline_append_rect (snapshot, &grid, x, SMPROF_TIMELINE_RULER_HEIGHT, 1, rows_height);
          _smprof_timeline_append_text (self, snapshot, self->small_text, label, x + 3,
                                        SMPROF_TIMELINE_RULER_HEIGHT - 9 - h + 4, &text);
        }
    }

  gtk_snapshot_pop (snapshot);
}

void
_smprof_timeline_draw_row_labels (SmprofTimeline *self,
                                  GtkSnapshot    *snapshot,
                                  double          rows_height)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  GdkRGBA line = self->fg, stripe = self->fg;
  guint first = _smprof_timeline_row_lower_bound (self, self->vscroll);
  PangoLayout *text;
  int text_height;
  guint every = 1;

  line.alpha = 0.12;
  stripe.alpha = 0.03;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, SMPROF_TIMELINE_RULER_HEIGHT, width, rows_height));

  /* Compact rows take the small font; when even that is taller than a row,
   * every k-th row is named, so names never overlap. */
  text = self->metrics.lane_height >= 16 ? self->text : self->small_text;
  pango_layout_set_width (text, (int) (self->label_width - 14) * PANGO_SCALE);
  pango_layout_set_text (text, "0", -1);
  pango_layout_get_pixel_size (text, NULL, &text_height);
  if (self->rows->len > 0)
    {
      double row_height = _smprof_timeline_get_row (self, 0)->height;

      every = row_height > 0 && text_height > row_height + 2 ? (guint) ceil (text_height / row_height) : 1;
    }

  for (guint r = first; r < self->rows->len; r++)
    {
      const SmprofTimelineRow *row = _smprof_timeline_get_row (self, r);
      double y = SMPROF_TIMELINE_RULER_HEIGHT + row->y - self->vscroll;
      const char *id = smprof_timeline_layout_get_node_id (self->layout, row->node);

      if (y >= SMPROF_TIMELINE_RULER_HEIGHT + rows_height)
        break;

      if (r % 2 == 1)
        _smprof_timeline_append_rect (snapshot, &stripe, 0, y, width, row->height);
      if (self->metrics.row_pad >= 2)
        _smprof_timeline_append_rect (snapshot, &line, 0, y + row->height - 1, width, 1);

      if (r % every != 0)
        continue;
      _smprof_timeline_append_text (self, snapshot, text, id, 8,
                                    floor (y + self->metrics.row_pad + (self->metrics.lane_height - text_height) / 2.0),
                                    &self->fg);
    }
  pango_layout_set_width (text, -1);

  _smprof_timeline_append_rect (snapshot, &line, self->label_width - 1, SMPROF_TIMELINE_RULER_HEIGHT, 1, rows_height);

  gtk_snapshot_pop (snapshot);
}

/* The legend's entries flow over as many lines as the width needs (a
 * French legend is a third longer than the English one, and a comparison
 * adds two entries): one line is SMPROF_TIMELINE_LEGEND_HEIGHT, each more
 * LEGEND_LINE_HEIGHT. Measuring and drawing share this walk (@snapshot
 * %NULL: measure only). Returns how many lines. */
#define LEGEND_LINE_HEIGHT 20
#define LEGEND_GROUP_GAP   6

typedef struct
{
  SmprofTimeline *self;
  GtkSnapshot    *snapshot;
  double          width;
  double          top;
  double          x;
  guint           line;
  double          right;    /* the rightmost entry's end */
} LegendFlow;

/* Where an entry of @text goes: on this line, or the next. */
static double
legend_place (LegendFlow *flow,
              const char *text,
              double     *y)
{
  int w, h;
  double entry;

  pango_layout_set_text (flow->self->small_text, text, -1);
  pango_layout_get_pixel_size (flow->self->small_text, &w, &h);
  entry = 16 + w + 14;
  if (flow->x > 8 && flow->x + entry - 14 > flow->width)
    {
      flow->line++;
      flow->x = 8;
    }
  *y = flow->top + flow->line * LEGEND_LINE_HEIGHT;
  flow->x += entry;
  flow->right = MAX (flow->right, flow->x - 14);

  return flow->x - entry;
}

static void
legend_text (LegendFlow *flow,
             const char *text,
             double      x,
             double      y)
{
  int h;

  pango_layout_set_text (flow->self->small_text, text, -1);
  pango_layout_get_pixel_size (flow->self->small_text, NULL, &h);
  _smprof_timeline_append_text (flow->self, flow->snapshot, flow->self->small_text, text, x + 16,
                                y + (SMPROF_TIMELINE_LEGEND_HEIGHT - h) / 2.0, &flow->self->fg);
}

static guint
flow_legend (SmprofTimeline *self,
             GtkSnapshot    *snapshot,
             double          width,
             double          top,
             double         *right)
{
  static const SmprofPhase phases[] = {
    SMPROF_PHASE_STEP_START, SMPROF_PHASE_FORWARD_PASS_END, SMPROF_PHASE_STEP_END,
  };
  LegendFlow flow = { self, snapshot, width, top, 8, 0, 0 };

  for (SmprofMode mode = SMPROF_MODE_TRAIN; mode <= SMPROF_MODE_POST_HOOK_CLOSE; mode++)
    {
      const char *label = smprof_timeline_get_mode_label (mode);
      double y, x = legend_place (&flow, label, &y);
      GdkRGBA color;

      if (snapshot == NULL)
        continue;
      smprof_timeline_get_mode_color (mode, self->dark, &color);
      _smprof_timeline_append_rect (snapshot, &color, x, y + 7, 12, 12);
      legend_text (&flow, label, x, y);
    }

  flow.x += LEGEND_GROUP_GAP;
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      const char *label = _smprof_timeline_phase_label (phases[i]);
      double y, x = legend_place (&flow, label, &y);
      GdkRGBA block = self->fg;

      if (snapshot == NULL)
        continue;
      block.alpha = 0.25;
      _smprof_timeline_append_rect (snapshot, &block, x, y + 9, 12, 8);
      _smprof_timeline_draw_phase_tick (self, snapshot, phases[i], phases[i] == SMPROF_PHASE_STEP_END ? x + 11 : x + 1,
                                        y + 9, 8);
      legend_text (&flow, label, x, y);
    }

  if (self->compare != NULL)
    {
      flow.x += LEGEND_GROUP_GAP;
      for (SmprofDiffSide side = SMPROF_DIFF_A; side <= SMPROF_DIFF_B; side++)
        {
          const char *label = _smprof_timeline_compare_side_label (side);
          double y, x = legend_place (&flow, label, &y);

          if (snapshot == NULL)
            continue;
          _smprof_timeline_draw_compare_swatch (self, snapshot, side, x, y);
          legend_text (&flow, label, x, y);
        }
    }

  if (right != NULL)
    *right = flow.right;

  return flow.line + 1;
}

/* The legend's height at the timeline's width: every entry shown whole. */
double
_smprof_timeline_legend_height (SmprofTimeline *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  gboolean comparing = self->compare != NULL;

  /* Every hit test and scroll asks: lay the entries out only when the width
   * or the entries changed. */
  if (width != self->legend_width || comparing != self->legend_comparing || self->legend_lines == 0)
    {
      self->legend_lines = width > 0 ? flow_legend (self, NULL, width, 0, NULL) : 1;
      self->legend_width = width;
      self->legend_comparing = comparing;
    }

  return SMPROF_TIMELINE_LEGEND_HEIGHT + (self->legend_lines - 1) * LEGEND_LINE_HEIGHT;
}

void
_smprof_timeline_draw_legend (SmprofTimeline *self,
                              GtkSnapshot    *snapshot)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = _smprof_timeline_legend_height (self);
  double y = gtk_widget_get_height (GTK_WIDGET (self)) - height;
  GdkRGBA line = self->fg;

  line.alpha = 0.15;
  _smprof_timeline_append_rect (snapshot, &line, 0, y, width, 1);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, y, width, height));
  flow_legend (self, snapshot, width, y, NULL);
  gtk_snapshot_pop (snapshot);
}

/* For the tests: how many lines the legend takes, and where its rightmost
 * entry ends (inside the width: nothing cut). */
guint
_smprof_timeline_get_legend_lines (SmprofTimeline *self,
                                   double         *right)
{
  return flow_legend (self, NULL, gtk_widget_get_width (GTK_WIDGET (self)), 0, right);
}
