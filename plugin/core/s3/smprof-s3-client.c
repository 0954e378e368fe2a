/* smprof-s3-client.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "smprof-s3-client-private.h"
#include "smprof-s3-error.h"

#define DEFAULT_REGION "us-east-1"
/* Bodies are read with a ceiling, so a broken or hostile endpoint cannot
 * make us hold an endless answer: an object's listed size, a listing page
 * (1000 keys are well under a megabyte). */
#define MAX_LISTING_BODY (G_GUINT64_CONSTANT (64) << 20)
#define MAX_UNLISTED_OBJECT (G_GUINT64_CONSTANT (2) << 30)

G_DEFINE_FINAL_TYPE (SmprofS3Client, smprof_s3_client, G_TYPE_OBJECT)

static void
smprof_s3_client_finalize (GObject *object)
{
  SmprofS3Client *self = SMPROF_S3_CLIENT (object);

  g_clear_object (&self->session);
  g_clear_object (&self->credentials);
  g_clear_pointer (&self->scheme, g_free);
  g_clear_pointer (&self->host, g_free);
  g_clear_pointer (&self->base_path, g_free);
  g_clear_pointer (&self->endpoint_id, g_free);
  g_clear_pointer (&self->region, g_free);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (smprof_s3_client_parent_class)->finalize (object);
}

static void
smprof_s3_client_class_init (SmprofS3ClientClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_s3_client_finalize;
}

static void
smprof_s3_client_init (SmprofS3Client *self)
{
  g_mutex_init (&self->lock);
}

static gboolean
parse_endpoint (SmprofS3Client  *self,
                const char      *url,
                GError         **error)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  const char *scheme;
  g_autofree char *path = NULL;

  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0' ||
      (g_ascii_strcasecmp ((scheme = g_uri_get_scheme (uri)), "http") != 0 &&
       g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_INVALID_URI,
                   _("the S3 endpoint “%s” is not an http:// or https:// URL"), url);
      return FALSE;
    }

  self->custom = TRUE;
  self->scheme = g_ascii_strdown (scheme, -1);
  self->host = g_ascii_strdown (g_uri_get_host (uri), -1);
  self->port = g_uri_get_port (uri);
  if (self->port == (strcmp (self->scheme, "https") == 0 ? 443 : 80))
    self->port = -1;

  path = g_strdup (g_uri_get_path (uri));
  while (g_str_has_suffix (path, "/"))
    path[strlen (path) - 1] = '\0';
  self->base_path = g_steal_pointer (&path);

  if (self->port > 0)
    self->endpoint_id = g_strdup_printf ("%s://%s%s%s:%d%s", self->scheme,
                                         strchr (self->host, ':') ? "[" : "", self->host,
                                         strchr (self->host, ':') ? "]" : "", self->port, self->base_path);
  else
    self->endpoint_id = g_strdup_printf ("%s://%s%s%s%s", self->scheme,
                                         strchr (self->host, ':') ? "[" : "", self->host,
                                         strchr (self->host, ':') ? "]" : "", self->base_path);

  return TRUE;
}

/**
 * smprof_s3_client_new:
 * @options: how to reach S3
 * @error: a location for a #GError, or %NULL
 *
 * Creates the client and its HTTP session here, on the calling thread (libsoup
 * wants a session configured before any request); requests may then be made
 * from any thread, at most #SmprofS3ClientOptions.max_connections at a time.
 *
 * Returns: (transfer full) (nullable): the client, or %NULL if the endpoint
 *   URL is not one
 */
SmprofS3Client *
smprof_s3_client_new (const SmprofS3ClientOptions  *options,
                      GError                      **error)
{
  g_autoptr(SmprofS3Client) self = NULL;

  g_return_val_if_fail (options != NULL, NULL);

  self = g_object_new (SMPROF_TYPE_S3_CLIENT, NULL);

  if (options->endpoint_url != NULL)
    {
      if (!parse_endpoint (self, options->endpoint_url, error))
        return NULL;
    }
  else
    self->endpoint_id = g_strdup ("s3.amazonaws.com");

  self->region = g_strdup (options->region != NULL ? options->region : DEFAULT_REGION);
  self->credentials = options->credentials != NULL ? g_object_ref (options->credentials) : NULL;
  self->max_connections = options->max_connections > 0 ? options->max_connections
                                                        : SMPROF_S3_DEFAULT_MAX_CONNECTIONS;
  self->max_attempts = options->max_attempts > 0 ? options->max_attempts : SMPROF_S3_DEFAULT_MAX_ATTEMPTS;

  self->session = soup_session_new_with_options ("max-conns", (int) self->max_connections,
                                                 "max-conns-per-host", (int) self->max_connections,
                                                 "timeout", options->timeout > 0 ? options->timeout
                                                                                 : SMPROF_S3_DEFAULT_TIMEOUT,
                                                 "idle-timeout", 60,
                                                 "user-agent", "smprof/" PACKAGE_VERSION,
                                                 NULL);

  return g_steal_pointer (&self);
}

/**
 * smprof_s3_client_get_endpoint_id:
 * @self: a client
 *
 * Returns: the endpoint, as the cache keys objects by it
 */
const char *
smprof_s3_client_get_endpoint_id (SmprofS3Client *self)
{
  g_return_val_if_fail (SMPROF_IS_S3_CLIENT (self), NULL);

  return self->endpoint_id;
}

char *
smprof_s3_client_dup_region (SmprofS3Client *self)
{
  char *region;

  g_return_val_if_fail (SMPROF_IS_S3_CLIENT (self), NULL);

  g_mutex_lock (&self->lock);
  region = g_strdup (self->region);
  g_mutex_unlock (&self->lock);

  return region;
}

guint
smprof_s3_client_get_max_connections (SmprofS3Client *self)
{
  g_return_val_if_fail (SMPROF_IS_S3_CLIENT (self), 0);

  return self->max_connections;
}

/**
 * smprof_s3_client_get_counters:
 * @self: a client
 * @requests: (out) (optional): HTTP requests sent
 * @retries: (out) (optional): of which retries
 */
void
smprof_s3_client_get_counters (SmprofS3Client *self,
                               guint          *requests,
                               guint          *retries)
{
  g_return_if_fail (SMPROF_IS_S3_CLIENT (self));

  if (requests != NULL)
    *requests = g_atomic_int_get (&self->n_requests);
  if (retries != NULL)
    *retries = g_atomic_int_get (&self->n_retries);
}

gboolean
_smprof_s3_client_region_is_valid (const char *region)
{
  if (region == NULL || region[0] == '\0' || strlen (region) > 64)
    return FALSE;

  for (const char *p = region; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-')
      return FALSE;

  return TRUE;
}

/* Virtual-hosted addressing needs a DNS-safe name; one with dots would not
 * match AWS's wildcard certificate, so those go path-style. */
static gboolean
bucket_fits_host (const char *bucket)
{
  gsize length = strlen (bucket);

  if (length < 3 || length > 63 || !g_ascii_isalnum (bucket[0]) || !g_ascii_isalnum (bucket[length - 1]))
    return FALSE;

  for (const char *p = bucket; *p != '\0'; p++)
    if (!(g_ascii_islower (*p) || g_ascii_isdigit (*p) || *p == '-'))
      return FALSE;

  return TRUE;
}

typedef struct
{
  char *scheme;
  char *host;
  int   port;
  char *path;         /* decoded */
  char *host_header;
} Target;

static void
target_clear (Target *target)
{
  g_clear_pointer (&target->scheme, g_free);
  g_clear_pointer (&target->host, g_free);
  g_clear_pointer (&target->path, g_free);
  g_clear_pointer (&target->host_header, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Target, target_clear)

static void
build_target (SmprofS3Client *self,
              const Request  *request,
              const char     *region,
              Target         *target)
{
  const char *key = request->key != NULL ? request->key : "";
  gboolean virtual_host = !self->custom && bucket_fits_host (request->bucket);

  if (self->custom)
    {
      target->scheme = g_strdup (self->scheme);
      target->host = g_strdup (self->host);
      target->port = self->port;
    }
  else
    {
      target->scheme = g_strdup ("https");
      target->host = virtual_host ? g_strdup_printf ("%s.s3.%s.amazonaws.com", request->bucket, region)
                                  : g_strdup_printf ("s3.%s.amazonaws.com", region);
      target->port = -1;
    }

  if (virtual_host)
    target->path = g_strconcat ("/", key, NULL);
  else if (request->key != NULL)
    target->path = g_strconcat (self->custom ? self->base_path : "", "/", request->bucket, "/", key, NULL);
  else
    target->path = g_strconcat (self->custom ? self->base_path : "", "/", request->bucket, NULL);

  /* The Host header is signed, so it must be what libsoup would send: the
   * port only when it is not the scheme's. */
  if (strchr (target->host, ':') != NULL)
    target->host_header = target->port > 0 ? g_strdup_printf ("[%s]:%d", target->host, target->port)
                                           : g_strdup_printf ("[%s]", target->host);
  else
    target->host_header = target->port > 0 ? g_strdup_printf ("%s:%d", target->host, target->port)
                                           : g_strdup (target->host);
}

SoupMessage *
_smprof_s3_client_build_message (SmprofS3Client        *self,
                                 const Request         *request,
                                 const char            *region,
                                 SmprofAwsCredentials  *credentials)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *amz_date = smprof_aws_format_amz_date (now);
  g_autofree char *encoded_path = NULL;
  g_autofree char *query = NULL;
  g_autoptr(GUri) uri = NULL;
  g_auto(Target) target = { 0 };
  SoupMessageHeaders *headers;
  SoupMessage *message;

  build_target (self, request, region, &target);
  encoded_path = smprof_aws_uri_encode (target.path, TRUE);
  query = smprof_aws_sigv4_canonical_query (request->query, request->n_query);

  uri = g_uri_build (G_URI_FLAGS_ENCODED_PATH | G_URI_FLAGS_ENCODED_QUERY,
                     target.scheme, NULL, target.host, target.port, encoded_path,
                     query[0] != '\0' ? query : NULL, NULL);
  message = soup_message_new_from_uri (request->method, uri);
  /* Redirects are S3 telling us the bucket's region; they are handled here,
   * since following one blindly would send a signature for another host. */
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);

  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Host", target.host_header);
  soup_message_headers_replace (headers, "x-amz-date", amz_date);
  soup_message_headers_replace (headers, "x-amz-content-sha256", SMPROF_AWS_EMPTY_PAYLOAD_SHA256);

  if (credentials != NULL)
    {
      SmprofAwsPair signed_headers[4] = {
        { "host", target.host_header },
        { "x-amz-content-sha256", SMPROF_AWS_EMPTY_PAYLOAD_SHA256 },
        { "x-amz-date", amz_date },
        { "x-amz-security-token", credentials->session_token },
      };
      SmprofAwsRequest to_sign = {
        request->method, target.path, request->query, request->n_query,
        signed_headers, credentials->session_token != NULL ? 4 : 3,
        SMPROF_AWS_EMPTY_PAYLOAD_SHA256,
      };
      g_autoptr(SmprofAwsSignature) signature = NULL;

      signature = smprof_aws_sigv4_sign (&to_sign, credentials->access_key_id,
                                         credentials->secret_access_key, region, "s3", amz_date);
      if (credentials->session_token != NULL)
        soup_message_headers_replace (headers, "x-amz-security-token", credentials->session_token);
      soup_message_headers_replace (headers, "Authorization", signature->authorization);
    }

  return message;
}

/* "Code: Message" of an S3 <Error> document, or NULL if @data is none. */
char *
_smprof_s3_client_error_document_said (const char *data,
                                       gsize       length)
{
  g_autoptr(SmprofS3ErrorResponse) response = smprof_s3_error_response_parse (data, length);

  if (response == NULL)
    return NULL;

  return response->message != NULL
    ? g_strdup_printf ("%s: %s", response->code, response->message)
    : g_strdup (response->code);
}

/**
 * smprof_s3_client_list_objects:
 * @self: a client
 * @bucket: the bucket
 * @prefix: (nullable): list keys starting so
 * @delimiter: (nullable): group keys by this, usually "/"
 * @continuation_token: (nullable): the previous page's token
 * @max_keys: at most this many keys, 0 for S3's default (1000)
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * One ListObjectsV2 request; thread-safe.
 *
 * Returns: (transfer full) (nullable): the page
 */
SmprofS3ListPage *
smprof_s3_client_list_objects (SmprofS3Client  *self,
                               const char      *bucket,
                               const char      *prefix,
                               const char      *delimiter,
                               const char      *continuation_token,
                               guint            max_keys,
                               GCancellable    *cancellable,
                               GError         **error)
{
  g_autofree char *max_keys_text = g_strdup_printf ("%u", max_keys);
  g_autofree char *what = g_strdup_printf ("s3://%s/%s", bucket, prefix != NULL ? prefix : "");
  g_autoptr(GBytes) body = NULL;
  SmprofAwsPair query[6];
  MemorySink sink;
  Request request = { "GET", bucket, NULL, query, 0, what, G_MAXUINT64, MAX_LISTING_BODY, &sink.parent };
  gsize length;
  const char *data;

  g_return_val_if_fail (SMPROF_IS_S3_CLIENT (self), NULL);
  g_return_val_if_fail (bucket != NULL, NULL);

  query[request.n_query++] = (SmprofAwsPair) { "list-type", "2" };
  query[request.n_query++] = (SmprofAwsPair) { "encoding-type", "url" };
  if (prefix != NULL && prefix[0] != '\0')
    query[request.n_query++] = (SmprofAwsPair) { "prefix", prefix };
  if (delimiter != NULL)
    query[request.n_query++] = (SmprofAwsPair) { "delimiter", delimiter };
  if (continuation_token != NULL)
    query[request.n_query++] = (SmprofAwsPair) { "continuation-token", continuation_token };
  if (max_keys > 0)
    query[request.n_query++] = (SmprofAwsPair) { "max-keys", max_keys_text };

  _smprof_s3_memory_sink_init (&sink);
  if (!_smprof_s3_client_perform (self, &request, NULL, cancellable, error))
    {
      _smprof_s3_memory_sink_clear (&sink);
      return NULL;
    }
  body = _smprof_s3_memory_sink_steal (&sink);
  data = g_bytes_get_data (body, &length);

  /* A 200 answer holding an <Error> document (a proxy or an S3-compatible
   * server may send one): read as a listing it would only say "expected a
   * ListBucketResult", so say what the server said. */
  {
    g_autofree char *said = _smprof_s3_client_error_document_said (data != NULL ? data : "", length);

    if (said != NULL)
      {
        g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                     _("the listing of %s was answered with an S3 error document (%s)"), what, said);
        return NULL;
      }
  }

  return smprof_s3_list_page_parse (data != NULL ? data : "", length, error);
}

/* A sink in front of another that keeps a copy of a small body starting
 * with '<': it may be an S3 <Error> document sent with a 200. A cProfile
 * dump never starts with '<' and a Pyinstrument session starts with '{'. */
#define MAX_ERROR_DOCUMENT (64 * 1024)

typedef struct
{
  SmprofS3Sink  parent;
  SmprofS3Sink *inner;
  GByteArray   *start;   /* NULL once the body cannot be an error document */
} CheckingSink;

static gboolean
checking_sink_begin (SmprofS3Sink  *sink,
                     gint64         length,
                     GError       **error)
{
  CheckingSink *self = (CheckingSink *) sink;

  g_clear_pointer (&self->start, g_byte_array_unref);
  if (length < 0 || length <= MAX_ERROR_DOCUMENT)
    self->start = g_byte_array_new ();

  return self->inner->begin (self->inner, length, error);
}

static gboolean
checking_sink_write (SmprofS3Sink  *sink,
                     const guint8  *data,
                     gsize          length,
                     GError       **error)
{
  CheckingSink *self = (CheckingSink *) sink;

  if (self->start != NULL)
    {
      if ((self->start->len == 0 && length > 0 && data[0] != '<') ||
          self->start->len + length > MAX_ERROR_DOCUMENT)
        g_clear_pointer (&self->start, g_byte_array_unref);
      else
        g_byte_array_append (self->start, data, length);
    }

  return self->inner->write (self->inner, data, length, error);
}

/**
 * smprof_s3_client_get_object_to:
 * @self: a client
 * @bucket: the bucket
 * @key: the key
 * @expected_size: its size as listed, %G_MAXUINT64 if unknown: a longer
 *   answer is refused before it is read, and a shorter one is retried, then
 *   refused; both with %SMPROF_S3_ERROR_CHANGED (the object changed since
 *   it was listed)
 * @max_size: when @expected_size is unknown, the longest answer read
 * @sink: where the body goes as it arrives
 * @etag: (out) (optional) (nullable): the ETag of what was read
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * One GetObject, retried as needed (a body cut short, or not as long as it
 * says, is retried like a reset); thread-safe. What @sink holds is the
 * object only when this returns %TRUE.
 *
 * Returns: %TRUE on success
 */
gboolean
smprof_s3_client_get_object_to (SmprofS3Client  *self,
                                const char      *bucket,
                                const char      *key,
                                guint64          expected_size,
                                guint64          max_size,
                                SmprofS3Sink    *sink,
                                char           **etag,
                                GCancellable    *cancellable,
                                GError         **error)
{
  g_autofree char *what = NULL;
  CheckingSink checking = { { checking_sink_begin, checking_sink_write }, sink, NULL };
  Request request = { "GET", bucket, key, NULL, 0, NULL, expected_size, max_size, &checking.parent };
  g_autofree char *said = NULL;
  gboolean ok;

  g_return_val_if_fail (SMPROF_IS_S3_CLIENT (self), FALSE);
  g_return_val_if_fail (bucket != NULL && key != NULL && sink != NULL, FALSE);

  what = g_strdup_printf ("s3://%s/%s", bucket, key);
  request.what = what;

  ok = _smprof_s3_client_perform (self, &request, etag, cancellable, error);
  if (ok && checking.start != NULL && checking.start->len > 0)
    said = _smprof_s3_client_error_document_said ((const char *) checking.start->data, checking.start->len);
  g_clear_pointer (&checking.start, g_byte_array_unref);

  /* A 200 answer holding an <Error> document: read as a profile it would
   * only be "damaged", so say what the server said (and keep nothing). */
  if (said != NULL)
    {
      if (etag != NULL)
        g_clear_pointer (etag, g_free);
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                   _("%s was answered with an S3 error document (%s) instead of the object"),
                   what, said);
      return FALSE;
    }

  return ok;
}

/**
 * smprof_s3_client_get_object:
 * @self: a client
 * @bucket: the bucket
 * @key: the key
 * @expected_size: its size as listed, %G_MAXUINT64 if unknown; see
 *   smprof_s3_client_get_object_to()
 * @etag: (out) (optional) (nullable): the ETag of what was read
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * smprof_s3_client_get_object_to() into memory, for an object whose size is
 * listed or which is at most 2 GiB.
 *
 * Returns: (transfer full) (nullable): the whole object
 */
GBytes *
smprof_s3_client_get_object (SmprofS3Client  *self,
                             const char      *bucket,
                             const char      *key,
                             guint64          expected_size,
                             char           **etag,
                             GCancellable    *cancellable,
                             GError         **error)
{
  MemorySink sink;

  g_return_val_if_fail (SMPROF_IS_S3_CLIENT (self), NULL);
  g_return_val_if_fail (bucket != NULL && key != NULL, NULL);

  _smprof_s3_memory_sink_init (&sink);
  if (!smprof_s3_client_get_object_to (self, bucket, key, expected_size, MAX_UNLISTED_OBJECT, &sink.parent,
                                       etag, cancellable, error))
    {
      _smprof_s3_memory_sink_clear (&sink);
      return NULL;
    }

  return _smprof_s3_memory_sink_steal (&sink);
}

/* Memory sinks ------------------------------------------------------------------ */

static gboolean
memory_sink_begin (SmprofS3Sink  *sink,
                   gint64         length,
                   GError       **error)
{
  MemorySink *self = (MemorySink *) sink;

  self->length = 0;
  /* exactly what is announced: a body costs its size, not the next power of two */
  if (length >= 0 && (gsize) length != self->allocated && (guint64) length <= G_MAXSIZE)
    {
      self->data = g_realloc (self->data, MAX ((gsize) length, 1));
      self->allocated = MAX ((gsize) length, 1);
    }

  return TRUE;
}

static gboolean
memory_sink_write (SmprofS3Sink  *sink,
                   const guint8  *data,
                   gsize          length,
                   GError       **error)
{
  MemorySink *self = (MemorySink *) sink;

  if (self->length + length > self->allocated)
    {
      self->allocated = MAX (self->length + length, self->allocated * 2);
      self->data = g_realloc (self->data, self->allocated);
    }

  memcpy (self->data + self->length, data, length);
  self->length += length;

  return TRUE;
}

void
_smprof_s3_memory_sink_init (MemorySink *sink)
{
  *sink = (MemorySink) { { memory_sink_begin, memory_sink_write }, NULL, 0, 0 };
}

/* The body written, in a block of its size. */
GBytes *
_smprof_s3_memory_sink_steal (MemorySink *sink)
{
  guint8 *data = g_steal_pointer (&sink->data);
  gsize length = sink->length;

  if (length < sink->allocated)
    data = g_realloc (data, MAX (length, 1));
  sink->length = sink->allocated = 0;

  return g_bytes_new_take (data, length);
}

void
_smprof_s3_memory_sink_clear (MemorySink *sink)
{
  g_clear_pointer (&sink->data, g_free);
  sink->length = sink->allocated = 0;
}
