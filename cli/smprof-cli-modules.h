/* smprof-cli-modules.h: S3 and the PNG and PDF pictures, loaded when asked for
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-s3-source.h"

G_BEGIN_DECLS

/* What a module and the program that loads it agree on: a module of another
 * build of smprof is refused, not called. Bump the number when a module's
 * entry points or the structures they take change. */
#define SMPROF_CLI_MODULE_ABI "smprof " PACKAGE_VERSION " modules 1"

SmprofSource *smprof_cli_new_s3_source              (const char                   *uri,
                                                     const SmprofS3SourceOptions  *options,
                                                     GError                      **error);
void          smprof_cli_s3_source_set_progress_func (SmprofSource                *source,
                                                      SmprofS3ProgressFunc         func,
                                                      gpointer                     user_data,
                                                      GDestroyNotify               destroy);

G_END_DECLS
