/* smprof-stats-slab.c: memory for the stats arrays that stay loaded
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#include "smprof-pstats.h"
#include "smprof-stats-slab.h"

/* Loading a job keeps a few tens of kilobytes of arrays per interval, tens of
 * thousands of times, on each loading thread. From malloc() that memory comes
 * a few pages at a time off the top of the thread's arena, each growth an
 * mprotect() and each page a fault of its own, which together cost as much
 * as parsing. Here each thread carves its intervals' arrays out of a chunk
 * mapped with its pages already in (MAP_POPULATE: one system call for the
 * whole chunk), and a chunk is unmapped when the last interval in it is
 * freed. A thread that is done with its chunk gives back the unused end; a
 * thread that lives on (the main one, a pool's) keeps its current chunk, so
 * at most CHUNK_SIZE each. */

#if defined(__SANITIZE_ADDRESS__)
# define SMPROF_UNDER_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define SMPROF_UNDER_ASAN 1
# endif
#endif
#ifndef SMPROF_UNDER_ASAN
# define SMPROF_UNDER_ASAN 0
#endif

#define CHUNK_SIZE (2u << 20)
#define ALIGNMENT  16u

struct _SmprofStatsSlab
{
  int     refs;     /* atomic: one per allocation, one for the thread filling it */
  gsize   size;     /* mapped bytes, this header included */
  gsize   used;
};

#define HEADER_SIZE ((sizeof (SmprofStatsSlab) + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1))

static gsize
page_size (void)
{
  static gsize size;

  if (g_once_init_enter (&size))
    {
      long value = sysconf (_SC_PAGESIZE);

      g_once_init_leave (&size, value > 0 ? (gsize) value : 4096);
    }

  return size;
}

/* Whole chunks given back are kept for the next ones rather than unmapped:
 * a query that sums its records as it reads them (smprof_job_fold_stats())
 * frees chunks as fast as it fills them, and each chunk mapped anew costs
 * the kernel clearing its pages again. At most SPARE_CHUNKS are kept; their
 * old contents do not matter, as every array is written in full. */
#define SPARE_CHUNKS 8

static GMutex spare_lock;
static guint n_chunks_mapped; /* atomic; for _smprof_stats_slab_get_n_mapped() */
static gpointer spare_chunks[SPARE_CHUNKS];
static guint n_spare_chunks;

static gboolean
keep_spare (SmprofStatsSlab *slab)
{
  gboolean kept = FALSE;

  if (slab->size != CHUNK_SIZE)
    return FALSE;

  g_mutex_lock (&spare_lock);
  if (n_spare_chunks < SPARE_CHUNKS)
    {
      spare_chunks[n_spare_chunks++] = slab;
      kept = TRUE;
    }
  g_mutex_unlock (&spare_lock);

  return kept;
}

static gpointer
take_spare (void)
{
  gpointer chunk = NULL;

  g_mutex_lock (&spare_lock);
  if (n_spare_chunks > 0)
    chunk = spare_chunks[--n_spare_chunks];
  g_mutex_unlock (&spare_lock);

  return chunk;
}

void
_smprof_stats_slab_release (SmprofStatsSlab *slab)
{
  if (slab == NULL || !g_atomic_int_dec_and_test (&slab->refs))
    return;

  if (!keep_spare (slab))
    munmap (slab, slab->size);
}

/* The thread is done filling @slab: its unused whole pages go back now. */
static void
retire (gpointer data)
{
  SmprofStatsSlab *slab = data;
  gsize keep;

  if (slab == NULL)
    return;

  keep = (slab->used + page_size () - 1) & ~(page_size () - 1);
  if (keep < slab->size && munmap ((char *) slab + keep, slab->size - keep) == 0)
    slab->size = keep;

  _smprof_stats_slab_release (slab);
}

static GPrivate current_key = G_PRIVATE_INIT (retire);

/**
 * _smprof_stats_slab_alloc:
 * @size: bytes
 * @out_slab: (out): the slab to release when the memory is no longer needed
 *
 * Memory that lives as long as the loaded stats it holds, from the calling
 * thread's current chunk; freed with _smprof_stats_slab_release() on @slab,
 * from any thread. Several allocations may share a slab, each releasing it
 * once.
 *
 * Returns: (nullable): 16-byte aligned memory, or %NULL if none could be
 *   mapped (the caller then uses g_malloc())
 */
gpointer
_smprof_stats_slab_alloc (gsize             size,
                          SmprofStatsSlab **out_slab)
{
  SmprofStatsSlab *slab;
  gpointer memory;

#if SMPROF_UNDER_ASAN
  /* Arrays carved out of a chunk have no redzones between them: under
   * AddressSanitizer (the sanitizer suite, the fuzzers) they come from
   * malloc, so an overrun of one is still caught. */
  return NULL;
#endif

  slab = g_private_get (&current_key);

  size = (size + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1);

  if (slab == NULL || slab->size - slab->used < size)
    {
      gsize n_bytes = MAX (CHUNK_SIZE, (HEADER_SIZE + size + page_size () - 1) & ~(page_size () - 1));
      gpointer mapped = n_bytes == CHUNK_SIZE ? take_spare () : NULL;

      if (mapped == NULL)
        {
          mapped = mmap (NULL, n_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
          if (mapped == MAP_FAILED)
            return NULL;
          g_atomic_int_inc (&n_chunks_mapped);
        }

      SmprofStatsSlab *full = slab;

      slab = mapped;
      slab->refs = 1;
      slab->size = n_bytes;
      slab->used = HEADER_SIZE;
      /* The previous chunk is released whole, not retired: its unused end
       * is a few pages at most, and a chunk with its end given back could
       * no longer be kept as a spare, so each chunk a long query filled
       * would be mapped and cleared anew. */
      g_private_set (&current_key, slab);
      if (full != NULL)
        _smprof_stats_slab_release (full);
    }

  memory = (char *) slab + slab->used;
  slab->used += size;
  g_atomic_int_inc (&slab->refs);
  *out_slab = slab;

  return memory;
}

/**
 * _smprof_stats_slab_take_arrays:
 * @stats: stats whose arrays are to be filled
 * @n_funcs: how many functions
 * @n_callers: how many caller edges
 *
 * Sets @stats' arrays to room for @n_funcs functions and @n_callers
 * callers, both in one piece of slab memory when there is some (else each
 * from malloc, as smprof_pstats_free() expects with no slab); %NULL for an
 * empty one, as g_memdup2() gives. The caller fills them.
 */
void
_smprof_stats_slab_take_arrays (SmprofPstats *stats,
                                guint         n_funcs,
                                guint         n_callers)
{
  gsize funcs_size = (gsize) n_funcs * sizeof (SmprofFuncStat);
  gsize size = funcs_size + (gsize) n_callers * sizeof (SmprofCallerStat);
  SmprofStatsSlab *slab = NULL;
  char *memory = size > 0 ? _smprof_stats_slab_alloc (size, &slab) : NULL;

  if (memory != NULL)
    {
      stats->slab = slab;
      stats->funcs = n_funcs > 0 ? (SmprofFuncStat *) (gpointer) memory : NULL;
      stats->callers = n_callers > 0 ? (SmprofCallerStat *) (gpointer) (memory + funcs_size) : NULL;
    }
  else
    {
      stats->funcs = n_funcs > 0 ? g_new (SmprofFuncStat, n_funcs) : NULL;
      stats->callers = n_callers > 0 ? g_new (SmprofCallerStat, n_callers) : NULL;
    }
}

/* Whether stats arrays are carved out of chunks: not under
 * AddressSanitizer, where they come from malloc. The tests of chunk reuse
 * ask. */
gboolean
_smprof_stats_slab_is_used (void)
{
  return !SMPROF_UNDER_ASAN;
}

/* How many chunks were mapped so far (spares taken again are not counted):
 * the test of chunk reuse reads it. */
guint
_smprof_stats_slab_get_n_mapped (void)
{
  return (guint) g_atomic_int_get (&n_chunks_mapped);
}
