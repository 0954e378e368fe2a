/* smprof-sagemaker-source.h: the viewer's data source for SageMaker Debugger jobs
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <smprof-viewer-api.h>

G_BEGIN_DECLS

#define SMPROF_TYPE_SAGEMAKER_SOURCE (smprof_sagemaker_source_get_type ())

G_DECLARE_FINAL_TYPE (SmprofSagemakerSource, smprof_sagemaker_source, SMPROF, SAGEMAKER_SOURCE, GObject)

G_END_DECLS
