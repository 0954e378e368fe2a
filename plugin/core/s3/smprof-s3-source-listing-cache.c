/* smprof-s3-source-listing-cache.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a listing found (SmprofS3Found) and the form it is cached in (which
 * the fuzz target reads), then how a listing, cached or else live,
 * goes into the index and the source. None of it sends a request. */

#include "config.h"

#include <string.h>

#include "smprof-pevents.h"
#include "smprof-s3-cache.h"
#include "smprof-s3-client.h"
#include "smprof-s3-source-private.h"

/* The listing types of smprof-s3-source-private.h, by their short names. */
typedef SmprofS3FoundEntry Entry;
typedef SmprofS3FoundProblem Problem;
typedef SmprofS3Found Found;

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->path);
  g_free (entry->etag);
  g_free (entry);
}

static void
problem_free (gpointer data)
{
  Problem *problem = data;

  g_free (problem->path);
  g_free (problem->message);
  g_free (problem);
}

Found *
_smprof_s3_found_new (void)
{
  Found *found = g_new0 (Found, 1);

  found->entries = g_ptr_array_new_with_free_func (entry_free);
  found->problems = g_ptr_array_new_with_free_func (problem_free);
  found->complete = TRUE;

  return found;
}

void
_smprof_s3_found_free (Found *found)
{
  if (found == NULL)
    return;

  g_ptr_array_unref (found->entries);
  g_ptr_array_unref (found->problems);
  g_free (found->incomplete);
  g_free (found);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Found, _smprof_s3_found_free)

void
_smprof_s3_found_add (Found             *found,
                      const char        *path,
                      SmprofListingKind  kind,
                      guint64            size,
                      const char        *etag)
{
  Entry *entry = g_new0 (Entry, 1);

  entry->path = g_strdup (path);
  entry->kind = kind;
  entry->size = size;
  entry->etag = g_strdup (etag);
  g_ptr_array_add (found->entries, entry);
}

/* A problem that leaves the listing incomplete: a request that failed. */
void
_smprof_s3_found_add_failure (Found      *found,
                              const char *path,
                              const char *message)
{
  _smprof_s3_found_add_problem (found, path, message);
  if (found->incomplete == NULL)
    found->incomplete = g_strdup_printf ("%s: %s", path, message);
  found->complete = FALSE;
}

void
_smprof_s3_found_add_problem (Found      *found,
                              const char *path,
                              const char *message)
{
  Problem *problem = g_new0 (Problem, 1);

  problem->path = g_strdup (path);
  problem->message = g_strdup (message);
  g_ptr_array_add (found->problems, problem);
}

/* The cached listing: a magic line, the SHA-256 of what follows, then one
 * GVariant in normal form: (root, depth, scope, entries, problems), each
 * entry (kind, size, ETag, path), each problem (path, message). Paths, root,
 * scope and ETags are bytestrings, since keys need not be UTF-8; messages are
 * text. A file that is cut, edited or of another version reads as no
 * listing, and the job is listed again. */

#define LISTING_MAGIC "smprof-s3-listing 2\n"
#define LISTING_TYPE G_VARIANT_TYPE ("(ayuaya(ytayay)a(ays))")
#define SHA256_LENGTH 32

static GVariant *
new_bytestring (const char *text)
{
  return g_variant_new_bytestring (text != NULL ? text : "");
}

/* A bytestring ("ay" ending in its only NUL), as a string. */
static char *
dup_bytestring (GVariant *value)
{
  gsize length = 0;
  const char *data = g_variant_get_fixed_array (value, &length, 1);

  if (length == 0 || data[length - 1] != '\0' || memchr (data, '\0', length - 1) != NULL)
    return NULL;

  return g_strndup (data, length - 1);
}

GBytes *
_smprof_s3_listing_serialize (const char  *root,
                              const char  *scope,
                              guint        depth,
                              Found       *found)
{
  g_autoptr(GVariant) listing = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  GVariantBuilder entries;
  GVariantBuilder problems;
  GString *out = g_string_new (LISTING_MAGIC);
  guint8 digest[SHA256_LENGTH];
  gsize digest_length = sizeof digest;
  gsize length;
  const guint8 *data;

  g_variant_builder_init (&entries, G_VARIANT_TYPE ("a(ytayay)"));
  for (guint i = 0; i < found->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (found->entries, i);

      g_variant_builder_add (&entries, "(yt@ay@ay)",
                             entry->kind == SMPROF_LISTING_FILE ? 'F' : 'E', entry->size,
                             new_bytestring (entry->etag), new_bytestring (entry->path));
    }

  g_variant_builder_init (&problems, G_VARIANT_TYPE ("a(ays)"));
  for (guint i = 0; i < found->problems->len; i++)
    {
      Problem *problem = g_ptr_array_index (found->problems, i);
      /* shown as they are: text, whatever bytes a key put in them */
      g_autofree char *message = g_utf8_make_valid (problem->message, -1);

      g_variant_builder_add (&problems, "(@ays)", new_bytestring (problem->path), message);
    }

  listing = g_variant_ref_sink (g_variant_new ("(@ayu@ay@a(ytayay)@a(ays))",
                                               new_bytestring (root), depth, new_bytestring (scope),
                                               g_variant_builder_end (&entries),
                                               g_variant_builder_end (&problems)));
  data = g_variant_get_data (listing);
  length = g_variant_get_size (listing);

  g_checksum_update (checksum, data, length);
  g_checksum_get_digest (checksum, digest, &digest_length);
  g_string_append_len (out, (const char *) digest, SHA256_LENGTH);
  g_string_append_len (out, (const char *) data, length);

  return g_string_free_to_bytes (out);
}

Found *
_smprof_s3_listing_parse (GBytes  *bytes,
                          char   **root,
                          char   **scope,
                          guint   *depth)
{
  g_autoptr(Found) found = _smprof_s3_found_new ();
  g_autoptr(GVariant) listing = NULL;
  g_autoptr(GVariant) root_value = NULL;
  g_autoptr(GVariant) scope_value = NULL;
  g_autoptr(GVariant) entries = NULL;
  g_autoptr(GVariant) problems = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *root_text = NULL;
  g_autofree char *scope_text = NULL;
  guint8 digest[SHA256_LENGTH];
  gsize digest_length = sizeof digest;
  gsize header = strlen (LISTING_MAGIC) + SHA256_LENGTH;
  gsize length = 0;
  const guint8 *data = g_bytes_get_data (bytes, &length);
  guint32 depth_value;

  if (length < header || memcmp (data, LISTING_MAGIC, strlen (LISTING_MAGIC)) != 0)
    return NULL;

  /* The checksum first: a listing with one entry less, one more, or one
   * changed is all still in normal form. */
  g_checksum_update (checksum, data + header, length - header);
  g_checksum_get_digest (checksum, digest, &digest_length);
  if (memcmp (digest, data + strlen (LISTING_MAGIC), SHA256_LENGTH) != 0)
    return NULL;

  /* a copy: GVariant wants its data aligned */
  body = g_bytes_new (data + header, length - header);
  listing = g_variant_ref_sink (g_variant_new_from_bytes (LISTING_TYPE, body, FALSE));
  if (!g_variant_is_normal_form (listing))
    return NULL;

  g_variant_get (listing, "(@ayu@ay@a(ytayay)@a(ays))", &root_value, &depth_value, &scope_value,
                 &entries, &problems);
  root_text = dup_bytestring (root_value);
  scope_text = dup_bytestring (scope_value);
  if (root_text == NULL || scope_text == NULL || depth_value < 1 || depth_value > 3)
    return NULL;

  for (gsize i = 0, n = g_variant_n_children (entries); i < n; i++)
    {
      g_autoptr(GVariant) etag_value = NULL;
      g_autoptr(GVariant) path_value = NULL;
      g_autofree char *etag = NULL;
      g_autofree char *path = NULL;
      guint8 kind;
      guint64 size;

      g_variant_get_child (entries, i, "(yt@ay@ay)", &kind, &size, &etag_value, &path_value);
      etag = dup_bytestring (etag_value);
      path = dup_bytestring (path_value);
      if (etag == NULL || path == NULL || (kind != 'F' && kind != 'E'))
        return NULL;
      _smprof_s3_found_add (found, path, kind == 'F' ? SMPROF_LISTING_FILE : SMPROF_LISTING_EMPTY_FOLDER,
                            size, etag[0] != '\0' ? etag : NULL);
    }

  for (gsize i = 0, n = g_variant_n_children (problems); i < n; i++)
    {
      g_autoptr(GVariant) path_value = NULL;
      g_autofree char *path = NULL;
      const char *message = NULL;

      g_variant_get_child (problems, i, "(@ay&s)", &path_value, &message);
      path = dup_bytestring (path_value);
      if (path == NULL)
        return NULL;
      _smprof_s3_found_add_problem (found, path, message);
    }

  *root = g_steal_pointer (&root_text);
  *scope = g_steal_pointer (&scope_text);
  *depth = depth_value;

  return g_steal_pointer (&found);
}

/* An object's version (SmprofListingEntry.version): its ETag, hashed
 * (FNV-1a); 0, "unknown", without one. */
static guint64
etag_version (const char *etag)
{
  guint64 hash = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  if (etag == NULL || etag[0] == '\0')
    return 0;

  for (const guchar *p = (const guchar *) etag; *p != '\0'; p++)
    hash = (hash ^ *p) * G_GUINT64_CONSTANT (0x100000001b3);

  return hash != 0 ? hash : 1;
}

static char *
listing_id (SmprofS3Source *self)
{
  return g_strdup_printf ("%s\n%s\n%s", smprof_s3_client_get_endpoint_id (self->client), self->bucket, self->prefix);
}

gboolean
_smprof_s3_source_list_into (SmprofS3Source  *self,
                             gboolean         fresh,
                             gboolean         nodes_only,
                             SmprofListing   *listing,
                             GCancellable    *cancellable,
                             GError         **error)
{
  g_autoptr(Found) found = NULL;
  g_autofree char *id = listing_id (self);
  g_autofree char *root = NULL;
  g_autofree char *scope = NULL;
  gboolean from_cache = FALSE;
  gboolean by_name = FALSE;
  guint64 bytes = 0;
  guint64 files = 0;
  guint depth = 0;

  if (self->cache != NULL && !g_atomic_int_get (&self->refresh) && !fresh)
    {
      g_autoptr(GBytes) cached = smprof_s3_cache_lookup_listing (self->cache, id);

      if (cached != NULL)
        found = _smprof_s3_listing_parse (cached, &root, &scope, &depth);
      if (found == NULL)
        {
          g_clear_pointer (&root, g_free);
          g_clear_pointer (&scope, g_free);
        }
      from_cache = found != NULL;
    }

  if (found == NULL)
    {
      /* A cached listing answers for node folders by name too; a live one
       * asks for their names alone, and is no listing of the job to keep. */
      found = _smprof_s3_source_list_live (self, nodes_only, &root, &scope, &depth, cancellable, error);
      if (found == NULL)
        return FALSE;
      by_name = nodes_only;

      if (self->cache != NULL && found->complete && !by_name)
        {
          g_autoptr(GBytes) serialized = _smprof_s3_listing_serialize (root, scope, depth, found);
          g_autoptr(GError) local_error = NULL;

          if (!smprof_s3_cache_store_listing (self->cache, id, serialized, &local_error))
            g_debug ("cannot cache the listing of s3://%s/%s: %s", self->bucket, self->prefix, local_error->message);
        }
    }

  g_mutex_lock (&self->lock);

  g_free (self->root);
  self->root = g_steal_pointer (&root);
  g_free (self->scope);
  self->scope = g_steal_pointer (&scope);
  self->depth = depth;
  self->resolved = TRUE;

  /* Listed by name, no object is: those known stay the last full listing's. */
  if (!by_name)
    g_hash_table_remove_all (self->objects);
  for (guint i = 0; i < found->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (found->entries, i);
      const char *name = strrchr (entry->path, '/');

      smprof_listing_add_full (listing, entry->path, entry->kind, entry->size, etag_version (entry->etag));
      if (by_name)
        continue;

      /* Timelines are fetched like stats files (the ETag keeps the cache
       * honest), but the progress counts stats files only. */
      if (entry->kind == SMPROF_LISTING_FILE && smprof_pevents_is_timeline_path (entry->path))
        {
          ObjectInfo *info = g_new0 (ObjectInfo, 1);

          info->etag = g_strdup (entry->etag);
          info->size = entry->size;
          g_hash_table_replace (self->objects, g_strdup (entry->path), info);
        }
      else if (entry->kind == SMPROF_LISTING_FILE && name != NULL && _smprof_s3_source_is_stats_file (name + 1))
        {
          ObjectInfo *info = g_new0 (ObjectInfo, 1);

          info->etag = g_strdup (entry->etag);
          info->size = entry->size;
          g_hash_table_replace (self->objects, g_strdup (entry->path), info);
          files++;
          bytes += entry->size;
        }
    }

  for (guint i = 0; i < found->problems->len; i++)
    {
      Problem *problem = g_ptr_array_index (found->problems, i);

      smprof_listing_add_problem (listing, problem->path, problem->message);
    }
  if (found->incomplete != NULL)
    {
      g_free (listing->incomplete);
      listing->incomplete = g_strdup (found->incomplete);
    }

  /* A new listing may name newer copies: what a failed prefetch said is stale. */
  if (!by_name)
    {
      g_hash_table_remove_all (self->failed);
      self->progress.objects_listed = files;
      self->progress.bytes_listed = bytes;
      self->progress.listing_from_cache = from_cache;
    }
  _smprof_s3_source_progress_bump_locked (self);

  g_mutex_unlock (&self->lock);

  _smprof_s3_source_deliver_progress (self);

  return TRUE;
}
