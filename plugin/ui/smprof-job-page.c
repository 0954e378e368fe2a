/* smprof-job-page.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-job-page-private.h"
#include "smprof-timeline-overview.h"
#include "smprof-ui.h"

/* The page of one job: a header (name, nodes, profiler, Export), presets on
 * the left, the timeline with its toolbar, a status line, and the Functions /
 * Call tree / Flame graph / Node matrix views.
 *
 * The page shows an SmprofSession (plugin/session/): the session holds the
 * job, the selection and every answer, and computes them on workers; the
 * page's widgets follow its properties and signals, and what the user does
 * on them becomes a call on the session. Each part of the page has its own
 * file: the header (-header.c), the presets (-presets.c, -modes.c), the
 * timeline's mirror of the selection (-selection.c), the status line
 * (-status.c), the views (-views.c), the transforms of their call tree
 * and its breadcrumb (-transforms.c), the outlier steps (-outliers.c), the
 * node matrix (-nodes.c), the comparison (-compare.c), live refresh
 * (-refresh.c), exports (-export.c, -report.c) and the actions (-actions.c).
 *
 * This file holds the GObject, its template and construction, and the
 * public API, which calls the session. */

G_DEFINE_FINAL_TYPE (SmprofJobPage, smprof_job_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_JOB,
  PROP_SESSION,
  PROP_PROFILE,
  PROP_BUSY,
  PROP_HIDE_LIBRARIES,
  N_PROPS
};

enum {
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Following the session                                                    */

/* A wait shorter than this shows no spinner: an answer from the range
 * index comes in milliseconds, and a spinner shown for a frame or two reads
 * as flicker. Its first frame also loads its icon, an SVG, and with it the
 * SVG loader, about 6 ms that fell into the frame that first showed a page
 * (at 256 nodes, the longest of the opening). */
#define BUSY_SPINNER_DELAY_MS 300

static gboolean
show_busy_spinner_cb (gpointer user_data)
{
  SmprofJobPage *self = user_data;

  self->busy_spinner_delay = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), TRUE);
  gtk_spinner_set_spinning (self->busy_spinner, TRUE);

  return G_SOURCE_REMOVE;
}

static void
session_busy_cb (SmprofJobPage *self)
{
  gboolean busy = smprof_session_get_busy (self->session);

  if (!busy)
    {
      g_clear_handle_id (&self->busy_spinner_delay, g_source_remove);
      gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), FALSE);
      gtk_spinner_set_spinning (self->busy_spinner, FALSE);
    }
  else if (self->busy_spinner_delay == 0 && !gtk_widget_get_visible (GTK_WIDGET (self->busy_spinner)))
    {
      self->busy_spinner_delay = g_timeout_add (BUSY_SPINNER_DELAY_MS, show_busy_spinner_cb, self);
      g_source_set_name_by_id (self->busy_spinner_delay, "[smprof] busy spinner");
    }
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->views_stack), GTK_ACCESSIBLE_STATE_BUSY, busy, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
session_profile_cb (SmprofJobPage *self)
{
  _smprof_job_page_update_export_actions (self);
  _smprof_job_page_sync_visible_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

static void
session_job_cb (SmprofJobPage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB]);
}

static void
session_selection_changed_cb (SmprofJobPage *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
session_error_cb (SmprofJobPage *self,
                  const char    *message)
{
  _smprof_job_page_show_error (self, message);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
smprof_job_page_constructed (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->constructed (object);

  g_assert (SMPROF_IS_SESSION (self->session));

  g_signal_connect_object (self->session, "notify::busy", G_CALLBACK (session_busy_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::profile", G_CALLBACK (session_profile_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::view-profile", G_CALLBACK (_smprof_job_page_sync_visible_view),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::job", G_CALLBACK (session_job_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "selection-changed", G_CALLBACK (session_selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "error", G_CALLBACK (session_error_cb), self, G_CONNECT_SWAPPED);

  /* Each part follows the session from here, and shows it as it is now. */
  _smprof_job_page_header_init (self);
  _smprof_job_page_presets_init (self);
  _smprof_job_page_modes_init (self);
  _smprof_job_page_selection_init (self);
  _smprof_job_page_status_init (self);
  _smprof_job_page_views_init (self);
  _smprof_job_page_transforms_init (self);
  _smprof_job_page_outliers_init (self);
  _smprof_job_page_nodes_init (self);
  _smprof_job_page_compare_init (self);
  _smprof_job_page_export_init (self);
  _smprof_job_page_refresh_init (self);
  _smprof_job_page_layout_init (self);

  session_busy_cb (self);
}

static void
smprof_job_page_dispose (GObject *object)
{
  SmprofJobPage *self = SMPROF_JOB_PAGE (object);
  GtkWidget *child;

  /* The session's workers hold it until they end: stop them now. */
  if (self->session != NULL)
    smprof_session_cancel (self->session);
  g_clear_handle_id (&self->busy_spinner_delay, g_source_remove);

  _smprof_job_page_export_dispose (self);
  _smprof_job_page_refresh_dispose (self);
  _smprof_job_page_compare_dispose (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_JOB_PAGE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  _smprof_job_page_header_dispose (self);
  _smprof_job_page_modes_dispose (self);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (smprof_job_page_parent_class)->dispose (object);
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
      g_value_set_object (value, smprof_job_page_get_job (self));
      break;

    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    case PROP_PROFILE:
      g_value_set_object (value, smprof_job_page_get_profile (self));
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, smprof_job_page_get_busy (self));
      break;

    case PROP_HIDE_LIBRARIES:
      g_value_set_boolean (value, smprof_session_get_hide_libraries (self->session));
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
      if (g_value_get_object (value) != NULL)
        {
          g_assert (self->session == NULL);
          self->session = smprof_session_new (g_value_get_object (value));
        }
      break;

    case PROP_SESSION:
      if (g_value_get_object (value) != NULL)
        {
          g_assert (self->session == NULL);
          self->session = g_value_dup_object (value);
        }
      break;

    case PROP_HIDE_LIBRARIES:
      /* the session's transforms-changed notifies */
      smprof_session_set_hide_libraries (self->session, g_value_get_boolean (value));
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
  object_class->get_property = smprof_job_page_get_property;
  object_class->set_property = smprof_job_page_set_property;

  /**
   * SmprofJobPage:job:
   *
   * The job, indexed (smprof_job_load() done); a live refresh replaces it.
   * Setting it at construction makes the page's session.
   */
  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL,
                         SMPROF_TYPE_JOB,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofJobPage:session:
   *
   * What the page shows: the job, the selection and the answers.
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         SMPROF_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofJobPage:profile:
   *
   * The session's aggregate of the selection, or %NULL while nothing is
   * selected. Notified once the visible view shows it.
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

  /**
   * SmprofJobPage:hide-libraries:
   *
   * Whether the views fold library frames into their user-code callers:
   * the session's transform that does it, pushed or taken out
   * (smprof_session_set_hide_libraries()).
   */
  properties[PROP_HIDE_LIBRARIES] =
    g_param_spec_boolean ("hide-libraries", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

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
  g_type_ensure (SMPROF_TYPE_TIMELINE_OVERVIEW);
  g_type_ensure (SMPROF_TYPE_NODE_CHOOSER);
  g_type_ensure (SMPROF_TYPE_FUNCTION_TABLE);
  g_type_ensure (SMPROF_TYPE_CALL_TREE_VIEW);
  g_type_ensure (SMPROF_TYPE_FLAME_GRAPH_VIEW);
  g_type_ensure (SMPROF_TYPE_NODE_MATRIX_VIEW);
  g_type_ensure (SMPROF_TYPE_OUTLIER_LIST);

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
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, presets_list);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, whole_job_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, initialization_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, training_loop_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, finalization_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, forward_passes_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, rest_of_step_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, steps_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, mode_pair_row);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, start_mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, end_mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, first_step_spin);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, last_step_spin);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, first_step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, last_step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, sidebar_paned);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline_paned);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline_toolbar);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline_overview);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, timeline);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, outliers_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, outliers_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, outliers_ranking_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, outliers_popover);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, outlier_list);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, hide_libraries_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, transforms_bar);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, crumbs_box);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, undo_transform_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, views_stack);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, functions_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, call_tree_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, flame_graph_slot);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, function_table);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, flame_graph_view);
  gtk_widget_class_bind_template_child (widget_class, SmprofJobPage, node_matrix_view);

  _smprof_job_page_class_presets_init (widget_class);
  _smprof_job_page_class_header_init (widget_class);
  _smprof_job_page_class_selection_init (widget_class);
  _smprof_job_page_class_actions_init (widget_class);
  _smprof_job_page_class_export_init (widget_class);
  _smprof_job_page_class_modes_init (widget_class);
  _smprof_job_page_class_compare_init (widget_class);
  _smprof_job_page_class_outliers_init (widget_class);
  _smprof_job_page_class_nodes_init (widget_class);
  _smprof_job_page_class_transforms_init (widget_class);
}

static void
smprof_job_page_init (SmprofJobPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------------ */
/* Public API: the session's, for a page                                    */

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
 * smprof_job_page_get_session:
 * @self: a job page
 *
 * Returns: (transfer none): what the page shows
 */
SmprofSession *
smprof_job_page_get_session (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return self->session;
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

  return smprof_session_get_job (self->session);
}

SmprofProfiler
smprof_job_page_get_profiler (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_PROFILER_CPROFILE);

  return smprof_session_get_profiler (self->session);
}

/**
 * smprof_job_page_set_profiler:
 * @self: a job page
 * @profiler: the profiler whose records to show
 *
 * See smprof_session_set_profiler().
 */
void
smprof_job_page_set_profiler (SmprofJobPage  *self,
                              SmprofProfiler  profiler)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  smprof_session_set_profiler (self->session, profiler);
}

/**
 * smprof_job_page_get_node_ids:
 * @self: a job page
 *
 * Returns: (transfer none): the nodes the selection covers, in natural order
 */
const char * const *
smprof_job_page_get_node_ids (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return smprof_session_get_node_ids (self->session);
}

/**
 * smprof_job_page_set_node_ids:
 * @self: a job page
 * @node_ids: (nullable): the nodes to aggregate; %NULL for all
 *
 * The timeline shows those nodes only; see smprof_session_set_node_ids().
 */
void
smprof_job_page_set_node_ids (SmprofJobPage      *self,
                              const char * const *node_ids)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  smprof_session_set_node_ids (self->session, node_ids);
}

SmprofPreset
smprof_job_page_get_preset (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), SMPROF_PRESET_NONE);

  return smprof_session_get_preset (self->session);
}

/**
 * smprof_job_page_set_preset:
 * @self: a job page
 * @preset: a preset, not %SMPROF_PRESET_NONE
 *
 * Selects the intervals of @preset on the chosen nodes, outlines them on the
 * timeline (the whole job is no outline) and zooms to them.
 */
void
smprof_job_page_set_preset (SmprofJobPage *self,
                            SmprofPreset   preset)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  smprof_session_set_preset (self->session, preset);
}

/**
 * smprof_job_page_set_step_range:
 * @self: a job page
 * @first_step: the first step
 * @last_step: the last step, included
 *
 * Selects steps @first_step to @last_step (the Steps preset).
 */
void
smprof_job_page_set_step_range (SmprofJobPage *self,
                                gint64         first_step,
                                gint64         last_step)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  smprof_session_set_step_range (self->session, first_step, last_step);
}

void
smprof_job_page_set_mode_pair (SmprofJobPage *self,
                               SmprofMode     start_mode,
                               SmprofMode     end_mode)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  smprof_session_set_mode_pair (self->session, start_mode, end_mode);
}

/**
 * smprof_job_page_get_selection:
 * @self: a job page
 *
 * Returns: (transfer none): the query behind the selection; see
 *   smprof_session_get_selection()
 */
const SmprofSelection *
smprof_job_page_get_selection (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return smprof_session_get_selection (self->session);
}

void
smprof_job_page_set_selection (SmprofJobPage         *self,
                               const SmprofSelection *selection)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  smprof_session_set_selection (self->session, selection);
}

void
smprof_job_page_select_records (SmprofJobPage *self,
                                GPtrArray     *records)
{
  g_return_if_fail (SMPROF_IS_JOB_PAGE (self));

  smprof_session_select_records (self->session, records);
}

/**
 * smprof_job_page_get_selected_records:
 * @self: a job page
 *
 * Returns: (transfer none) (nullable) (element-type SmprofRecord): the
 *   intervals #SmprofJobPage:profile aggregates, unreadable ones included,
 *   in record order; %NULL before the first answer
 */
GPtrArray *
smprof_job_page_get_selected_records (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return smprof_session_get_selected_records (self->session);
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

  return smprof_session_get_profile (self->session);
}

/**
 * smprof_job_page_dup_selection_description:
 * @self: a job page
 *
 * Returns: (transfer full) (nullable): what #SmprofJobPage:profile
 *   aggregates, in words (smprof_session_get_description())
 */
char *
smprof_job_page_dup_selection_description (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), NULL);

  return g_strdup (smprof_session_get_description (self->session));
}

gboolean
smprof_job_page_get_busy (SmprofJobPage *self)
{
  g_return_val_if_fail (SMPROF_IS_JOB_PAGE (self), FALSE);

  return smprof_session_get_busy (self->session);
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
