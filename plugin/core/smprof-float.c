/* smprof-float.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smprof-float.h"

/* Python's repr(float): the shortest digit string that reads back to the same
 * double, laid out in positional notation for exponents -4..15 and always with a
 * decimal point ("1795987296258296.0"), scientific otherwise ("1e+16"). smdebug
 * writes interval timestamps this way and our JSON uses it so that numbers read
 * the same as in a notebook. @buffer must hold SMPROF_FLOAT_BUF_SIZE bytes. */
char *
smprof_float_format_repr (char   *buffer,
                          double  value)
{
  char scientific[40];
  char digits[20];
  int n_digits = 0;
  int exponent;
  gboolean negative;
  char *out = buffer;
  const char *p;

  if (isnan (value))
    return strcpy (buffer, "nan");
  if (isinf (value))
    return strcpy (buffer, value > 0 ? "inf" : "-inf");
  if (value == 0.0)
    return strcpy (buffer, signbit (value) ? "-0.0" : "0.0");

  /* Any string of 15 digits or fewer that reads back to a normal double lies
   * within half a unit of its 15th digit (the spacing of doubles is below
   * 2.3e-16 of their value), so it is the 15-digit rounding of the double
   * with its zeros stripped: if that one does not read back, none shorter
   * does. Subnormals have fewer bits and get the full search. */
  for (int precision = fabs (value) >= DBL_MIN ? 15 : 1; precision <= 17; precision++)
    {
      snprintf (scientific, sizeof scientific, "%.*e", precision - 1, value);
      /* a locale may spell the decimal point as a comma */
      for (char *c = scientific; *c != '\0'; c++)
        if (*c == ',')
          *c = '.';
      if (g_ascii_strtod (scientific, NULL) == value)
        break;
    }

  /* scientific is now "-d.ddde+XX": read the digits, the sign and the exponent. */
  p = scientific;
  negative = (*p == '-');
  if (negative)
    p++;
  for (; *p != '\0' && *p != 'e' && *p != 'E'; p++)
    if (g_ascii_isdigit (*p))
      digits[n_digits++] = *p;
  exponent = (*p != '\0') ? atoi (p + 1) : 0;

  while (n_digits > 1 && digits[n_digits - 1] == '0')
    n_digits--;

  if (negative)
    *out++ = '-';

  if (exponent >= 16 || exponent < -4)
    {
      *out++ = digits[0];
      if (n_digits > 1)
        {
          *out++ = '.';
          memcpy (out, digits + 1, n_digits - 1);
          out += n_digits - 1;
        }
      out += sprintf (out, "e%c%02d", exponent < 0 ? '-' : '+', ABS (exponent));
    }
  else if (exponent < 0)
    {
      *out++ = '0';
      *out++ = '.';
      for (int i = -1; i > exponent; i--)
        *out++ = '0';
      memcpy (out, digits, n_digits);
      out += n_digits;
    }
  else
    {
      for (int i = 0; i <= exponent; i++)
        *out++ = i < n_digits ? digits[i] : '0';
      *out++ = '.';
      if (n_digits > exponent + 1)
        {
          memcpy (out, digits + exponent + 1, n_digits - exponent - 1);
          out += n_digits - exponent - 1;
        }
      else
        *out++ = '0';
    }

  *out = '\0';
  return buffer;
}
