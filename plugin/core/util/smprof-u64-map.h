/* smprof-u64-map.h: a map from 64-bit keys to 32-bit values, for hot loops
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What smprof_u64_map_lookup() returns for a key that is not there. */
#define SMPROF_U64_MAP_NONE G_MAXUINT32

/**
 * SmprofU64Map:
 *
 * Keys are pairs of 32-bit ids packed into 64 bits, such as (parent << 32 |
 * function) in a call tree or (entry << 32 | caller) in a profile, looked up
 * millions of times while a profile or an index is built: open addressing
 * with linear probing, two arrays and no allocation per key, inlined at the
 * call site. Keys are never removed; values are below %SMPROF_U64_MAP_NONE.
 * Nothing iterates over it, so the bucket order is never seen.
 *
 * Embed it in a struct or declare it `g_auto(SmprofU64Map) map = { 0 };`,
 * smprof_u64_map_init() it, and smprof_u64_map_clear() it when done (g_auto
 * does).
 */
typedef struct
{
  guint64 *keys;
  guint32 *values;   /* value + 1, 0 for an empty bucket */
  guint    mask;     /* the number of buckets, a power of two, minus one */
  guint    n_keys;
} SmprofU64Map;

static inline guint
_smprof_u64_map_hash (guint64 key)
{
  /* MurmurHash3's 64-bit finaliser, halved: ids packed as (a << 32 | b)
   * spread over every bucket. */
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;

  return (guint) key;
}

/* The key's bucket if it is there, otherwise the empty bucket it would take. */
static inline guint
_smprof_u64_map_bucket (const SmprofU64Map *map,
                        guint64             key)
{
  guint i = _smprof_u64_map_hash (key) & map->mask;

  while (map->values[i] != 0 && map->keys[i] != key)
    i = (i + 1) & map->mask;

  return i;
}

/* Room for @n_keys keys at most half full; at least 16 buckets. */
static inline void
smprof_u64_map_init (SmprofU64Map *map,
                     guint         n_keys)
{
  gsize n_buckets = 16;

  g_assert (n_keys <= G_MAXUINT / 4);

  while (n_buckets < (gsize) n_keys * 2)
    n_buckets *= 2;

  map->keys = g_new (guint64, n_buckets);
  map->values = g_new0 (guint32, n_buckets);
  map->mask = (guint) n_buckets - 1;
  map->n_keys = 0;
}

static inline void
smprof_u64_map_clear (SmprofU64Map *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
  map->mask = 0;
  map->n_keys = 0;
}

static inline guint
smprof_u64_map_get_size (const SmprofU64Map *map)
{
  return map->n_keys;
}

/* Returns @key's value, or %SMPROF_U64_MAP_NONE. */
static inline guint32
smprof_u64_map_lookup (const SmprofU64Map *map,
                       guint64             key)
{
  return map->values[_smprof_u64_map_bucket (map, key)] - 1;
}

static inline void
_smprof_u64_map_grow (SmprofU64Map *map)
{
  SmprofU64Map bigger;

  smprof_u64_map_init (&bigger, map->mask + 1);
  for (guint b = 0; b <= map->mask; b++)
    if (map->values[b] != 0)
      {
        guint j = _smprof_u64_map_bucket (&bigger, map->keys[b]);

        bigger.keys[j] = map->keys[b];
        bigger.values[j] = map->values[b];
      }
  bigger.n_keys = map->n_keys;
  smprof_u64_map_clear (map);
  *map = bigger;
}

/* Returns @key's value if it is there; otherwise adds it with @value and
 * returns %SMPROF_U64_MAP_NONE. One probe either way. */
static inline guint32
smprof_u64_map_lookup_or_insert (SmprofU64Map *map,
                                 guint64       key,
                                 guint32       value)
{
  guint i = _smprof_u64_map_bucket (map, key);

  g_assert (value != SMPROF_U64_MAP_NONE);

  if (map->values[i] != 0)
    return map->values[i] - 1;

  /* at most half full, so that probes stay short */
  if ((map->n_keys + 1) * 2 > map->mask + 1)
    {
      _smprof_u64_map_grow (map);
      i = _smprof_u64_map_bucket (map, key);
    }

  map->keys[i] = key;
  map->values[i] = value + 1;
  map->n_keys++;

  return SMPROF_U64_MAP_NONE;
}

/* Sets @key's value, adding the key if it is not there. */
static inline void
smprof_u64_map_insert (SmprofU64Map *map,
                       guint64       key,
                       guint32       value)
{
  guint i = _smprof_u64_map_bucket (map, key);

  g_assert (value != SMPROF_U64_MAP_NONE);

  if (map->values[i] != 0)
    {
      map->values[i] = value + 1;
      return;
    }

  smprof_u64_map_lookup_or_insert (map, key, value);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SmprofU64Map, smprof_u64_map_clear)

G_END_DECLS
