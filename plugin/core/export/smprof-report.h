/* smprof-report.h: a selection written up for a colleague: pictures, tables and how to redo it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-diff-export.h"
#include "smprof-export.h"
#include "smprof-step-stats.h"

G_BEGIN_DECLS

typedef enum
{
  SMPROF_REPORT_FOLDER,  /* README.md, SVGs and CSVs in a folder */
  SMPROF_REPORT_HTML,    /* one self-contained page */
} SmprofReportFormat;

/**
 * SmprofReportOptions:
 * @selection: (nullable): the selection in words (smprof_selection_describe())
 * @command_line: (nullable): the command that writes the same report again
 * @flame: how the flame graph is drawn; its @selection is the one above
 * @diff: how the comparison is written; its labels name A and B
 *
 * Start from smprof_report_options_init().
 */
typedef struct
{
  const char              *selection;
  const char              *command_line;
  SmprofExportOptions      flame;
  SmprofDiffExportOptions  diff;
  SmprofStepRule           steps;   /* what makes a step an outlier */
} SmprofReportOptions;

/* The files of a folder report. */
#define SMPROF_REPORT_SUMMARY_FILE        "README.md"
#define SMPROF_REPORT_FLAME_FILE          "flame-graph.svg"
#define SMPROF_REPORT_FUNCTIONS_FILE      "functions.csv"
#define SMPROF_REPORT_STEPS_FILE          "steps.csv"
#define SMPROF_REPORT_STEP_FUNCTIONS_FILE "step-functions.csv"
#define SMPROF_REPORT_DIFF_FLAME_FILE     "diff-flame-graph.svg"
#define SMPROF_REPORT_DIFF_FILE           "diff.csv"

void               smprof_report_options_init      (SmprofReportOptions        *options);
SmprofReportFormat smprof_report_format_for_path   (const char                 *path,
                                                    gboolean                    html);
gboolean           smprof_report_write             (SmprofProfile              *profile,
                                                    GPtrArray                  *records,
                                                    SmprofDiff                 *diff,
                                                    SmprofReportFormat          format,
                                                    const SmprofReportOptions  *options,
                                                    GFile                      *out,
                                                    GCancellable               *cancellable,
                                                    GError                    **error);
void               smprof_report_write_async       (SmprofProfile              *profile,
                                                    GPtrArray                  *records,
                                                    SmprofDiff                 *diff,
                                                    SmprofReportFormat          format,
                                                    const SmprofReportOptions  *options,
                                                    GFile                      *out,
                                                    GCancellable               *cancellable,
                                                    GAsyncReadyCallback         callback,
                                                    gpointer                    user_data);
gboolean           smprof_report_write_finish      (SmprofProfile              *profile,
                                                    GAsyncResult               *result,
                                                    GError                    **error);

G_END_DECLS
