/* fuzz-interval-name.c: smprof_interval_name_parse() on arbitrary names
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A name that parses must format back to a name that parses to the same
 * values (smdebug's writers print repr() floats, so the round trip is exact).
 */

#include "config.h"

#include <math.h>

#include "fuzz-common.h"
#include "smprof-interval-name.h"
#include "smprof-types.h"

FUZZ_DEFINE_INITIALIZE ()

static gboolean
same_double (double a,
             double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* A folder name is a C string: it ends at the first NUL. */
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GError) error = NULL;
  g_autofree char *formatted = NULL;
  SmprofIntervalName name, again;

  if (!smprof_interval_name_parse (text, &name, &error))
    {
      fuzz_check_error (error, SMPROF_FORMAT_ERROR);
      FUZZ_CHECK (error->code == SMPROF_FORMAT_ERROR_NAME);
      return 0;
    }

  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (g_utf8_validate (text, -1, NULL));
  FUZZ_CHECK (name.start_mode >= SMPROF_MODE_TRAIN && name.start_mode <= SMPROF_MODE_POST_HOOK_CLOSE);
  FUZZ_CHECK (name.end_mode >= SMPROF_MODE_TRAIN && name.end_mode <= SMPROF_MODE_POST_HOOK_CLOSE);
  FUZZ_CHECK (name.start_phase <= SMPROF_PHASE_END && name.end_phase <= SMPROF_PHASE_END);
  FUZZ_CHECK (name.start_step >= SMPROF_STEP_ANY_START && name.end_step >= 0);
  FUZZ_CHECK (!isnan (name.start_time_us) && !isnan (name.end_time_us));
  FUZZ_CHECK (name.start_time_us >= 0 && name.end_time_us >= 0);

  formatted = smprof_interval_name_format (&name);
  FUZZ_CHECK (g_utf8_validate (formatted, -1, NULL));

  /* An overflowing time ("1e999") reads as inf, as Python's float() reads it;
   * it has no repr() that reads back, so it has no round trip. Neither has a
   * time below 1e-4 µs: repr() writes it as "7e-98", and the grammar splits
   * fields at '-' (smdebug's writer would make the same unreadable name; real
   * times are µs since the epoch). */
  if (!isfinite (name.start_time_us) || !isfinite (name.end_time_us) ||
      strstr (formatted, "e-") != NULL)
    return 0;

  FUZZ_CHECK (smprof_interval_name_parse (formatted, &again, NULL));
  FUZZ_CHECK (again.start_mode == name.start_mode && again.end_mode == name.end_mode);
  FUZZ_CHECK (again.start_step == name.start_step && again.end_step == name.end_step);
  FUZZ_CHECK (again.start_phase == name.start_phase && again.end_phase == name.end_phase);
  FUZZ_CHECK (same_double (again.start_time_us, name.start_time_us));
  FUZZ_CHECK (same_double (again.end_time_us, name.end_time_us));

  return 0;
}
