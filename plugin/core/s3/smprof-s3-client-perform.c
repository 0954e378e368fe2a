/* smprof-s3-client-perform.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Sending a request until it succeeds, fails for good or runs out of
 * attempts: backoff, what is worth another attempt, S3's hints about the
 * bucket's region, reading answers within limits, and the errors a user
 * reads. */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "smprof-s3-client-private.h"
#include "smprof-s3-error.h"

/* Backoff before attempt n+1: between half and all of
 * MIN (cap, base * 2^(n-1)), so retries spread out but always wait. */
#define BACKOFF_BASE_US (200 * 1000)
#define SLOW_DOWN_BASE_US (1000 * 1000)
#define BACKOFF_CAP_US (10 * 1000 * 1000)
/* A bucket is in one region: following S3's hint more than twice would be a loop. */
#define MAX_REGION_SWITCHES 2
/* An error document is read up to this: far more than S3 sends. */
#define MAX_ERROR_BODY (G_GUINT64_CONSTANT (1) << 20)

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

  /* not RequestTimeTooSkewed: another attempt would carry the same clock */
  return g_strcmp0 (code, "SlowDown") == 0 || g_strcmp0 (code, "RequestTimeout") == 0 ||
         g_strcmp0 (code, "InternalError") == 0;
}

/* The region in an AWS host name: "bucket.s3.eu-west-3.amazonaws.com",
 * "s3-eu-west-3.amazonaws.com", "s3.dualstack.eu-west-3.amazonaws.com". */
static char *
region_of_host (const char *host)
{
  g_auto(GStrv) labels = NULL;
  guint n;

  if (host == NULL || !g_str_has_suffix (host, ".amazonaws.com"))
    return NULL;

  labels = g_strsplit (host, ".", -1);
  n = g_strv_length (labels);
  for (guint i = 0; i + 2 < n; i++)
    {
      const char *label = labels[i];

      if (g_str_has_prefix (label, "s3-") && _smprof_s3_client_region_is_valid (label + 3) &&
          strcmp (label + 3, "external-1") != 0)
        return g_strdup (label + 3);
      if (strcmp (label, "s3") == 0 && i + 3 < n)
        {
          const char *next = strcmp (labels[i + 1], "dualstack") == 0 ? labels[i + 2] : labels[i + 1];

          if (_smprof_s3_client_region_is_valid (next) && strcmp (next, "amazonaws") != 0)
            return g_strdup (next);
        }
    }

  return NULL;
}

/* The host of a URL or of a bare host name, as S3's <Endpoint> gives it. */
static char *
host_of (const char *location)
{
  g_autoptr(GUri) uri = NULL;

  if (location == NULL)
    return NULL;
  if (strstr (location, "://") == NULL)
    return g_strdup (location);

  uri = g_uri_parse (location, G_URI_FLAGS_NONE, NULL);
  return uri != NULL ? g_strdup (g_uri_get_host (uri)) : NULL;
}

/* Where S3 says the bucket lives: the x-amz-bucket-region header (301 and
 * HEAD answers), the <Region> of AuthorizationHeaderMalformed, the host it
 * redirects to (Location, or <Endpoint>), or a message such as Swift's "the
 * region 'eu-west-1' is wrong; expecting 'us-east-1'". */
static char *
region_hint (SoupMessage           *message,
             SmprofS3ErrorResponse *response)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (message);
  const char *header = soup_message_headers_get_one (headers, "x-amz-bucket-region");
  const char *expecting;
  g_autofree char *location_host = host_of (soup_message_headers_get_one (headers, "Location"));
  g_autofree char *endpoint_host = host_of (response != NULL ? response->endpoint : NULL);
  char *from_host;

  if (_smprof_s3_client_region_is_valid (header))
    return g_strdup (header);
  if (response != NULL && _smprof_s3_client_region_is_valid (response->region))
    return g_strdup (response->region);
  if ((from_host = region_of_host (location_host)) != NULL || (from_host = region_of_host (endpoint_host)) != NULL)
    return from_host;

  if (response != NULL && response->message != NULL &&
      (expecting = strstr (response->message, "expecting '")) != NULL)
    {
      g_autofree char *region = g_strdup (expecting + strlen ("expecting '"));
      char *quote = strchr (region, '\'');

      if (quote != NULL)
        {
          *quote = '\0';
          if (_smprof_s3_client_region_is_valid (region))
            return g_steal_pointer (&region);
        }
    }

  return NULL;
}

/* What S3's Date header says of this machine's clock: the seconds it is
 * ahead of S3's (behind when negative), in @offset. */
static gboolean
clock_offset (SoupMessage *message,
              gint64      *offset)
{
  const char *date = soup_message_headers_get_one (soup_message_get_response_headers (message), "Date");
  g_autoptr(GDateTime) server = date != NULL ? soup_date_time_new_from_http_string (date) : NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  if (server == NULL)
    return FALSE;

  *offset = g_date_time_difference (now, server) / G_USEC_PER_SEC;
  return TRUE;
}

static GError *
clock_error (const Request *request,
             SoupMessage   *message)
{
  gint64 offset = 0;
  guint64 magnitude;

  if (!clock_offset (message, &offset))
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_CLOCK_SKEWED,
                        _("S3 refused the request for %s: this computer's clock is too far from S3's "
                          "(RequestTimeTooSkewed); set the clock right"),
                        request->what);

  magnitude = (guint64) (offset < 0 ? -offset : offset);
  if (offset < 0)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_CLOCK_SKEWED,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "S3 refused the request for %s: this computer's clock is %llu second "
                                     "behind S3's (RequestTimeTooSkewed); set the clock right",
                                     "S3 refused the request for %s: this computer's clock is %llu seconds "
                                     "behind S3's (RequestTimeTooSkewed); set the clock right",
                                     magnitude),
                        request->what, (unsigned long long) magnitude);

  return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_CLOCK_SKEWED,
                      g_dngettext (GETTEXT_PACKAGE,
                                   "S3 refused the request for %s: this computer's clock is %llu second "
                                   "ahead of S3's (RequestTimeTooSkewed); set the clock right",
                                   "S3 refused the request for %s: this computer's clock is %llu seconds "
                                   "ahead of S3's (RequestTimeTooSkewed); set the clock right",
                                   magnitude),
                      request->what, (unsigned long long) magnitude);
}

static GError *
error_for_answer (SmprofS3Client        *self,
                  const Request         *request,
                  SoupMessage           *answer,
                  SmprofS3ErrorResponse *response,
                  SmprofAwsCredentials  *credentials,
                  const char            *region,
                  const char            *hint)
{
  guint status = soup_message_get_status (answer);
  const char *code = response != NULL ? response->code : NULL;
  const char *message = response != NULL && response->message != NULL ? response->message : NULL;
  g_autofree char *said = NULL;

  if (code != NULL)
    said = message != NULL ? g_strdup_printf ("%s: %s", code, message) : g_strdup (code);
  else
    said = g_strdup_printf ("HTTP %u %s", status, soup_status_get_phrase (status));

  if (g_strcmp0 (code, "RequestTimeTooSkewed") == 0)
    return clock_error (request, answer);

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

  /* S3 said where, yet its answer stands: the endpoint set does not serve
   * that region (or redirects keep coming), and only the user can change it. */
  if ((status == 301 || status == 307 || g_strcmp0 (code, "PermanentRedirect") == 0 ||
       g_strcmp0 (code, "AuthorizationHeaderMalformed") == 0) && hint != NULL)
    {
      const char *location = soup_message_headers_get_one (soup_message_get_response_headers (answer), "Location");

      if (location != NULL)
        return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_WRONG_REGION,
                            _("the bucket “%s” is in region %s (S3 says so, and redirects to %s), which %s "
                              "does not serve; set AWS_REGION=%s, with an endpoint of that region if you "
                              "set one (%s)"),
                            request->bucket, hint, location, self->endpoint_id, hint, said);
      return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_WRONG_REGION,
                          _("the bucket “%s” is in region %s (S3 says so), which %s does not serve; set "
                            "AWS_REGION=%s, with an endpoint of that region if you set one (%s)"),
                          request->bucket, hint, self->endpoint_id, hint, said);
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

/* Reads an error document, at most MAX_ERROR_BODY bytes of it. */
static GBytes *
read_error_body (GInputStream  *stream,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  guint8 buffer[16 * 1024];

  while (data->len < MAX_ERROR_BODY)
    {
      gssize n = g_input_stream_read (stream, buffer, sizeof buffer, cancellable, error);

      if (n < 0)
        return NULL;
      if (n == 0)
        break;
      g_byte_array_append (data, buffer, (guint) MIN ((gsize) n, MAX_ERROR_BODY - data->len));
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}

typedef enum
{
  BODY_WHOLE,
  BODY_OVER_LIMIT,   /* more came than the limit */
  BODY_READ_FAILED,  /* the connection failed: *error, to be retried unless cancelled */
  BODY_SINK_FAILED,  /* the sink failed: *error, final */
} BodyResult;

/* Streams a 2xx body into @sink, at most @limit bytes; *received counts them. */
static BodyResult
read_into_sink (GInputStream  *stream,
                SmprofS3Sink  *sink,
                guint64        limit,
                guint64       *received,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autofree guint8 *buffer = g_malloc (64 * 1024);

  *received = 0;

  for (;;)
    {
      gssize n = g_input_stream_read (stream, buffer, 64 * 1024, cancellable, error);

      if (n < 0)
        return BODY_READ_FAILED;
      if (n == 0)
        return BODY_WHOLE;
      if (*received + (guint64) n > limit)
        return BODY_OVER_LIMIT;
      if (!sink->write (sink, buffer, n, error))
        return BODY_SINK_FAILED;
      *received += n;
    }
}

/* An object longer than listed is another version of it, which its caller
 * may list again; anything else longer than its limit is refused. */
static GError *
too_big_error (const Request *request,
               guint64        announced)
{
  if (request->expected_size != G_MAXUINT64)
    {
      if (announced > 0)
        return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_CHANGED,
                            _("%s: the answer announces %llu bytes, where the listing said %llu: the object "
                              "changed since it was listed"),
                            request->what, (unsigned long long) announced,
                            (unsigned long long) request->expected_size);
      return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_CHANGED,
                          _("%s: the answer goes on past the %llu bytes the listing said: the object changed "
                            "since it was listed"),
                          request->what, (unsigned long long) request->expected_size);
    }

  if (announced > 0)
    return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                        _("%s: the answer announces %llu bytes, more than the %llu expected"),
                        request->what, (unsigned long long) announced, (unsigned long long) request->max_body);

  return g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                      _("%s: the answer goes on past the %llu bytes expected"),
                      request->what, (unsigned long long) request->max_body);
}

/* The wait a Retry-After header asks for (seconds, or an HTTP date), at
 * most SMPROF_S3_RETRY_AFTER_MAX seconds; 0 without one. */
static gint64
retry_after_us (SoupMessage *message)
{
  const char *value = soup_message_headers_get_one (soup_message_get_response_headers (message), "Retry-After");
  g_autofree char *text = NULL;
  guint64 seconds = 0;

  if (value == NULL)
    return 0;

  text = g_strstrip (g_strdup (value));
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &seconds, NULL))
    {
      g_autoptr(GDateTime) when = soup_date_time_new_from_http_string (text);
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      GTimeSpan wait;

      if (when == NULL)
        return 0;
      wait = g_date_time_difference (when, now);
      seconds = wait > 0 ? (guint64) ((wait + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC) : 0;
    }

  return (gint64) MIN (seconds, SMPROF_S3_RETRY_AFTER_MAX) * G_USEC_PER_SEC;
}

/* Sends @request until it succeeds, fails for good, or runs out of attempts;
 * the body of the 2xx answer goes to @request's sink. A body cut short, or
 * shorter than the listing said, is a failed attempt like a reset. */
gboolean
_smprof_s3_client_perform (SmprofS3Client  *self,
                           const Request   *request,
                           char           **etag,
                           GCancellable    *cancellable,
                           GError         **error)
{
  g_autoptr(GError) last_error = NULL;
  guint region_switches = 0;
  gboolean credentials_refreshed = FALSE;
  gboolean got_answer = FALSE;
  /* the last attempt gave a whole answer of another size than listed */
  gboolean last_was_other_size = FALSE;
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
      gint64 wait_us = 0;
      guint status;

      if (self->credentials != NULL)
        {
          credentials = smprof_aws_credentials_provider_get (self->credentials, cancellable, error);
          if (credentials == NULL)
            return FALSE;
        }

      message = _smprof_s3_client_build_message (self, request, region, credentials);
      if (failures > 0 || region_switches > 0)
        g_atomic_int_inc (&self->n_retries);
      g_atomic_int_inc (&self->n_requests);
      last_was_other_size = FALSE;

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
              return FALSE;
            }
          g_clear_error (&last_error);
          last_error = g_steal_pointer (&local_error);
          goto retry;
        }

      got_answer = TRUE;
      status = soup_message_get_status (message);
      headers = soup_message_get_response_headers (message);

      if (SOUP_STATUS_IS_SUCCESSFUL (status))
        {
          gint64 announced = -1;
          guint64 limit = request->expected_size != G_MAXUINT64 ? request->expected_size : request->max_body;
          guint64 received = 0;
          BodyResult result;

          if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH)
            announced = soup_message_headers_get_content_length (headers);

          /* Refused before reading: a length beyond what the listing said. */
          if (announced >= 0 && (guint64) announced > limit)
            {
              g_input_stream_close (stream, NULL, NULL);
              g_propagate_error (error, too_big_error (request, announced));
              return FALSE;
            }

          /* A length short of the listed size: not the object listed, or a
           * proxy that cut it. Another attempt, and a word if all are so. */
          if (announced >= 0 && request->expected_size != G_MAXUINT64 && (guint64) announced < request->expected_size)
            {
              g_autofree char *said = NULL;

              /* a 200 holding an S3 <Error> document is what it says */
              if ((guint64) announced <= MAX_ERROR_BODY)
                body = read_error_body (stream, cancellable, NULL);
              g_input_stream_close (stream, NULL, NULL);
              if (body != NULL)
                said = _smprof_s3_client_error_document_said (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
              if (said != NULL)
                {
                  g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                               _("%s was answered with an S3 error document (%s) instead of the object"),
                               request->what, said);
                  return FALSE;
                }
              g_clear_error (&last_error);
              last_error = g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_CHANGED,
                                        _("the answer announces %llu bytes, where the listing said %llu"),
                                        (unsigned long long) announced,
                                        (unsigned long long) request->expected_size);
              last_was_other_size = TRUE;
              goto retry;
            }

          if (!request->sink->begin (request->sink, announced, error))
            {
              g_input_stream_close (stream, NULL, NULL);
              return FALSE;
            }

          result = read_into_sink (stream, request->sink, limit, &received, cancellable, &local_error);
          /* closing early drops the connection instead of draining the rest */
          g_input_stream_close (stream, NULL, NULL);

          switch (result)
            {
            case BODY_OVER_LIMIT:
              g_propagate_error (error, too_big_error (request, 0));
              return FALSE;
            case BODY_SINK_FAILED:
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            case BODY_READ_FAILED:
              if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&local_error));
                  return FALSE;
                }
              g_clear_error (&last_error);
              last_error = g_steal_pointer (&local_error);
              goto retry;
            case BODY_WHOLE:
            default:
              break;
            }

          /* With "Connection: close" a connection cut mid-body reads as the
           * end of it: the length tells. */
          if (announced >= 0 && received < (guint64) announced)
            {
              g_clear_error (&last_error);
              last_error = g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                                        _("the answer ended after %llu of the %llu bytes it announced"),
                                        (unsigned long long) received, (unsigned long long) announced);
              goto retry;
            }
          if (request->expected_size != G_MAXUINT64 && received < request->expected_size)
            {
              g_clear_error (&last_error);
              last_error = g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                                        _("the answer ended after %llu of the %llu bytes listed"),
                                        (unsigned long long) received,
                                        (unsigned long long) request->expected_size);
              goto retry;
            }

          if (etag != NULL)
            *etag = g_strdup (soup_message_headers_get_one (headers, "ETag"));

          return TRUE;
        }

      body = read_error_body (stream, cancellable, &local_error);
      g_input_stream_close (stream, NULL, NULL);
      if (body == NULL)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          g_clear_error (&last_error);
          last_error = g_steal_pointer (&local_error);
          goto retry;
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
          g_propagate_error (error, error_for_answer (self, request, message, response, credentials, region, hint));
          return FALSE;
        }

      slow_down = response != NULL && strcmp (response->code, "SlowDown") == 0;
      wait_us = retry_after_us (message);
      g_clear_error (&last_error);
      last_error = g_error_new (SMPROF_S3_ERROR, SMPROF_S3_ERROR_FAILED, "%u %s", status,
                                response != NULL ? response->code : soup_status_get_phrase (status));

    retry:
      failures++;
      if (failures >= self->max_attempts)
        break;
      g_debug ("%s: attempt %u failed (%s), retrying", request->what, failures, last_error->message);
      /* the server's word on when to come back, if it is longer */
      if (!sleep_cancellable (MAX (backoff_us (failures, slow_down), wait_us), cancellable, error))
        return FALSE;
    }

  /* every failed attempt left its error; max_attempts is at least 1 */
  g_assert (last_error != NULL);

  if (!got_answer)
    g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_UNREACHABLE,
                 _("cannot reach the S3 endpoint %s for %s after %u attempts: %s"),
                 self->endpoint_id, request->what, failures, last_error->message);
  else
    g_set_error (error, SMPROF_S3_ERROR, last_was_other_size ? SMPROF_S3_ERROR_CHANGED : SMPROF_S3_ERROR_FAILED,
                 _("%s failed %u times; last: %s"), request->what, failures, last_error->message);

  return FALSE;
}
