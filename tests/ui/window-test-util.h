/* window-test-util.h: the job page in a real viewer window, opened and
 * closed the way every page test does
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-job-page.h"
#include "smv-source-registry.h"
#include "smv-window.h"

G_BEGIN_DECLS

SmvSourceRegistry *window_test_registry_new (void);

gboolean   window_test_is_mapped      (gpointer            widget);
gboolean   window_test_shows_document (gpointer            window);
gboolean   window_test_page_ready     (gpointer            page);
SmvWindow *window_test_open_job       (SmvSourceRegistry  *registry,
                                       const char         *path,
                                       int                 width,
                                       int                 height,
                                       SmprofJobPage     **page);
char      *window_test_real_job       (const char         *name);
void       window_test_close          (SmvWindow          *window);

GtkWidget *window_test_find_file_chooser (void);
gboolean   window_test_has_file_chooser  (gpointer         unused);
void       window_test_chooser_save_as   (GtkWidget       *dialog,
                                          const char      *start_dir,
                                          const char      *dir,
                                          const char      *name);

G_END_DECLS
