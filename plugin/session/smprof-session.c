/* smprof-session.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-core-enums.h"
#include "smprof-release.h"
#include "smprof-session-private.h"

/* What one job page shows, as Sysprof's SysprofSession holds what a capture
 * window shows, but with no widget: a page's widgets bind to it, and the
 * tests drive it with no display.
 *
 * The session owns the selection. Whatever changes it (a preset, the node
 * choice, the profiler, a dragged range) emits ::selection-changed and queues
 * one update; the update selects, reads the stats files it needs and
 * aggregates on a worker thread, and only the newest answer is kept: a
 * generation counter and a cancellable drop the others, so a drag never
 * waits for a stale aggregate. A dragged time range is summed by the job's
 * range index once it is built (a few milliseconds whatever the range).
 *
 * The answer comes with the selection's per-step statistics when they are
 * wanted (the function table's Per Step columns), and the whole job's
 * per-step statistics (the outlier steps, the node matrix) follow the job and
 * the profiler. A comparison takes an answer as A and the next ones as B
 * (smprof-session-compare.c). A live refresh lists the job again and swaps it
 * in, keeping the user's choices (smprof-session-refresh.c). The views
 * show the answer reshaped by the user's transforms, which outlive the
 * selection (smprof-session-transforms.c); the words and the command line of
 * what is shown are in smprof-session-text.c.
 *
 * This file holds the GObject, the job, the profiler and the node choice;
 * the selection is in smprof-session-selection.c, its words in
 * smprof-session-text.c, the workers in smprof-session-update.c and
 * smprof-session-steps.c. */

G_DEFINE_FINAL_TYPE (SmprofSession, smprof_session, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (SmprofPreset, smprof_preset,
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_NONE, "none"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_WHOLE_JOB, "whole-job"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_INITIALIZATION, "initialization"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_TRAINING_LOOP, "training-loop"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_FINALIZATION, "finalization"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_FORWARD_PASSES, "forward-passes"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_REST_OF_STEP, "rest-of-step"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_STEPS, "steps"),
  G_DEFINE_ENUM_VALUE (SMPROF_PRESET_BETWEEN_MODES, "between-modes"))

GParamSpec *_smprof_session_properties[SMPROF_SESSION_N_PROPS];
guint _smprof_session_signals[SMPROF_SESSION_N_SIGNALS];

#define properties _smprof_session_properties
#define signals    _smprof_session_signals

void
_smprof_session_set_busy (SmprofSession *self,
                          gboolean       busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  _smprof_session_notify (self, PROP_BUSY);
}

void
_smprof_session_emit_error (SmprofSession *self,
                            const char    *message)
{
  g_signal_emit (self, signals[SIGNAL_ERROR], 0, message);
}

/**
 * smprof_records_dup_node_ids:
 * @records: (element-type SmprofRecord): intervals
 *
 * Returns: (transfer full): the nodes @records cover, in natural order
 */
char **
smprof_records_dup_node_ids (GPtrArray *records)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  char **strv;
  const char *last = NULL;

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      /* Runs of one node share the string: skip the hash for them. */
      if (record->node_id == last)
        continue;
      last = record->node_id;
      if (g_hash_table_add (seen, (gpointer) record->node_id))
        g_ptr_array_add (ids, g_strdup (record->node_id));
    }

  g_ptr_array_add (ids, NULL);
  strv = (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
  smprof_node_ids_sort (strv);

  return strv;
}

/* The records of @job with the paths of @records, in @records' order; those
 * that are gone are left out. */
GPtrArray *
_smprof_session_records_in_job (SmprofJob      *job,
                                SmprofProfiler  profiler,
                                GPtrArray      *records)
{
  GPtrArray *all = smprof_job_get_records (job, profiler);
  g_autoptr(GHashTable) by_path = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (all, i);

      g_hash_table_insert (by_path, record->path, record);
    }

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);
      SmprofRecord *same = g_hash_table_lookup (by_path, record->path);

      if (same != NULL)
        g_ptr_array_add (found, same);
    }

  return found;
}

/* The job's nodes for the profiler, its first start, the steps and modes
 * the presets offer. */
static void
update_for_profiler (SmprofSession *self)
{
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  self->all_node_ids = smprof_job_dup_node_ids (self->job, self->profiler);
  smprof_node_ids_sort (self->all_node_ids);

  self->origin_us = records->len > 0 ? INFINITY : 0;
  for (guint i = 0; i < records->len; i++)
    self->origin_us = MIN (self->origin_us, ((SmprofRecord *) g_ptr_array_index (records, i))->name.start_time_us);

  _smprof_session_update_step_range (self);
  _smprof_session_update_modes (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
smprof_session_constructed (GObject *object)
{
  SmprofSession *self = SMPROF_SESSION (object);

  G_OBJECT_CLASS (smprof_session_parent_class)->constructed (object);

  g_assert (SMPROF_IS_JOB (self->job));

  /* cProfile when there is any, as the command line does. */
  self->profiler = smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE) ||
                   !smprof_job_has_profiler (self->job, SMPROF_PROFILER_PYINSTRUMENT)
                   ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT;
  update_for_profiler (self);

  self->preset = SMPROF_PRESET_WHOLE_JOB;
  _smprof_session_selection_for_preset (self, self->preset, &self->selection);
  _smprof_session_queue_update (self);
  _smprof_session_update_job_step_stats (self);
}

static void
smprof_session_dispose (GObject *object)
{
  SmprofSession *self = SMPROF_SESSION (object);

  _smprof_session_update_dispose (self);
  _smprof_session_steps_dispose (self);
  _smprof_session_compare_dispose (self);
  _smprof_session_transforms_dispose (self);

  /* The job, its records and what was summed from them are the biggest
   * objects of the viewer: freeing a 256-node job's took 150-230 ms, which
   * closing a page must not freeze the window for. */
  smprof_release_in_background (g_steal_pointer (&self->profile), g_object_unref);
  smprof_release_in_background (g_steal_pointer (&self->selected_records), (GDestroyNotify) g_ptr_array_unref);
  g_clear_pointer (&self->selected_node_ids, g_strfreev);
  g_clear_pointer (&self->selected_steps, g_free);
  _smprof_session_clear_query (self);
  _smprof_session_replace_job (&self->answer_job, NULL);
  _smprof_session_replace_job (&self->job, NULL);

  G_OBJECT_CLASS (smprof_session_parent_class)->dispose (object);
}

/* Points @slot at @job (nullable), and lets go of the job it pointed at off
 * the calling thread: the last reference to a big job frees every record
 * and its stats (smprof-release.c). */
void
_smprof_session_replace_job (SmprofJob **slot,
                             SmprofJob  *job)
{
  SmprofJob *old = *slot;

  if (old == job)
    return;

  *slot = job != NULL ? g_object_ref (job) : NULL;
  smprof_release_in_background (old, g_object_unref);
}

static void
smprof_session_finalize (GObject *object)
{
  SmprofSession *self = SMPROF_SESSION (object);

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_pointer (&self->pair_modes, g_array_unref);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->slug, g_free);
  _smprof_session_compare_finalize (self);

  G_OBJECT_CLASS (smprof_session_parent_class)->finalize (object);
}

static void
smprof_session_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SmprofSession *self = SMPROF_SESSION (object);

  switch (prop_id)
    {
    case PROP_JOB:
      g_value_set_object (value, self->job);
      break;
    case PROP_PROFILER:
      g_value_set_uint (value, self->profiler);
      break;
    case PROP_ALL_NODE_IDS:
      g_value_set_boxed (value, self->all_node_ids);
      break;
    case PROP_NODE_IDS:
      g_value_set_boxed (value, self->node_ids);
      break;
    case PROP_PRESET:
      g_value_set_enum (value, self->preset);
      break;
    case PROP_FIRST_STEP:
      g_value_set_int64 (value, self->first_step);
      break;
    case PROP_LAST_STEP:
      g_value_set_int64 (value, self->last_step);
      break;
    case PROP_START_MODE:
      g_value_set_uint (value, self->start_mode);
      break;
    case PROP_END_MODE:
      g_value_set_uint (value, self->end_mode);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_FILES_TO_READ:
      g_value_set_uint (value, self->files_to_read);
      break;
    case PROP_FILES_READ:
      g_value_set_uint (value, self->files_read);
      break;
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    case PROP_RANGE_INDEX:
      g_value_set_object (value, self->range_index);
      break;
    case PROP_WANT_STEP_STATS:
      g_value_set_boolean (value, self->want_step_stats);
      break;
    case PROP_STEP_STATS:
      g_value_set_pointer (value, self->step_stats);
      break;
    case PROP_JOB_STEP_STATS:
      g_value_set_pointer (value, self->job_step_stats);
      break;
    case PROP_FINDING_OUTLIERS:
      g_value_set_boolean (value, smprof_session_get_finding_outliers (self));
      break;
    case PROP_OUTLIER_THRESHOLD:
      g_value_set_double (value, self->outlier_threshold);
      break;
    case PROP_COMPARING:
      g_value_set_boolean (value, smprof_session_get_comparing (self));
      break;
    case PROP_COMPARE_WAITING:
      g_value_set_boolean (value, smprof_session_get_compare_waiting (self));
      break;
    case PROP_COMPARE_NORMALIZE:
      g_value_set_enum (value, smprof_session_get_compare_normalize (self));
      break;
    case PROP_COMPARE_STATUS:
      g_value_set_string (value, smprof_session_get_compare_status (self));
      break;
    case PROP_DIFF:
      g_value_set_object (value, smprof_session_get_diff (self));
      break;
    case PROP_VIEW_PROFILE:
      g_value_set_object (value, self->view_profile);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_session_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SmprofSession *self = SMPROF_SESSION (object);

  switch (prop_id)
    {
    case PROP_JOB:
      self->job = g_value_dup_object (value);
      break;
    case PROP_PROFILER:
      smprof_session_set_profiler (self, g_value_get_uint (value));
      break;
    case PROP_NODE_IDS:
      smprof_session_set_node_ids (self, g_value_get_boxed (value));
      break;
    case PROP_PRESET:
      smprof_session_set_preset (self, g_value_get_enum (value));
      break;
    case PROP_FIRST_STEP:
      smprof_session_set_step_range (self, g_value_get_int64 (value), MAX (g_value_get_int64 (value), self->last_step));
      break;
    case PROP_LAST_STEP:
      smprof_session_set_step_range (self, MIN (self->first_step, g_value_get_int64 (value)), g_value_get_int64 (value));
      break;
    case PROP_START_MODE:
      smprof_session_set_mode_pair (self, g_value_get_uint (value), self->end_mode);
      break;
    case PROP_END_MODE:
      smprof_session_set_mode_pair (self, self->start_mode, g_value_get_uint (value));
      break;
    case PROP_WANT_STEP_STATS:
      smprof_session_set_want_step_stats (self, g_value_get_boolean (value));
      break;
    case PROP_OUTLIER_THRESHOLD:
      smprof_session_set_outlier_threshold (self, g_value_get_double (value));
      break;
    case PROP_COMPARE_NORMALIZE:
      smprof_session_set_compare_normalize (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

#define RW_EXPLICIT (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)
#define READABLE    (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)

static void
smprof_session_class_init (SmprofSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = smprof_session_constructed;
  object_class->dispose = smprof_session_dispose;
  object_class->finalize = smprof_session_finalize;
  object_class->get_property = smprof_session_get_property;
  object_class->set_property = smprof_session_set_property;

  /* SmprofSession:job: the job, indexed; a live refresh replaces it. */
  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL, SMPROF_TYPE_JOB,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* SmprofSession:profiler: a SmprofProfiler */
  properties[PROP_PROFILER] =
    g_param_spec_uint ("profiler", NULL, NULL, 0, SMPROF_N_PROFILERS - 1, SMPROF_PROFILER_CPROFILE, RW_EXPLICIT);
  /* SmprofSession:all-node-ids: the profiler's nodes, in natural order */
  properties[PROP_ALL_NODE_IDS] =
    g_param_spec_boxed ("all-node-ids", NULL, NULL, G_TYPE_STRV, READABLE);
  /* SmprofSession:node-ids: the nodes chosen, or %NULL for all */
  properties[PROP_NODE_IDS] =
    g_param_spec_boxed ("node-ids", NULL, NULL, G_TYPE_STRV, RW_EXPLICIT);
  properties[PROP_PRESET] =
    g_param_spec_enum ("preset", NULL, NULL, SMPROF_TYPE_PRESET, SMPROF_PRESET_WHOLE_JOB, RW_EXPLICIT);
  /* SmprofSession:first-step, last-step: the Steps preset's range; setting
   * either selects the preset */
  properties[PROP_FIRST_STEP] =
    g_param_spec_int64 ("first-step", NULL, NULL, G_MININT64, G_MAXINT64, 0, RW_EXPLICIT);
  properties[PROP_LAST_STEP] =
    g_param_spec_int64 ("last-step", NULL, NULL, G_MININT64, G_MAXINT64, 0, RW_EXPLICIT);
  /* SmprofSession:start-mode, end-mode: the Between modes preset's pair (SmprofMode) */
  properties[PROP_START_MODE] =
    g_param_spec_uint ("start-mode", NULL, NULL, SMPROF_MODE_TRAIN, SMPROF_MODE_POST_HOOK_CLOSE,
                       SMPROF_MODE_TRAIN, RW_EXPLICIT);
  properties[PROP_END_MODE] =
    g_param_spec_uint ("end-mode", NULL, NULL, SMPROF_MODE_TRAIN, SMPROF_MODE_POST_HOOK_CLOSE,
                       SMPROF_MODE_TRAIN, RW_EXPLICIT);
  /* SmprofSession:busy: an aggregate is queued or being computed */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, READABLE);
  /* SmprofSession:files-to-read, files-read: the stats files the update in
   * flight needs and how many of them are read; both 0 when it reads none */
  properties[PROP_FILES_TO_READ] =
    g_param_spec_uint ("files-to-read", NULL, NULL, 0, G_MAXUINT, 0, READABLE);
  properties[PROP_FILES_READ] =
    g_param_spec_uint ("files-read", NULL, NULL, 0, G_MAXUINT, 0, READABLE);
  /* SmprofSession:profile: the aggregate of the selection; %NULL when it
   * selects nothing or before the first answer */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, SMPROF_TYPE_PROFILE, READABLE);
  /* SmprofSession:description: what the profile aggregates, in words */
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL, READABLE);
  properties[PROP_RANGE_INDEX] =
    g_param_spec_object ("range-index", NULL, NULL, SMPROF_TYPE_RANGE_INDEX, READABLE);
  /* SmprofSession:want-step-stats: compute the selection's time per step
   * with each answer (costly: only while something shows it) */
  properties[PROP_WANT_STEP_STATS] =
    g_param_spec_boolean ("want-step-stats", NULL, NULL, FALSE, RW_EXPLICIT);
  /* SmprofSession:step-stats: (type SmprofStepStats) the selection's time per step */
  properties[PROP_STEP_STATS] =
    g_param_spec_pointer ("step-stats", NULL, NULL, READABLE);
  /* SmprofSession:job-step-stats: (type SmprofStepStats) the whole job's, every node */
  properties[PROP_JOB_STEP_STATS] =
    g_param_spec_pointer ("job-step-stats", NULL, NULL, READABLE);
  properties[PROP_FINDING_OUTLIERS] =
    g_param_spec_boolean ("finding-outliers", NULL, NULL, FALSE, READABLE);
  /* SmprofSession:outlier-threshold: the threshold of the outlier and
   * straggler rule the step stats are flagged with */
  properties[PROP_OUTLIER_THRESHOLD] =
    g_param_spec_double ("outlier-threshold", NULL, NULL, 0.0, G_MAXDOUBLE,
                         SMPROF_STEP_OUTLIER_THRESHOLD, RW_EXPLICIT);
  properties[PROP_COMPARING] =
    g_param_spec_boolean ("comparing", NULL, NULL, FALSE, READABLE);
  /* SmprofSession:compare-waiting: A is set, B is the next selection */
  properties[PROP_COMPARE_WAITING] =
    g_param_spec_boolean ("compare-waiting", NULL, NULL, FALSE, READABLE);
  /* SmprofSession:compare-normalize: a SmprofDiffNormalize */
  properties[PROP_COMPARE_NORMALIZE] =
    g_param_spec_enum ("compare-normalize", NULL, NULL, SMPROF_TYPE_DIFF_NORMALIZE, SMPROF_DIFF_NORMALIZE_AUTO,
                       RW_EXPLICIT);
  /* SmprofSession:compare-status: what the comparison waits for, or went wrong */
  properties[PROP_COMPARE_STATUS] =
    g_param_spec_string ("compare-status", NULL, NULL, NULL, READABLE);
  properties[PROP_DIFF] =
    g_param_spec_object ("diff", NULL, NULL, SMPROF_TYPE_DIFF, READABLE);
  /* SmprofSession:view-profile: the profile reshaped by the transforms,
   * what the views, exports and reports show; the profile itself when
   * there are none */
  properties[PROP_VIEW_PROFILE] =
    g_param_spec_object ("view-profile", NULL, NULL, SMPROF_TYPE_PROFILE, READABLE);

  g_object_class_install_properties (object_class, SMPROF_SESSION_N_PROPS, properties);

  /**
   * SmprofSession::selection-changed:
   *
   * The selection, the nodes or the profiler changed; a new
   * #SmprofSession:profile follows once computed.
   */
  signals[SIGNAL_SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * SmprofSession::error:
   * @message: what went wrong, in words, translated
   *
   * An aggregate or a computation the user asked for failed.
   */
  signals[SIGNAL_ERROR] =
    g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* SmprofSession::transforms-changed: a transform was pushed or popped, or
   * the list cut; #SmprofSession:view-profile follows at once */
  signals[SIGNAL_TRANSFORMS_CHANGED] =
    g_signal_new ("transforms-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
smprof_session_init (SmprofSession *self)
{
  self->preset = SMPROF_PRESET_NONE;
  self->selection.kind = SMPROF_SELECT_ALL;
  self->pair_modes = g_array_new (FALSE, FALSE, sizeof (SmprofMode));
  self->start_mode = SMPROF_MODE_TRAIN;
  self->end_mode = SMPROF_MODE_TRAIN;
  self->step_mode = SMPROF_MODE_TRAIN;
  self->outlier_threshold = SMPROF_STEP_OUTLIER_THRESHOLD;
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  _smprof_session_compare_init (self);
  _smprof_session_transforms_init (self);
}

/**
 * smprof_session_cancel:
 * @self: a session
 *
 * Stops every computation in flight, for a page that goes away while its
 * workers still hold the session. The session stays usable: the next change
 * computes again.
 */
void
smprof_session_cancel (SmprofSession *self)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->index_cancellable != NULL)
    g_cancellable_cancel (self->index_cancellable);
  if (self->steps_cancellable != NULL)
    g_cancellable_cancel (self->steps_cancellable);
  if (self->job_steps_cancellable != NULL)
    g_cancellable_cancel (self->job_steps_cancellable);
  smprof_session_close_comparison (self);
}

/* ------------------------------------------------------------------------ */
/* The job, the profiler, the nodes                                         */

/**
 * smprof_session_new:
 * @job: an indexed job (smprof_job_load() done)
 *
 * Returns: (transfer full): a session on @job, aggregating the whole job of
 *   its cProfile stats (or its Pyinstrument ones when it has only those)
 */
SmprofSession *
smprof_session_new (SmprofJob *job)
{
  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);

  return g_object_new (SMPROF_TYPE_SESSION, "job", job, NULL);
}

SmprofJob *
smprof_session_get_job (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->job;
}

SmprofProfiler
smprof_session_get_profiler (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

/**
 * smprof_session_set_profiler:
 * @self: a session
 * @profiler: the profiler whose records to show (a job without any shows
 *   nothing)
 *
 * The node choice goes back to all nodes, a preset keeps, other selections
 * become the whole job; a comparison ends (A and B are of one profiler).
 */
void
smprof_session_set_profiler (SmprofSession  *self,
                             SmprofProfiler  profiler)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (profiler < SMPROF_N_PROFILERS);

  if (profiler == self->profiler)
    return;

  smprof_session_close_comparison (self);

  self->profiler = profiler;
  g_clear_pointer (&self->node_ids, g_strfreev);
  update_for_profiler (self);

  /* Records belong to one profiler: an explicit set does not carry over. */
  _smprof_session_clear_query (self);
  if (self->preset == SMPROF_PRESET_NONE ||
      !smprof_session_preset_available (self, self->preset))
    self->preset = SMPROF_PRESET_WHOLE_JOB;
  _smprof_session_selection_for_preset (self, self->preset, &self->selection);

  /* The range index sums cProfile stats, and the job's step statistics are
   * the profiler's. */
  _smprof_session_update_job_step_stats (self);

  _smprof_session_notify (self, PROP_PROFILER);
  _smprof_session_notify (self, PROP_ALL_NODE_IDS);
  _smprof_session_notify (self, PROP_NODE_IDS);
  _smprof_session_notify (self, PROP_PRESET);
  _smprof_session_queue_update (self);
}

/**
 * smprof_session_get_all_node_ids:
 * @self: a session
 *
 * Returns: (transfer none): the profiler's nodes, in natural order
 */
const char * const *
smprof_session_get_all_node_ids (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return (const char * const *) self->all_node_ids;
}

/**
 * smprof_session_get_chosen_node_ids:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the nodes chosen, %NULL when all are
 */
const char * const *
smprof_session_get_chosen_node_ids (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return (const char * const *) self->node_ids;
}

/**
 * smprof_session_get_node_ids:
 * @self: a session
 *
 * Returns: (transfer none): the nodes a preset or a query covers: the
 *   chosen ones, or all
 */
const char * const *
smprof_session_get_node_ids (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return (const char * const *) (self->node_ids != NULL ? self->node_ids : self->all_node_ids);
}

/**
 * smprof_session_set_node_ids:
 * @self: a session
 * @node_ids: (nullable): the nodes to aggregate, one or several; %NULL or
 *   every node for all
 *
 * A preset or a dragged range applies to the new nodes; intervals picked on
 * the timeline keep those of the chosen nodes.
 */
void
smprof_session_set_node_ids (SmprofSession      *self,
                             const char * const *node_ids)
{
  g_auto(GStrv) chosen = NULL;

  g_return_if_fail (SMPROF_IS_SESSION (self));

  /* Every node is all nodes. */
  if (node_ids != NULL && g_strv_length ((char **) node_ids) > 0)
    {
      chosen = g_strdupv ((char **) node_ids);
      smprof_node_ids_sort (chosen);
      if (g_strv_equal ((const char * const *) chosen, (const char * const *) self->all_node_ids))
        g_clear_pointer (&chosen, g_strfreev);
    }

  if (chosen == NULL && self->node_ids == NULL)
    return;
  if (chosen != NULL && self->node_ids != NULL &&
      g_strv_equal ((const char * const *) chosen, (const char * const *) self->node_ids))
    return;

  g_clear_pointer (&self->node_ids, g_strfreev);
  self->node_ids = g_steal_pointer (&chosen);

  _smprof_session_follow_node_choice (self);
  _smprof_session_notify (self, PROP_NODE_IDS);
  _smprof_session_queue_update (self);
}

/**
 * smprof_session_get_origin_us:
 * @self: a session
 *
 * Returns: the start of the profiler's first interval, microseconds since
 *   the epoch; what "after the job's start" counts from
 */
double
smprof_session_get_origin_us (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), 0);

  return self->origin_us;
}

/* ------------------------------------------------------------------------ */
/* A live refresh's job                                                     */

/* Whether @a and @b are the same intervals read the same way. A live
 * refresh shares the stats of what did not change (smprof_job_open()), so
 * the same stats are the same pointer; a file read again, or one that could
 * not be read before and now can, makes the answer another. */
static gboolean
same_inputs (GPtrArray *a,
             GPtrArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return FALSE;

  for (guint i = 0; i < a->len; i++)
    {
      SmprofRecord *ra = g_ptr_array_index (a, i);
      SmprofRecord *rb = g_ptr_array_index (b, i);

      if (g_strcmp0 (ra->path, rb->path) != 0 ||
          g_atomic_pointer_get (&ra->stats) != g_atomic_pointer_get (&rb->stats) ||
          g_atomic_int_get (&ra->failed) != g_atomic_int_get (&rb->failed))
        return FALSE;
    }

  return TRUE;
}

/**
 * smprof_session_swap_job:
 * @self: a session
 * @job: the same job, listed again (it may hold more intervals)
 *
 * Shows @job in place of the session's job, keeping what the user chose: the
 * profiler, the nodes, the selection (intervals picked on the timeline are
 * found again by their paths; a preset or a range is asked of @job, so it
 * takes in the new intervals it covers), the step range. The selection is
 * aggregated again only when it now names other intervals, or the same
 * ones read otherwise (a file that could not be read now reads); an open
 * comparison aggregates both sides again.
 */
void
smprof_session_swap_job (SmprofSession *self,
                         SmprofJob     *job)
{
  g_autoptr(GPtrArray) records = NULL;
  gint64 first_step = self->first_step, last_step = self->last_step;
  g_auto(GStrv) node_ids = NULL;
  gboolean compare_again;

  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (SMPROF_IS_JOB (job));

  if (job == self->job || !smprof_job_has_profiler (job, self->profiler))
    return;

  node_ids = g_strdupv (self->node_ids);

  /* The range index sums the old job's intervals: build it again later. */
  _smprof_session_forget_range_index (self);

  /* The profile and the selected records still point into the old job until
   * the next answer replaces them: self->answer_job keeps it. */
  _smprof_session_replace_job (&self->job, job);

  if (self->explicit_records != NULL)
    {
      GPtrArray *found = _smprof_session_records_in_job (job, self->profiler, self->explicit_records);

      g_ptr_array_unref (self->explicit_records);
      self->explicit_records = found;
    }

  update_for_profiler (self);

  /* Nodes still there stay chosen. */
  if (node_ids != NULL)
    {
      g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
      g_auto(GStrv) strv = NULL;

      for (guint i = 0; node_ids[i] != NULL; i++)
        if (g_strv_contains ((const char * const *) self->all_node_ids, node_ids[i]))
          g_strv_builder_add (kept, node_ids[i]);
      strv = g_strv_builder_end (kept);
      g_clear_pointer (&self->node_ids, g_strfreev);
      if (strv[0] != NULL && !g_strv_equal ((const char * const *) strv, (const char * const *) self->all_node_ids))
        self->node_ids = g_steal_pointer (&strv);
    }

  /* The step range keeps, within the new job's steps. */
  if (self->has_steps)
    {
      self->first_step = CLAMP (first_step, self->step_lowest, self->step_highest);
      self->last_step = CLAMP (last_step, self->first_step, self->step_highest);
    }
  if (self->preset != SMPROF_PRESET_NONE)
    _smprof_session_selection_for_preset (self, self->preset, &self->selection);

  _smprof_session_update_job_step_stats (self);

  /* An open comparison needs both sides of the new job: it aggregates A
   * again, and the session's next answer is B. */
  compare_again = _smprof_session_compare_job_swapped (self);

  _smprof_session_notify (self, PROP_JOB);
  _smprof_session_notify (self, PROP_ALL_NODE_IDS);
  _smprof_session_notify (self, PROP_NODE_IDS);
  _smprof_session_notify (self, PROP_FIRST_STEP);
  _smprof_session_notify (self, PROP_LAST_STEP);

  records = _smprof_session_select_for (job, self->profiler, smprof_session_get_node_ids (self),
                                        self->preset, &self->selection, self->explicit_records);
  if (same_inputs (records, self->selected_records) && !compare_again)
    {
      /* The same intervals: the profile stands; only the records move to the new job. */
      g_clear_pointer (&self->selected_records, g_ptr_array_unref);
      self->selected_records = g_steal_pointer (&records);
      _smprof_session_replace_job (&self->answer_job, job);
    }
  else
    _smprof_session_queue_update (self);
}
