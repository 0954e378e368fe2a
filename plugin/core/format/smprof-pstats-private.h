/* smprof-pstats-private.h: the two ways of reading a pstats file, one at a time,
 * and what smprof-pstats.c and smprof-pstats-fast.c share: each thread's scratch
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-marshal-private.h"
#include "smprof-pstats.h"

G_BEGIN_DECLS

/* Func id -> position in the dict being read. A dict may repeat a key (Python
 * keeps the first position and the last value), and a per-file array indexed
 * by func id would be as large as the whole job's table, so this is a small
 * open-addressing table. Stamps let it be reused for the next dict without
 * clearing it. */
typedef struct
{
  guint32 *keys;
  guint32 *positions;
  guint32 *stamps;
  guint    mask;
  guint32  stamp;
} PosMap;

/* The fast path's record of a back-reference slot (smprof-pstats-fast.c). */
typedef enum
{
  FAST_REF_PENDING,  /* a container still being read */
  FAST_REF_OPAQUE,   /* a container the fast path does not reuse */
  FAST_REF_INT,
  FAST_REF_FLOAT,
  FAST_REF_STRING,
  FAST_REF_KEY,
} FastRefType;

typedef struct
{
  FastRefType type;
  guint32     length;   /* STRING */
  gboolean    hashed;   /* STRING: hash holds the table's hash of it */
  guint64     hash;
  union
  {
    gint64      i;
    double      f;
    const char *s;
    guint32     func;
  } v;
} FastRef;

/* What one thread keeps from file to file. A job is tens of thousands of
 * files read by a few threads; with the decoder's arrays, the key cache, the
 * position maps and the callers buffer kept per thread, the only allocations
 * per file are the arrays that stay loaded, each exactly sized, so no holes
 * open up between them. */
typedef struct
{
  SmprofMarshalScratch  marshal;
  guint32              *key_ids;
  guint                 key_ids_size;
  PosMap                funcs_map;
  PosMap                callers_map;
  SmprofCallerStat     *callers;
  guint                 callers_size;

  /* The fast path's: back-references, the functions read so far, and where
   * each func id was last seen, stamped per file and per callers dict. */
  FastRef              *refs;
  guint                 refs_size;
  SmprofFuncStat       *funcs;
  guint                 funcs_size;
  guint32              *func_stamps;
  guint32              *func_positions;
  guint32              *caller_stamps;
  guint32              *caller_positions;
  guint                 n_func_slots;
  guint32               func_stamp;
  guint32               caller_stamp;
} Scratch;

/* smprof-pstats.c */
SmprofPstats *_smprof_pstats_parse_general (GBytes              *bytes,
                                            SmprofFunctionKeys  *table,
                                            GError             **error);
SmprofPstats *_smprof_pstats_parse_fast    (GBytes              *bytes,
                                            SmprofFunctionKeys  *table);

/* smprof-pstats-fast.c: the fast path, with the calling thread's scratch */
SmprofPstats *_smprof_pstats_parse_fast_scratch (Scratch            *scratch,
                                                 GBytes             *bytes,
                                                 SmprofFunctionKeys *table);

G_END_DECLS
