/* smprof-function-table-steps.c: the function table's per-step columns
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-function-table-private.h"

#define properties _smprof_function_table_properties

/* ------------------------------------------------------------------------ */
/* Time per step                                                            */

/* Gives @item its function's time per step, from the table's statistics of
 * @job's functions. */
void
_smprof_function_table_apply_steps (SmprofFunctionTable *self,
                                    SmprofFunctionItem  *item,
                                    SmprofJob           *job)
{
  SmprofStepStats *stats = self->step_stats;
  guint n_steps = stats != NULL ? smprof_step_stats_get_n_steps (stats) : 0;
  guint32 func = smprof_function_item_get_func (item);
  gpointer found;

  /* No step in the selection, or statistics of another job, whose function
   * ids name other functions: nothing to show. */
  if (n_steps == 0 || job == NULL || smprof_step_stats_get_job (stats) != job)
    {
      smprof_function_item_set_step_values (item, NULL, NULL);
      return;
    }

  found = g_hash_table_lookup (self->step_index, GUINT_TO_POINTER (func));
  if (found != NULL)
    {
      guint index = GPOINTER_TO_UINT (found) - 1;
      g_autoptr(GArray) series = g_array_sized_new (FALSE, FALSE, sizeof (double), n_steps);

      g_array_set_size (series, n_steps);
      smprof_step_stats_get_series (stats, index, (double *) (gpointer) series->data);
      smprof_function_item_set_step_values (item, smprof_step_stats_get_function (stats, index), series);
    }
  else
    {
      /* A function of the selection that ran in none of its steps, only
       * before step 0 or after the hook closed: 0 at every step. */
      SmprofStepFunction none = { .func = func };

      smprof_function_item_set_step_values (item, &none, self->zero_series);
    }
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* GTK 4.8's columns have no tooltip: give one to the header button that
 * shows @column's title (the header row is the column view's child before
 * its list). */
static void
set_header_tooltip (SmprofFunctionTable *self,
                    GtkColumnViewColumn *column,
                    const char          *tooltip)
{
  const char *title = gtk_column_view_column_get_title (column);

  for (GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       header != NULL && !GTK_IS_LIST_VIEW (header);
       header = gtk_widget_get_next_sibling (header))
    {
      for (GtkWidget *button = gtk_widget_get_first_child (header);
           button != NULL;
           button = gtk_widget_get_next_sibling (button))
        {
          if (find_label (button, title) != NULL)
            {
              gtk_widget_set_tooltip_text (button, tooltip);
              return;
            }
        }
    }
}

/* What a step is, on each per-step column's header. */
static void
explain_step_columns (SmprofFunctionTable *self)
{
  const struct { GtkColumnViewColumn *column; const char *what; } columns[] = {
    { self->steps_column, N_("The number of steps in which the function ran.") },
    { self->step_min_column, N_("The function’s smallest self time in a step.") },
    { self->step_median_column, N_("The function’s median self time per step.") },
    { self->step_p95_column, N_("The 95th percentile of the function’s self time per step.") },
    { self->step_max_column, N_("The function’s largest self time in a step.") },
    { self->per_step_column, N_("The function’s self time at each step, in order, the largest marked; "
                                "sorted by the largest minus the median.") },
  };
  /* smprof-step-stats.h's rule, in words */
  const char *rule = _("A step is one node’s intervals that start at one training step (mode and step number): "
                       "a PyTorch or Keras step has two. Intervals before step 0, after the hook closed or "
                       "of no step belong to none. Steps where the function did not run count as 0; "
                       "the median and p95 interpolate between steps.");

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_autofree char *tooltip = g_strdup_printf ("%s\n%s", _(columns[i].what), rule);

      set_header_tooltip (self, columns[i].column, tooltip);
    }
}

/**
 * smprof_function_table_set_step_stats:
 * @self: a function table
 * @stats: (transfer full) (nullable): the listed selection's time per step,
 *   or %NULL while there is none
 *
 * Fills the per-step columns (Steps, Min/Step, Median/Step, p95/Step,
 * Max/Step and the Per Step sparkline) of the rows in place, and of the rows
 * of later profiles until the next call: set %NULL as soon as the selection
 * changes. Statistics of another job than the profile's show as none.
 */
void
smprof_function_table_set_step_stats (SmprofFunctionTable *self,
                                      SmprofStepStats     *stats)
{
  SmprofJob *job;
  guint n;

  g_return_if_fail (SMPROF_IS_FUNCTION_TABLE (self));

  if (stats == self->step_stats)
    return;

  g_clear_pointer (&self->step_stats, smprof_step_stats_free);
  self->step_stats = stats;

  g_hash_table_remove_all (self->step_index);
  g_clear_pointer (&self->zero_series, g_array_unref);
  if (stats != NULL)
    {
      guint n_steps = smprof_step_stats_get_n_steps (stats);

      for (guint i = 0; i < smprof_step_stats_get_n_functions (stats); i++)
        g_hash_table_insert (self->step_index,
                             GUINT_TO_POINTER (smprof_step_stats_get_function (stats, i)->func),
                             GUINT_TO_POINTER (i + 1));
      self->zero_series = g_array_sized_new (FALSE, TRUE, sizeof (double), n_steps);
      g_array_set_size (self->zero_series, n_steps);
    }

  job = self->profile != NULL ? smprof_profile_get_job (self->profile) : NULL;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SmprofFunctionItem) item = g_list_model_get_item (G_LIST_MODEL (self->store), i);

      _smprof_function_table_apply_steps (self, item, job);
    }

  /* The rows changed in place, under a sort model that keeps each row's
   * sort key from when the row came: sorted by a per-step column, the table
   * would keep the previous selection's order. Sort again. */
  if (n > 0)
    {
      gtk_sorter_changed (gtk_column_view_get_sorter (self->column_view), GTK_SORTER_CHANGE_DIFFERENT);
      /* a row whose place did not change still shows new figures */
      _smprof_function_table_show_sorted_rows (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP_STATS]);
}

/**
 * smprof_function_table_get_step_stats:
 * @self: a function table
 *
 * Returns: (transfer none) (nullable): the statistics the per-step columns show
 */
SmprofStepStats *
smprof_function_table_get_step_stats (SmprofFunctionTable *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), NULL);

  return self->step_stats;
}

gboolean
smprof_function_table_get_show_step_columns (SmprofFunctionTable *self)
{
  g_return_val_if_fail (SMPROF_IS_FUNCTION_TABLE (self), FALSE);

  return self->show_step_columns;
}

/**
 * smprof_function_table_set_show_step_columns:
 * @self: a function table
 * @show: whether to show the per-step columns
 *
 * Shows or hides the Steps, Min/Step, Median/Step, p95/Step, Max/Step and
 * Per Step columns, as the "Per Step" button does.
 */
void
smprof_function_table_set_show_step_columns (SmprofFunctionTable *self,
                                             gboolean             show)
{
  GtkColumnViewColumn *columns[] = {
    self->steps_column, self->step_min_column, self->step_median_column,
    self->step_p95_column, self->step_max_column, self->per_step_column,
  };

  g_return_if_fail (SMPROF_IS_FUNCTION_TABLE (self));

  show = !!show;
  if (show == self->show_step_columns)
    return;

  self->show_step_columns = show;
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    gtk_column_view_column_set_visible (columns[i], show);

  /* Eleven columns of numbers are wider than a 1280 px window's table: the
   * table scrolls sideways, and the function's name comes first so that it
   * stays in view. Without them, pstats' order: the name last. */
  gtk_column_view_insert_column (self->column_view,
                                 show ? 0 : g_list_model_get_n_items (gtk_column_view_get_columns (self->column_view)) - 1,
                                 self->label_column);
  /* a column's header exists while it shows */
  if (show)
    explain_step_columns (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_STEP_COLUMNS]);
}
