/* smprof-diff.h: two selections of one job, side by side
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-profile.h"

G_BEGIN_DECLS

/* What each side's numbers are divided by before they are compared. */
typedef enum
{
  SMPROF_DIFF_NORMALIZE_NONE,      /* raw totals */
  SMPROF_DIFF_NORMALIZE_STEP,      /* per step: smprof_diff_count_steps() */
  SMPROF_DIFF_NORMALIZE_INTERVAL,  /* per interval aggregated */
  /* per step when A and B cover different numbers of steps, both some;
   * raw totals otherwise (smprof_diff_normalize_resolve()): the default */
  SMPROF_DIFF_NORMALIZE_AUTO,
} SmprofDiffNormalize;

typedef enum
{
  SMPROF_DIFF_A,
  SMPROF_DIFF_B,
} SmprofDiffSide;

/* Which sides a function or frame was seen in. */
typedef enum
{
  SMPROF_DIFF_IN_A    = 1 << 0,
  SMPROF_DIFF_IN_B    = 1 << 1,
  SMPROF_DIFF_IN_BOTH = SMPROF_DIFF_IN_A | SMPROF_DIFF_IN_B,
} SmprofDiffSides;

/* One function of either side, normalised. Call counts are -1 where the
 * profiler counts none (Pyinstrument); a side that lacks the function has 0. */
typedef struct
{
  guint32         func;
  SmprofDiffSides sides;
  double          tottime[2];   /* indexed by SmprofDiffSide */
  double          cumtime[2];
  double          ncalls[2];
} SmprofDiffRow;

/* One frame of the differential tree, normalised. The tree's own node times
 * are what is drawn: B's time, plus the A time of the stacks B lacks. */
typedef struct
{
  SmprofDiffSides sides;
  double          total[2];
  double          self[2];
} SmprofDiffFrame;

typedef enum
{
  SMPROF_DIFF_METRIC_TOTTIME,
  SMPROF_DIFF_METRIC_CUMTIME,
  SMPROF_DIFF_METRIC_NCALLS,
} SmprofDiffMetric;

typedef enum
{
  SMPROF_DIFF_COLUMN_ABS_DELTA,  /*< nick=absdelta >*/ /* largest change first, either way */
  SMPROF_DIFF_COLUMN_DELTA,      /* largest growth first */
  SMPROF_DIFF_COLUMN_RATIO,      /* largest B/A first; undefined ratios last */
  SMPROF_DIFF_COLUMN_A,
  SMPROF_DIFF_COLUMN_B,
  SMPROF_DIFF_COLUMN_FUNCTION,   /* by name, file, line */
} SmprofDiffColumn;

/**
 * SmprofDiffError:
 * @SMPROF_DIFF_ERROR_MISMATCH: the two profiles are of different jobs or profilers
 * @SMPROF_DIFF_ERROR_NO_STEPS: per-step normalisation of a side that covers no step
 */
typedef enum
{
  SMPROF_DIFF_ERROR_MISMATCH,
  SMPROF_DIFF_ERROR_NO_STEPS,
} SmprofDiffError;

#define SMPROF_DIFF_ERROR (smprof_diff_error_quark ())
GQuark smprof_diff_error_quark (void);

#define SMPROF_TYPE_DIFF (smprof_diff_get_type ())

G_DECLARE_FINAL_TYPE (SmprofDiff, smprof_diff, SMPROF, DIFF, GObject)

SmprofDiff            *smprof_diff_new                (SmprofProfile        *a,
                                                       SmprofProfile        *b,
                                                       SmprofDiffNormalize   normalize,
                                                       GError              **error);
SmprofProfile         *smprof_diff_get_profile        (SmprofDiff           *self,
                                                       SmprofDiffSide        side);
SmprofDiffNormalize    smprof_diff_get_normalize      (SmprofDiff           *self);
SmprofDiffNormalize    smprof_diff_get_requested_normalize (SmprofDiff      *self);
double                 smprof_diff_get_divisor        (SmprofDiff           *self,
                                                       SmprofDiffSide        side);
guint                  smprof_diff_get_n_steps        (SmprofDiff           *self,
                                                       SmprofDiffSide        side);
double                 smprof_diff_get_total_time     (SmprofDiff           *self,
                                                       SmprofDiffSide        side);
char                  *smprof_diff_dup_side_counts    (SmprofDiff           *self,
                                                       SmprofDiffSide        side);
guint                  smprof_diff_get_n_rows         (SmprofDiff           *self);
const SmprofDiffRow   *smprof_diff_get_row            (SmprofDiff           *self,
                                                       guint                 index);
GArray                *smprof_diff_sorted             (SmprofDiff           *self,
                                                       SmprofDiffMetric      metric,
                                                       SmprofDiffColumn      column);
SmprofCallTree        *smprof_diff_get_tree           (SmprofDiff           *self);
const SmprofDiffFrame *smprof_diff_get_frame          (SmprofDiff           *self,
                                                       guint32               node);
SmprofFunctionKeys    *smprof_diff_get_function_keys  (SmprofDiff           *self);

guint                  smprof_diff_count_steps        (GPtrArray            *records);
double                 smprof_diff_ratio              (double                a,
                                                       double                b);
void                   smprof_diff_row_get            (const SmprofDiffRow  *row,
                                                       SmprofDiffMetric      metric,
                                                       double                values[2]);
SmprofDiffNormalize    smprof_diff_normalize_resolve  (SmprofDiffNormalize   normalize,
                                                       guint                 n_steps_a,
                                                       guint                 n_steps_b);
gboolean               smprof_diff_normalize_from_string (const char          *text,
                                                          SmprofDiffNormalize *normalize);
const char            *smprof_diff_normalize_to_string   (SmprofDiffNormalize  normalize);
gboolean               smprof_diff_metric_from_string    (const char          *text,
                                                          SmprofDiffMetric    *metric);
const char            *smprof_diff_metric_to_string      (SmprofDiffMetric     metric);
gboolean               smprof_diff_column_from_string    (const char          *text,
                                                          SmprofDiffColumn    *column);

G_END_DECLS
