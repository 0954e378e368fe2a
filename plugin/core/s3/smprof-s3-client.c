/* smprof-s3-client.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "smprof-aws-sigv4.h"
#include "smprof-s3-client.h"
#include "smprof-s3-error.h"

#define DEFAULT_REGION "us-east-1"
/* Backoff before attempt n+1: between half and all of
 * MIN (cap, base * 2^(n-1)), so retries spread out but always wait. */
#define BACKOFF_BASE_US (200 * 1000)
#define SLOW_DOWN_BASE_US (1000 * 1000)
#define BACKOFF_CAP_US (10 * 1000 * 1000)
/* A bucket is in one region: following S3's hint more than twice would be a loop. */
#define MAX_REGION_SWITCHES 2
/* Bodies are read with a ceiling, so a broken or hostile endpoint cannot
 * make us hold an endless answer: an object's listed size, a listing page
 * (1000 keys are well under a megabyte), an error document. */
#define MAX_LISTING_BODY (G_GUINT64_CONSTANT (64) << 20)
#define MAX_ERROR_BODY (G_GUINT64_CONSTANT (1) << 20)
#define MAX_UNLISTED_OBJECT (G_GUINT64_CONSTANT (2) << 30)

struct _SmprofS3Client
{
  GObject                       parent_instance;

  SoupSession                  *session;
  SmprofAwsCredentialsProvider *credentials;   /* NULL: anonymous */

  /* A custom endpoint, addressed path-style */
  gboolean                      custom;
  char                         *scheme;
  char                         *host;
  int                           port;
  char                         *base_path;     /* decoded, no trailing '/' */
  char                         *endpoint_id;

  guint                         max_connections;
  guint                         max_attempts;

  GMutex                        lock;
  char                         *region;        /* under lock: redirects change it */

  int                           n_requests;    /* atomic */
  int                           n_retries;     /* atomic */
};

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

static gboolean
region_is_valid (const char *region)
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
  const char          *method;
  const char          *bucket;
  const char          *key;       /* NULL: the bucket itself */
  const SmprofAwsPair *query;
  guint                n_query;
  const char          *what;      /* s3://bucket/key, for messages */
  guint64              max_body;  /* a 2xx body longer than this is refused */
} Request;

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

static SoupMessage *
build_message (SmprofS3Client        *self,
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

static gboolean
sleep_cancellable (gint64         usec,
                   GCancellable  *cancellable,
                   GError       **error)
{
  gint64 end = g_get_monotonic_time () + usec;
  gint64 now;

  while ((now = g_get_monotonic_time ()) < end)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_usleep (MIN (end - now, 20 * 1000));
    }

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

static gint64
backoff_us (guint    failures,
            gboolean slow_down)
{
  gint64 base = slow_down ? SLOW_DOWN_BASE_US : BACKOFF_BASE_US;
  gint64 cap = base << MIN (failures - 1, 16);

  cap = MIN (cap, BACKOFF_CAP_US);

  return cap / 2 + (gint64) g_random_double_range (0, cap / 2.0);
}

/* Transport failures worth another attempt: resets, timeouts, cut bodies,
 * refused connections (a server restarting). Not: a name that does not
 * resolve, a TLS certificate problem, cancellation. */
static gboolean
transport_error_is_retryable (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;
  if (error->domain == G_RESOLVER_ERROR || error->domain == G_TLS_ERROR)
    return FALSE;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
    return FALSE;

  return TRUE;
}

static gboolean
status_is_retryable (guint                  status,
                     SmprofS3ErrorResponse *response)
{
  const char *code = response != NULL ? response->code : NULL;

  if (status >= 500 || status == 429)
    return TRUE;

  return g_strcmp0 (code, "SlowDown") == 0 || g_strcmp0 (code, "RequestTimeout") == 0 ||
         g_strcmp0 (code, "InternalError") == 0 || g_strcmp0 (code, "RequestTimeTooSkewed") == 0;
}

/* Where S3 says the bucket lives: the x-amz-bucket-region header (301 and
 * HEAD answers), the <Region> of AuthorizationHeaderMalformed, or a message
 * such as Swift's "the region 'eu-west-1' is wrong; expecting 'us-east-1'". */
static char *
region_hint (SoupMessage           *message,
             SmprofS3ErrorResponse *response)
{
  const char *header = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                     "x-amz-bucket-region");
  const char *expecting;

  if (region_is_valid (header))
    return g_strdup (header);
  if (response != NULL && region_is_valid (response->region))
    return g_strdup (response->region);

  if (response != NULL && response->message != NULL &&
      (expecting = strstr (response->message, "expecting '")) != NULL)
    {
      g_autofree char *region = g_strdup (expecting + strlen ("expecting '"));
      char *quote = strchr (region, '\'');

      if (quote != NULL)
        {
          *quote = '\0';
          if (region_is_valid (region))
            return g_steal_pointer (&region);
        }
    }

  return NULL;
}

static GError *
error_for_answer (SmprofS3Client        *self,
                  const Request         *request,
                  guint                  status,
                  SmprofS3ErrorResponse *response,
                  SmprofAwsCredentials  *credentials,
                  const char            *region)
{
  const char *code = response != NULL ? response->code : NULL;
  const char *message = response != NULL && response->message != NULL ? response->message : NULL;
  g_autofree char *said = NULL;

  if (code != NULL)
    said = message != NULL ? g_strdup_printf ("%s: %s", code, message) : g_strdup (code);
  else
    said = g_strdup_printf ("HTTP %u %s", status, soup_status_get_phrase (status));

  if (g_strcmp0 (code, "NoSuchBucket") == 0)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_SUCH_BUCKET,
                        _("there is no bucket “%s” at %s"), request->bucket, self->endpoint_id);

  if (g_strcmp0 (code, "NoSuchKey") == 0 || (status == 404 && code == NULL))
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_SUCH_KEY,
                        _("%s does not exist"), request->what);

  if (g_strcmp0 (code, "InvalidAccessKeyId") == 0 && credentials != NULL)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_ACCESS_DENIED,
                        _("access denied to %s: S3 does not know the access key “%s” (from %s)"),
                        request->what, credentials->access_key_id, credentials->origin);

  if (g_strcmp0 (code, "SignatureDoesNotMatch") == 0 && credentials != NULL)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_ACCESS_DENIED,
                        _("access denied to %s: the secret key does not match the access key “%s” "
                          "(from %s)"),
                        request->what, credentials->access_key_id, credentials->origin);

  if (g_strcmp0 (code, "ExpiredToken") == 0 || g_strcmp0 (code, "TokenRefreshRequired") == 0)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_ACCESS_DENIED,
                        _("access denied to %s: the session token has expired (credentials from %s)"),
                        request->what, credentials != NULL ? credentials->origin : "?");

  /* Servers answer unsigned requests in odd ways (Swift: 412 "Bad URL"). */
  if (credentials == NULL && status >= 400 && status < 500 && status != 404 && status != 400)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_ACCESS_DENIED,
                        _("access denied to %s for anonymous requests (%s); this bucket needs "
                          "credentials"), request->what, said);

  if (status == 403 || g_strcmp0 (code, "AccessDenied") == 0 || g_strcmp0 (code, "AllAccessDisabled") == 0)
    {
      if (credentials == NULL)
        return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_ACCESS_DENIED,
                            _("access denied to %s for anonymous requests (%s); this bucket needs "
                              "credentials"), request->what, said);
      /* S3's message names the principal when it knows it ("User: arn:... is
       * not authorized to perform: s3:ListBucket"), so it is kept whole. */
      return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_ACCESS_DENIED,
                          _("access denied to %s with the access key “%s” (from %s): %s"),
                          request->what, credentials->access_key_id, credentials->origin, said);
    }

  if (status == 301 || status == 307 || g_strcmp0 (code, "PermanentRedirect") == 0 ||
      g_strcmp0 (code, "AuthorizationHeaderMalformed") == 0 ||
      g_strcmp0 (code, "IllegalLocationConstraintException") == 0)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_WRONG_REGION,
                        _("the bucket “%s” is not in region %s and S3 did not say where it is (%s); "
                          "set AWS_REGION to its region"),
                        request->bucket, region, said);

  if (status == 400 && g_strcmp0 (code, "InvalidBucketName") == 0)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_INVALID_URI,
                        _("“%s” is not a valid bucket name"), request->bucket);

  return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_FAILED,
                      _("S3 refused the request for %s: %s"), request->what, said);
}

/* Reads at most @limit bytes; *over_limit tells whether more came. A read
 * error (a connection cut mid-body) is an error, to be retried. */
static GBytes *
read_body (GInputStream  *stream,
           guint64        limit,
           gboolean      *over_limit,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autofree guint8 *buffer = g_malloc (64 * 1024);

  *over_limit = FALSE;

  for (;;)
    {
      gssize n = g_input_stream_read (stream, buffer, 64 * 1024, cancellable, error);

      if (n < 0)
        return NULL;
      if (n == 0)
        break;
      if ((guint64) data->len + (guint64) n > limit)
        {
          *over_limit = TRUE;
          break;
        }
      g_byte_array_append (data, buffer, n);
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}

static GError *
too_big_error (const Request *request,
               guint64        announced)
{
  if (announced > 0)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                        _("%s: the answer announces %llu bytes, more than the %llu expected; "
                          "if the object changed since it was listed, list again (smprof: --refresh)"),
                        request->what, (unsigned long long) announced, (unsigned long long) request->max_body);

  return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                      _("%s: the answer goes on past the %llu bytes expected; "
                        "if the object changed since it was listed, list again (smprof: --refresh)"),
                      request->what, (unsigned long long) request->max_body);
}

/* Sends @request until it succeeds, fails for good, or runs out of attempts.
 * Returns the body of a 2xx answer. */
static GBytes *
perform (SmprofS3Client  *self,
         const Request   *request,
         char           **etag,
         GCancellable    *cancellable,
         GError         **error)
{
  g_autoptr(GError) last_error = NULL;
  guint region_switches = 0;
  gboolean credentials_refreshed = FALSE;
  gboolean got_answer = FALSE;
  guint failures = 0;

  while (failures < self->max_attempts)
    {
      g_autoptr(SmprofAwsCredentials) credentials = NULL;
      g_autoptr(SmprofS3ErrorResponse) response = NULL;
      g_autoptr(SoupMessage) message = NULL;
      g_autoptr(GInputStream) stream = NULL;
      g_autoptr(GBytes) body = NULL;
      g_autoptr(GError) local_error = NULL;
      g_autofree char *region = smprof_s3_client_dup_region (self);
      g_autofree char *hint = NULL;
      SoupMessageHeaders *headers;
      gboolean slow_down = FALSE;
      gboolean over_limit = FALSE;
      gboolean success;
      guint status;

      if (self->credentials != NULL)
        {
          credentials = smprof_aws_credentials_provider_get (self->credentials, cancellable, error);
          if (credentials == NULL)
            return NULL;
        }

      message = build_message (self, request, region, credentials);
      if (failures > 0 || region_switches > 0)
        g_atomic_int_inc (&self->n_retries);
      g_atomic_int_inc (&self->n_requests);

      stream = soup_session_send (self->session, message, cancellable, &local_error);
      if (stream == NULL)
        {
          if (!transport_error_is_retryable (local_error))
            {
              if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                g_propagate_error (error, g_steal_pointer (&local_error));
              else
                g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_UNREACHABLE,
                             _("cannot reach the S3 endpoint %s: %s"),
                             self->endpoint_id, local_error->message);
              return NULL;
            }
          g_clear_error (&last_error);
          last_error = g_steal_pointer (&local_error);
          goto retry;
        }

      got_answer = TRUE;
      status = soup_message_get_status (message);
      success = SOUP_STATUS_IS_SUCCESSFUL (status);
      headers = soup_message_get_response_headers (message);

      /* Refused before reading: a length beyond what the listing said. */
      if (success && soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
          (guint64) soup_message_headers_get_content_length (headers) > request->max_body)
        {
          g_input_stream_close (stream, NULL, NULL);
          g_propagate_error (error, too_big_error (request, soup_message_headers_get_content_length (headers)));
          return NULL;
        }

      body = read_body (stream, success ? request->max_body : MAX_ERROR_BODY, &over_limit, cancellable,
                        &local_error);
      /* closing early drops the connection instead of draining the rest */
      g_input_stream_close (stream, NULL, NULL);

      if (body == NULL)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }
          /* a body cut short: libsoup knows the length it was promised */
          g_clear_error (&last_error);
          last_error = g_steal_pointer (&local_error);
          goto retry;
        }

      if (success)
        {
          if (over_limit)
            {
              g_propagate_error (error, too_big_error (request, 0));
              return NULL;
            }

          if (etag != NULL)
            *etag = g_strdup (soup_message_headers_get_one (headers, "ETag"));

          return g_steal_pointer (&body);
        }

      response = smprof_s3_error_response_parse (g_bytes_get_data (body, NULL), g_bytes_get_size (body));

      hint = region_hint (message, response);
      if (hint != NULL && strcmp (hint, region) != 0 && region_switches < MAX_REGION_SWITCHES &&
          (status == 301 || status == 307 || status == 400))
        {
          g_mutex_lock (&self->lock);
          g_free (self->region);
          self->region = g_steal_pointer (&hint);
          g_mutex_unlock (&self->lock);
          region_switches++;
          continue;
        }

      if (response != NULL && self->credentials != NULL && !credentials_refreshed &&
          (strcmp (response->code, "ExpiredToken") == 0 || strcmp (response->code, "TokenRefreshRequired") == 0))
        {
          smprof_aws_credentials_provider_invalidate (self->credentials);
          credentials_refreshed = TRUE;
          continue;
        }

      if (!status_is_retryable (status, response))
        {
          g_propagate_error (error, error_for_answer (self, request, status, response, credentials, region));
          return NULL;
        }

      slow_down = response != NULL && strcmp (response->code, "SlowDown") == 0;
      g_clear_error (&last_error);
      last_error = g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_FAILED, "%u %s", status,
                                response != NULL ? response->code : soup_status_get_phrase (status));

    retry:
      failures++;
      if (failures >= self->max_attempts)
        break;
      g_debug ("%s: attempt %u failed (%s), retrying", request->what, failures, last_error->message);
      if (!sleep_cancellable (backoff_us (failures, slow_down), cancellable, error))
        return NULL;
    }

  /* every failed attempt left its error; max_attempts is at least 1 */
  g_assert (last_error != NULL);

  if (!got_answer)
    g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_UNREACHABLE,
                 _("cannot reach the S3 endpoint %s for %s after %u attempts: %s"),
                 self->endpoint_id, request->what, failures, last_error->message);
  else
    g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_FAILED,
                 _("%s failed %u times; last: %s"), request->what, failures, last_error->message);

  return NULL;
}

/* "Code: Message" of an S3 <Error> document, or NULL if @data is none. */
static char *
error_document_said (const char *data,
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
  Request request = { "GET", bucket, NULL, query, 0, what, MAX_LISTING_BODY };
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

  body = perform (self, &request, NULL, cancellable, error);
  if (body == NULL)
    return NULL;

  data = g_bytes_get_data (body, &length);

  /* A 200 answer holding an <Error> document (a proxy or an S3-compatible
   * server may send one): read as a listing it would only say "expected a
   * ListBucketResult", so say what the server said. */
  {
    g_autofree char *said = error_document_said (data != NULL ? data : "", length);

    if (said != NULL)
      {
        g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                     _("the listing of %s was answered with an S3 error document (%s)"), what, said);
        return NULL;
      }
  }

  return smprof_s3_list_page_parse (data != NULL ? data : "", length, error);
}

/**
 * smprof_s3_client_get_object:
 * @self: a client
 * @bucket: the bucket
 * @key: the key
 * @expected_size: its size as listed, %G_MAXUINT64 if unknown; a longer
 *   answer is refused (%SMPROF_S3_ERROR_BAD_RESPONSE), not read
 * @etag: (out) (optional) (nullable): the ETag of what was read
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * One GetObject, retried as needed; thread-safe.
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
  g_autofree char *what = g_strdup_printf ("s3://%s/%s", bucket, key);
  Request request = { "GET", bucket, key, NULL, 0, what,
                      expected_size != G_MAXUINT64 ? expected_size : MAX_UNLISTED_OBJECT };
  g_autoptr(GBytes) body = NULL;
  gsize length;
  const char *data;

  g_return_val_if_fail (SMPROF_IS_S3_CLIENT (self), NULL);
  g_return_val_if_fail (bucket != NULL && key != NULL, NULL);

  body = perform (self, &request, etag, cancellable, error);
  if (body == NULL)
    return NULL;

  /* A 200 answer holding an <Error> document: read as a profile it would
   * only be "damaged", so say what the server said (and cache nothing). A
   * cProfile dump never starts with '<' and a Pyinstrument session starts
   * with '{', so only a body that starts as XML is read as one. */
  data = g_bytes_get_data (body, &length);
  if (data != NULL &&
      ((length >= 5 && memcmp (data, "<?xml", 5) == 0) ||
       (length >= 6 && memcmp (data, "<Error", 6) == 0)))
    {
      g_autofree char *said = error_document_said (data, length);

      if (said != NULL)
        {
          if (etag != NULL)
            g_clear_pointer (etag, g_free);
          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                       _("%s was answered with an S3 error document (%s) instead of the object"),
                       what, said);
          return NULL;
        }
    }

  return g_steal_pointer (&body);
}
