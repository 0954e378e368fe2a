/* smprof-estimated-tree-private.h: the call graph the estimate walks
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <math.h>

#include "smprof-estimated-tree.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 callee;      /* vertex */
  double  weight;      /* time entering the callee may give it, at ratio 1 */
  double  raw;         /* cProfile's cumulative time on these calls */
  gint64  calls;
  double  inner_share; /* of the caller's calls made inside its own, those that made this one */
} Edge;

typedef struct
{
  guint32 func;
  gint64  calls;
  gint64  prim_calls;
  double  cumtime;
  double  tottime;
  double  self_ratio;  /* tottime / cumtime */
  double  root_time;
} Vertex;

/* Vertices 0..n_entries-1 are the profile's entries; the ones after are
 * functions seen only as callers, roots holding their callees' time. */
typedef struct
{
  SmprofCprofileProfile *profile;
  SmprofFunctionKeys    *table;
  guint                  n_entries;
  GArray                *vertices;    /* Vertex */
  guint32               *vertex_of;   /* func id -> vertex + 1 */
  guint                  n_funcs;
  guint                 *first_edge;  /* per vertex, plus one */
  Edge                  *edges;       /* grouped by caller */
  guint                  n_edges;
  guint32               *component;   /* per vertex: its strongly connected component */
} Graph;

/* A damaged file may hold anything: negative, infinite or NaN times count as none. */
static inline double
time_or_zero (double seconds)
{
  return isfinite (seconds) && seconds > 0 ? seconds : 0;
}

void _smprof_estimated_tree_walk (Graph          *graph,
                                  SmprofCallTree *tree,
                                  GArray         *roots,
                                  double          total);

G_END_DECLS
