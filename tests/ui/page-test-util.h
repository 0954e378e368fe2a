/* page-test-util.h: what the job page tests share: key presses, record
 * lists, commands
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void     page_test_press_shortcut (GtkWidget          *widget,
                                   const char         *accelerator);
gboolean page_test_same_records   (GPtrArray          *a,
                                   GPtrArray          *b);
void     page_test_run            (const char * const *argv);

G_END_DECLS
