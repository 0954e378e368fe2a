/* test-s3-client.c: requests, retries, redirects, errors and cancellation,
 * against a scripted S3 on a loopback server
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "s3-fake-server.h"
#include "smprof-s3-client.h"
#include "smprof-s3-error.h"

#define LISTING \
  "<ListBucketResult><IsTruncated>false</IsTruncated>" \
  "<Contents><Key>job/a</Key><Size>3</Size><ETag>\"e\"</ETag></Contents></ListBucketResult>"

typedef enum
{
  SCRIPT_OK,
  SCRIPT_500,
  SCRIPT_SLOW_DOWN,
  SCRIPT_ACCESS_DENIED,
  SCRIPT_NO_SUCH_BUCKET,
  SCRIPT_REGION,        /* 301 unless signed for eu-central-1 */
  SCRIPT_STALL,
  SCRIPT_RETRY_AFTER,   /* 503 with Retry-After: 2, then OK */
  SCRIPT_SKEWED,        /* 403 RequestTimeTooSkewed, S3's clock an hour ahead */
  SCRIPT_REGION_STUCK,  /* 301 naming eu-west-3, whatever the signature */
} Script;

typedef struct
{
  GMutex   lock;
  Script   script;
  guint    failures_left;   /* for 500 and SlowDown: then OK */
  guint    n_requests;
  gint64   request_times[8];   /* monotonic, of the first requests */
  gboolean saw_unsigned;
  gboolean saw_signed;
  char    *last_path;
} S3;

static void
s3_handler (SoupServerMessage *message,
            const char        *path,
            gpointer           user_data)
{
  S3 *s3 = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  const char *authorization = soup_message_headers_get_one (headers, "Authorization");
  const char *body = NULL;
  guint status = 0;
  gboolean failing;
  Script script;

  g_mutex_lock (&s3->lock);
  if (s3->n_requests < G_N_ELEMENTS (s3->request_times))
    s3->request_times[s3->n_requests] = g_get_monotonic_time ();
  s3->n_requests++;
  g_free (s3->last_path);
  s3->last_path = g_strdup (path);
  if (authorization != NULL)
    s3->saw_signed = TRUE;
  else
    s3->saw_unsigned = TRUE;
  script = s3->script;
  failing = s3->failures_left > 0;
  if (failing)
    s3->failures_left--;
  g_mutex_unlock (&s3->lock);

  /* every signed request carries the date and payload hash it signed */
  if (authorization != NULL)
    {
      g_assert_nonnull (soup_message_headers_get_one (headers, "x-amz-date"));
      g_assert_cmpstr (soup_message_headers_get_one (headers, "x-amz-content-sha256"), ==,
                       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
      g_assert_true (g_str_has_prefix (authorization, "AWS4-HMAC-SHA256 Credential=AKIDTEST/"));
    }

  switch (script)
    {
    case SCRIPT_500:
      if (failing)
        status = 500, body = "<Error><Code>InternalError</Code></Error>";
      break;
    case SCRIPT_SLOW_DOWN:
      if (failing)
        status = 503, body = "<Error><Code>SlowDown</Code></Error>";
      break;
    case SCRIPT_ACCESS_DENIED:
      status = 403;
      body = "<Error><Code>AccessDenied</Code><Message>User: arn:aws:iam::123456789012:user/bob "
             "is not authorized to perform: s3:ListBucket</Message></Error>";
      break;
    case SCRIPT_NO_SUCH_BUCKET:
      status = 404, body = "<Error><Code>NoSuchBucket</Code></Error>";
      break;
    case SCRIPT_REGION:
      if (authorization == NULL || strstr (authorization, "/eu-central-1/s3/aws4_request") == NULL)
        {
          soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                        "x-amz-bucket-region", "eu-central-1");
          status = 301, body = "<Error><Code>PermanentRedirect</Code></Error>";
        }
      break;
    case SCRIPT_RETRY_AFTER:
      if (failing)
        {
          soup_message_headers_replace (soup_server_message_get_response_headers (message), "Retry-After", "2");
          status = 503, body = "<Error><Code>ServiceUnavailable</Code></Error>";
        }
      break;
    case SCRIPT_SKEWED:
      {
        g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
        g_autoptr(GDateTime) later = g_date_time_add_seconds (now, 3600);
        g_autofree char *date = soup_date_time_to_string (later, SOUP_DATE_HTTP);

        soup_message_headers_replace (soup_server_message_get_response_headers (message), "Date", date);
        status = 403;
        body = "<Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time "
               "and the current time is too large.</Message><MaxAllowedSkewMilliseconds>900000"
               "</MaxAllowedSkewMilliseconds></Error>";
      }
      break;
    case SCRIPT_REGION_STUCK:
      soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                    "x-amz-bucket-region", "eu-west-3");
      soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                    "Location", "https://bucket.s3.eu-west-3.amazonaws.com/job/a");
      status = 301;
      body = "<Error><Code>PermanentRedirect</Code><Message>The bucket you are attempting to access must be "
             "addressed using the specified endpoint.</Message></Error>";
      break;
    case SCRIPT_STALL:
      /* never answered: the client must give up or be cancelled */
      soup_server_message_pause (message);
      return;
    case SCRIPT_OK:
    default:
      break;
    }

  if (status != 0)
    fake_server_respond (message, status, body);
  else if (g_str_has_suffix (path, "/job/a"))
    fake_server_respond (message, 200, "abc");
  else
    fake_server_respond (message, 200, LISTING);
}

typedef struct
{
  S3                            s3;
  FakeServer                   *server;
  SmprofAwsCredentialsProvider *credentials;
  char                         *url;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *envp[] = {
    "AWS_ACCESS_KEY_ID=AKIDTEST", "AWS_SECRET_ACCESS_KEY=secret", "AWS_EC2_METADATA_DISABLED=true", NULL,
  };

  g_mutex_init (&fixture->s3.lock);
  fixture->server = fake_server_new (s3_handler, &fixture->s3);
  fixture->url = fake_server_dup_url (fixture->server);
  fixture->credentials = smprof_aws_credentials_provider_new (envp);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->server, fake_server_free);
  g_clear_object (&fixture->credentials);
  g_clear_pointer (&fixture->url, g_free);
  g_clear_pointer (&fixture->s3.last_path, g_free);
  g_mutex_clear (&fixture->s3.lock);
}

static SmprofS3Client *
new_client (Fixture  *fixture,
            gboolean  anonymous,
            guint     timeout,
            guint     max_attempts)
{
  SmprofS3ClientOptions options = {
    fixture->url, NULL, anonymous ? NULL : fixture->credentials, 4, timeout, max_attempts,
  };
  g_autoptr(GError) error = NULL;
  SmprofS3Client *client = smprof_s3_client_new (&options, &error);

  g_assert_no_error (error);
  return client;
}

static void
test_list_and_get (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;

  g_assert_cmpstr (smprof_s3_client_get_endpoint_id (client), ==, fixture->url);

  page = smprof_s3_client_list_objects (client, "bucket", "job/", "/", NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->objects->len, ==, 1);
  /* path-style with a custom endpoint */
  g_assert_cmpstr (fixture->s3.last_path, ==, "/bucket");

  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", G_MAXUINT64, &etag, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 3);
  g_assert_cmpstr (fixture->s3.last_path, ==, "/bucket/job/a");
  g_assert_true (fixture->s3.saw_signed);
  g_assert_false (fixture->s3.saw_unsigned);
}

static void
test_retries (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 5);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GError) error = NULL;
  guint requests = 0, retries = 0;

  fixture->s3.script = SCRIPT_500;
  fixture->s3.failures_left = 2;
  page = smprof_s3_client_list_objects (client, "bucket", "job/", NULL, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (page);
  smprof_s3_client_get_counters (client, &requests, &retries);
  g_assert_cmpuint (requests, ==, 3);
  g_assert_cmpuint (retries, ==, 2);

  fixture->s3.script = SCRIPT_SLOW_DOWN;
  fixture->s3.failures_left = 1;
  {
    g_autoptr(GBytes) bytes = smprof_s3_client_get_object (client, "bucket", "job/a", G_MAXUINT64, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_nonnull (bytes);
  }
}

static void
test_gives_up (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  fixture->s3.script = SCRIPT_500;
  fixture->s3.failures_left = 1000;
  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", G_MAXUINT64, NULL, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_FAILED);
  g_assert_true (strstr (error->message, "s3://bucket/job/a") != NULL);
  g_assert_true (strstr (error->message, "3 times") != NULL);
  g_assert_cmpuint (fixture->s3.n_requests, ==, 3);
}

/* An answer longer than the listed size is refused, and not retried: the
 * object changed since it was listed. */
static void
test_too_big (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", 2, NULL, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_CHANGED);
  g_assert_true (strstr (error->message, "s3://bucket/job/a") != NULL);
  g_assert_cmpuint (fixture->s3.n_requests, ==, 1);
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_error (&error);

  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", 3, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 3);
}

static void
test_access_denied (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GError) error = NULL;

  fixture->s3.script = SCRIPT_ACCESS_DENIED;
  page = smprof_s3_client_list_objects (client, "bucket", "job/", NULL, NULL, 0, NULL, &error);
  g_assert_null (page);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_ACCESS_DENIED);
  /* the key asked for and the principal S3 named */
  g_assert_true (strstr (error->message, "s3://bucket/job/") != NULL);
  g_assert_true (strstr (error->message, "arn:aws:iam::123456789012:user/bob") != NULL);
  g_assert_true (strstr (error->message, "AKIDTEST") != NULL);
  g_assert_null (strstr (error->message, "secret"));
  /* a refusal is final: not retried */
  g_assert_cmpuint (fixture->s3.n_requests, ==, 1);
}

static void
test_no_such_bucket (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GError) error = NULL;

  fixture->s3.script = SCRIPT_NO_SUCH_BUCKET;
  page = smprof_s3_client_list_objects (client, "nope", NULL, NULL, NULL, 0, NULL, &error);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_SUCH_BUCKET);
  g_assert_true (strstr (error->message, "“nope”") != NULL);
}

static void
test_region_redirect (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = smprof_s3_client_dup_region (client);
  g_autofree char *after = NULL;

  g_assert_cmpstr (before, ==, "us-east-1");
  fixture->s3.script = SCRIPT_REGION;
  page = smprof_s3_client_list_objects (client, "bucket", "job/", NULL, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  after = smprof_s3_client_dup_region (client);
  g_assert_cmpstr (after, ==, "eu-central-1");
  g_assert_cmpuint (fixture->s3.n_requests, ==, 2);
}

/* A 503 asking to come back in 2 s is retried no sooner; the wait is the
 * server's (the backoff alone would be 0.1 to 0.2 s). */
static void
test_retry_after (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gint64 gap;

  fixture->s3.script = SCRIPT_RETRY_AFTER;
  fixture->s3.failures_left = 1;
  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", G_MAXUINT64, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fixture->s3.n_requests, ==, 2);
  gap = fixture->s3.request_times[1] - fixture->s3.request_times[0];
  g_test_message ("retried after %.2f s", gap / 1e6);
  g_assert_cmpint (gap, >=, 2 * G_USEC_PER_SEC - 50 * 1000);
  g_assert_cmpint (gap, <, (SMPROF_S3_RETRY_AFTER_MAX + 1) * G_USEC_PER_SEC);
}

/* A clock an hour behind S3's: said, with S3's time, and not retried with
 * the same clock. */
static void
test_clock_skew (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 5);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GError) error = NULL;

  fixture->s3.script = SCRIPT_SKEWED;
  page = smprof_s3_client_list_objects (client, "bucket", "job/", NULL, NULL, 0, NULL, &error);
  g_assert_null (page);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (g_error_matches (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_CLOCK_SKEWED));
  g_assert_nonnull (strstr (error->message, "clock"));
  /* 3600 s, give or take the test's own second */
  g_assert_true (strstr (error->message, "3600 seconds behind") != NULL ||
                 strstr (error->message, "3599 seconds behind") != NULL ||
                 strstr (error->message, "3601 seconds behind") != NULL);
  g_assert_cmpuint (fixture->s3.n_requests, ==, 1);
}

/* A 301 naming the bucket's region, from an endpoint that keeps answering
 * so: the error names the region and where S3 redirects. */
static void
test_region_named (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 5, 3);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GError) error = NULL;

  fixture->s3.script = SCRIPT_REGION_STUCK;
  page = smprof_s3_client_list_objects (client, "bucket", "job/", NULL, NULL, 0, NULL, &error);
  g_assert_null (page);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_WRONG_REGION);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "eu-west-3"));
  g_assert_nonnull (strstr (error->message, "AWS_REGION=eu-west-3"));
  g_assert_nonnull (strstr (error->message, "https://bucket.s3.eu-west-3.amazonaws.com/job/a"));
  g_assert_null (strstr (error->message, "did not say"));
}

static void
test_anonymous (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, TRUE, 5, 3);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", G_MAXUINT64, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (fixture->s3.saw_unsigned);
  g_assert_false (fixture->s3.saw_signed);
}

static gpointer
cancel_later (gpointer data)
{
  g_usleep (200 * 1000);
  g_cancellable_cancel (data);
  return NULL;
}

/* Cancel stops a transfer at once, not after the timeout. */
static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 30, 5);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  GThread *thread;
  gint64 start = g_get_monotonic_time ();

  fixture->s3.script = SCRIPT_STALL;
  thread = g_thread_new ("cancel", cancel_later, cancellable);
  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", G_MAXUINT64, NULL, cancellable, &error);
  g_thread_join (thread);

  g_assert_null (bytes);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

/* A stalled connection times out and is retried; when every attempt stalls,
 * the error says so. */
static void
test_timeout (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(SmprofS3Client) client = new_client (fixture, FALSE, 1, 2);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  fixture->s3.script = SCRIPT_STALL;
  bytes = smprof_s3_client_get_object (client, "bucket", "job/a", G_MAXUINT64, NULL, NULL, &error);
  g_assert_null (bytes);
  g_assert_nonnull (error);
  g_assert_true (error->domain == SMPROF_S3_ERROR);
  g_assert_cmpuint (fixture->s3.n_requests, ==, 2);
}

static gpointer
create_client_thread (gpointer data)
{
  return new_client (data, FALSE, 5, 3);
}

typedef struct
{
  SmprofS3Client *client;
  guint           n_ok;
} Worker;

static gpointer
get_thread (gpointer data)
{
  Worker *worker = data;

  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(GBytes) bytes = smprof_s3_client_get_object (worker->client, "bucket", "job/a", G_MAXUINT64, NULL, NULL, NULL);

      if (bytes != NULL)
        g_atomic_int_inc (&worker->n_ok);
    }

  return NULL;
}

/* As the viewer uses it: made on a worker thread, used from several, freed
 * on the main thread. libsoup 3.2 allows sending from any thread. */
static void
test_threads (Fixture       *fixture,
              gconstpointer  data)
{
  GThread *creator = g_thread_new ("create", create_client_thread, fixture);
  Worker worker = { g_thread_join (creator), 0 };
  GThread *threads[4];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("get", get_thread, &worker);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);

  g_assert_cmpuint (worker.n_ok, ==, 20);
  g_assert_finalize_object (worker.client);
}

static void
test_unreachable (void)
{
  SmprofS3ClientOptions options = { "http://127.0.0.1:9", NULL, NULL, 2, 2, 2 };
  g_autoptr(SmprofS3Client) client = smprof_s3_client_new (&options, NULL);
  g_autoptr(SmprofS3ListPage) page = NULL;
  g_autoptr(GError) error = NULL;

  page = smprof_s3_client_list_objects (client, "bucket", NULL, NULL, NULL, 0, NULL, &error);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_UNREACHABLE);
  g_assert_true (strstr (error->message, "http://127.0.0.1:9") != NULL);
}

static void
test_bad_endpoint (void)
{
  static const char *bad[] = { "ftp://127.0.0.1", "not a url", "http://", "127.0.0.1:9000" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      SmprofS3ClientOptions options = { bad[i] };
      g_autoptr(GError) error = NULL;
      g_autoptr(SmprofS3Client) client = smprof_s3_client_new (&options, &error);

      g_assert_null (client);
      g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_INVALID_URI);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/s3-client/list-and-get", test_list_and_get);
  ADD ("/s3-client/retries", test_retries);
  ADD ("/s3-client/gives-up", test_gives_up);
  ADD ("/s3-client/too-big", test_too_big);
  ADD ("/s3-client/access-denied", test_access_denied);
  ADD ("/s3-client/no-such-bucket", test_no_such_bucket);
  ADD ("/s3-client/region-redirect", test_region_redirect);
  ADD ("/s3-client/region-named", test_region_named);
  ADD ("/s3-client/retry-after", test_retry_after);
  ADD ("/s3-client/clock-skew", test_clock_skew);
  ADD ("/s3-client/anonymous", test_anonymous);
  ADD ("/s3-client/cancel", test_cancel);
  ADD ("/s3-client/timeout", test_timeout);
  ADD ("/s3-client/threads", test_threads);
#undef ADD
  g_test_add_func ("/s3-client/unreachable", test_unreachable);
  g_test_add_func ("/s3-client/bad-endpoint", test_bad_endpoint);

  return g_test_run ();
}
