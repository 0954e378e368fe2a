/* smprof-session-text.c: the session's selection in words: the description
 * an export's subtitle and a status line give, the file name slug, the
 * names of modes and steps
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-session-private.h"
#include "smprof-ui-format.h"

static const char * const mode_labels[SMPROF_N_MODES] = {
  N_("Train"),
  N_("Eval"),
  N_("Predict"),
  N_("Global"),
  N_("Pre-step-zero"),
  N_("Post-hook-close"),
};

/**
 * smprof_mode_get_label:
 * @mode: a mode
 *
 * Returns: the translated name a legend or a description gives @mode
 */
const char *
smprof_mode_get_label (SmprofMode mode)
{
  if (mode < SMPROF_MODE_TRAIN || mode > SMPROF_MODE_POST_HOOK_CLOSE)
    return "";

  return _(mode_labels[mode - 1]);
}

/* The modes by their smdebug names (TRAIN, EVAL, PREDICT, GLOBAL), which the
 * command line's --between-modes takes too, so they are not translated. */
char *
_smprof_session_dup_mode_name (SmprofMode mode)
{
  return g_ascii_strup (smprof_mode_to_string (mode), -1);
}

/**
 * smprof_session_describe_step:
 * @step: a step of a node
 *
 * Returns: (transfer full): the step in words: "Train step 12 on algo-1"
 */
char *
smprof_session_describe_step (const SmprofStep *step)
{
  g_return_val_if_fail (step != NULL, NULL);

  /* Translators: a step of one node, as in "Train step 12 on algo-1" */
  return g_strdup_printf (_("%s step %lld on %s"), smprof_mode_get_label (step->mode),
                          (long long) step->step, step->node_id);
}

/**
 * smprof_session_describe_steps:
 * @records: (element-type SmprofRecord): intervals
 *
 * Returns: (transfer full): the steps @records cover: "steps 3–5", "step 4",
 *   "no steps"
 */
char *
smprof_session_describe_steps (GPtrArray *records)
{
  gint64 first = G_MAXINT64;
  gint64 last = G_MININT64;

  g_return_val_if_fail (records != NULL, NULL);

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->name.start_step != SMPROF_STEP_ANY_START)
        {
          first = MIN (first, record->name.start_step);
          last = MAX (last, record->name.start_step);
        }
      if (record->name.end_step != SMPROF_STEP_INFINITY)
        {
          first = MIN (first, record->name.end_step);
          last = MAX (last, record->name.end_step);
        }
    }

  if (first > last)
    return g_strdup (_("no steps"));
  if (first == last)
    /* Translators: one step number */
    return g_strdup_printf (_("step %lld"), (long long) first);

  /* Translators: a range of step numbers */
  return g_strdup_printf (_("steps %lld–%lld"), (long long) first, (long long) last);
}

/* What the selection is, for an export's subtitle: the preset, the steps,
 * the modes, the phases or the time range (smprof_selection_describe()). */
char *
_smprof_session_dup_description (SmprofSession *self,
                                 GPtrArray     *records)
{
  g_autofree char *query = NULL;

  switch (self->preset)
    {
    case SMPROF_PRESET_WHOLE_JOB:
      return g_strdup (_("whole job"));
    case SMPROF_PRESET_FORWARD_PASSES:
      return g_strdup (_("forward passes (step start to forward pass end, training loop)"));
    case SMPROF_PRESET_REST_OF_STEP:
      return g_strdup (_("rest of step (training loop without the forward passes)"));
    case SMPROF_PRESET_BETWEEN_MODES:
      {
        g_autofree char *start = _smprof_session_dup_mode_name (self->start_mode);
        g_autofree char *end = _smprof_session_dup_mode_name (self->end_mode);

        /* Translators: the "Between modes" preset, as in "between modes TRAIN and EVAL" */
        return g_strdup_printf (_("between modes %s and %s"), start, end);
      }
    case SMPROF_PRESET_INITIALIZATION:
    case SMPROF_PRESET_TRAINING_LOOP:
    case SMPROF_PRESET_FINALIZATION:
    case SMPROF_PRESET_STEPS:
      return smprof_selection_describe (&self->selection);
    case SMPROF_PRESET_NONE:
    default:
      break;
    }

  if (self->explicit_records != NULL && !self->has_query)
    {
      g_autofree char *steps = smprof_session_describe_steps (records);

      /* Translators: intervals clicked on the timeline, then "steps 3–5" */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u chosen interval, %s", "%u chosen intervals, %s",
                                           records->len),
                              records->len, steps);
    }

  query = smprof_selection_describe (&self->selection);
  if (self->selection.kind == SMPROF_SELECT_OVERLAP)
    {
      g_autofree char *from = smprof_ui_format_duration (MAX (0, self->selection.start_us - self->origin_us) / 1e6);
      g_autofree char *to = smprof_ui_format_duration (MAX (0, self->selection.end_us - self->origin_us) / 1e6);

      /* Translators: a time range, then when it starts and ends after the job's first interval */
      return g_strdup_printf (_("%s (%s to %s after the job’s start)"), query, from, to);
    }

  return g_steal_pointer (&query);
}

/* The same, short and safe for a file name: "steps-3-5", "time-1.2s-3.4s". */
char *
_smprof_session_dup_slug (SmprofSession *self,
                          GPtrArray     *records)
{
  static const char * const preset_slugs[] = {
    [SMPROF_PRESET_WHOLE_JOB] = "whole-job",
    [SMPROF_PRESET_INITIALIZATION] = "initialization",
    [SMPROF_PRESET_TRAINING_LOOP] = "training-loop",
    [SMPROF_PRESET_FINALIZATION] = "finalization",
    [SMPROF_PRESET_FORWARD_PASSES] = "forward-passes",
    [SMPROF_PRESET_REST_OF_STEP] = "rest-of-step",
  };
  GString *slug = g_string_new (NULL);
  const char * const *nodes = (const char * const *) self->node_ids;

  if (self->preset == SMPROF_PRESET_STEPS)
    {
      if (self->first_step == self->last_step)
        g_string_append_printf (slug, "step-%" G_GINT64_FORMAT, self->first_step);
      else
        g_string_append_printf (slug, "steps-%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
                                self->first_step, self->last_step);
    }
  else if (self->preset == SMPROF_PRESET_BETWEEN_MODES)
    {
      g_autofree char *start = _smprof_session_dup_mode_name (self->start_mode);
      g_autofree char *end = _smprof_session_dup_mode_name (self->end_mode);

      g_string_append_printf (slug, "modes-%s-%s", start, end);
    }
  else if (self->preset != SMPROF_PRESET_NONE)
    g_string_append (slug, preset_slugs[self->preset]);
  else if (self->has_query && self->selection.kind == SMPROF_SELECT_OVERLAP)
    {
      char from[G_ASCII_DTOSTR_BUF_SIZE], to[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (from, sizeof from, "%.3f", MAX (0, self->selection.start_us - self->origin_us) / 1e6);
      g_ascii_formatd (to, sizeof to, "%.3f", MAX (0, self->selection.end_us - self->origin_us) / 1e6);
      g_string_append_printf (slug, "time-%ss-%ss", from, to);
    }
  else
    g_string_append_printf (slug, "%u-intervals", records->len);

  if (nodes != NULL && g_strv_length ((char **) nodes) == 1)
    g_string_append_printf (slug, "-%s", nodes[0]);

  for (char *c = slug->str; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '.' && *c != '_')
      *c = '-';

  return g_string_free (slug, FALSE);
}
