/* test-s3-listing.c: ListObjectsV2 pages and S3 error documents
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-s3-error.h"
#include "smprof-s3-listing.h"

static SmprofS3ListPage *
parse (const char  *xml,
       GError     **error)
{
  return smprof_s3_list_page_parse (xml, strlen (xml), error);
}

static SmprofS3Object *
object_at (SmprofS3ListPage *page,
           guint             i)
{
  g_assert_cmpuint (i, <, page->objects->len);
  return g_ptr_array_index (page->objects, i);
}

/* As AWS answers, elements in its order, with Owner and ChecksumAlgorithm
 * nested in Contents. */
static void
test_page (void)
{
  const char *xml =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
    "<Name>bucket</Name><Prefix>job/framework/pytorch/cprofile/0-algo-1/</Prefix>"
    "<KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>"
    "<Contents><Key>job/framework/pytorch/cprofile/0-algo-1/a/python_stats</Key>"
    "<LastModified>2026-11-29T22:35:29.000Z</LastModified>"
    "<ETag>&quot;49f68a5c8493ec2c0bf489821c21fc3b&quot;</ETag>"
    "<ChecksumAlgorithm>CRC32</ChecksumAlgorithm>"
    "<Size>12345</Size><Owner><ID>abc</ID><DisplayName>me</DisplayName></Owner>"
    "<StorageClass>STANDARD</StorageClass></Contents>"
    "<Contents><Key>job/framework/pytorch/cprofile/0-algo-1/b/python_stats.json</Key>"
    "<Size>0</Size></Contents>"
    "<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>"
    "</ListBucketResult>";
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofS3ListPage) page = parse (xml, &error);

  g_assert_no_error (error);
  g_assert_nonnull (page);
  g_assert_cmpuint (page->objects->len, ==, 2);
  g_assert_cmpstr (object_at (page, 0)->key, ==, "job/framework/pytorch/cprofile/0-algo-1/a/python_stats");
  g_assert_cmpuint (object_at (page, 0)->size, ==, 12345);
  g_assert_cmpstr (object_at (page, 0)->etag, ==, "\"49f68a5c8493ec2c0bf489821c21fc3b\"");
  g_assert_cmpuint (object_at (page, 1)->size, ==, 0);
  g_assert_null (object_at (page, 1)->etag);
  g_assert_true (page->truncated);
  g_assert_cmpstr (page->next_continuation_token, ==, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
  g_assert_cmpuint (page->prefixes->len, ==, 0);
  g_assert_cmpuint (page->bad_keys->len, ==, 0);
}

static void
test_common_prefixes (void)
{
  const char *xml =
    "<ListBucketResult><Prefix>job/framework/</Prefix><Delimiter>/</Delimiter>"
    "<IsTruncated>false</IsTruncated>"
    "<CommonPrefixes><Prefix>job/framework/pevents/</Prefix></CommonPrefixes>"
    "<CommonPrefixes><Prefix>job/framework/pytorch/</Prefix></CommonPrefixes>"
    "</ListBucketResult>";
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofS3ListPage) page = parse (xml, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (page->objects->len, ==, 0);
  g_assert_cmpuint (page->prefixes->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (page->prefixes, 0), ==, "job/framework/pevents/");
  g_assert_cmpstr (g_ptr_array_index (page->prefixes, 1), ==, "job/framework/pytorch/");
  g_assert_false (page->truncated);
  g_assert_null (page->next_continuation_token);
}

/* encoding-type=url: keys are form-encoded, so '+' is a space and a real
 * plus is %2B; EncodingType may come after the keys. */
static void
test_url_encoding (void)
{
  const char *xml =
    "<ListBucketResult><IsTruncated>false</IsTruncated>"
    "<Contents><Key>a+b%2Bc/%C3%A9t%C3%A9/x%0Ay</Key><Size>1</Size></Contents>"
    "<Contents><Key>bad%ZZ</Key><Size>1</Size></Contents>"
    "<Contents><Key>not-utf8%FF</Key><Size>1</Size></Contents>"
    "<Contents><Key>no-size</Key></Contents>"
    "<CommonPrefixes><Prefix>p%20q/</Prefix></CommonPrefixes>"
    "<EncodingType>url</EncodingType></ListBucketResult>";
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofS3ListPage) page = parse (xml, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (page->objects->len, ==, 1);
  g_assert_cmpstr (object_at (page, 0)->key, ==, "a b+c/été/x\ny");
  g_assert_cmpstr (g_ptr_array_index (page->prefixes, 0), ==, "p q/");
  /* one bad object never loses the page */
  g_assert_cmpuint (page->bad_keys->len, ==, 3);
  g_assert_true (strstr (g_ptr_array_index (page->bad_keys, 0), "bad%ZZ") != NULL);
  g_assert_true (strstr (g_ptr_array_index (page->bad_keys, 2), "no-size") != NULL);
}

/* Without EncodingType the text is taken as it is. */
static void
test_plain_keys (void)
{
  const char *xml =
    "<ListBucketResult><Contents><Key>a+b%20c</Key><Size>7</Size></Contents></ListBucketResult>";
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofS3ListPage) page = parse (xml, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (object_at (page, 0)->key, ==, "a+b%20c");
}

static void
test_not_a_listing (void)
{
  static const char *bad[] = {
    "",
    "   ",
    "<Error><Code>AccessDenied</Code></Error>",
    "<ListBucketResult><Contents><Key>a</Key>",
    "not xml at all",
    "<ListBucketResult></ListBucketResult><extra/>",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SmprofS3ListPage) page = parse (bad[i], &error);

      g_assert_null (page);
      g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE);
    }
}

static void
test_error_document (void)
{
  const char *xml =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Error><Code>AuthorizationHeaderMalformed</Code>"
    "<Message>The authorization header is malformed; the region &apos;us-east-1&apos; is wrong; "
    "expecting &apos;eu-west-1&apos;</Message><Region>eu-west-1</Region>"
    "<RequestId>ABC</RequestId><HostId>xyz</HostId></Error>";
  g_autoptr(SmprofS3ErrorResponse) response = smprof_s3_error_response_parse (xml, strlen (xml));

  g_assert_nonnull (response);
  g_assert_cmpstr (response->code, ==, "AuthorizationHeaderMalformed");
  g_assert_cmpstr (response->region, ==, "eu-west-1");
  g_assert_true (g_str_has_suffix (response->message, "expecting 'eu-west-1'"));
}

static void
test_error_document_rejects (void)
{
  static const char *not_errors[] = {
    "",
    "Bad URL",
    "<ListBucketResult/>",
    "<Error><Message>no code</Message></Error>",
    "<Error><Code>Truncated",
  };

  for (guint i = 0; i < G_N_ELEMENTS (not_errors); i++)
    g_assert_null (smprof_s3_error_response_parse (not_errors[i], strlen (not_errors[i])));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/s3-listing/page", test_page);
  g_test_add_func ("/s3-listing/common-prefixes", test_common_prefixes);
  g_test_add_func ("/s3-listing/url-encoding", test_url_encoding);
  g_test_add_func ("/s3-listing/plain-keys", test_plain_keys);
  g_test_add_func ("/s3-listing/not-a-listing", test_not_a_listing);
  g_test_add_func ("/s3-error/document", test_error_document);
  g_test_add_func ("/s3-error/rejects", test_error_document_rejects);

  return g_test_run ();
}
