/* smprof-sagemaker-document.h: an opened SageMaker job, as the viewer sees it
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <smprof-viewer-api.h>

#include "smprof-job.h"

G_BEGIN_DECLS

#define SMPROF_TYPE_SAGEMAKER_DOCUMENT (smprof_sagemaker_document_get_type ())

G_DECLARE_FINAL_TYPE (SmprofSagemakerDocument, smprof_sagemaker_document, SMPROF, SAGEMAKER_DOCUMENT, SmvDocument)

SmprofSagemakerDocument *smprof_sagemaker_document_new           (GFile                   *location,
                                                                  SmprofJob               *job);
SmprofJob               *smprof_sagemaker_document_get_job       (SmprofSagemakerDocument *self);
void                     smprof_sagemaker_document_set_job       (SmprofSagemakerDocument *self,
                                                                  SmprofJob               *job);
void                     smprof_sagemaker_document_sync_problems (SmprofSagemakerDocument *self);

G_END_DECLS
