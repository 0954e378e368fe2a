/* smprof-interval-name.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <float.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-float.h"
#include "smprof-interval-name.h"

static gboolean
parse_step (const char  *text,
            gboolean     is_end,
            gint64      *step,
            GError     **error)
{
  guint64 value;

  if (strcmp (text, "*") == 0)
    {
      *step = is_end ? SMPROF_STEP_INFINITY : SMPROF_STEP_ANY_START;
      return TRUE;
    }

  /* The writers only ever print a non-negative decimal integer (or `*`). */
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      goto invalid;

  if (*text == '\0' || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64 - 1, &value, NULL))
    goto invalid;

  *step = (gint64) value;
  return TRUE;

invalid:
  g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME,
               _("the step “%s” is neither a whole number nor “*”"), text);
  return FALSE;
}

/* The timestamps writers print, up to 19 digits with at most 3 of them after
 * the point and no exponent, converted as strtod() does but without its
 * arbitrary-precision path: N / 10^k in x87 extended precision, then rounded
 * to a double. N and 10^k are exact there and the division is correctly
 * rounded; with k <= 3, N / 10^k is either exactly a double midpoint (then
 * exact in extended precision too) or more than half an extended-precision
 * unit away from every midpoint, so the second rounding cannot go the other
 * way: the result is strtod()'s, bit for bit. Where long double is no wider
 * than a double this gives up, and so does anything else unusual. */
static gboolean
parse_timestamp_fast (const char *text,
                      double     *time_us)
{
#if LDBL_MANT_DIG >= 64
  static const long double powers[] = { 1.0L, 10.0L, 100.0L, 1000.0L };
  const char *p = text;
  guint64 n = 0;
  guint n_digits = 0;
  int n_fraction = -1;

  for (;; p++)
    {
      if (g_ascii_isdigit (*p))
        {
          if (++n_digits > 19)
            return FALSE;
          n = n * 10 + (guint64) (*p - '0');
          if (n_fraction >= 0)
            n_fraction++;
        }
      else if (*p == '.' && n_fraction < 0)
        n_fraction = 0;
      else
        break;
    }

  if (*p != '\0' || n_digits == 0 || n_fraction > 3)
    return FALSE;

  *time_us = (double) ((long double) n / powers[MAX (n_fraction, 0)]);
  return TRUE;
#else
  return FALSE;
#endif
}

/* Python's float() on repr() output: digits, an optional fraction and exponent. */
static gboolean
parse_timestamp (const char  *text,
                 double      *time_us,
                 GError     **error)
{
  const char *p = text;
  char *end = NULL;
  gboolean seen_digit = FALSE;

  if (parse_timestamp_fast (text, time_us))
    return TRUE;

  while (g_ascii_isdigit (*p))
    p++, seen_digit = TRUE;
  if (*p == '.')
    for (p++; g_ascii_isdigit (*p); p++)
      seen_digit = TRUE;
  if (seen_digit && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (*p == '+' || *p == '-')
        p++;
      if (!g_ascii_isdigit (*p))
        seen_digit = FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }

  if (seen_digit && *p == '\0')
    {
      *time_us = g_ascii_strtod (text, &end);
      if (end != NULL && *end == '\0')
        return TRUE;
    }

  g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME,
               _("the time “%s” is not a number of microseconds"), text);
  return FALSE;
}

static gboolean
parse_part (const char   *part,
            gboolean      is_end,
            SmprofMode   *mode,
            gint64       *step,
            SmprofPhase  *phase,
            double       *time_us,
            GError      **error)
{
  g_auto(GStrv) fields = g_strsplit (part, "-", 0);

  if (g_strv_length (fields) != 4)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME,
                   _("the %s part “%s” must have four fields, mode-step-phase-time"),
                   is_end ? _("end") : _("start"), part);
      return FALSE;
    }

  /* smdebug matches modes and phases case-sensitively, on the folder strings only */
  if (!smprof_mode_from_string (fields[0], mode) || strcmp (smprof_mode_to_string (*mode), fields[0]) != 0)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME,
                   _("“%s” is not a mode (train, eval, predict, global, prestepzero, posthookclose)"),
                   fields[0]);
      return FALSE;
    }

  if (!parse_step (fields[1], is_end, step, error))
    return FALSE;

  if (!smprof_phase_from_string (fields[2], phase) || strcmp (smprof_phase_to_string (*phase), fields[2]) != 0)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME,
                   _("“%s” is not a phase (start, stepstart, forwardpassend, stepend, end)"),
                   fields[2]);
      return FALSE;
    }

  return parse_timestamp (fields[3], time_us, error);
}

/* Matches @length bytes at @text against the names @to_string gives the
 * enum values @first to @last, as smdebug matches them: exactly. */
static gboolean
match_name (const char   *text,
            gsize         length,
            int           first,
            int           last,
            const char *(*to_string) (int),
            int          *value)
{
  for (int v = first; v <= last; v++)
    {
      const char *candidate = to_string (v);

      if (strlen (candidate) == length && memcmp (candidate, text, length) == 0)
        {
          *value = v;
          return TRUE;
        }
    }

  return FALSE;
}

static const char *
mode_name (int mode)
{
  return smprof_mode_to_string (mode);
}

static const char *
phase_name (int phase)
{
  return smprof_phase_to_string (phase);
}

/* parse_part() on the @length bytes at @part, without allocating, for the
 * names writers write: %FALSE for anything else, which parse_part() then reads
 * (or words the error for). A job index parses tens of thousands of names. */
static gboolean
parse_part_fast (const char  *part,
                 gsize        length,
                 gboolean     is_end,
                 SmprofMode  *mode,
                 gint64      *step,
                 SmprofPhase *phase,
                 double      *time_us)
{
  const char *fields[4];
  gsize lengths[4];
  const char *p = part;
  const char *end = part + length;
  char stamp[64];
  int value;

  for (guint i = 0; i < 4; i++)
    {
      const char *dash = i < 3 ? memchr (p, '-', end - p) : NULL;

      if (i < 3 && dash == NULL)
        return FALSE;
      fields[i] = p;
      lengths[i] = (i < 3 ? dash : end) - p;
      p = i < 3 ? dash + 1 : end;
    }
  if (memchr (fields[3], '-', lengths[3]) != NULL)
    return FALSE;

  if (!match_name (fields[0], lengths[0], SMPROF_MODE_TRAIN, SMPROF_MODE_POST_HOOK_CLOSE, mode_name, &value))
    return FALSE;
  *mode = value;

  if (lengths[1] == 1 && fields[1][0] == '*')
    *step = is_end ? SMPROF_STEP_INFINITY : SMPROF_STEP_ANY_START;
  else
    {
      /* up to 18 digits cannot overflow */
      if (lengths[1] == 0 || lengths[1] > 18)
        return FALSE;
      *step = 0;
      for (gsize i = 0; i < lengths[1]; i++)
        {
          if (!g_ascii_isdigit (fields[1][i]))
            return FALSE;
          *step = *step * 10 + (fields[1][i] - '0');
        }
    }

  if (!match_name (fields[2], lengths[2], SMPROF_PHASE_START, SMPROF_PHASE_END, phase_name, &value))
    return FALSE;
  *phase = value;

  if (lengths[3] >= sizeof stamp)
    return FALSE;
  memcpy (stamp, fields[3], lengths[3]);
  stamp[lengths[3]] = '\0';

  return parse_timestamp (stamp, time_us, NULL);
}

/**
 * smprof_interval_name_parse:
 * @text: an interval folder name
 * @name: (out caller-allocates): where to store the parsed name
 * @error: a location for a #GError, or %NULL
 *
 * Parses an interval folder name strictly by smdebug's grammar. The error
 * message says what is wrong but not which folder: the caller knows its path.
 *
 * Returns: %TRUE if @text is a valid interval folder name
 */
gboolean
smprof_interval_name_parse (const char          *text,
                            SmprofIntervalName  *name,
                            GError             **error)
{
  const char *underscore;
  g_autofree char *start_part = NULL;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  /* What the fast path accepts is ASCII, with one "_" (modes and phases
   * have none, nor have numbers). */
  underscore = strchr (text, '_');
  if (underscore != NULL &&
      parse_part_fast (text, underscore - text, FALSE, &name->start_mode, &name->start_step,
                       &name->start_phase, &name->start_time_us) &&
      parse_part_fast (underscore + 1, strlen (underscore + 1), TRUE, &name->end_mode, &name->end_step,
                       &name->end_phase, &name->end_time_us))
    return TRUE;

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME,
                           _("the name is not valid UTF-8"));
      return FALSE;
    }

  underscore = strchr (text, '_');
  if (underscore == NULL || strchr (underscore + 1, '_') != NULL)
    {
      g_set_error_literal (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME,
                           _("an interval folder name has exactly one “_” between its start and end"));
      return FALSE;
    }

  start_part = g_strndup (text, underscore - text);

  return parse_part (start_part, FALSE, &name->start_mode, &name->start_step,
                     &name->start_phase, &name->start_time_us, error) &&
         parse_part (underscore + 1, TRUE, &name->end_mode, &name->end_step,
                     &name->end_phase, &name->end_time_us, error);
}

static void
append_part (GString     *out,
             SmprofMode   mode,
             gint64       step,
             SmprofPhase  phase,
             double       time_us,
             gboolean     is_end)
{
  char buffer[SMPROF_FLOAT_BUF_SIZE];

  g_string_append (out, smprof_mode_to_string (mode));
  g_string_append_c (out, '-');
  if (step == (is_end ? SMPROF_STEP_INFINITY : SMPROF_STEP_ANY_START))
    g_string_append_c (out, '*');
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT, step);
  g_string_append_c (out, '-');
  g_string_append (out, smprof_phase_to_string (phase));
  g_string_append_c (out, '-');
  g_string_append (out, smprof_float_format_repr (buffer, time_us));
}

/**
 * smprof_interval_name_format:
 * @name: a parsed interval name
 *
 * Formats @name the way smdebug writes it (timestamps as Python's repr()).
 *
 * Returns: (transfer full): the folder name
 */
char *
smprof_interval_name_format (const SmprofIntervalName *name)
{
  GString *out = g_string_new (NULL);

  append_part (out, name->start_mode, name->start_step, name->start_phase, name->start_time_us, FALSE);
  g_string_append_c (out, '_');
  append_part (out, name->end_mode, name->end_step, name->end_phase, name->end_time_us, TRUE);

  return g_string_free (out, FALSE);
}
