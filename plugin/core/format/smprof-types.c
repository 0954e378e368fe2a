/* smprof-types.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-types.h"

G_DEFINE_QUARK (smprof-format-error-quark, smprof_format_error)

typedef struct
{
  const char *folder;   /* as written in interval folder names */
  const char *enum_name; /* as smdebug's Python enum spells it */
} Spelling;

static const Spelling mode_spellings[SMPROF_N_MODES + 1] = {
  { NULL, NULL },
  { "train", "TRAIN" },
  { "eval", "EVAL" },
  { "predict", "PREDICT" },
  { "global", "GLOBAL" },
  { "prestepzero", "PRE_STEP_ZERO" },
  { "posthookclose", "POST_HOOK_CLOSE" },
};

static const Spelling phase_spellings[] = {
  { "start", "START" },
  { "stepstart", "STEP_START" },
  { "forwardpassend", "FORWARD_PASS_END" },
  { "stepend", "STEP_END" },
  { "end", "END" },
};

static const Spelling profiler_spellings[SMPROF_N_PROFILERS] = {
  { "cprofile", "CPROFILE" },
  { "pyinstrument", "PYINSTRUMENT" },
};

const char *
smprof_mode_to_string (SmprofMode mode)
{
  g_return_val_if_fail (mode >= SMPROF_MODE_TRAIN && mode <= SMPROF_MODE_POST_HOOK_CLOSE, NULL);

  return mode_spellings[mode].folder;
}

/* Accepts the folder string or the enum member name; folder names are the only
 * spelling smdebug's parser takes, and it is case-sensitive, so we are too. */
gboolean
smprof_mode_from_string (const char *text,
                         SmprofMode *mode)
{
  g_return_val_if_fail (text != NULL, FALSE);

  for (int i = SMPROF_MODE_TRAIN; i <= SMPROF_MODE_POST_HOOK_CLOSE; i++)
    if (strcmp (text, mode_spellings[i].folder) == 0 || strcmp (text, mode_spellings[i].enum_name) == 0)
      {
        *mode = i;
        return TRUE;
      }

  return FALSE;
}

const char *
smprof_phase_to_string (SmprofPhase phase)
{
  g_return_val_if_fail (phase <= SMPROF_PHASE_END, NULL);

  return phase_spellings[phase].folder;
}

gboolean
smprof_phase_from_string (const char  *text,
                          SmprofPhase *phase)
{
  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (phase_spellings); i++)
    if (strcmp (text, phase_spellings[i].folder) == 0 || strcmp (text, phase_spellings[i].enum_name) == 0)
      {
        *phase = i;
        return TRUE;
      }

  return FALSE;
}

const char *
smprof_profiler_to_string (SmprofProfiler profiler)
{
  g_return_val_if_fail (profiler < SMPROF_N_PROFILERS, NULL);

  return profiler_spellings[profiler].folder;
}

gboolean
smprof_profiler_from_string (const char     *text,
                             SmprofProfiler *profiler)
{
  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (profiler_spellings); i++)
    if (g_ascii_strcasecmp (text, profiler_spellings[i].folder) == 0)
      {
        *profiler = i;
        return TRUE;
      }

  return FALSE;
}
