/* s3-fake-bucket.h: a small in-memory S3 bucket named "bucket" on a loopback
 * FakeServer (ListObjectsV2 with prefixes, delimiters and pages; GetObject),
 * filled from folders of real jobs, counting the requests it serves
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FakeBucket FakeBucket;

FakeBucket *fake_bucket_new             (guint        page_size);
FakeBucket *fake_bucket_new_from_folder (const char  *root_prefix,
                                         const char  *local_dir,
                                         guint        page_size);
void        fake_bucket_add_folder      (FakeBucket  *self,
                                         const char  *key_prefix,
                                         const char  *local_dir);
char       *fake_bucket_dup_url         (FakeBucket  *self);
void        fake_bucket_export_env      (FakeBucket  *self);
void        fake_bucket_add_failing_key (FakeBucket  *self,
                                         const char  *key);
void        fake_bucket_set_get_delay   (FakeBucket  *self,
                                         gulong       microseconds);
void        fake_bucket_set_repeat_seams (FakeBucket *self,
                                          gboolean    repeat);
void        fake_bucket_fail_listings   (FakeBucket  *self,
                                         const char  *prefix,
                                         guint        times);
void        fake_bucket_set_looping_listing (FakeBucket *self,
                                             const char *prefix,
                                             gboolean    looping);
void        fake_bucket_cut_body        (FakeBucket  *self,
                                         const char  *key,
                                         guint        times,
                                         gboolean     connection_close);
void        fake_bucket_short_length    (FakeBucket  *self,
                                         const char  *key,
                                         guint        times);
void        fake_bucket_set_etag_differs (FakeBucket *self,
                                          gboolean    differs);
void        fake_bucket_put             (FakeBucket  *self,
                                         const char  *key,
                                         GBytes      *data);
GBytes     *fake_bucket_dup_object      (FakeBucket  *self,
                                         const char  *key);
void        fake_bucket_remove_failing_key (FakeBucket *self,
                                            const char *key);
guint       fake_bucket_get_n_lists     (FakeBucket  *self);
guint       fake_bucket_get_n_gets      (FakeBucket  *self);
guint       fake_bucket_get_key_gets    (FakeBucket  *self,
                                         const char  *key);
GPtrArray  *fake_bucket_dup_got_keys    (FakeBucket  *self);
GPtrArray  *fake_bucket_dup_get_log     (FakeBucket  *self);
void        fake_bucket_free            (FakeBucket  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FakeBucket, fake_bucket_free)

G_END_DECLS
