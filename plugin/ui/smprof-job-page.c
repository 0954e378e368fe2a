/* smprof-job-page.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "smprof-aggregate.h"
#include "smprof-job-page-private.h"
#include "smprof-ui.h"
#include "smprof-ui-format.h"

/* The page of one job: a header (name, nodes, profiler, Export), presets on
 * the left, the timeline with its toolbar, a status line, and the Functions /
 * Call tree / Flame graph views showing SmprofJobPage:profile (the visible
 * one at once, the others when shown).
 *
 * The page owns the selection. Whatever changes it (a preset, the node
 * choice, the profiler, the timeline, the public API) queues one update; the
 * update selects, reads the stats files it needs and aggregates on a worker
 * thread, and only the newest answer is kept: a generation counter and a
 * cancellable drop the others, so a drag on the timeline never waits for a
 * stale aggregate. A dragged time range is summed by the job's range index
 * once it is built (a few milliseconds whatever the range), else as any
 * other selection.
 *
 * The timeline and the page mirror each other: a drag or a click on the
 * timeline becomes the page's selection (exactly the intervals the timeline
 * outlines), and a preset, the step range or the node choice outline their
 * intervals on the timeline. `timeline_syncing` keeps the echo out.
 *
 * This file holds the GObject, its template and construction, the queueing
 * of updates, the getters, and the job swapped in by a live refresh; the
 * header, the selection and the actions are in smprof-job-page-header.c,
 * -selection.c and -actions.c. */

G_DEFINE_FINAL_TYPE (SmprofJobPage, smprof_job_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_JOB,
  PROP_PROFILE,
  PROP_BUSY,
  N_PROPS
};

enum {
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Queueing updates (smprof-job-page-aggregate.c runs them)                 */

void
_smprof_job_page_set_busy (SmprofJobPage *self,
                           gboolean       busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), busy);
  gtk_spinner_set_spinning (self->busy_spinner, busy);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->views_stack), GTK_ACCESSIBLE_STATE_BUSY, busy, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
visible_view_changed_cb (SmprofJobPage *self,
                         GParamSpec    *pspec,
                         GtkStack      *stack)
{
  _smprof_job_page_sync_visible_view (self);
}

const char * const *
_smprof_job_page_current_node_ids (SmprofJobPage *self)
{
  return (const char * const *) (self->node_ids != NULL ? self->node_ids : self->all_node_ids);
}

/* Many changes in one main-loop turn (a drag) make one update. */
void
_smprof_job_page_queue_update (SmprofJobPage *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);

  if (self->update_source == 0)
    self->update_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, _smprof_job_page_start_update, self, NULL);
  _smprof_job_page_set_busy (self, TRUE);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
smprof_job_page_constructed (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->constructed (object);

  g_assert (SMPROF_IS_JOB (self->job));

  gtk_widget_set_visible (self->profiler_box,
                          smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE) &&
                          smprof_job_has_profiler (self->job, SMPROF_PROFILER_PYINSTRUMENT));

  /* cProfile when there is any, as the command line does. The timeline gets
   * its profiler before the job, so it lays out the job once. */
  _smprof_job_page_set_profiler_internal (self,
                                          smprof_job_has_profiler (self->job, SMPROF_PROFILER_CPROFILE) ||
                                          !smprof_job_has_profiler (self->job, SMPROF_PROFILER_PYINSTRUMENT)
                                          ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT);
  smprof_timeline_set_job (self->timeline, self->job);

  smprof_job_page_set_preset (self, SMPROF_JOB_PAGE_PRESET_WHOLE_JOB);
  _smprof_job_page_update_status (self);
  _smprof_job_page_update_outliers (self);
}

static void
smprof_job_page_dispose (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);
  GtkWidget *child;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->index_cancellable != NULL)
    g_cancellable_cancel (self->index_cancellable);
  g_clear_object (&self->index_cancellable);
  g_clear_handle_id (&self->update_source, g_source_remove);
  self->generation++;

  _smprof_job_page_export_dispose (self);
  _smprof_job_page_refresh_dispose (self);
  _smprof_job_page_compare_dispose (self);
  _smprof_job_page_steps_dispose (self);
  _smprof_job_page_outliers_dispose (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_JOB_PAGE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  _smprof_job_page_modes_dispose (self);

  g_clear_object (&self->node_model);
  g_clear_object (&self->profile);
  g_clear_object (&self->range_index);
  g_clear_pointer (&self->selected_records, g_ptr_array_unref);
  _smprof_job_page_clear_query (self);
  g_clear_object (&self->job);
  g_clear_object (&self->retired_job);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->dispose (object);
}

static void
smprof_job_page_finalize (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_pointer (&self->profile_description, g_free);
  g_clear_pointer (&self->profile_slug, g_free);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->finalize (object);
}

static void
smprof_job_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      g_value_set_object (value, self->job);
      break;

    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_job_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      self->job = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_job_page_class_init (SmprofJobPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = smprof_job_page_constructed;
  object_class->dispose = smprof_job_page_dispose;
  object_class->finalize = smprof_job_page_finalize;
  object_class->get_property = smprof_job_page_get_property;
  object_class->set_property = smprof_job_page_set_property;

  /**
   * SmprofJobPage:job:
   *
   * The job, indexed (smprof_job_load() done).
   */
  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL,
                         SMPROF_TYPE_JOB,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofJobPage:profile:
   *
   * The aggregate of the current selection, or %NULL while nothing is
   * selected. Notified on the main thread whenever a new aggregate is ready,
   * once the visible view shows it.
   */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         SMPROF_TYPE_PROFILE,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofJobPage:busy:
   *
   * Whether a new aggregate is queued or being computed.
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SmprofJobPage::selection-changed:
   *
   * The selection, the nodes or the profiler changed; a new
   * #SmprofJobPage:profile follows once it is computed.
   */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (SMPROF_TYPE_TIMELINE);
  g_type_ensure (SMPROF_TYPE_NODE_CHOOSER);
  g_type_ensure (SMPROF_TYPE_FUNCTION_TABLE);
  g_type_ensure (SMPROF_TYPE_CALL_TREE_VIEW);
  g_type_ensure (SMPROF_TYPE_FLAME_GRAPH_VIEW);

  smprof_ui_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-job-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, job_name_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, job_summary_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, node_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, node_chooser);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, profiler_box);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, cprofile_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, pyinstrument_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, export_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, toast_revealer);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, toast_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, presets_list);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, whole_job_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, initialization_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, training_loop_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, finalization_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, forward_passes_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, rest_of_step_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, steps_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, first_step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, last_step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, views_stack);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, functions_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, call_tree_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, flame_graph_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, function_table);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, flame_graph_view);
  _smprof_job_page_class_presets_init (widget_class);
  _smprof_job_page_class_header_init (widget_class);
  _smprof_job_page_class_selection_init (widget_class);
  _smprof_job_page_class_actions_init (widget_class);

  _smprof_job_page_class_export_init (widget_class);
  _smprof_job_page_class_modes_init (widget_class);
  _smprof_job_page_class_compare_init (widget_class);
  _smprof_job_page_class_outliers_init (widget_class);
  _smprof_job_page_class_nodes_init (widget_class);
}

static void
smprof_job_page_init (SmprofJobPage *self)
{
  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  self->selection.kind = SMPROF_SELECT_ALL;

  gtk_widget_init_template (GTK_WIDGET (self));

  _smprof_job_page_header_init (self);
  _smprof_job_page_modes_init (self);

  g_signal_connect_object (self->views_stack, "notify::visible-child",
                           G_CALLBACK (visible_view_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.zoom-to-selection", FALSE);
  _smprof_job_page_update_export_actions (self);
  _smprof_job_page_refresh_init (self);
  _smprof_job_page_compare_init (self);
  _smprof_job_page_outliers_init (self);
  _smprof_job_page_nodes_init (self);
  _smprof_job_page_steps_init (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */

/**
 * smprof_job_page_new:
 * @job: an indexed job
 *
 * Returns: (transfer floating): the page, aggregating the whole job
 */
GtkWidget *
smprof_job_page_new (SmprofJob *job)
{
  g_return_val_if_fail (SMPROF_IS_JOB (job), NULL);

  return g_object_new (SMPROF_TYPE_JOB_PAGE, "job", job, NULL);
}

/**
 * smprof_job_page_get_job:
 * @self: a job page
 *
 * Returns: (transfer none): the job
 */
SmprofJob *
smprof_job_page_get_job (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->job;
}

/**
 * smprof_job_page_get_selected_records:
 * @self: a job page
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   intervals the current #SmprofJobPage:profile aggregates, unreadable ones
 *   included, in record order; %NULL before the first answer
 */
GPtrArray *
smprof_job_page_get_selected_records (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->selected_records;
}

/**
 * smprof_job_page_get_profile:
 * @self: a job page
 *
 * Returns: (transfer none) (nullable): the aggregate of the selection
 */
SmprofProfile *
smprof_job_page_get_profile (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->profile;
}

/**
 * smprof_job_page_dup_selection_description:
 * @self: a job page
 *
 * What #SmprofJobPage:profile aggregates, in words: the preset, the steps,
 * the modes and phases, or the time range ("whole job", "train steps 3
 * (stepstart) – 5 (stepend)", "time … s – … s (1.20 s to 3.40 s after the
 * job's start)"). The exports' subtitles name it, with the job and nodes.
 *
 * Returns: (transfer full) (nullable): the description, %NULL before the
 *   first answer
 */
char *
smprof_job_page_dup_selection_description (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return g_strdup (self->profile_description);
}

gboolean
smprof_job_page_get_busy (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), FALSE);

  return self->busy;
}

/**
 * smprof_job_page_get_timeline:
 * @self: a job page
 *
 * Returns: (transfer none): the page's timeline
 */
SmprofTimeline *
smprof_job_page_get_timeline (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->timeline;
}

/**
 * smprof_job_page_get_slot:
 * @self: a job page
 * @name: "timeline", "functions", "call-tree" or "flame-graph"
 *
 * The box a view is in: the timeline with its toolbar, the function table,
 * the call tree or the flame graph view.
 *
 * Returns: (transfer none) (nullable): the slot
 */
GtkBox *
smprof_job_page_get_slot (SmprofJobPage *self,
                          const char    *name)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (g_str_equal (name, "timeline"))
    return self->timeline_slot;
  if (g_str_equal (name, "functions"))
    return self->functions_slot;
  if (g_str_equal (name, "call-tree"))
    return self->call_tree_slot;
  if (g_str_equal (name, "flame-graph"))
    return self->flame_graph_slot;

  return NULL;
}

gboolean
_smprof_job_page_used_range_index (SmprofJobPage *self)
{
  return self->profile_from_index;
}

/* ------------------------------------------------------------------------ */
/* Live refresh (smprof-job-page-refresh.c)                                 */

/* The records of @job with the paths of @records, in @records' order; those
 * that are gone are left out. */
GPtrArray *
_smprof_job_page_records_in_job (SmprofJob      *job,
                                 SmprofProfiler  profiler,
                                 GPtrArray      *records)
{
  GPtrArray *all = smprof_job_get_records (job, profiler);
  g_autoptr(GHashTable) by_path = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++)
    {
      SmprofRecord *record = g_ptr_array_index (all, i);

      g_hash_table_insert (by_path, record->path, record);
    }

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);
      SmprofRecord *same = g_hash_table_lookup (by_path, record->path);

      if (same != NULL)
        g_ptr_array_add (found, same);
    }

  return found;
}

static gboolean
same_paths (GPtrArray *a,
            GPtrArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return FALSE;

  for (guint i = 0; i < a->len; i++)
    if (g_strcmp0 (((SmprofRecord *) g_ptr_array_index (a, i))->path,
                   ((SmprofRecord *) g_ptr_array_index (b, i))->path) != 0)
      return FALSE;

  return TRUE;
}

/**
 * _smprof_job_page_swap_job:
 * @self: a job page
 * @job: the same job, listed again (it may hold more intervals)
 *
 * Shows @job in place of the page's job, keeping what the user chose: the
 * profiler, the nodes, the selection (intervals picked on the timeline are
 * found again by their paths; a preset or a range is asked of @job, so it
 * takes in the new intervals it covers), the timeline's zoom and scroll. The
 * selection is aggregated again only when it now names other intervals.
 */
void
_smprof_job_page_swap_job (SmprofJobPage *self,
                           SmprofJob     *job)
{
  g_auto(GStrv) node_ids = NULL;
  g_auto(GStrv) visible_nodes = NULL;
  g_autoptr(GPtrArray) records = NULL;
  double view_start, view_end;
  gint64 first_step = self->first_step, last_step = self->last_step;
  SmprofProfiler profiler = self->profiler;
  gboolean compare_again;

  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (SMPROF_IS_JOB (job));

  if (job == self->job || !smprof_job_has_profiler (job, profiler))
    return;

  node_ids = g_strdupv (self->node_ids);
  visible_nodes = g_strdupv ((char **) smprof_timeline_get_visible_nodes (self->timeline));
  smprof_timeline_get_visible_range (self->timeline, &view_start, &view_end);

  /* The range index sums the old job's intervals: build it again later. */
  if (self->index_cancellable != NULL)
    g_cancellable_cancel (self->index_cancellable);
  g_clear_object (&self->index_cancellable);
  g_clear_object (&self->range_index);
  self->index_started = FALSE;

  /* The profile and the selected records still point into the old job
   * until the next aggregate replaces them: keep it until then. */
  g_clear_object (&self->retired_job);
  self->retired_job = g_steal_pointer (&self->job);
  self->job = g_object_ref (job);

  if (self->explicit_records != NULL)
    {
      GPtrArray *found = _smprof_job_page_records_in_job (job, profiler, self->explicit_records);

      g_ptr_array_unref (self->explicit_records);
      self->explicit_records = found;
    }

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  self->all_node_ids = smprof_job_dup_node_ids (job, profiler);
  _smprof_job_page_update_header (self);
  _smprof_job_page_update_node_model (self);
  /* The drop-down shows one node; several show in the node chooser only. */
  if (node_ids != NULL && g_strv_length (node_ids) == 1)
    for (guint i = 0; self->all_node_ids[i] != NULL; i++)
      if (strcmp (self->all_node_ids[i], node_ids[0]) == 0)
        {
          self->syncing = TRUE;
          gtk_drop_down_set_selected (self->node_dropdown, i + 1);
          self->syncing = FALSE;
        }
  if (node_ids != NULL && g_strv_length (node_ids) > 1)
    {
      self->syncing = TRUE;
      gtk_drop_down_set_selected (self->node_dropdown, GTK_INVALID_LIST_POSITION);
      self->syncing = FALSE;
    }

  _smprof_job_page_update_step_range (self);
  _smprof_job_page_update_modes (self);
  self->syncing = TRUE;
  gtk_adjustment_set_value (self->first_step_adjustment, first_step);
  gtk_adjustment_set_value (self->last_step_adjustment, last_step);
  self->first_step = (gint64) gtk_adjustment_get_value (self->first_step_adjustment);
  self->last_step = (gint64) gtk_adjustment_get_value (self->last_step_adjustment);
  self->syncing = FALSE;

  self->timeline_syncing = TRUE;
  smprof_timeline_set_job (self->timeline, job);
  smprof_timeline_set_visible_nodes (self->timeline, (const char * const *) visible_nodes);
  smprof_timeline_set_visible_range (self->timeline, view_start, view_end);
  self->timeline_syncing = FALSE;
  _smprof_job_page_sync_timeline (self);
  _smprof_job_page_update_outliers (self);

  /* An open comparison needs both sides of the new job: it aggregates A
   * again, and the page's next answer is B. */
  compare_again = _smprof_job_page_compare_job_swapped (self);

  records = _smprof_job_page_select_for (job, profiler, _smprof_job_page_current_node_ids (self),
                                         self->preset, &self->selection, self->explicit_records);
  if (same_paths (records, self->selected_records) && !compare_again)
    {
      /* The same intervals: the profile stands; only the records move to the new job. */
      g_clear_pointer (&self->selected_records, g_ptr_array_unref);
      self->selected_records = g_steal_pointer (&records);
    }
  else
    _smprof_job_page_queue_update (self);

  /* The viewer's document follows (its summary and problems). */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB]);
}
