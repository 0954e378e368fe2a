/* smprof-job-page.h: the page of one SageMaker job
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smprof-export.h"
#include "smprof-job.h"
#include "smprof-profile.h"
#include "smprof-query.h"
#include "smprof-session.h"
#include "smprof-timeline.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_JOB_PAGE (smprof_job_page_get_type ())

G_DECLARE_FINAL_TYPE (SmprofJobPage, smprof_job_page, SMPROF, JOB_PAGE, GtkWidget)

GtkWidget             *smprof_job_page_new                       (SmprofJob              *job);
SmprofJob             *smprof_job_page_get_job                   (SmprofJobPage          *self);
SmprofProfiler         smprof_job_page_get_profiler              (SmprofJobPage          *self);
void                   smprof_job_page_set_profiler              (SmprofJobPage          *self,
                                                                  SmprofProfiler          profiler);
const char * const    *smprof_job_page_get_node_ids              (SmprofJobPage          *self);
void                   smprof_job_page_set_node_ids              (SmprofJobPage          *self,
                                                                  const char * const     *node_ids);
SmprofSession         *smprof_job_page_get_session               (SmprofJobPage          *self);
SmprofPreset           smprof_job_page_get_preset                (SmprofJobPage          *self);
void                   smprof_job_page_set_preset                (SmprofJobPage          *self,
                                                                  SmprofPreset            preset);
void                   smprof_job_page_set_step_range            (SmprofJobPage          *self,
                                                                  gint64                  first_step,
                                                                  gint64                  last_step);
void                   smprof_job_page_set_mode_pair             (SmprofJobPage          *self,
                                                                  SmprofMode              start_mode,
                                                                  SmprofMode              end_mode);
const SmprofSelection *smprof_job_page_get_selection             (SmprofJobPage          *self);
void                   smprof_job_page_set_selection             (SmprofJobPage          *self,
                                                                  const SmprofSelection  *selection);
void                   smprof_job_page_select_records            (SmprofJobPage          *self,
                                                                  GPtrArray              *records);
GPtrArray             *smprof_job_page_get_selected_records      (SmprofJobPage          *self);
SmprofProfile         *smprof_job_page_get_profile               (SmprofJobPage          *self);
char                  *smprof_job_page_dup_selection_description (SmprofJobPage          *self);
gboolean               smprof_job_page_get_busy                  (SmprofJobPage          *self);
SmprofTimeline        *smprof_job_page_get_timeline              (SmprofJobPage          *self);
GtkBox                *smprof_job_page_get_slot                  (SmprofJobPage          *self,
                                                                  const char             *name);

char                  *smprof_job_page_dup_export_name           (SmprofJobPage          *self,
                                                                  SmprofExportFormat      format);
void                   smprof_job_page_export_async              (SmprofJobPage          *self,
                                                                  SmprofExportFormat      format,
                                                                  GFile                  *file,
                                                                  GCancellable           *cancellable,
                                                                  GAsyncReadyCallback     callback,
                                                                  gpointer                user_data);
gboolean               smprof_job_page_export_finish             (SmprofJobPage          *self,
                                                                  GAsyncResult           *result,
                                                                  GError                **error);
void                   smprof_job_page_export_report_async       (SmprofJobPage          *self,
                                                                  GFile                  *file,
                                                                  GCancellable           *cancellable,
                                                                  GAsyncReadyCallback     callback,
                                                                  gpointer                user_data);
gboolean               smprof_job_page_export_report_finish      (SmprofJobPage          *self,
                                                                  GAsyncResult           *result,
                                                                  GError                **error);

G_END_DECLS
