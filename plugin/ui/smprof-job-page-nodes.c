/* smprof-job-page-nodes.c: the job page's Node Matrix view: time per step of
 * the top functions on every node, and "this node versus the others" from it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-compare-view.h"
#include "smprof-job-page-private.h"
#include "smprof-ui-format.h"

/* The matrix shows the whole job's steps (the statistics the outlier marks
 * come from), not the selection's: a straggler is a property of the node
 * across the job, and the selection is often one node. It gets them only
 * while its tab shows: on a job of hundreds of nodes its columns are work,
 * and a hidden tab need not pay for each refresh. */
static void
sync_matrix (SmprofJobPage *self)
{
  SmprofStepStats *stats = smprof_session_get_job_step_stats (self->session);
  SmprofNodeMatrix *matrix = smprof_node_matrix_view_get_matrix (self->node_matrix_view);

  if (gtk_stack_get_visible_child (self->views_stack) != GTK_WIDGET (self->node_matrix_view) ||
      smprof_node_matrix_get_step_stats (matrix) == stats)
    return;

  smprof_node_matrix_view_set_step_stats (self->node_matrix_view, stats);
}

static void
node_activated_cb (SmprofJobPage *self,
                   const char    *node_id)
{
  smprof_session_compare_node (self->session, node_id);
}

static void
cell_activated_cb (SmprofJobPage *self,
                   const char    *node_id,
                   guint          func)
{
  SmprofCompareView *view = SMPROF_COMPARE_VIEW (_smprof_job_page_get_compare_view (self));
  SmprofFunctionKeys *keys = smprof_job_get_function_keys (smprof_session_get_job (self->session));
  g_autofree char *name = NULL;

  /* The function is where the eye was: the comparison's table is sorted by
   * the change, so filter it to that function's name. */
  if (!smprof_session_compare_node (self->session, node_id) || func >= smprof_function_keys_get_size (keys))
    return;

  name = smprof_ui_dup_func_name (keys, func);
  smprof_diff_table_set_filter_text (smprof_compare_view_get_table (view), name);
}

void
_smprof_job_page_class_nodes_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (SMPROF_TYPE_NODE_MATRIX_VIEW);
}

void
_smprof_job_page_nodes_init (SmprofJobPage *self)
{
  SmprofNodeMatrix *matrix = smprof_node_matrix_view_get_matrix (self->node_matrix_view);

  g_signal_connect_object (self->session, "notify::job-step-stats", G_CALLBACK (sync_matrix), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->views_stack, "notify::visible-child", G_CALLBACK (sync_matrix), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (matrix, "node-activated", G_CALLBACK (node_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (matrix, "cell-activated", G_CALLBACK (cell_activated_cb), self, G_CONNECT_SWAPPED);
}
