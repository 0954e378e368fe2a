/* smprof-timeline-selection.h: what the timeline has selected (UI-free)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "smprof-query.h"
#include "smprof-timeline-layout.h"

G_BEGIN_DECLS

/**
 * SmprofTimelineSelectionKind:
 * @SMPROF_TIMELINE_SELECTION_QUERY: a core query over some nodes:
 *   smprof_select (records, node_ids, query) gives the records. A drag on the
 *   time axis is an SMPROF_SELECT_OVERLAP query; presets are the page's queries.
 * @SMPROF_TIMELINE_SELECTION_RECORDS: an explicit set of intervals (a click,
 *   keyboard selection, a drag on the step axis, or a set the caller chose)
 */
typedef enum
{
  SMPROF_TIMELINE_SELECTION_QUERY,
  SMPROF_TIMELINE_SELECTION_RECORDS,
} SmprofTimelineSelectionKind;

typedef struct _SmprofTimelineSelection SmprofTimelineSelection;

#define SMPROF_TYPE_TIMELINE_SELECTION (smprof_timeline_selection_get_type ())

GType                        smprof_timeline_selection_get_type     (void) G_GNUC_CONST;
SmprofTimelineSelection     *smprof_timeline_selection_new_query    (const SmprofSelection         *query,
                                                                     const char * const            *node_ids,
                                                                     GPtrArray                     *records);
SmprofTimelineSelection     *smprof_timeline_selection_new_records  (GPtrArray                     *records);
SmprofTimelineSelection     *smprof_timeline_selection_ref          (SmprofTimelineSelection       *self);
void                         smprof_timeline_selection_unref        (SmprofTimelineSelection       *self);
SmprofTimelineSelectionKind  smprof_timeline_selection_get_kind     (const SmprofTimelineSelection *self);
const SmprofSelection       *smprof_timeline_selection_get_query    (const SmprofTimelineSelection *self);
const char * const          *smprof_timeline_selection_get_node_ids (const SmprofTimelineSelection *self);
GPtrArray                   *smprof_timeline_selection_get_records  (const SmprofTimelineSelection *self);
void                         smprof_timeline_selection_set_range    (SmprofTimelineSelection       *self,
                                                                     SmprofTimelineAxis             axis,
                                                                     double                         start,
                                                                     double                         end);
gboolean                     smprof_timeline_selection_get_range    (const SmprofTimelineSelection *self,
                                                                     SmprofTimelineAxis            *axis,
                                                                     double                        *start,
                                                                     double                        *end);
gboolean                     smprof_timeline_selection_equal        (const SmprofTimelineSelection *a,
                                                                     const SmprofTimelineSelection *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofTimelineSelection, smprof_timeline_selection_unref)

G_END_DECLS
