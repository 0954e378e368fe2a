/* test-stats-slab.c: the memory that parsed stats arrays are carved from
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A query that sums records as it reads them (smprof_job_fold_stats())
 * frees each interval's arrays soon after it is parsed, so a loading thread
 * fills chunk after chunk while only a few are alive at a time. Those
 * chunks must be used again, not mapped (and cleared by the kernel) anew:
 * that cost a seventh of an all-nodes query's time.
 */

#include "config.h"

#include <string.h>

#include "smprof-stats-slab.h"

/* Not a divisor of a chunk: each full chunk has a few unused pages left. */
#define ARRAY_SIZE 40000
#define N_ARRAYS   600   /* about 24 MB, a dozen chunks */
#define N_ALIVE    3

typedef struct
{
  guint8          *memory;
  SmprofStatsSlab *slab;
  guint8           fill;
} Array;

static void
array_check_and_release (Array *array)
{
  for (gsize i = 0; i < ARRAY_SIZE; i++)
    if (array->memory[i] != array->fill)
      g_error ("byte %" G_GSIZE_FORMAT " of an array was overwritten by another", i);

  _smprof_stats_slab_release (array->slab);
  memset (array, 0, sizeof *array);
}

/* The loading thread of a fold: allocates, writes and, N_ALIVE arrays later,
 * checks and frees each array. */
static gpointer
fold_like_thread (gpointer data)
{
  Array alive[N_ALIVE] = { { 0 } };

  for (guint i = 0; i < N_ARRAYS; i++)
    {
      Array *array = &alive[i % N_ALIVE];

      if (array->memory != NULL)
        array_check_and_release (array);

      array->memory = _smprof_stats_slab_alloc (ARRAY_SIZE, &array->slab);
      g_assert_nonnull (array->memory);
      g_assert_nonnull (array->slab);
      g_assert_cmpuint (GPOINTER_TO_SIZE (array->memory) % 16, ==, 0);
      array->fill = (guint8) (i * 7 + 1);
      memset (array->memory, array->fill, ARRAY_SIZE);
    }

  for (guint i = 0; i < N_ALIVE; i++)
    if (alive[i].memory != NULL)
      array_check_and_release (&alive[i]);

  return NULL;
}

static void
test_chunks_reused (void)
{
  guint before;
  guint mapped;

  if (!_smprof_stats_slab_is_used ())
    {
      /* Under AddressSanitizer arrays come from malloc, redzones and all. */
      g_test_skip ("the slab maps nothing under AddressSanitizer");
      return;
    }

  before = _smprof_stats_slab_get_n_mapped ();
  g_thread_join (g_thread_new ("fold-like", fold_like_thread, NULL));
  mapped = _smprof_stats_slab_get_n_mapped () - before;

  g_test_message ("%u chunks mapped for %u arrays of %u bytes", mapped, N_ARRAYS, ARRAY_SIZE);
  /* A dozen chunks were filled; the two or three alive at any time are all
   * that should ever have been mapped. */
  g_assert_cmpuint (mapped, >=, 1);
  g_assert_cmpuint (mapped, <=, N_ALIVE);
}

/* Arrays that stay alive together do not overlap, on one thread or two. */
static gpointer
keep_all_thread (gpointer data)
{
  guint n = GPOINTER_TO_UINT (data);
  g_autofree Array *arrays = g_new0 (Array, n);

  for (guint i = 0; i < n; i++)
    {
      arrays[i].memory = _smprof_stats_slab_alloc (ARRAY_SIZE / 3 + i, &arrays[i].slab);
      if (arrays[i].memory == NULL)
        {
          g_assert_false (_smprof_stats_slab_is_used ());
          arrays[i].memory = g_malloc (ARRAY_SIZE);
        }
      arrays[i].fill = (guint8) (i + 1);
      memset (arrays[i].memory, arrays[i].fill, ARRAY_SIZE / 3 + i);
    }

  for (guint i = 0; i < n; i++)
    {
      for (gsize b = 0; b < ARRAY_SIZE / 3 + i; b++)
        if (arrays[i].memory[b] != arrays[i].fill)
          g_error ("byte %" G_GSIZE_FORMAT " of array %u was overwritten by another", b, i);
      if (arrays[i].slab != NULL)
        _smprof_stats_slab_release (arrays[i].slab);
      else
        g_free (arrays[i].memory);
    }

  return NULL;
}

static void
test_arrays_apart (void)
{
  GThread *first = g_thread_new ("keep-all-1", keep_all_thread, GUINT_TO_POINTER (400));
  GThread *second = g_thread_new ("keep-all-2", keep_all_thread, GUINT_TO_POINTER (300));

  g_thread_join (first);
  g_thread_join (second);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stats-slab/chunks-reused", test_chunks_reused);
  g_test_add_func ("/stats-slab/arrays-apart", test_arrays_apart);

  return g_test_run ();
}
