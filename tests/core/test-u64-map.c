/* test-u64-map.c: the 64-bit key map of the call trees, profiles and indexes
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Checked against GHashTable on the keys the callers make ((a << 32 | b)
 * pairs, dense and sparse), through many growths, and on the edge keys.
 */

#include "config.h"

#include "smprof-u64-map.h"

/* The reference: key -> value + 1 in a GHashTable of boxed keys. */
static GHashTable *
reference_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

static void
reference_set (GHashTable *reference,
               guint64     key,
               guint32     value)
{
  g_hash_table_replace (reference, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (value + 1));
}

static guint32
reference_lookup (GHashTable *reference,
                  guint64     key)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (reference, &key)) - 1;
}

static void
assert_same (const SmprofU64Map *map,
             GHashTable         *reference)
{
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpuint (smprof_u64_map_get_size (map), ==, g_hash_table_size (reference));
  g_hash_table_iter_init (&iter, reference);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpuint (smprof_u64_map_lookup (map, *(guint64 *) key), ==, GPOINTER_TO_UINT (value) - 1);
}

static void
test_empty (void)
{
  g_auto(SmprofU64Map) map = { 0 };

  smprof_u64_map_init (&map, 0);
  g_assert_cmpuint (smprof_u64_map_get_size (&map), ==, 0);
  g_assert_cmpuint (smprof_u64_map_lookup (&map, 0), ==, SMPROF_U64_MAP_NONE);
  g_assert_cmpuint (smprof_u64_map_lookup (&map, G_MAXUINT64), ==, SMPROF_U64_MAP_NONE);
}

/* 0 and all-ones are keys like any other, and the largest value is kept. */
static void
test_edge_keys (void)
{
  g_auto(SmprofU64Map) map = { 0 };
  const guint64 keys[] = { 0, 1, G_MAXUINT64, G_MAXUINT64 - 1, G_GUINT64_CONSTANT (1) << 63,
                           G_MAXUINT32, (guint64) G_MAXUINT32 << 32 };

  smprof_u64_map_init (&map, 1);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_cmpuint (smprof_u64_map_lookup_or_insert (&map, keys[i], i), ==, SMPROF_U64_MAP_NONE);
  smprof_u64_map_insert (&map, 0, SMPROF_U64_MAP_NONE - 1);

  g_assert_cmpuint (smprof_u64_map_get_size (&map), ==, G_N_ELEMENTS (keys));
  g_assert_cmpuint (smprof_u64_map_lookup (&map, 0), ==, SMPROF_U64_MAP_NONE - 1);
  for (guint i = 1; i < G_N_ELEMENTS (keys); i++)
    g_assert_cmpuint (smprof_u64_map_lookup (&map, keys[i]), ==, i);
  g_assert_cmpuint (smprof_u64_map_lookup (&map, 2), ==, SMPROF_U64_MAP_NONE);
}

/* lookup_or_insert keeps the first value; insert replaces it. */
static void
test_insert_semantics (void)
{
  g_auto(SmprofU64Map) map = { 0 };

  smprof_u64_map_init (&map, 4);
  g_assert_cmpuint (smprof_u64_map_lookup_or_insert (&map, 42, 7), ==, SMPROF_U64_MAP_NONE);
  g_assert_cmpuint (smprof_u64_map_lookup_or_insert (&map, 42, 9), ==, 7);
  g_assert_cmpuint (smprof_u64_map_lookup (&map, 42), ==, 7);
  smprof_u64_map_insert (&map, 42, 9);
  g_assert_cmpuint (smprof_u64_map_lookup (&map, 42), ==, 9);
  smprof_u64_map_insert (&map, 43, 0);
  g_assert_cmpuint (smprof_u64_map_lookup (&map, 43), ==, 0);
  g_assert_cmpuint (smprof_u64_map_get_size (&map), ==, 2);

  /* cleared, it is empty and can be set up again */
  smprof_u64_map_clear (&map);
  g_assert_cmpuint (smprof_u64_map_get_size (&map), ==, 0);
  smprof_u64_map_init (&map, 0);
  g_assert_cmpuint (smprof_u64_map_lookup (&map, 42), ==, SMPROF_U64_MAP_NONE);
}

/* The callers' keys: (parent << 32 | func) pairs, a few parents with many
 * children and many with few, looked up again and again, from a map sized
 * for a handful so that it grows many times; and random 64-bit keys. */
static void
test_against_reference (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);

  for (guint shape = 0; shape < 3; shape++)
    {
      g_auto(SmprofU64Map) map = { 0 };
      g_autoptr(GHashTable) reference = reference_new ();

      smprof_u64_map_init (&map, 2);
      for (guint i = 0; i < 200000; i++)
        {
          guint64 key;
          guint32 value = g_rand_int_range (rand, 0, G_MAXINT32);
          guint32 expected;

          switch (shape)
            {
            case 0:   /* a dense block: every pair below 300 x 300 */
              key = (guint64) g_rand_int_range (rand, 0, 300) << 32 | g_rand_int_range (rand, 0, 300);
              break;
            case 1:   /* the low word alone varies: the hash must spread it */
              key = (guint64) 5 << 32 | g_rand_int_range (rand, 0, 50000) * 4096u;
              break;
            default:
              key = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
              break;
            }

          expected = reference_lookup (reference, key);
          if (i % 5 == 0)
            {
              smprof_u64_map_insert (&map, key, value);
              reference_set (reference, key, value);
            }
          else
            {
              g_assert_cmpuint (smprof_u64_map_lookup_or_insert (&map, key, value), ==, expected);
              if (expected == SMPROF_U64_MAP_NONE)
                reference_set (reference, key, value);
            }
        }

      assert_same (&map, reference);
      /* never more than half full */
      g_assert_cmpuint (smprof_u64_map_get_size (&map) * 2, <=, map.mask + 1);
      for (guint i = 0; i < 1000; i++)
        {
          guint64 key = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);

          g_assert_cmpuint (smprof_u64_map_lookup (&map, key), ==, reference_lookup (reference, key));
        }
    }
}

/* Sized up front, it does not grow. */
static void
test_presized (void)
{
  g_auto(SmprofU64Map) map = { 0 };
  guint buckets;

  smprof_u64_map_init (&map, 1000);
  buckets = map.mask + 1;
  g_assert_cmpuint (buckets, >=, 2000);
  for (guint i = 0; i < 1000; i++)
    smprof_u64_map_insert (&map, (guint64) i << 32 | i, i);
  g_assert_cmpuint (map.mask + 1, ==, buckets);
  for (guint i = 0; i < 1000; i++)
    g_assert_cmpuint (smprof_u64_map_lookup (&map, (guint64) i << 32 | i), ==, i);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/u64-map/empty", test_empty);
  g_test_add_func ("/u64-map/edge-keys", test_edge_keys);
  g_test_add_func ("/u64-map/insert-semantics", test_insert_semantics);
  g_test_add_func ("/u64-map/against-reference", test_against_reference);
  g_test_add_func ("/u64-map/presized", test_presized);

  return g_test_run ();
}
