/* smprof-session-selection.c: the session's selection: presets, the step
 * range, the mode pair, queries and explicit intervals
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "smprof-session-private.h"

/* Each setter changes the selection and queues one update
 * (smprof-session-update.c). */

static gboolean
is_forward_pass (const SmprofRecord *record)
{
  return record->name.start_phase == SMPROF_PHASE_STEP_START &&
         record->name.end_phase == SMPROF_PHASE_FORWARD_PASS_END;
}

/* The records a selection names; a copy of @explicit_records when set. Cheap
 * enough for the main thread too (one pass over the job's records). */
GPtrArray *
_smprof_session_select_for (SmprofJob              *job,
                            SmprofProfiler          profiler,
                            const char * const     *node_ids,
                            SmprofPreset            preset,
                            const SmprofSelection  *selection,
                            GPtrArray              *explicit_records)
{
  GPtrArray *records = smprof_job_get_records (job, profiler);
  GPtrArray *selected;
  GPtrArray *kept;

  if (explicit_records != NULL)
    return g_ptr_array_copy (explicit_records, NULL, NULL);

  selected = smprof_select (records, node_ids, selection);
  if (preset != SMPROF_PRESET_FORWARD_PASSES && preset != SMPROF_PRESET_REST_OF_STEP)
    return selected;

  kept = g_ptr_array_new ();
  for (guint i = 0; i < selected->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (selected, i);

      if (is_forward_pass (record) == (preset == SMPROF_PRESET_FORWARD_PASSES))
        g_ptr_array_add (kept, record);
    }
  g_ptr_array_unref (selected);

  return kept;
}

void
_smprof_session_selection_for_preset (SmprofSession   *self,
                                      SmprofPreset     preset,
                                      SmprofSelection *selection)
{
  memset (selection, 0, sizeof *selection);

  switch (preset)
    {
    case SMPROF_PRESET_INITIALIZATION:
      selection->kind = SMPROF_SELECT_INITIALIZATION;
      break;
    case SMPROF_PRESET_TRAINING_LOOP:
    case SMPROF_PRESET_FORWARD_PASSES:
    case SMPROF_PRESET_REST_OF_STEP:
      selection->kind = SMPROF_SELECT_TRAINING_LOOP;
      break;
    case SMPROF_PRESET_FINALIZATION:
      selection->kind = SMPROF_SELECT_FINALIZATION;
      break;
    case SMPROF_PRESET_STEPS:
      smprof_selection_init_step (selection, self->first_step);
      selection->end_step = self->last_step;
      selection->mode = self->step_mode;
      break;
    case SMPROF_PRESET_BETWEEN_MODES:
      selection->kind = SMPROF_SELECT_BETWEEN_MODES;
      selection->start_mode = self->start_mode;
      selection->end_mode = self->end_mode;
      break;
    case SMPROF_PRESET_WHOLE_JOB:
    case SMPROF_PRESET_NONE:
    default:
      selection->kind = SMPROF_SELECT_ALL;
      break;
    }
}

void
_smprof_session_clear_query (SmprofSession *self)
{
  self->has_query = FALSE;
  g_clear_pointer (&self->query_node_ids, g_strfreev);
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
}

static void
set_preset_internal (SmprofSession *self,
                     SmprofPreset   preset)
{
  gboolean changed = self->preset != preset;

  self->preset = preset;
  _smprof_session_clear_query (self);
  _smprof_session_selection_for_preset (self, preset, &self->selection);
  if (changed)
    _smprof_session_notify (self, PROP_PRESET);
  _smprof_session_queue_update (self);
}

SmprofPreset
smprof_session_get_preset (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), SMPROF_PRESET_NONE);

  return self->preset;
}

/**
 * smprof_session_preset_available:
 * @self: a session
 * @preset: a preset
 *
 * Returns: whether @preset can select anything in this job: the Steps
 *   preset needs steps of the job's step mode, Between modes needs modes
 */
gboolean
smprof_session_preset_available (SmprofSession *self,
                                 SmprofPreset   preset)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  switch (preset)
    {
    case SMPROF_PRESET_NONE:
      return FALSE;
    case SMPROF_PRESET_STEPS:
      return self->has_steps;
    case SMPROF_PRESET_BETWEEN_MODES:
      return self->pair_modes->len > 0;
    case SMPROF_PRESET_WHOLE_JOB:
    case SMPROF_PRESET_INITIALIZATION:
    case SMPROF_PRESET_TRAINING_LOOP:
    case SMPROF_PRESET_FINALIZATION:
    case SMPROF_PRESET_FORWARD_PASSES:
    case SMPROF_PRESET_REST_OF_STEP:
      return TRUE;
    default:
      return FALSE;
    }
}

/**
 * smprof_session_set_preset:
 * @self: a session
 * @preset: a preset, not %SMPROF_PRESET_NONE
 *
 * Selects the intervals of @preset on the chosen nodes (again, when it is
 * the preset already: after a drag, the preset applies once more).
 */
void
smprof_session_set_preset (SmprofSession *self,
                           SmprofPreset   preset)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (preset > SMPROF_PRESET_NONE && preset <= SMPROF_PRESET_LAST);

  set_preset_internal (self, preset);
}

/* ------------------------------------------------------------------------ */
/* Steps                                                                    */

/* The job's step mode is TRAIN when it has train steps; otherwise the mode
 * its steps are in (PyTorch jobs without a mode set record GLOBAL steps),
 * EVAL and PREDICT last. */
void
_smprof_session_update_step_range (SmprofSession *self)
{
  static const SmprofMode by_preference[] = {
    SMPROF_MODE_TRAIN, SMPROF_MODE_GLOBAL, SMPROF_MODE_EVAL, SMPROF_MODE_PREDICT,
  };
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  gint64 lowest[SMPROF_N_MODES + 1], highest[SMPROF_N_MODES + 1];

  for (guint m = 0; m <= SMPROF_N_MODES; m++)
    {
      lowest[m] = G_MAXINT64;
      highest[m] = G_MININT64;
    }

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);
      SmprofMode mode = record->name.start_mode;

      if (record->name.start_step != SMPROF_STEP_ANY_START && mode <= SMPROF_N_MODES)
        {
          lowest[mode] = MIN (lowest[mode], record->name.start_step);
          highest[mode] = MAX (highest[mode], record->name.start_step);
        }
    }

  self->has_steps = FALSE;
  self->step_mode = SMPROF_MODE_TRAIN;
  self->step_lowest = self->step_highest = 0;
  for (guint i = 0; i < G_N_ELEMENTS (by_preference); i++)
    if (lowest[by_preference[i]] <= highest[by_preference[i]])
      {
        self->has_steps = TRUE;
        self->step_mode = by_preference[i];
        self->step_lowest = lowest[by_preference[i]];
        self->step_highest = highest[by_preference[i]];
        break;
      }

  self->first_step = self->step_lowest;
  self->last_step = self->step_highest;
}

/**
 * smprof_session_get_step_mode:
 * @self: a session
 *
 * Returns: the mode of the Steps preset's steps: TRAIN, or the mode the
 *   job's steps are in when it has no train step (GLOBAL in most PyTorch jobs)
 */
SmprofMode
smprof_session_get_step_mode (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), SMPROF_MODE_TRAIN);

  return self->step_mode;
}

/**
 * smprof_session_get_step_bounds:
 * @self: a session
 * @lowest: (out) (optional): the first step of the step mode
 * @highest: (out) (optional): the last
 *
 * Returns: whether the job has steps in its step mode
 */
gboolean
smprof_session_get_step_bounds (SmprofSession *self,
                                gint64        *lowest,
                                gint64        *highest)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), FALSE);

  if (lowest != NULL)
    *lowest = self->step_lowest;
  if (highest != NULL)
    *highest = self->step_highest;

  return self->has_steps;
}

void
smprof_session_get_step_range (SmprofSession *self,
                               gint64        *first_step,
                               gint64        *last_step)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));

  if (first_step != NULL)
    *first_step = self->first_step;
  if (last_step != NULL)
    *last_step = self->last_step;
}

/**
 * smprof_session_set_step_range:
 * @self: a session
 * @first_step: the first step
 * @last_step: the last step, included
 *
 * Selects steps @first_step to @last_step of the step mode (the Steps preset).
 */
void
smprof_session_set_step_range (SmprofSession *self,
                               gint64         first_step,
                               gint64         last_step)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (first_step <= last_step);

  if (self->first_step != first_step)
    {
      self->first_step = first_step;
      _smprof_session_notify (self, PROP_FIRST_STEP);
    }
  if (self->last_step != last_step)
    {
      self->last_step = last_step;
      _smprof_session_notify (self, PROP_LAST_STEP);
    }

  set_preset_internal (self, SMPROF_PRESET_STEPS);
}

/* ------------------------------------------------------------------------ */
/* Between modes                                                            */

/* The modes a user can pair; pre-step-zero and post-hook-close are the
 * Initialization and Finalization presets already. */
static const SmprofMode pairable_modes[] = {
  SMPROF_MODE_TRAIN, SMPROF_MODE_EVAL, SMPROF_MODE_PREDICT, SMPROF_MODE_GLOBAL,
};

static gboolean
has_pair_mode (SmprofSession *self,
               SmprofMode     mode)
{
  for (guint i = 0; i < self->pair_modes->len; i++)
    if (g_array_index (self->pair_modes, SmprofMode, i) == mode)
      return TRUE;

  return FALSE;
}

/* The modes of the profiler's intervals. The chosen pair stays when its
 * modes still exist; otherwise it becomes the first mode to itself. */
void
_smprof_session_update_modes (SmprofSession *self)
{
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  gboolean present[SMPROF_N_MODES + 1] = { FALSE, };

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      present[record->name.start_mode] = TRUE;
      present[record->name.end_mode] = TRUE;
    }

  g_array_set_size (self->pair_modes, 0);
  for (guint i = 0; i < G_N_ELEMENTS (pairable_modes); i++)
    if (present[pairable_modes[i]])
      g_array_append_val (self->pair_modes, pairable_modes[i]);

  if (self->pair_modes->len > 0)
    {
      SmprofMode first = g_array_index (self->pair_modes, SmprofMode, 0);

      if (!has_pair_mode (self, self->start_mode))
        self->start_mode = first;
      if (!has_pair_mode (self, self->end_mode))
        self->end_mode = self->start_mode;
    }
}

/**
 * smprof_session_get_pair_modes:
 * @self: a session
 *
 * Returns: (transfer none) (element-type SmprofMode): the modes the Between
 *   modes preset offers, those the profiler's intervals have
 */
GArray *
smprof_session_get_pair_modes (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->pair_modes;
}

void
smprof_session_get_mode_pair (SmprofSession *self,
                              SmprofMode    *start_mode,
                              SmprofMode    *end_mode)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));

  if (start_mode != NULL)
    *start_mode = self->start_mode;
  if (end_mode != NULL)
    *end_mode = self->end_mode;
}

/**
 * smprof_session_set_mode_pair:
 * @self: a session
 * @start_mode: the mode the intervals start in
 * @end_mode: the mode they end in
 *
 * Selects the intervals of the chosen nodes from @start_mode to @end_mode
 * (the Between modes preset), as smdebug's fetch_profile_stats_between_modes.
 */
void
smprof_session_set_mode_pair (SmprofSession *self,
                              SmprofMode     start_mode,
                              SmprofMode     end_mode)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (start_mode >= SMPROF_MODE_TRAIN && start_mode <= SMPROF_MODE_POST_HOOK_CLOSE);
  g_return_if_fail (end_mode >= SMPROF_MODE_TRAIN && end_mode <= SMPROF_MODE_POST_HOOK_CLOSE);

  if (self->start_mode != start_mode)
    {
      self->start_mode = start_mode;
      _smprof_session_notify (self, PROP_START_MODE);
    }
  if (self->end_mode != end_mode)
    {
      self->end_mode = end_mode;
      _smprof_session_notify (self, PROP_END_MODE);
    }

  set_preset_internal (self, SMPROF_PRESET_BETWEEN_MODES);
}

/* ------------------------------------------------------------------------ */
/* Queries and explicit intervals                                           */

/**
 * smprof_session_get_selection:
 * @self: a session
 *
 * The query behind the selection. For the Forward passes and Rest of step
 * presets it is the training loop, which the session then splits; after
 * smprof_session_select_records() it is meaningless. Use
 * smprof_session_get_selected_records() for the exact intervals.
 *
 * Returns: (transfer none): the query
 */
const SmprofSelection *
smprof_session_get_selection (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return &self->selection;
}

static void
set_none (SmprofSession *self)
{
  gboolean changed = self->preset != SMPROF_PRESET_NONE;

  self->preset = SMPROF_PRESET_NONE;
  _smprof_session_clear_query (self);
  if (changed)
    _smprof_session_notify (self, PROP_PRESET);
}

/**
 * smprof_session_set_selection:
 * @self: a session
 * @selection: a query, such as a %SMPROF_SELECT_OVERLAP time range
 *
 * Selects the intervals of the chosen nodes that @selection matches.
 */
void
smprof_session_set_selection (SmprofSession         *self,
                              const SmprofSelection *selection)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (selection != NULL);

  set_none (self);
  self->selection = *selection;
  self->has_query = TRUE;
  _smprof_session_queue_update (self);
}

/**
 * smprof_session_select_range:
 * @self: a session
 * @query: the range dragged, a %SMPROF_SELECT_OVERLAP query
 * @node_ids: (nullable): the nodes it covers, %NULL for the chosen ones
 * @records: (element-type SmprofRecord): the intervals it includes, as the
 *   timeline outlines them
 *
 * Aggregates exactly @records; a time range on cProfile stats is summed by
 * the range index once it is built.
 */
void
smprof_session_select_range (SmprofSession         *self,
                             const SmprofSelection *query,
                             const char * const    *node_ids,
                             GPtrArray             *records)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (query != NULL);
  g_return_if_fail (records != NULL);

  set_none (self);
  self->has_query = TRUE;
  self->selection = *query;
  self->explicit_records = g_ptr_array_copy (records, NULL, NULL);
  if (node_ids != NULL && !g_strv_equal (node_ids, smprof_session_get_node_ids (self)))
    self->query_node_ids = g_strdupv ((char **) node_ids);
  _smprof_session_queue_update (self);
}

/**
 * smprof_session_select_records:
 * @self: a session
 * @records: (element-type SmprofRecord): records of the session's job and
 *   profiler, in record order
 *
 * Aggregates exactly @records, whatever the node choice.
 */
void
smprof_session_select_records (SmprofSession *self,
                               GPtrArray     *records)
{
  g_return_if_fail (SMPROF_IS_SESSION (self));
  g_return_if_fail (records != NULL);

  set_none (self);
  self->explicit_records = g_ptr_array_copy (records, NULL, NULL);
  _smprof_session_queue_update (self);
}

/**
 * smprof_session_get_explicit_records:
 * @self: a session
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   intervals picked one by one or by a dragged range, when the selection is
 *   exactly those
 */
GPtrArray *
smprof_session_get_explicit_records (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return self->explicit_records;
}

/**
 * smprof_session_dup_selection_records:
 * @self: a session
 *
 * What the selection names now (the answer may still be on its way).
 *
 * Returns: (transfer container) (element-type SmprofRecord): the records
 */
GPtrArray *
smprof_session_dup_selection_records (SmprofSession *self)
{
  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);

  return _smprof_session_select_for (self->job, self->profiler, smprof_session_get_node_ids (self),
                                     self->preset, &self->selection, self->explicit_records);
}

/* After the node choice changed: a preset or a range applies to the new
 * nodes; chosen intervals on nodes no longer chosen drop out (all of them:
 * the whole job). */
void
_smprof_session_follow_node_choice (SmprofSession *self)
{
  if (self->preset != SMPROF_PRESET_NONE)
    return;

  if (self->has_query)
    {
      g_clear_pointer (&self->query_node_ids, g_strfreev);
      g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
      return;
    }

  if (self->explicit_records != NULL)
    {
      const char * const *ids = smprof_session_get_node_ids (self);
      GPtrArray *kept = g_ptr_array_new ();

      for (guint i = 0; i < self->explicit_records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (self->explicit_records, i);

          if (g_strv_contains (ids, record->node_id))
            g_ptr_array_add (kept, record);
        }
      g_ptr_array_unref (self->explicit_records);
      self->explicit_records = kept;

      if (kept->len == 0)
        {
          _smprof_session_clear_query (self);
          self->preset = SMPROF_PRESET_WHOLE_JOB;
          _smprof_session_selection_for_preset (self, self->preset, &self->selection);
          _smprof_session_notify (self, PROP_PRESET);
        }
    }
}
