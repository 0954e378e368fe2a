/* smprof-timeline-layout-step-axis.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "smprof-timeline-layout-private.h"

/* The step axis ("align by step", see SmprofTimelineAxis): the step keys and
 * their order, each node's anchors from time to step position, the items and
 * times mapped through them, and the keys' labels. */

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
void
_smprof_timeline_layout_build_step_axis (SmprofTimelineLayout *self,
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

/* Time to step position along a lane: both times and anchors only grow, so
 * one walk maps them all. */
void
_smprof_timeline_layout_map_lane_to_steps (GArray             *anchors,
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
