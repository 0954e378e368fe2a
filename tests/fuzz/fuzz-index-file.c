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
 * name, checked, and read as it is and with ids remapped; names must lie
 * inside the file, and the stats read say what a parsed stats file would.
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

/* Written again as the writer would and read back: the same stats, every
 * double to the bit. */
static void
check_round_trip (const SmprofPstats *stats,
                  guint               n_keys)
{
  SmprofIndexEntry entry = { 0 };
  g_autofree guint8 *encoded = g_malloc ((gsize) stats->n_funcs * SMPROF_INDEX_FUNC_MAX_BYTES +
                                         (gsize) stats->n_callers * SMPROF_INDEX_CALLER_MAX_BYTES + 1);
  g_autofree SmprofFuncStat *funcs = g_new0 (SmprofFuncStat, MAX (stats->n_funcs, 1));
  g_autofree SmprofCallerStat *callers = g_new0 (SmprofCallerStat, MAX (stats->n_callers, 1));
  SmprofPstats totals = { 0 };
  gboolean bad = FALSE;
  gsize length;

  entry.funcs = stats->funcs;
  entry.n_funcs = stats->n_funcs;
  entry.callers = stats->callers;
  entry.n_callers = stats->n_callers;
  length = _smprof_index_arrays_encode (encoded, &entry, n_keys, &bad);
  FUZZ_CHECK (!bad);
  FUZZ_CHECK (_smprof_index_arrays_decode (encoded, length, n_keys, NULL, funcs, stats->n_funcs,
                                           callers, stats->n_callers, &totals));
  FUZZ_CHECK (totals.total_calls == stats->total_calls && totals.prim_calls == stats->prim_calls &&
              memcmp (&totals.total_tt, &stats->total_tt, sizeof totals.total_tt) == 0);

  for (guint i = 0; i < stats->n_funcs; i++)
    {
      const SmprofFuncStat *a = &stats->funcs[i], *b = &funcs[i];

      FUZZ_CHECK (a->func == b->func && a->first_caller == b->first_caller && a->n_callers == b->n_callers &&
                  a->cc == b->cc && a->nc == b->nc && memcmp (&a->tt, &b->tt, sizeof a->tt) == 0 &&
                  memcmp (&a->ct, &b->ct, sizeof a->ct) == 0);
    }
  for (guint i = 0; i < stats->n_callers; i++)
    {
      const SmprofCallerStat *a = &stats->callers[i], *b = &callers[i];

      FUZZ_CHECK (a->caller == b->caller && a->legacy == b->legacy && a->nc == b->nc && a->cc == b->cc &&
                  memcmp (&a->tt, &b->tt, sizeof a->tt) == 0 && memcmp (&a->ct, &b->ct, sizeof a->ct) == 0);
    }
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

      /* As many as the interval says, and the totals it says. */
      FUZZ_CHECK (stats->n_funcs == interval->n_funcs && stats->n_callers == interval->n_callers);
      FUZZ_CHECK ((stats->n_funcs == 0) == (stats->funcs == NULL) && (stats->n_callers == 0) == (stats->callers == NULL));
      FUZZ_CHECK (stats->total_calls == interval->total_calls && stats->prim_calls == interval->prim_calls);
      check_stats (stats, n_keys);
      check_round_trip (stats, n_keys);

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
