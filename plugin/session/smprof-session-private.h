/* smprof-session-private.h: what smprof-session*.c share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-session.h"

G_BEGIN_DECLS

typedef struct _SmprofSessionCompare SmprofSessionCompare;

enum {
  PROP_0,
  PROP_JOB,
  PROP_PROFILER,
  PROP_ALL_NODE_IDS,
  PROP_NODE_IDS,
  PROP_PRESET,
  PROP_FIRST_STEP,
  PROP_LAST_STEP,
  PROP_START_MODE,
  PROP_END_MODE,
  PROP_BUSY,
  PROP_PROFILE,
  PROP_DESCRIPTION,
  PROP_RANGE_INDEX,
  PROP_WANT_STEP_STATS,
  PROP_STEP_STATS,
  PROP_JOB_STEP_STATS,
  PROP_FINDING_OUTLIERS,
  PROP_OUTLIER_THRESHOLD,
  PROP_COMPARING,
  PROP_COMPARE_WAITING,
  PROP_COMPARE_NORMALIZE,
  PROP_COMPARE_STATUS,
  PROP_DIFF,
  PROP_VIEW_PROFILE,
  PROP_FILES_TO_READ,
  PROP_FILES_READ,
  SMPROF_SESSION_N_PROPS
};

enum {
  SIGNAL_SELECTION_CHANGED,
  SIGNAL_ERROR,
  SIGNAL_TRANSFORMS_CHANGED,
  SMPROF_SESSION_N_SIGNALS
};

extern GParamSpec *_smprof_session_properties[SMPROF_SESSION_N_PROPS];
extern guint _smprof_session_signals[SMPROF_SESSION_N_SIGNALS];

struct _SmprofSession
{
  GObject               parent_instance;

  SmprofJob            *job;
  SmprofProfiler        profiler;
  char                **all_node_ids;      /* the profiler's nodes, in natural order */
  char                **node_ids;          /* the chosen ones; NULL for all */
  double                origin_us;         /* the profiler's first interval start */

  /* The selection. A preset is a query on the chosen nodes; otherwise
   * @selection is a query when @has_query, and @explicit_records, when set,
   * are exactly the intervals to aggregate (a click on the timeline, or the
   * timeline's own answer to a dragged range). @query_node_ids names the
   * nodes a timeline query covered when they are not the chosen ones. */
  SmprofPreset          preset;
  SmprofSelection       selection;
  gboolean              has_query;
  char                **query_node_ids;
  GPtrArray            *explicit_records;

  /* The Steps preset: the job's step mode and its steps, and the range */
  SmprofMode            step_mode;
  gboolean              has_steps;
  gint64                step_lowest;
  gint64                step_highest;
  gint64                first_step;
  gint64                last_step;

  /* The Between modes preset: the pair, and the modes the job has, in order */
  SmprofMode            start_mode;
  SmprofMode            end_mode;
  GArray               *pair_modes;

  /* The newest answer, the job its records belong to, and its words */
  SmprofJob            *answer_job;
  GPtrArray            *selected_records;
  /* What the selected records cover, found on the worker that picked them:
   * on a 256-node job a pass over them on the main thread took 20 ms */
  char                **selected_node_ids;
  char                 *selected_steps;
  SmprofProfile        *profile;
  char                 *description;
  char                 *slug;
  gboolean              from_index;

  /* The update in flight: a generation counter and a cancellable drop the
   * stale ones */
  GCancellable         *cancellable;
  guint                 generation;
  guint                 update_source;
  gboolean              busy;
  GPtrArray            *waiters;           /* GTask of smprof_session_wait_async() */

  /* How far the update in flight is in reading its selection's stats files,
   * looked at a few times a second while it reads */
  SmprofJob            *reading_job;       /* owns @reading_records */
  GPtrArray            *reading_records;
  guint                 files_to_read;
  guint                 files_read;
  guint                 reading_source;

  /* The range index, for dragged ranges (cProfile) */
  SmprofRangeIndex     *range_index;
  GCancellable         *index_cancellable;
  gboolean              index_started;
  gboolean              index_unused;      /* the tests' general path */

  /* Time per step of the selection, while wanted */
  gboolean              want_step_stats;
  SmprofStepStats      *step_stats;
  GCancellable         *steps_cancellable;
  guint                 steps_generation;

  /* Time per step of the whole job (every node), for the outlier steps */
  SmprofStepStats      *job_step_stats;
  GCancellable         *job_steps_cancellable;
  guint                 job_steps_generation;
  /* The rule's threshold for both (SmprofStepRule.threshold) */
  double                outlier_threshold;

  SmprofSessionCompare *compare;

  /* What the views show: @profile reshaped by @transforms, applied in
   * order (smprof-session-transforms.c); @profile itself when there are
   * none. The transforms outlive the selection: they name functions by
   * their job-wide ids. */
  GPtrArray            *transforms;
  SmprofProfile        *view_profile;
};

static inline void
_smprof_session_notify (SmprofSession *self,
                        guint          prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), _smprof_session_properties[prop_id]);
}

/* smprof-session.c */
void        _smprof_session_replace_job         (SmprofJob     **slot,
                                                 SmprofJob      *job);
void        _smprof_session_set_busy            (SmprofSession  *self,
                                                 gboolean        busy);
void        _smprof_session_emit_error          (SmprofSession  *self,
                                                 const char     *message);
GPtrArray  *_smprof_session_records_in_job      (SmprofJob      *job,
                                                 SmprofProfiler  profiler,
                                                 GPtrArray      *records);

/* smprof-session-selection.c */
void        _smprof_session_selection_for_preset (SmprofSession   *self,
                                                  SmprofPreset     preset,
                                                  SmprofSelection *selection);
void        _smprof_session_clear_query          (SmprofSession   *self);
void        _smprof_session_update_step_range    (SmprofSession   *self);
void        _smprof_session_update_modes         (SmprofSession   *self);
void        _smprof_session_follow_node_choice   (SmprofSession   *self);
GPtrArray  *_smprof_session_select_for           (SmprofJob              *job,
                                                  SmprofProfiler          profiler,
                                                  const char * const     *node_ids,
                                                  SmprofPreset            preset,
                                                  const SmprofSelection  *selection,
                                                  GPtrArray              *explicit_records);

/* smprof-session-text.c */
gboolean    _smprof_session_names_need_records  (SmprofSession  *self);
char       *_smprof_session_dup_description     (SmprofSession  *self,
                                                 GPtrArray      *records);
char       *_smprof_session_dup_slug            (SmprofSession  *self,
                                                 GPtrArray      *records);
char       *_smprof_session_dup_mode_name       (SmprofMode      mode);

/* smprof-session-update.c */
void        _smprof_session_set_use_range_index (SmprofSession  *self,
                                                 gboolean        use);
void        _smprof_session_queue_update        (SmprofSession  *self);
void        _smprof_session_update_dispose      (SmprofSession  *self);
void        _smprof_session_forget_range_index  (SmprofSession  *self);
void        _smprof_session_take_answer_job     (SmprofSession  *self,
                                                 GPtrArray      *records);

/* smprof-session-steps.c */
void        _smprof_session_steps_update        (SmprofSession  *self);
void        _smprof_session_update_job_step_stats (SmprofSession *self);
void        _smprof_session_steps_dispose       (SmprofSession  *self);

/* smprof-session-transforms.c */
void        _smprof_session_transforms_init     (SmprofSession  *self);
void        _smprof_session_transforms_dispose  (SmprofSession  *self);
void        _smprof_session_update_view_profile (SmprofSession  *self);

/* smprof-session-compare.c */
void        _smprof_session_compare_init        (SmprofSession  *self);
void        _smprof_session_compare_dispose     (SmprofSession  *self);
void        _smprof_session_compare_finalize    (SmprofSession  *self);
void        _smprof_session_compare_answer      (SmprofSession  *self);
gboolean    _smprof_session_compare_job_swapped (SmprofSession  *self);

G_END_DECLS
