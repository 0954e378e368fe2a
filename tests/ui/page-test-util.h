/* page-test-util.h: what the job page tests share: key presses, record
 * lists, commands, waits
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-job-page.h"

G_BEGIN_DECLS

/* Something to wait for on a page; @value is the condition's own. */
typedef gboolean (*PageTestCondition) (SmprofJobPage *page,
                                       guint          value);

void     page_test_press_shortcut (GtkWidget          *widget,
                                   const char         *accelerator);
gboolean page_test_same_records   (GPtrArray          *a,
                                   GPtrArray          *b);
void     page_test_run            (const char * const *argv);
gboolean page_test_wait_until     (PageTestCondition   done,
                                   SmprofJobPage      *page,
                                   guint               value);
gboolean page_test_idle           (SmprofJobPage      *page,
                                   guint               unused);
gboolean page_test_refreshed      (SmprofJobPage      *page,
                                   guint               n);

G_END_DECLS
