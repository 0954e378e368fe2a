/* layout-test-util.h: the job page in a real viewer window, measured as a
 * person sees it, and the README's pictures of a 64-node job
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-flame-graph.h"
#include "smprof-job-page.h"
#include "smprof-timeline.h"
#include "smv-source-registry.h"
#include "smv-window.h"

G_BEGIN_DECLS

typedef struct
{
  int         width;
  int         height;
  gboolean    dark;
  const char *name;
  /* node rows of the 64 that must be in view, whole */
  guint       min_rows;
  /* (nullable): the gettext domain and English text of a label the
   * picture must show translated */
  const char *domain;
  const char *translated;
} LayoutTestPicture;

SmvWindow *layout_test_open_job       (SmvSourceRegistry       *registry,
                                       const char              *path,
                                       int                      width,
                                       int                      height,
                                       SmprofJobPage          **page);
gboolean   layout_test_bounds_in      (GtkWidget               *widget,
                                       GtkWidget               *target,
                                       graphene_rect_t         *bounds);
GtkWidget *layout_test_find_label     (GtkWidget               *widget,
                                       const char              *text);
gboolean   layout_test_root_row_on_screen (SmprofFlameGraph    *graph);
void       layout_test_check_width    (SmvWindow               *window,
                                       SmprofJobPage           *page);
void       layout_test_check_label_whole (SmvWindow            *window,
                                          GtkLabel             *label);
guint      layout_test_timeline_rows_visible (SmprofTimeline   *timeline);
double     layout_test_luminance_at   (GdkTexture              *texture,
                                       int                      x,
                                       int                      y);
void       layout_test_wait_timeline_drawn (SmvWindow          *window,
                                            SmprofJobPage      *page);
void       layout_test_picture_64     (SmvSourceRegistry       *registry,
                                       const LayoutTestPicture *picture);

G_END_DECLS
