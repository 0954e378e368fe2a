/* smprof-timeline-tooltip.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-private.h"
#include "smprof-ui-format.h"

/* The tooltips of an interval's block and of a step in a node's strip of
 * steps (the outlier marks give their own first). */

static char *
describe_boundary (SmprofMode  mode,
                   gint64      step,
                   SmprofPhase phase)
{
  if (step == SMPROF_STEP_ANY_START || step == SMPROF_STEP_INFINITY)
    /* Translators: an interval's end, as in "pre-step-zero, start" */
    return g_strdup_printf (_("%s, %s"), smprof_timeline_get_mode_label (mode), _smprof_timeline_phase_label (phase));

  /* Translators: an interval's end, as in "Train step 3, forward pass end" */
  return g_strdup_printf (_("%s step %lld, %s"),
                          smprof_timeline_get_mode_label (mode), (long long) step, _smprof_timeline_phase_label (phase));
}

/* The hover tooltip: node, both ends as mode-step-phase, duration and start,
 * the interval folder name. */
char *
_smprof_timeline_dup_tooltip_markup (const SmprofTimelineItem *item)
{
  const SmprofIntervalName *name = &item->record->name;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *when = NULL;

  from = describe_boundary (name->start_mode, name->start_step, name->start_phase);
  to = describe_boundary (name->end_mode, name->end_step, name->end_phase);
  duration = smprof_ui_format_duration ((name->end_time_us - name->start_time_us) / 1e6);

  /* Translators: an interval's duration and start, as in "12.3 ms, from 1.234567 s"
   * (seconds since the job started) */
  when = g_strdup_printf (_("%s, from %.6f s"), duration, item->start[SMPROF_TIMELINE_AXIS_TIME] / 1e6);
  return g_markup_printf_escaped ("<b>%s</b>\n%s → %s\n%s\n<small>%s</small>",
                                  item->record->node_id, from, to, when, item->record->interval);
}

/* The hover tooltip of a step in the strip: node, mode and step number,
 * duration and start, the phase name the framework timeline gave it. */
char *
_smprof_timeline_dup_step_tooltip_markup (const SmprofTimelineStep *step)
{
  const SmprofStepEvent *event = step->event;
  g_autofree char *what = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *when = NULL;

  /* Translators: a step of the framework timeline, as in "Train step 3" */
  what = g_strdup_printf (_("%s step %lld"), smprof_timeline_get_mode_label (event->mode), (long long) event->step);
  duration = smprof_ui_format_duration ((event->end_us - event->start_us) / 1e6);
  when = g_strdup_printf (_("%s, from %.6f s"), duration, step->start[SMPROF_TIMELINE_AXIS_TIME] / 1e6);

  return g_markup_printf_escaped ("<b>%s</b>\n%s\n%s\n<small>%s</small>",
                                  event->node_id != NULL ? event->node_id : "", what, when, event->phase);
}

gboolean
_smprof_timeline_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_tooltip,
                               GtkTooltip *tooltip)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);
  const SmprofTimelineItem *item;
  g_autofree char *markup = NULL;
  graphene_rect_t rect;

  if (_smprof_timeline_outliers_query_tooltip (self, x, y, keyboard_tooltip, tooltip))
    return TRUE;

  if (keyboard_tooltip)
    item = self->focus_item;
  else
    item = _smprof_timeline_item_at (self, x, y);

  if (item == NULL && !keyboard_tooltip)
    {
      const SmprofTimelineStep *step;
      guint node = 0;

      step = _smprof_timeline_step_at (self, x, y, &node);
      if (step == NULL)
        return FALSE;

      markup = _smprof_timeline_dup_step_tooltip_markup (step);
      gtk_tooltip_set_markup (tooltip, markup);
      if (_smprof_timeline_get_step_rect (self, node, step, &rect))
        gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { floor (rect.origin.x), floor (rect.origin.y),
                                                             MAX (1, ceil (rect.size.width)), ceil (rect.size.height) });
      return TRUE;
    }

  if (item == NULL)
    return FALSE;

  markup = _smprof_timeline_dup_tooltip_markup (item);
  gtk_tooltip_set_markup (tooltip, markup);

  if (_smprof_timeline_get_block_rect (self, item, &rect))
    gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { floor (rect.origin.x), floor (rect.origin.y),
                                                         MAX (1, ceil (rect.size.width)), ceil (rect.size.height) });

  return TRUE;
}
