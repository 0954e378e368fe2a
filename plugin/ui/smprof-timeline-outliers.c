/* smprof-timeline-outliers.c: outlier steps marked on the timeline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-outliers.h"
#include "smprof-timeline-private.h"

/* Each outlier step of a SmprofStepStats (smprof_step_outlier_rule_description())
 * gets a warning badge above its intervals and a red outline around each of
 * them, drawn over the cached blocks on every frame: there are few outliers,
 * and they must stay visible at any zoom, however thin their blocks get.
 * Clicking a badge, the "Compare with Median Step" button of a marked
 * interval's context popover (secondary click) or
 * smprof_timeline_activate_next_outlier() emits
 * SmprofTimeline::outlier-activated with the step's index in the stats; the
 * job page opens "this step versus the node's median step" from it.
 *
 * The timeline copies what it shows from the stats (they are not reference
 * counted) and keeps their job alive, since the step records belong to it.
 * It finds the records' blocks again whenever its layout changes; records of
 * another job (the stats of the job before a live refresh) have none, so
 * nothing is marked until the page gives the new job's stats. */

#define BADGE_WIDTH   14
#define BADGE_HEIGHT  10
#define BADGE_RAISE   6    /* how far the badge's top sits above the block's top */
#define BADGE_SLOP    3    /* extra pixels around a badge that still hit it */

typedef struct
{
  guint       index;         /* in the stats */
  char       *node_id;
  SmprofMode  mode;
  gint64      step;
  double      total_time;
  double      median_time;
  double      score;
  GPtrArray  *records;       /* SmprofRecord, owned by the job */
  GPtrArray  *items;         /* SmprofTimelineItem of the records in the layout */
} Outlier;

struct _SmprofTimelineOutliers
{
  SmprofJob            *job;
  GArray               *outliers;       /* Outlier */
  SmprofTimelineLayout *layout;         /* the layout @items and @by_item belong to */
  GHashTable           *by_item;        /* SmprofTimelineItem → outlier index + 1 */
  gboolean              show;
  int                   current;        /* the last one activated; -1: none */

  GtkWidget            *popover;
  int                   popover_outlier;
};

static guint outlier_activated_signal;

static void
outlier_clear (gpointer data)
{
  Outlier *outlier = data;

  g_free (outlier->node_id);
  g_clear_pointer (&outlier->records, g_ptr_array_unref);
  g_clear_pointer (&outlier->items, g_ptr_array_unref);
}

static SmprofTimelineOutliers *
ensure_outliers (SmprofTimeline *self);

/* ------------------------------------------------------------------------ */
/* Finding the blocks                                                       */

static void
resolve (SmprofTimeline *self)
{
  SmprofTimelineOutliers *o = self->outliers;

  if (o == NULL || o->layout == self->layout)
    return;

  g_set_object (&o->layout, self->layout);
  g_hash_table_remove_all (o->by_item);

  for (guint i = 0; i < o->outliers->len; i++)
    {
      Outlier *outlier = &g_array_index (o->outliers, Outlier, i);

      g_ptr_array_set_size (outlier->items, 0);
      if (o->layout == NULL)
        continue;

      for (guint r = 0; r < outlier->records->len; r++)
        {
          const SmprofTimelineItem *item;

          item = smprof_timeline_layout_lookup_record (o->layout, g_ptr_array_index (outlier->records, r));
          if (item == NULL)
            continue;
          g_ptr_array_add (outlier->items, (gpointer) item);
          g_hash_table_insert (o->by_item, (gpointer) item, GUINT_TO_POINTER (i + 1));
        }
    }
}

static gboolean
showing (SmprofTimeline *self)
{
  if (self->outliers == NULL || !self->outliers->show || self->layout == NULL)
    return FALSE;

  resolve (self);

  return self->outliers->outliers->len > 0;
}

/* The union of the outlier's blocks on its row, widget coordinates. */
static gboolean
get_union_rect (SmprofTimeline  *self,
                const Outlier   *outlier,
                graphene_rect_t *rect)
{
  gboolean found = FALSE;

  for (guint i = 0; i < outlier->items->len; i++)
    {
      graphene_rect_t block;

      if (!_smprof_timeline_get_block_rect (self, g_ptr_array_index (outlier->items, i), &block))
        continue;
      if (found)
        graphene_rect_union (rect, &block, rect);
      else
        *rect = block;
      found = TRUE;
    }

  return found;
}

/* Where the outlier's badge is, in widget coordinates: above the middle of
 * the part of its blocks on screen. FALSE when it is not on screen. */
static gboolean
get_badge_rect (SmprofTimeline  *self,
                const Outlier   *outlier,
                graphene_rect_t *badge)
{
  SmprofTimelineViewport vp;
  graphene_rect_t rect;
  double x0, x1, cx;

  if (!get_union_rect (self, outlier, &rect))
    return FALSE;

  _smprof_timeline_get_viewport (self, &vp);
  x0 = MAX (rect.origin.x, vp.x);
  x1 = MIN (rect.origin.x + rect.size.width, vp.x + vp.width);
  if (x1 < x0 - 1)
    return FALSE;

  cx = floor ((x0 + x1) / 2);
  graphene_rect_init (badge, cx - BADGE_WIDTH / 2, floor (rect.origin.y) - BADGE_RAISE, BADGE_WIDTH, BADGE_HEIGHT);

  /* Rows scrolled out of the plot, under the ruler or the legend, show none */
  return badge->origin.y + BADGE_HEIGHT > SMPROF_TIMELINE_RULER_HEIGHT &&
         badge->origin.y < SMPROF_TIMELINE_RULER_HEIGHT + _smprof_timeline_rows_height (self);
}

/**
 * _smprof_timeline_get_outlier_mark_rect:
 * @self: a timeline
 * @outlier: an index below smprof_timeline_get_n_outliers()
 * @rect: (out): the badge, in widget coordinates
 *
 * Returns: whether the outlier's badge is drawn (shown, on a shown node, in view)
 */
gboolean
_smprof_timeline_get_outlier_mark_rect (SmprofTimeline  *self,
                                        guint            outlier,
                                        graphene_rect_t *rect)
{
  if (!showing (self) || outlier >= self->outliers->outliers->len)
    return FALSE;

  return get_badge_rect (self, &g_array_index (self->outliers->outliers, Outlier, outlier), rect);
}

/* The outlier whose badge is under (@x, @y), or -1. */
static int
mark_at (SmprofTimeline *self,
         double          x,
         double          y)
{
  if (!showing (self))
    return -1;

  for (guint i = 0; i < self->outliers->outliers->len; i++)
    {
      graphene_rect_t badge;

      if (!get_badge_rect (self, &g_array_index (self->outliers->outliers, Outlier, i), &badge))
        continue;
      graphene_rect_inset (&badge, -BADGE_SLOP, -BADGE_SLOP);
      if (graphene_rect_contains_point (&badge, &GRAPHENE_POINT_INIT (x, y)))
        return i;
    }

  return -1;
}

/**
 * _smprof_timeline_outlier_of_item:
 * @self: a timeline
 * @item: (nullable): an item of its layout
 *
 * Returns: the outlier @item belongs to, or -1 (also while the marks are hidden)
 */
int
_smprof_timeline_outlier_of_item (SmprofTimeline           *self,
                                  const SmprofTimelineItem *item)
{
  if (item == NULL || !showing (self))
    return -1;

  return GPOINTER_TO_INT (g_hash_table_lookup (self->outliers->by_item, item)) - 1;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */

/**
 * _smprof_timeline_get_outlier_color:
 * @dark: for a dark background
 * @color: (out): the marks' colour, a red unlike every mode's colour
 */
void
_smprof_timeline_get_outlier_color (gboolean  dark,
                                    GdkRGBA  *color)
{
  /* GNOME red 4 on light backgrounds, red 2 on dark ones: the global mode
   * (PyTorch's steps) is orange already, so a warning orange would vanish,
   * and a lighter red would come too close to the dark style's orange. */
  if (dark)
    *color = (GdkRGBA) { 0xed / 255.0, 0x33 / 255.0, 0x3b / 255.0, 1 };
  else
    *color = (GdkRGBA) { 0xc0 / 255.0, 0x1c / 255.0, 0x28 / 255.0, 1 };
}

/* A triangle pointing down, as one-pixel rows (GTK 4.8 has no paths). */
static void
append_triangle (GtkSnapshot   *snapshot,
                 const GdkRGBA *color,
                 double         cx,
                 double         top,
                 double         width,
                 int            height)
{
  for (int k = 0; k < height; k++)
    {
      double w = MAX (1, round (width * (height - k) / height));

      gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (cx - floor (w / 2), top + k, w, 1));
    }
}

/* Called by the snapshot, clipped to the plot, after the selection's outlines. */
void
_smprof_timeline_draw_outliers (SmprofTimeline *self,
                                GtkSnapshot    *snapshot)
{
  GdkRGBA color, edge;
  const float widths[4] = { 2, 2, 2, 2 };
  const float rim_widths[4] = { 1, 1, 1, 1 };
  GdkRGBA colors[4], rims[4];
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  if (!showing (self))
    return;

  _smprof_timeline_get_outlier_color (self->dark, &color);
  /* The badge's rim: the background's tone, so it stands out of the block under it */
  edge = self->dark ? (GdkRGBA) { 0.12, 0.12, 0.12, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
  for (guint i = 0; i < 4; i++)
    {
      colors[i] = color;
      rims[i] = edge;
      rims[i].alpha = 0.8;
    }

  for (guint i = 0; i < self->outliers->outliers->len; i++)
    {
      const Outlier *outlier = &g_array_index (self->outliers->outliers, Outlier, i);
      graphene_rect_t badge;

      for (guint k = 0; k < outlier->items->len; k++)
        {
          graphene_rect_t rect;
          GskRoundedRect outline;
          double x0, x1;

          if (!_smprof_timeline_get_block_rect (self, g_ptr_array_index (outlier->items, k), &rect))
            continue;
          x0 = MAX (rect.origin.x, -4);
          x1 = MIN (rect.origin.x + rect.size.width, width + 4);
          if (x1 < -4 || x0 > width + 4)
            continue;
          /* Inside the block, so the selection's outline (outside) stays
           * apart; a rim of the background's tone inside the red keeps it
           * clear of the block's own colour, in light and dark styles. */
          gsk_rounded_rect_init_from_rect (&outline,
                                           &GRAPHENE_RECT_INIT (x0, rect.origin.y, MAX (x1 - x0, 2), rect.size.height),
                                           0);
          gtk_snapshot_append_border (snapshot, &outline, widths, colors);
          if (x1 - x0 > 6)
            {
              gsk_rounded_rect_init_from_rect (&outline,
                                               &GRAPHENE_RECT_INIT (x0 + 2, rect.origin.y + 2, x1 - x0 - 4,
                                                                    rect.size.height - 4),
                                               0);
              gtk_snapshot_append_border (snapshot, &outline, rim_widths, rims);
            }
        }

      if (get_badge_rect (self, outlier, &badge))
        {
          double cx = badge.origin.x + BADGE_WIDTH / 2;

          append_triangle (snapshot, &edge, cx, badge.origin.y, BADGE_WIDTH, BADGE_HEIGHT);
          append_triangle (snapshot, &color, cx, badge.origin.y + 1, BADGE_WIDTH - 4, BADGE_HEIGHT - 3);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Tooltips                                                                 */

static char *
dup_outlier_markup (const Outlier *outlier)
{
  g_autofree char *line = NULL;

  /* Translators: "Step 12 (Train) on node algo-1: 1.523 s, median 0.251 s,
   * robust score 8.4 — outlier" */
  line = g_strdup_printf (_("Step %lld (%s) on node %s: %.3f s, median %.3f s, robust score %.1f — outlier"),
                          (long long) outlier->step, smprof_timeline_get_mode_label (outlier->mode),
                          outlier->node_id, outlier->total_time, outlier->median_time, outlier->score);

  return g_markup_printf_escaped ("<b>%s</b>\n<small>%s\n%s</small>", line,
                                  smprof_step_outlier_rule_description (),
                                  _("Click the red mark to compare it with the node's median step."));
}

/**
 * _smprof_timeline_dup_outlier_tooltip_markup:
 * @self: a timeline
 * @item: an item of its layout
 *
 * Returns: (transfer full) (nullable): the tooltip of a marked interval: its
 *   step, time, the median's, the score and the rule, then the interval's
 *   usual tooltip; %NULL when @item is not marked
 */
char *
_smprof_timeline_dup_outlier_tooltip_markup (SmprofTimeline           *self,
                                             const SmprofTimelineItem *item)
{
  int index = _smprof_timeline_outlier_of_item (self, item);
  g_autofree char *head = NULL;
  g_autofree char *tail = NULL;

  if (index < 0)
    return NULL;

  head = dup_outlier_markup (&g_array_index (self->outliers->outliers, Outlier, index));
  tail = _smprof_timeline_dup_tooltip_markup (item);

  return g_strconcat (head, "\n\n", tail, NULL);
}

/* For smprof-timeline-tooltip.c: the tooltip of a badge or a marked interval.
 * Returns whether it set one. */
gboolean
_smprof_timeline_outliers_query_tooltip (SmprofTimeline *self,
                                         double          x,
                                         double          y,
                                         gboolean        keyboard_tooltip,
                                         GtkTooltip     *tooltip)
{
  const SmprofTimelineItem *item;
  g_autofree char *markup = NULL;
  graphene_rect_t rect;
  int index;

  if (!showing (self))
    return FALSE;

  item = keyboard_tooltip ? self->focus_item : NULL;
  index = keyboard_tooltip ? -1 : mark_at (self, x, y);

  if (index >= 0)
    {
      const Outlier *outlier = &g_array_index (self->outliers->outliers, Outlier, index);

      markup = dup_outlier_markup (outlier);
      get_badge_rect (self, outlier, &rect);
    }
  else
    {
      if (!keyboard_tooltip)
        item = _smprof_timeline_item_at (self, x, y);
      markup = _smprof_timeline_dup_outlier_tooltip_markup (self, item);
      if (markup == NULL || !_smprof_timeline_get_block_rect (self, item, &rect))
        return FALSE;
    }

  gtk_tooltip_set_markup (tooltip, markup);
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { floor (rect.origin.x), floor (rect.origin.y),
                                                       MAX (1, ceil (rect.size.width)), ceil (rect.size.height) });

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Activation                                                               */

static void
activate (SmprofTimeline *self,
          guint           index)
{
  const Outlier *outlier = &g_array_index (self->outliers->outliers, Outlier, index);

  self->outliers->current = index;
  g_signal_emit (self, outlier_activated_signal, 0, outlier->index);
}

/* For smprof-timeline-input.c: a click (not a drag) at (@x, @y). Returns
 * whether it hit a badge, which then activated its outlier. */
gboolean
_smprof_timeline_outliers_click (SmprofTimeline *self,
                                 double          x,
                                 double          y)
{
  int index = mark_at (self, x, y);

  if (index < 0)
    return FALSE;

  activate (self, index);

  return TRUE;
}

static void
compare_clicked_cb (SmprofTimeline *self,
                    GtkButton      *button)
{
  int index = self->outliers->popover_outlier;

  gtk_popover_popdown (GTK_POPOVER (self->outliers->popover));
  if (index >= 0 && (guint) index < self->outliers->outliers->len)
    activate (self, index);
}

static void
ensure_popover (SmprofTimeline *self)
{
  GtkWidget *button;

  if (self->outliers->popover != NULL)
    return;

  button = gtk_button_new_with_mnemonic (_("_Compare with Median Step"));
  gtk_widget_add_css_class (button, "flat");
  g_signal_connect_object (button, "clicked", G_CALLBACK (compare_clicked_cb), self, G_CONNECT_SWAPPED);

  self->outliers->popover = gtk_popover_new ();
  gtk_widget_set_name (self->outliers->popover, "outlier-popover");
  gtk_popover_set_child (GTK_POPOVER (self->outliers->popover), button);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->outliers->popover), TRUE);
  gtk_widget_set_parent (self->outliers->popover, GTK_WIDGET (self));
}

/**
 * _smprof_timeline_outliers_popup:
 * @self: a timeline
 * @x: widget x
 * @y: widget y
 *
 * The secondary click: on a badge or a marked interval, a popover offering
 * "Compare with Median Step". Returns whether it opened.
 */
gboolean
_smprof_timeline_outliers_popup (SmprofTimeline *self,
                                 double          x,
                                 double          y)
{
  int index = mark_at (self, x, y);

  if (index < 0)
    index = _smprof_timeline_outlier_of_item (self, _smprof_timeline_item_at (self, x, y));
  if (index < 0)
    return FALSE;

  ensure_popover (self);
  self->outliers->popover_outlier = index;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->outliers->popover),
                               &(GdkRectangle) { floor (x), floor (y), 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->outliers->popover));

  return TRUE;
}

static void
secondary_pressed_cb (SmprofTimeline  *self,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkGestureClick *gesture)
{
  if (n_press == 1 && _smprof_timeline_outliers_popup (self, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* For the timeline's size_allocate: a popover must be presented there. */
void
_smprof_timeline_outliers_size_allocate (SmprofTimeline *self)
{
  if (self->outliers != NULL && self->outliers->popover != NULL)
    gtk_popover_present (GTK_POPOVER (self->outliers->popover));
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */

static SmprofTimelineOutliers *
ensure_outliers (SmprofTimeline *self)
{
  GtkGesture *gesture;

  if (self->outliers != NULL)
    return self->outliers;

  self->outliers = g_new0 (SmprofTimelineOutliers, 1);
  self->outliers->outliers = g_array_new (FALSE, TRUE, sizeof (Outlier));
  g_array_set_clear_func (self->outliers->outliers, outlier_clear);
  self->outliers->by_item = g_hash_table_new (NULL, NULL);
  self->outliers->show = TRUE;
  self->outliers->current = -1;
  self->outliers->popover_outlier = -1;

  /* Only timelines that mark outliers take the secondary click. */
  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  return self->outliers;
}

void
_smprof_timeline_outliers_dispose (SmprofTimeline *self)
{
  SmprofTimelineOutliers *o = self->outliers;

  if (o == NULL)
    return;

  g_clear_pointer (&o->popover, gtk_widget_unparent);
  g_clear_pointer (&o->outliers, g_array_unref);
  g_clear_pointer (&o->by_item, g_hash_table_unref);
  g_clear_object (&o->layout);
  g_clear_object (&o->job);
  g_clear_pointer (&self->outliers, g_free);
}

void
_smprof_timeline_class_outliers_init (GObjectClass *klass)
{
  /**
   * SmprofTimeline::outlier-activated:
   * @timeline: the timeline
   * @step: the step's index in the #SmprofStepStats given to
   *   smprof_timeline_set_outliers()
   *
   * An outlier step's mark was clicked, its popover's "Compare with Median
   * Step" pressed, or smprof_timeline_activate_next_outlier() reached it:
   * show the step against its node's median step
   * (smprof_step_stats_get_step()->median_step).
   */
  outlier_activated_signal =
    g_signal_new ("outlier-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */

/**
 * smprof_timeline_set_outliers:
 * @self: a timeline
 * @stats: (nullable): per-step statistics of the timeline's job and
 *   profiler, or %NULL to mark nothing
 *
 * Marks the outlier steps of @stats (#SmprofStep.outlier) on the nodes the
 * timeline shows. The timeline copies what it needs: @stats may be freed
 * afterwards.
 */
void
smprof_timeline_set_outliers (SmprofTimeline  *self,
                              SmprofStepStats *stats)
{
  SmprofTimelineOutliers *o;

  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  o = ensure_outliers (self);
  g_array_set_size (o->outliers, 0);
  g_hash_table_remove_all (o->by_item);
  g_clear_object (&o->layout);
  g_clear_object (&o->job);
  o->current = -1;
  o->popover_outlier = -1;
  if (o->popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (o->popover));

  if (stats != NULL)
    {
      o->job = g_object_ref (smprof_step_stats_get_job (stats));
      for (guint i = 0; i < smprof_step_stats_get_n_steps (stats); i++)
        {
          const SmprofStep *step = smprof_step_stats_get_step (stats, i);
          Outlier outlier = { 0 };

          if (!step->outlier)
            continue;

          outlier.index = i;
          outlier.node_id = g_strdup (step->node_id);
          outlier.mode = step->mode;
          outlier.step = step->step;
          outlier.total_time = step->total_time;
          outlier.median_time = step->median_time;
          outlier.score = step->score;
          outlier.records = g_ptr_array_ref (smprof_step_stats_get_step_records (stats, i));
          outlier.items = g_ptr_array_new ();
          g_array_append_val (o->outliers, outlier);
        }
    }

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
smprof_timeline_get_show_outliers (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), FALSE);

  return self->outliers == NULL || self->outliers->show;
}

/**
 * smprof_timeline_set_show_outliers:
 * @self: a timeline
 * @show: whether to draw the marks
 *
 * Hidden marks neither draw, nor take clicks, nor change tooltips.
 */
void
smprof_timeline_set_show_outliers (SmprofTimeline *self,
                                   gboolean        show)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  show = !!show;
  if (ensure_outliers (self)->show == show)
    return;

  self->outliers->show = show;
  if (!show && self->outliers->popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (self->outliers->popover));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * smprof_timeline_get_n_outliers:
 * @self: a timeline
 *
 * Returns: how many outlier steps smprof_timeline_set_outliers() gave,
 *   on any node
 */
guint
smprof_timeline_get_n_outliers (SmprofTimeline *self)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), 0);

  return self->outliers != NULL ? self->outliers->outliers->len : 0;
}

/**
 * smprof_timeline_get_outlier_step:
 * @self: a timeline
 * @outlier: an index below smprof_timeline_get_n_outliers()
 *
 * Returns: the outlier's step index in the stats
 */
guint
smprof_timeline_get_outlier_step (SmprofTimeline *self,
                                  guint           outlier)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), 0);
  g_return_val_if_fail (outlier < smprof_timeline_get_n_outliers (self), 0);

  return g_array_index (self->outliers->outliers, Outlier, outlier).index;
}

/**
 * smprof_timeline_activate_next_outlier:
 * @self: a timeline
 * @backwards: go to the previous one instead
 *
 * Moves the focus to the first interval of the next outlier step on a shown
 * node (in node, then step order, wrapping around), scrolls it into view and
 * emits SmprofTimeline::outlier-activated.
 *
 * Returns: whether there was one to go to (the marks shown, one on a shown node)
 */
gboolean
smprof_timeline_activate_next_outlier (SmprofTimeline *self,
                                       gboolean        backwards)
{
  guint n;

  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), FALSE);

  if (!showing (self))
    return FALSE;

  n = self->outliers->outliers->len;
  for (guint k = 1; k <= n; k++)
    {
      int current = self->outliers->current;
      guint index;
      const Outlier *outlier;
      const SmprofTimelineItem *item;

      if (current < 0)
        index = backwards ? n - k : k - 1;
      else
        index = backwards ? (current + n - k) % n : (current + k) % n;

      outlier = &g_array_index (self->outliers->outliers, Outlier, index);
      if (outlier->items->len == 0)
        continue;
      item = g_ptr_array_index (outlier->items, 0);
      if (_smprof_timeline_row_of_node (self, item->node) < 0)
        continue;

      _smprof_timeline_set_focus_item (self, item, TRUE);
      activate (self, index);
      return TRUE;
    }

  return FALSE;
}

/**
 * smprof_timeline_reveal_outlier:
 * @self: a timeline
 * @step: a step's index in the stats given to smprof_timeline_set_outliers()
 *
 * Moves the focus to the first interval of the step's mark and scrolls it
 * into view, as smprof_timeline_activate_next_outlier() does, without
 * emitting SmprofTimeline::outlier-activated: for a list of the outliers
 * that opens the comparison itself. The next F8 goes on from this mark.
 *
 * Returns: whether the step is marked on a shown node
 */
gboolean
smprof_timeline_reveal_outlier (SmprofTimeline *self,
                                guint           step)
{
  g_return_val_if_fail (SMPROF_IS_TIMELINE (self), FALSE);

  if (!showing (self))
    return FALSE;

  for (guint i = 0; i < self->outliers->outliers->len; i++)
    {
      const Outlier *outlier = &g_array_index (self->outliers->outliers, Outlier, i);
      const SmprofTimelineItem *item;

      if (outlier->index != step)
        continue;
      if (outlier->items->len == 0)
        return FALSE;
      item = g_ptr_array_index (outlier->items, 0);
      if (_smprof_timeline_row_of_node (self, item->node) < 0)
        return FALSE;

      _smprof_timeline_set_focus_item (self, item, TRUE);
      self->outliers->current = i;
      return TRUE;
    }

  return FALSE;
}
