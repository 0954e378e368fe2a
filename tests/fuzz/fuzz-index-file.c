/* fuzz-index-file.c: a file of the parsed index (a node file or a keys
 * file), as a crash, a full disk, another program or another smprof version
 * may have left it in $XDG_CACHE_HOME/smprof/index
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each input is read twice by both readers (_smprof_index_file_new() and
 * _smprof_index_keys_new()): as it is, and sealed (its checksums set to
 * match, _smprof_index_seal()), so that mutations reach the checks behind
 * the checksums. Of an accepted node file every interval is found by its
 * name, checked, and read in place and with ids remapped; what it hands
 * out must lie inside the file and say what a parsed stats file would.
 */

#include "config.h"

#include "fuzz-common.h"
#include "smprof-index-file.h"

FUZZ_DEFINE_INITIALIZE ()

/* Ids past this are not remapped (the remap table would be that large). */
#define MAX_REMAPPED_KEYS 65536

static gboolean
inside (GBytes     *bytes,
        const void *start,
        gsize       length)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const guint8 *p = start;

  return p >= data && p <= data + size && length <= (gsize) (data + size - p);
}

static void
check_stats (const SmprofPstats *stats,
             guint               n_keys)
{
  guint32 next_caller = 0;

  for (guint i = 0; i < stats->n_funcs; i++)
    {
      FUZZ_CHECK (stats->funcs[i].func < n_keys);
      FUZZ_CHECK (stats->funcs[i].first_caller == next_caller);
      next_caller += stats->funcs[i].n_callers;
      FUZZ_CHECK (next_caller <= stats->n_callers);
    }
  FUZZ_CHECK (next_caller == stats->n_callers);
  for (guint i = 0; i < stats->n_callers; i++)
    FUZZ_CHECK (stats->callers[i].caller < n_keys);
}

static void
read_node_file (GBytes *bytes)
{
  SmprofIndexFile *file = _smprof_index_file_new (bytes, NULL, NULL);
  guint n_keys;

  if (file == NULL)
    return;

  n_keys = _smprof_index_file_get_n_keys (file);

  for (guint i = 0; i < _smprof_index_file_get_n_intervals (file); i++)
    {
      const char *name = _smprof_index_file_get_interval_name (file, i);
      const SmprofIndexInterval *interval = _smprof_index_file_get_interval (file, i);
      SmprofPstats *stats;
      guint found = G_MAXUINT;

      FUZZ_CHECK (inside (bytes, name, strlen (name) + 1));
      FUZZ_CHECK (g_utf8_validate (name, -1, NULL));
      FUZZ_CHECK (_smprof_index_file_find (file, name, &found) && found == i);

      stats = _smprof_index_file_read (file, i, NULL, NULL);
      FUZZ_CHECK ((stats != NULL) == _smprof_index_file_check (file, i, NULL));
      if (stats == NULL)
        continue;

      /* In place: the arrays lie inside the file, as the interval says. */
      FUZZ_CHECK (stats->n_funcs == interval->n_funcs && stats->n_callers == interval->n_callers);
      FUZZ_CHECK (stats->n_funcs == 0 || inside (bytes, stats->funcs, (gsize) stats->n_funcs * sizeof (SmprofFuncStat)));
      FUZZ_CHECK (stats->n_callers == 0 ||
                  inside (bytes, stats->callers, (gsize) stats->n_callers * sizeof (SmprofCallerStat)));
      check_stats (stats, n_keys);

      /* Remapped (the ids reversed): a copy with each id mapped. */
      if (n_keys <= MAX_REMAPPED_KEYS)
        {
          g_autofree guint32 *remap = g_new (guint32, MAX (n_keys, 1));
          SmprofPstats *copy;

          for (guint k = 0; k < n_keys; k++)
            remap[k] = n_keys - 1 - k;
          copy = _smprof_index_file_read (file, i, remap, NULL);
          FUZZ_CHECK (copy != NULL);
          FUZZ_CHECK (copy->n_funcs == stats->n_funcs && copy->n_callers == stats->n_callers);
          for (guint f = 0; f < copy->n_funcs; f++)
            FUZZ_CHECK (copy->funcs[f].func == remap[stats->funcs[f].func] &&
                        copy->funcs[f].first_caller == stats->funcs[f].first_caller);
          for (guint c = 0; c < copy->n_callers; c++)
            FUZZ_CHECK (copy->callers[c].caller == remap[stats->callers[c].caller]);
          check_stats (copy, n_keys);
          smprof_pstats_free (copy);
        }

      smprof_pstats_free (stats);
    }

  _smprof_index_file_free (file);
}

static void
read_keys_file (GBytes *bytes)
{
  SmprofIndexKeys *keys = _smprof_index_keys_new (bytes, NULL, NULL);
  guint64 chain = SMPROF_INDEX_CHAIN_SEED;

  if (keys == NULL)
    return;

  FUZZ_CHECK (_smprof_index_keys_get_chain (keys, 0) == SMPROF_INDEX_CHAIN_SEED);

  for (guint i = 0; i < _smprof_index_keys_get_n_keys (keys); i++)
    {
      const char *file, *name;
      gsize file_length, name_length;
      gint64 line;

      _smprof_index_keys_get_key (keys, i, &file, &file_length, &line, &name, &name_length);
      FUZZ_CHECK (inside (bytes, file, file_length + 1) && file[file_length] == '\0');
      FUZZ_CHECK (inside (bytes, name, name_length + 1) && name[name_length] == '\0');
      FUZZ_CHECK (g_utf8_validate (file, file_length, NULL) && g_utf8_validate (name, name_length, NULL));

      /* The chain covers the keys read, in order. */
      chain = _smprof_index_chain_next (chain, file, line, name);
      FUZZ_CHECK (_smprof_index_keys_get_chain (keys, i + 1) == chain);
    }

  _smprof_index_keys_free (keys);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = fuzz_bytes (data, size);
  g_autoptr(GBytes) sealed_bytes = NULL;
  guint8 *sealed = g_malloc (size > 0 ? size : 1);

  read_node_file (bytes);
  read_keys_file (bytes);

  if (size > 0)
    memcpy (sealed, data, size);
  _smprof_index_seal (sealed, size);
  sealed_bytes = g_bytes_new_take (sealed, size);

  read_node_file (sealed_bytes);
  read_keys_file (sealed_bytes);

  return 0;
}
