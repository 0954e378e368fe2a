/* smprof-index-arrays.c: one interval's stats arrays as a node file of the
 * parsed index holds them: compact, and read back into SmprofPstats' arrays
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-index-file.h"

/* A node's arrays as SmprofPstats holds them were a node file of 55 MB on
 * the large benchmark corpus, mostly zeroes: most functions of an interval
 * run no time the timer sees, and are called a few times, always as
 * primitive calls. Read from the disk, those bytes took as long as the
 * listing of the node's stats files they are checked against, and slowed
 * it, as the disk served both. So each entry is written as variable-length
 * integers, with what is usual left out:
 *
 *   a function: its id; its number of callers shifted left by 3, or-ed with
 *     FUNC_* flags; its total calls (zigzag); its primitive calls (zigzag)
 *     when they differ; tt and ct, 8 bytes each in the machine's order,
 *     when their bits are not all zero;
 *   then each caller edge: the caller's id shifted left by 4, or-ed with
 *     CALLER_* flags; its calls (zigzag); its primitive calls when they
 *     differ; tt and ct when not zero.
 *
 * Functions come first, each with the number of its callers (the callers
 * of function i follow those of i - 1, as in SmprofPstats, so where a
 * function's run starts is not written), then all the callers. */

enum
{
  FUNC_CC = 1 << 0,
  FUNC_TT = 1 << 1,
  FUNC_CT = 1 << 2,
  FUNC_SHIFT = 3,
};

enum
{
  CALLER_LEGACY = 1 << 0,
  CALLER_CC = 1 << 1,
  CALLER_TT = 1 << 2,
  CALLER_CT = 1 << 3,
  CALLER_SHIFT = 4,
};

G_STATIC_ASSERT (SMPROF_INDEX_FUNC_MAX_BYTES >= 5 + 5 + 10 + 10 + 8 + 8);
G_STATIC_ASSERT (SMPROF_INDEX_CALLER_MAX_BYTES >= 6 + 10 + 10 + 8 + 8);

static inline guint64
zigzag (gint64 value)
{
  return ((guint64) value << 1) ^ (guint64) (value >> 63);
}

static inline gint64
unzigzag (guint64 value)
{
  return (gint64) (value >> 1) ^ -(gint64) (value & 1);
}

static inline guint8 *
put_varint (guint8  *out,
            guint64  value)
{
  while (value >= 0x80)
    {
      *out++ = (guint8) (value | 0x80);
      value >>= 7;
    }
  *out++ = (guint8) value;
  return out;
}

/* Whether @value is not +0.0: -0.0 is kept, so the bits come back. */
static inline gboolean
has_bits (double value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  return bits != 0;
}

static inline guint8 *
put_double (guint8 *out,
            double  value)
{
  memcpy (out, &value, sizeof value);
  return out + sizeof value;
}

/**
 * _smprof_index_arrays_encode:
 * @out: room for SMPROF_INDEX_FUNC_MAX_BYTES per function and
 *   SMPROF_INDEX_CALLER_MAX_BYTES per caller
 * @entry: an interval's stats; each function's callers must follow the
 *   previous one's
 * @n_keys: ids at or past this are refused
 * @bad: (inout): set when an id (mapped with @entry's remap) is at or past
 *   @n_keys, or a function's callers do not follow the previous one's
 *
 * Returns: how many bytes of @out the arrays took
 */
gsize
_smprof_index_arrays_encode (guint8                 *out,
                             const SmprofIndexEntry *entry,
                             guint                   n_keys,
                             gboolean               *bad)
{
  guint8 *at = out;
  guint32 next_caller = 0;

  for (guint i = 0; i < entry->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &entry->funcs[i];
      guint32 func = entry->remap != NULL ? entry->remap[stat->func] : stat->func;
      guint flags = (stat->cc != stat->nc ? FUNC_CC : 0) | (has_bits (stat->tt) ? FUNC_TT : 0) |
                    (has_bits (stat->ct) ? FUNC_CT : 0);

      *bad |= func >= n_keys || stat->first_caller != next_caller;
      next_caller += stat->n_callers;

      at = put_varint (at, func);
      at = put_varint (at, ((guint64) stat->n_callers << FUNC_SHIFT) | flags);
      at = put_varint (at, zigzag (stat->nc));
      if (flags & FUNC_CC)
        at = put_varint (at, zigzag (stat->cc));
      if (flags & FUNC_TT)
        at = put_double (at, stat->tt);
      if (flags & FUNC_CT)
        at = put_double (at, stat->ct);
    }
  *bad |= next_caller != entry->n_callers;

  for (guint i = 0; i < entry->n_callers; i++)
    {
      const SmprofCallerStat *stat = &entry->callers[i];
      guint32 caller = entry->remap != NULL ? entry->remap[stat->caller] : stat->caller;
      guint flags = (stat->legacy ? CALLER_LEGACY : 0) | (stat->cc != stat->nc ? CALLER_CC : 0) |
                    (has_bits (stat->tt) ? CALLER_TT : 0) | (has_bits (stat->ct) ? CALLER_CT : 0);

      *bad |= caller >= n_keys;

      at = put_varint (at, ((guint64) caller << CALLER_SHIFT) | flags);
      at = put_varint (at, zigzag (stat->nc));
      if (flags & CALLER_CC)
        at = put_varint (at, zigzag (stat->cc));
      if (flags & CALLER_TT)
        at = put_double (at, stat->tt);
      if (flags & CALLER_CT)
        at = put_double (at, stat->ct);
    }

  return at - out;
}

/* Reads a variable-length integer of at most 64 bits; FALSE when it runs
 * past @end or is longer. */
static G_ALWAYS_INLINE inline gboolean
get_varint (const guint8 **p,
            const guint8  *end,
            guint64       *value)
{
  const guint8 *at = *p;
  guint64 result = 0;

  /* Most are one byte: ids below 128 and small counts. */
  if (G_LIKELY (at < end && *at < 0x80))
    {
      *value = *at;
      *p = at + 1;
      return TRUE;
    }

  for (guint shift = 0; shift < 64 && at < end; shift += 7)
    {
      guint8 byte = *at++;

      /* the tenth byte holds the 64th bit alone */
      if (shift == 63 && byte > 1)
        return FALSE;
      result |= (guint64) (byte & 0x7f) << shift;
      if (byte < 0x80)
        {
          *value = result;
          *p = at;
          return TRUE;
        }
    }

  return FALSE;
}

static G_ALWAYS_INLINE inline gboolean
get_double (const guint8 **p,
            const guint8  *end,
            gboolean       present,
            double        *value)
{
  if (!present)
    {
      *value = 0.0;
      return TRUE;
    }
  if (end - *p < (gssize) sizeof *value)
    return FALSE;
  memcpy (value, *p, sizeof *value);
  *p += sizeof *value;
  return TRUE;
}

/**
 * _smprof_index_arrays_decode:
 * @data: (array length=length): an interval's arrays as
 *   _smprof_index_arrays_encode() wrote them
 * @length: their size, all of which they must take
 * @n_keys: ids at or past this are refused
 * @remap: (nullable): the job's id of each of those ids
 * @funcs: (out caller-allocates) (array length=n_funcs): filled
 * @n_funcs: how many functions the interval says it has
 * @callers: (out caller-allocates) (array length=n_callers): filled
 * @n_callers: how many callers it says it has
 * @totals: (out caller-allocates): pstats' totals, summed in the order
 *   pstats sums them (n_funcs and n_callers, the arrays and the slab are
 *   left alone)
 *
 * Reads an interval's arrays back, refusing anything the writer could not
 * have written: an id past the keys, more callers than the interval has,
 * a number that runs past the end or overflows, bytes left over, and
 * totals that overflow.
 *
 * Returns: whether the arrays were read
 */
gboolean
_smprof_index_arrays_decode (const guint8     *data,
                             gsize             length,
                             guint             n_keys,
                             const guint32    *remap,
                             SmprofFuncStat   *funcs,
                             guint             n_funcs,
                             SmprofCallerStat *callers,
                             guint             n_callers,
                             SmprofPstats     *totals)
{
  const guint8 *p = data;
  const guint8 *end = data + length;
  guint32 next_caller = 0;
  gint64 total_calls = 0, prim_calls = 0;
  double total_tt = 0;

  for (guint i = 0; i < n_funcs; i++)
    {
      SmprofFuncStat *stat = &funcs[i];
      guint64 func, head, nc, cc;
      guint flags;

      if (!get_varint (&p, end, &func) || func >= n_keys ||
          !get_varint (&p, end, &head) || (head >> FUNC_SHIFT) > n_callers - next_caller ||
          !get_varint (&p, end, &nc))
        return FALSE;

      flags = head & ((1 << FUNC_SHIFT) - 1);
      stat->func = remap != NULL ? remap[func] : (guint32) func;
      stat->first_caller = next_caller;
      stat->n_callers = (guint32) (head >> FUNC_SHIFT);
      next_caller += stat->n_callers;
      stat->nc = unzigzag (nc);
      if (flags & FUNC_CC)
        {
          if (!get_varint (&p, end, &cc))
            return FALSE;
          stat->cc = unzigzag (cc);
        }
      else
        stat->cc = stat->nc;
      if (!get_double (&p, end, flags & FUNC_TT, &stat->tt) || !get_double (&p, end, flags & FUNC_CT, &stat->ct))
        return FALSE;

      if (__builtin_add_overflow (total_calls, stat->nc, &total_calls) ||
          __builtin_add_overflow (prim_calls, stat->cc, &prim_calls))
        return FALSE;
      total_tt += stat->tt;
    }

  if (next_caller != n_callers)
    return FALSE;

  for (guint i = 0; i < n_callers; i++)
    {
      SmprofCallerStat *stat = &callers[i];
      guint64 head, nc, cc;
      guint flags;

      if (!get_varint (&p, end, &head) || (head >> CALLER_SHIFT) >= n_keys || !get_varint (&p, end, &nc))
        return FALSE;

      flags = head & ((1 << CALLER_SHIFT) - 1);
      stat->caller = remap != NULL ? remap[head >> CALLER_SHIFT] : (guint32) (head >> CALLER_SHIFT);
      stat->legacy = (flags & CALLER_LEGACY) != 0;
      stat->nc = unzigzag (nc);
      if (flags & CALLER_CC)
        {
          if (!get_varint (&p, end, &cc))
            return FALSE;
          stat->cc = unzigzag (cc);
        }
      else
        stat->cc = stat->nc;
      if (!get_double (&p, end, flags & CALLER_TT, &stat->tt) || !get_double (&p, end, flags & CALLER_CT, &stat->ct))
        return FALSE;
    }

  if (p != end)
    return FALSE;

  totals->total_calls = total_calls;
  totals->prim_calls = prim_calls;
  totals->total_tt = total_tt;
  return TRUE;
}
