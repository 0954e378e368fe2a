/* smprof-timeline-layout.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "smprof-timeline-layout-private.h"

/* Where the timeline puts every interval: nodes in natural order of their ids,
 * each node's intervals in lanes that do not overlap, and the accessors. The
 * step axis is in smprof-timeline-layout-step-axis.c, the searches by range
 * and by position in smprof-timeline-layout-search.c. */

G_DEFINE_FINAL_TYPE (SmprofTimelineLayout, smprof_timeline_layout, G_TYPE_OBJECT)

static void
smprof_timeline_layout_finalize (GObject *object)
{
  SmprofTimelineLayout *self = (SmprofTimelineLayout *) object;

  for (guint i = 0; i < self->n_nodes; i++)
    g_clear_pointer (&self->nodes[i].anchors, g_array_unref);
  g_clear_pointer (&self->nodes, g_free);
  g_clear_pointer (&self->lanes, g_free);
  g_clear_pointer (&self->items, g_free);
  g_clear_pointer (&self->keys, g_free);
  g_clear_pointer (&self->by_record, g_hash_table_unref);
  g_clear_pointer (&self->by_order, g_free);
  g_clear_pointer (&self->records, g_ptr_array_unref);

  G_OBJECT_CLASS (smprof_timeline_layout_parent_class)->finalize (object);
}

static void
smprof_timeline_layout_class_init (SmprofTimelineLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_timeline_layout_finalize;
}

static void
smprof_timeline_layout_init (SmprofTimelineLayout *self)
{
}

/* Natural order, as everywhere: "2-algo-3" before "10-algo-11". */
static int
compare_node_ids (gconstpointer a,
                  gconstpointer b)
{
  return smprof_node_id_compare (*(const char * const *) a, *(const char * const *) b);
}

static int
compare_records_by_start (gconstpointer a,
                          gconstpointer b)
{
  const SmprofRecord *ra = *(const SmprofRecord * const *) a;
  const SmprofRecord *rb = *(const SmprofRecord * const *) b;

  if (ra->name.start_time_us != rb->name.start_time_us)
    return ra->name.start_time_us < rb->name.start_time_us ? -1 : 1;
  if (ra->name.end_time_us != rb->name.end_time_us)
    return ra->name.end_time_us < rb->name.end_time_us ? -1 : 1;
  return ra->order < rb->order ? -1 : ra->order > rb->order;
}

/* The colour of a block: finalization is post-hook-close and initialization
 * pre-step-zero whatever the other end says; otherwise the mode it starts in. */
static SmprofMode
item_mode (const SmprofRecord *record)
{
  if (record->name.end_mode == SMPROF_MODE_POST_HOOK_CLOSE)
    return SMPROF_MODE_POST_HOOK_CLOSE;
  return record->name.start_mode;
}

/* SmprofJob numbers its records 0..n-1 in record order: an array finds an
 * item without hashing. Anything else falls back to a hash table. */
static void
index_records (SmprofTimelineLayout *self)
{
  gboolean dense = TRUE;

  self->by_order = g_new (guint32, MAX (1, self->n_items));
  memset (self->by_order, 0xff, sizeof (guint32) * MAX (1, self->n_items));

  for (guint i = 0; i < self->n_items && dense; i++)
    {
      guint order = self->items[i].record->order;

      if (order >= self->n_items || self->by_order[order] != G_MAXUINT32)
        dense = FALSE;
      else
        self->by_order[order] = i;
    }

  if (dense)
    return;

  g_clear_pointer (&self->by_order, g_free);
  self->by_record = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < self->n_items; i++)
    g_hash_table_insert (self->by_record, (gpointer) self->items[i].record, &self->items[i]);
}

/**
 * smprof_timeline_layout_new:
 * @records: (element-type SmprofRecord): one profiler's records, in record order
 *
 * Lays out every record once: per node, sorted by start, in lanes of
 * non-overlapping intervals, with its place on both axes.
 *
 * Returns: (transfer full): a new layout, which keeps @records alive
 */
SmprofTimelineLayout *
smprof_timeline_layout_new (GPtrArray *records)
{
  SmprofTimelineLayout *self;
  g_autoptr(GHashTable) node_of = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autofree GPtrArray **per_node = NULL;
  g_autoptr(GArray) lanes = NULL;
  g_autofree guint *lane_of = NULL;
  guint item = 0;

  g_return_val_if_fail (records != NULL, NULL);

  self = g_object_new (SMPROF_TYPE_TIMELINE_LAYOUT, NULL);
  self->records = g_ptr_array_ref (records);
  self->n_items = records->len;
  self->items = g_new0 (SmprofTimelineItem, MAX (1, records->len));

  /* One pass over the records for their origin and their node: with 51,200
   * records of a 256-node job scattered in memory, each pass was a cache miss
   * per record on the main thread (three passes took 140 ms).  A job shares
   * one string per node, so nodes are found by pointer; records come in runs
   * of a node less often than not, but the last one is tried first. */
  self->origin_us = records->len > 0 ? INFINITY : 0;
  node_of = g_hash_table_new (g_str_hash, g_str_equal);
  ids = g_ptr_array_new ();
  {
    g_autoptr(GHashTable) by_pointer = g_hash_table_new (NULL, NULL);
    /* each node's records; every one is handed to per_node below */
    g_autoptr(GPtrArray) found = g_ptr_array_new ();
    const char *last = NULL;
    GPtrArray *last_node = NULL;

    for (guint i = 0; i < records->len; i++)
      {
        SmprofRecord *r = g_ptr_array_index (records, i);

        self->origin_us = MIN (self->origin_us, r->name.start_time_us);
        if (r->node_id != last)
          {
            gpointer n;

            if (!g_hash_table_lookup_extended (by_pointer, r->node_id, NULL, &n))
              {
                /* Another string with the same text is the same node */
                if (!g_hash_table_lookup_extended (node_of, r->node_id, NULL, &n))
                  {
                    n = GUINT_TO_POINTER (ids->len);
                    g_hash_table_insert (node_of, (gpointer) r->node_id, n);
                    g_ptr_array_add (ids, (gpointer) r->node_id);
                    g_ptr_array_add (found, g_ptr_array_new ());
                  }
                g_hash_table_insert (by_pointer, (gpointer) r->node_id, n);
              }
            last = r->node_id;
            last_node = g_ptr_array_index (found, GPOINTER_TO_UINT (n));
          }
        g_ptr_array_add (last_node, r);
      }

    /* Nodes, in natural order of their ids */
    g_ptr_array_sort (ids, compare_node_ids);
    self->n_nodes = ids->len;
    self->nodes = g_new0 (Node, MAX (1, ids->len));
    per_node = g_new0 (GPtrArray *, MAX (1, ids->len));
    for (guint n = 0; n < ids->len; n++)
      {
        guint first_found = GPOINTER_TO_UINT (g_hash_table_lookup (node_of, g_ptr_array_index (ids, n)));

        self->nodes[n].id = g_ptr_array_index (ids, n);
        per_node[n] = g_steal_pointer (&found->pdata[first_found]);
      }
  }

  /* Lanes: first fit, in start order */
  lanes = g_array_new (FALSE, FALSE, sizeof (Lane));
  lane_of = g_new (guint, MAX (1, records->len));
  for (guint n = 0; n < self->n_nodes; n++)
    {
      GPtrArray *nr = per_node[n];
      g_autoptr(GArray) lane_end = g_array_new (FALSE, FALSE, sizeof (double));
      Node *node = &self->nodes[n];

      /* Record order is by start time already, so this is mostly a check */
      for (guint i = 1; i < nr->len; i++)
        if (compare_records_by_start (&nr->pdata[i - 1], &nr->pdata[i]) > 0)
          {
            g_ptr_array_sort (nr, compare_records_by_start);
            break;
          }
      node->first_lane = lanes->len;

      for (guint i = 0; i < nr->len; i++)
        {
          const SmprofRecord *r = g_ptr_array_index (nr, i);
          double end = MAX (r->name.start_time_us, r->name.end_time_us);
          guint lane;

          for (lane = 0; lane < lane_end->len; lane++)
            if (g_array_index (lane_end, double, lane) <= r->name.start_time_us)
              break;
          if (lane == lane_end->len)
            {
              g_array_append_val (lane_end, end);
              g_array_append_vals (lanes, &(Lane) { 0, 0 }, 1);
            }
          g_array_index (lane_end, double, lane) = end;
          g_array_index (lanes, Lane, node->first_lane + lane).n_items++;
          lane_of[i] = lane;
        }
      node->n_lanes = lane_end->len;

      /* Offsets, then items in start order inside each lane */
      for (guint lane = 0; lane < node->n_lanes; lane++)
        {
          Lane *l = &g_array_index (lanes, Lane, node->first_lane + lane);

          l->offset = item;
          item += l->n_items;
          l->n_items = 0;
        }

      for (int axis = 0; axis < SMPROF_TIMELINE_N_AXES; axis++)
        {
          node->extent[axis][0] = INFINITY;
          node->extent[axis][1] = -INFINITY;
        }

      for (guint i = 0; i < nr->len; i++)
        {
          const SmprofRecord *r = g_ptr_array_index (nr, i);
          Lane *l = &g_array_index (lanes, Lane, node->first_lane + lane_of[i]);
          SmprofTimelineItem *it = &self->items[l->offset + l->n_items++];

          it->record = r;
          it->node = n;
          it->lane = lane_of[i];
          it->mode = item_mode (r);
          it->start[SMPROF_TIMELINE_AXIS_TIME] = r->name.start_time_us - self->origin_us;
          it->end[SMPROF_TIMELINE_AXIS_TIME] = MAX (r->name.start_time_us, r->name.end_time_us) - self->origin_us;
          node->extent[SMPROF_TIMELINE_AXIS_TIME][0] = MIN (node->extent[SMPROF_TIMELINE_AXIS_TIME][0],
                                                            it->start[SMPROF_TIMELINE_AXIS_TIME]);
          node->extent[SMPROF_TIMELINE_AXIS_TIME][1] = MAX (node->extent[SMPROF_TIMELINE_AXIS_TIME][1],
                                                            it->end[SMPROF_TIMELINE_AXIS_TIME]);
        }
    }

  index_records (self);

  self->n_lanes = lanes->len;
  self->lanes = (Lane *) (gpointer) g_array_free (g_steal_pointer (&lanes), FALSE);

  _smprof_timeline_layout_build_step_axis (self, per_node);

  for (guint l = 0; l < self->n_lanes; l++)
    _smprof_timeline_layout_map_lane_to_steps (self->nodes[self->items[self->lanes[l].offset].node].anchors,
                                               &self->items[self->lanes[l].offset], self->lanes[l].n_items);

  for (guint i = 0; i < self->n_items; i++)
    {
      SmprofTimelineItem *it = &self->items[i];
      Node *node = &self->nodes[it->node];

      node->extent[SMPROF_TIMELINE_AXIS_STEP][0] = MIN (node->extent[SMPROF_TIMELINE_AXIS_STEP][0],
                                                        it->start[SMPROF_TIMELINE_AXIS_STEP]);
      node->extent[SMPROF_TIMELINE_AXIS_STEP][1] = MAX (node->extent[SMPROF_TIMELINE_AXIS_STEP][1],
                                                        it->end[SMPROF_TIMELINE_AXIS_STEP]);
    }

  for (guint n = 0; n < self->n_nodes; n++)
    g_ptr_array_unref (per_node[n]);

  return self;
}

/* One layout per job and profiler, kept on the job (a layout never changes
 * once made) */
G_LOCK_DEFINE_STATIC (job_layouts);

/**
 * smprof_timeline_layout_dup_for_job:
 * @job: a job
 * @profiler: one of its profilers
 *
 * The layout of @job's @profiler records, made once and kept with @job: the
 * data source makes it on the worker that opens the job, so that a page on
 * a 256-node job does not lay out 51,200 records on the main thread, and
 * every timeline of the job shares it. Thread-safe.
 *
 * Returns: (transfer full): the layout, empty when @job has no @profiler
 *   records
 */
SmprofTimelineLayout *
smprof_timeline_layout_dup_for_job (SmprofJob      *job,
                                    SmprofProfiler  profiler)
{
  static const char * const keys[SMPROF_N_PROFILERS] = {
    [SMPROF_PROFILER_CPROFILE] = "smprof-timeline-layout-cprofile",
    [SMPROF_PROFILER_PYINSTRUMENT] = "smprof-timeline-layout-pyinstrument",
  };
  GPtrArray *records;
  SmprofTimelineLayout *layout;

  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);
  g_return_val_if_fail (profiler < SMPROF_N_PROFILERS, NULL);

  records = smprof_job_get_records (job, profiler);
  if (records == NULL)
    return NULL;

  G_LOCK (job_layouts);
  layout = g_object_get_data (G_OBJECT (job), keys[profiler]);
  /* Records are only ever added to a job: the same count is the same records */
  if (layout == NULL || layout->records != records || layout->n_items != records->len)
    {
      layout = smprof_timeline_layout_new (records);
      g_object_set_data_full (G_OBJECT (job), keys[profiler], layout, g_object_unref);
    }
  g_object_ref (layout);
  G_UNLOCK (job_layouts);

  return layout;
}

/**
 * smprof_timeline_layout_get_records:
 *
 * Returns: (transfer none) (element-type SmprofRecord): the records laid out
 */
GPtrArray *
smprof_timeline_layout_get_records (SmprofTimelineLayout *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);

  return self->records;
}

/* The job's start: the earliest interval start, in µs since the epoch. */
double
smprof_timeline_layout_get_origin_us (SmprofTimelineLayout *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), 0);

  return self->origin_us;
}

guint
smprof_timeline_layout_get_n_nodes (SmprofTimelineLayout *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), 0);

  return self->n_nodes;
}

const char *
smprof_timeline_layout_get_node_id (SmprofTimelineLayout *self,
                                    guint                 node)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  return self->nodes[node].id;
}

/* Returns: the node's index, or -1 */
int
smprof_timeline_layout_find_node (SmprofTimelineLayout *self,
                                  const char           *node_id)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), -1);

  for (guint n = 0; n < self->n_nodes; n++)
    if (g_strcmp0 (self->nodes[n].id, node_id) == 0)
      return n;

  return -1;
}

guint
smprof_timeline_layout_get_n_lanes (SmprofTimelineLayout *self,
                                    guint                 node)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->nodes[node].n_lanes;
}

/**
 * smprof_timeline_layout_get_lane:
 * @n_items: (out): how many items the lane has
 *
 * Returns: (transfer none) (array length=n_items): the lane's items, sorted by start
 */
const SmprofTimelineItem *
smprof_timeline_layout_get_lane (SmprofTimelineLayout *self,
                                 guint                 node,
                                 guint                 lane,
                                 guint                *n_items)
{
  const Lane *l;

  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);
  g_return_val_if_fail (lane < self->nodes[node].n_lanes, NULL);

  l = &self->lanes[self->nodes[node].first_lane + lane];
  *n_items = l->n_items;

  return &self->items[l->offset];
}

guint
smprof_timeline_layout_get_n_items (SmprofTimelineLayout *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), 0);

  return self->n_items;
}

/**
 * smprof_timeline_layout_get_items:
 *
 * All items, node after node and lane after lane: an item's index in this
 * array identifies it (the widget keeps per-item flags by it).
 *
 * Returns: (transfer none): the items
 */
const SmprofTimelineItem *
smprof_timeline_layout_get_items (SmprofTimelineLayout *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);

  return self->items;
}

/**
 * smprof_timeline_layout_lookup_record:
 *
 * Returns: (transfer none) (nullable): the record's item
 */
const SmprofTimelineItem *
smprof_timeline_layout_lookup_record (SmprofTimelineLayout *self,
                                      const SmprofRecord   *record)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);

  if (self->by_order != NULL)
    {
      const SmprofTimelineItem *it;

      if (record->order >= self->n_items)
        return NULL;
      it = &self->items[self->by_order[record->order]];

      return it->record == record ? it : NULL;
    }

  return g_hash_table_lookup (self->by_record, record);
}

/**
 * smprof_timeline_layout_get_extent:
 * @nodes: (array length=n_nodes) (nullable): node indices, %NULL for all
 *
 * Returns: %TRUE when those nodes have any interval; then @start and @end
 *   hold the first start and the last end on @axis
 */
gboolean
smprof_timeline_layout_get_extent (SmprofTimelineLayout *self,
                                   SmprofTimelineAxis    axis,
                                   const guint          *nodes,
                                   guint                 n_nodes,
                                   double               *start,
                                   double               *end)
{
  double s = INFINITY, e = -INFINITY;

  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), FALSE);

  if (nodes == NULL)
    n_nodes = self->n_nodes;

  for (guint i = 0; i < n_nodes; i++)
    {
      guint n = nodes != NULL ? nodes[i] : i;

      if (n >= self->n_nodes || self->nodes[n].n_lanes == 0)
        continue;
      s = MIN (s, self->nodes[n].extent[axis][0]);
      e = MAX (e, self->nodes[n].extent[axis][1]);
    }

  *start = s;
  *end = e;

  return s <= e;
}
