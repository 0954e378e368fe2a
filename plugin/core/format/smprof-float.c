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

/* @n_digits digits and an exponent, as "%.*e" writes them ("-d.ddde+XX"). */
static void
write_scientific (char       *out,
                  gboolean    negative,
                  const char *digits,
                  int         n_digits,
                  int         exponent)
{
  int magnitude = ABS (exponent);

  if (negative)
    *out++ = '-';
  *out++ = digits[0];
  if (n_digits > 1)
    {
      *out++ = '.';
      memcpy (out, digits + 1, n_digits - 1);
      out += n_digits - 1;
    }
  *out++ = 'e';
  *out++ = exponent < 0 ? '-' : '+';
  if (magnitude >= 100)
    *out++ = '0' + magnitude / 100;
  *out++ = '0' + magnitude / 10 % 10;
  *out++ = '0' + magnitude % 10;
  *out = '\0';
}

/* The search below for a normal double, with one conversion instead of up to
 * three: the 15- and 16-digit roundings are made from the digits of the
 * 17-digit one. Those lie within half a unit of their 17th digit of the
 * value, so rounding them gives the value's rounding unless the digits
 * dropped are exactly half a unit of the last one kept, when it may not
 * (the value may lie on either side of the half): then %FALSE, and the
 * caller converts at each precision. Otherwise @scientific is what the
 * search would have left in it. */
static gboolean
shortest_from_17_digits (double  value,
                         char   *scientific)
{
  char full[40];
  char d17[17];
  int n = 0;
  int exponent;
  const char *p;

  snprintf (full, sizeof full, "%.16e", value);
  p = full;
  if (*p == '-')
    p++;
  /* any other character is a decimal point, whatever the locale spells it */
  for (; *p != '\0' && *p != 'e' && *p != 'E'; p++)
    if (g_ascii_isdigit (*p))
      {
        if (n == 17)
          return FALSE;
        d17[n++] = *p;
      }
  if (n != 17 || *p == '\0')
    return FALSE;
  exponent = atoi (p + 1);

  for (int precision = 15; precision <= 16; precision++)
    {
      char digits[17];
      int rounded_exponent = exponent;
      int versus_half = d17[precision] - '5';

      for (int i = precision + 1; i < 17 && versus_half == 0; i++)
        if (d17[i] != '0')
          versus_half = 1;
      if (versus_half == 0)
        return FALSE;

      memcpy (digits, d17, precision);
      if (versus_half > 0)
        {
          int i = precision - 1;

          while (i >= 0 && digits[i] == '9')
            digits[i--] = '0';
          if (i >= 0)
            digits[i]++;
          else
            {
              digits[0] = '1';
              rounded_exponent++;
            }
        }

      write_scientific (scientific, value < 0, digits, precision, rounded_exponent);
      if (g_ascii_strtod (scientific, NULL) == value)
        return TRUE;
    }

  write_scientific (scientific, value < 0, d17, 17, exponent);
  return TRUE;
}

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
  if (fabs (value) < DBL_MIN || !shortest_from_17_digits (value, scientific))
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
