/* smprof-source.h: where a job's files come from (a local folder, an S3 prefix)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * SmprofProblem:
 * @path: the file or folder, relative to the job root
 * @message: what is wrong with it, for a person
 *
 * Something in a job that was skipped. Problems never stop a job from loading.
 */
typedef struct
{
  char *path;
  char *message;
} SmprofProblem;

SmprofProblem *smprof_problem_new  (const char    *path,
                                    const char    *message);
void           smprof_problem_free (SmprofProblem *problem);

typedef enum
{
  SMPROF_LISTING_FILE,
  SMPROF_LISTING_EMPTY_FOLDER,
  SMPROF_LISTING_FOLDER,
} SmprofListingKind;

/**
 * SmprofListingEntry:
 * @path: relative to the job root, '/'-separated
 * @kind: what it is
 * @size: a file's size
 * @version: a number that changes when the file's contents do (a local
 *   file's times and inode, an S3 object's ETag), 0 when the source cannot
 *   tell; a live refresh reads a file again when it changes
 */
typedef struct
{
  char              *path;
  SmprofListingKind  kind;
  guint64            size;
  guint64            version;
} SmprofListingEntry;

/**
 * SmprofListingOptions:
 * @stats_only: the caller needs nothing else from an interval folder that
 *   holds a stats file (`python_stats`, `python_stats.json`): a source may
 *   then list its stats files alone, without reading the folder, which
 *   halves the cost of listing a local job. Folders without one are listed
 *   in full.
 * @names_only: node folders are listed by the names of their interval
 *   folders alone (%SMPROF_LISTING_FOLDER entries, nothing looked up inside
 *   them), except those in @full_nodes. A source may ignore it and list
 *   everything; the job index then sees no %SMPROF_LISTING_FOLDER entry.
 * @full_nodes: (nullable): with @names_only, the node folders (paths relative
 *   to the job root, as a set) to list in full all the same
 * @full_nodes_only: with @names_only, the node folders not in @full_nodes are
 *   left out altogether, not even read for their names (a query on named
 *   nodes needs nothing of the others). A source may ignore it; the job
 *   index then sees the others' entries too.
 * @names_cache: (nullable): with @names_only, a table the caller owns (node
 *   folder path to #SmprofListing, freed with smprof_listing_free()) where a
 *   source may keep what it listed by name, to copy it from there when the
 *   caller lists again with the same table and more @full_nodes
 * @fresh: the listing must be of the job as it is now (a live refresh): a
 *   source that keeps listings (S3's cache) lists anew
 * @nodes_only: the node folders of the profiler folders (`cprofile`,
 *   `pyinstrument`) are listed by name alone (a %SMPROF_LISTING_FOLDER entry
 *   `framework/<framework>/<profiler>/<node>` each), nothing looked up inside
 *   them, and the framework timelines are left out; other options then
 *   matter only where the source lists more. A source may ignore it and list
 *   everything.
 *
 * What a caller asks of smprof_source_list(). All zero (or %NULL options):
 * everything, in full.
 */
typedef struct
{
  gboolean    stats_only;
  gboolean    names_only;
  GHashTable *full_nodes;
  GHashTable *names_cache;
  gboolean    fresh;
  gboolean    nodes_only;
  gboolean    full_nodes_only;
} SmprofListingOptions;

/**
 * SmprofListing:
 * @entries: (element-type SmprofListingEntry): what was found
 * @problems: (element-type SmprofProblem): what could not be read
 * @incomplete: (nullable): set by the source when a part of the job could
 *   not be listed for a reason that may pass (S3 failing a request): what
 *   failed, for a person; a problem names it too
 *
 * What a source found below `framework/`: every file in node and interval
 * folders, interval folders without files (and folders listed by name, as
 * #SmprofListingOptions asked), and what it could not read.
 * Listing the whole job, it also gives smdebug's framework timelines,
 * `framework/pevents/<hour>/<ts>_<node>_pythontimeline.json` (only those:
 * the other trace files of that folder are left out).
 */
typedef struct
{
  GPtrArray *entries;    /* SmprofListingEntry */
  GPtrArray *problems;   /* SmprofProblem */
  char      *incomplete;
} SmprofListing;

SmprofListing *smprof_listing_new         (void);
void           smprof_listing_free        (SmprofListing     *listing);
void           smprof_listing_add         (SmprofListing     *listing,
                                           const char        *path,
                                           SmprofListingKind  kind,
                                           guint64            size);
void           smprof_listing_take        (SmprofListing     *listing,
                                           char              *path,
                                           SmprofListingKind  kind,
                                           guint64            size);
void           smprof_listing_add_full    (SmprofListing     *listing,
                                           const char        *path,
                                           SmprofListingKind  kind,
                                           guint64            size,
                                           guint64            version);
void           smprof_listing_take_full   (SmprofListing     *listing,
                                           char              *path,
                                           SmprofListingKind  kind,
                                           guint64            size,
                                           guint64            version);
void           smprof_listing_add_problem (SmprofListing     *listing,
                                           const char        *path,
                                           const char        *message);

#define SMPROF_TYPE_SOURCE (smprof_source_get_type ())

G_DECLARE_INTERFACE (SmprofSource, smprof_source, SMPROF, SOURCE, GObject)

/**
 * SmprofSourceInterface:
 * @dup_location: the job root as a user would name it (a path, an s3:// URI)
 * @dup_file_location: where one file of the job lives, as a user would name it
 * @list: fills a listing as the options ask (never %NULL here); called from
 *   a worker thread
 * @load: reads one file; called from worker threads, concurrently
 * @prefetch: optional: makes many files quick to load, in parallel as the
 *   source sees fit (a remote source downloads them over its connection
 *   pool); failures are left for @load to report
 *
 * The small seam every job reader goes through, so that a local folder and an
 * S3 prefix look the same to the index.
 */
struct _SmprofSourceInterface
{
  GTypeInterface parent_iface;

  char     *(*dup_location)      (SmprofSource   *self);
  char     *(*dup_file_location) (SmprofSource   *self,
                                  const char     *path);
  gboolean  (*list)              (SmprofSource               *self,
                                  const SmprofListingOptions *options,
                                  SmprofListing              *listing,
                                  GCancellable               *cancellable,
                                  GError                    **error);
  GBytes   *(*load)              (SmprofSource   *self,
                                  const char     *path,
                                  GCancellable   *cancellable,
                                  GError        **error);
  gboolean  (*prefetch)          (SmprofSource        *self,
                                  const char * const  *paths,
                                  GCancellable        *cancellable,
                                  GError             **error);
};

char     *smprof_source_dup_location      (SmprofSource                *self);
char     *smprof_source_dup_file_location (SmprofSource                *self,
                                           const char                  *path);
gboolean  smprof_source_list              (SmprofSource                *self,
                                           const SmprofListingOptions  *options,
                                           SmprofListing               *listing,
                                           GCancellable                *cancellable,
                                           GError                     **error);
GBytes   *smprof_source_load              (SmprofSource                *self,
                                           const char                  *path,
                                           GCancellable                *cancellable,
                                           GError                     **error);
gboolean  smprof_source_can_prefetch      (SmprofSource                *self);
gboolean  smprof_source_prefetch          (SmprofSource                *self,
                                           const char * const          *paths,
                                           GCancellable                *cancellable,
                                           GError                     **error);

gboolean  smprof_source_text_is_s3_uri    (const char                  *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofListing, smprof_listing_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SmprofProblem, smprof_problem_free)

G_END_DECLS
