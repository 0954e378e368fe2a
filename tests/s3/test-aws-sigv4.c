/* test-aws-sigv4.c: the SigV4 signer against AWS's published S3 examples
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-aws-sigv4.h"

/* The worked examples of AWS's S3 API reference ("Authenticating Requests:
 * Using the Authorization Header"), as recomputed in the project's notes. */
#define ACCESS_KEY "AKIAIOSFODNN7EXAMPLE"
#define SECRET_KEY "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define REGION "us-east-1"
#define AMZ_DATE "20130524T000000Z"
#define HOST "examplebucket.s3.amazonaws.com"

static void
test_get_object_with_range (void)
{
  const SmprofAwsPair headers[] = {
    { "Host", HOST },
    { "Range", "bytes=0-9" },
    { "x-amz-content-sha256", SMPROF_AWS_EMPTY_PAYLOAD_SHA256 },
    { "x-amz-date", AMZ_DATE },
  };
  const SmprofAwsRequest request = {
    "GET", "/test.txt", NULL, 0, headers, G_N_ELEMENTS (headers), SMPROF_AWS_EMPTY_PAYLOAD_SHA256,
  };
  g_autoptr(SmprofAwsSignature) signature = NULL;

  signature = smprof_aws_sigv4_sign (&request, ACCESS_KEY, SECRET_KEY, REGION, "s3", AMZ_DATE);

  g_assert_cmpstr (signature->canonical_request, ==,
                   "GET\n"
                   "/test.txt\n"
                   "\n"
                   "host:examplebucket.s3.amazonaws.com\n"
                   "range:bytes=0-9\n"
                   "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
                   "x-amz-date:20130524T000000Z\n"
                   "\n"
                   "host;range;x-amz-content-sha256;x-amz-date\n"
                   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  g_assert_cmpstr (signature->string_to_sign, ==,
                   "AWS4-HMAC-SHA256\n"
                   "20130524T000000Z\n"
                   "20130524/us-east-1/s3/aws4_request\n"
                   "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  g_assert_cmpstr (signature->authorization, ==,
                   "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                   "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                   "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

static void
test_list_objects (void)
{
  /* given out of order: the signer sorts */
  const SmprofAwsPair query[] = {
    { "prefix", "J" },
    { "max-keys", "2" },
  };
  const SmprofAwsPair headers[] = {
    { "x-amz-date", AMZ_DATE },
    { "host", HOST },
    { "x-amz-content-sha256", SMPROF_AWS_EMPTY_PAYLOAD_SHA256 },
  };
  const SmprofAwsRequest request = {
    "GET", "/", query, G_N_ELEMENTS (query), headers, G_N_ELEMENTS (headers), SMPROF_AWS_EMPTY_PAYLOAD_SHA256,
  };
  g_autoptr(SmprofAwsSignature) signature = NULL;

  signature = smprof_aws_sigv4_sign (&request, ACCESS_KEY, SECRET_KEY, REGION, "s3", AMZ_DATE);

  g_assert_true (g_str_has_prefix (signature->canonical_request, "GET\n/\nmax-keys=2&prefix=J\n"));
  g_assert_true (strstr (signature->authorization, "SignedHeaders=host;x-amz-content-sha256;x-amz-date,") != NULL);
  g_assert_true (g_str_has_suffix (signature->authorization,
                                   "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"));
}

/* A secret or a date one character off must change the signature. */
static void
test_every_input_counts (void)
{
  const SmprofAwsPair headers[] = {
    { "host", HOST },
    { "x-amz-date", AMZ_DATE },
  };
  const SmprofAwsRequest request = {
    "GET", "/test.txt", NULL, 0, headers, G_N_ELEMENTS (headers), SMPROF_AWS_EMPTY_PAYLOAD_SHA256,
  };
  g_autoptr(SmprofAwsSignature) a = smprof_aws_sigv4_sign (&request, ACCESS_KEY, SECRET_KEY, REGION, "s3", AMZ_DATE);
  g_autoptr(SmprofAwsSignature) b = smprof_aws_sigv4_sign (&request, ACCESS_KEY, SECRET_KEY "x", REGION, "s3", AMZ_DATE);
  g_autoptr(SmprofAwsSignature) c = smprof_aws_sigv4_sign (&request, ACCESS_KEY, SECRET_KEY, "eu-west-1", "s3", AMZ_DATE);
  g_autoptr(SmprofAwsSignature) d = smprof_aws_sigv4_sign (&request, ACCESS_KEY, SECRET_KEY, REGION, "s3",
                                                           "20130525T000000Z");

  g_assert_cmpstr (a->authorization, !=, b->authorization);
  g_assert_cmpstr (a->authorization, !=, c->authorization);
  g_assert_cmpstr (a->authorization, !=, d->authorization);
  g_assert_null (strstr (a->authorization, SECRET_KEY));
  g_assert_null (strstr (a->canonical_request, SECRET_KEY));
  g_assert_null (strstr (a->string_to_sign, SECRET_KEY));
}

static void
test_uri_encode (void)
{
  static const struct { const char *in; gboolean keep_slash; const char *out; } cases[] = {
    { "abcXYZ019-_.~", FALSE, "abcXYZ019-_.~" },
    { "a b", FALSE, "a%20b" },
    { "a+b", FALSE, "a%2Bb" },
    { "a=b&c", FALSE, "a%3Db%26c" },
    { "a/b", FALSE, "a%2Fb" },
    { "a/b", TRUE, "a/b" },
    { "prestepzero-*-start", TRUE, "prestepzero-%2A-start" },
    { "é", FALSE, "%C3%A9" },
    { "%41", FALSE, "%2541" },
    { "/key with space/x", TRUE, "/key%20with%20space/x" },
    { "", TRUE, "" },
    /* sub-delims and control or non-UTF-8 bytes: all escaped, upper case */
    { "!'()*;:@,$", FALSE, "%21%27%28%29%2A%3B%3A%40%2C%24" },
    { "a\x01\x7f\xff/", TRUE, "a%01%7F%FF/" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = smprof_aws_uri_encode (cases[i].in, cases[i].keep_slash);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

/* Sorted by name, names and values encoded once, "=" and "/" included:
 * continuation tokens end in "=", prefixes hold "/". */
static void
test_canonical_query (void)
{
  const SmprofAwsPair query[] = {
    { "prefix", "jobs/a b/" },
    { "list-type", "2" },
    { "continuation-token", "dHJhY2VzL2EuanNvbg==" },
    { "delimiter", "/" },
    { "encoding-type", "url" },
    { "empty", "" },
  };
  g_autofree char *text = smprof_aws_sigv4_canonical_query (query, G_N_ELEMENTS (query));
  g_autofree char *none = smprof_aws_sigv4_canonical_query (NULL, 0);

  g_assert_cmpstr (text, ==,
                   "continuation-token=dHJhY2VzL2EuanNvbg%3D%3D&delimiter=%2F&empty=&encoding-type=url"
                   "&list-type=2&prefix=jobs%2Fa%20b%2F");
  g_assert_cmpstr (none, ==, "");
}

static void
test_canonical_headers (void)
{
  const SmprofAwsPair headers[] = {
    { "X-Amz-Date", AMZ_DATE },
    { "Host", "  " HOST "  " },
    { "X-Amz-Meta-Note", "  several    spaces\tand tabs  " },
    { "x-amz-meta-note", "second" },
  };
  const SmprofAwsRequest request = {
    "GET", "/k", NULL, 0, headers, G_N_ELEMENTS (headers), "UNSIGNED-PAYLOAD",
  };
  g_autofree char *signed_headers = NULL;
  g_autofree char *canonical = smprof_aws_sigv4_canonical_request (&request, &signed_headers);

  g_assert_cmpstr (signed_headers, ==, "host;x-amz-date;x-amz-meta-note");
  g_assert_cmpstr (canonical, ==,
                   "GET\n/k\n\n"
                   "host:" HOST "\n"
                   "x-amz-date:" AMZ_DATE "\n"
                   "x-amz-meta-note:several spaces and tabs,second\n"
                   "\n"
                   "host;x-amz-date;x-amz-meta-note\n"
                   "UNSIGNED-PAYLOAD");
}

/* S3 keys are encoded once in the path, never normalised: "..", "//" and
 * "*" stay as they are, only percent-encoded where needed. */
static void
test_canonical_path (void)
{
  const SmprofAwsPair headers[] = { { "host", HOST }, { "x-amz-date", AMZ_DATE } };
  const SmprofAwsRequest request = {
    "GET", "/bucket/a//b/../c d/%2F*", NULL, 0, headers, G_N_ELEMENTS (headers), NULL,
  };
  g_autofree char *canonical = smprof_aws_sigv4_canonical_request (&request, NULL);

  g_assert_true (g_str_has_prefix (canonical, "GET\n/bucket/a//b/../c%20d/%252F%2A\n\n"));
  /* no payload hash given: an empty body's */
  g_assert_true (g_str_has_suffix (canonical, "\n" SMPROF_AWS_EMPTY_PAYLOAD_SHA256));
}

static void
test_signing_key (void)
{
  guint8 a[32], b[32];

  smprof_aws_sigv4_signing_key (SECRET_KEY, "20130524", REGION, "s3", a);
  smprof_aws_sigv4_signing_key (SECRET_KEY, "20130524", REGION, "s3", b);
  g_assert_cmpmem (a, sizeof a, b, sizeof b);
  smprof_aws_sigv4_signing_key (SECRET_KEY, "20130525", REGION, "s3", b);
  g_assert_true (memcmp (a, b, sizeof a) != 0);
}

static void
test_amz_date (void)
{
  g_autoptr(GTimeZone) zone = g_time_zone_new_offset (2 * 3600);
  g_autoptr(GDateTime) time = g_date_time_new (zone, 2013, 5, 24, 2, 0, 0);
  g_autofree char *text = smprof_aws_format_amz_date (time);

  g_assert_cmpstr (text, ==, "20130524T000000Z");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/aws-sigv4/vector/get-object-range", test_get_object_with_range);
  g_test_add_func ("/aws-sigv4/vector/list-objects", test_list_objects);
  g_test_add_func ("/aws-sigv4/every-input-counts", test_every_input_counts);
  g_test_add_func ("/aws-sigv4/uri-encode", test_uri_encode);
  g_test_add_func ("/aws-sigv4/canonical-query", test_canonical_query);
  g_test_add_func ("/aws-sigv4/canonical-headers", test_canonical_headers);
  g_test_add_func ("/aws-sigv4/canonical-path", test_canonical_path);
  g_test_add_func ("/aws-sigv4/signing-key", test_signing_key);
  g_test_add_func ("/aws-sigv4/amz-date", test_amz_date);

  return g_test_run ();
}
