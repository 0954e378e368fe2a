/* smprof-timeline-steps.c: every step of the job, placed on the timeline's axes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The framework timeline knows every step, profiled or not; the layout knows
 * the profiled intervals. This places each node's steps on both axes of the
 * layout, so the timeline can draw them in a thin row under the node's
 * intervals. Steps may overlap in a damaged or odd file, so ranges are found
 * through a running maximum of the ends, not the ends themselves.
 */

#include "smprof-timeline-steps.h"

typedef struct
{
  GArray *steps;                             /* SmprofTimelineStep */
  GArray *max_end[SMPROF_TIMELINE_N_AXES];   /* double: max end of steps [0, i] */
} NodeSteps;

struct _SmprofTimelineSteps
{
  SmprofTimelineLayout *layout;
  guint                 n_nodes;
  NodeSteps            *nodes;
};

/**
 * smprof_timeline_steps_new:
 * @layout: the layout of @job's intervals
 * @job: the job, its step events loaded (smprof_job_load_step_events())
 *
 * Returns: (transfer full): the steps of every node of @layout; a node
 *   without a framework timeline has none
 */
SmprofTimelineSteps *
smprof_timeline_steps_new (SmprofTimelineLayout *layout,
                           SmprofJob            *job)
{
  SmprofTimelineSteps *self;
  double origin;

  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (layout), NULL);
  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);

  self = g_new0 (SmprofTimelineSteps, 1);
  self->layout = g_object_ref (layout);
  self->n_nodes = smprof_timeline_layout_get_n_nodes (layout);
  self->nodes = g_new0 (NodeSteps, MAX (1, self->n_nodes));
  origin = smprof_timeline_layout_get_origin_us (layout);

  for (guint n = 0; n < self->n_nodes; n++)
    {
      GArray *events = smprof_job_get_step_events (job, smprof_timeline_layout_get_node_id (layout, n));
      NodeSteps *node = &self->nodes[n];

      node->steps = g_array_new (FALSE, FALSE, sizeof (SmprofTimelineStep));
      for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
        node->max_end[a] = g_array_new (FALSE, FALSE, sizeof (double));

      for (guint i = 0; events != NULL && i < events->len; i++)
        {
          const SmprofStepEvent *event = &g_array_index (events, SmprofStepEvent, i);
          SmprofTimelineStep step = { event, };

          step.start[SMPROF_TIMELINE_AXIS_TIME] = event->start_us - origin;
          step.end[SMPROF_TIMELINE_AXIS_TIME] = event->end_us - origin;
          step.start[SMPROF_TIMELINE_AXIS_STEP] = smprof_timeline_layout_time_to_step (layout, n, step.start[SMPROF_TIMELINE_AXIS_TIME]);
          step.end[SMPROF_TIMELINE_AXIS_STEP] = smprof_timeline_layout_time_to_step (layout, n, step.end[SMPROF_TIMELINE_AXIS_TIME]);
          g_array_append_val (node->steps, step);

          for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
            {
              double max = step.end[a];

              if (i > 0)
                max = MAX (max, g_array_index (node->max_end[a], double, i - 1));
              g_array_append_val (node->max_end[a], max);
            }
        }
    }

  return self;
}

void
smprof_timeline_steps_free (SmprofTimelineSteps *self)
{
  if (self == NULL)
    return;

  for (guint n = 0; n < self->n_nodes; n++)
    {
      g_array_unref (self->nodes[n].steps);
      for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
        g_array_unref (self->nodes[n].max_end[a]);
    }
  g_free (self->nodes);
  g_object_unref (self->layout);
  g_free (self);
}

SmprofTimelineLayout *
smprof_timeline_steps_get_layout (SmprofTimelineSteps *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->layout;
}

/**
 * smprof_timeline_steps_get_node:
 * @self: the steps
 * @node: a node of the layout
 * @n_steps: (out): how many
 *
 * Returns: (array length=n_steps): @node's steps, sorted by start
 */
const SmprofTimelineStep *
smprof_timeline_steps_get_node (SmprofTimelineSteps *self,
                                guint                node,
                                guint               *n_steps)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_steps != NULL, NULL);

  if (node >= self->n_nodes)
    {
      *n_steps = 0;
      return NULL;
    }

  *n_steps = self->nodes[node].steps->len;

  return (const SmprofTimelineStep *) (gpointer) self->nodes[node].steps->data;
}

/* Returns: FALSE if @node has no step */
gboolean
smprof_timeline_steps_get_extent (SmprofTimelineSteps *self,
                                  SmprofTimelineAxis   axis,
                                  guint                node,
                                  double              *start,
                                  double              *end)
{
  const SmprofTimelineStep *steps;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);

  steps = smprof_timeline_steps_get_node (self, node, &n);
  if (n == 0)
    return FALSE;

  *start = steps[0].start[axis];
  *end = g_array_index (self->nodes[node].max_end[axis], double, n - 1);

  return TRUE;
}

/* The first step at or after @from that starts at or after @value. */
guint
smprof_timeline_steps_next_start (SmprofTimelineSteps *self,
                                  guint                node,
                                  SmprofTimelineAxis   axis,
                                  guint                from,
                                  double               value)
{
  const SmprofTimelineStep *steps;
  guint n, lo, hi;

  steps = smprof_timeline_steps_get_node (self, node, &n);
  lo = MIN (from, n);
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (steps[mid].start[axis] < value)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * smprof_timeline_steps_range:
 * @first: (out): the first step that may reach into [@start, @end]
 * @last: (out): one past the last step that starts in it
 *
 * Steps of @node that overlap [@start, @end] on @axis are among [@first, @last).
 */
void
smprof_timeline_steps_range (SmprofTimelineSteps *self,
                             guint                node,
                             SmprofTimelineAxis   axis,
                             double               start,
                             double               end,
                             guint               *first,
                             guint               *last)
{
  const SmprofTimelineStep *steps;
  GArray *max_end;
  guint n, lo, hi;

  g_return_if_fail (self != NULL);

  steps = smprof_timeline_steps_get_node (self, node, &n);
  *first = *last = 0;
  if (n == 0)
    return;

  max_end = self->nodes[node].max_end[axis];
  lo = 0;
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (max_end, double, mid) < start)
        lo = mid + 1;
      else
        hi = mid;
    }

  *first = lo;
  *last = smprof_timeline_steps_next_start (self, node, axis, lo, end);
  /* next_start stops before a step starting exactly at @end: take it in */
  while (*last < n && steps[*last].start[axis] <= end)
    (*last)++;
}

/**
 * smprof_timeline_steps_hit:
 * @value: an axis value
 * @tolerance: how far (in axis units) a step may be and still be hit
 *
 * Returns: (nullable): the step of @node under @value: one that contains it,
 *   else the nearest within @tolerance
 */
const SmprofTimelineStep *
smprof_timeline_steps_hit (SmprofTimelineSteps *self,
                           guint                node,
                           SmprofTimelineAxis   axis,
                           double               value,
                           double               tolerance)
{
  const SmprofTimelineStep *steps, *best = NULL;
  double best_distance = tolerance;
  guint n, first, last;

  g_return_val_if_fail (self != NULL, NULL);

  steps = smprof_timeline_steps_get_node (self, node, &n);
  smprof_timeline_steps_range (self, node, axis, value - tolerance, value + tolerance, &first, &last);

  for (guint i = first; i < last; i++)
    {
      double distance;

      if (steps[i].start[axis] <= value && value <= steps[i].end[axis])
        return &steps[i];

      distance = value < steps[i].start[axis] ? steps[i].start[axis] - value : value - steps[i].end[axis];
      if (distance <= best_distance)
        {
          best = &steps[i];
          best_distance = distance;
        }
    }

  return best;
}
