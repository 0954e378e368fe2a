/* smprof-report-private.h: what the folder and the page of a report share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-report.h"
#include "smprof-step-stats.h"

G_BEGIN_DECLS

/* Everything a report shows, made once, then laid out as files or a page. */
typedef struct
{
  SmprofProfile             *profile;
  SmprofDiff                *diff;        /* nullable */
  SmprofStepStats           *steps;
  const SmprofReportOptions *options;
  char                      *location;    /* the job's folder or URI, whole */
  char                      *flame_svg;
  char                      *functions_csv;
  char                      *steps_csv;
  char                      *step_functions_csv;
  char                      *diff_svg;    /* with a comparison */
  char                      *diff_csv;
} SmprofReportContent;

/* Rows of the tables the summary and the page show; the CSVs hold all. */
#define SMPROF_REPORT_TOP_FUNCTIONS 20

SmprofReportContent *smprof_report_content_new     (SmprofProfile              *profile,
                                                    GPtrArray                  *records,
                                                    SmprofDiff                 *diff,
                                                    const SmprofReportOptions  *options,
                                                    GCancellable               *cancellable,
                                                    GError                    **error);
void                 smprof_report_content_free    (SmprofReportContent        *content);
char                *smprof_report_dup_timer_note  (SmprofProfile              *profile);
char                *smprof_report_dup_side_summary (SmprofDiff                *diff,
                                                     SmprofDiffSide             side,
                                                     const char                *label);
GArray              *smprof_report_top_functions   (SmprofProfile              *profile,
                                                    guint                       n);
GArray              *smprof_report_top_changes     (SmprofDiff                 *diff,
                                                    double                      min_delta,
                                                    guint                       n);
GArray              *smprof_report_outlier_steps   (SmprofStepStats            *steps);
char                *smprof_report_dup_step_marks  (const SmprofStep           *step);
char                *smprof_report_dup_html        (SmprofReportContent        *content);
char                *smprof_report_dup_markdown    (SmprofReportContent        *content);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofReportContent, smprof_report_content_free)

G_END_DECLS
