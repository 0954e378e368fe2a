/* smprof-export-picture.h: the PNG and PDF flame graphs, behind one call
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-export.h"
#include "smprof-flame-render.h"

G_BEGIN_DECLS

/* The one place the exports reach cairo. The viewer's plugin and the tests
 * link smprof-export-picture.c, which defines it; the command line defines
 * it over a module it loads only when asked for a picture
 * (cli/smprof-cli-modules.c), so that its other commands start without
 * cairo and what it loads. */
gboolean smprof_export_write_picture (SmprofFlameLayout              *layout,
                                      const SmprofFlameRenderOptions *render,
                                      SmprofExportFormat              format,
                                      GOutputStream                  *stream,
                                      GCancellable                   *cancellable,
                                      GError                        **error);

G_END_DECLS
