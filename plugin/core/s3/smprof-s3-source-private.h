/* smprof-s3-source-private.h: what a listing found and the form it is kept
 * in on disk, for the fuzz target (tests/fuzz/fuzz-s3-cached-listing.c); and
 * what smprof-s3-source.c, smprof-s3-source-listing.c,
 * smprof-s3-source-listing-cache.c and smprof-s3-source-fetch.c share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-s3-cache.h"
#include "smprof-s3-client.h"
#include "smprof-s3-source.h"
#include "smprof-source.h"

G_BEGIN_DECLS

typedef struct
{
  char              *path;
  SmprofListingKind  kind;
  guint64            size;
  char              *etag;   /* NULL when the listing gave none */
} SmprofS3FoundEntry;

typedef struct
{
  char *path;
  char *message;
} SmprofS3FoundProblem;

/* What one listing (live or cached) found, in the order the index gets it.
 * A listing is complete when every request it made was answered: only a
 * complete one is cached, since a transient failure must not outlive it. */
typedef struct
{
  GPtrArray *entries;   /* SmprofS3FoundEntry */
  GPtrArray *problems;  /* SmprofS3FoundProblem */
  gboolean   complete;
  char      *incomplete;  /* when not complete: the first failure, "path: message" */
} SmprofS3Found;

void           _smprof_s3_found_free        (SmprofS3Found  *found);
GBytes        *_smprof_s3_listing_serialize (const char     *root,
                                             const char     *scope,
                                             guint           depth,
                                             SmprofS3Found  *found);
SmprofS3Found *_smprof_s3_listing_parse     (GBytes         *bytes,
                                             char          **root,
                                             char          **scope,
                                             guint          *depth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofS3Found, _smprof_s3_found_free)

/* What the files of SmprofS3Source share */

typedef struct
{
  char    *etag;
  guint64  size;
} ObjectInfo;

struct _SmprofS3Source
{
  GObject                parent_instance;

  char                  *bucket;
  char                  *prefix;       /* as given, without surrounding '/' */
  gboolean               refresh;      /* atomic */
  gboolean               anonymous;

  SmprofS3Client        *client;
  SmprofS3Cache         *cache;        /* NULL: nothing kept on disk */
  guint64                max_object_size;

  GMutex                 lock;         /* guards what follows, up to callback_lock */
  char                  *root;         /* the job root's key prefix, "" for the bucket's root */
  char                  *scope;        /* framework[/<fw>[/<profiler>]] */
  guint                  depth;        /* segments in scope */
  gboolean               resolved;
  GHashTable            *objects;      /* path -> ObjectInfo, from the listing */
  GHashTable            *handoff;      /* path -> GBytes prefetched but not cached */
  GHashTable            *failed;       /* path -> GError of a prefetch */
  GHashTable            *accounted;    /* paths counted as wanted */
  GHashTable            *done;         /* paths counted as fetched, cached or failed */
  SmprofS3Progress       progress;
  guint64                progress_seq; /* bumped on every change */
  guint                  n_busy;       /* lists, prefetches and lone fetches under way */

  GMutex                 callback_lock; /* guards the listener */
  guint64                delivered_seq;
  SmprofS3ProgressFunc   progress_func;
  gpointer               progress_data;
  GDestroyNotify         progress_destroy;

  GMainContext          *context;      /* where property notifications go */
  int                    notify_queued; /* atomic */
};

typedef enum
{
  DONE_FETCHED,
  DONE_CACHED,
  DONE_FAILED,
} DoneKind;

typedef void (*WorkFunc) (gpointer item,
                          gpointer user_data);

/* smprof-s3-source.c */
void        _smprof_s3_source_progress_bump_locked  (SmprofS3Source *self);
void        _smprof_s3_source_deliver_progress      (SmprofS3Source *self);
void        _smprof_s3_source_set_busy              (SmprofS3Source *self,
                                                     gboolean        busy);
ObjectInfo *_smprof_s3_source_lookup_info_locked    (SmprofS3Source *self,
                                                     const char     *path);
void        _smprof_s3_source_account_wanted_locked (SmprofS3Source *self,
                                                     const char     *path);
void        _smprof_s3_source_account_done          (SmprofS3Source *self,
                                                     const char     *path,
                                                     DoneKind        kind,
                                                     guint64         bytes);
char       *_smprof_s3_source_join_key              (const char     *root,
                                                     const char     *path);
char       *_smprof_s3_source_dup_key               (SmprofS3Source *self,
                                                     const char     *path);

/* smprof-s3-source-listing.c */
gboolean       _smprof_s3_source_is_stats_file (const char      *name);
SmprofS3Found *_smprof_s3_source_list_live     (SmprofS3Source  *self,
                                                gboolean         nodes_only,
                                                char           **root_out,
                                                char           **scope_out,
                                                guint           *depth_out,
                                                GCancellable    *cancellable,
                                                GError         **error);

/* smprof-s3-source-listing-cache.c */
SmprofS3Found *_smprof_s3_found_new         (void);
void           _smprof_s3_found_add         (SmprofS3Found     *found,
                                             const char        *path,
                                             SmprofListingKind  kind,
                                             guint64            size,
                                             const char        *etag);
void           _smprof_s3_found_add_problem (SmprofS3Found     *found,
                                             const char        *path,
                                             const char        *message);
void           _smprof_s3_found_add_failure (SmprofS3Found     *found,
                                             const char        *path,
                                             const char        *message);
gboolean       _smprof_s3_source_list_into  (SmprofS3Source    *self,
                                             gboolean           fresh,
                                             gboolean           nodes_only,
                                             SmprofListing     *listing,
                                             GCancellable      *cancellable,
                                             GError           **error);

/* smprof-s3-source-fetch.c */
void     _smprof_s3_source_run_parallel (GPtrArray           *items,
                                         guint                n_threads,
                                         WorkFunc             func,
                                         gpointer             user_data,
                                         GCancellable        *cancellable);
GBytes  *_smprof_s3_source_load         (SmprofSource        *source,
                                         const char          *path,
                                         GCancellable        *cancellable,
                                         GError             **error);
gboolean _smprof_s3_source_prefetch     (SmprofSource        *source,
                                         const char * const  *paths,
                                         GCancellable        *cancellable,
                                         GError             **error);

G_END_DECLS
