/* smprof-node-matrix-data.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smprof-node-matrix-data.h"
#include "smprof-ui-format.h"

/* What the node × function matrix shows, computed from per-step statistics
 * with no widget, on a worker thread (smprof-node-matrix.c): on a job of
 * hundreds of nodes and steps it takes a moment. Everything is one pass over
 * the statistics per quantity (the core indexes the steps by node), not one
 * per node. */

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Each cell against the median of the same column on the other nodes: the
 * comparison the core's straggler rule makes, and with two nodes simply the
 * other node (the median over all nodes would be the mean of the two and
 * halve the contrast). */
static void
compute_ratios (SmprofNodeMatrixData *self)
{
  guint n_columns = self->columns->len;
  g_autofree double *others = g_new (double, MAX (self->n_nodes, 1));

  for (guint c = 0; c < n_columns; c++)
    for (guint row = 0; row < self->n_nodes; row++)
      {
        double value = self->values[row * n_columns + c];
        double median;
        guint n = 0;

        for (guint other = 0; other < self->n_nodes; other++)
          if (other != row && !isnan (self->values[other * n_columns + c]))
            others[n++] = self->values[other * n_columns + c];

        if (n == 0 || isnan (value))
          {
            self->ratios[row * n_columns + c] = NAN;
            continue;
          }

        qsort (others, n, sizeof (double), compare_doubles);
        median = smprof_step_quantile (others, n, 0.5);
        if (median > 0)
          self->ratios[row * n_columns + c] = value / median;
        else
          self->ratios[row * n_columns + c] = value > 0 ? INFINITY : 1;
      }
}

/* Each node's straggler steps, in words: one pass over the steps. */
static void
collect_stragglers (SmprofNodeMatrixData *self,
                    SmprofStepStats      *stats)
{
  const char * const *node_ids = smprof_step_stats_get_node_ids (stats);
  guint n_steps = smprof_step_stats_get_n_steps (stats);
  g_autoptr(GHashTable) rows = g_hash_table_new (g_str_hash, g_str_equal);
  GString **texts = g_new0 (GString *, MAX (self->n_nodes, 1));

  self->n_straggler_steps = g_new0 (guint, MAX (self->n_nodes, 1));
  for (guint row = 0; row < self->n_nodes; row++)
    {
      g_hash_table_insert (rows, (gpointer) node_ids[row], GUINT_TO_POINTER (row + 1));
      texts[row] = g_string_new (NULL);
    }

  for (guint i = 0; i < n_steps; i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);
      guint row;

      if (!step->straggler || (row = GPOINTER_TO_UINT (g_hash_table_lookup (rows, step->node_id))) == 0)
        continue;
      row--;

      if (self->n_straggler_steps[row]++ > 0)
        g_string_append (texts[row], ", ");
      g_string_append_printf (texts[row], "%s %" G_GINT64_FORMAT, smprof_mode_to_string (step->mode), step->step);
    }

  self->straggler_steps = g_new0 (char *, self->n_nodes + 1);
  for (guint row = 0; row < self->n_nodes; row++)
    self->straggler_steps[row] = g_string_free (texts[row], FALSE);
  g_free (texts);
}

/* Column headers are narrow: cProfile's built-in labels lose their wrapping,
 * "{built-in method time.sleep}" reads "time.sleep" and "{method 'run' of
 * 'X' objects}" reads "run". The tooltip keeps the full label. */
static char *
dup_short_name (SmprofFunctionKeys *table,
                guint32             func)
{
  g_autofree char *name = smprof_ui_dup_func_name (table, func);
  gsize length = strlen (name);
  const char *inner, *quote;

  if (length < 2 || name[0] != '{' || name[length - 1] != '}')
    return g_steal_pointer (&name);

  name[length - 1] = '\0';
  inner = name + 1;
  if (g_str_has_prefix (inner, "built-in method "))
    return g_strdup (inner + strlen ("built-in method "));
  if (g_str_has_prefix (inner, "method '") && (quote = strchr (inner + strlen ("method '"), '\'')) != NULL)
    return g_strndup (inner + strlen ("method '"), quote - (inner + strlen ("method '")));

  return g_strdup (inner);
}


/* Moves the column of function id @pinned first, adding it when it is not
 * one of the top functions; nothing when the statistics never saw it. */
static void
pin_column (GArray          *columns,
            SmprofStepStats *stats,
            guint32          pinned)
{
  guint n_functions = smprof_step_stats_get_n_functions (stats);

  if (pinned == G_MAXUINT32)
    return;

  for (guint index = 0; index < n_functions; index++)
    if (smprof_step_stats_get_function (stats, index)->func == pinned)
      {
        for (guint c = 0; c < columns->len; c++)
          if (g_array_index (columns, guint, c) == index)
            {
              g_array_remove_index (columns, c);
              break;
            }
        g_array_prepend_val (columns, index);
        return;
      }
}

/**
 * _smprof_node_matrix_data_new:
 * @stats: per-step statistics
 * @top_n: how many functions per node make the columns
 * @pinned: a function id of the job's keys to show first whether it is of
 *   the top ones or not (compared across nodes), or %G_MAXUINT32
 *
 * Returns: (transfer full): the matrix's columns, names, cells, ratios and
 *   stragglers for @stats
 */
SmprofNodeMatrixData *
_smprof_node_matrix_data_new (SmprofStepStats *stats,
                              guint            top_n,
                              guint32          pinned)
{
  SmprofNodeMatrixData *self = g_new0 (SmprofNodeMatrixData, 1);
  const char * const *node_ids = smprof_step_stats_get_node_ids (stats);
  SmprofFunctionKeys *table = smprof_job_get_function_keys (smprof_step_stats_get_job (stats));
  guint n_functions = smprof_step_stats_get_n_functions (stats);
  g_autofree double *times = NULL;
  guint n_columns;

  self->n_nodes = g_strv_length ((char **) node_ids);
  self->columns = smprof_step_stats_top_functions (stats, top_n);
  pin_column (self->columns, stats, pinned);
  n_columns = self->columns->len;

  self->names = g_new0 (char *, n_columns + 1);
  for (guint c = 0; c < n_columns; c++)
    self->names[c] = dup_short_name (table,
                                     smprof_step_stats_get_function (stats, g_array_index (self->columns, guint, c))->func);

  times = smprof_step_stats_dup_node_function_times (stats, &self->n_steps);
  self->values = g_new (double, MAX (self->n_nodes * n_columns, 1));
  self->ratios = g_new (double, MAX (self->n_nodes * n_columns, 1));
  for (guint row = 0; row < self->n_nodes; row++)
    for (guint c = 0; c < n_columns; c++)
      {
        double time = times[(gsize) row * n_functions + g_array_index (self->columns, guint, c)];

        /* A node without a step has no time per step, not 0. */
        self->values[row * n_columns + c] = self->n_steps[row] > 0 ? time / self->n_steps[row] : NAN;
      }

  compute_ratios (self);
  collect_stragglers (self, stats);

  return self;
}

void
_smprof_node_matrix_data_free (SmprofNodeMatrixData *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->columns, g_array_unref);
  g_clear_pointer (&self->names, g_strfreev);
  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->ratios, g_free);
  g_clear_pointer (&self->n_steps, g_free);
  g_clear_pointer (&self->n_straggler_steps, g_free);
  g_clear_pointer (&self->straggler_steps, g_strfreev);
  g_free (self);
}
