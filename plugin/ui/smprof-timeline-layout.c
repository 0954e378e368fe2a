/* smprof-timeline-layout.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "smprof-timeline-layout.h"

typedef struct
{
  guint offset;   /* into items */
  guint n_items;
} Lane;

typedef struct
{
  double time;    /* µs since the job's start */
  double position;
} Anchor;

typedef struct
{
  const char *id;           /* owned by the job */
  guint       first_lane;
  guint       n_lanes;
  double      extent[SMPROF_TIMELINE_N_AXES][2];
  GArray     *anchors;      /* Anchor, strictly increasing in both members */
} Node;

typedef struct
{
  SmprofMode mode;
  gint64     step;
  double     sum;           /* of the key's time since each node's first key */
  guint      count;
  guint      position;
} StepKey;

struct _SmprofTimelineLayout
{
  GObject             parent_instance;

  GPtrArray          *records;
  double              origin_us;

  Node               *nodes;
  guint               n_nodes;
  Lane               *lanes;
  guint               n_lanes;
  SmprofTimelineItem *items;
  guint               n_items;
  guint32            *by_order;    /* record->order → item index, when orders are 0..n-1 */
  GHashTable         *by_record;   /* otherwise SmprofRecord* → SmprofTimelineItem* */

  StepKey            *keys;        /* sorted by position */
  guint               n_keys;
};

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

typedef struct
{
  const char *id;
  char       *key;
} NodeKey;

/* Natural order: "2-algo-3" before "10-algo-11". */
static int
compare_node_keys (gconstpointer a,
                   gconstpointer b)
{
  const NodeKey *ka = a;
  const NodeKey *kb = b;
  int c = strcmp (ka->key, kb->key);

  return c != 0 ? c : strcmp (ka->id, kb->id);
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

static int
compare_records_by_order (gconstpointer a,
                          gconstpointer b)
{
  const SmprofRecord *ra = *(const SmprofRecord * const *) a;
  const SmprofRecord *rb = *(const SmprofRecord * const *) b;

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

static gboolean
is_finite_step (gint64 step)
{
  return step != SMPROF_STEP_ANY_START && step != SMPROF_STEP_INFINITY;
}

/* A step key: a mode and a finite step number. */
typedef struct
{
  gint64     step;
  SmprofMode mode;
} KeyId;

static guint
key_id_hash (gconstpointer p)
{
  const KeyId *k = p;

  return g_int64_hash (&k->step) * 31 + (guint) k->mode;
}

static gboolean
key_id_equal (gconstpointer a,
              gconstpointer b)
{
  const KeyId *ka = a;
  const KeyId *kb = b;

  return ka->step == kb->step && ka->mode == kb->mode;
}

typedef struct
{
  KeyId  id;
  double time;
  int    rank;
} KeySeen;

/* Where a step starts: best where an interval starts at its stepstart, then
 * where one ends at it, then any other boundary of the step; the earliest of
 * the best kind. */
static void
note_boundary (GHashTable  *seen,
               KeySeen    **last,
               SmprofMode   mode,
               gint64       step,
               SmprofPhase  phase,
               gboolean     interval_start,
               double       time)
{
  KeyId id = { step, mode };
  KeySeen *ks;
  int rank = phase != SMPROF_PHASE_STEP_START ? 0 : interval_start ? 2 : 1;

  /* consecutive boundaries are mostly of the same step */
  if (*last != NULL && key_id_equal (&(*last)->id, &id))
    ks = *last;
  else
    ks = g_hash_table_lookup (seen, &id);
  if (ks == NULL)
    {
      ks = g_new (KeySeen, 1);
      ks->id = id;
      ks->time = time;
      ks->rank = rank;
      g_hash_table_insert (seen, &ks->id, ks);
    }
  else if (rank > ks->rank || (rank == ks->rank && time < ks->time))
    {
      ks->time = time;
      ks->rank = rank;
    }

  *last = ks;
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  const StepKey *ka = a;
  const StepKey *kb = b;
  double ma = ka->sum / ka->count;
  double mb = kb->sum / kb->count;

  if (ma != mb)
    return ma < mb ? -1 : 1;
  if (ka->step != kb->step)
    return ka->step < kb->step ? -1 : 1;
  return (int) ka->mode - (int) kb->mode;
}

static int
compare_anchors (gconstpointer a,
                 gconstpointer b)
{
  const Anchor *aa = a;
  const Anchor *ab = b;

  if (aa->time != ab->time)
    return aa->time < ab->time ? -1 : 1;
  return aa->position < ab->position ? -1 : aa->position > ab->position;
}

/* Anchors must grow in both time and position; one that would not is dropped. */
static void
append_anchor (GArray *anchors,
               double  time,
               double  position)
{
  if (anchors->len > 0)
    {
      const Anchor *last = &g_array_index (anchors, Anchor, anchors->len - 1);

      if (time <= last->time || position <= last->position)
        return;
    }

  g_array_append_vals (anchors, &(Anchor) { time, position }, 1);
}

static double
anchors_map (GArray *anchors,
             double  time)
{
  const Anchor *a = (const Anchor *) (gpointer) anchors->data;
  guint lo = 0, hi = anchors->len;

  if (anchors->len == 0)
    return 0;
  if (time <= a[0].time)
    return a[0].position;
  if (time >= a[anchors->len - 1].time)
    return a[anchors->len - 1].position;

  /* the last anchor at or before time */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (a[mid].time <= time)
        lo = mid;
      else
        hi = mid;
    }

  return a[lo].position +
         (time - a[lo].time) / (a[lo + 1].time - a[lo].time) * (a[lo + 1].position - a[lo].position);
}

/* The step axis: see SmprofTimelineAxis. */
static void
build_step_axis (SmprofTimelineLayout *self,
                 GPtrArray           **per_node)
{
  /* KeyId → index into keys, then (after sorting) → position */
  g_autoptr(GHashTable) key_index = g_hash_table_new_full (key_id_hash, key_id_equal, g_free, NULL);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (StepKey));
  g_autofree GHashTable **seen = g_new0 (GHashTable *, MAX (1, self->n_nodes));

  for (guint n = 0; n < self->n_nodes; n++)
    {
      GPtrArray *records = per_node[n];
      GHashTableIter iter;
      gpointer v;
      double first = INFINITY;
      KeySeen *last = NULL;

      seen[n] = g_hash_table_new_full (key_id_hash, key_id_equal, NULL, g_free);

      for (guint i = 0; i < records->len; i++)
        {
          const SmprofRecord *r = g_ptr_array_index (records, i);

          if (is_finite_step (r->name.start_step))
            note_boundary (seen[n], &last, r->name.start_mode, r->name.start_step, r->name.start_phase, TRUE,
                           r->name.start_time_us - self->origin_us);
          if (is_finite_step (r->name.end_step))
            note_boundary (seen[n], &last, r->name.end_mode, r->name.end_step, r->name.end_phase, FALSE,
                           r->name.end_time_us - self->origin_us);
        }

      g_hash_table_iter_init (&iter, seen[n]);
      while (g_hash_table_iter_next (&iter, NULL, &v))
        first = MIN (first, ((KeySeen *) v)->time);

      g_hash_table_iter_init (&iter, seen[n]);
      while (g_hash_table_iter_next (&iter, NULL, &v))
        {
          KeySeen *ks = v;
          gpointer found;
          StepKey *sk;

          if (!g_hash_table_lookup_extended (key_index, &ks->id, NULL, &found))
            {
              found = GUINT_TO_POINTER (keys->len);
              g_hash_table_insert (key_index, g_memdup2 (&ks->id, sizeof ks->id), found);
              g_array_append_vals (keys, &(StepKey) { .mode = ks->id.mode, .step = ks->id.step }, 1);
            }
          sk = &g_array_index (keys, StepKey, GPOINTER_TO_UINT (found));
          sk->sum += ks->time - first;
          sk->count++;
        }
    }

  g_array_sort (keys, compare_keys);
  self->n_keys = keys->len;
  self->keys = (StepKey *) (gpointer) g_array_free (g_steal_pointer (&keys), FALSE);
  for (guint i = 0; i < self->n_keys; i++)
    {
      KeyId id = { self->keys[i].step, self->keys[i].mode };

      self->keys[i].position = i;
      g_hash_table_insert (key_index, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (i));
    }

  for (guint n = 0; n < self->n_nodes; n++)
    {
      Node *node = &self->nodes[n];
      g_autoptr(GArray) raw = g_array_new (FALSE, FALSE, sizeof (Anchor));
      GHashTableIter iter;
      gpointer v;
      double node_start = node->extent[SMPROF_TIMELINE_AXIS_TIME][0];
      double node_end = node->extent[SMPROF_TIMELINE_AXIS_TIME][1];
      double last_finite = -INFINITY;
      GPtrArray *records = per_node[n];

      g_hash_table_iter_init (&iter, seen[n]);
      while (g_hash_table_iter_next (&iter, NULL, &v))
        {
          KeySeen *ks = v;
          guint position = GPOINTER_TO_UINT (g_hash_table_lookup (key_index, &ks->id));

          g_array_append_vals (raw, &(Anchor) { ks->time, position }, 1);
        }
      g_array_sort (raw, compare_anchors);

      for (guint i = 0; i < records->len; i++)
        {
          const SmprofRecord *r = g_ptr_array_index (records, i);

          if (is_finite_step (r->name.start_step))
            last_finite = MAX (last_finite, r->name.start_time_us - self->origin_us);
          if (is_finite_step (r->name.end_step))
            last_finite = MAX (last_finite, r->name.end_time_us - self->origin_us);
        }

      node->anchors = g_array_new (FALSE, FALSE, sizeof (Anchor));

      if (raw->len == 0)
        {
          append_anchor (node->anchors, node_start, -1);
          append_anchor (node->anchors, node_end, 0);
        }
      else
        {
          const Anchor *first = &g_array_index (raw, Anchor, 0);
          double last_position;

          if (node_start < first->time)
            append_anchor (node->anchors, node_start, first->position - 1);
          for (guint i = 0; i < raw->len; i++)
            {
              const Anchor *a = &g_array_index (raw, Anchor, i);

              append_anchor (node->anchors, a->time, a->position);
            }

          last_position = g_array_index (node->anchors, Anchor, node->anchors->len - 1).position;
          append_anchor (node->anchors, last_finite, last_position + 1);
          last_position = g_array_index (node->anchors, Anchor, node->anchors->len - 1).position;
          append_anchor (node->anchors, node_end, last_position + 1);
        }

      g_hash_table_unref (seen[n]);
    }
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

/* Time to step position along a lane: both times and anchors only grow, so
 * one walk maps them all. */
static void
map_lane_to_steps (GArray             *anchors,
                   SmprofTimelineItem *items,
                   guint               n_items)
{
  const Anchor *a = (const Anchor *) (gpointer) anchors->data;
  guint cursor = 0;

  for (guint i = 0; i < n_items; i++)
    for (guint e = 0; e < 2; e++)
      {
        double time = e == 0 ? items[i].start[SMPROF_TIMELINE_AXIS_TIME] : items[i].end[SMPROF_TIMELINE_AXIS_TIME];
        double *out = e == 0 ? &items[i].start[SMPROF_TIMELINE_AXIS_STEP] : &items[i].end[SMPROF_TIMELINE_AXIS_STEP];

        while (cursor + 1 < anchors->len && a[cursor + 1].time <= time)
          cursor++;

        if (anchors->len == 0)
          *out = 0;
        else if (time <= a[0].time)
          *out = a[0].position;
        else if (cursor + 1 >= anchors->len)
          *out = a[anchors->len - 1].position;
        else
          *out = a[cursor].position + (time - a[cursor].time) / (a[cursor + 1].time - a[cursor].time) *
                                      (a[cursor + 1].position - a[cursor].position);
      }
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

  self->origin_us = records->len > 0 ? INFINITY : 0;
  for (guint i = 0; i < records->len; i++)
    self->origin_us = MIN (self->origin_us, ((SmprofRecord *) g_ptr_array_index (records, i))->name.start_time_us);

  /* Nodes, in natural order of their ids */
  node_of = g_hash_table_new (g_str_hash, g_str_equal);
  ids = g_ptr_array_new ();
  {
    const char *last = NULL;

    for (guint i = 0; i < records->len; i++)
      {
        const SmprofRecord *r = g_ptr_array_index (records, i);

        if (r->node_id != last && g_hash_table_add (node_of, (gpointer) r->node_id))
          g_ptr_array_add (ids, (gpointer) r->node_id);
        last = r->node_id;
      }
  }
  {
    g_autoptr(GArray) keys = g_array_sized_new (FALSE, FALSE, sizeof (NodeKey), ids->len);

    for (guint n = 0; n < ids->len; n++)
      {
        const char *id = g_ptr_array_index (ids, n);

        g_array_append_vals (keys, &(NodeKey) { id, g_utf8_collate_key_for_filename (id, -1) }, 1);
      }
    g_array_sort (keys, compare_node_keys);
    for (guint n = 0; n < ids->len; n++)
      {
        NodeKey *k = &g_array_index (keys, NodeKey, n);

        g_ptr_array_index (ids, n) = (gpointer) k->id;
        g_free (k->key);
      }
  }

  self->n_nodes = ids->len;
  self->nodes = g_new0 (Node, MAX (1, ids->len));
  per_node = g_new0 (GPtrArray *, MAX (1, ids->len));
  for (guint n = 0; n < ids->len; n++)
    {
      self->nodes[n].id = g_ptr_array_index (ids, n);
      g_hash_table_insert (node_of, (gpointer) self->nodes[n].id, GUINT_TO_POINTER (n));
      per_node[n] = g_ptr_array_new ();
    }
  {
    /* A job shares one string per node: look up by pointer, by text on a miss. */
    g_autoptr(GHashTable) by_pointer = g_hash_table_new (NULL, NULL);

    for (guint i = 0; i < records->len; i++)
      {
        SmprofRecord *r = g_ptr_array_index (records, i);
        gpointer n;

        if (!g_hash_table_lookup_extended (by_pointer, r->node_id, NULL, &n))
          {
            n = g_hash_table_lookup (node_of, r->node_id);
            g_hash_table_insert (by_pointer, (gpointer) r->node_id, n);
          }
        g_ptr_array_add (per_node[GPOINTER_TO_UINT (n)], r);
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

  build_step_axis (self, per_node);

  for (guint l = 0; l < self->n_lanes; l++)
    map_lane_to_steps (self->nodes[self->items[self->lanes[l].offset].node].anchors,
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

/* How many step keys the step axis has: positions 0 to n - 1. */
guint
smprof_timeline_layout_get_n_steps (SmprofTimelineLayout *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), 0);

  return self->n_keys;
}

/**
 * smprof_timeline_layout_dup_step_label:
 * @key: a position on the step axis, below smprof_timeline_layout_get_n_steps()
 *
 * Returns: (transfer full): the step number, with its mode when another mode
 *   uses the same number in this job ("eval 2")
 */
char *
smprof_timeline_layout_dup_step_label (SmprofTimelineLayout *self,
                                       guint                 key)
{
  const StepKey *k;
  gboolean shared = FALSE;

  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), NULL);
  g_return_val_if_fail (key < self->n_keys, NULL);

  k = &self->keys[key];
  for (guint i = 0; i < self->n_keys && !shared; i++)
    shared = i != key && self->keys[i].step == k->step;

  if (shared)
    return g_strdup_printf ("%s %" G_GINT64_FORMAT, smprof_mode_to_string (k->mode), k->step);

  return g_strdup_printf ("%" G_GINT64_FORMAT, k->step);
}

/* A node's time (µs since the job's start) on the step axis. */
double
smprof_timeline_layout_time_to_step (SmprofTimelineLayout *self,
                                     guint                 node,
                                     double                time)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE_LAYOUT (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return anchors_map (self->nodes[node].anchors, time);
}
