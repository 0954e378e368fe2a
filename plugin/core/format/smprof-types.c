/* smprof-types.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
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

/**
 * smprof_node_id_compare:
 * @a: a node id
 * @b: another
 *
 * Natural order, the same in every locale: runs of digits compare by their
 * value, so "2-algo-3" comes before "10-algo-11" (SageMaker names its hosts
 * algo-1 … algo-N; pid-named nodes are numbers too).
 *
 * Returns: <0, 0 or >0, as strcmp()
 */
int
smprof_node_id_compare (const char *a,
                        const char *b)
{
  const char *pa = a, *pb = b;

  while (*pa != '\0' && *pb != '\0')
    {
      if (g_ascii_isdigit (*pa) && g_ascii_isdigit (*pb))
        {
          const char *ea, *eb;
          gsize la, lb;
          int c;

          /* Leading zeros do not make a number larger. */
          while (*pa == '0' && g_ascii_isdigit (pa[1]))
            pa++;
          while (*pb == '0' && g_ascii_isdigit (pb[1]))
            pb++;
          for (ea = pa; g_ascii_isdigit (*ea); ea++)
            ;
          for (eb = pb; g_ascii_isdigit (*eb); eb++)
            ;
          la = ea - pa;
          lb = eb - pb;
          if (la != lb)
            return la < lb ? -1 : 1;
          if ((c = memcmp (pa, pb, la)) != 0)
            return c;
          pa = ea;
          pb = eb;
          continue;
        }

      if (*pa != *pb)
        return (guchar) *pa < (guchar) *pb ? -1 : 1;
      pa++;
      pb++;
    }

  if (*pa != *pb)
    return (guchar) *pa < (guchar) *pb ? -1 : 1;

  /* "01" and "1": equal as numbers, still two ids */
  return strcmp (a, b);
}

static int
compare_node_id_pointers (gconstpointer a,
                          gconstpointer b)
{
  return smprof_node_id_compare (*(const char * const *) a, *(const char * const *) b);
}

/**
 * smprof_node_ids_sort:
 * @node_ids: (array zero-terminated=1) (nullable): node ids
 *
 * Sorts @node_ids in place in smprof_node_id_compare()'s natural order.
 */
void
smprof_node_ids_sort (char **node_ids)
{
  if (node_ids != NULL)
    qsort (node_ids, g_strv_length (node_ids), sizeof (char *), compare_node_id_pointers);
}
