/* smprof-session-text.c: the session's selection in words: the description
 * an export's subtitle and a status line give, the file name slug, the
 * names of modes and steps
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>
#include <string.h>

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

/* Whether _smprof_session_dup_description() or _smprof_session_dup_slug()
 * need the selected records: only intervals chosen by hand (described by
 * their steps) and a selection that is neither a preset nor a time range
 * (named by its count).  Others are named from the selection alone, so a
 * drag on a 256-node job does not pass over every record on the main thread
 * to name itself. */
gboolean
_smprof_session_names_need_records (SmprofSession *self)
{
  if (self->preset != SMPROF_PRESET_NONE)
    return FALSE;

  return (self->explicit_records != NULL && !self->has_query) ||
         !(self->has_query && self->selection.kind == SMPROF_SELECT_OVERLAP);
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

/* The same, short and safe for a file name: "steps-3-5", "time-1.2s-3.4s".
 * Both take NULL records when _smprof_session_names_need_records() is FALSE. */
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

/* A shell word, quoted only when it needs to be. */
static void
append_shell_word (GString    *out,
                   const char *word)
{
  gboolean plain = *word != '\0';

  for (const char *p = word; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || strchr ("-_./=,:+@%", *p) != NULL;

  if (out->len > 0)
    g_string_append_c (out, ' ');
  if (plain)
    g_string_append (out, word);
  else
    {
      g_autofree char *quoted = g_shell_quote (word);

      g_string_append (out, quoted);
    }
}

/* The command line's selection options for the session's preset, or %FALSE
 * when it has none that selects the same intervals (a range dragged on the
 * timeline, the training loop and its parts). */
static gboolean
append_selection_options (SmprofSession *self,
                          GString       *out)
{
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *start = NULL;
  g_autofree char *end = NULL;

  switch (self->preset)
    {
    case SMPROF_PRESET_WHOLE_JOB:
      append_shell_word (out, "--all");
      return TRUE;
    case SMPROF_PRESET_INITIALIZATION:
      append_shell_word (out, "--pre-step-zero");
      return TRUE;
    case SMPROF_PRESET_STEPS:
      first = g_strdup_printf ("%" G_GINT64_FORMAT, self->first_step);
      last = g_strdup_printf ("%" G_GINT64_FORMAT, self->last_step);
      start = g_ascii_strdown (smprof_mode_to_string (self->step_mode), -1);
      append_shell_word (out, "--step");
      append_shell_word (out, first);
      append_shell_word (out, "--end-step");
      append_shell_word (out, last);
      append_shell_word (out, "--mode");
      append_shell_word (out, start);
      return TRUE;
    case SMPROF_PRESET_BETWEEN_MODES:
      start = _smprof_session_dup_mode_name (self->start_mode);
      end = _smprof_session_dup_mode_name (self->end_mode);
      append_shell_word (out, "--between-modes");
      append_shell_word (out, start);
      append_shell_word (out, end);
      return TRUE;
    case SMPROF_PRESET_NONE:
    case SMPROF_PRESET_TRAINING_LOOP:
    case SMPROF_PRESET_FINALIZATION:
    case SMPROF_PRESET_FORWARD_PASSES:
    case SMPROF_PRESET_REST_OF_STEP:
    default:
      return FALSE;
    }
}

/* Whether the aggregate has every function @transform names: the command
 * line refuses a transform of a function its selection lacks. */
static gboolean
aggregate_has_functions (SmprofSession   *self,
                         SmprofTransform *transform)
{
  guint32 func = smprof_transform_get_function (transform);
  guint n = smprof_profile_get_n_functions (self->profile);

  if (smprof_transform_get_kind (transform) == SMPROF_TRANSFORM_COLLAPSE_GROUP ||
      smprof_transform_get_kind (transform) == SMPROF_TRANSFORM_HIDE_LIBRARIES || func == SMPROF_FUNC_NONE)
    return TRUE;

  for (guint i = 0; i < n; i++)
    if (smprof_profile_get_function (self->profile, i)->func == func)
      return TRUE;

  return FALSE;
}

/**
 * smprof_session_dup_command_line:
 * @self: a session
 * @command: the command: "stats", "export", "report"
 * @output: (nullable): the file the command writes (its -o), if any
 *
 * The `smprof` command that answers what the session shows: the job, the
 * profiler, the nodes, the selection and the transforms, as options; for a
 * report, the outlier threshold too when it is not the default.
 *
 * Returns: (transfer full) (nullable): the command line, or %NULL when the
 *   selection has no command-line equivalent (a dragged range, the training
 *   loop and its parts, finalization), or a transform names a function the
 *   selection lacks (which the command line refuses)
 */
char *
smprof_session_dup_command_line (SmprofSession *self,
                                 const char    *command,
                                 const char    *output)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *location = NULL;
  g_autofree char *nodes = NULL;
  g_auto(GStrv) options = NULL;

  g_return_val_if_fail (SMPROF_IS_SESSION (self), NULL);
  g_return_val_if_fail (command != NULL, NULL);

  location = smprof_source_dup_location (smprof_job_get_source (self->job));
  append_shell_word (out, "smprof");
  append_shell_word (out, command);
  append_shell_word (out, location);
  append_shell_word (out, "--profiler");
  append_shell_word (out, self->profiler == SMPROF_PROFILER_PYINSTRUMENT ? "pyinstrument" : "cprofile");
  append_shell_word (out, "--node");
  nodes = self->node_ids != NULL ? g_strjoinv (",", self->node_ids) : g_strdup ("all");
  append_shell_word (out, nodes);
  if (!append_selection_options (self, out))
    return NULL;
  for (guint i = 0; i < self->transforms->len; i++)
    if (self->profile == NULL || !aggregate_has_functions (self, g_ptr_array_index (self->transforms, i)))
      return NULL;

  /* already shell words */
  options = smprof_session_dup_transform_options (self);
  for (guint i = 0; options[i] != NULL; i++)
    g_string_append_printf (out, " %s", options[i]);

  /* A report's per-step table flags its steps with the page's threshold. */
  if (g_str_equal (command, "report") && self->outlier_threshold != SMPROF_STEP_OUTLIER_THRESHOLD)
    {
      char threshold[G_ASCII_DTOSTR_BUF_SIZE];

      append_shell_word (out, "--threshold");
      append_shell_word (out, g_ascii_formatd (threshold, sizeof threshold, "%g", self->outlier_threshold));
    }

  if (output != NULL)
    {
      append_shell_word (out, "-o");
      append_shell_word (out, output);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}
