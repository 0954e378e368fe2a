/* smprof-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-source.h"

G_DEFINE_INTERFACE (SmprofSource, smprof_source, G_TYPE_OBJECT)

static void
smprof_source_default_init (SmprofSourceInterface *iface)
{
}

SmprofProblem *
smprof_problem_new (const char *path,
                    const char *message)
{
  SmprofProblem *problem = g_new0 (SmprofProblem, 1);

  problem->path = g_strdup (path);
  problem->message = g_strdup (message);

  return problem;
}

void
smprof_problem_free (SmprofProblem *problem)
{
  if (problem == NULL)
    return;

  g_free (problem->path);
  g_free (problem->message);
  g_free (problem);
}

static void
listing_entry_free (gpointer data)
{
  SmprofListingEntry *entry = data;

  g_free (entry->path);
  g_free (entry);
}

SmprofListing *
smprof_listing_new (void)
{
  SmprofListing *listing = g_new0 (SmprofListing, 1);

  listing->entries = g_ptr_array_new_with_free_func (listing_entry_free);
  listing->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_problem_free);

  return listing;
}

void
smprof_listing_free (SmprofListing *listing)
{
  if (listing == NULL)
    return;

  g_ptr_array_unref (listing->entries);
  g_ptr_array_unref (listing->problems);
  g_free (listing->incomplete);
  g_free (listing);
}

void
smprof_listing_add (SmprofListing     *listing,
                    const char        *path,
                    SmprofListingKind  kind,
                    guint64            size)
{
  smprof_listing_take_full (listing, g_strdup (path), kind, size, 0);
}

/* smprof_listing_add(), taking @path: listings hold tens of thousands of
 * paths, each made just before it is added. */
void
smprof_listing_take (SmprofListing     *listing,
                     char              *path,
                     SmprofListingKind  kind,
                     guint64            size)
{
  smprof_listing_take_full (listing, path, kind, size, 0);
}

/* smprof_listing_add() with the file's version (SmprofListingEntry.version). */
void
smprof_listing_add_full (SmprofListing     *listing,
                         const char        *path,
                         SmprofListingKind  kind,
                         guint64            size,
                         guint64            version)
{
  smprof_listing_take_full (listing, g_strdup (path), kind, size, version);
}

void
smprof_listing_take_full (SmprofListing     *listing,
                          char              *path,
                          SmprofListingKind  kind,
                          guint64            size,
                          guint64            version)
{
  SmprofListingEntry *entry = g_new (SmprofListingEntry, 1);

  entry->path = path;
  entry->kind = kind;
  entry->size = size;
  entry->version = version;
  g_ptr_array_add (listing->entries, entry);
}

void
smprof_listing_add_problem (SmprofListing *listing,
                            const char    *path,
                            const char    *message)
{
  g_ptr_array_add (listing->problems, smprof_problem_new (path, message));
}

char *
smprof_source_dup_location (SmprofSource *self)
{
  g_return_val_if_fail (SMPROF_IS_SOURCE (self), NULL);

  return SMPROF_SOURCE_GET_IFACE (self)->dup_location (self);
}

char *
smprof_source_dup_file_location (SmprofSource *self,
                                 const char   *path)
{
  g_return_val_if_fail (SMPROF_IS_SOURCE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  return SMPROF_SOURCE_GET_IFACE (self)->dup_file_location (self, path);
}

/**
 * smprof_source_list:
 * @self: a source
 * @options: (nullable): what to list how; %NULL lists everything in full
 * @listing: where to add what is found, and what cannot be read
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Lists the job (see #SmprofListing). Blocks: call it from a worker thread.
 *
 * Returns: %FALSE if the job cannot be listed at all, or on cancellation
 */
gboolean
smprof_source_list (SmprofSource                *self,
                    const SmprofListingOptions  *options,
                    SmprofListing               *listing,
                    GCancellable                *cancellable,
                    GError                     **error)
{
  static const SmprofListingOptions everything = { 0 };

  g_return_val_if_fail (SMPROF_IS_SOURCE (self), FALSE);
  g_return_val_if_fail (listing != NULL, FALSE);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), FALSE);

  return SMPROF_SOURCE_GET_IFACE (self)->list (self, options != NULL ? options : &everything, listing,
                                               cancellable, error);
}

GBytes *
smprof_source_load (SmprofSource  *self,
                    const char    *path,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_return_val_if_fail (SMPROF_IS_SOURCE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  return SMPROF_SOURCE_GET_IFACE (self)->load (self, path, cancellable, error);
}

/**
 * smprof_source_can_prefetch:
 * @self: a source
 *
 * Returns: whether @self fetches batches of files ahead of their reading
 *   (a remote source, where each file costs a request)
 */
gboolean
smprof_source_can_prefetch (SmprofSource *self)
{
  g_return_val_if_fail (SMPROF_IS_SOURCE (self), FALSE);

  return SMPROF_SOURCE_GET_IFACE (self)->prefetch != NULL;
}

/**
 * smprof_source_prefetch:
 * @self: a source
 * @paths: (array zero-terminated=1): files to read soon, relative to the job root
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Lets a source that pays per request (S3) fetch a batch of files in
 * parallel before smprof_source_load() asks for them one by one. Sources
 * without the optional vfunc do nothing here. A file that cannot be fetched
 * is not an error: smprof_source_load() reports it.
 *
 * Returns: %FALSE only if cancelled
 */
gboolean
smprof_source_prefetch (SmprofSource        *self,
                        const char * const  *paths,
                        GCancellable        *cancellable,
                        GError             **error)
{
  SmprofSourceInterface *iface;

  g_return_val_if_fail (SMPROF_IS_SOURCE (self), FALSE);
  g_return_val_if_fail (paths != NULL, FALSE);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), FALSE);

  iface = SMPROF_SOURCE_GET_IFACE (self);
  if (iface->prefetch == NULL)
    return !g_cancellable_set_error_if_cancelled (cancellable, error);

  return iface->prefetch (self, paths, cancellable, error);
}

/**
 * smprof_source_text_is_s3_uri:
 * @text: a SOURCE as a user typed it
 *
 * Here, not with the S3 source, so that a program can tell which source it
 * needs before it loads S3's code (the command line does so on demand).
 *
 * Returns: whether @text is an `s3://` URI
 */
gboolean
smprof_source_text_is_s3_uri (const char *text)
{
  return text != NULL && g_ascii_strncasecmp (text, "s3://", 5) == 0;
}
