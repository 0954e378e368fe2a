/* smprof-timeline-layout-search.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "smprof-timeline-layout-private.h"

/* Finding items: by range in a lane (what is drawn), under or nearest to a
 * position (hover, clicks, keyboard), and every interval a range overlaps
 * (a dragged selection); binary searches over the sorted lanes. */

static int
compare_records_by_order (gconstpointer a,
                          gconstpointer b)
{
  const SmprofRecord *ra = *(const SmprofRecord * const *) a;
  const SmprofRecord *rb = *(const SmprofRecord * const *) b;

  return ra->order < rb->order ? -1 : ra->order > rb->order;
}

/* The first item in [from, n) whose start (or end) is >= value. */
static guint
lower_bound (const SmprofTimelineItem *items,
             guint                     from,
             guint                     n,
             SmprofTimelineAxis        axis,
             gboolean                  by_end,
             double                    value)
{
  guint lo = from, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      double v = by_end ? items[mid].end[axis] : items[mid].start[axis];

      if (v < value)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* The first item in [from, n) whose start is > value. */
static guint
upper_bound_start (const SmprofTimelineItem *items,
                   guint                     from,
                   guint                     n,
                   SmprofTimelineAxis        axis,
                   double                    value)
{
  guint lo = from, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (items[mid].start[axis] <= value)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * smprof_timeline_layout_lane_range:
 * @first: (out): the first item that overlaps [@start, @end]
 * @last: (out): one past the last
 *
 * The items of a lane that overlap [@start, @end], bounds included (the
 * core's SMPROF_SELECT_OVERLAP rule), found by binary search.
 */
void
smprof_timeline_layout_lane_range (SmprofTimelineLayout *self,
                                   guint                 node,
                                   guint                 lane,
                                   SmprofTimelineAxis    axis,
                                   double                start,
                                   double                end,
                                   guint                *first,
                                   guint                *last)
{
  const SmprofTimelineItem *items;
  guint n;

  items = smprof_timeline_layout_get_lane (self, node, lane, &n);
  *first = lower_bound (items, 0, n, axis, TRUE, start);
  *last = MAX (*first, upper_bound_start (items, *first, n, axis, end));
}

/* The first item at or after @from whose start is >= @value. */
guint
smprof_timeline_layout_lane_next_start (SmprofTimelineLayout *self,
                                        guint                 node,
                                        guint                 lane,
                                        SmprofTimelineAxis    axis,
                                        guint                 from,
                                        double                value)
{
  const SmprofTimelineItem *items;
  guint n;

  items = smprof_timeline_layout_get_lane (self, node, lane, &n);

  return lower_bound (items, MIN (from, n), n, axis, FALSE, value);
}

/**
 * smprof_timeline_layout_hit:
 * @tolerance: how far outside an item still hits it, in axis units
 *
 * Returns: (nullable): the item under @value: the one containing it, else
 *   the nearest within @tolerance
 */
const SmprofTimelineItem *
smprof_timeline_layout_hit (SmprofTimelineLayout *self,
                            guint                 node,
                            guint                 lane,
                            SmprofTimelineAxis    axis,
                            double                value,
                            double                tolerance)
{
  const SmprofTimelineItem *items;
  const SmprofTimelineItem *best = NULL;
  double best_distance = INFINITY;
  guint n, i;

  items = smprof_timeline_layout_get_lane (self, node, lane, &n);
  i = lower_bound (items, 0, n, axis, TRUE, value - tolerance);

  for (; i < n && items[i].start[axis] <= value + tolerance; i++)
    {
      double d = value < items[i].start[axis] ? items[i].start[axis] - value
               : value > items[i].end[axis] ? value - items[i].end[axis]
               : 0;

      if (d < best_distance)
        {
          best = &items[i];
          best_distance = d;
        }
      if (d == 0)
        break;
    }

  return best;
}

/**
 * smprof_timeline_layout_nearest:
 *
 * Returns: (nullable): the node's item nearest to @value, in any lane
 */
const SmprofTimelineItem *
smprof_timeline_layout_nearest (SmprofTimelineLayout *self,
                                guint                 node,
                                SmprofTimelineAxis    axis,
                                double                value)
{
  const SmprofTimelineItem *best = NULL;
  double best_distance = INFINITY;

  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  for (guint lane = 0; lane < self->nodes[node].n_lanes; lane++)
    {
      const SmprofTimelineItem *items;
      guint n, i;

      items = smprof_timeline_layout_get_lane (self, node, lane, &n);
      i = lower_bound (items, 0, n, axis, TRUE, value);

      /* the candidates are the item ending at or after value, and the one before */
      for (guint j = i > 0 ? i - 1 : 0; j < MIN (n, i + 1); j++)
        {
          double d = value < items[j].start[axis] ? items[j].start[axis] - value
                   : value > items[j].end[axis] ? value - items[j].end[axis]
                   : 0;

          if (d < best_distance)
            {
              best = &items[j];
              best_distance = d;
            }
        }
    }

  return best;
}

/**
 * smprof_timeline_layout_select_range:
 * @start: one end of the range, in @axis units
 * @end: the other end
 * @nodes: (array length=n_nodes): the node indices to look in
 * @query: (out caller-allocates) (optional): on the time axis, the range as
 *   the core's SMPROF_SELECT_OVERLAP selection (absolute µs); untouched on
 *   the step axis
 *
 * Every interval of @nodes that overlaps the range, bounds included. On the
 * time axis this is exactly what smprof_select() gives for @query.
 *
 * Returns: (transfer container) (element-type SmprofRecord): the records, in
 *   record order
 */
GPtrArray *
smprof_timeline_layout_select_range (SmprofTimelineLayout *self,
                                     SmprofTimelineAxis    axis,
                                     double                start,
                                     double                end,
                                     const guint          *nodes,
                                     guint                 n_nodes,
                                     SmprofSelection      *query)
{
  GPtrArray *selected;

  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);

  if (start > end)
    {
      double t = start;

      start = end;
      end = t;
    }

  if (axis == SMPROF_TIMELINE_AXIS_TIME)
    {
      SmprofSelection sel = { .kind = SMPROF_SELECT_OVERLAP };

      /* The selection is defined in absolute µs, as the core compares. The
       * differences below are exact (Sterbenz), so comparing relative values
       * is comparing the absolute ones. */
      sel.start_us = self->origin_us + start;
      sel.end_us = self->origin_us + end;
      start = sel.start_us - self->origin_us;
      end = sel.end_us - self->origin_us;
      if (query != NULL)
        *query = sel;
    }

  selected = g_ptr_array_new ();

  for (guint i = 0; i < n_nodes; i++)
    {
      guint node = nodes[i];

      g_return_val_if_fail (node < self->n_nodes, selected);

      for (guint lane = 0; lane < self->nodes[node].n_lanes; lane++)
        {
          const SmprofTimelineItem *items;
          guint n, first, last;

          items = smprof_timeline_layout_get_lane (self, node, lane, &n);
          smprof_timeline_layout_lane_range (self, node, lane, axis, start, end, &first, &last);
          for (guint j = first; j < last; j++)
            g_ptr_array_add (selected, (gpointer) items[j].record);
        }
    }

  g_ptr_array_sort (selected, compare_records_by_order);

  return selected;
}
