/* smprof-job-page-layout.c: where the job page's panes divide it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "smprof-job-page-private.h"
#include "smprof-paned-memory.h"

/* The timeline takes the height its rows need at their comfortable size,
 * up to TIMELINE_SHARE of the page and never leaving the views below less
 * than MIN_VIEWS: a job of two nodes leaves the answer (the Functions
 * table, the flame graph) nearly all the height, a job of many nodes gets
 * compact rows in a larger timeline (64 nodes at 1920x1080: 45 rows, and 15
 * rows of functions). Until the user drags a handle; then where the user
 * left it (smprof-paned-memory.c). */

#define TIMELINE_SHARE  0.6
#define SIDEBAR_WIDTH   210
#define MIN_VIEWS       260

static int
timeline_position (GtkPaned *paned,
                   int       height,
                   gpointer  user_data)
{
  SmprofJobPage *self = user_data;
  int toolbar = 0, overview = 0, timeline;

  gtk_widget_measure (self->timeline_toolbar, GTK_ORIENTATION_VERTICAL, -1, NULL, &toolbar, NULL, NULL);
  gtk_widget_measure (self->timeline_overview, GTK_ORIENTATION_VERTICAL, -1, NULL, &overview, NULL, NULL);
  timeline = (int) ceil (smprof_timeline_get_natural_height (self->timeline));

  return MIN (toolbar + overview + timeline, MIN ((int) (height * TIMELINE_SHARE), height - MIN_VIEWS));
}

static int
sidebar_position (GtkPaned *paned,
                  int       width,
                  gpointer  user_data)
{
  return SIDEBAR_WIDTH;
}

/* The timeline's rows changed (other nodes, another profiler, a refreshed
 * job, the steps read): its share follows, unless the user placed the
 * handle. */
static void
rows_changed_cb (SmprofJobPage *self)
{
  smprof_paned_memory_update (self->timeline_paned);
}

void
_smprof_job_page_layout_init (SmprofJobPage *self)
{
  smprof_paned_memory_attach (self->sidebar_paned, "sidebar-width", sidebar_position, NULL, NULL);
  smprof_paned_memory_attach (self->timeline_paned, "timeline-height", timeline_position, self, NULL);

  g_signal_connect_object (self->timeline, "notify::natural-height", G_CALLBACK (rows_changed_cb), self,
                           G_CONNECT_SWAPPED);
}
