/* smprof-flame-graph-private.h: what the flame graph's files share, and what the tests look at
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-diff.h"
#include "smprof-flame-graph.h"
#include "smprof-flame-layout.h"
#include "smprof-flame-palette.h"

G_BEGIN_DECLS

/* Rows are this tall, the root row at the bottom of the widget. */
#define SMPROF_FLAME_GRAPH_ROW_HEIGHT 20

/* The frames are drawn once into a render node, replayed until the data, the
 * size, the zoom, the search or the theme change; hover and keyboard focus are
 * drawn on top of it each frame (the shape of Sysprof's flame graph). */
struct _SmprofFlameGraph
{
  GtkWidget          parent_instance;

  SmprofProfile     *profile;
  SmprofFlameLayout *layout;
  GArray            *history;          /* guint32: earlier zoom nodes, for zoom-out */

  char              *search_text;
  GArray            *matched;          /* guint: rect indices, in order */
  GArray            *is_matched;       /* gboolean per rect, while searching */
  double             matched_fraction;

  GskRenderNode     *rendered;
  gboolean           rendered_valid;
  int                rendered_width;
  int                rendered_height;
  guint              n_renders;
  gboolean           dark;
  SmprofFlamePalette palette;

  int                hover_rect;
  int                selected_rect;
  guint32            selected_node;

  /* A comparison drawn instead of the profile (smprof-flame-graph-diff.c) */
  SmprofDiff        *diff;
  double             min_delta;
  double             max_delta;
};

SmprofCallTree    *_smprof_flame_graph_get_tree        (SmprofFlameGraph *self);
char              *_smprof_flame_graph_dup_details     (SmprofFlameGraph *self,
                                                        guint32           node,
                                                        gboolean          markup);
void               _smprof_flame_graph_set_hover_rect  (SmprofFlameGraph *self,
                                                        int               index);
void               _smprof_flame_graph_select_rect     (SmprofFlameGraph *self,
                                                        int               index);
void               _smprof_flame_graph_invalidate_render (SmprofFlameGraph *self);
void               _smprof_flame_graph_reset_tree      (SmprofFlameGraph *self);
void               _smprof_flame_graph_class_init_input (GtkWidgetClass  *widget_class);
void               _smprof_flame_graph_init_input      (SmprofFlameGraph *self);

/* smprof-flame-graph-draw.c */
gboolean           _smprof_flame_graph_get_rect_area   (SmprofFlameGraph *self,
                                                        guint             index,
                                                        int               width,
                                                        int               height,
                                                        graphene_rect_t  *area);
int                _smprof_flame_graph_hit_test        (SmprofFlameGraph *self,
                                                        double            x,
                                                        double            y);
gboolean           _smprof_flame_graph_update_dark     (SmprofFlameGraph *self);
void               _smprof_flame_graph_snapshot        (GtkWidget        *widget,
                                                        GtkSnapshot      *snapshot);

/* smprof-flame-graph-diff.c */
void               _smprof_flame_graph_diff_color      (SmprofFlameGraph      *self,
                                                        guint32                node,
                                                        double                 rgb[3],
                                                        gboolean              *dashed);
char              *_smprof_flame_graph_diff_dup_details (SmprofFlameGraph     *self,
                                                        guint32                node,
                                                        const char            *head,
                                                        gboolean               markup);
void               _smprof_flame_graph_diff_draw_dashes (SmprofFlameGraph     *self,
                                                        GtkSnapshot           *snapshot,
                                                        const graphene_rect_t *area);

/* For the tests */
SmprofFlameLayout *_smprof_flame_graph_get_layout      (SmprofFlameGraph *self);
const GArray      *_smprof_flame_graph_get_matched     (SmprofFlameGraph *self);
void               _smprof_flame_graph_hover_at        (SmprofFlameGraph *self,
                                                        double            x,
                                                        double            y);
int                _smprof_flame_graph_get_hover_rect  (SmprofFlameGraph *self);
guint              _smprof_flame_graph_get_n_renders   (SmprofFlameGraph *self);
gboolean           _smprof_flame_graph_get_dark        (SmprofFlameGraph *self);

G_END_DECLS
