/* smprof-range-index.h: re-aggregating any time range of a loaded job in bounded time
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-job.h"
#include "smprof-profile.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_RANGE_INDEX (smprof_range_index_get_type ())

/**
 * SmprofRangeIndex:
 *
 * Sums of one profiler's stats over every node's intervals, arranged so that
 * the profile of any time range is ready in bounded time, however many
 * intervals the range holds: what the timeline calls each time a drag
 * selection changes.
 *
 * For each node, the intervals are taken in time order and the running sums
 * of every function and caller edge are kept at checkpoints a fixed number of
 * intervals apart. A range is the difference of two prefix sums; each prefix
 * starts from its nearest checkpoint and adds or removes at most half a
 * checkpoint spacing of intervals, from the stats already in memory. Functions
 * and edges seen in only a few intervals (most of them: the initialization
 * interval alone brings thousands) are kept out of the checkpoints and summed
 * from a list of their occurrences, which keeps the checkpoints small. No file
 * is read again.
 *
 * Selection uses the timeline's rule (%SMPROF_SELECT_OVERLAP): an interval
 * counts when it overlaps the range, bounds included.
 *
 * Counts are exact. A range of one node no longer than a checkpoint spacing
 * is summed interval by interval in record order, so its times are the ones
 * smprof_profile_new() gives. Longer ranges, and several nodes, differ from
 * them only by rounding: a prefix difference is exact to about 1e-16 of the
 * node's whole profiled time. Functions and edges come in the order they first
 * appear in the job (pstats' merged order over all the index's intervals),
 * not in the order they first appear in the range.
 *
 * The index holds references to the job's records and reads their stats; it
 * is immutable once built, and may be queried from several threads at once.
 * Only cProfile is indexed: its stats are per-function arrays that prefix
 * sums add up, where a Pyinstrument session is a tree merged by path, so
 * Pyinstrument ranges are aggregated by smprof_profile_new().
 */
G_DECLARE_FINAL_TYPE (SmprofRangeIndex, smprof_range_index, SMPROF, RANGE_INDEX, GObject)

/**
 * smprof_range_index_new:
 * @job: a job whose index is built (smprof_job_load())
 * @profiler: the profiler whose records to index; only %SMPROF_PROFILER_CPROFILE
 *   (see #SmprofRangeIndex)
 * @node_ids: (nullable) (array zero-terminated=1): the nodes to index, or %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Reads the stats of every interval of @node_ids that is not read yet (in
 * parallel, giving way to smprof_job_load_stats() callers, see
 * smprof_job_load_stats_in_background()), then builds the index, one node per
 * core. This is the whole cost of a job's first picture; call it from a
 * worker thread, or use smprof_range_index_new_async().
 *
 * Returns: (transfer full) (nullable): the index, or %NULL if cancelled or
 *   if @profiler is not supported (%G_IO_ERROR_NOT_SUPPORTED)
 */
SmprofRangeIndex   *smprof_range_index_new              (SmprofJob           *job,
                                                         SmprofProfiler       profiler,
                                                         const char * const  *node_ids,
                                                         GCancellable        *cancellable,
                                                         GError             **error);

/**
 * smprof_range_index_new_async:
 * @job: a job whose index is built
 * @profiler: the profiler whose records to index
 * @node_ids: (nullable) (array zero-terminated=1): the nodes to index, or %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the index
 * @user_data: data for @callback
 *
 * smprof_range_index_new() on a worker thread.
 */
void                smprof_range_index_new_async        (SmprofJob           *job,
                                                         SmprofProfiler       profiler,
                                                         const char * const  *node_ids,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);

/**
 * smprof_range_index_new_finish:
 * @job: the job given to smprof_range_index_new_async()
 * @result: the result given to the callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: (transfer full) (nullable): the index, or %NULL on error
 */
SmprofRangeIndex   *smprof_range_index_new_finish       (SmprofJob           *job,
                                                         GAsyncResult        *result,
                                                         GError             **error);

/**
 * smprof_range_index_get_job:
 * @self: a range index
 *
 * Returns: (transfer none): the job
 */
SmprofJob          *smprof_range_index_get_job          (SmprofRangeIndex    *self);

/**
 * smprof_range_index_get_profiler:
 * @self: a range index
 *
 * Returns: the profiler whose records are indexed
 */
SmprofProfiler      smprof_range_index_get_profiler     (SmprofRangeIndex    *self);

/**
 * smprof_range_index_get_node_ids:
 * @self: a range index
 *
 * Returns: (transfer none) (array zero-terminated=1): the indexed nodes, sorted
 */
const char * const *smprof_range_index_get_node_ids     (SmprofRangeIndex    *self);

/**
 * smprof_range_index_get_time_bounds:
 * @self: a range index
 * @start_us: (out) (optional): the earliest interval start, in microseconds since the epoch
 * @end_us: (out) (optional): the latest interval end
 *
 * Returns: %FALSE when no interval is indexed (the bounds are then 0)
 */
gboolean            smprof_range_index_get_time_bounds  (SmprofRangeIndex    *self,
                                                         double              *start_us,
                                                         double              *end_us);

/**
 * smprof_range_index_get_memory_size:
 * @self: a range index
 *
 * Returns: the bytes the index holds beyond the job's own records and stats
 */
gsize               smprof_range_index_get_memory_size  (SmprofRangeIndex    *self);

/**
 * smprof_range_index_aggregate:
 * @self: a range index
 * @node_ids: (nullable) (array zero-terminated=1): the nodes to sum, a subset
 *   of the indexed ones, or %NULL for all of them
 * @start_us: the range's start, in microseconds since the epoch
 * @end_us: the range's end, included
 *
 * The profile of the intervals of @node_ids that overlap [@start_us, @end_us],
 * in a time that depends on the number of nodes and functions, not on the
 * number of intervals in the range: a few milliseconds on a job of tens of
 * thousands of intervals. The result is a #SmprofProfile like
 * smprof_profile_new()'s: function rows, callers and callees, the estimated
 * call tree, and the records summed (in record order). Safe to call from any
 * thread; a query of many nodes (16 or more) sums them on up to four threads,
 * the caller's among them.
 *
 * Returns: (transfer full): the profile; it holds no record when nothing
 *   overlaps the range
 */
SmprofProfile      *smprof_range_index_aggregate        (SmprofRangeIndex    *self,
                                                         const char * const  *node_ids,
                                                         double               start_us,
                                                         double               end_us);

/**
 * smprof_range_index_aggregate_cprofile:
 * @self: a range index
 * @node_ids: (nullable) (array zero-terminated=1): the nodes to sum, or %NULL for all
 * @start_us: the range's start, in microseconds since the epoch
 * @end_us: the range's end, included
 * @records: (out) (optional) (transfer container) (element-type SmprofRecord):
 *   the records summed, in record order
 *
 * The merged stats of smprof_range_index_aggregate() alone: function rows
 * and caller edges, without the estimated call tree a #SmprofProfile builds
 * from them. For a function table that updates while the selection is being
 * dragged, and builds the tree when the drag ends.
 *
 * Returns: (transfer full): the merged stats
 */
SmprofCprofileProfile *smprof_range_index_aggregate_cprofile (SmprofRangeIndex    *self,
                                                              const char * const  *node_ids,
                                                              double               start_us,
                                                              double               end_us,
                                                              GPtrArray          **records);

/**
 * smprof_range_index_aggregate_async:
 * @self: a range index
 * @node_ids: (nullable) (array zero-terminated=1): the nodes to sum, or %NULL for all
 * @start_us: the range's start, in microseconds since the epoch
 * @end_us: the range's end, included
 * @cancellable: (nullable): a #GCancellable; a drag that moves on cancels the last one
 * @callback: (scope async): called with the profile
 * @user_data: data for @callback
 *
 * smprof_range_index_aggregate() on a worker thread, for the main loop.
 */
void                smprof_range_index_aggregate_async  (SmprofRangeIndex    *self,
                                                         const char * const  *node_ids,
                                                         double               start_us,
                                                         double               end_us,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);

/**
 * smprof_range_index_aggregate_finish:
 * @self: a range index
 * @result: the result given to the callback
 * @error: a location for a #GError, or %NULL
 *
 * Returns: (transfer full) (nullable): the profile, or %NULL if cancelled
 */
SmprofProfile      *smprof_range_index_aggregate_finish (SmprofRangeIndex    *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);

G_END_DECLS
