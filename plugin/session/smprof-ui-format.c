/* smprof-ui-format.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-estimated-tree.h"
#include "smprof-ui-format.h"

/* Seconds without a unit, as pstats prints them, but with three significant
 * digits for times under a millisecond instead of pstats' "0.000". */
char *
smprof_ui_format_seconds (double seconds)
{
  int decimals = 3;

  /* Sums of floats can leave -0.0 or -1e-17 where there is no time, and
   * Pyinstrument's rounded self times a few microseconds below zero; what
   * would show as 0.000000000 is no time either: a column says none one
   * way, "0.000". */
  if (seconds < 0.5e-9 && seconds > -1e-5)
    seconds = 0;

  if (seconds < 0 || isnan (seconds))
    return g_strdup ("—");

  if (seconds > 0 && seconds < 0.001)
    decimals = MIN (9, 2 - (int) floor (log10 (seconds)));

  return g_strdup_printf ("%.*f", decimals, seconds);
}

/* A duration with its unit and three significant digits: 1.23 s, 45.6 ms. */
char *
smprof_ui_format_duration (double seconds)
{
  double value;

  if (isnan (seconds))
    return g_strdup ("—");

  /* Pyinstrument's rounded self times can come out a microsecond below zero;
   * what would show as "0.00 µs" is no time either, said one way. */
  if (seconds < 0.005e-6)
    /* Translators: a duration of zero seconds */
    return g_strdup (_("0 s"));

  if (seconds >= 1)
    /* Translators: a duration in seconds, as in "1.23 s" */
    return g_strdup_printf (_("%.*f s"), seconds >= 100 ? 0 : seconds >= 10 ? 1 : 2, seconds);

  if (seconds >= 1e-3)
    {
      value = seconds * 1e3;
      /* Translators: a duration in milliseconds, as in "45.6 ms" */
      return g_strdup_printf (_("%.*f ms"), value >= 100 ? 0 : value >= 10 ? 1 : 2, value);
    }

  value = seconds * 1e6;
  /* Translators: a duration in microseconds, as in "7.89 µs" */
  return g_strdup_printf (_("%.*f µs"), value >= 100 ? 0 : value >= 10 ? 1 : 2, value);
}

/* 1234567 as "1,234,567", with the locale's separator when it has one. */
char *
smprof_ui_format_count (gint64 count)
{
  const struct lconv *conv = localeconv ();
  const char *separator = conv->thousands_sep != NULL && conv->thousands_sep[0] != '\0'
                          ? conv->thousands_sep : ",";
  g_autofree char *digits = NULL;
  GString *out;
  gsize len;

  if (count < 0)
    return g_strdup ("—");

  digits = g_strdup_printf ("%" G_GINT64_FORMAT, count);
  len = strlen (digits);
  out = g_string_sized_new (len + len / 3 * strlen (separator));

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, separator);
      g_string_append_c (out, digits[i]);
    }

  return g_string_free (out, FALSE);
}

/* pstats' ncalls column: "nc/cc" when primitive calls differ. */
char *
smprof_ui_format_calls (gint64 ncalls,
                        gint64 pcalls)
{
  g_autofree char *total = smprof_ui_format_count (ncalls);
  g_autofree char *primitive = NULL;

  if (ncalls < 0 || pcalls < 0 || pcalls == ncalls)
    return g_steal_pointer (&total);

  primitive = smprof_ui_format_count (pcalls);

  return g_strdup_printf ("%s/%s", total, primitive);
}

char *
smprof_ui_format_percent (double fraction)
{
  if (isnan (fraction))
    return g_strdup ("—");

  /* Translators: a percentage, as in "12.3 %" */
  return g_strdup_printf (_("%.1f %%"), fraction * 100.0);
}

static gboolean
is_builtin (SmprofFunctionKeys *table,
            guint32             func)
{
  return strcmp (smprof_function_keys_get_file (table, func), "~") == 0 &&
         smprof_function_keys_get_line (table, func) == 0;
}

/* The function's name; "{built-in method ...}" for C functions, as pstats
 * labels them. */
char *
smprof_ui_dup_func_name (SmprofFunctionKeys *table,
                         guint32             func)
{
  g_return_val_if_fail (table != NULL, NULL);

  if (func == SMPROF_FUNC_NONE || func >= smprof_function_keys_get_size (table))
    return g_strdup (_("All"));

  /* The estimate's frame of time it could not place, in the reader's language. */
  if (smprof_function_is_unattributed (table, func))
    return g_strdup (_("(unattributed)"));

  if (is_builtin (table, func))
    return smprof_function_keys_dup_label (table, func);

  return g_strdup (smprof_function_keys_get_name (table, func));
}

/* "file:line", or an empty string for built-ins and the synthetic root. */
char *
smprof_ui_dup_func_location (SmprofFunctionKeys *table,
                             guint32             func)
{
  g_return_val_if_fail (table != NULL, NULL);

  if (func == SMPROF_FUNC_NONE || func >= smprof_function_keys_get_size (table) || is_builtin (table, func))
    return g_strdup ("");

  return g_strdup_printf ("%s:%" G_GINT64_FORMAT,
                          smprof_function_keys_get_file (table, func),
                          smprof_function_keys_get_line (table, func));
}
