/* smprof-session-compare.c: comparing two selections: an answer becomes A,
 * the next ones B; the diff is built on a worker
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-background.h"
#include "smprof-session-private.h"

struct _SmprofSessionCompare
{
  gboolean             active;
  SmprofDiffNormalize  normalize;

  SmprofProfile       *profiles[2];      /* indexed by SmprofDiffSide; NULL until aggregated */
  GPtrArray           *records[2];
  char                *labels[2];
  char                *pending_b_label;  /* B's name from smprof_session_compare_records() */
  char                *status;           /* what it waits for, or what went wrong */

  SmprofDiff          *diff;
  GCancellable        *cancellable;      /* the diff or A's aggregate in flight */
  guint                generation;
};

static void
clear_side (SmprofSessionCompare *compare,
            SmprofDiffSide        side)
{
  g_clear_object (&compare->profiles[side]);
  g_clear_pointer (&compare->records[side], g_ptr_array_unref);
  g_clear_pointer (&compare->labels[side], g_free);
}

static void
cancel_work (SmprofSessionCompare *compare)
{
  compare->generation++;
  if (compare->cancellable != NULL)
    g_cancellable_cancel (compare->cancellable);
  g_clear_object (&compare->cancellable);
}

static void
set_status (SmprofSession *self,
            const char    *status)
{
  SmprofSessionCompare *compare = self->compare;

  if (g_strcmp0 (compare->status, status) == 0)
    return;

  g_free (compare->status);
  compare->status = g_strdup (status);
  _smprof_session_notify (self, PROP_COMPARE_STATUS);
}

static void
set_diff (SmprofSession *self,
          SmprofDiff    *diff)
{
  if (g_set_object (&self->compare->diff, diff))
    _smprof_session_notify (self, PROP_DIFF);
}

/* ------------------------------------------------------------------------ */
/* The diff, on a worker                                                    */

typedef struct
{
  SmprofProfile       *a;
  SmprofProfile       *b;
  SmprofDiffNormalize  normalize;
  guint                generation;
} DiffRequest;

static void
diff_request_free (gpointer data)
{
  DiffRequest *request = data;

  g_clear_object (&request->a);
  g_clear_object (&request->b);
  g_free (request);
}

static void
build_diff_in_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  DiffRequest *request = task_data;
  g_autoptr(GError) error = NULL;
  SmprofDiff *diff;

  if (g_task_return_error_if_cancelled (task))
    return;

  diff = smprof_diff_new (request->a, request->b, request->normalize, &error);
  if (diff == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, diff, g_object_unref);
}

static void
build_diff_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  SmprofSession *self = SMPROF_SESSION (object);
  SmprofSessionCompare *compare = self->compare;
  DiffRequest *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SmprofDiff) diff = NULL;
  g_autoptr(GError) error = NULL;

  diff = g_task_propagate_pointer (G_TASK (result), &error);
  if (request->generation != compare->generation)
    return;

  g_clear_object (&compare->cancellable);

  if (diff == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not compare the selections: %s"), error->message);

      set_status (self, message);
      return;
    }

  set_status (self, NULL);
  set_diff (self, diff);
}

static void
maybe_build_diff (SmprofSession *self)
{
  SmprofSessionCompare *compare = self->compare;
  g_autoptr(GTask) task = NULL;
  DiffRequest *request;

  if (!compare->active || compare->profiles[SMPROF_DIFF_A] == NULL || compare->profiles[SMPROF_DIFF_B] == NULL)
    return;

  cancel_work (compare);
  compare->cancellable = g_cancellable_new ();

  request = g_new0 (DiffRequest, 1);
  request->a = g_object_ref (compare->profiles[SMPROF_DIFF_A]);
  request->b = g_object_ref (compare->profiles[SMPROF_DIFF_B]);
  request->normalize = compare->normalize;
  request->generation = compare->generation;

  task = g_task_new (self, compare->cancellable, build_diff_cb, NULL);
  g_task_set_source_tag (task, maybe_build_diff);
  g_task_set_task_data (task, request, diff_request_free);
  smprof_task_run_awaited (task, build_diff_in_thread);
}

/* ------------------------------------------------------------------------ */
/* A of given records, aggregated here                                      */

typedef struct
{
  SmprofJob      *job;
  SmprofProfiler  profiler;
  GPtrArray      *records;
  guint           generation;
} SideRequest;

static void
side_request_free (gpointer data)
{
  SideRequest *request = data;

  g_clear_object (&request->job);
  g_clear_pointer (&request->records, g_ptr_array_unref);
  g_free (request);
}

static void
aggregate_side_in_thread (GTask        *task,
                          gpointer      source_object,
                          gpointer      task_data,
                          GCancellable *cancellable)
{
  SideRequest *request = task_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) node_ids = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!smprof_job_load_stats (request->job, request->records, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  node_ids = smprof_records_dup_node_ids (request->records);
  g_task_return_pointer (task,
                         smprof_profile_new (request->job, request->profiler, (const char * const *) node_ids,
                                             request->records),
                         g_object_unref);
}

static void
aggregate_side_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  SmprofSession *self = SMPROF_SESSION (object);
  SmprofSessionCompare *compare = self->compare;
  SideRequest *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SmprofProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = g_task_propagate_pointer (G_TASK (result), &error);
  if (request->generation != compare->generation)
    return;

  g_clear_object (&compare->cancellable);

  if (profile == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not aggregate selection A: %s"), error->message);

      set_status (self, message);
      return;
    }

  g_set_object (&compare->profiles[SMPROF_DIFF_A], profile);
  maybe_build_diff (self);
}

/* Aggregates A's records on a worker; the diff follows when B is there. */
static void
aggregate_a (SmprofSession *self)
{
  SmprofSessionCompare *compare = self->compare;
  g_autoptr(GTask) task = NULL;
  SideRequest *request;

  cancel_work (compare);
  compare->cancellable = g_cancellable_new ();

  request = g_new0 (SideRequest, 1);
  request->job = g_object_ref (self->job);
  request->profiler = self->profiler;
  request->records = g_ptr_array_copy (compare->records[SMPROF_DIFF_A], NULL, NULL);
  request->generation = compare->generation;

  task = g_task_new (self, compare->cancellable, aggregate_side_cb, NULL);
  g_task_set_source_tag (task, aggregate_a);
  g_task_set_task_data (task, request, side_request_free);
  smprof_task_run_awaited (task, aggregate_side_in_thread);
}

/* ------------------------------------------------------------------------ */
/* Opening and closing                                                      */

static void
notify_state (SmprofSession *self)
{
  _smprof_session_notify (self, PROP_COMPARING);
  _smprof_session_notify (self, PROP_COMPARE_WAITING);
}

static void
open_comparison (SmprofSession *self,
                 GPtrArray     *a_records,
                 const char    *a_label)
{
  SmprofSessionCompare *compare = self->compare;

  cancel_work (compare);
  clear_side (compare, SMPROF_DIFF_A);
  clear_side (compare, SMPROF_DIFF_B);
  set_diff (self, NULL);

  g_clear_pointer (&compare->pending_b_label, g_free);
  compare->active = TRUE;
  compare->records[SMPROF_DIFF_A] = g_ptr_array_ref (a_records);
  compare->labels[SMPROF_DIFF_A] = g_strdup (a_label);
}

/**
 * smprof_session_close_comparison:
 * @self: a session
 *
 * Ends the comparison, if one is open.
 */
void
smprof_session_close_comparison (SmprofSession *self)
{
  SmprofSessionCompare *compare;

  g_return_if_fail (SMPROF_IS_SESSION (self));

  compare = self->compare;
  if (!compare->active)
    return;

  cancel_work (compare);
  compare->active = FALSE;
  g_clear_pointer (&compare->pending_b_label, g_free);
  clear_side (compare, SMPROF_DIFF_A);
  clear_side (compare, SMPROF_DIFF_B);
  set_status (self, NULL);
  set_diff (self, NULL);
  notify_state (self);
}

/* Each answer, once A is set, is B: the user picks B (and picks again) on
 * the timeline or with a preset. */
void
_smprof_session_compare_answer (SmprofSession *self)
{
  SmprofSessionCompare *compare = self->compare;
  gboolean was_waiting;

  if (!compare->active || self->profile == NULL ||
      self->profile == compare->profiles[SMPROF_DIFF_A])
    return;

  /* A newer selection is on its way: wait for its answer. */
  if (self->update_source != 0)
    return;

  was_waiting = compare->profiles[SMPROF_DIFF_B] == NULL;
  clear_side (compare, SMPROF_DIFF_B);
  compare->profiles[SMPROF_DIFF_B] = g_object_ref (self->profile);
  compare->records[SMPROF_DIFF_B] = self->selected_records != NULL ? g_ptr_array_ref (self->selected_records) : NULL;
  compare->labels[SMPROF_DIFF_B] = compare->pending_b_label != NULL ? g_steal_pointer (&compare->pending_b_label)
                                                                    : g_strdup (self->description);
  if (compare->profiles[SMPROF_DIFF_A] != NULL)
    set_status (self, NULL);
  if (was_waiting)
    _smprof_session_notify (self, PROP_COMPARE_WAITING);
  maybe_build_diff (self);
}

/**
 * smprof_session_compare_current:
 * @self: a session
 *
 * Opens a comparison of the current answer (A) with the next ones (B).
 *
 * Returns: %FALSE when there is no answer to compare yet
 */
gboolean
smprof_session_compare_current (SmprofSession *self)
{
  SmprofSessionCompare *compare;

  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  compare = self->compare;
  if (self->profile == NULL || self->selected_records == NULL)
    return FALSE;

  open_comparison (self, self->selected_records, self->description);
  compare->profiles[SMPROF_DIFF_A] = g_object_ref (self->profile);
  set_status (self, _("Select B on the timeline or pick a preset"));
  notify_state (self);

  return TRUE;
}

/**
 * smprof_session_compare_records:
 * @self: a session
 * @a_records: (element-type SmprofRecord): records of the session's job and
 *   profiler, aggregated apart as A
 * @a_label: (nullable): A in words
 * @b_records: (element-type SmprofRecord): B's records, which become the
 *   session's selection, so its answer is B
 * @b_label: (nullable): B in words, instead of the session's description
 *
 * Opens a comparison of two given sets of intervals ("this outlier step
 * against the median one").
 */
void
smprof_session_compare_records (SmprofSession *self,
                                GPtrArray     *a_records,
                                const char    *a_label,
                                GPtrArray     *b_records,
                                const char    *b_label)
{
  SmprofSessionCompare *compare;

  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (a_records != NULL && b_records != NULL);

  compare = self->compare;
  open_comparison (self, a_records, a_label);
  set_status (self, _("Aggregating A and B…"));
  notify_state (self);

  aggregate_a (self);

  /* B is described in the session's own words unless told otherwise: the
   * label names the first answer, later picks are described by the session. */
  compare->pending_b_label = g_strdup (b_label);
  smprof_session_select_records (self, b_records);
}

/* The intervals of the steps of @node_id (@others %FALSE) or of every other
 * node, in the statistics' step order. */
static GPtrArray *
dup_step_records (SmprofStepStats *stats,
                  const char      *node_id,
                  gboolean         others)
{
  GPtrArray *records = g_ptr_array_new ();

  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);

      if ((g_strcmp0 (step->node_id, node_id) != 0) == others)
        g_ptr_array_extend (records, smprof_step_stats_get_step_records (stats, i), NULL, NULL);
    }

  return records;
}

/**
 * smprof_session_compare_outlier:
 * @self: a session
 * @step: a step of smprof_session_get_job_step_stats()
 *
 * Opens the comparison of the node's median step of the same mode (A) with
 * step @step (B).
 *
 * Returns: whether it could (the statistics are of the session's job and
 *   hold @step)
 */
gboolean
smprof_session_compare_outlier (SmprofSession *self,
                                guint          step)
{
  SmprofStepStats *stats;
  const SmprofStep *this_step, *median;
  g_autofree char *step_text = NULL;
  g_autofree char *median_text = NULL;
  g_autofree char *a_label = NULL;
  g_autofree char *b_label = NULL;

  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  /* Statistics of the job before a refresh name records the session no longer shows. */
  stats = self->job_step_stats;
  if (stats == NULL || smprof_step_stats_get_job (stats) != self->job ||
      step >= smprof_step_stats_get_n_steps (stats))
    return FALSE;

  this_step = smprof_step_stats_get_step (stats, step);
  median = smprof_step_stats_get_step (stats, this_step->median_step);
  step_text = smprof_session_describe_step (this_step);
  median_text = smprof_session_describe_step (median);
  /* Translators: the comparison's A side, as in "Median step (Train step 7 on algo-1)" */
  a_label = g_strdup_printf (_("Median step (%s)"), median_text);
  /* Translators: the comparison's B side, as in "Outlier step (Train step 12 on algo-1)" */
  b_label = g_strdup_printf (_("Outlier step (%s)"), step_text);

  smprof_session_compare_records (self,
                                  smprof_step_stats_get_step_records (stats, this_step->median_step), a_label,
                                  smprof_step_stats_get_step_records (stats, step), b_label);

  return TRUE;
}

/**
 * smprof_session_compare_node:
 * @self: a session
 * @node_id: a node of the job's per-step statistics
 *
 * Opens a comparison of the job's steps on every other node (A) with its
 * steps on @node_id (B), per step, so that a node's share of the steps does
 * not count as a difference.
 *
 * Returns: %FALSE when either side has no step
 */
gboolean
smprof_session_compare_node (SmprofSession *self,
                             const char    *node_id)
{
  SmprofStepStats *stats;
  g_autoptr(GPtrArray) others = NULL;
  g_autoptr(GPtrArray) mine = NULL;
  g_autofree char *a_label = NULL;
  g_autofree char *b_label = NULL;
  guint n_others = 0;

  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);
  g_return_val_if_fail (node_id != NULL, FALSE);

  stats = self->job_step_stats;
  if (stats == NULL || smprof_step_stats_get_job (stats) != self->job)
    return FALSE;

  others = dup_step_records (stats, node_id, TRUE);
  mine = dup_step_records (stats, node_id, FALSE);
  if (others->len == 0 || mine->len == 0)
    return FALSE;

  for (const char * const *id = smprof_step_stats_get_node_ids (stats); *id != NULL; id++)
    n_others += g_strcmp0 (*id, node_id) != 0;

  a_label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The other node (%u), every step",
                                          "The other nodes (%u), every step", n_others),
                             n_others);
  /* Translators: the comparison's B side: one node's steps */
  b_label = g_strdup_printf (_("Node %s, every step"), node_id);

  smprof_session_set_compare_normalize (self, SMPROF_DIFF_NORMALIZE_STEP);
  smprof_session_compare_records (self, others, a_label, mine, b_label);

  return TRUE;
}

#define SWAP_SIDES(array) G_STMT_START { \
    gpointer tmp = (array)[SMPROF_DIFF_A]; \
    (array)[SMPROF_DIFF_A] = (array)[SMPROF_DIFF_B]; \
    (array)[SMPROF_DIFF_B] = tmp; \
  } G_STMT_END

/**
 * smprof_session_swap_comparison:
 * @self: a session
 *
 * Swaps A and B; the next selection picked replaces B again.
 */
void
smprof_session_swap_comparison (SmprofSession *self)
{
  SmprofSessionCompare *compare;

  g_return_if_fail (SMPROF_IS_SESSION (self));

  compare = self->compare;
  if (!compare->active || compare->profiles[SMPROF_DIFF_A] == NULL || compare->profiles[SMPROF_DIFF_B] == NULL)
    return;

  SWAP_SIDES (compare->profiles);
  SWAP_SIDES (compare->records);
  SWAP_SIDES (compare->labels);
  maybe_build_diff (self);
}

/* After a live refresh: a diff compares two profiles of one job. An open
 * comparison finds A's intervals again in the new job (by path) and
 * aggregates them again; B, with its name kept, is the session's next
 * answer, which the caller must then ask for even when the selection names
 * the same intervals. A whose intervals are all gone closes the comparison.
 * Returns whether the selection must be aggregated again. */
gboolean
_smprof_session_compare_job_swapped (SmprofSession *self)
{
  SmprofSessionCompare *compare = self->compare;
  g_autoptr(GPtrArray) a_records = NULL;

  if (!compare->active || compare->records[SMPROF_DIFF_A] == NULL)
    return FALSE;

  a_records = _smprof_session_records_in_job (self->job, self->profiler, compare->records[SMPROF_DIFF_A]);
  if (a_records->len == 0)
    {
      smprof_session_close_comparison (self);
      return FALSE;
    }

  g_clear_object (&compare->profiles[SMPROF_DIFF_A]);
  g_clear_pointer (&compare->records[SMPROF_DIFF_A], g_ptr_array_unref);
  compare->records[SMPROF_DIFF_A] = g_ptr_array_ref (a_records);

  if (compare->labels[SMPROF_DIFF_B] != NULL && compare->pending_b_label == NULL)
    compare->pending_b_label = g_strdup (compare->labels[SMPROF_DIFF_B]);
  g_clear_object (&compare->profiles[SMPROF_DIFF_B]);
  g_clear_pointer (&compare->records[SMPROF_DIFF_B], g_ptr_array_unref);

  aggregate_a (self);

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Getters                                                                  */

gboolean
smprof_session_get_comparing (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  return self->compare->active;
}

/**
 * smprof_session_get_compare_waiting:
 * @self: a session
 *
 * Returns: whether a comparison is open with no B yet
 */
gboolean
smprof_session_get_compare_waiting (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  return smprof_session_get_comparing (self) && self->compare->profiles[SMPROF_DIFF_B] == NULL &&
         self->compare->pending_b_label == NULL;
}

SmprofDiffNormalize
smprof_session_get_compare_normalize (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), SMPROF_DIFF_NORMALIZE_NONE);

  return self->compare->normalize;
}

/**
 * smprof_session_set_compare_normalize:
 * @self: a session
 * @normalize: what each side is divided by
 *
 * An open comparison's diff is built again.
 */
void
smprof_session_set_compare_normalize (SmprofSession       *self,
                                      SmprofDiffNormalize  normalize)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (normalize <= SMPROF_DIFF_NORMALIZE_AUTO);

  if (self->compare->normalize == normalize)
    return;

  self->compare->normalize = normalize;
  _smprof_session_notify (self, PROP_COMPARE_NORMALIZE);
  maybe_build_diff (self);
}

/**
 * smprof_session_get_diff:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the comparison's diff, once both
 *   sides are aggregated
 */
SmprofDiff *
smprof_session_get_diff (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->compare->diff;
}

/**
 * smprof_session_get_compare_profile:
 * @self: a session
 * @side: A or B
 *
 * Returns: (transfer none) (nullable): the side's aggregate
 */
SmprofProfile *
smprof_session_get_compare_profile (SmprofSession  *self,
                                    SmprofDiffSide  side)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);
  g_return_val_if_fail (side == SMPROF_DIFF_A || side == SMPROF_DIFF_B, NULL);

  return self->compare->profiles[side];
}

/**
 * smprof_session_get_compare_records:
 * @self: a session
 * @side: A or B
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   side's intervals
 */
GPtrArray *
smprof_session_get_compare_records (SmprofSession  *self,
                                    SmprofDiffSide  side)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);
  g_return_val_if_fail (side == SMPROF_DIFF_A || side == SMPROF_DIFF_B, NULL);

  return self->compare->records[side];
}

const char *
smprof_session_get_compare_label (SmprofSession  *self,
                                  SmprofDiffSide  side)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);
  g_return_val_if_fail (side == SMPROF_DIFF_A || side == SMPROF_DIFF_B, NULL);

  return self->compare->labels[side];
}

/**
 * smprof_session_get_compare_status:
 * @self: a session
 *
 * Returns: (nullable): what the comparison waits for ("Select B…",
 *   "Aggregating A and B…"), or why it could not be made
 */
const char *
smprof_session_get_compare_status (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->compare->status;
}

void
_smprof_session_compare_init (SmprofSession *self)
{
  self->compare = g_new0 (SmprofSessionCompare, 1);
  /* The core's and the command line's default: per step when the sides
   * cover different numbers of steps (smprof_diff_normalize_resolve()). */
  self->compare->normalize = SMPROF_DIFF_NORMALIZE_AUTO;
}

/* Drops everything; the struct itself stays for the getters until finalize. */
void
_smprof_session_compare_dispose (SmprofSession *self)
{
  SmprofSessionCompare *compare = self->compare;

  cancel_work (compare);
  compare->active = FALSE;
  clear_side (compare, SMPROF_DIFF_A);
  clear_side (compare, SMPROF_DIFF_B);
  g_clear_pointer (&compare->pending_b_label, g_free);
  g_clear_pointer (&compare->status, g_free);
  g_clear_object (&compare->diff);
}

void
_smprof_session_compare_finalize (SmprofSession *self)
{
  g_clear_pointer (&self->compare, g_free);
}
