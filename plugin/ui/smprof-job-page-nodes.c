/* smprof-job-page-nodes.c: the job page's Node Matrix view: time per step of
 * the top functions on every node, and "this node versus the others" from it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-compare-view.h"
#include "smprof-job-page-private.h"
#include "smprof-ui-format.h"

/* The matrix shows the whole job's steps (the statistics the outlier marks
 * come from, smprof-job-page-outliers.c), not the selection's: a straggler
 * is a property of the node across the job, and the selection is often one
 * node. */
static void
job_step_stats_changed_cb (SmprofJobPage *self)
{
  smprof_node_matrix_view_set_step_stats (self->node_matrix_view,
                                          _smprof_job_page_get_job_step_stats (self));
}

/* The intervals of the steps of @node_id (@others %FALSE) or of every other
 * node, in the statistics' step order. */
static GPtrArray *
dup_step_records (SmprofStepStats *stats,
                  const char      *node_id,
                  gboolean         others)
{
  GPtrArray *records = g_ptr_array_new ();

  for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
    {
      const SmprofStep *step = smprof_step_stats_get_step (stats, i);

      if ((g_strcmp0 (step->node_id, node_id) != 0) == others)
        g_ptr_array_extend (records, smprof_step_stats_get_step_records (stats, i), NULL, NULL);
    }

  return records;
}

/**
 * _smprof_job_page_compare_node:
 * @self: a job page
 * @node_id: a node of the job's per-step statistics
 *
 * Opens a comparison of the job's steps on every other node (A) with its
 * steps on @node_id (B), per step, so that a node's share of the steps does
 * not count as a difference.
 *
 * Returns: %FALSE when either side has no step
 */
gboolean
_smprof_job_page_compare_node (SmprofJobPage *self,
                               const char    *node_id)
{
  SmprofStepStats *stats = _smprof_job_page_get_job_step_stats (self);
  g_autoptr(GPtrArray) others = NULL;
  g_autoptr(GPtrArray) mine = NULL;
  g_autofree char *a_label = NULL;
  g_autofree char *b_label = NULL;
  guint n_others = 0;

  if (stats == NULL)
    return FALSE;

  others = dup_step_records (stats, node_id, TRUE);
  mine = dup_step_records (stats, node_id, FALSE);
  if (others->len == 0 || mine->len == 0)
    return FALSE;

  for (const char * const *id = smprof_step_stats_get_node_ids (stats); *id != NULL; id++)
    n_others += g_strcmp0 (*id, node_id) != 0;

  a_label = g_strdup_printf (ngettext ("The other node (%u), every step", "The other nodes (%u), every step",
                                       n_others), n_others);
  b_label = g_strdup_printf (_("Node %s, every step"), node_id);

  smprof_compare_view_set_normalize (SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (self)),
                                     SMPROF_DIFF_NORMALIZE_STEP);
  _smprof_job_page_compare_records (self, others, a_label, mine, b_label);
  return TRUE;
}

static void
node_activated_cb (SmprofJobPage *self,
                   const char    *node_id)
{
  _smprof_job_page_compare_node (self, node_id);
}

static void
cell_activated_cb (SmprofJobPage *self,
                   const char    *node_id,
                   guint          func)
{
  SmprofCompareView *view = SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (self));

  /* The function is where the eye was: the comparison's table is sorted by
   * the change, so filter it to that function's name. */
  if (_smprof_job_page_compare_node (self, node_id) && self->job != NULL)
    {
      SmprofFunctionKeys *table = smprof_job_get_function_keys (self->job);
      g_autofree char *name = NULL;

      if (func >= smprof_function_keys_get_size (table))
        return;
      name = smprof_ui_dup_func_name (table, func);
      smprof_diff_table_set_filter_text (smprof_compare_view_get_table (view), name);
    }
}

void
_smprof_job_page_class_nodes_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (SMPROF_TYPE_NODE_MATRIX_VIEW);
  gtk_widget_class_bind_template_child_full (widget_class, "node_matrix_view", FALSE,
                                             G_STRUCT_OFFSET (SmprofJobPage, node_matrix_view));
}

void
_smprof_job_page_nodes_init (SmprofJobPage *self)
{
  SmprofNodeMatrix *matrix = smprof_node_matrix_view_get_matrix (self->node_matrix_view);

  g_signal_connect (self, "job-step-stats-changed", G_CALLBACK (job_step_stats_changed_cb), NULL);
  g_signal_connect_object (matrix, "node-activated", G_CALLBACK (node_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (matrix, "cell-activated", G_CALLBACK (cell_activated_cb), self, G_CONNECT_SWAPPED);
}
