/* test-interval-name.c: the interval folder grammar, and Python's float repr
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-float.h"
#include "smprof-interval-name.h"

static void
test_parse_real_names (void)
{
  static const struct
  {
    const char *text;
    SmprofMode  start_mode;
    gint64      start_step;
    SmprofPhase start_phase;
    double      start_us;
    SmprofMode  end_mode;
    gint64      end_step;
    SmprofPhase end_phase;
    double      end_us;
  } cases[] = {
    { "prestepzero-*-start-1795987309313780.8_train-0-stepstart-1795987310652749.0",
      SMPROF_MODE_PRE_STEP_ZERO, SMPROF_STEP_ANY_START, SMPROF_PHASE_START, 1795987309313780.8,
      SMPROF_MODE_TRAIN, 0, SMPROF_PHASE_STEP_START, 1795987310652749.0 },
    { "global-9-stepstart-1621900012345678.2_global-9-forwardpassend-1621900012401234.8",
      SMPROF_MODE_GLOBAL, 9, SMPROF_PHASE_STEP_START, 1621900012345678.2,
      SMPROF_MODE_GLOBAL, 9, SMPROF_PHASE_FORWARD_PASS_END, 1621900012401234.8 },
    { "prestepzero-*-end-1795987318841098.5_posthookclose-*-end-1795987318841143.2",
      SMPROF_MODE_PRE_STEP_ZERO, SMPROF_STEP_ANY_START, SMPROF_PHASE_END, 1795987318841098.5,
      SMPROF_MODE_POST_HOOK_CLOSE, SMPROF_STEP_INFINITY, SMPROF_PHASE_END, 1795987318841143.2 },
    { "eval-3-stepend-1795987318838955.0_train-17-stepend-1795987318839042.8",
      SMPROF_MODE_EVAL, 3, SMPROF_PHASE_STEP_END, 1795987318838955.0,
      SMPROF_MODE_TRAIN, 17, SMPROF_PHASE_STEP_END, 1795987318839042.8 },
    /* smdebug's reader takes float() of integers too */
    { "predict-12-stepend-1_predict-13-stepstart-2",
      SMPROF_MODE_PREDICT, 12, SMPROF_PHASE_STEP_END, 1.0,
      SMPROF_MODE_PREDICT, 13, SMPROF_PHASE_STEP_START, 2.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SmprofIntervalName name;
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", cases[i].text);
      g_assert_true (smprof_interval_name_parse (cases[i].text, &name, &error));
      g_assert_no_error (error);
      g_assert_cmpint (name.start_mode, ==, cases[i].start_mode);
      g_assert_cmpint (name.start_step, ==, cases[i].start_step);
      g_assert_cmpint (name.start_phase, ==, cases[i].start_phase);
      g_assert_cmpfloat (name.start_time_us, ==, cases[i].start_us);
      g_assert_cmpint (name.end_mode, ==, cases[i].end_mode);
      g_assert_cmpint (name.end_step, ==, cases[i].end_step);
      g_assert_cmpint (name.end_phase, ==, cases[i].end_phase);
      g_assert_cmpfloat (name.end_time_us, ==, cases[i].end_us);
    }
}

/* The spec's edge vectors, and the other ways a name can be wrong. */
static void
test_reject_malformed (void)
{
  static const char *names[] = {
    "Train-5-stepstart-1.0_train-5-stepend-2.0",        /* mode case */
    "train-1.0-stepstart-1.0_train-5-stepend-2.0",      /* step not an integer */
    "train-5-stepstart-1.0_train-5-stepend-2.0_x",      /* extra _ */
    "train-5-stepstart-1.0-x_train-5-stepend-2.0",      /* extra - */
    "train-5-Stepstart-1.0_train-5-stepend-2.0",        /* phase case */
    "train-5-stepstart-1.0",                            /* no end part */
    "train-5-stepstart_train-5-stepend-2.0",            /* three fields */
    "train--stepstart-1.0_train-5-stepend-2.0",         /* empty step */
    "train-+5-stepstart-1.0_train-5-stepend-2.0",       /* signed step */
    "train-5-stepstart-abc_train-5-stepend-2.0",        /* time not a number */
    "train-5-stepstart-nan_train-5-stepend-2.0",
    "train-5-stepstart-1.0_train-5-stepend-inf",
    "train-5-stepstart-1.0_train-5-stepend-",
    "training-5-stepstart-1.0_train-5-stepend-2.0",     /* unknown mode */
    "TRAIN-5-STEP_START-1.0_train-5-stepend-2.0",       /* enum spellings are not folder names */
    "train-99999999999999999999-stepstart-1.0_train-5-stepend-2.0",
    "",
    "_",
    "train-5-stepstart-1.0_train-5-stepend-2.0\xff",    /* not UTF-8 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SmprofIntervalName name;
      g_autoptr(GError) error = NULL;
      /* escaped: a raw non-UTF-8 byte would break the TAP stream */
      g_autofree char *shown = g_strescape (names[i], NULL);

      g_test_message ("%s", shown);
      g_assert_false (smprof_interval_name_parse (names[i], &name, &error));
      g_assert_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME);
      g_assert_nonnull (error->message);
      g_assert_cmpstr (error->message, !=, "");
    }
}

/* Names the allocation-free path leaves to the general one (a 19-digit step,
 * an exponent), read the same way. */
static void
test_uncommon_spellings (void)
{
  SmprofIntervalName name;
  g_autoptr(GError) error = NULL;

  g_assert_true (smprof_interval_name_parse ("train-007-stepstart-1.5e3_global-9223372036854775806-stepend-2E+3",
                                             &name, &error));
  g_assert_no_error (error);
  g_assert_cmpint (name.start_mode, ==, SMPROF_MODE_TRAIN);
  g_assert_cmpint (name.start_step, ==, 7);
  g_assert_cmpint (name.start_phase, ==, SMPROF_PHASE_STEP_START);
  g_assert_cmpfloat (name.start_time_us, ==, 1500.0);
  g_assert_cmpint (name.end_mode, ==, SMPROF_MODE_GLOBAL);
  g_assert_cmpint (name.end_step, ==, G_GINT64_CONSTANT (9223372036854775806));
  g_assert_cmpint (name.end_phase, ==, SMPROF_PHASE_STEP_END);
  g_assert_cmpfloat (name.end_time_us, ==, 2000.0);

  g_assert_true (smprof_interval_name_parse ("prestepzero-*-start-1_posthookclose-*-end-2.", &name, &error));
  g_assert_cmpint (name.start_step, ==, SMPROF_STEP_ANY_START);
  g_assert_cmpint (name.end_step, ==, SMPROF_STEP_INFINITY);
  g_assert_cmpfloat (name.end_time_us, ==, 2.0);

  /* a negative exponent is a fifth field, for smdebug as here */
  g_assert_false (smprof_interval_name_parse ("train-5-stepstart-1e-05_train-5-stepend-2.0", &name, &error));
  g_assert_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_NAME);
}

static void
test_round_trip (void)
{
  static const char *names[] = {
    "prestepzero-*-start-1795987309313780.8_train-0-stepstart-1795987310652749.0",
    "train-41-stepend-1596585376012363.8_posthookclose-*-end-1596585376017246.5",
    "eval-1-stepend-1795987312151436.8_eval-1-stepend-1795987312151610.8",
    "global-19-forwardpassend-1795987300000000.0_posthookclose-*-end-1795987300324672.2",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SmprofIntervalName name;
      g_autofree char *text = NULL;

      g_assert_true (smprof_interval_name_parse (names[i], &name, NULL));
      text = smprof_interval_name_format (&name);
      g_assert_cmpstr (text, ==, names[i]);
    }
}

/* Expected strings are what CPython 3.11's repr() prints for these doubles. */
static void
test_float_repr (void)
{
  static const struct { double value; const char *repr; } cases[] = {
    { 0.0, "0.0" },
    { 1.0, "1.0" },
    { 0.03, "0.03" },
    { 0.030000000000000002, "0.030000000000000002" },
    { 1.280000001, "1.280000001" },
    { 9.728617000000002, "9.728617000000002" },
    { 1795987296258296.0, "1795987296258296.0" },
    { 1795987318841143.2, "1795987318841143.2" },
    { 1e16, "1e+16" },
    { 1.5e-05, "1.5e-05" },
    { 0.0001, "0.0001" },
    { 123.0, "123.0" },
    { 1e22, "1e+22" },
    { -2.5e-07, "-2.5e-07" },
    { 5e-324, "5e-324" },
    { 1.7976931348623157e+308, "1.7976931348623157e+308" },
    { 0.1, "0.1" },
    { 1795987310.8717039, "1795987310.8717039" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buffer[SMPROF_FLOAT_BUF_SIZE];

      g_assert_cmpstr (smprof_float_format_repr (buffer, cases[i].value), ==, cases[i].repr);
    }
}

/* Timestamps are read without strtod() where they look the way writers
 * print them: the result must still be strtod()'s, bit for bit, up to the
 * 19 digits and 3 decimals that path takes, and where rounding is closest
 * to a tie (integers beyond 2^53 with a fraction of .5, .25, .125). */
static void
test_timestamps_exact (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (6);
  guint n_checked = 0;

  for (guint i = 0; i < 60000; i++)
    {
      char stamp[40];
      char text[128];
      SmprofIntervalName name;
      guint64 whole;

      if (i % 3 == 0)
        {
          /* any digits, any number of decimals up to 4 */
          guint n_digits = g_rand_int_range (rand, 1, 20);
          guint n_decimals = g_rand_int_range (rand, 0, MIN (n_digits, 5));
          guint len = 0;

          for (guint d = 0; d < n_digits; d++)
            {
              if (n_decimals > 0 && d == n_digits - n_decimals)
                stamp[len++] = '.';
              stamp[len++] = '0' + g_rand_int_range (rand, 0, 10);
            }
          stamp[len] = '\0';
        }
      else
        {
          static const char * const fractions[] = { "5", "25", "125", "75", "375", "1", "9" };

          whole = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 12);
          g_snprintf (stamp, sizeof stamp, "%" G_GUINT64_FORMAT ".%s", whole % G_GUINT64_CONSTANT (10000000000000000),
                      fractions[g_rand_int_range (rand, 0, G_N_ELEMENTS (fractions))]);
        }

      g_snprintf (text, sizeof text, "global-1-stepstart-%s_global-2-stepend-%s", stamp, stamp);
      g_assert_true (smprof_interval_name_parse (text, &name, NULL));

      {
        double expected = g_ascii_strtod (stamp, NULL);

        if (memcmp (&name.start_time_us, &expected, sizeof expected) != 0)
          g_error ("%s read as %.17g, strtod() gives %.17g", stamp, name.start_time_us, expected);
        g_assert_true (memcmp (&name.end_time_us, &expected, sizeof expected) == 0);
      }
      n_checked++;
    }

  g_assert_cmpuint (n_checked, ==, 60000);
}

/* The significant digits of a number as text, without trailing zeros. */
static char *
significant_digits (const char *text)
{
  GString *digits = g_string_new (NULL);

  for (const char *p = text; *p != '\0' && *p != 'e'; p++)
    if (g_ascii_isdigit (*p) && (digits->len > 0 || *p != '0'))
      g_string_append_c (digits, *p);
  while (digits->len > 1 && digits->str[digits->len - 1] == '0')
    g_string_truncate (digits, digits->len - 1);

  return g_string_free (digits, FALSE);
}

/* repr() on random doubles and on values close to a tie at their 16th or
 * 17th digit, against the plain search: at each precision from 1 up, the
 * rounding printf() makes, until one reads back. */
static void
test_float_repr_shortest (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);

  for (guint i = 0; i < 30000; i++)
    {
      char buffer[SMPROF_FLOAT_BUF_SIZE];
      char scientific[40];
      char tie[64];
      double value;
      guint64 bits;
      int precision;
      g_autofree char *got = NULL;
      g_autofree char *expected = NULL;

      switch (i % 3)
        {
        case 0:
          bits = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
          memcpy (&value, &bits, sizeof value);
          break;
        case 1:
          value = g_rand_double (rand) * pow (10, g_rand_int_range (rand, -8, 12));
          break;
        default:
          g_snprintf (tie, sizeof tie, "%d.%014u5e%d", g_rand_int_range (rand, 1, 10),
                      (guint) g_rand_int_range (rand, 0, G_MAXINT), g_rand_int_range (rand, -10, 16));
          value = nextafter (g_ascii_strtod (tie, NULL), i % 2 ? 0.0 : INFINITY);
          break;
        }
      if (!isfinite (value) || value == 0.0)
        continue;

      for (precision = 1; precision <= 17; precision++)
        {
          char format[8];

          g_snprintf (format, sizeof format, "%%.%de", precision - 1);
          g_ascii_formatd (scientific, sizeof scientific, format, value);
          if (g_ascii_strtod (scientific, NULL) == value)
            break;
        }

      smprof_float_format_repr (buffer, value);
      g_assert_true (g_ascii_strtod (buffer, NULL) == value);
      got = significant_digits (buffer);
      expected = significant_digits (scientific);
      if (g_strcmp0 (got, expected) != 0)
        g_error ("%.17g: repr %s, the search gives %s", value, buffer, scientific);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/interval-name/parse-real-names", test_parse_real_names);
  g_test_add_func ("/interval-name/reject-malformed", test_reject_malformed);
  g_test_add_func ("/interval-name/uncommon-spellings", test_uncommon_spellings);
  g_test_add_func ("/interval-name/round-trip", test_round_trip);
  g_test_add_func ("/interval-name/timestamps-exact", test_timestamps_exact);
  g_test_add_func ("/float/repr", test_float_repr);
  g_test_add_func ("/float/repr-shortest", test_float_repr_shortest);

  return g_test_run ();
}
