/* smprof-timeline-selection.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "smprof-timeline-selection.h"

/**
 * SmprofTimelineSelection:
 *
 * An immutable description of what the timeline selected: how (a core query
 * over nodes, or an explicit set of intervals), the included records in record
 * order, and, when the user dragged, the dragged range for shading.
 */
struct _SmprofTimelineSelection
{
  gatomicrefcount              ref_count;
  SmprofTimelineSelectionKind  kind;
  SmprofSelection              query;
  char                       **node_ids;
  GPtrArray                   *records;
  gboolean                     has_range;
  SmprofTimelineAxis           axis;
  double                       start;
  double                       end;
};

G_DEFINE_BOXED_TYPE (SmprofTimelineSelection, smprof_timeline_selection,
                     smprof_timeline_selection_ref, smprof_timeline_selection_unref)

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * smprof_timeline_selection_new_query:
 * @query: the core selection
 * @node_ids: the nodes it applies to
 * @records: (element-type SmprofRecord): what smprof_select() gave for them, in
 *   record order
 *
 * Returns: (transfer full): a new selection, holding a reference on @records
 */
SmprofTimelineSelection *
smprof_timeline_selection_new_query (const SmprofSelection *query,
                                     const char * const    *node_ids,
                                     GPtrArray             *records)
{
  SmprofTimelineSelection *self;

  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (node_ids != NULL, NULL);
  g_return_val_if_fail (records != NULL, NULL);

  self = g_new0 (SmprofTimelineSelection, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->kind = SMPROF_TIMELINE_SELECTION_QUERY;
  self->query = *query;
  self->node_ids = g_strdupv ((char **) node_ids);
  self->records = g_ptr_array_ref (records);

  return self;
}

/**
 * smprof_timeline_selection_new_records:
 * @records: (element-type SmprofRecord): the intervals, in record order
 *
 * Returns: (transfer full): a new selection, holding a reference on @records
 */
SmprofTimelineSelection *
smprof_timeline_selection_new_records (GPtrArray *records)
{
  SmprofTimelineSelection *self;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();

  g_return_val_if_fail (records != NULL, NULL);

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *r = g_ptr_array_index (records, i);

      if (g_hash_table_add (seen, (gpointer) r->node_id))
        g_ptr_array_add (ids, g_strdup (r->node_id));
    }
  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_add (ids, NULL);

  self = g_new0 (SmprofTimelineSelection, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->kind = SMPROF_TIMELINE_SELECTION_RECORDS;
  self->query.kind = SMPROF_SELECT_ALL;
  self->node_ids = (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
  self->records = g_ptr_array_ref (records);

  return self;
}

SmprofTimelineSelection *
smprof_timeline_selection_ref (SmprofTimelineSelection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

void
smprof_timeline_selection_unref (SmprofTimelineSelection *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_pointer (&self->node_ids, g_strfreev);
      g_clear_pointer (&self->records, g_ptr_array_unref);
      g_free (self);
    }
}

SmprofTimelineSelectionKind
smprof_timeline_selection_get_kind (const SmprofTimelineSelection *self)
{
  g_return_val_if_fail (self != NULL, SMPROF_TIMELINE_SELECTION_RECORDS);

  return self->kind;
}

/**
 * smprof_timeline_selection_get_query:
 *
 * Returns: (nullable): the core query of a %SMPROF_TIMELINE_SELECTION_QUERY
 *   selection, %NULL for an explicit set
 */
const SmprofSelection *
smprof_timeline_selection_get_query (const SmprofTimelineSelection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->kind == SMPROF_TIMELINE_SELECTION_QUERY ? &self->query : NULL;
}

/**
 * smprof_timeline_selection_get_node_ids:
 *
 * Returns: (transfer none): the nodes the query applies to, or for an explicit
 *   set the nodes its records are on; sorted
 */
const char * const *
smprof_timeline_selection_get_node_ids (const SmprofTimelineSelection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char * const *) self->node_ids;
}

/**
 * smprof_timeline_selection_get_records:
 *
 * Returns: (transfer none) (element-type SmprofRecord): the included
 *   intervals, in record order (the order smdebug aggregates them in)
 */
GPtrArray *
smprof_timeline_selection_get_records (const SmprofTimelineSelection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->records;
}

/* Only for a selection nobody else has seen yet: selections are immutable. */
void
smprof_timeline_selection_set_range (SmprofTimelineSelection *self,
                                     SmprofTimelineAxis       axis,
                                     double                   start,
                                     double                   end)
{
  g_return_if_fail (self != NULL);

  self->has_range = TRUE;
  self->axis = axis;
  self->start = MIN (start, end);
  self->end = MAX (start, end);
}

/**
 * smprof_timeline_selection_get_range:
 * @axis: (out) (optional): the axis the range is on
 * @start: (out) (optional): where it starts (µs since the job's start, or step position)
 * @end: (out) (optional): where it ends
 *
 * Returns: %TRUE when the selection is a dragged (or extended) range
 */
gboolean
smprof_timeline_selection_get_range (const SmprofTimelineSelection *self,
                                     SmprofTimelineAxis            *axis,
                                     double                        *start,
                                     double                        *end)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (axis != NULL)
    *axis = self->axis;
  if (start != NULL)
    *start = self->start;
  if (end != NULL)
    *end = self->end;

  return self->has_range;
}

static gboolean
queries_equal (const SmprofSelection *a,
               const SmprofSelection *b)
{
  return a->kind == b->kind &&
         a->start_step == b->start_step && a->end_step == b->end_step && a->mode == b->mode &&
         a->start_phase == b->start_phase && a->end_phase == b->end_phase &&
         a->start_us == b->start_us && a->end_us == b->end_us &&
         a->start_mode == b->start_mode && a->end_mode == b->end_mode;
}

/* Same kind, query, nodes, range and records. */
gboolean
smprof_timeline_selection_equal (const SmprofTimelineSelection *a,
                                 const SmprofTimelineSelection *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (a->kind != b->kind || a->has_range != b->has_range || a->records->len != b->records->len)
    return FALSE;
  if (a->kind == SMPROF_TIMELINE_SELECTION_QUERY && !queries_equal (&a->query, &b->query))
    return FALSE;
  if (a->has_range && (a->axis != b->axis || a->start != b->start || a->end != b->end))
    return FALSE;
  if (!g_strv_equal ((const char * const *) a->node_ids, (const char * const *) b->node_ids))
    return FALSE;
  for (guint i = 0; i < a->records->len; i++)
    if (g_ptr_array_index (a->records, i) != g_ptr_array_index (b->records, i))
      return FALSE;

  return TRUE;
}
