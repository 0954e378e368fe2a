/* smprof-record-store-private.h: where a job's records and their strings live
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-job.h"

G_BEGIN_DECLS

typedef struct _SmprofRecordStore SmprofRecordStore;

SmprofRecordStore *_smprof_record_store_new        (void);
void               _smprof_record_store_unref      (SmprofRecordStore *self);
SmprofRecord      *_smprof_record_store_add        (SmprofRecordStore *self);
char              *_smprof_record_store_add_string (SmprofRecordStore *self,
                                                    const char        *string);
const char        *_smprof_record_store_intern     (SmprofRecordStore *self,
                                                    const char        *string);
void               _smprof_record_release          (gpointer           record);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofRecordStore, _smprof_record_store_unref)

G_END_DECLS
