/* smprof-s3-source-listing-cache.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a listing found (SmprofS3Found) and the text form it is cached in
 * (which the fuzz target reads), then how a listing, cached or else live,
 * goes into the index and the source. None of it sends a request. */

#include "config.h"

#include <string.h>

#include "smprof-pevents.h"
#include "smprof-s3-cache.h"
#include "smprof-s3-client.h"
#include "smprof-s3-source-private.h"

#define LISTING_MAGIC "smprof-s3-listing 1"

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

/* The cached listing: a header line, the root and scope, then one line per
 * entry or problem, fields separated by tabs, text escaped. */

static void
append_escaped (GString    *out,
                const char *text)
{
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      if (*p == '%' || *p == '\t' || *p == '\n' || *p == '\r')
        g_string_append_printf (out, "%%%02X", (guchar) *p);
      else
        g_string_append_c (out, *p);
    }
}

static char *
unescape (const char *text)
{
  return g_uri_unescape_string (text, NULL);
}

GBytes *
_smprof_s3_listing_serialize (const char  *root,
                              const char  *scope,
                              guint        depth,
                              Found       *found)
{
  GString *out = g_string_new (LISTING_MAGIC "\n");

  g_string_append (out, "R\t");
  append_escaped (out, root);
  g_string_append_printf (out, "\t%u\t", depth);
  append_escaped (out, scope);
  g_string_append_c (out, '\n');

  for (guint i = 0; i < found->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (found->entries, i);

      g_string_append_printf (out, "%c\t%" G_GUINT64_FORMAT "\t",
                              entry->kind == SMPROF_LISTING_FILE ? 'F' : 'E', entry->size);
      append_escaped (out, entry->etag);
      g_string_append_c (out, '\t');
      append_escaped (out, entry->path);
      g_string_append_c (out, '\n');
    }

  for (guint i = 0; i < found->problems->len; i++)
    {
      Problem *problem = g_ptr_array_index (found->problems, i);

      g_string_append (out, "P\t");
      append_escaped (out, problem->path);
      g_string_append_c (out, '\t');
      append_escaped (out, problem->message);
      g_string_append_c (out, '\n');
    }

  g_string_append (out, "END\n");

  return g_string_free_to_bytes (out);
}

Found *
_smprof_s3_listing_parse (GBytes  *bytes,
                          char   **root,
                          char   **scope,
                          guint   *depth)
{
  g_autoptr(Found) found = _smprof_s3_found_new ();
  gsize length = 0;
  const char *data = g_bytes_get_data (bytes, &length);
  /* an empty GBytes may have no data pointer */
  g_autofree char *text = g_strndup (data != NULL ? data : "", length);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean ended = FALSE;
  guint n = g_strv_length (lines);

  if (n < 3 || strcmp (lines[0], LISTING_MAGIC) != 0)
    return NULL;

  for (guint i = 1; i < n && !ended; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "\t", -1);
      guint n_fields = g_strv_length (fields);

      if (i == 1)
        {
          guint64 value;

          if (n_fields != 4 || strcmp (fields[0], "R") != 0 ||
              !g_ascii_string_to_unsigned (fields[2], 10, 1, 3, &value, NULL) ||
              (*root = unescape (fields[1])) == NULL || (*scope = unescape (fields[3])) == NULL)
            return NULL;
          *depth = (guint) value;
        }
      else if (n_fields == 4 && (strcmp (fields[0], "F") == 0 || strcmp (fields[0], "E") == 0))
        {
          g_autofree char *etag = unescape (fields[2]);
          g_autofree char *path = unescape (fields[3]);
          guint64 size;

          if (etag == NULL || path == NULL || !g_ascii_string_to_unsigned (fields[1], 10, 0, G_MAXUINT64, &size, NULL))
            return NULL;
          _smprof_s3_found_add (found, path, fields[0][0] == 'F' ? SMPROF_LISTING_FILE : SMPROF_LISTING_EMPTY_FOLDER,
                                size, etag[0] != '\0' ? etag : NULL);
        }
      else if (n_fields == 3 && strcmp (fields[0], "P") == 0)
        {
          g_autofree char *path = unescape (fields[1]);
          g_autofree char *message = unescape (fields[2]);

          /* Messages are shown as they are, and the ones written here were
           * all UTF-8: anything else is damage. */
          if (path == NULL || message == NULL || !g_utf8_validate (message, -1, NULL))
            return NULL;
          _smprof_s3_found_add_problem (found, path, message);
        }
      else if (n_fields == 1 && strcmp (fields[0], "END") == 0)
        ended = TRUE;
      else
        return NULL;
    }

  /* a listing cut short is not a listing */
  return ended ? g_steal_pointer (&found) : NULL;
}

static char *
listing_id (SmprofS3Source *self)
{
  return g_strdup_printf ("%s\n%s\n%s", smprof_s3_client_get_endpoint_id (self->client), self->bucket, self->prefix);
}

gboolean
_smprof_s3_source_list_into (SmprofS3Source  *self,
                             SmprofListing   *listing,
                             GCancellable    *cancellable,
                             GError         **error)
{
  g_autoptr(Found) found = NULL;
  g_autofree char *id = listing_id (self);
  g_autofree char *root = NULL;
  g_autofree char *scope = NULL;
  gboolean from_cache = FALSE;
  guint64 bytes = 0;
  guint64 files = 0;
  guint depth = 0;

  if (self->cache != NULL && !g_atomic_int_get (&self->refresh))
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
      found = _smprof_s3_source_list_live (self, &root, &scope, &depth, cancellable, error);
      if (found == NULL)
        return FALSE;

      if (self->cache != NULL && found->complete)
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

  g_hash_table_remove_all (self->objects);
  for (guint i = 0; i < found->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (found->entries, i);
      const char *name = strrchr (entry->path, '/');

      smprof_listing_add (listing, entry->path, entry->kind, entry->size);

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

  /* A new listing may name newer copies: what a failed prefetch said is stale. */
  g_hash_table_remove_all (self->failed);
  self->progress.objects_listed = files;
  self->progress.bytes_listed = bytes;
  self->progress.listing_from_cache = from_cache;
  _smprof_s3_source_progress_bump_locked (self);

  g_mutex_unlock (&self->lock);

  _smprof_s3_source_deliver_progress (self);

  return TRUE;
}
