/* viewer-test-utils.h: driving real viewer windows under Xvfb
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

typedef gboolean (*ViewerTestCondition) (gpointer data);

gboolean    viewer_test_init            (int                  *argc,
                                         char               ***argv);
gboolean    viewer_test_have_display    (void);
gboolean    viewer_test_wait            (ViewerTestCondition   condition,
                                         gpointer              data,
                                         guint                 timeout_ms);
void        viewer_test_spin            (guint                 ms);
void        viewer_test_wait_transitions (GtkWidget           *widget);
GtkWidget  *viewer_test_find            (GtkWidget            *root,
                                         const char           *name);
const char *viewer_test_label_text      (GtkWidget            *root,
                                         const char           *name);
AdwStatusPage *viewer_test_status_page  (GtkWidget            *root,
                                         const char           *name);
gboolean    viewer_test_press_shortcut  (GtkWidget            *widget,
                                         const char           *accelerator);
GdkTexture *viewer_test_render          (GtkWidget            *widget,
                                         const char           *png_name) G_GNUC_WARN_UNUSED_RESULT;
guint       viewer_test_count_colors    (GdkTexture           *texture,
                                         guint32               background,
                                         guint                *n_differing);
void        viewer_test_save_screenshot (GdkTexture           *texture,
                                         const char           *name);
guint32     viewer_test_pixel           (GdkTexture           *texture,
                                         int                   x,
                                         int                   y);

/* Skips the running test when there is no display. */
#define VIEWER_TEST_REQUIRE_DISPLAY()                                   \
  G_STMT_START {                                                        \
    if (!viewer_test_have_display ())                                   \
      {                                                                 \
        g_test_skip ("no display: run under xvfb-run");                 \
        return;                                                         \
      }                                                                 \
  } G_STMT_END

G_END_DECLS
