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

  if (_smprof_s3_client_region_is_valid (header))
    return g_strdup (header);
  if (response != NULL && _smprof_s3_client_region_is_valid (response->region))
    return g_strdup (response->region);

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
GBytes *
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

      message = _smprof_s3_client_build_message (self, request, region, credentials);
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
