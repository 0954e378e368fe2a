/* smprof-job-page.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

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
 * intervals on the timeline. `timeline_syncing` keeps the echo out. */

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

static void queue_update   (SmprofJobPage *self);
static void sync_timeline  (SmprofJobPage *self);

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
static void
queue_update (SmprofJobPage *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);

  if (self->update_source == 0)
    self->update_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, _smprof_job_page_start_update, self, NULL);
  _smprof_job_page_set_busy (self, TRUE);
}

/* ------------------------------------------------------------------------ */
/* The timeline                                                             */

/* The page's selection, outlined on the timeline. The whole job is no
 * selection there (nothing outlined: everything counts). */
static void
sync_timeline (SmprofJobPage *self)
{
  if (smprof_timeline_get_layout (self->timeline) == NULL)
    return;

  self->timeline_syncing = TRUE;

  if (self->preset == SMPROF_JOB_PAGE_PRESET_WHOLE_JOB)
    smprof_timeline_clear_selection (self->timeline);
  else if (self->explicit_records != NULL)
    smprof_timeline_select_records (self->timeline, self->explicit_records);
  else if (self->preset == SMPROF_JOB_PAGE_PRESET_FORWARD_PASSES ||
           self->preset == SMPROF_JOB_PAGE_PRESET_REST_OF_STEP)
    {
      g_autoptr(GPtrArray) records = _smprof_job_page_select_for (self->job, self->profiler,
                                                                  _smprof_job_page_current_node_ids (self),
                                                                  self->preset, &self->selection, NULL);

      smprof_timeline_select_records (self->timeline, records);
    }
  else
    /* NULL: the shown nodes, which are the chosen ones */
    smprof_timeline_set_selection (self->timeline, &self->selection, NULL);

  self->timeline_syncing = FALSE;
}

static void
clear_query (SmprofJobPage *self)
{
  self->has_query = FALSE;
  g_clear_pointer (&self->query_node_ids, g_strfreev);
  g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
}

/* A drag, a click, Shift+click, the keyboard or Escape on the timeline: the
 * page aggregates exactly the intervals the timeline outlines. */
static void
timeline_selection_changed_cb (SmprofJobPage  *self,
                               SmprofTimeline *timeline)
{
  SmprofTimelineSelection *selection;

  if (self->timeline_syncing)
    return;

  selection = smprof_timeline_get_selection (timeline);
  clear_query (self);

  if (selection == NULL)
    {
      /* Nothing selected: everything counts. */
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
      _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
    }
  else if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY &&
           smprof_timeline_selection_get_query (selection)->kind == SMPROF_SELECT_ALL &&
           g_strv_equal (smprof_timeline_selection_get_node_ids (selection), _smprof_job_page_current_node_ids (self)))
    {
      /* Ctrl+A */
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
      _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
    }
  else
    {
      self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
      self->explicit_records = g_ptr_array_copy (smprof_timeline_selection_get_records (selection), NULL, NULL);

      if (smprof_timeline_selection_get_kind (selection) == SMPROF_TIMELINE_SELECTION_QUERY)
        {
          const char * const *ids = smprof_timeline_selection_get_node_ids (selection);

          self->has_query = TRUE;
          self->selection = *smprof_timeline_selection_get_query (selection);
          if (!g_strv_equal (ids, _smprof_job_page_current_node_ids (self)))
            self->query_node_ids = g_strdupv ((char **) ids);
        }
    }

  _smprof_job_page_sync_preset_row (self);
  queue_update (self);
}

static void
timeline_notify_selection_cb (SmprofJobPage  *self,
                              GParamSpec     *pspec,
                              SmprofTimeline *timeline)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job-page.zoom-to-selection",
                                 smprof_timeline_get_selection (timeline) != NULL);
}

/* ------------------------------------------------------------------------ */
/* The header, nodes and profiler                                           */

static void
update_header (SmprofJobPage *self)
{
  SmprofSource *source = smprof_job_get_source (self->job);
  g_autofree char *location = smprof_source_dup_location (source);
  g_autofree char *name = g_path_get_basename (location);
  GPtrArray *records = smprof_job_get_records (self->job, self->profiler);
  guint n_nodes = g_strv_length (self->all_node_ids);
  g_autofree char *nodes = NULL;
  g_autofree char *intervals = NULL;
  g_autofree char *summary = NULL;

  gtk_label_set_label (self->job_name_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->job_name_label), location);

  nodes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", n_nodes), n_nodes);
  intervals = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u interval", "%u intervals", records->len),
                               records->len);

  if (n_nodes > 1 && records->len % n_nodes == 0)
    {
      guint each = records->len / n_nodes;
      g_autofree char *per_node = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u per node", "%u per node", each),
                                                   each);

      /* Translators: "2 nodes · 82 intervals (41 per node)" */
      summary = g_strdup_printf (_("%s · %s (%s)"), nodes, intervals, per_node);
    }
  else
    /* Translators: "2 nodes · 82 intervals" */
    summary = g_strdup_printf (_("%s · %s"), nodes, intervals);

  gtk_label_set_label (self->job_summary_label, summary);
}

static void
update_node_model (SmprofJobPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->node_model));

  self->syncing = TRUE;
  gtk_string_list_splice (self->node_model, 0, n, NULL);
  gtk_string_list_append (self->node_model, _("All nodes"));
  for (guint i = 0; self->all_node_ids[i] != NULL; i++)
    gtk_string_list_append (self->node_model, self->all_node_ids[i]);
  gtk_drop_down_set_selected (self->node_dropdown, 0);
  self->syncing = FALSE;

  smprof_node_chooser_set_node_ids (self->node_chooser, (const char * const *) self->all_node_ids);
  smprof_node_chooser_set_chosen (self->node_chooser, (const char * const *) self->node_ids);
}

/* "Choose nodes…": several nodes, or all of them when all are checked. */
static void
node_chooser_changed_cb (SmprofJobPage     *self,
                         SmprofNodeChooser *chooser)
{
  g_auto(GStrv) chosen = smprof_node_chooser_dup_chosen (chooser);

  smprof_job_page_set_node_ids (self, (const char * const *) chosen);
}

static void
node_selected_cb (SmprofJobPage *self,
                  GParamSpec    *pspec,
                  GtkDropDown   *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;

  if (selected == 0)
    smprof_job_page_set_node_ids (self, NULL);
  else
    {
      const char *ids[] = { self->all_node_ids[selected - 1], NULL };

      smprof_job_page_set_node_ids (self, ids);
    }
}

static void
set_profiler_internal (SmprofJobPage  *self,
                       SmprofProfiler  profiler)
{
  self->profiler = profiler;

  g_clear_pointer (&self->all_node_ids, g_strfreev);
  self->all_node_ids = smprof_job_dup_node_ids (self->job, profiler);
  g_clear_pointer (&self->node_ids, g_strfreev);

  /* Records belong to one profiler: an explicit set does not carry over. */
  if (self->explicit_records != NULL || self->has_query)
    {
      clear_query (self);
      self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
    }

  self->syncing = TRUE;
  gtk_toggle_button_set_active (profiler == SMPROF_PROFILER_CPROFILE ? self->cprofile_button : self->pyinstrument_button,
                                TRUE);
  self->syncing = FALSE;

  /* The timeline shows the profiler's intervals, every node; its selection
   * is cleared, and the page sets its own again afterwards. */
  self->timeline_syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, NULL);
  smprof_timeline_set_profiler (self->timeline, profiler);
  self->timeline_syncing = FALSE;

  update_header (self);
  update_node_model (self);
  _smprof_job_page_update_step_range (self);
  _smprof_job_page_update_modes (self);
}

static void
profiler_toggled_cb (SmprofJobPage   *self,
                     GtkToggleButton *button)
{
  if (self->syncing || !gtk_toggle_button_get_active (button))
    return;

  smprof_job_page_set_profiler (self,
                                button == self->cprofile_button
                                ? SMPROF_PROFILER_CPROFILE : SMPROF_PROFILER_PYINSTRUMENT);
}

static void
error_bar_response_cb (SmprofJobPage *self,
                       int            response,
                       GtkInfoBar    *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

static void
preset_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  int preset = g_variant_get_int32 (parameter);

  if (preset > SMPROF_JOB_PAGE_PRESET_NONE && preset <= SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES &&
      gtk_widget_get_sensitive (GTK_WIDGET (_smprof_job_page_row_for_preset (self, preset))))
    smprof_job_page_set_preset (self, preset);
}

static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *child = gtk_stack_get_child_by_name (self->views_stack, name);

  /* A hidden page (the comparison, when none is open) stays hidden. */
  if (child == NULL || !gtk_stack_page_get_visible (gtk_stack_get_page (self->views_stack, child)))
    return;

  gtk_stack_set_visible_child (self->views_stack, child);

  /* Focus follows when it was in the views already. */
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->views_stack)) &&
      !gtk_widget_is_ancestor (focus, child))
    gtk_widget_child_focus (child, GTK_DIR_TAB_FORWARD);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (widget);

  if (g_str_equal (action_name, "job-page.zoom-in"))
    smprof_timeline_zoom_in (self->timeline);
  else if (g_str_equal (action_name, "job-page.zoom-out"))
    smprof_timeline_zoom_out (self->timeline);
  else if (g_str_equal (action_name, "job-page.zoom-fit"))
    smprof_timeline_zoom_reset (self->timeline);
  else
    smprof_timeline_zoom_to_selection (self->timeline);
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
  set_profiler_internal (self,
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
  clear_query (self);
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
  static const char * const views[] = { "functions", "call-tree", "flame-graph", "node-matrix", "compare" };

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
  gtk_widget_class_bind_template_callback (widget_class, profiler_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, timeline_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, timeline_notify_selection_cb);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);

  /* Presets: Alt+1 … Alt+8 */
  gtk_widget_class_install_action (widget_class, "job-page.preset", "i", preset_action);
  for (int preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB; preset <= SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES; preset++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + preset - SMPROF_JOB_PAGE_PRESET_WHOLE_JOB,
                                         GDK_ALT_MASK, "job-page.preset", "i", preset);

  /* Views: Ctrl+1 Functions, Ctrl+2 Call tree, Ctrl+3 Flame graph, Ctrl+4
   * Node matrix, Ctrl+5 the comparison while one is open */
  gtk_widget_class_install_action (widget_class, "job-page.show-view", "s", show_view_action);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_CONTROL_MASK,
                                           "job-page.show-view", "s", views[i]);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_1 + i, GDK_CONTROL_MASK,
                                           "job-page.show-view", "s", views[i]);
    }

  /* The timeline's toolbar (the timeline's own shortcuts work while it has
   * the focus; these work from the buttons). */
  gtk_widget_class_install_action (widget_class, "job-page.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "job-page.zoom-to-selection", NULL, zoom_action);

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

  self->node_model = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->node_dropdown, G_LIST_MODEL (self->node_model));
  g_signal_connect_object (self->node_dropdown, "notify::selected",
                           G_CALLBACK (node_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->node_chooser, "changed",
                           G_CALLBACK (node_chooser_changed_cb), self, G_CONNECT_SWAPPED);
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

SmprofProfiler
smprof_job_page_get_profiler (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

/**
 * smprof_job_page_set_profiler:
 * @self: a job page
 * @profiler: the profiler whose records to show
 *
 * Switches profiler, on the page and on the timeline; the node choice goes
 * back to all nodes, presets keep, other selections become the whole job.
 */
void
smprof_job_page_set_profiler (SmprofJobPage  *self,
                              SmprofProfiler  profiler)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (profiler < SMPROF_N_PROFILERS);

  if (profiler == self->profiler)
    return;

  /* A and B are of one profiler: a comparison ends with it. */
  _smprof_job_page_close_comparison (self);
  set_profiler_internal (self, profiler);
  _smprof_job_page_update_outliers (self);
  if (self->preset == SMPROF_JOB_PAGE_PRESET_NONE)
    self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
  _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
  _smprof_job_page_sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
}

/**
 * smprof_job_page_get_node_ids:
 * @self: a job page
 *
 * Returns: (transfer none): the nodes the selection covers, sorted
 */
const char * const *
smprof_job_page_get_node_ids (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return _smprof_job_page_current_node_ids (self);
}

/* After the node choice changed: a timeline range applies to the new nodes;
 * chosen intervals on nodes no longer chosen drop out. */
static void
follow_node_choice (SmprofJobPage *self)
{
  if (self->preset != SMPROF_JOB_PAGE_PRESET_NONE)
    return;

  if (self->has_query)
    {
      g_clear_pointer (&self->query_node_ids, g_strfreev);
      g_clear_pointer (&self->explicit_records, g_ptr_array_unref);
      return;
    }

  if (self->explicit_records != NULL)
    {
      const char * const *ids = _smprof_job_page_current_node_ids (self);
      GPtrArray *kept = g_ptr_array_new ();

      for (guint i = 0; i < self->explicit_records->len; i++)
        {
          SmprofRecord *record = g_ptr_array_index (self->explicit_records, i);

          if (g_strv_contains (ids, record->node_id))
            g_ptr_array_add (kept, record);
        }
      g_ptr_array_unref (self->explicit_records);
      self->explicit_records = kept;

      if (kept->len == 0)
        {
          clear_query (self);
          self->preset = SMPROF_JOB_PAGE_PRESET_WHOLE_JOB;
          _smprof_job_page_selection_for_preset (self, self->preset, &self->selection);
          _smprof_job_page_sync_preset_row (self);
        }
    }
}

/**
 * smprof_job_page_set_node_ids:
 * @self: a job page
 * @node_ids: (nullable): the nodes to aggregate, one or several; %NULL for all
 *
 * The timeline shows those nodes only. A preset or a dragged range applies
 * to the new nodes; intervals picked on the timeline keep those of the
 * chosen nodes.
 */
void
smprof_job_page_set_node_ids (SmprofJobPage      *self,
                              const char * const *node_ids)
{
  guint selected = 0;

  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  g_clear_pointer (&self->node_ids, g_strfreev);
  if (node_ids != NULL)
    self->node_ids = g_strdupv ((char **) node_ids);

  /* The drop-down shows "All nodes" or one node; several show as none. */
  if (node_ids != NULL)
    {
      selected = GTK_INVALID_LIST_POSITION;
      if (g_strv_length ((char **) node_ids) == 1)
        for (guint i = 0; self->all_node_ids[i] != NULL; i++)
          if (g_strcmp0 (self->all_node_ids[i], node_ids[0]) == 0)
            selected = i + 1;
    }
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->node_dropdown, selected);
  self->syncing = FALSE;
  smprof_node_chooser_set_chosen (self->node_chooser, node_ids);

  self->timeline_syncing = TRUE;
  smprof_timeline_set_visible_nodes (self->timeline, node_ids);
  self->timeline_syncing = FALSE;

  follow_node_choice (self);
  sync_timeline (self);
  queue_update (self);
}

SmprofJobPagePreset
smprof_job_page_get_preset (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_JOB_PAGE_PRESET_NONE);

  return self->preset;
}

/**
 * smprof_job_page_set_preset:
 * @self: a job page
 * @preset: a preset, not %SMPROF_JOB_PAGE_PRESET_NONE
 *
 * Selects the intervals of @preset on the chosen nodes, and outlines them on
 * the timeline (the whole job is no outline).
 */
void
smprof_job_page_set_preset (SmprofJobPage       *self,
                            SmprofJobPagePreset  preset)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (preset > SMPROF_JOB_PAGE_PRESET_NONE && preset <= SMPROF_JOB_PAGE_PRESET_BETWEEN_MODES);

  self->preset = preset;
  clear_query (self);
  _smprof_job_page_selection_for_preset (self, preset, &self->selection);
  _smprof_job_page_sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
}

/**
 * smprof_job_page_set_step_range:
 * @self: a job page
 * @first_step: the first train step
 * @last_step: the last train step, included
 *
 * Selects train steps @first_step to @last_step (the Steps preset).
 */
void
smprof_job_page_set_step_range (SmprofJobPage *self,
                                gint64         first_step,
                                gint64         last_step)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (first_step <= last_step);

  self->first_step = first_step;
  self->last_step = last_step;

  self->syncing = TRUE;
  gtk_adjustment_set_value (self->first_step_adjustment, first_step);
  gtk_adjustment_set_value (self->last_step_adjustment, last_step);
  self->syncing = FALSE;

  smprof_job_page_set_preset (self, SMPROF_JOB_PAGE_PRESET_STEPS);
}

/**
 * smprof_job_page_get_selection:
 * @self: a job page
 *
 * The query behind the current selection. For the Forward passes and Rest of
 * step presets it is the training loop, which the page then splits; after
 * smprof_job_page_select_records() or a click on the timeline it is
 * meaningless. Use smprof_job_page_get_selected_records() for the exact
 * intervals.
 *
 * Returns: (transfer none): the query
 */
const SmprofSelection *
smprof_job_page_get_selection (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return &self->selection;
}

/**
 * smprof_job_page_set_selection:
 * @self: a job page
 * @selection: a query, such as a %SMPROF_SELECT_OVERLAP time range
 *
 * Selects the intervals of the chosen nodes that @selection matches, and
 * outlines them on the timeline; the presets list shows no preset.
 */
void
smprof_job_page_set_selection (SmprofJobPage         *self,
                               const SmprofSelection *selection)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (selection != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  clear_query (self);
  self->selection = *selection;
  self->has_query = TRUE;
  _smprof_job_page_sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
}

/**
 * smprof_job_page_select_records:
 * @self: a job page
 * @records: (element-type SmprofRecord): records of the page's job and
 *   profiler, in record order
 *
 * Aggregates exactly @records, whatever the node choice, and outlines them
 * on the timeline.
 */
void
smprof_job_page_select_records (SmprofJobPage *self,
                                GPtrArray     *records)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));
  g_return_if_fail (records != NULL);

  self->preset = SMPROF_JOB_PAGE_PRESET_NONE;
  clear_query (self);
  self->explicit_records = g_ptr_array_copy (records, NULL, NULL);
  _smprof_job_page_sync_preset_row (self);
  sync_timeline (self);
  queue_update (self);
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
  update_header (self);
  update_node_model (self);
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
  sync_timeline (self);
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
    queue_update (self);

  /* The viewer's document follows (its summary and problems). */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB]);
}
