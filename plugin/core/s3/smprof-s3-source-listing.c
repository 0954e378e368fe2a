/* smprof-s3-source-listing.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What S3 holds under a job, listed live: the scope the prefix names, the
 * frameworks and profilers, then every node folder in parallel. Kept apart
 * from the object because it is the part that talks ListObjectsV2. */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-pevents.h"
#include "smprof-s3-client.h"
#include "smprof-s3-error.h"
#include "smprof-s3-source-private.h"

#define CPROFILE_FILE "python_stats"
#define PYINSTRUMENT_FILE "python_stats.json"
#define PYINSTRUMENT_HTML "python_stats.html"

/* The listing types of smprof-s3-source-private.h, by their short names. */
typedef SmprofS3Found Found;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Found, _smprof_s3_found_free)

gboolean
_smprof_s3_source_is_stats_file (const char *name)
{
  return strcmp (name, CPROFILE_FILE) == 0 || strcmp (name, PYINSTRUMENT_FILE) == 0;
}

static gboolean
is_profiler_name (const char *name)
{
  return strcmp (name, "cprofile") == 0 || strcmp (name, "pyinstrument") == 0;
}

/* A segment a folder could not have: the index would read "" and ".." as
 * names, and a local copy could not hold them. */
static gboolean
is_odd_segment (const char *segment,
                gsize       length)
{
  return length == 0 || (length == 1 && segment[0] == '.') ||
         (length == 2 && segment[0] == '.' && segment[1] == '.');
}

static gboolean
has_odd_segment (const char *path)
{
  const char *segment = path;

  for (;;)
    {
      const char *slash = strchr (segment, '/');
      gsize length = slash != NULL ? (gsize) (slash - segment) : strlen (segment);

      if (is_odd_segment (segment, length))
        return TRUE;
      if (slash == NULL)
        return FALSE;
      segment = slash + 1;
    }
}

static void
count_page (SmprofS3Source *self)
{
  g_mutex_lock (&self->lock);
  self->progress.list_requests++;
  _smprof_s3_source_progress_bump_locked (self);
  g_mutex_unlock (&self->lock);

  _smprof_s3_source_deliver_progress (self);
}

/* Moves the items of @from (which must not free them) not seen yet into
 * @into, in their order, frees the others with @free_item and counts them in
 * @n_repeated. @seen holds strings of the items @into owns, by @key_of:
 * S3-compatible servers have been seen to repeat a key at the seam of two
 * pages, which would count an interval twice. */
static void
take_unseen (GPtrArray       *into,
             GPtrArray       *from,
             GHashTable      *seen,
             const char    *(*key_of) (gpointer item),
             GDestroyNotify   free_item,
             guint           *n_repeated)
{
  for (guint i = 0; i < from->len; i++)
    {
      gpointer item = g_ptr_array_index (from, i);
      const char *key = key_of (item);

      /* Not g_hash_table_add()'s answer alone: on a repeated key it keeps
       * the new string, which free_item() is about to free. */
      if (!g_hash_table_contains (seen, key))
        {
          g_hash_table_add (seen, (gpointer) key);
          g_ptr_array_add (into, item);
        }
      else
        {
          (*n_repeated)++;
          free_item (item);
        }
    }

  g_ptr_array_set_size (from, 0);
}

static const char *
object_key (gpointer item)
{
  return ((SmprofS3Object *) item)->key;
}

static const char *
prefix_key (gpointer item)
{
  return item;
}

/* Every page of one listing, each key and common prefix once; those a page
 * repeated are counted in @n_repeated. */
static gboolean
list_all (SmprofS3Source  *self,
          const char      *prefix,
          const char      *delimiter,
          GPtrArray       *objects,
          GPtrArray       *prefixes,
          GPtrArray       *bad_keys,
          guint           *n_repeated,
          GCancellable    *cancellable,
          GError         **error)
{
  g_autoptr(GHashTable) tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) seen_keys = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) seen_prefixes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *token = NULL;

  for (;;)
    {
      g_autoptr(SmprofS3ListPage) page = NULL;

      page = smprof_s3_client_list_objects (self->client, self->bucket, prefix, delimiter, token, 0,
                                            cancellable, error);
      if (page == NULL)
        return FALSE;

      count_page (self);

      /* what the page holds is moved out or freed here */
      if (objects != NULL)
        {
          g_ptr_array_set_free_func (page->objects, NULL);
          take_unseen (objects, page->objects, seen_keys, object_key,
                       (GDestroyNotify) smprof_s3_object_free, n_repeated);
        }
      if (prefixes != NULL)
        {
          g_ptr_array_set_free_func (page->prefixes, NULL);
          take_unseen (prefixes, page->prefixes, seen_prefixes, prefix_key, g_free, n_repeated);
        }
      if (bad_keys != NULL)
        g_ptr_array_extend_and_steal (bad_keys, g_steal_pointer (&page->bad_keys));

      if (!page->truncated)
        return TRUE;

      if (page->next_continuation_token == NULL || page->next_continuation_token[0] == '\0')
        {
          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                       _("the listing of s3://%s/%s says there is more but gives no way to get it"),
                       self->bucket, prefix);
          return FALSE;
        }

      /* A token seen before would start a loop that never ends. */
      if (!g_hash_table_add (tokens, g_strdup (page->next_continuation_token)))
        {
          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                       _("the listing of s3://%s/%s loops: S3 gave the same continuation token twice"),
                       self->bucket, prefix);
          return FALSE;
        }

      g_free (token);
      token = g_steal_pointer (&page->next_continuation_token);
    }
}

/* The last segment of a common prefix ("a/b/c/" -> "c"). */
static char *
prefix_name (const char *prefix,
             const char *parent)
{
  const char *name = prefix + strlen (parent);
  gsize length = strlen (name);

  if (length > 0 && name[length - 1] == '/')
    length--;

  return g_strndup (name, length);
}

typedef struct
{
  char   *prefix;      /* the node's key prefix, with its '/' */
  char   *path;        /* the node folder, relative to the job root */
  Found  *found;
  GError *error;
  guint   n_repeated;  /* keys its pages repeated */
} NodeTask;

static void
node_task_free (gpointer data)
{
  NodeTask *task = data;

  g_free (task->prefix);
  g_free (task->path);
  _smprof_s3_found_free (task->found);
  g_clear_error (&task->error);
  g_free (task);
}

typedef struct
{
  SmprofS3Source *self;
  GCancellable   *cancellable;
} ListContext;

typedef struct
{
  gboolean has_stats;
  gboolean has_html;
  guint64  html_size;
  char    *path;
} IntervalSeen;

/* One node: every key under it, in pages, no delimiter (a node holds only
 * interval folders, so a delimiter would cost a request per interval). Only
 * stats files become entries; the HTML twin is listed only for an interval
 * that has nothing else, so the index reports it as it does for a folder. */
static void
list_node (gpointer item,
           gpointer user_data)
{
  NodeTask *task = item;
  ListContext *context = user_data;
  SmprofS3Source *self = context->self;
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autoptr(GPtrArray) bad_keys = g_ptr_array_new_with_free_func (g_free);
  IntervalSeen interval = { 0 };
  gsize prefix_length = strlen (task->prefix);

  task->found = _smprof_s3_found_new ();

  if (!list_all (self, task->prefix, NULL, objects, NULL, bad_keys, &task->n_repeated, context->cancellable,
                 &task->error))
    return;

  for (guint i = 0; i < bad_keys->len; i++)
    _smprof_s3_found_add_problem (task->found, task->path, g_ptr_array_index (bad_keys, i));

  for (guint i = 0; i <= objects->len; i++)
    {
      SmprofS3Object *object = i < objects->len ? g_ptr_array_index (objects, i) : NULL;
      g_auto(GStrv) parts = NULL;
      g_autofree char *relative = NULL;
      g_autofree char *interval_path = NULL;
      gboolean is_file = TRUE;

      if (object != NULL)
        {
          const char *rest = object->key + prefix_length;
          gsize rest_length;
          g_autofree char *trimmed = NULL;

          if (!g_str_has_prefix (object->key, task->prefix) || rest[0] == '\0')
            continue;

          /* "interval/" is a folder marker (the S3 console makes them): it
           * shows the interval exists, and is no file. */
          rest_length = strlen (rest);
          is_file = rest[rest_length - 1] != '/';
          trimmed = g_strndup (rest, is_file ? rest_length : rest_length - 1);

          relative = g_strconcat (task->path, "/", trimmed, NULL);
          if (has_odd_segment (trimmed))
            {
              _smprof_s3_found_add_problem (task->found, relative,
                                            _("the key has an empty, “.” or “..” segment; skipped"));
              continue;
            }

          parts = g_strsplit (trimmed, "/", 3);
          if (parts[1] != NULL || !is_file)
            interval_path = g_strconcat (task->path, "/", parts[0], NULL);
        }

      /* Keys come sorted, so an interval's keys are together: close the
       * previous interval when another one starts. */
      if (interval.path != NULL && g_strcmp0 (interval.path, interval_path) != 0)
        {
          if (!interval.has_stats && interval.has_html)
            {
              g_autofree char *html = g_strconcat (interval.path, "/" PYINSTRUMENT_HTML, NULL);

              _smprof_s3_found_add (task->found, html, SMPROF_LISTING_FILE, interval.html_size, NULL);
            }
          else if (!interval.has_stats)
            _smprof_s3_found_add (task->found, interval.path, SMPROF_LISTING_EMPTY_FOLDER, 0, NULL);
          g_clear_pointer (&interval.path, g_free);
        }

      if (object == NULL)
        break;

      if (interval_path == NULL)
        {
          /* a file where interval folders belong: the index reports it */
          _smprof_s3_found_add (task->found, relative, SMPROF_LISTING_FILE, object->size, NULL);
          continue;
        }

      if (interval.path == NULL)
        interval = (IntervalSeen) { FALSE, FALSE, 0, g_steal_pointer (&interval_path) };

      if (!is_file || parts[1] == NULL || parts[2] != NULL)
        continue;   /* a marker, or below the interval folder: not smdebug's */

      if (_smprof_s3_source_is_stats_file (parts[1]))
        {
          interval.has_stats = TRUE;
          _smprof_s3_found_add (task->found, relative, SMPROF_LISTING_FILE, object->size, object->etag);
        }
      else if (strcmp (parts[1], PYINSTRUMENT_HTML) == 0)
        {
          interval.has_html = TRUE;
          interval.html_size = object->size;
        }
    }

  g_free (interval.path);
}

/* framework/<fw>/<profiler>: its common prefixes are the nodes; keys right
 * in it are stray files. */
static gboolean
collect_nodes (SmprofS3Source  *self,
               const char      *profiler_prefix,
               const char      *profiler_path,
               Found           *found,
               GPtrArray       *tasks,
               guint           *n_repeated,
               GCancellable    *cancellable,
               GError         **error)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autoptr(GPtrArray) prefixes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) bad_keys = g_ptr_array_new_with_free_func (g_free);

  if (!list_all (self, profiler_prefix, "/", objects, prefixes, bad_keys, n_repeated, cancellable, error))
    return FALSE;

  for (guint i = 0; i < bad_keys->len; i++)
    _smprof_s3_found_add_problem (found, profiler_path, g_ptr_array_index (bad_keys, i));

  for (guint i = 0; i < objects->len; i++)
    {
      SmprofS3Object *object = g_ptr_array_index (objects, i);
      g_autofree char *name = prefix_name (object->key, profiler_prefix);
      g_autofree char *path = g_strconcat (profiler_path, "/", name, NULL);

      if (!is_odd_segment (name, strlen (name)))
        _smprof_s3_found_add (found, path, SMPROF_LISTING_FILE, object->size, NULL);
    }

  for (guint i = 0; i < prefixes->len; i++)
    {
      const char *prefix = g_ptr_array_index (prefixes, i);
      g_autofree char *name = prefix_name (prefix, profiler_prefix);
      NodeTask *task;

      if (is_odd_segment (name, strlen (name)))
        {
          g_autofree char *path = g_strconcat (profiler_path, "/", name, NULL);

          _smprof_s3_found_add_problem (found, path, _("the key has an empty, “.” or “..” segment; skipped"));
          continue;
        }

      task = g_new0 (NodeTask, 1);
      task->prefix = g_strdup (prefix);
      task->path = g_strconcat (profiler_path, "/", name, NULL);
      g_ptr_array_add (tasks, task);
    }

  return TRUE;
}

/* framework/pevents/: the framework timelines, `<hour>/<ts>_<node>_pythontimeline.json`
 * only, in one listing without a delimiter (a folder per hour would cost a
 * request each). The other trace files there are not kept. */
static gboolean
list_pevents (SmprofS3Source  *self,
              const char      *root,
              Found           *found,
              guint           *n_repeated,
              GCancellable    *cancellable,
              GError         **error)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autofree char *prefix = _smprof_s3_source_join_key (root, "framework/pevents/");
  gsize prefix_length = strlen (prefix);

  if (!list_all (self, prefix, NULL, objects, NULL, NULL, n_repeated, cancellable, error))
    return FALSE;

  for (guint i = 0; i < objects->len; i++)
    {
      SmprofS3Object *object = g_ptr_array_index (objects, i);
      g_autofree char *relative = NULL;

      if (!g_str_has_prefix (object->key, prefix) || has_odd_segment (object->key + prefix_length))
        continue;

      relative = g_strconcat ("framework/pevents/", object->key + prefix_length, NULL);
      if (smprof_pevents_is_timeline_path (relative))
        _smprof_s3_found_add (found, relative, SMPROF_LISTING_FILE, object->size, object->etag);
    }

  return TRUE;
}

/* The folders of @prefix (a "…/" prefix), by name. */
static GPtrArray *
list_folder_names (SmprofS3Source  *self,
                   const char      *prefix,
                   gboolean        *empty,
                   guint           *n_repeated,
                   GCancellable    *cancellable,
                   GError         **error)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  g_autoptr(GPtrArray) prefixes = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *names;

  if (!list_all (self, prefix, "/", objects, prefixes, NULL, n_repeated, cancellable, error))
    return NULL;

  if (empty != NULL)
    *empty = objects->len == 0 && prefixes->len == 0;

  names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < prefixes->len; i++)
    {
      char *name = prefix_name (g_ptr_array_index (prefixes, i), prefix);

      if (is_odd_segment (name, strlen (name)))
        g_free (name);
      else
        g_ptr_array_add (names, name);
    }

  return names;
}

/* Which level the prefix names: a prefix ending in framework,
 * framework/<fw> or framework/<fw>/<profiler> is below the job root, unless
 * the job itself has a framework/ (a job could be named "framework"). */
static gboolean
resolve_scope (SmprofS3Source  *self,
               char           **root,
               char           **scope,
               guint           *depth,
               GCancellable    *cancellable,
               GError         **error)
{
  g_auto(GStrv) segments = g_strsplit (self->prefix, "/", -1);
  guint n = self->prefix[0] != '\0' ? g_strv_length (segments) : 0;
  guint candidate = 0;

  for (guint d = 1; d <= 3 && d <= n; d++)
    if (strcmp (segments[n - d], "framework") == 0)
      {
        candidate = d;
        break;
      }

  if (candidate > 0)
    {
      g_autofree char *probe = _smprof_s3_source_join_key (self->prefix, "framework/");
      g_autoptr(SmprofS3ListPage) page = NULL;

      page = smprof_s3_client_list_objects (self->client, self->bucket, probe, "/", NULL, 1, cancellable, error);
      if (page == NULL)
        return FALSE;
      if (page->objects->len > 0 || page->prefixes->len > 0)
        candidate = 0;
    }

  if (candidate == 0)
    {
      *root = g_strdup (self->prefix);
      *scope = g_strdup ("framework");
      *depth = 1;
      return TRUE;
    }

  {
    g_autofree char *root_part = NULL;
    g_autofree char *scope_part = NULL;
    char *saved = segments[n - candidate];

    segments[n - candidate] = NULL;
    root_part = g_strjoinv ("/", segments);
    segments[n - candidate] = saved;
    scope_part = g_strjoinv ("/", segments + (n - candidate));

    *root = g_steal_pointer (&root_part);
    *scope = g_steal_pointer (&scope_part);
    *depth = candidate;
  }

  return TRUE;
}

static GError *
not_a_job_error (SmprofS3Source *self,
                 const char     *root)
{
  return g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                      _("“s3://%s/%s” is not a SageMaker Debugger profiler output: there is nothing "
                        "under %s%sframework/"),
                      self->bucket, self->prefix, root, root[0] != '\0' ? "/" : "");
}

/* With @nodes_only (SmprofListingOptions.nodes_only), the node folders are
 * the common prefixes of their profiler folder, listed by name: no request
 * per node, none for the timelines. A scope that names a folder of another
 * name than a profiler's is listed in full. */
Found *
_smprof_s3_source_list_live (SmprofS3Source  *self,
                             gboolean         nodes_only,
                             char           **root_out,
                             char           **scope_out,
                             guint           *depth_out,
                             GCancellable    *cancellable,
                             GError         **error)
{
  g_autoptr(Found) found = _smprof_s3_found_new ();
  g_autoptr(GPtrArray) tasks = g_ptr_array_new_with_free_func (node_task_free);
  g_autoptr(GPtrArray) profilers = g_ptr_array_new_with_free_func (g_free);   /* paths */
  g_autofree char *root = NULL;
  g_autofree char *scope = NULL;
  guint depth = 0;
  guint n_repeated = 0;
  ListContext context = { self, cancellable };

  if (!resolve_scope (self, &root, &scope, &depth, cancellable, error))
    return NULL;

  if (depth == 3 && !is_profiler_name (strrchr (scope, '/') + 1))
    nodes_only = FALSE;

  if (depth == 3)
    g_ptr_array_add (profilers, g_strdup (scope));
  else
    {
      g_autoptr(GPtrArray) frameworks = g_ptr_array_new_with_free_func (g_free);   /* paths */

      if (depth == 2)
        g_ptr_array_add (frameworks, g_strdup (scope));
      else
        {
          g_autofree char *prefix = _smprof_s3_source_join_key (root, "framework/");
          g_autoptr(GPtrArray) names = NULL;
          gboolean empty = TRUE;

          names = list_folder_names (self, prefix, &empty, &n_repeated, cancellable, error);
          if (names == NULL)
            return NULL;
          if (empty)
            {
              g_propagate_error (error, not_a_job_error (self, root));
              return NULL;
            }
          for (guint i = 0; i < names->len; i++)
            {
              const char *name = g_ptr_array_index (names, i);

              /* Optional: a job without it, or where it cannot be listed,
               * loads all the same. */
              if (strcmp (name, "pevents") == 0)
                {
                  g_autoptr(GError) local_error = NULL;

                  /* no node folders there */
                  if (nodes_only)
                    continue;
                  if (!list_pevents (self, root, found, &n_repeated, cancellable, &local_error))
                    {
                      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                        {
                          g_propagate_error (error, g_steal_pointer (&local_error));
                          return NULL;
                        }
                      _smprof_s3_found_add_failure (found, "framework/pevents", local_error->message);
                    }
                  continue;
                }

              g_ptr_array_add (frameworks, g_strconcat ("framework/", name, NULL));
            }
        }

      for (guint i = 0; i < frameworks->len; i++)
        {
          const char *framework = g_ptr_array_index (frameworks, i);
          g_autofree char *relative = g_strconcat (framework, "/", NULL);
          g_autofree char *prefix = _smprof_s3_source_join_key (root, relative);
          g_autoptr(GPtrArray) names = NULL;
          g_autoptr(GError) local_error = NULL;
          gboolean empty = TRUE;

          names = list_folder_names (self, prefix, &empty, &n_repeated, cancellable, &local_error);
          if (names == NULL)
            {
              if (depth == 2 || g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&local_error));
                  return NULL;
                }
              _smprof_s3_found_add_failure (found, framework, local_error->message);
              continue;
            }
          if (depth == 2 && empty)
            {
              g_propagate_error (error, not_a_job_error (self, root));
              return NULL;
            }

          for (guint j = 0; j < names->len; j++)
            if (is_profiler_name (g_ptr_array_index (names, j)))
              g_ptr_array_add (profilers, g_strconcat (framework, "/", (char *) g_ptr_array_index (names, j), NULL));
        }
    }

  for (guint i = 0; i < profilers->len; i++)
    {
      const char *profiler = g_ptr_array_index (profilers, i);
      g_autofree char *relative = g_strconcat (profiler, "/", NULL);
      g_autofree char *prefix = _smprof_s3_source_join_key (root, relative);
      g_autoptr(GError) local_error = NULL;
      guint before = tasks->len;

      if (!collect_nodes (self, prefix, profiler, found, tasks, &n_repeated, cancellable, &local_error))
        {
          if (depth == 3 || g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }
          _smprof_s3_found_add_failure (found, profiler, local_error->message);
        }
      else if (depth == 3 && tasks->len == before && found->entries->len == 0)
        {
          g_propagate_error (error, not_a_job_error (self, root));
          return NULL;
        }
    }

  /* The nodes, by name or in parallel over the connection pool. */
  if (nodes_only)
    for (guint i = 0; i < tasks->len; i++)
      {
        NodeTask *task = g_ptr_array_index (tasks, i);

        task->found = _smprof_s3_found_new ();
        _smprof_s3_found_add (task->found, task->path, SMPROF_LISTING_FOLDER, 0, NULL);
      }
  else
    _smprof_s3_source_run_parallel (tasks, smprof_s3_client_get_max_connections (self->client),
                                    list_node, &context, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  for (guint i = 0; i < tasks->len; i++)
    {
      NodeTask *task = g_ptr_array_index (tasks, i);

      n_repeated += task->n_repeated;
      if (task->error != NULL)
        {
          _smprof_s3_found_add_failure (found, task->path, task->error->message);
          continue;
        }

      g_ptr_array_extend_and_steal (found->entries, g_steal_pointer (&task->found->entries));
      g_ptr_array_extend_and_steal (found->problems, g_steal_pointer (&task->found->problems));
      task->found->entries = g_ptr_array_new ();
      task->found->problems = g_ptr_array_new ();
    }

  /* Said once for the whole listing, at the scope listed. */
  if (n_repeated > 0)
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "the S3 listing repeated %u key across its pages; each key "
                                              "was counted once",
                                              "the S3 listing repeated %u keys across its pages; each key "
                                              "was counted once",
                                              n_repeated),
                                 n_repeated);
      _smprof_s3_found_add_problem (found, scope, message);
    }

  *root_out = g_steal_pointer (&root);
  *scope_out = g_steal_pointer (&scope);
  *depth_out = depth;

  return g_steal_pointer (&found);
}
