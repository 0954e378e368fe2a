/* smprof-diff.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-diff.h"

G_DEFINE_QUARK (smprof-diff-error-quark, smprof_diff_error)

struct _SmprofDiff
{
  GObject              parent_instance;

  SmprofProfile       *profiles[2];
  SmprofDiffNormalize  normalize;  /* never AUTO: what AUTO resolved to */
  SmprofDiffNormalize  requested;
  double               divisors[2];
  guint                n_steps[2];
  GArray              *rows;      /* SmprofDiffRow, A's functions first, then B's others */
  SmprofCallTree      *tree;      /* the union of both trees; node times are what is drawn */
  GArray              *frames;    /* SmprofDiffFrame per node of the tree */
};

G_DEFINE_FINAL_TYPE (SmprofDiff, smprof_diff, G_TYPE_OBJECT)

static void
smprof_diff_finalize (GObject *object)
{
  SmprofDiff *self = SMPROF_DIFF (object);

  g_clear_object (&self->profiles[SMPROF_DIFF_A]);
  g_clear_object (&self->profiles[SMPROF_DIFF_B]);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->tree, smprof_call_tree_free);

  G_OBJECT_CLASS (smprof_diff_parent_class)->finalize (object);
}

static void
smprof_diff_class_init (SmprofDiffClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_diff_finalize;
}

static void
smprof_diff_init (SmprofDiff *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (SmprofDiffRow));
  self->frames = g_array_new (FALSE, TRUE, sizeof (SmprofDiffFrame));
}

/* ------------------------------------------------------------------ steps */

static void
add_step (GHashTable         *steps,
          const SmprofRecord *record,
          SmprofMode          mode,
          gint64              step)
{
  g_hash_table_add (steps, g_strdup_printf ("%s/%d/%" G_GINT64_FORMAT, record->node_id, mode, step));
}

/**
 * smprof_diff_count_steps:
 * @records: (element-type SmprofRecord): the intervals of a selection
 *
 * Counts the distinct (node, mode, step) triples the intervals cover, the
 * divisor of per-step normalisation. An interval covers the step its start
 * names; when it ends later in the same mode, the steps up to its end step
 * too, except the end step itself when the interval ends as that step starts
 * (`train-5-forwardpassend_train-6-stepstart` covers step 5 only). A `*` start
 * (before step zero) names no step. Train step 3 and eval step 3 are two
 * steps, and so are step 3 on two nodes.
 *
 * Returns: the number of steps covered
 */
guint
smprof_diff_count_steps (GPtrArray *records)
{
  g_autoptr(GHashTable) steps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (records != NULL, 0);

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);
      const SmprofIntervalName *name = &record->name;
      gint64 last;

      if (name->start_step < 0)
        continue;

      add_step (steps, record, name->start_mode, name->start_step);

      if (name->end_mode != name->start_mode || name->end_step == SMPROF_STEP_INFINITY ||
          name->end_step <= name->start_step)
        continue;

      last = name->end_phase == SMPROF_PHASE_STEP_START ? name->end_step - 1 : name->end_step;
      for (gint64 step = name->start_step + 1; step <= last; step++)
        add_step (steps, record, name->start_mode, step);
    }

  return g_hash_table_size (steps);
}

/* ------------------------------------------------------------------ rows */

static double
scale_count (gint64 count,
             double divisor)
{
  return count < 0 ? -1 : count / divisor;
}

static void
add_rows (SmprofDiff     *self,
          GHashTable     *row_of_func,
          SmprofDiffSide  side)
{
  SmprofProfile *profile = self->profiles[side];
  double divisor = self->divisors[side];
  gboolean counted = smprof_profile_get_profiler (profile) == SMPROF_PROFILER_CPROFILE;

  for (guint i = 0; i < smprof_profile_get_n_functions (profile); i++)
    {
      const SmprofFunctionRow *function = smprof_profile_get_function (profile, i);
      gpointer found = g_hash_table_lookup (row_of_func, GUINT_TO_POINTER (function->func + 1));
      SmprofDiffRow *row;

      if (found == NULL)
        {
          SmprofDiffRow fresh = { function->func, 0, { 0, 0 }, { 0, 0 }, { 0, 0 } };

          if (!counted)
            fresh.ncalls[SMPROF_DIFF_A] = fresh.ncalls[SMPROF_DIFF_B] = -1;
          g_array_append_val (self->rows, fresh);
          found = GUINT_TO_POINTER (self->rows->len);
          g_hash_table_insert (row_of_func, GUINT_TO_POINTER (function->func + 1), found);
        }

      row = &g_array_index (self->rows, SmprofDiffRow, GPOINTER_TO_UINT (found) - 1);
      row->sides |= side == SMPROF_DIFF_A ? SMPROF_DIFF_IN_A : SMPROF_DIFF_IN_B;
      row->tottime[side] += function->tottime / divisor;
      row->cumtime[side] += function->cumtime / divisor;
      if (counted)
        row->ncalls[side] += scale_count (function->ncalls, divisor);
    }
}

/* ------------------------------------------------------------------ tree */

static void
add_tree (SmprofDiff     *self,
          SmprofDiffSide  side)
{
  SmprofCallTree *source = smprof_profile_get_call_tree (self->profiles[side]);
  guint n_nodes = smprof_call_tree_get_n_nodes (source);
  g_autofree guint32 *mapped = g_new (guint32, n_nodes);
  double divisor = self->divisors[side];
  SmprofDiffSides bit = side == SMPROF_DIFF_A ? SMPROF_DIFF_IN_A : SMPROF_DIFF_IN_B;
  SmprofDiffFrame *frame;

  mapped[SMPROF_CALL_TREE_ROOT] = SMPROF_CALL_TREE_ROOT;
  frame = &g_array_index (self->frames, SmprofDiffFrame, SMPROF_CALL_TREE_ROOT);
  frame->sides |= bit;
  frame->total[side] += smprof_call_tree_get_node (source, SMPROF_CALL_TREE_ROOT)->total / divisor;
  frame->self[side] += smprof_call_tree_get_node (source, SMPROF_CALL_TREE_ROOT)->self / divisor;

  /* Parents come before their children in both trees. */
  for (guint32 i = 1; i < n_nodes; i++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (source, i);

      mapped[i] = smprof_call_tree_ensure_child (self->tree, mapped[node->parent], node->func);
      if (mapped[i] >= self->frames->len)
        g_array_set_size (self->frames, mapped[i] + 1);

      frame = &g_array_index (self->frames, SmprofDiffFrame, mapped[i]);
      frame->sides |= bit;
      frame->total[side] += node->total / divisor;
      frame->self[side] += node->self / divisor;
    }
}

/* A frame is drawn as wide as B's time; a stack B lacks keeps A's time, and
 * every frame above it grows by as much, so no frame spills out of its
 * caller. Children come after their parents, so one backward pass sums. */
static void
set_drawn_times (SmprofDiff *self)
{
  guint n_nodes = smprof_call_tree_get_n_nodes (self->tree);
  g_autofree double *added = g_new0 (double, n_nodes);
  g_autofree double *children = g_new0 (double, n_nodes);
  const SmprofDiffFrame *root;
  double drawn;

  for (guint32 i = n_nodes - 1; i >= 1; i--)
    {
      const SmprofDiffFrame *frame = &g_array_index (self->frames, SmprofDiffFrame, i);
      guint32 parent = smprof_call_tree_get_node (self->tree, i)->parent;
      gboolean in_b = (frame->sides & SMPROF_DIFF_IN_B) != 0;

      drawn = in_b ? frame->total[SMPROF_DIFF_B] + added[i] : frame->total[SMPROF_DIFF_A];
      smprof_call_tree_add_time (self->tree, i, drawn,
                                 in_b ? frame->self[SMPROF_DIFF_B] : frame->self[SMPROF_DIFF_A]);
      added[parent] += in_b ? added[i] : frame->total[SMPROF_DIFF_A];
      children[parent] += drawn;
    }

  root = &g_array_index (self->frames, SmprofDiffFrame, SMPROF_CALL_TREE_ROOT);
  drawn = MAX (root->total[SMPROF_DIFF_B] + added[SMPROF_CALL_TREE_ROOT], children[SMPROF_CALL_TREE_ROOT]);
  smprof_call_tree_add_time (self->tree, SMPROF_CALL_TREE_ROOT, drawn, root->self[SMPROF_DIFF_B]);
  smprof_call_tree_sort (self->tree);
}

/* ------------------------------------------------------------------ new */

/**
 * smprof_diff_normalize_resolve:
 * @normalize: the normalisation asked for
 * @n_steps_a: the steps A covers (smprof_diff_count_steps())
 * @n_steps_b: the steps B covers
 *
 * %SMPROF_DIFF_NORMALIZE_AUTO is per step when A and B cover different
 * numbers of steps and both cover some: steps 0–4 against steps 5–14 compare
 * a step with a step, not five with ten. With as many steps on both sides
 * (one step of two nodes, two ranges of one length) per step would only
 * divide both by the same number, and a side of no step (before step zero,
 * the teardown) cannot be divided by its steps: raw totals then.
 *
 * Returns: @normalize, or what %SMPROF_DIFF_NORMALIZE_AUTO comes to
 */
SmprofDiffNormalize
smprof_diff_normalize_resolve (SmprofDiffNormalize normalize,
                               guint               n_steps_a,
                               guint               n_steps_b)
{
  if (normalize != SMPROF_DIFF_NORMALIZE_AUTO)
    return normalize;

  return n_steps_a > 0 && n_steps_b > 0 && n_steps_a != n_steps_b ? SMPROF_DIFF_NORMALIZE_STEP
                                                                  : SMPROF_DIFF_NORMALIZE_NONE;
}

static gboolean
compute_divisor (SmprofDiff      *self,
                 SmprofDiffSide   side,
                 GError         **error)
{
  GPtrArray *records = smprof_profile_get_records (self->profiles[side]);

  switch (self->normalize)
    {
    case SMPROF_DIFF_NORMALIZE_STEP:
      if (self->n_steps[side] == 0)
        {
          g_set_error (error, SMPROF_DIFF_ERROR, SMPROF_DIFF_ERROR_NO_STEPS,
                       _("selection %s covers no training step, so it cannot be normalised per step "
                         "(normalise per interval instead)"),
                       side == SMPROF_DIFF_A ? "A" : "B");
          return FALSE;
        }
      self->divisors[side] = self->n_steps[side];
      break;
    case SMPROF_DIFF_NORMALIZE_INTERVAL:
      self->divisors[side] = MAX (records->len, 1);
      break;
    case SMPROF_DIFF_NORMALIZE_AUTO: /* resolved by smprof_diff_new() */
    case SMPROF_DIFF_NORMALIZE_NONE:
    default:
      self->divisors[side] = 1;
      break;
    }

  return TRUE;
}

/**
 * smprof_diff_new:
 * @a: the profile of selection A, the reference
 * @b: the profile of selection B, of the same job and profiler
 * @normalize: what each side's numbers are divided by; %SMPROF_DIFF_NORMALIZE_AUTO
 *   chooses (smprof_diff_normalize_resolve())
 * @error: a location for a #GError, or %NULL
 *
 * Compares @b with @a: a row per function of either side (the function
 * table's identity: file, line, name) and the union of both call trees. Every
 * number is the side's own divided by its divisor (smprof_diff_get_divisor()).
 *
 * Returns: (transfer full) (nullable): the comparison, or %NULL with @error set
 */
SmprofDiff *
smprof_diff_new (SmprofProfile        *a,
                 SmprofProfile        *b,
                 SmprofDiffNormalize   normalize,
                 GError              **error)
{
  g_autoptr(SmprofDiff) self = NULL;
  g_autoptr(GHashTable) row_of_func = NULL;
  SmprofFunctionKeys *table;

  g_return_val_if_fail (SMPROF_IS_PROFILE (a), NULL);
  g_return_val_if_fail (SMPROF_IS_PROFILE (b), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  table = smprof_call_tree_get_table (smprof_profile_get_call_tree (a));
  if (table != smprof_call_tree_get_table (smprof_profile_get_call_tree (b)) ||
      smprof_profile_get_profiler (a) != smprof_profile_get_profiler (b))
    {
      g_set_error_literal (error, SMPROF_DIFF_ERROR, SMPROF_DIFF_ERROR_MISMATCH,
                           _("the two selections must be of one job and one profiler"));
      return NULL;
    }

  self = g_object_new (SMPROF_TYPE_DIFF, NULL);
  self->profiles[SMPROF_DIFF_A] = g_object_ref (a);
  self->profiles[SMPROF_DIFF_B] = g_object_ref (b);
  self->requested = normalize;
  self->n_steps[SMPROF_DIFF_A] = smprof_diff_count_steps (smprof_profile_get_records (a));
  self->n_steps[SMPROF_DIFF_B] = smprof_diff_count_steps (smprof_profile_get_records (b));
  self->normalize = smprof_diff_normalize_resolve (normalize, self->n_steps[SMPROF_DIFF_A],
                                                   self->n_steps[SMPROF_DIFF_B]);

  if (!compute_divisor (self, SMPROF_DIFF_A, error) || !compute_divisor (self, SMPROF_DIFF_B, error))
    return NULL;

  row_of_func = g_hash_table_new (NULL, NULL);
  add_rows (self, row_of_func, SMPROF_DIFF_A);
  add_rows (self, row_of_func, SMPROF_DIFF_B);

  self->tree = smprof_call_tree_new (table);
  g_array_set_size (self->frames, 1);
  add_tree (self, SMPROF_DIFF_A);
  add_tree (self, SMPROF_DIFF_B);
  set_drawn_times (self);

  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------ getters */

SmprofProfile *
smprof_diff_get_profile (SmprofDiff     *self,
                         SmprofDiffSide  side)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), NULL);
  g_return_val_if_fail (side <= SMPROF_DIFF_B, NULL);

  return self->profiles[side];
}

/**
 * smprof_diff_get_normalize:
 * @self: a diff
 *
 * Returns: the normalisation applied, never %SMPROF_DIFF_NORMALIZE_AUTO
 */
SmprofDiffNormalize
smprof_diff_get_normalize (SmprofDiff *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), SMPROF_DIFF_NORMALIZE_NONE);

  return self->normalize;
}

/**
 * smprof_diff_get_requested_normalize:
 * @self: a diff
 *
 * Returns: the normalisation smprof_diff_new() was given, which may be
 *   %SMPROF_DIFF_NORMALIZE_AUTO
 */
SmprofDiffNormalize
smprof_diff_get_requested_normalize (SmprofDiff *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), SMPROF_DIFF_NORMALIZE_NONE);

  return self->requested;
}

/* 1, the number of steps, or the number of intervals of @side. */
double
smprof_diff_get_divisor (SmprofDiff     *self,
                         SmprofDiffSide  side)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), 1);
  g_return_val_if_fail (side <= SMPROF_DIFF_B, 1);

  return self->divisors[side];
}

/* The steps @side covers (smprof_diff_count_steps()), whatever the normalisation. */
guint
smprof_diff_get_n_steps (SmprofDiff     *self,
                         SmprofDiffSide  side)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), 0);
  g_return_val_if_fail (side <= SMPROF_DIFF_B, 0);

  return self->n_steps[side];
}

/* The side's total time (smprof_profile_get_total_time()), normalised. */
double
smprof_diff_get_total_time (SmprofDiff     *self,
                            SmprofDiffSide  side)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), 0);
  g_return_val_if_fail (side <= SMPROF_DIFF_B, 0);

  return smprof_profile_get_total_time (self->profiles[side]) / self->divisors[side];
}

/**
 * smprof_diff_dup_side_counts:
 * @self: a comparison
 * @side: one of its sides
 *
 * Returns: (transfer full): "N intervals · N steps" for @side, translated
 */
char *
smprof_diff_dup_side_counts (SmprofDiff     *self,
                             SmprofDiffSide  side)
{
  guint n_records;
  guint n_steps;
  g_autofree char *intervals = NULL;
  g_autofree char *steps = NULL;

  g_return_val_if_fail (SMPROF_IS_DIFF (self), NULL);
  g_return_val_if_fail (side <= SMPROF_DIFF_B, NULL);

  n_records = smprof_profile_get_records (self->profiles[side])->len;
  n_steps = self->n_steps[side];
  intervals = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", n_records), n_records);
  steps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step", "%u steps", n_steps), n_steps);

  return g_strconcat (intervals, " · ", steps, NULL);
}

guint
smprof_diff_get_n_rows (SmprofDiff *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), 0);

  return self->rows->len;
}

const SmprofDiffRow *
smprof_diff_get_row (SmprofDiff *self,
                     guint       index)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), NULL);
  g_return_val_if_fail (index < self->rows->len, NULL);

  return &g_array_index (self->rows, SmprofDiffRow, index);
}

SmprofCallTree *
smprof_diff_get_tree (SmprofDiff *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), NULL);

  return self->tree;
}

const SmprofDiffFrame *
smprof_diff_get_frame (SmprofDiff *self,
                       guint32     node)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), NULL);
  g_return_val_if_fail (node < self->frames->len, NULL);

  return &g_array_index (self->frames, SmprofDiffFrame, node);
}

SmprofFunctionKeys *
smprof_diff_get_function_keys (SmprofDiff *self)
{
  g_return_val_if_fail (SMPROF_IS_DIFF (self), NULL);

  return smprof_call_tree_get_table (self->tree);
}

/* ------------------------------------------------------------------ sorting */

/**
 * smprof_diff_ratio:
 * @a: A's value
 * @b: B's value
 *
 * Returns: @b / @a; +∞ (or −∞) when only B has time, NaN when neither has
 */
double
smprof_diff_ratio (double a,
                   double b)
{
  if (a == 0)
    return b == 0 ? NAN : b > 0 ? INFINITY : -INFINITY;

  return b / a;
}

void
smprof_diff_row_get (const SmprofDiffRow *row,
                     SmprofDiffMetric     metric,
                     double               values[2])
{
  const double *source = metric == SMPROF_DIFF_METRIC_CUMTIME ? row->cumtime
                         : metric == SMPROF_DIFF_METRIC_NCALLS ? row->ncalls : row->tottime;

  values[SMPROF_DIFF_A] = source[SMPROF_DIFF_A];
  values[SMPROF_DIFF_B] = source[SMPROF_DIFF_B];
}

typedef struct
{
  SmprofDiff       *diff;
  SmprofDiffMetric  metric;
  SmprofDiffColumn  column;
} SortContext;

static double
sort_value (const SortContext   *context,
            const SmprofDiffRow *row)
{
  double v[2];

  smprof_diff_row_get (row, context->metric, v);

  switch (context->column)
    {
    case SMPROF_DIFF_COLUMN_ABS_DELTA:
      return fabs (v[SMPROF_DIFF_B] - v[SMPROF_DIFF_A]);
    case SMPROF_DIFF_COLUMN_DELTA:
      return v[SMPROF_DIFF_B] - v[SMPROF_DIFF_A];
    case SMPROF_DIFF_COLUMN_RATIO:
      return smprof_diff_ratio (v[SMPROF_DIFF_A], v[SMPROF_DIFF_B]);
    case SMPROF_DIFF_COLUMN_A:
      return v[SMPROF_DIFF_A];
    case SMPROF_DIFF_COLUMN_B:
      return v[SMPROF_DIFF_B];
    case SMPROF_DIFF_COLUMN_FUNCTION:
    default:
      return 0;
    }
}

/* Numbers largest first, NaN last; ties, and the function column, by name. */
static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SortContext *context = user_data;
  const SmprofDiffRow *x = &g_array_index (context->diff->rows, SmprofDiffRow, *(const guint *) a);
  const SmprofDiffRow *y = &g_array_index (context->diff->rows, SmprofDiffRow, *(const guint *) b);

  if (context->column != SMPROF_DIFF_COLUMN_FUNCTION)
    {
      double vx = sort_value (context, x);
      double vy = sort_value (context, y);

      if (isnan (vx) != isnan (vy))
        return isnan (vx) ? 1 : -1;
      if (vx > vy)
        return -1;
      if (vx < vy)
        return 1;
    }

  return smprof_function_keys_compare (smprof_call_tree_get_table (context->diff->tree), x->func, y->func);
}

/**
 * smprof_diff_sorted:
 * @self: a comparison
 * @metric: which numbers to sort by
 * @column: which column of them
 *
 * Returns: (transfer full) (element-type guint): the row indices in order
 */
GArray *
smprof_diff_sorted (SmprofDiff       *self,
                    SmprofDiffMetric  metric,
                    SmprofDiffColumn  column)
{
  SortContext context = { self, metric, column };
  GArray *order;

  g_return_val_if_fail (SMPROF_IS_DIFF (self), NULL);

  order = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->rows->len);
  for (guint i = 0; i < self->rows->len; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_rows, &context);

  return order;
}

/* ------------------------------------------------------------------ names */

static const char *const normalize_names[] = { "none", "step", "interval", "auto" };
static const char *const metric_names[] = { "tottime", "cumtime", "ncalls" };
static const char *const column_names[] = { "absdelta", "delta", "ratio", "a", "b", "function" };

static gboolean
lookup_name (const char         *text,
             const char * const *names,
             guint               n_names,
             int                *value)
{
  if (text == NULL)
    return FALSE;

  for (guint i = 0; i < n_names; i++)
    if (g_ascii_strcasecmp (text, names[i]) == 0)
      {
        *value = i;
        return TRUE;
      }

  return FALSE;
}

gboolean
smprof_diff_normalize_from_string (const char          *text,
                                   SmprofDiffNormalize *normalize)
{
  int value;

  if (!lookup_name (text, normalize_names, G_N_ELEMENTS (normalize_names), &value))
    return FALSE;
  *normalize = value;
  return TRUE;
}

const char *
smprof_diff_normalize_to_string (SmprofDiffNormalize normalize)
{
  g_return_val_if_fail (normalize < G_N_ELEMENTS (normalize_names), NULL);

  return normalize_names[normalize];
}

gboolean
smprof_diff_metric_from_string (const char       *text,
                                SmprofDiffMetric *metric)
{
  int value;

  if (!lookup_name (text, metric_names, G_N_ELEMENTS (metric_names), &value))
    return FALSE;
  *metric = value;
  return TRUE;
}

const char *
smprof_diff_metric_to_string (SmprofDiffMetric metric)
{
  g_return_val_if_fail (metric < G_N_ELEMENTS (metric_names), NULL);

  return metric_names[metric];
}

gboolean
smprof_diff_column_from_string (const char       *text,
                                SmprofDiffColumn *column)
{
  int value;

  if (!lookup_name (text, column_names, G_N_ELEMENTS (column_names), &value))
    return FALSE;
  *column = value;
  return TRUE;
}
