/* smprof-pstats-fast.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The fast path: a single pass over the bytes for the files that look the
 * way pstats writes them, with every key already in the job's table (after
 * a job's first few files, nearly all of them). It decodes no value it does
 * not need and interns nothing; whatever it does not expect (a new key, a
 * type or an encoding the writer does not use, damage of any kind) makes it
 * give up without a trace, and the general path (smprof-pstats.c) reads the
 * file from the start. Where it succeeds, it gives exactly what the general
 * path would: the same entries in the same order, with the same dict
 * semantics. */

#include "config.h"

#include <string.h>

#include "smprof-function-keys-private.h"
#include "smprof-pstats-private.h"
#include "smprof-stats-slab.h"

/* marshal's flag on a type byte: the object takes a back-reference slot. */
#define FLAG_REF 0x80

/* Jobs with more functions than this take the general path only, so that
 * the per-thread arrays indexed by func id stay small. */
#define MAX_FAST_FUNCS (1u << 20)

typedef struct
{
  const guint8       *data;
  gsize               len;
  gsize               pos;
  Scratch            *scratch;
  guint               n_refs;
  guint               n_funcs;
  guint               n_callers;
  SmprofFunctionKeys *table;
} Fast;

#define FAST_NEED(fast, n) G_STMT_START { if ((fast)->len - (fast)->pos < (gsize) (n)) return FALSE; } G_STMT_END

static inline guint32
fast_u32 (Fast *fast)
{
  guint32 le;

  memcpy (&le, fast->data + fast->pos, sizeof le);
  fast->pos += sizeof le;
  return GUINT32_FROM_LE (le);
}

/* Out of line: rare, and kept out of the readers inlined below. */
G_NO_INLINE static void
fast_grow_refs (Scratch *scratch)
{
  scratch->refs_size = MAX (scratch->refs_size * 2, 256);
  scratch->refs = g_renew (FastRef, scratch->refs, scratch->refs_size);
}

G_ALWAYS_INLINE static inline FastRef *
fast_new_ref (Fast        *fast,
              FastRefType  type)
{
  Scratch *scratch = fast->scratch;

  if (fast->n_refs == scratch->refs_size)
    fast_grow_refs (scratch);

  scratch->refs[fast->n_refs].type = type;
  scratch->refs[fast->n_refs].hashed = FALSE;
  return &scratch->refs[fast->n_refs++];
}

/* A back-reference to something already read, of the one type expected. */
static inline const FastRef *
fast_back_ref (Fast        *fast,
               FastRefType  type)
{
  guint32 index;

  FAST_NEED (fast, 4);
  index = fast_u32 (fast);
  if (index >= fast->n_refs || fast->scratch->refs[index].type != type)
    return NULL;

  return &fast->scratch->refs[index];
}

/* The readers of values and keys are forced inline: GCC 12 at -O3 left them
 * as calls, whose cost was mostly saving and restoring registers, for each
 * of millions of values (tests/bench/README.md, "Parsing"). */
G_ALWAYS_INLINE static inline gboolean
fast_int (Fast   *fast,
          gint64 *out_value)
{
  guint8 code;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];

  if ((code & ~FLAG_REF) == 'i')
    {
      FAST_NEED (fast, 4);
      *out_value = (gint32) fast_u32 (fast);
      if (code & FLAG_REF)
        fast_new_ref (fast, FAST_REF_INT)->v.i = *out_value;
      return TRUE;
    }

  if ((code & ~FLAG_REF) == 'r')
    {
      const FastRef *ref = fast_back_ref (fast, FAST_REF_INT);

      if (ref == NULL)
        return FALSE;
      *out_value = ref->v.i;
      return TRUE;
    }

  return FALSE;
}

G_ALWAYS_INLINE static inline gboolean
fast_number (Fast   *fast,
             double *out_value)
{
  guint8 code;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos];

  switch (code & ~FLAG_REF)
    {
    case 'g':
      {
        guint64 bits;

        fast->pos++;
        FAST_NEED (fast, 8);
        memcpy (&bits, fast->data + fast->pos, sizeof bits);
        fast->pos += sizeof bits;
        bits = GUINT64_FROM_LE (bits);
        memcpy (out_value, &bits, sizeof *out_value);
        if (code & FLAG_REF)
          fast_new_ref (fast, FAST_REF_FLOAT)->v.f = *out_value;
        return TRUE;
      }

    case 'i':
      {
        gint64 value;

        if (!fast_int (fast, &value))
          return FALSE;
        *out_value = (double) value;
        return TRUE;
      }

    case 'r':
      {
        guint32 index;
        const FastRef *ref;

        fast->pos++;
        FAST_NEED (fast, 4);
        index = fast_u32 (fast);
        if (index >= fast->n_refs)
          return FALSE;
        ref = &fast->scratch->refs[index];
        if (ref->type == FAST_REF_FLOAT)
          *out_value = ref->v.f;
        else if (ref->type == FAST_REF_INT)
          *out_value = (double) ref->v.i;
        else
          return FALSE;
        return TRUE;
      }

    default:
      return FALSE;
    }
}

G_ALWAYS_INLINE static inline gboolean
fast_string (Fast        *fast,
             const char **out_string,
             guint32     *out_length)
{
  guint8 code;
  guint32 length;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];

  switch (code & ~FLAG_REF)
    {
    case 'z':
    case 'Z':
      FAST_NEED (fast, 1);
      length = fast->data[fast->pos++];
      break;

    case 'a':
    case 'A':
    case 'u':
    case 't':
      FAST_NEED (fast, 4);
      length = fast_u32 (fast);
      if (length > G_MAXINT32)
        return FALSE;
      break;

    case 'r':
      {
        const FastRef *ref = fast_back_ref (fast, FAST_REF_STRING);

        if (ref == NULL)
          return FALSE;
        *out_string = ref->v.s;
        *out_length = ref->length;
        return TRUE;
      }

    default:
      return FALSE;
    }

  FAST_NEED (fast, length);
  *out_string = (const char *) fast->data + fast->pos;
  *out_length = length;
  fast->pos += length;

  if (code & FLAG_REF)
    {
      FastRef *ref = fast_new_ref (fast, FAST_REF_STRING);

      ref->v.s = *out_string;
      ref->length = length;
    }

  return TRUE;
}

/* A tuple of @n_items items; its reference slot, if it takes one, in *slot. */
G_ALWAYS_INLINE static inline gboolean
fast_tuple (Fast    *fast,
            guint32  n_items,
            guint   *slot)
{
  guint8 code;
  guint32 length;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];

  if ((code & ~FLAG_REF) == ')')
    {
      FAST_NEED (fast, 1);
      length = fast->data[fast->pos++];
    }
  else if ((code & ~FLAG_REF) == '(')
    {
      FAST_NEED (fast, 4);
      length = fast_u32 (fast);
    }
  else
    return FALSE;

  if (length != n_items)
    return FALSE;

  *slot = G_MAXUINT;
  if (code & FLAG_REF)
    {
      *slot = fast->n_refs;
      fast_new_ref (fast, FAST_REF_PENDING);
    }

  return TRUE;
}

static inline void
fast_close (Fast        *fast,
            guint        slot,
            FastRefType  type)
{
  if (slot != G_MAXUINT)
    fast->scratch->refs[slot].type = type;
}

/* A string of a key, and its reference slot if it has one (G_MAXUINT32 if
 * not). A file name or a function name usually appears many times in a
 * file, written once and then referred back to. */
static inline gboolean
fast_key_string (Fast        *fast,
                 const char **out_string,
                 guint32     *out_length,
                 guint32     *out_slot)
{
  guint first_ref = fast->n_refs;

  FAST_NEED (fast, 1);
  if ((fast->data[fast->pos] & ~FLAG_REF) == 'r')
    {
      const FastRef *ref;

      fast->pos++;
      ref = fast_back_ref (fast, FAST_REF_STRING);
      if (ref == NULL)
        return FALSE;
      *out_string = ref->v.s;
      *out_length = ref->length;
      *out_slot = ref - fast->scratch->refs;
      return TRUE;
    }

  if (!fast_string (fast, out_string, out_length))
    return FALSE;

  *out_slot = fast->n_refs != first_ref ? first_ref : G_MAXUINT32;
  return TRUE;
}

/* The table's hash of a key string, kept with its reference slot. */
static inline guint64
fast_key_hash (Fast       *fast,
               const char *string,
               guint32     length,
               guint32     slot)
{
  FastRef *ref;

  if (slot == G_MAXUINT32)
    return _smprof_function_keys_hash_string (string, length);

  ref = &fast->scratch->refs[slot];
  if (!ref->hashed)
    {
      ref->hash = _smprof_function_keys_hash_string (string, length);
      ref->hashed = TRUE;
    }

  return ref->hash;
}

G_ALWAYS_INLINE static inline gboolean
fast_key (Fast    *fast,
          guint32 *out_id)
{
  const char *file, *name;
  guint32 file_len, name_len;
  guint32 file_slot, name_slot;
  gint64 line;
  guint slot;

  FAST_NEED (fast, 1);
  if ((fast->data[fast->pos] & ~FLAG_REF) == 'r')
    {
      const FastRef *ref;

      fast->pos++;
      ref = fast_back_ref (fast, FAST_REF_KEY);
      if (ref == NULL)
        return FALSE;
      *out_id = ref->v.func;
      return TRUE;
    }

  if (!fast_tuple (fast, 3, &slot) ||
      !fast_key_string (fast, &file, &file_len, &file_slot) ||
      !fast_int (fast, &line) ||
      !fast_key_string (fast, &name, &name_len, &name_slot))
    return FALSE;

  /* Only keys the table knows: interning is left to the general path. */
  *out_id = _smprof_function_keys_find_hashed (fast->table,
                                               fast_key_hash (fast, file, file_len, file_slot),
                                               file, file_len, line,
                                               fast_key_hash (fast, name, name_len, name_slot),
                                               name, name_len);
  if (*out_id == SMPROF_FUNC_NONE || *out_id >= fast->scratch->n_func_slots)
    return FALSE;

  if (slot != G_MAXUINT)
    {
      fast->scratch->refs[slot].type = FAST_REF_KEY;
      fast->scratch->refs[slot].v.func = *out_id;
    }

  return TRUE;
}

/* A dict's NULL end marker, which CPython's reader accepts flagged or not. */
static inline gboolean
fast_dict_end (Fast     *fast,
               gboolean *ended)
{
  FAST_NEED (fast, 1);
  *ended = (fast->data[fast->pos] & ~FLAG_REF) == '0';
  if (*ended)
    fast->pos++;
  return TRUE;
}

G_ALWAYS_INLINE static inline gboolean
fast_dict_start (Fast  *fast,
                 guint *slot)
{
  guint8 code;

  FAST_NEED (fast, 1);
  code = fast->data[fast->pos++];
  if ((code & ~FLAG_REF) != '{')
    return FALSE;

  *slot = G_MAXUINT;
  if (code & FLAG_REF)
    {
      *slot = fast->n_refs;
      fast_new_ref (fast, FAST_REF_PENDING);
    }

  return TRUE;
}

static SmprofCallerStat *
fast_add_caller (Fast *fast)
{
  Scratch *scratch = fast->scratch;

  if (fast->n_callers == scratch->callers_size)
    {
      scratch->callers_size = MAX (scratch->callers_size * 2, 64);
      scratch->callers = g_renew (SmprofCallerStat, scratch->callers, scratch->callers_size);
    }

  return &scratch->callers[fast->n_callers++];
}

static gboolean
fast_callers (Fast           *fast,
              SmprofFuncStat *stat)
{
  Scratch *scratch = fast->scratch;
  guint slot;

  if (!fast_dict_start (fast, &slot))
    return FALSE;

  stat->first_caller = fast->n_callers;
  stat->n_callers = 0;

  if (++scratch->caller_stamp == 0)
    {
      memset (scratch->caller_stamps, 0, scratch->n_func_slots * sizeof (guint32));
      scratch->caller_stamp = 1;
    }

  for (;;)
    {
      SmprofCallerStat caller = { 0 };
      gboolean ended;
      guint8 code;

      if (!fast_dict_end (fast, &ended))
        return FALSE;
      if (ended)
        break;

      if (!fast_key (fast, &caller.caller))
        return FALSE;

      FAST_NEED (fast, 1);
      code = fast->data[fast->pos] & ~FLAG_REF;
      if (code == ')' || code == '(')
        {
          guint value_slot;

          /* (nc, cc, tt, ct): the reverse of the function's counts. */
          if (!fast_tuple (fast, 4, &value_slot) ||
              !fast_int (fast, &caller.nc) ||
              !fast_int (fast, &caller.cc) ||
              !fast_number (fast, &caller.tt) ||
              !fast_number (fast, &caller.ct))
            return FALSE;
          fast_close (fast, value_slot, FAST_REF_OPAQUE);
        }
      else if (code == 'i' || code == 'r')
        {
          if (!fast_int (fast, &caller.nc))
            return FALSE;
          caller.legacy = TRUE;
          caller.cc = caller.nc;
        }
      else
        return FALSE;

      /* As in a Python dict, a repeated caller keeps its place and takes the
       * later value. */
      if (scratch->caller_stamps[caller.caller] == scratch->caller_stamp)
        {
          scratch->callers[scratch->caller_positions[caller.caller]] = caller;
          continue;
        }

      scratch->caller_stamps[caller.caller] = scratch->caller_stamp;
      scratch->caller_positions[caller.caller] = stat->first_caller + stat->n_callers;
      *fast_add_caller (fast) = caller;
      stat->n_callers++;
    }

  fast_close (fast, slot, FAST_REF_OPAQUE);
  return TRUE;
}

static gboolean
fast_stats (Fast         *fast,
            SmprofPstats *self)
{
  Scratch *scratch = fast->scratch;
  gboolean repeated_keys = FALSE;
  guint root_slot;

  if (!fast_dict_start (fast, &root_slot))
    return FALSE;

  if (++scratch->func_stamp == 0)
    {
      memset (scratch->func_stamps, 0, scratch->n_func_slots * sizeof (guint32));
      scratch->func_stamp = 1;
    }

  for (;;)
    {
      SmprofFuncStat stat = { 0 };
      gboolean ended;
      guint slot;

      if (!fast_dict_end (fast, &ended))
        return FALSE;
      if (ended)
        break;

      if (!fast_key (fast, &stat.func) ||
          !fast_tuple (fast, 5, &slot) ||
          !fast_int (fast, &stat.cc) ||
          !fast_int (fast, &stat.nc) ||
          !fast_number (fast, &stat.tt) ||
          !fast_number (fast, &stat.ct) ||
          !fast_callers (fast, &stat))
        return FALSE;
      fast_close (fast, slot, FAST_REF_OPAQUE);

      /* Python's dict semantics: the first position and the last value. */
      if (scratch->func_stamps[stat.func] == scratch->func_stamp)
        {
          scratch->funcs[scratch->func_positions[stat.func]] = stat;
          repeated_keys = TRUE;
          continue;
        }

      if (fast->n_funcs == scratch->funcs_size)
        {
          scratch->funcs_size = MAX (scratch->funcs_size * 2, 256);
          scratch->funcs = g_renew (SmprofFuncStat, scratch->funcs, scratch->funcs_size);
        }
      scratch->func_stamps[stat.func] = scratch->func_stamp;
      scratch->func_positions[stat.func] = fast->n_funcs;
      scratch->funcs[fast->n_funcs++] = stat;
    }

  if (fast->pos != fast->len)
    return FALSE;

  /* pstats.Stats.get_top_level_stats, as read_stats() sums it; an overflow
   * is for the general path to report. */
  for (guint i = 0; i < fast->n_funcs; i++)
    {
      const SmprofFuncStat *stat = &scratch->funcs[i];

      if (__builtin_add_overflow (self->total_calls, stat->nc, &self->total_calls) ||
          __builtin_add_overflow (self->prim_calls, stat->cc, &self->prim_calls))
        return FALSE;
      self->total_tt += stat->tt;
    }

  /* The stats that stay loaded, exactly sized, callers compacted in function
   * order as compact_callers() leaves them. */
  self->n_funcs = fast->n_funcs;
  if (!repeated_keys)
    {
      _smprof_stats_slab_take_arrays (self, fast->n_funcs, fast->n_callers);
      if (fast->n_funcs > 0)
        memcpy (self->funcs, scratch->funcs, fast->n_funcs * sizeof (SmprofFuncStat));
      if (fast->n_callers > 0)
        memcpy (self->callers, scratch->callers, fast->n_callers * sizeof (SmprofCallerStat));
      self->n_callers = fast->n_callers;
    }
  else
    {
      guint n = 0;

      for (guint i = 0; i < fast->n_funcs; i++)
        n += scratch->funcs[i].n_callers;

      _smprof_stats_slab_take_arrays (self, fast->n_funcs, n);
      if (fast->n_funcs > 0)
        memcpy (self->funcs, scratch->funcs, fast->n_funcs * sizeof (SmprofFuncStat));
      n = 0;
      for (guint i = 0; i < self->n_funcs; i++)
        {
          SmprofFuncStat *stat = &self->funcs[i];

          /* callers is NULL only when no function has a caller */
          if (stat->n_callers > 0 && self->callers != NULL)
            memcpy (&self->callers[n], &scratch->callers[stat->first_caller],
                    stat->n_callers * sizeof (SmprofCallerStat));
          stat->first_caller = n;
          n += stat->n_callers;
        }
      self->n_callers = n;
    }

  return TRUE;
}

/* Returns %NULL when the file is for the general path. */
SmprofPstats *
_smprof_pstats_parse_fast_scratch (Scratch            *scratch,
                                   GBytes             *bytes,
                                   SmprofFunctionKeys *table)
{
  guint n_funcs = smprof_function_keys_get_size (table);
  Fast fast = { 0 };
  gsize len;
  SmprofPstats *self;

  if (n_funcs == 0 || n_funcs > MAX_FAST_FUNCS)
    return NULL;

  if (scratch->n_func_slots < n_funcs)
    {
      guint n_slots = MAX (n_funcs * 2, 1024);

      scratch->func_stamps = g_renew (guint32, scratch->func_stamps, n_slots);
      scratch->func_positions = g_renew (guint32, scratch->func_positions, n_slots);
      scratch->caller_stamps = g_renew (guint32, scratch->caller_stamps, n_slots);
      scratch->caller_positions = g_renew (guint32, scratch->caller_positions, n_slots);
      memset (scratch->func_stamps, 0, n_slots * sizeof (guint32));
      memset (scratch->caller_stamps, 0, n_slots * sizeof (guint32));
      scratch->func_stamp = 0;
      scratch->caller_stamp = 0;
      scratch->n_func_slots = n_slots;
    }

  fast.data = g_bytes_get_data (bytes, &len);
  fast.len = len;
  fast.scratch = scratch;
  fast.table = table;

  self = g_new0 (SmprofPstats, 1);
  if (len >= G_MAXINT32 || !fast_stats (&fast, self))
    {
      smprof_pstats_free (self);
      return NULL;
    }

  return self;
}
