/* smprof-cli-source.h: opening SOURCE, a folder or an s3:// prefix
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-cli-options.h"
#include "smprof-job.h"
#include "smprof-source.h"

G_BEGIN_DECLS

SmprofSource *smprof_cli_open_source (const SmprofCliOptions  *options,
                                      GError                 **error);
SmprofJob    *smprof_cli_new_job     (const SmprofCliOptions  *options,
                                      SmprofSource            *source);

G_END_DECLS
