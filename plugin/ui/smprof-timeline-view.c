/* smprof-timeline-view.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "smprof-timeline-private.h"

/* What part of the axis and of the rows is shown: the fit, zoom and
 * scrolling, the GtkScrollable adjustments that follow them, and which
 * zoom and selection actions are enabled. */

#define MIN_SPAN_TIME_US 10.0
#define MIN_SPAN_STEP    0.01
#define ZOOM_FACTOR      1.5

static double
min_span (SmprofTimeline *self)
{
  return self->align_by_step ? MIN_SPAN_STEP : MIN_SPAN_TIME_US;
}

/* The view ----------------------------------------------------------------- */

static void
get_fit (SmprofTimeline *self,
         double         *start,
         double         *end)
{
  g_autofree guint *nodes = NULL;
  guint n_nodes = 0;
  double s = 0, e = 1;

  if (self->layout != NULL && self->rows->len > 0)
    {
      nodes = _smprof_timeline_dup_row_nodes (self, &n_nodes);
      if (!smprof_timeline_layout_get_extent (self->layout, _smprof_timeline_axis (self), nodes, n_nodes, &s, &e))
        {
          s = 0;
          e = 1;
        }

      /* Steps before or after the profiled intervals are shown too. */
      for (guint i = 0; self->steps != NULL && i < n_nodes; i++)
        {
          double ss, se;

          if (smprof_timeline_steps_get_extent (self->steps, _smprof_timeline_axis (self), nodes[i], &ss, &se))
            {
              s = MIN (s, ss);
              e = MAX (e, se);
            }
        }
    }

  if (e - s < min_span (self))
    {
      double mid = (s + e) / 2;

      s = mid - min_span (self) / 2;
      e = mid + min_span (self) / 2;
    }

  *start = s;
  *end = e;
}

/* The training loop's extent on the shown nodes: every interval but those
 * starting at the job's start (initialization) or ending at its end
 * (finalization), as the Training loop preset selects. */
static gboolean
get_training_extent (SmprofTimeline *self,
                     double         *start,
                     double         *end)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  double s = INFINITY, e = -INFINITY;

  if (self->layout == NULL)
    return FALSE;

  for (guint r = 0; r < self->rows->len; r++)
    {
      guint node = _smprof_timeline_get_row (self, r)->node;

      for (guint lane = 0; lane < smprof_timeline_layout_get_n_lanes (self->layout, node); lane++)
        {
          guint n;
          const SmprofTimelineItem *items = smprof_timeline_layout_get_lane (self->layout, node, lane, &n);

          for (guint i = 0; i < n; i++)
            {
              const SmprofIntervalName *name = &items[i].record->name;

              if (name->start_phase == SMPROF_PHASE_START || name->end_phase == SMPROF_PHASE_END)
                continue;
              s = MIN (s, items[i].start[axis]);
              e = MAX (e, items[i].end[axis]);
            }
        }
    }

  if (!(e > s))
    return FALSE;

  *start = s;
  *end = e;
  return TRUE;
}

/**
 * smprof_timeline_frame_training_loop:
 * @self: a timeline
 *
 * Shows the training loop of the shown nodes, with a small margin: the view
 * a job opens on, since initialization and finalization (a model's loading,
 * the hook's closing) often take most of the wall clock. The view follows
 * the training loop (other nodes, the other axis) until the user zooms or
 * scrolls; smprof_timeline_zoom_reset() shows everything. Without any
 * training-loop interval, it shows everything.
 */
void
smprof_timeline_frame_training_loop (SmprofTimeline *self)
{
  double start, end, margin;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  if (!get_training_extent (self, &start, &end))
    {
      _smprof_timeline_reset_view (self);
      return;
    }

  margin = (end - start) * 0.02;
  self->in_framing = TRUE;
  _smprof_timeline_set_view (self, start - margin, end - start + 2 * margin);
  self->in_framing = FALSE;
  self->view_training = TRUE;
}

/* The rows or the axis changed: the view follows what it was framing. */
void
_smprof_timeline_refit_view (SmprofTimeline *self)
{
  if (self->view_training)
    smprof_timeline_frame_training_loop (self);
  else if (self->view_fit)
    _smprof_timeline_reset_view (self);
  else
    _smprof_timeline_set_view (self, self->view_start, self->view_span);
}

void
_smprof_timeline_set_view (SmprofTimeline *self,
                           double          start,
                           double          span)
{
  double fs, fe;

  if (!self->in_framing)
    self->view_training = FALSE;

  get_fit (self, &fs, &fe);

  if (!(span > 0) || span >= fe - fs)
    {
      span = fe - fs;
      start = fs;
      self->view_fit = TRUE;
    }
  else
    {
      span = MAX (span, min_span (self));
      start = CLAMP (start, fs, fe - span);
      self->view_fit = FALSE;
    }

  if (start != self->view_start || span != self->view_span)
    {
      self->view_start = start;
      self->view_span = span;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      _smprof_timeline_view_changed (self);
    }

  _smprof_timeline_update_adjustments (self);
  _smprof_timeline_update_action_states (self);
}

/**
 * smprof_timeline_get_full_extent:
 * @self: a timeline
 * @start: (out): where the shown nodes' intervals (and steps) start, on the
 *   current axis
 * @end: (out): where they end
 *
 * What smprof_timeline_zoom_reset() shows: the whole wall clock (or every
 * step).
 */
void
smprof_timeline_get_full_extent (SmprofTimeline *self,
                                 double         *start,
                                 double         *end)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  get_fit (self, start, end);
}

void
_smprof_timeline_reset_view (SmprofTimeline *self)
{
  double fs, fe;

  get_fit (self, &fs, &fe);
  _smprof_timeline_set_view (self, fs, fe - fs);
}

void
_smprof_timeline_zoom_around (SmprofTimeline *self,
                              double          factor,
                              double          value)
{
  double span = self->view_span / factor;

  span = MAX (span, min_span (self));
  _smprof_timeline_set_view (self, value - (value - self->view_start) * span / self->view_span, span);
}

void
_smprof_timeline_set_vscroll (SmprofTimeline *self,
                              double          vscroll)
{
  double max = MAX (0, self->content_height - _smprof_timeline_rows_height (self));

  vscroll = CLAMP (vscroll, 0, max);
  if (vscroll != self->vscroll)
    {
      self->vscroll = vscroll;
      self->hover_item = NULL;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  _smprof_timeline_update_adjustments (self);
}

void
_smprof_timeline_update_adjustments (SmprofTimeline *self)
{
  double fs, fe, scale, width, rows_height;

  if (self->in_adjustment_update)
    return;
  self->in_adjustment_update = TRUE;

  get_fit (self, &fs, &fe);
  width = _smprof_timeline_plot_width (self);
  scale = width / self->view_span;

  if (self->hadjustment != NULL)
    gtk_adjustment_configure (self->hadjustment,
                              (self->view_start - fs) * scale,
                              0, (fe - fs) * scale,
                              width * 0.1, width * 0.9, width);

  rows_height = _smprof_timeline_rows_height (self);
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (self->vadjustment,
                              self->vscroll,
                              0, MAX (self->content_height, rows_height),
                              self->metrics.lane_height, rows_height * 0.9, rows_height);

  self->in_adjustment_update = FALSE;
}

void
_smprof_timeline_hadjustment_value_changed_cb (SmprofTimeline *self,
                                               GtkAdjustment  *adjustment)
{
  double fs, fe;

  if (self->in_adjustment_update)
    return;

  get_fit (self, &fs, &fe);
  _smprof_timeline_set_view (self,
                             fs + gtk_adjustment_get_value (adjustment) * self->view_span / _smprof_timeline_plot_width (self),
                             self->view_span);
}

void
_smprof_timeline_vadjustment_value_changed_cb (SmprofTimeline *self,
                                               GtkAdjustment  *adjustment)
{
  if (self->in_adjustment_update)
    return;

  _smprof_timeline_set_vscroll (self, gtk_adjustment_get_value (adjustment));
}

void
_smprof_timeline_set_adjustment (SmprofTimeline  *self,
                                 GtkAdjustment  **slot,
                                 GtkAdjustment   *adjustment,
                                 GCallback        callback,
                                 GParamSpec      *pspec)
{
  if (adjustment != NULL && adjustment == *slot)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, callback, self);
      g_clear_object (slot);
    }

  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);

  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_object (adjustment, "value-changed", callback, self, G_CONNECT_SWAPPED);
  _smprof_timeline_update_adjustments (self);
  if (pspec != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

void
_smprof_timeline_update_action_states (SmprofTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_selection = self->selection != NULL;
  double start, end;

  gtk_widget_action_set_enabled (widget, "timeline.clear-selection", has_selection);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-to-selection",
                                 has_selection && _smprof_timeline_selection_span (self, &start, &end));
  gtk_widget_action_set_enabled (widget, "timeline.zoom-in",
                                 self->layout != NULL && self->view_span > min_span (self) * 1.0001);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-out", !self->view_fit);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-reset", !self->view_fit);
}

/* Public API ------------------------------------------------------------------------ */

static double
zoom_center (SmprofTimeline *self)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  const SmprofTimelineItem *focus = self->focus_item;

  if (focus != NULL && focus->end[axis] >= self->view_start && focus->start[axis] <= self->view_start + self->view_span)
    return CLAMP ((focus->start[axis] + focus->end[axis]) / 2, self->view_start, self->view_start + self->view_span);

  return self->view_start + self->view_span / 2;
}

void
smprof_timeline_zoom_in (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  _smprof_timeline_zoom_around (self, ZOOM_FACTOR, zoom_center (self));
}

void
smprof_timeline_zoom_out (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  _smprof_timeline_zoom_around (self, 1 / ZOOM_FACTOR, zoom_center (self));
}

/* Fit every shown interval. */
void
smprof_timeline_zoom_reset (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  _smprof_timeline_reset_view (self);
}

/* Fit the selection (its range, or its intervals), with a small margin;
 * while comparing, side A's intervals too, so both sides are in view. */
void
smprof_timeline_zoom_to_selection (SmprofTimeline *self)
{
  double start, end, margin, a_start, a_end;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  if (!_smprof_timeline_selection_span (self, &start, &end))
    return;
  if (_smprof_timeline_compare_span (self, &a_start, &a_end))
    {
      start = MIN (start, a_start);
      end = MAX (end, a_end);
    }

  margin = MAX ((end - start) * 0.05, min_span (self) / 2);
  _smprof_timeline_set_view (self, start - margin, end - start + 2 * margin);
}

/**
 * smprof_timeline_get_visible_range:
 * @start: (out): the left edge, on the current axis (µs since the job's
 *   start, or step position)
 * @end: (out): the right edge
 */
void
smprof_timeline_get_visible_range (SmprofTimeline *self,
                                   double         *start,
                                   double         *end)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  *start = self->view_start;
  *end = self->view_start + self->view_span;
}

void
smprof_timeline_set_visible_range (SmprofTimeline *self,
                                   double          start,
                                   double          end)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  _smprof_timeline_set_view (self, MIN (start, end), fabs (end - start));
}
