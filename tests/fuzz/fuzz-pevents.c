/* fuzz-pevents.c: smprof_pevents_parse() on arbitrary bytes, then the sort
 * that merges a node's files, and the file-name rules on the same bytes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "fuzz-common.h"
#include "smprof-pevents.h"

FUZZ_DEFINE_INITIALIZE ()

#define FILE_NAME "framework/pevents/2026112921/1_fuzz-node_pythontimeline.json"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = fuzz_bytes (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) events = smprof_pevents_parse (bytes, FILE_NAME, &error);

  /* The input as a path: a node id, when there is one, is valid UTF-8 and
   * what lies between the timestamp and the suffix. */
  if (size < 1024)
    {
      g_autofree char *path = g_strndup ((const char *) data, size);
      g_autofree char *node_id = smprof_pevents_dup_node_id (path);

      if (node_id != NULL)
        {
          FUZZ_CHECK (g_utf8_validate (node_id, -1, NULL));
          FUZZ_CHECK (node_id[0] != '\0');
          FUZZ_CHECK (strstr (path, node_id) != NULL);
        }
      if (smprof_pevents_is_timeline_path (path))
        FUZZ_CHECK (g_str_has_prefix (path, "framework/pevents/"));
    }

  if (events == NULL)
    {
      fuzz_check_error (error, SMPROF_FORMAT_ERROR);
      /* every message names the file */
      FUZZ_CHECK (g_str_has_prefix (error->message, FILE_NAME ": "));
      return 0;
    }

  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK ((gsize) events->len <= size);

  for (guint i = 0; i < events->len; i++)
    {
      const SmprofStepEvent *e = &g_array_index (events, SmprofStepEvent, i);

      FUZZ_CHECK (e->node_id == NULL);
      FUZZ_CHECK (e->mode >= SMPROF_MODE_TRAIN && e->mode <= SMPROF_MODE_GLOBAL);
      FUZZ_CHECK (e->step >= 0);
      FUZZ_CHECK (e->phase != NULL && g_str_has_prefix (e->phase, "Step:ModeKeys."));
      FUZZ_CHECK (isfinite (e->start_us) && isfinite (e->end_us));
      FUZZ_CHECK (e->start_us > 0 && e->end_us >= e->start_us);
    }

  smprof_pevents_sort (events);
  for (guint i = 1; i < events->len; i++)
    FUZZ_CHECK (g_array_index (events, SmprofStepEvent, i - 1).start_us <=
                g_array_index (events, SmprofStepEvent, i).start_us);

  return 0;
}
