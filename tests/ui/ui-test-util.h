/* ui-test-util.h: profiles of the bundled real jobs, windows and pixels for the UI tests
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-profile.h"

G_BEGIN_DECLS

SmprofProfile *ui_test_load_profile      (const char     *job,
                                          SmprofProfiler  profiler);
GtkWidget     *ui_test_present           (GtkWidget      *child,
                                          int             width,
                                          int             height);
void           ui_test_settle            (void);
void           ui_test_collect_rows      (GtkWidget      *widget,
                                          GPtrArray      *rows);
GdkTexture    *ui_test_render            (GtkWidget      *widget);
guint32        ui_test_pixel             (GdkTexture     *texture,
                                          int             x,
                                          int             y);
guint          ui_test_count_colors      (GdkTexture     *texture);
void           ui_test_save              (GdkTexture     *texture,
                                          const char     *name);
void           ui_test_save_local        (GdkTexture     *texture,
                                          const char     *name);
guint32        ui_test_rgb_to_pixel      (const double    rgb[3]);
gboolean       ui_test_same_pixels       (GdkTexture     *a,
                                          GdkTexture     *b,
                                          int             x,
                                          int             y,
                                          int             width,
                                          int             height);
gboolean       ui_test_near_pixels       (GdkTexture     *a,
                                          GdkTexture     *b,
                                          int             x,
                                          int             y,
                                          int             width,
                                          int             height,
                                          int             tolerance);
gboolean       ui_test_pixel_near        (guint32         a,
                                          guint32         b,
                                          int             tolerance);
void           ui_test_x_focus           (GtkWidget      *widget);
void           ui_test_x_keys            (GtkWidget      *widget,
                                          const char     *keys);
void           ui_test_x_keys_popover    (GtkWidget      *widget,
                                          GtkPopover     *popover,
                                          const char     *keys);
void           ui_test_x_type            (GtkWidget      *widget,
                                          const char     *text);
void           ui_test_x_click           (GtkWidget      *widget,
                                          double          x,
                                          double          y);

G_END_DECLS
