/* smprof-timeline.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-core-enums.h"
#include "smprof-timeline-private.h"

/* The widget's class: its properties and signals, the job and the layout it
 * shows, and the one place the committed selection changes (it notifies and
 * emits). Geometry, the view, selecting, drawing and input are in the
 * smprof-timeline-*.c files next to it (see smprof-timeline-private.h). */

/**
 * SmprofTimeline:
 *
 * One row per node, each interval a block coloured by mode, phase boundaries
 * as ticks, on a shared time axis (or aligned by step). Zoom and pan, hover
 * details, and a selection (a dragged range, clicked intervals, or a preset
 * query) that the job page aggregates.
 *
 * Performance: the layout (SmprofTimelineLayout) is computed once per job;
 * blocks are recorded into a cached render node that covers three screen
 * widths at the current zoom, so panning replays it; intervals narrower than a
 * pixel are merged into one-pixel columns found by binary search, so the work
 * per redraw is bounded by the pixels, not by the intervals. Hover and
 * tooltips are binary searches.
 */

enum {
  PROP_0,
  PROP_JOB,
  PROP_PROFILER,
  PROP_VISIBLE_NODES,
  PROP_ALIGN_BY_STEP,
  PROP_SELECTION,
  PROP_NATURAL_HEIGHT,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  SELECTION_CHANGED,
  VIEW_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (SmprofTimeline, smprof_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

void
_smprof_timeline_invalidate_blocks (SmprofTimeline *self)
{
  self->blocks_generation++;
  self->overlay_generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_smprof_timeline_invalidate_overlay (SmprofTimeline *self)
{
  self->overlay_generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The selection --------------------------------------------------------------- */

static void
rebuild_selected_flags (SmprofTimeline *self)
{
  const SmprofTimelineItem *items;
  GPtrArray *records;

  g_clear_pointer (&self->selected, g_free);
  for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
    {
      self->has_selection_extent[a] = FALSE;
      self->selection_extent[a][0] = INFINITY;
      self->selection_extent[a][1] = -INFINITY;
    }

  if (self->selection == NULL || self->layout == NULL)
    return;

  items = smprof_timeline_layout_get_items (self->layout);
  self->selected = g_malloc0 (MAX (1, smprof_timeline_layout_get_n_items (self->layout)));
  records = smprof_timeline_selection_get_records (self->selection);

  for (guint i = 0; i < records->len; i++)
    {
      const SmprofTimelineItem *item = smprof_timeline_layout_lookup_record (self->layout,
                                                                             g_ptr_array_index (records, i));

      if (item == NULL)
        continue;

      self->selected[item - items] = 1;
      for (guint a = 0; a < SMPROF_TIMELINE_N_AXES; a++)
        {
          self->has_selection_extent[a] = TRUE;
          self->selection_extent[a][0] = MIN (self->selection_extent[a][0], item->start[a]);
          self->selection_extent[a][1] = MAX (self->selection_extent[a][1], item->end[a]);
        }
    }
}

/* Takes @selection. */
void
_smprof_timeline_set_selection_internal (SmprofTimeline          *self,
                                         SmprofTimelineSelection *selection,
                                         gboolean                 follows_nodes)
{
  self->selection_follows_nodes = follows_nodes;

  if (smprof_timeline_selection_equal (self->selection, selection))
    {
      g_clear_pointer (&selection, smprof_timeline_selection_unref);
      return;
    }

  g_clear_pointer (&self->selection, smprof_timeline_selection_unref);
  self->selection = selection;
  rebuild_selected_flags (self);
  _smprof_timeline_invalidate_overlay (self);
  _smprof_timeline_update_action_states (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/* The job ------------------------------------------------------------------------ */

/* Shows @layout (the tests give synthetic ones); the selection is cleared. */
void
_smprof_timeline_set_layout (SmprofTimeline       *self,
                             SmprofTimelineLayout *layout)
{
  gboolean had_selection = self->selection != NULL;

  self->hover_item = NULL;
  self->focus_item = NULL;
  self->anchor_item = NULL;
  self->dragging = self->drag_pending = FALSE;
  g_clear_pointer (&self->selection, smprof_timeline_selection_unref);
  g_clear_pointer (&self->selected, g_free);
  g_set_object (&self->layout, layout);
  if (self->steps != NULL && (layout == NULL || smprof_timeline_steps_get_layout (self->steps) != layout))
    g_clear_pointer (&self->steps, smprof_timeline_steps_free);

  _smprof_timeline_rebuild_rows (self);
  self->vscroll = 0;
  _smprof_timeline_reset_view (self);
  _smprof_timeline_update_action_states (self);

  if (had_selection)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
}

static void
rebuild_layout (SmprofTimeline *self)
{
  g_autoptr(SmprofTimelineLayout) layout = NULL;

  if (self->job != NULL)
    layout = smprof_timeline_layout_dup_for_job (self->job, self->profiler);

  g_clear_pointer (&self->steps, smprof_timeline_steps_free);
  if (layout != NULL)
    self->steps = smprof_timeline_steps_new (layout, self->job);

  _smprof_timeline_set_layout (self, layout);
}

static void
smprof_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);
  int chrome = SMPROF_TIMELINE_RULER_HEIGHT + SMPROF_TIMELINE_LEGEND_HEIGHT;
  int one_row = 2 + SMPROF_TIMELINE_MIN_LANE_HEIGHT;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 800;
    }
  else
    {
      /* Naturally every row at its comfortable size; rows shrink to fit less. */
      *minimum = chrome + one_row;
      *natural = chrome + MAX (one_row, (int) ceil (self->natural_height));
    }
}

static void
smprof_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  SmprofTimeline *self = SMPROF_TIMELINE (widget);

  /* Rows take the height they are given. */
  _smprof_timeline_fit_rows (self);
  _smprof_timeline_set_vscroll (self, self->vscroll);
  _smprof_timeline_update_adjustments (self);
  _smprof_timeline_outliers_size_allocate (self);
}

/* GObject ----------------------------------------------------------------------- */

static void
smprof_timeline_dispose (GObject *object)
{
  SmprofTimeline *self = (SmprofTimeline *) object;

  _smprof_timeline_rasters_dispose (self);
  _smprof_timeline_cache_clear (&self->blocks);
  _smprof_timeline_cache_clear (&self->overlay);
  _smprof_timeline_outliers_dispose (self);
  _smprof_timeline_compare_dispose (self);
  g_clear_object (&self->text);
  g_clear_object (&self->small_text);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, _smprof_timeline_hadjustment_value_changed_cb, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, _smprof_timeline_vadjustment_value_changed_cb, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->selection, smprof_timeline_selection_unref);
  g_clear_pointer (&self->selected, g_free);
  self->hover_item = self->focus_item = self->anchor_item = NULL;
  g_clear_pointer (&self->steps, smprof_timeline_steps_free);
  g_clear_object (&self->layout);
  g_clear_object (&self->job);

  G_OBJECT_CLASS (smprof_timeline_parent_class)->dispose (object);
}

static void
smprof_timeline_finalize (GObject *object)
{
  SmprofTimeline *self = (SmprofTimeline *) object;

  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->row_of_node, g_array_unref);
  g_clear_pointer (&self->visible_nodes, g_strfreev);

  G_OBJECT_CLASS (smprof_timeline_parent_class)->finalize (object);
}

static void
smprof_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SmprofTimeline *self = SMPROF_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      g_value_set_object (value, self->job);
      break;

    case PROP_PROFILER:
      g_value_set_enum (value, self->profiler);
      break;

    case PROP_VISIBLE_NODES:
      g_value_set_boxed (value, self->visible_nodes);
      break;

    case PROP_ALIGN_BY_STEP:
      g_value_set_boolean (value, self->align_by_step);
      break;

    case PROP_SELECTION:
      g_value_set_boxed (value, self->selection);
      break;

    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;

    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;

    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;

    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SmprofTimeline *self = SMPROF_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      smprof_timeline_set_job (self, g_value_get_object (value));
      break;

    case PROP_PROFILER:
      smprof_timeline_set_profiler (self, g_value_get_enum (value));
      break;

    case PROP_VISIBLE_NODES:
      smprof_timeline_set_visible_nodes (self, g_value_get_boxed (value));
      break;

    case PROP_ALIGN_BY_STEP:
      smprof_timeline_set_align_by_step (self, g_value_get_boolean (value));
      break;

    case PROP_HADJUSTMENT:
      _smprof_timeline_set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                                       G_CALLBACK (_smprof_timeline_hadjustment_value_changed_cb), pspec);
      break;

    case PROP_VADJUSTMENT:
      _smprof_timeline_set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                                       G_CALLBACK (_smprof_timeline_vadjustment_value_changed_cb), pspec);
      break;

    case PROP_HSCROLL_POLICY:
      if (self->hscroll_policy != (guint) g_value_get_enum (value))
        {
          self->hscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_VSCROLL_POLICY:
      if (self->vscroll_policy != (guint) g_value_get_enum (value))
        {
          self->vscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_timeline_class_init (SmprofTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_timeline_dispose;
  object_class->finalize = smprof_timeline_finalize;
  object_class->get_property = smprof_timeline_get_property;
  object_class->set_property = smprof_timeline_set_property;

  widget_class->snapshot = _smprof_timeline_snapshot;
  widget_class->measure = smprof_timeline_measure;
  widget_class->size_allocate = smprof_timeline_size_allocate;
  widget_class->query_tooltip = _smprof_timeline_query_tooltip;

  /**
   * SmprofTimeline:job: (nullable)
   *
   * The job whose intervals are shown.
   */
  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL,
                         SMPROF_TYPE_JOB,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:profiler:
   *
   * Which profiler's intervals are shown.
   */
  properties[PROP_PROFILER] =
    g_param_spec_enum ("profiler", NULL, NULL,
                       SMPROF_TYPE_PROFILER, SMPROF_PROFILER_CPROFILE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:visible-nodes: (nullable)
   *
   * The node ids to show, one row each, in the job's node order; %NULL shows
   * every node. Selections made on "the shown nodes" (drags, and
   * smprof_timeline_set_selection() with %NULL node ids) follow changes.
   */
  properties[PROP_VISIBLE_NODES] =
    g_param_spec_boxed ("visible-nodes", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:align-by-step:
   *
   * Place intervals by step instead of by wall clock (see SmprofTimelineAxis).
   */
  properties[PROP_ALIGN_BY_STEP] =
    g_param_spec_boolean ("align-by-step", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SmprofTimeline:selection: (nullable)
   *
   * What is selected: a SmprofTimelineSelection, or %NULL.
   */
  /**
   * SmprofTimeline:natural-height:
   *
   * The height every shown row takes at its comfortable size, ruler and
   * legend included: what the timeline would like to get (it fits its rows
   * into less).
   */
  properties[PROP_NATURAL_HEIGHT] =
    g_param_spec_double ("natural-height", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  properties[PROP_SELECTION] =
    g_param_spec_boxed ("selection", NULL, NULL,
                        SMPROF_TYPE_TIMELINE_SELECTION,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * SmprofTimeline::selection-changed:
   *
   * The selection changed (by the user or by a call): read
   * SmprofTimeline:selection.
   */
  /**
   * SmprofTimeline::view-changed:
   *
   * The part of the axis shown changed (a zoom, a scroll, a fit).
   */
  signals[VIEW_CHANGED] =
    g_signal_new ("view-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);

  _smprof_timeline_class_input_init (widget_class);
  _smprof_timeline_class_outliers_init (object_class);
}

static void
smprof_timeline_init (SmprofTimeline *self)
{
  PangoAttrList *attrs;

  self->rows = g_array_new (FALSE, FALSE, sizeof (SmprofTimelineRow));
  self->row_of_node = g_array_new (FALSE, FALSE, sizeof (int));
  self->view_span = 1;
  self->view_fit = TRUE;
  self->tile_columns = 4;   /* half a screen each: smprof-timeline-draw.c */
  self->raster_tiles = TRUE;
  self->label_width = 72;
  self->fg = (GdkRGBA) { 0, 0, 0, 1 };

  self->text = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_ellipsize (self->text, PANGO_ELLIPSIZE_MIDDLE);
  self->small_text = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_ellipsize (self->small_text, PANGO_ELLIPSIZE_MIDDLE);
  attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_scale_new (0.82));
  pango_layout_set_attributes (self->small_text, attrs);
  pango_attr_list_unref (attrs);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_add_css_class (GTK_WIDGET (self), "view");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline of the profiled intervals"),
                                  -1);

  _smprof_timeline_set_adjustment (self, &self->hadjustment, NULL, G_CALLBACK (_smprof_timeline_hadjustment_value_changed_cb), NULL);
  _smprof_timeline_set_adjustment (self, &self->vadjustment, NULL, G_CALLBACK (_smprof_timeline_vadjustment_value_changed_cb), NULL);

  _smprof_timeline_input_init (self);
  _smprof_timeline_update_action_states (self);
}

/* Public API ------------------------------------------------------------------------ */

GtkWidget *
smprof_timeline_new (void)
{
  return g_object_new (SMPROF_TYPE_TIMELINE, NULL);
}

/**
 * smprof_timeline_get_job:
 *
 * Returns: (transfer none) (nullable): the job shown
 */
SmprofJob *
smprof_timeline_get_job (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->job;
}

/**
 * smprof_timeline_set_job:
 * @job: (nullable): a loaded job
 *
 * Shows @job's intervals for SmprofTimeline:profiler, zoomed to fit. The
 * selection is cleared.
 */
void
smprof_timeline_set_job (SmprofTimeline *self,
                         SmprofJob      *job)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (!job || SMPROF_IS_JOB (job));

  if (g_set_object (&self->job, job))
    {
      rebuild_layout (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB]);
    }
}

SmprofProfiler
smprof_timeline_get_profiler (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), SMPROF_PROFILER_CPROFILE);

  return self->profiler;
}

void
smprof_timeline_set_profiler (SmprofTimeline *self,
                              SmprofProfiler  profiler)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));
  g_return_if_fail (profiler < SMPROF_N_PROFILERS);

  if (self->profiler != profiler)
    {
      self->profiler = profiler;
      rebuild_layout (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILER]);
    }
}

/**
 * smprof_timeline_get_visible_nodes:
 *
 * Returns: (transfer none) (nullable): the node ids shown, %NULL for all
 */
const char * const *
smprof_timeline_get_visible_nodes (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return (const char * const *) self->visible_nodes;
}

/**
 * smprof_timeline_set_visible_nodes:
 * @node_ids: (nullable) (array zero-terminated=1): the node ids to show, %NULL for all
 */
void
smprof_timeline_set_visible_nodes (SmprofTimeline     *self,
                                   const char * const *node_ids)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  if (self->visible_nodes == NULL && node_ids == NULL)
    return;
  if (self->visible_nodes != NULL && node_ids != NULL &&
      g_strv_equal ((const char * const *) self->visible_nodes, node_ids))
    return;

  g_strfreev (self->visible_nodes);
  self->visible_nodes = g_strdupv ((char **) node_ids);

  _smprof_timeline_rebuild_rows (self);
  self->vscroll = 0;
  _smprof_timeline_refit_view (self);
  _smprof_timeline_refresh_selection_for_nodes (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_NODES]);
}

gboolean
smprof_timeline_get_align_by_step (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), FALSE);

  return self->align_by_step;
}

void
smprof_timeline_set_align_by_step (SmprofTimeline *self,
                                   gboolean        align_by_step)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  align_by_step = !!align_by_step;
  if (self->align_by_step == align_by_step)
    return;

  self->align_by_step = align_by_step;
  self->dragging = self->drag_pending = FALSE;
  self->hover_item = NULL;
  _smprof_timeline_invalidate_blocks (self);
  if (self->view_training)
    smprof_timeline_frame_training_loop (self);
  else
    _smprof_timeline_reset_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALIGN_BY_STEP]);
}

/**
 * smprof_timeline_get_layout:
 *
 * Returns: (transfer none) (nullable): where every interval is drawn
 */
SmprofTimelineLayout *
smprof_timeline_get_layout (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), NULL);

  return self->layout;
}

/**
 * smprof_timeline_get_natural_height:
 * @self: a timeline
 *
 * Returns: #SmprofTimeline:natural-height
 */
double
smprof_timeline_get_natural_height (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), 0);

  return self->natural_height + SMPROF_TIMELINE_RULER_HEIGHT + _smprof_timeline_legend_height (self);
}

void
_smprof_timeline_natural_height_changed (SmprofTimeline *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NATURAL_HEIGHT]);
}

void
_smprof_timeline_view_changed (SmprofTimeline *self)
{
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}
