/* smprof-timeline-private.h: what smprof-timeline*.c (and the tests) share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-diff.h"
#include "smprof-timeline.h"
#include "smprof-timeline-steps.h"

G_BEGIN_DECLS

typedef struct _SmprofTimelineOutliers SmprofTimelineOutliers;
typedef struct _SmprofTimelineCompare SmprofTimelineCompare;

/* Geometry, in pixels. Rows are drawn at the comfortable sizes below while
 * every node fits; with many nodes they shrink to fit the height they get
 * (SmprofTimelineMetrics), down to compact rows of 8 px lanes without the
 * strip of steps, and scroll beyond that. */
#define SMPROF_TIMELINE_RULER_HEIGHT  26
#define SMPROF_TIMELINE_LEGEND_HEIGHT 26
#define SMPROF_TIMELINE_LANE_HEIGHT   24
#define SMPROF_TIMELINE_ROW_PAD       5   /* above and below a row's lanes: phase ticks */
#define SMPROF_TIMELINE_BLOCK_INSET   2   /* between a lane's edge and its blocks */
#define SMPROF_TIMELINE_RIGHT_PAD     8
#define SMPROF_TIMELINE_DRAG_THRESHOLD 3
#define SMPROF_TIMELINE_BLOCK_HEIGHT (SMPROF_TIMELINE_LANE_HEIGHT - 2 * SMPROF_TIMELINE_BLOCK_INSET)
#define SMPROF_TIMELINE_STEPS_HEIGHT  7   /* the strip of every step, under a node's lanes */
#define SMPROF_TIMELINE_STEPS_PAD     3   /* below the strip */

/* The sizes rows are drawn at now (see above). */
typedef struct
{
  double lane_height;
  double row_pad;        /* above and below a row's lanes */
  double block_inset;    /* between a lane's edge and its blocks */
  double steps_height;   /* the strip of steps; 0: none shown */
  double steps_pad;
} SmprofTimelineMetrics;

#define SMPROF_TIMELINE_MIN_LANE_HEIGHT 8

typedef struct
{
  guint  node;     /* index in the layout */
  double y;        /* top, in content coordinates (0 = first row) */
  double height;
  double steps_y;  /* top of the node's strip of steps, content coordinates; -1: none */
} SmprofTimelineRow;

typedef struct
{
  GskRenderNode      *node;
  SmprofTimelineAxis  axis;
  double              start;   /* axis values the node covers */
  double              end;
  double              scale;   /* pixels per axis unit */
  double              y0;      /* content rows the node covers */
  double              y1;
  guint               generation;
  /* Tiled (the blocks): the rows' tiles, SmprofTimelineRowTiles from
   * @first_row on, each recorded when a frame first shows its row
   * (smprof-timeline-draw.c), and drawn into images
   * (smprof-timeline-raster.c) at this sub-pixel position and scale */
  GArray             *row_tiles;
  guint               first_row;
  guint               n_prepared;  /* for tests: how often it was started again */
  double              raster_phase_x;
  double              raster_phase_y;
  int                 raster_scale;
  double              raster_dx;     /* where the last frame put the cache */
  double              raster_dy;
  GArray             *raster_queue;  /* tiles whose images are to be drawn */
  guint               raster_source;
} SmprofTimelineCache;

typedef struct
{
  gboolean       recorded;
  GskRenderNode *node;     /* a container of the row's tiles; NULL: nothing to draw */
  GPtrArray     *rasters;  /* the tiles as images, NULL entries not drawn yet */
} SmprofTimelineRowTiles;

struct _SmprofTimeline
{
  GtkWidget                 parent_instance;

  SmprofJob                *job;
  SmprofProfiler            profiler;
  char                    **visible_nodes;   /* as set; NULL: all */
  SmprofTimelineLayout     *layout;
  SmprofTimelineSteps      *steps;           /* every step, from the framework timeline; NULL: none */
  GArray                   *rows;            /* SmprofTimelineRow, shown nodes in order */
  GArray                   *row_of_node;     /* int per layout node: its row, or -1 */
  double                    content_height;
  double                    natural_height;  /* content_height at the comfortable sizes */
  double                    label_width;
  /* The legend's lines at legend_width (with or without the comparison's
   * entries): measured once per width, not on every hit test */
  double                    legend_width;
  gboolean                  legend_comparing;
  guint                     legend_lines;
  SmprofTimelineMetrics     metrics;
  gboolean                  align_by_step;

  /* What is shown: [view_start, view_start + view_span] on the current axis */
  double                    view_start;
  double                    view_span;
  double                    vscroll;
  gboolean                  view_fit;        /* follow the extent (nothing zoomed yet) */
  gboolean                  view_training;   /* follow the training loop's extent */
  gboolean                  in_framing;

  GtkAdjustment            *hadjustment;
  GtkAdjustment            *vadjustment;
  guint                     hscroll_policy : 1;
  guint                     vscroll_policy : 1;
  guint                     in_adjustment_update : 1;

  /* The committed selection, and a flag per layout item */
  SmprofTimelineSelection  *selection;
  guint8                   *selected;
  gboolean                  selection_follows_nodes;
  gboolean                  has_selection_extent[SMPROF_TIMELINE_N_AXES];
  double                    selection_extent[SMPROF_TIMELINE_N_AXES][2];

  /* Pointer and keyboard */
  const SmprofTimelineItem *hover_item;
  const SmprofTimelineItem *focus_item;
  const SmprofTimelineItem *anchor_item;
  double                    pointer_x;
  double                    pointer_y;
  gboolean                  pointer_inside;

  gboolean                  drag_pending;    /* button down, not yet past the threshold */
  gboolean                  dragging;
  gboolean                  drag_extend;
  double                    drag_x;
  double                    drag_y;
  double                    drag_anchor;     /* axis values */
  double                    drag_value;
  double                    pan_start;
  double                    pan_vscroll;

  /* Drawing */
  SmprofTimelineCache       blocks;
  SmprofTimelineCache       overlay;
  guint                     blocks_generation;
  guint                     tile_columns;    /* of the blocks' tiles (smprof-timeline-draw.c) */
  gboolean                  raster_tiles;    /* replayed as images (smprof-timeline-raster.c) */
  guint                     overlay_generation;
  gboolean                  dark;
  GdkRGBA                   fg;
  PangoLayout              *text;
  PangoLayout              *small_text;

  /* Outlier steps marked (smprof-timeline-outliers.c); NULL until any are given */
  SmprofTimelineOutliers    *outliers;

  /* Side A of a comparison (smprof-timeline-compare.c); NULL when not comparing */
  SmprofTimelineCompare     *compare;
};

static inline SmprofTimelineAxis
_smprof_timeline_axis (SmprofTimeline *self)
{
  return self->align_by_step ? SMPROF_TIMELINE_AXIS_STEP : SMPROF_TIMELINE_AXIS_TIME;
}

static inline const SmprofTimelineRow *
_smprof_timeline_get_row (SmprofTimeline *self,
                          guint           row)
{
  return &g_array_index (self->rows, SmprofTimelineRow, row);
}

static inline double
_smprof_timeline_block_height (SmprofTimeline *self)
{
  return self->metrics.lane_height - 2 * self->metrics.block_inset;
}

/* The top of a lane's blocks, in content coordinates. */
static inline double
_smprof_timeline_lane_block_y (SmprofTimeline          *self,
                               const SmprofTimelineRow *row,
                               guint                    lane)
{
  return row->y + self->metrics.row_pad + lane * self->metrics.lane_height + self->metrics.block_inset;
}

/* smprof-timeline.c */
void                      _smprof_timeline_invalidate_blocks  (SmprofTimeline           *self);
void                      _smprof_timeline_invalidate_overlay (SmprofTimeline           *self);
void                      _smprof_timeline_set_selection_internal (SmprofTimeline       *self,
                                                               SmprofTimelineSelection  *selection,
                                                               gboolean                  follows_nodes);
void                      _smprof_timeline_natural_height_changed (SmprofTimeline       *self);
void                      _smprof_timeline_view_changed       (SmprofTimeline           *self);
void                      _smprof_timeline_set_layout         (SmprofTimeline           *self,
                                                               SmprofTimelineLayout     *layout);

/* smprof-timeline-geometry.c */
double                    _smprof_timeline_plot_width         (SmprofTimeline           *self);
double                    _smprof_timeline_rows_height        (SmprofTimeline           *self);
void                      _smprof_timeline_get_viewport       (SmprofTimeline           *self,
                                                               SmprofTimelineViewport   *viewport);
guint                     _smprof_timeline_row_lower_bound    (SmprofTimeline           *self,
                                                               double                    y);
int                       _smprof_timeline_row_at_y           (SmprofTimeline           *self,
                                                               double                    y,
                                                               guint                    *lane);
int                       _smprof_timeline_row_of_node        (SmprofTimeline           *self,
                                                               guint                     node);
gboolean                  _smprof_timeline_get_row_rect       (SmprofTimeline           *self,
                                                               guint                     row,
                                                               graphene_rect_t          *rect);
gboolean                  _smprof_timeline_get_block_rect     (SmprofTimeline           *self,
                                                               const SmprofTimelineItem *item,
                                                               graphene_rect_t          *rect);
const SmprofTimelineItem *_smprof_timeline_item_at            (SmprofTimeline           *self,
                                                               double                    x,
                                                               double                    y);
void                      _smprof_timeline_rebuild_rows       (SmprofTimeline           *self);
void                      _smprof_timeline_fit_rows           (SmprofTimeline           *self);
guint                    *_smprof_timeline_dup_row_nodes      (SmprofTimeline           *self,
                                                               guint                    *n_nodes);
char                    **_smprof_timeline_dup_node_ids       (SmprofTimeline           *self,
                                                               const guint              *nodes,
                                                               guint                     n_nodes);

/* smprof-timeline-geometry.c: the strip of steps */
const SmprofTimelineStep *_smprof_timeline_step_at            (SmprofTimeline           *self,
                                                               double                    x,
                                                               double                    y,
                                                               guint                    *node);
gboolean                  _smprof_timeline_get_step_rect      (SmprofTimeline           *self,
                                                               guint                     node,
                                                               const SmprofTimelineStep *step,
                                                               graphene_rect_t          *rect);

/* smprof-timeline-view.c */
void                      _smprof_timeline_set_view           (SmprofTimeline           *self,
                                                               double                    start,
                                                               double                    span);
void                      _smprof_timeline_reset_view         (SmprofTimeline           *self);
void                      _smprof_timeline_refit_view         (SmprofTimeline           *self);
void                      _smprof_timeline_zoom_around        (SmprofTimeline           *self,
                                                               double                    factor,
                                                               double                    value);
void                      _smprof_timeline_set_vscroll        (SmprofTimeline           *self,
                                                               double                    vscroll);
void                      _smprof_timeline_update_adjustments (SmprofTimeline           *self);
void                      _smprof_timeline_hadjustment_value_changed_cb (SmprofTimeline *self,
                                                               GtkAdjustment            *adjustment);
void                      _smprof_timeline_vadjustment_value_changed_cb (SmprofTimeline *self,
                                                               GtkAdjustment            *adjustment);
void                      _smprof_timeline_set_adjustment     (SmprofTimeline           *self,
                                                               GtkAdjustment           **slot,
                                                               GtkAdjustment            *adjustment,
                                                               GCallback                 callback,
                                                               GParamSpec               *pspec);
void                      _smprof_timeline_update_action_states (SmprofTimeline         *self);

/* smprof-timeline-select.c */
void                      _smprof_timeline_commit_range       (SmprofTimeline           *self,
                                                               double                    start,
                                                               double                    end,
                                                               const guint              *nodes,
                                                               guint                     n_nodes);
void                      _smprof_timeline_select_item        (SmprofTimeline           *self,
                                                               const SmprofTimelineItem *item);
gboolean                  _smprof_timeline_selection_span     (SmprofTimeline           *self,
                                                               double                   *start,
                                                               double                   *end);
void                      _smprof_timeline_extend_to_item     (SmprofTimeline           *self,
                                                               const SmprofTimelineItem *item);
void                      _smprof_timeline_refresh_selection_for_nodes (SmprofTimeline  *self);
void                      _smprof_timeline_set_focus_item     (SmprofTimeline           *self,
                                                               const SmprofTimelineItem *item,
                                                               gboolean                  reveal);
void                      _smprof_timeline_set_hover_item     (SmprofTimeline           *self,
                                                               const SmprofTimelineItem *item);

/* smprof-timeline-draw.c */
void                      _smprof_timeline_snapshot           (GtkWidget                *widget,
                                                               GtkSnapshot              *snapshot);
void                      _smprof_timeline_cache_clear        (SmprofTimelineCache      *cache);
void                      _smprof_timeline_rasters_clear      (SmprofTimelineCache      *cache);
/* smprof-timeline-cache.c */
gboolean                  _smprof_timeline_cache_valid        (const SmprofTimelineCache    *cache,
                                                               SmprofTimelineAxis            axis,
                                                               const SmprofTimelineViewport *vp,
                                                               double                        y0,
                                                               double                        y1,
                                                               guint                         generation);
void                      _smprof_timeline_row_tiles_clear    (gpointer                      data);
void                      _smprof_timeline_cache_forget       (SmprofTimelineCache          *cache);
void                      _smprof_timeline_cache_prepare      (SmprofTimelineCache          *cache,
                                                               SmprofTimelineAxis            axis,
                                                               const SmprofTimelineViewport *vp,
                                                               double                        vscroll,
                                                               double                        rows_height,
                                                               guint                         generation);
double                    _smprof_timeline_cache_width        (const SmprofTimelineCache    *cache);
gboolean                  _smprof_timeline_node_in_view       (GskRenderNode                *node,
                                                               const graphene_rect_t        *visible);
void                      _smprof_timeline_cache_placement    (const SmprofTimelineCache    *cache,
                                                               const SmprofTimelineViewport *vp,
                                                               double                        vscroll,
                                                               double                        width,
                                                               double                        rows_height,
                                                               int                           scale,
                                                               graphene_point_t             *offset,
                                                               graphene_rect_t              *visible);
void                      _smprof_timeline_cache_append       (SmprofTimelineCache          *cache,
                                                               GtkSnapshot                  *snapshot,
                                                               const SmprofTimelineViewport *vp,
                                                               double                        vscroll,
                                                               double                        width,
                                                               double                        rows_height,
                                                               gboolean                      cull,
                                                               int                           scale);
void                      _smprof_timeline_cache_rows         (SmprofTimeline               *self,
                                                               const SmprofTimelineCache    *cache,
                                                               guint                        *first,
                                                               guint                        *last);

/* smprof-timeline-raster.c */
/* How many nodes of tiles not yet drawn into images one frame draws as
 * they are (about 5 ms of GTK's cairo renderer); the rest wait for their
 * images (smprof-timeline-draw.c). */
#define SMPROF_TIMELINE_VECTOR_BUDGET 4000

gboolean                  _smprof_timeline_rasters_pending    (SmprofTimeline           *self);
void                      _smprof_timeline_rasters_dispose    (SmprofTimeline           *self);
GskRenderNode            *_smprof_timeline_rasters_get        (SmprofTimeline           *self,
                                                               SmprofTimelineRowTiles   *row,
                                                               guint                     index,
                                                               double                    dx,
                                                               double                    dy,
                                                               int                       scale);
GskRenderNode            *_smprof_timeline_dup_blocks_node    (SmprofTimeline           *self);
void                      _smprof_timeline_set_raster_tiles   (SmprofTimeline           *self,
                                                               gboolean                  raster);
void                      _smprof_timeline_set_tile_columns   (SmprofTimeline           *self,
                                                               guint                     n_columns);
void                      _smprof_timeline_append_rect        (GtkSnapshot              *snapshot,
                                                               const GdkRGBA            *color,
                                                               double                    x,
                                                               double                    y,
                                                               double                    w,
                                                               double                    h);
void                      _smprof_timeline_draw_phase_tick    (SmprofTimeline           *self,
                                                               GtkSnapshot              *snapshot,
                                                               SmprofPhase               phase,
                                                               double                    x,
                                                               double                    block_y,
                                                               double                    block_height);
gboolean                  _smprof_timeline_shaded_range       (SmprofTimeline           *self,
                                                               double                   *start,
                                                               double                   *end);

/* smprof-timeline-colors.c */
void                      _smprof_timeline_get_step_color     (SmprofMode                mode,
                                                               gboolean                  dark,
                                                               GdkRGBA                  *color);
const char               *_smprof_timeline_phase_label        (SmprofPhase               phase);
GdkRGBA                   _smprof_timeline_accent_color       (SmprofTimeline           *self,
                                                               double                    alpha);

/* smprof-timeline-labels.c */
void                      _smprof_timeline_append_text        (SmprofTimeline           *self,
                                                               GtkSnapshot              *snapshot,
                                                               PangoLayout              *layout,
                                                               const char               *text,
                                                               double                    x,
                                                               double                    y,
                                                               const GdkRGBA            *color);
void                      _smprof_timeline_draw_ruler         (SmprofTimeline           *self,
                                                               GtkSnapshot              *snapshot,
                                                               const SmprofTimelineViewport *vp,
                                                               double                    rows_height);
void                      _smprof_timeline_draw_row_labels    (SmprofTimeline           *self,
                                                               GtkSnapshot              *snapshot,
                                                               double                    rows_height);
void                      _smprof_timeline_draw_legend        (SmprofTimeline           *self,
                                                               GtkSnapshot              *snapshot);
double                    _smprof_timeline_legend_height      (SmprofTimeline           *self);
guint                     _smprof_timeline_get_legend_lines   (SmprofTimeline           *self,
                                                               double                   *right);

/* smprof-timeline-tooltip.c */
gboolean                  _smprof_timeline_query_tooltip      (GtkWidget                *widget,
                                                               int                       x,
                                                               int                       y,
                                                               gboolean                  keyboard_tooltip,
                                                               GtkTooltip               *tooltip);
char                     *_smprof_timeline_dup_tooltip_markup (const SmprofTimelineItem *item);
char                     *_smprof_timeline_dup_step_tooltip_markup (const SmprofTimelineStep *step);

/* smprof-timeline-input.c */
void                      _smprof_timeline_class_input_init   (GtkWidgetClass           *widget_class);
void                      _smprof_timeline_input_init         (SmprofTimeline           *self);
void                      _smprof_timeline_drag_begin         (SmprofTimeline           *self,
                                                               double                    x,
                                                               double                    y,
                                                               gboolean                  extend);
void                      _smprof_timeline_drag_update        (SmprofTimeline           *self,
                                                               double                    x,
                                                               double                    y);
void                      _smprof_timeline_drag_end           (SmprofTimeline           *self,
                                                               double                    x,
                                                               double                    y);

/* smprof-timeline-compare.c */
void                      _smprof_timeline_compare_dispose    (SmprofTimeline           *self);
void                      _smprof_timeline_draw_compare       (SmprofTimeline           *self,
                                                               GtkSnapshot              *snapshot);
const char               *_smprof_timeline_compare_side_label (SmprofDiffSide          side);
void                      _smprof_timeline_draw_compare_swatch (SmprofTimeline          *self,
                                                               GtkSnapshot              *snapshot,
                                                               SmprofDiffSide            side,
                                                               double                    x,
                                                               double                    y);
guint                     _smprof_timeline_get_n_compare_items (SmprofTimeline          *self);
gboolean                  _smprof_timeline_compare_span       (SmprofTimeline           *self,
                                                               double                   *start,
                                                               double                   *end);

/* smprof-timeline-outliers.c */
void                      _smprof_timeline_class_outliers_init (GObjectClass            *klass);
void                      _smprof_timeline_outliers_dispose   (SmprofTimeline           *self);
void                      _smprof_timeline_outliers_size_allocate (SmprofTimeline       *self);
void                      _smprof_timeline_draw_outliers      (SmprofTimeline           *self,
                                                               GtkSnapshot              *snapshot);
gboolean                  _smprof_timeline_outliers_query_tooltip (SmprofTimeline       *self,
                                                               double                    x,
                                                               double                    y,
                                                               gboolean                  keyboard_tooltip,
                                                               GtkTooltip               *tooltip);
gboolean                  _smprof_timeline_outliers_click     (SmprofTimeline           *self,
                                                               double                    x,
                                                               double                    y);
gboolean                  _smprof_timeline_outliers_popup     (SmprofTimeline           *self,
                                                               double                    x,
                                                               double                    y);
int                       _smprof_timeline_outlier_of_item    (SmprofTimeline           *self,
                                                               const SmprofTimelineItem *item);
char                     *_smprof_timeline_dup_outlier_tooltip_markup (SmprofTimeline   *self,
                                                               const SmprofTimelineItem *item);
gboolean                  _smprof_timeline_get_outlier_mark_rect (SmprofTimeline        *self,
                                                               guint                     outlier,
                                                               graphene_rect_t          *rect);
void                      _smprof_timeline_get_outlier_color  (gboolean                  dark,
                                                               GdkRGBA                  *color);

G_END_DECLS
