/* s3-fake-bucket.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "s3-fake-bucket.h"
#include "s3-fake-server.h"

struct _FakeBucket
{
  GMutex      lock;          /* the server answers in its own thread */
  GTree      *objects;       /* key -> GBytes */
  GHashTable *failing;       /* keys that always answer 500 */
  guint       page_size;     /* keys per listing page unless max-keys says */
  guint       n_lists;
  guint       n_gets;
  GHashTable *gets;          /* key -> count */
  GPtrArray  *get_log;       /* keys, in the order GETs were answered */
  gulong      get_delay_us;  /* each GetObject answers this late */
  gboolean    repeat_seams;  /* each page starts with the last entry of the one before */
  GHashTable *failing_lists; /* prefix -> listings of it still to answer 503 */
  GHashTable *looping_lists; /* prefixes whose continuation tokens go round */
  GHashTable *cut_bodies;    /* key -> GETs still to answer with half the body */
  gboolean    cut_closes;    /* ... saying "Connection: close" */
  GHashTable *short_lengths; /* key -> GETs still to answer with a Content-Length of half */
  gboolean    etag_differs;  /* GETs answer another ETag than listings give */
  FakeServer *server;
};

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_uri_escape_string (text, "/", FALSE);
  g_autofree char *xml = g_markup_escape_text (escaped, -1);

  g_string_append (out, xml);
}

static void
list_objects (FakeBucket        *bucket,
              SoupServerMessage *message,
              GHashTable        *params)
{
  const char *prefix = g_hash_table_lookup (params, "prefix");
  const char *delimiter = g_hash_table_lookup (params, "delimiter");
  const char *token = g_hash_table_lookup (params, "continuation-token");
  const char *max_text = g_hash_table_lookup (params, "max-keys");
  guint max = max_text != NULL ? (guint) g_ascii_strtoull (max_text, NULL, 10) : bucket->page_size;
  guint start = token != NULL ? (guint) g_ascii_strtoull (token, NULL, 10) : 0;
  gboolean looping = g_hash_table_contains (bucket->looping_lists, prefix != NULL ? prefix : "");
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GString) out = g_string_new ("<?xml version=\"1.0\"?><ListBucketResult>");
  g_autofree char *last_prefix = NULL;
  guint count = 0;
  guint i;

  if (prefix == NULL)
    prefix = "";

  {
    guint left = GPOINTER_TO_UINT (g_hash_table_lookup (bucket->failing_lists, prefix));

    if (left > 0)
      {
        if (left != G_MAXUINT)
          g_hash_table_replace (bucket->failing_lists, g_strdup (prefix), GUINT_TO_POINTER (left - 1));
        fake_server_respond (message, 503, "<Error><Code>ServiceUnavailable</Code>"
                                           "<Message>Please reduce your request rate.</Message></Error>");
        return;
      }
  }

  /* The seam of two pages: the entry before the token, once more. */
  if (bucket->repeat_seams && start > 0)
    start--;

  {
    GTreeNode *node;

    for (node = g_tree_node_first (bucket->objects); node != NULL; node = g_tree_node_next (node))
      if (g_str_has_prefix (g_tree_node_key (node), prefix))
        g_ptr_array_add (keys, g_tree_node_key (node));
  }

  for (i = start; i < keys->len && count < max; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      const char *rest = key + strlen (prefix);
      const char *cut = delimiter != NULL ? strstr (rest, delimiter) : NULL;

      if (cut != NULL)
        {
          g_autofree char *common = g_strndup (key, cut + strlen (delimiter) - key);

          if (g_strcmp0 (common, last_prefix) != 0)
            {
              g_string_append (out, "<CommonPrefixes><Prefix>");
              append_escaped (out, common);
              g_string_append (out, "</Prefix></CommonPrefixes>");
              g_free (last_prefix);
              last_prefix = g_steal_pointer (&common);
              count++;
            }
          continue;
        }

      g_string_append (out, "<Contents><Key>");
      append_escaped (out, key);
      g_string_append_printf (out, "</Key><Size>%" G_GSIZE_FORMAT "</Size><ETag>&quot;%u&quot;</ETag></Contents>",
                              g_bytes_get_size (g_tree_lookup (bucket->objects, key)),
                              g_bytes_hash (g_tree_lookup (bucket->objects, key)));
      count++;
    }

  /* a common prefix's other keys belong to this page */
  while (i < keys->len && last_prefix != NULL && g_str_has_prefix (g_ptr_array_index (keys, i), last_prefix))
    i++;

  /* A looping listing sends the first page's token again and again. */
  if (looping && token != NULL)
    g_string_append_printf (out, "<IsTruncated>true</IsTruncated><NextContinuationToken>%s</NextContinuationToken>",
                            token);
  else if (i < keys->len)
    g_string_append_printf (out, "<IsTruncated>true</IsTruncated><NextContinuationToken>%u</NextContinuationToken>", i);
  else
    g_string_append (out, "<IsTruncated>false</IsTruncated>");
  g_string_append (out, "<EncodingType>url</EncodingType></ListBucketResult>");

  fake_server_respond (message, 200, out->str);
}

/* The answer to a GET of @bytes written by hand on the connection taken from
 * libsoup: all of the headers, half of the body, then the connection closed,
 * with or without a "Connection: close" to say it would be. */
static void
answer_cut (SoupServerMessage *message,
            GBytes            *bytes,
            const char        *etag,
            gboolean           close_header)
{
  g_autoptr(GIOStream) stream = soup_server_message_steal_connection (message);
  GOutputStream *out = g_io_stream_get_output_stream (stream);
  gsize size = g_bytes_get_size (bytes);
  g_autofree char *head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                                           "Content-Length: %" G_GSIZE_FORMAT "\r\nETag: %s\r\n%s\r\n",
                                           size, etag, close_header ? "Connection: close\r\n" : "");

  g_output_stream_write_all (out, head, strlen (head), NULL, NULL, NULL);
  g_output_stream_write_all (out, g_bytes_get_data (bytes, NULL), size / 2, NULL, NULL, NULL);
  g_output_stream_flush (out, NULL, NULL);
  g_io_stream_close (stream, NULL, NULL);
}

/* Decrements @key's count in @table; whether it was above 0. */
static gboolean
take_one (GHashTable *table,
          const char *key)
{
  guint left = GPOINTER_TO_UINT (g_hash_table_lookup (table, key));

  if (left == 0)
    return FALSE;
  if (left == 1)
    g_hash_table_remove (table, key);
  else if (left != G_MAXUINT)
    g_hash_table_replace (table, g_strdup (key), GUINT_TO_POINTER (left - 1));

  return TRUE;
}

static void
bucket_handler (SoupServerMessage *message,
                const char        *path,
                gpointer           user_data)
{
  FakeBucket *bucket = user_data;
  GUri *uri = soup_server_message_get_uri (message);
  const char *query = g_uri_get_query (uri);
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *key = NULL;
  GBytes *bytes;

  params = query != NULL ? g_uri_parse_params (query, -1, "&", G_URI_PARAMS_NONE, NULL)
                         : g_hash_table_new (g_str_hash, g_str_equal);

  if (strcmp (path, "/bucket") == 0 && g_hash_table_contains (params, "list-type"))
    {
      g_mutex_lock (&bucket->lock);
      bucket->n_lists++;
      list_objects (bucket, message, params);
      g_mutex_unlock (&bucket->lock);
      return;
    }

  if (!g_str_has_prefix (path, "/bucket/"))
    {
      fake_server_respond (message, 404, "<Error><Code>NoSuchBucket</Code></Error>");
      return;
    }

  key = g_strdup (path + strlen ("/bucket/"));
  g_mutex_lock (&bucket->lock);
  if (bucket->get_delay_us > 0)
    g_usleep (bucket->get_delay_us);
  bucket->n_gets++;
  g_hash_table_replace (bucket->gets, g_strdup (key),
                        GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (bucket->gets, key)) + 1));
  g_ptr_array_add (bucket->get_log, g_strdup (key));
  bytes = g_tree_lookup (bucket->objects, key);
  if (g_hash_table_contains (bucket->failing, key))
    fake_server_respond (message, 500, "<Error><Code>InternalError</Code></Error>");
  else if (bytes == NULL)
    fake_server_respond (message, 404, "<Error><Code>NoSuchKey</Code></Error>");
  else if (take_one (bucket->cut_bodies, key))
    {
      g_autofree char *etag = g_strdup_printf ("\"%u\"", g_bytes_hash (bytes));

      answer_cut (message, bytes, etag, bucket->cut_closes);
    }
  else if (take_one (bucket->short_lengths, key))
    {
      g_autofree char *etag = g_strdup_printf ("\"%u\"", g_bytes_hash (bytes));

      /* a whole answer, of half the object */
      soup_message_headers_replace (soup_server_message_get_response_headers (message), "ETag", etag);
      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, "application/octet-stream", SOUP_MEMORY_COPY,
                                        g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes) / 2);
    }
  else
    {
      g_autofree char *etag = g_strdup_printf (bucket->etag_differs ? "\"get-%u\"" : "\"%u\"", g_bytes_hash (bytes));

      soup_message_headers_replace (soup_server_message_get_response_headers (message), "ETag", etag);
      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, "application/octet-stream", SOUP_MEMORY_COPY,
                                        g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }
  g_mutex_unlock (&bucket->lock);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  return strcmp (a, b);
}

static void
add_tree (FakeBucket *bucket,
          const char *folder,
          const char *prefix)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autofree char *key = g_strconcat (prefix, "/", name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        add_tree (bucket, path, key);
      else
        {
          char *contents = NULL;
          gsize length = 0;

          g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
          g_tree_insert (bucket->objects, g_steal_pointer (&key), g_bytes_new_take (contents, length));
        }
    }
}

/* page_size: small pages make every listing of a node take several. */
FakeBucket *
fake_bucket_new (guint page_size)
{
  FakeBucket *self = g_new0 (FakeBucket, 1);

  g_mutex_init (&self->lock);
  self->objects = g_tree_new_full (compare_keys, NULL, g_free, (GDestroyNotify) g_bytes_unref);
  self->failing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->gets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->get_log = g_ptr_array_new_with_free_func (g_free);
  self->failing_lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->looping_lists = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cut_bodies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->short_lengths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->page_size = page_size > 0 ? page_size : 1000;
  self->server = fake_server_new (bucket_handler, self);

  return self;
}

/* local_dir's files under root_prefix: "<root_prefix>/<relative path>". */
FakeBucket *
fake_bucket_new_from_folder (const char *root_prefix,
                             const char *local_dir,
                             guint       page_size)
{
  FakeBucket *self = fake_bucket_new (page_size);

  fake_bucket_add_folder (self, root_prefix, local_dir);
  return self;
}

void
fake_bucket_add_folder (FakeBucket *self,
                        const char *key_prefix,
                        const char *local_dir)
{
  g_mutex_lock (&self->lock);
  add_tree (self, local_dir, key_prefix);
  g_mutex_unlock (&self->lock);
}

/* The endpoint, for AWS_ENDPOINT_URL(_S3); the bucket is "bucket". */
char *
fake_bucket_dup_url (FakeBucket *self)
{
  return fake_server_dup_url (self->server);
}

/* Points the AWS environment at this bucket: its endpoint and test
 * credentials, and none of the user's profile, region or instance metadata. */
void
fake_bucket_export_env (FakeBucket *self)
{
  g_autofree char *url = fake_bucket_dup_url (self);

  g_setenv ("AWS_ENDPOINT_URL_S3", url, TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIDTEST", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", "secret", TRUE);
  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("AWS_REGION");
  g_unsetenv ("AWS_ENDPOINT_URL");
}

void
fake_bucket_add_failing_key (FakeBucket *self,
                             const char *key)
{
  g_mutex_lock (&self->lock);
  g_hash_table_add (self->failing, g_strdup (key));
  g_mutex_unlock (&self->lock);
}

/* A slow bucket, so that a client can be stopped halfway through. */
void
fake_bucket_set_get_delay (FakeBucket *self,
                           gulong      microseconds)
{
  g_mutex_lock (&self->lock);
  self->get_delay_us = microseconds;
  g_mutex_unlock (&self->lock);
}

/* Every page after the first starts with the last entry of the page before:
 * a key (or common prefix) comes twice, as some S3-compatible servers send. */
void
fake_bucket_set_repeat_seams (FakeBucket *self,
                              gboolean    repeat)
{
  g_mutex_lock (&self->lock);
  self->repeat_seams = repeat;
  g_mutex_unlock (&self->lock);
}

/* The next @times listings of exactly @prefix answer 503 ServiceUnavailable
 * (G_MAXUINT: all of them; 0: none any more). */
void
fake_bucket_fail_listings (FakeBucket *self,
                           const char *prefix,
                           guint       times)
{
  g_mutex_lock (&self->lock);
  if (times == 0)
    g_hash_table_remove (self->failing_lists, prefix);
  else
    g_hash_table_replace (self->failing_lists, g_strdup (prefix), GUINT_TO_POINTER (times));
  g_mutex_unlock (&self->lock);
}

/* Listings of exactly @prefix never end: after the first page, every page
 * gives the continuation token it was asked with. */
void
fake_bucket_set_looping_listing (FakeBucket *self,
                                 const char *prefix,
                                 gboolean    looping)
{
  g_mutex_lock (&self->lock);
  if (looping)
    g_hash_table_add (self->looping_lists, g_strdup (prefix));
  else
    g_hash_table_remove (self->looping_lists, prefix);
  g_mutex_unlock (&self->lock);
}

/* The next @times GETs of @key send every header, half the body and close
 * the connection; with @connection_close they say "Connection: close" first
 * (a client then sees the end of the connection as the end of the body). */
void
fake_bucket_cut_body (FakeBucket *self,
                      const char *key,
                      guint       times,
                      gboolean    connection_close)
{
  g_mutex_lock (&self->lock);
  g_hash_table_replace (self->cut_bodies, g_strdup (key), GUINT_TO_POINTER (times));
  self->cut_closes = connection_close;
  g_mutex_unlock (&self->lock);
}

/* The next @times GETs of @key are whole answers of half the object: a
 * Content-Length short of the listed size. */
void
fake_bucket_short_length (FakeBucket *self,
                          const char *key,
                          guint       times)
{
  g_mutex_lock (&self->lock);
  g_hash_table_replace (self->short_lengths, g_strdup (key), GUINT_TO_POINTER (times));
  g_mutex_unlock (&self->lock);
}

/* GETs answer another ETag than listings give for the same object, as some
 * S3-compatible servers do. */
void
fake_bucket_set_etag_differs (FakeBucket *self,
                              gboolean    differs)
{
  g_mutex_lock (&self->lock);
  self->etag_differs = differs;
  g_mutex_unlock (&self->lock);
}

/* Puts (or replaces) @key with @data, as an upload would. */
void
fake_bucket_put (FakeBucket *self,
                 const char *key,
                 GBytes     *data)
{
  g_mutex_lock (&self->lock);
  g_tree_replace (self->objects, g_strdup (key), g_bytes_ref (data));
  g_mutex_unlock (&self->lock);
}

GBytes *
fake_bucket_dup_object (FakeBucket *self,
                        const char *key)
{
  GBytes *bytes;

  g_mutex_lock (&self->lock);
  bytes = g_tree_lookup (self->objects, key);
  if (bytes != NULL)
    g_bytes_ref (bytes);
  g_mutex_unlock (&self->lock);

  return bytes;
}

void
fake_bucket_remove_failing_key (FakeBucket *self,
                                const char *key)
{
  g_mutex_lock (&self->lock);
  g_hash_table_remove (self->failing, key);
  g_mutex_unlock (&self->lock);
}

guint
fake_bucket_get_n_lists (FakeBucket *self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = self->n_lists;
  g_mutex_unlock (&self->lock);
  return n;
}

guint
fake_bucket_get_n_gets (FakeBucket *self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = self->n_gets;
  g_mutex_unlock (&self->lock);
  return n;
}

guint
fake_bucket_get_key_gets (FakeBucket *self,
                          const char *key)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (self->gets, key));
  g_mutex_unlock (&self->lock);
  return n;
}

/* Every key asked for at least once, in no order. */
GPtrArray *
fake_bucket_dup_got_keys (FakeBucket *self)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->gets);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_strdup (key));
  g_mutex_unlock (&self->lock);
  return keys;
}

/* The key of every GET, in the order they were answered (GETs are
 * answered one at a time), repeats included. */
GPtrArray *
fake_bucket_dup_get_log (FakeBucket *self)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->get_log->len; i++)
    g_ptr_array_add (keys, g_strdup (g_ptr_array_index (self->get_log, i)));
  g_mutex_unlock (&self->lock);
  return keys;
}

void
fake_bucket_free (FakeBucket *self)
{
  /* the server first: its thread may still be answering */
  g_clear_pointer (&self->server, fake_server_free);
  g_tree_unref (self->objects);
  g_hash_table_unref (self->failing);
  g_hash_table_unref (self->gets);
  g_ptr_array_unref (self->get_log);
  g_hash_table_unref (self->failing_lists);
  g_hash_table_unref (self->looping_lists);
  g_hash_table_unref (self->cut_bodies);
  g_hash_table_unref (self->short_lengths);
  g_mutex_clear (&self->lock);
  g_free (self);
}
