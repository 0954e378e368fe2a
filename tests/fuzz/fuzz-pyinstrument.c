/* fuzz-pyinstrument.c: smprof_pyinstrument_parse() on arbitrary bytes, then
 * the merge of the session into a call tree
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "fuzz-common.h"
#include "smprof-call-tree.h"
#include "smprof-pyinstrument.h"
#include "smprof-types.h"

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GBytes) bytes = fuzz_bytes (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofPyinstrumentSession) session = smprof_pyinstrument_parse (bytes, table, &error);
  g_autoptr(SmprofCallTree) tree = NULL;

  if (session == NULL)
    {
      fuzz_check_error (error, SMPROF_FORMAT_ERROR);
      return 0;
    }

  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (session->n_frames == 0 || session->frames[0].subtree_size == session->n_frames);

  for (guint i = 0; i < session->n_frames; i++)
    {
      const SmprofPyFrame *frame = &session->frames[i];

      FUZZ_CHECK (frame->subtree_size >= 1);
      FUZZ_CHECK ((gsize) i + frame->subtree_size <= session->n_frames);
      FUZZ_CHECK (frame->func < smprof_function_keys_get_size (table));
      FUZZ_CHECK (isfinite (frame->time) && frame->time >= 0);
      FUZZ_CHECK (isfinite (frame->self_time));
      FUZZ_CHECK (g_utf8_validate (smprof_function_keys_get_file (table, frame->func), -1, NULL));
      FUZZ_CHECK (g_utf8_validate (smprof_function_keys_get_name (table, frame->func), -1, NULL));

      /* The children tile the subtree. */
      for (guint child = i + 1; child < i + frame->subtree_size;
           child += session->frames[child].subtree_size)
        FUZZ_CHECK (child + session->frames[child].subtree_size <= i + frame->subtree_size);
    }

  tree = smprof_call_tree_new (table);
  smprof_call_tree_add_session (tree, session);
  smprof_call_tree_add_session (tree, session);
  smprof_call_tree_sort (tree);
  FUZZ_CHECK (smprof_call_tree_get_n_nodes (tree) <= session->n_frames + 1);

  return 0;
}
