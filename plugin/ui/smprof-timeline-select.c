/* smprof-timeline-select.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-timeline-private.h"

/* What the user and the callers select on the timeline: a dragged range,
 * clicked or keyboard-chosen intervals, a preset query or records, and the
 * focus and hover intervals. The selection value itself,
 * SmprofTimelineSelection, is in smprof-timeline-selection.c. */

/* The selection --------------------------------------------------------------- */

static void
commit_range_on_axis (SmprofTimeline     *self,
                      SmprofTimelineAxis  axis,
                      double              start,
                      double              end,
                      const guint        *nodes,
                      guint               n_nodes)
{
  g_autofree guint *all = NULL;
  g_autoptr(GPtrArray) records = NULL;
  SmprofTimelineSelection *selection;
  SmprofSelection query;
  gboolean follows = nodes == NULL;

  if (self->layout == NULL)
    return;

  if (nodes == NULL)
    nodes = all = _smprof_timeline_dup_row_nodes (self, &n_nodes);

  records = smprof_timeline_layout_select_range (self->layout, axis, start, end, nodes, n_nodes, &query);

  if (axis == SMPROF_TIMELINE_AXIS_TIME)
    {
      g_auto(GStrv) ids = _smprof_timeline_dup_node_ids (self, nodes, n_nodes);

      selection = smprof_timeline_selection_new_query (&query, (const char * const *) ids, records);
    }
  else
    selection = smprof_timeline_selection_new_records (records);

  smprof_timeline_selection_set_range (selection, axis, start, end);
  _smprof_timeline_set_selection_internal (self, selection, follows);
}

/* Selects what overlaps [start, end] on the current axis, on @nodes (NULL: the
 * shown nodes, and the selection follows when other nodes are shown). */
void
_smprof_timeline_commit_range (SmprofTimeline *self,
                               double          start,
                               double          end,
                               const guint    *nodes,
                               guint           n_nodes)
{
  commit_range_on_axis (self, _smprof_timeline_axis (self), start, end, nodes, n_nodes);
}

void
_smprof_timeline_select_item (SmprofTimeline           *self,
                              const SmprofTimelineItem *item)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new ();

  g_ptr_array_add (records, (gpointer) item->record);
  self->anchor_item = item;
  _smprof_timeline_set_selection_internal (self, smprof_timeline_selection_new_records (records), FALSE);
}

/* The selection's span on the current axis: its range, or its intervals. */
gboolean
_smprof_timeline_selection_span (SmprofTimeline *self,
                                 double         *start,
                                 double         *end)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self), range_axis;

  if (self->selection == NULL)
    return FALSE;

  if (smprof_timeline_selection_get_range (self->selection, &range_axis, start, end) && range_axis == axis)
    return TRUE;

  if (!self->has_selection_extent[axis])
    return FALSE;

  *start = self->selection_extent[axis][0];
  *end = self->selection_extent[axis][1];

  return TRUE;
}

/* Shift+click, Shift+arrow: a dragged range grows to take @item in; otherwise
 * the range from the anchor interval to @item, on the rows between them. */
void
_smprof_timeline_extend_to_item (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  const SmprofTimelineItem *anchor = self->anchor_item;
  double start, end;

  if (self->selection != NULL && smprof_timeline_selection_get_range (self->selection, NULL, NULL, NULL) &&
      _smprof_timeline_selection_span (self, &start, &end) && self->selection_follows_nodes)
    {
      _smprof_timeline_commit_range (self, MIN (start, item->start[axis]), MAX (end, item->end[axis]), NULL, 0);
      return;
    }

  if (anchor == NULL)
    {
      _smprof_timeline_select_item (self, item);
      return;
    }

  {
    int r0 = _smprof_timeline_row_of_node (self, anchor->node);
    int r1 = _smprof_timeline_row_of_node (self, item->node);
    g_autofree guint *nodes = NULL;
    guint n = 0;

    if (r0 < 0 || r1 < 0)
      return;

    nodes = g_new (guint, ABS (r1 - r0) + 1);
    for (int r = MIN (r0, r1); r <= MAX (r0, r1); r++)
      nodes[n++] = _smprof_timeline_get_row (self, r)->node;

    _smprof_timeline_commit_range (self,
                                   MIN (anchor->start[axis], item->start[axis]),
                                   MAX (anchor->end[axis], item->end[axis]),
                                   nodes, n);
  }
}

/* After the shown nodes change, a selection made on "the shown nodes" is made again. */
void
_smprof_timeline_refresh_selection_for_nodes (SmprofTimeline *self)
{
  SmprofTimelineAxis axis;
  double start, end;
  const SmprofSelection *query;

  if (self->selection == NULL || !self->selection_follows_nodes)
    return;

  if (smprof_timeline_selection_get_range (self->selection, &axis, &start, &end))
    commit_range_on_axis (self, axis, start, end, NULL, 0);
  else if ((query = smprof_timeline_selection_get_query (self->selection)) != NULL)
    {
      SmprofSelection copy = *query;

      smprof_timeline_set_selection (self, &copy, NULL);
    }
}

void
_smprof_timeline_set_focus_item (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item,
                                 gboolean                  reveal)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);

  if (item != self->focus_item)
    {
      self->focus_item = item;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }

  if (item == NULL || !reveal)
    return;

  /* Bring it into view, horizontally then vertically. */
  if (item->end[axis] < self->view_start || item->start[axis] > self->view_start + self->view_span)
    _smprof_timeline_set_view (self, (item->start[axis] + item->end[axis]) / 2 - self->view_span / 2,
                               self->view_span);

  {
    int row = _smprof_timeline_row_of_node (self, item->node);
    double rows_height = _smprof_timeline_rows_height (self);

    if (row >= 0)
      {
        const SmprofTimelineRow *r = _smprof_timeline_get_row (self, row);

        if (r->y < self->vscroll)
          _smprof_timeline_set_vscroll (self, r->y);
        else if (r->y + r->height > self->vscroll + rows_height)
          _smprof_timeline_set_vscroll (self, r->y + r->height - rows_height);
      }
  }
}

void
_smprof_timeline_set_hover_item (SmprofTimeline           *self,
                                 const SmprofTimelineItem *item)
{
  if (item != self->hover_item)
    {
      self->hover_item = item;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

/* Public API ------------------------------------------------------------------------ */

/**
 * smprof_timeline_get_selection:
 *
 * Returns: (transfer none) (nullable): the selection
 */
SmprofTimelineSelection *
smprof_timeline_get_selection (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->selection;
}

/**
 * smprof_timeline_get_selected_records:
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   selected intervals in record order, or %NULL when nothing is selected
 */
GPtrArray *
smprof_timeline_get_selected_records (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->selection != NULL ? smprof_timeline_selection_get_records (self->selection) : NULL;
}

/**
 * smprof_timeline_set_selection:
 * @selection: a core query (a preset: whole job, job phases, steps N to M
 *   with phases, a mode pair, a time range...)
 * @node_ids: (nullable) (array zero-terminated=1): the nodes it applies to;
 *   %NULL for the shown nodes, and then the selection follows
 *   SmprofTimeline:visible-nodes
 *
 * Selects what smprof_select() gives, outlines those intervals, and emits
 * SmprofTimeline::selection-changed. An SMPROF_SELECT_OVERLAP query also
 * shades its range.
 */
void
smprof_timeline_set_selection (SmprofTimeline        *self,
                               const SmprofSelection *selection,
                               const char * const    *node_ids)
{
  g_auto(GStrv) ids = NULL;
  g_autoptr(GPtrArray) records = NULL;
  SmprofTimelineSelection *sel;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (selection != NULL);

  if (self->layout == NULL)
    return;

  if (node_ids != NULL)
    ids = g_strdupv ((char **) node_ids);
  else
    {
      g_autofree guint *nodes = NULL;
      guint n_nodes;

      nodes = _smprof_timeline_dup_row_nodes (self, &n_nodes);
      ids = _smprof_timeline_dup_node_ids (self, nodes, n_nodes);
    }

  records = smprof_select (smprof_timeline_layout_get_records (self->layout),
                           (const char * const *) ids, selection);
  sel = smprof_timeline_selection_new_query (selection, (const char * const *) ids, records);

  if (selection->kind == SMPROF_SELECT_OVERLAP)
    {
      double origin = smprof_timeline_layout_get_origin_us (self->layout);

      smprof_timeline_selection_set_range (sel, SMPROF_TIMELINE_AXIS_TIME,
                                           selection->start_us - origin, selection->end_us - origin);
    }

  _smprof_timeline_set_selection_internal (self, sel, node_ids == NULL);
}

/**
 * smprof_timeline_select_records:
 * @records: (element-type SmprofRecord): intervals of the shown job
 *
 * Selects exactly @records (those the timeline knows).
 */
void
smprof_timeline_select_records (SmprofTimeline *self,
                                GPtrArray      *records)
{
  g_autoptr(GPtrArray) known = NULL;
  GPtrArray *all;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (records != NULL);

  if (self->layout == NULL)
    return;

  /* In record order: walk the job's records, keep the wanted ones. */
  {
    g_autoptr(GHashTable) wanted = g_hash_table_new (NULL, NULL);

    for (guint i = 0; i < records->len; i++)
      g_hash_table_add (wanted, g_ptr_array_index (records, i));

    all = smprof_timeline_layout_get_records (self->layout);
    known = g_ptr_array_new ();
    for (guint i = 0; i < all->len; i++)
      if (g_hash_table_contains (wanted, g_ptr_array_index (all, i)))
        g_ptr_array_add (known, g_ptr_array_index (all, i));
  }

  _smprof_timeline_set_selection_internal (self, smprof_timeline_selection_new_records (known), FALSE);
}

/**
 * smprof_timeline_select_time_range:
 * @start_us: µs since the epoch
 * @end_us: µs since the epoch
 *
 * Selects as a drag across the shown nodes would: every interval that
 * overlaps [@start_us, @end_us].
 */
void
smprof_timeline_select_time_range (SmprofTimeline *self,
                                   double          start_us,
                                   double          end_us)
{
  double origin;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  if (self->layout == NULL)
    return;

  origin = smprof_timeline_layout_get_origin_us (self->layout);
  commit_range_on_axis (self, SMPROF_TIMELINE_AXIS_TIME, start_us - origin, end_us - origin, NULL, 0);
}

void
smprof_timeline_clear_selection (SmprofTimeline *self)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  self->anchor_item = NULL;
  _smprof_timeline_set_selection_internal (self, NULL, FALSE);
}
