/* smprof-diff-export.h: a comparison written out: JSON, difffolded, a differential flame graph
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "smprof-diff.h"
#include "smprof-flame-render.h"

G_BEGIN_DECLS

/**
 * SmprofDiffExportOptions:
 * @a_label: (nullable): selection A in words (smprof_selection_describe())
 * @b_label: (nullable): selection B in words
 * @title: (nullable): the picture's title; %NULL for "Differential flame graph"
 * @min_delta: frames whose time changed by less than this (seconds, after
 *   normalisation) are drawn grey; functions under it are left out of the JSON
 * @metric: the numbers the JSON's functions are sorted by
 * @sort: the column they are sorted by
 * @limit: how many functions the JSON holds at most, or -1 for all
 * @direction: flame (up) or icicle (down)
 * @width: the picture's width in pixels
 * @min_frame_width: frames narrower than this many pixels are left out
 *
 * Start from smprof_diff_export_options_init().
 */
typedef struct
{
  const char           *a_label;
  const char           *b_label;
  const char           *title;
  double                min_delta;
  SmprofDiffMetric      metric;
  SmprofDiffColumn      sort;
  int                   limit;
  SmprofFlameDirection  direction;
  double                width;
  double                min_frame_width;
} SmprofDiffExportOptions;

void     smprof_diff_export_options_init (SmprofDiffExportOptions        *options);
gboolean smprof_diff_row_passes          (const SmprofDiffRow            *row,
                                          double                          min_delta);
gboolean smprof_diff_write_json          (SmprofDiff                     *diff,
                                          const SmprofDiffExportOptions  *options,
                                          GOutputStream                  *stream,
                                          GCancellable                   *cancellable,
                                          GError                        **error);
gboolean smprof_diff_write_folded        (SmprofDiff                     *diff,
                                          GOutputStream                  *stream,
                                          GCancellable                   *cancellable,
                                          GError                        **error);
gboolean smprof_diff_write_svg           (SmprofDiff                     *diff,
                                          const SmprofDiffExportOptions  *options,
                                          GOutputStream                  *stream,
                                          GCancellable                   *cancellable,
                                          GError                        **error);
void     smprof_diff_frame_color         (SmprofDiff                     *diff,
                                          guint32                         node,
                                          double                          min_delta,
                                          double                          max_delta,
                                          double                          rgb[3]);
double   smprof_diff_get_max_frame_delta (SmprofDiff                     *diff);

G_END_DECLS
