/* s3-source-test-util.h: what the S3 source's tests share: a fake S3 holding
 * tests/data/real-smdebug/pt-cprofile in small pages, a private HOME and
 * cache, and the look-ups they make on jobs
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "s3-fake-bucket.h"
#include "smprof-job.h"
#include "smprof-s3-source.h"

G_BEGIN_DECLS

#define ROOT "jobs/pt/profiler-output"
#define PAGE_SIZE 7   /* small pages: every listing of a node takes several */

typedef struct
{
  FakeBucket *bucket;
  char       *local;   /* the same job on disk */
  char       *home;
  char       *cache;
} S3TestFixture;

void          s3_test_set_up          (S3TestFixture               *fixture,
                                       gconstpointer                data);
void          s3_test_tear_down       (S3TestFixture               *fixture,
                                       gconstpointer                data);
void          s3_test_remove_tree     (const char                  *path);
SmprofSource *s3_test_open            (const char                  *uri,
                                       const SmprofS3SourceOptions *options);
SmprofJob    *s3_test_load_job        (SmprofSource                *source);
guint         s3_test_count_records   (SmprofJob                   *job);
void          s3_test_job_totals      (SmprofJob                   *job,
                                       gint64                      *calls,
                                       double                      *seconds);
guint         s3_test_count_problems  (SmprofJob                   *job,
                                       const char                  *needle);
SmprofRecord *s3_test_record_and_key  (SmprofJob                   *job,
                                       guint                        index,
                                       char                       **key);
SmprofRecord *s3_test_same_record     (SmprofJob                   *job,
                                       SmprofRecord                *record);

G_END_DECLS
