/* smprof-export.h: one aggregated selection, written for other tools and reports
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-flame-render.h"
#include "smprof-profile.h"

G_BEGIN_DECLS

typedef enum
{
  SMPROF_EXPORT_SVG,         /* the flame graph, standalone and interactive */
  SMPROF_EXPORT_PNG,
  SMPROF_EXPORT_PDF,
  SMPROF_EXPORT_FOLDED,      /* Brendan Gregg's folded stacks: "a;b;c N", N in µs */
  SMPROF_EXPORT_SPEEDSCOPE,  /* speedscope's JSON file format */
  SMPROF_EXPORT_PSTATS,      /* a marshal file CPython's pstats.Stats loads (cProfile only) */
  SMPROF_EXPORT_CSV,         /* the function table */
  SMPROF_EXPORT_JSON,        /* as `smprof stats --json` */
  SMPROF_EXPORT_SYSCAP,      /* a Sysprof capture */
} SmprofExportFormat;

#define SMPROF_EXPORT_N_FORMATS 9

/**
 * SmprofExportOptions:
 * @title: (nullable): the picture's title; %NULL for "Flame graph" or
 *   "Icicle graph"; speedscope's profile name too
 * @selection: (nullable): what was selected, for the subtitle
 *   (smprof_selection_describe(), or the viewer's own words for a range)
 * @direction: flame (up) or icicle (down)
 * @width: the picture's width in pixels (points in a PDF), 100 to 16384
 * @min_frame_width: frames narrower than this many pixels are left out
 * @zoom_node: the frame the picture is zoomed to, or %SMPROF_CALL_TREE_ROOT;
 *   data exports always hold the whole profile
 * @dark: dark-mode colours for the pictures
 * @palette: the colour scheme of the pictures' frames
 *
 * Start from smprof_export_options_init(), then change what differs.
 */
typedef struct
{
  const char           *title;
  const char           *selection;
  SmprofFlameDirection  direction;
  double                width;
  double                min_frame_width;
  guint32               zoom_node;
  gboolean              dark;
  SmprofFlamePalette    palette;
} SmprofExportOptions;

/**
 * SmprofExportError:
 * @SMPROF_EXPORT_ERROR_INVALID: an option is out of range
 * @SMPROF_EXPORT_ERROR_FAILED: a library the export goes through failed
 *
 * Write failures are `G_IO_ERROR`s.
 */
typedef enum
{
  SMPROF_EXPORT_ERROR_INVALID,
  SMPROF_EXPORT_ERROR_FAILED,
} SmprofExportError;

#define SMPROF_EXPORT_ERROR (smprof_export_error_quark ())
GQuark smprof_export_error_quark (void);

/* A Sysprof sample stands for this much time (it grows tenfold while a
 * capture would need more than SMPROF_SYSCAP_MAX_SAMPLES samples); the capture
 * names the period it used in its "smprof" metadata. */
#define SMPROF_SYSCAP_SAMPLE_PERIOD_US 1000
#define SMPROF_SYSCAP_MAX_SAMPLES      2000000

void        smprof_export_options_init           (SmprofExportOptions        *options);
gboolean    smprof_export_format_from_string     (const char                 *text,
                                                  SmprofExportFormat         *format);
const char *smprof_export_format_to_string       (SmprofExportFormat          format);
const char *smprof_export_format_get_extension   (SmprofExportFormat          format);
const char *smprof_export_format_get_mime_type   (SmprofExportFormat          format);
char       *smprof_export_dup_subtitle           (SmprofProfile              *profile,
                                                  const char                 *selection);
char       *smprof_export_dup_reshaping          (SmprofProfile              *profile);
char       *smprof_export_dup_frame_label        (SmprofFunctionKeys         *table,
                                                  guint32                     func);
gboolean    smprof_export_profile                (SmprofProfile              *profile,
                                                  SmprofExportFormat          format,
                                                  const SmprofExportOptions  *options,
                                                  GOutputStream              *stream,
                                                  GCancellable               *cancellable,
                                                  GError                    **error);
gboolean    smprof_export_profile_to_file        (SmprofProfile              *profile,
                                                  SmprofExportFormat          format,
                                                  const SmprofExportOptions  *options,
                                                  GFile                      *file,
                                                  GCancellable               *cancellable,
                                                  GError                    **error);
void        smprof_export_profile_to_file_async  (SmprofProfile              *profile,
                                                  SmprofExportFormat          format,
                                                  const SmprofExportOptions  *options,
                                                  GFile                      *file,
                                                  GCancellable               *cancellable,
                                                  GAsyncReadyCallback         callback,
                                                  gpointer                    user_data);
gboolean    smprof_export_profile_to_file_finish (SmprofProfile              *profile,
                                                  GAsyncResult               *result,
                                                  GError                    **error);

G_END_DECLS
