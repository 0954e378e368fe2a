/* smprof-aws-sigv4.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "smprof-aws-sigv4.h"

#define ALGORITHM "AWS4-HMAC-SHA256"

/* A plain memset() of a buffer about to die may be optimised away; the key
 * derived from the secret should not outlive its use. */
static void
wipe (void  *data,
      gsize  length)
{
  volatile guint8 *bytes = data;

  while (length-- > 0)
    *bytes++ = 0;
}

/**
 * smprof_aws_uri_encode:
 * @text: a path, key, query name or value, not encoded
 * @keep_slash: %TRUE for a path, where `/` separates segments
 *
 * Encodes as SigV4 wants: every byte but RFC 3986's unreserved characters
 * becomes `%XX` (upper case), so a space is `%20`, never `+`.
 *
 * Returns: (transfer full): the encoded text
 */
char *
smprof_aws_uri_encode (const char *text,
                       gboolean    keep_slash)
{
  g_return_val_if_fail (text != NULL, NULL);

  /* GLib keeps exactly RFC 3986's unreserved characters (and those allowed
   * here), and writes the others as upper-case %XX, byte by byte. */
  return g_uri_escape_string (text, keep_slash ? "/" : NULL, FALSE);
}

/**
 * smprof_aws_sha256_hex:
 * @data: (array length=length): bytes
 * @length: how many
 *
 * Returns: (transfer full): the SHA-256 of @data, in lower-case hex
 */
char *
smprof_aws_sha256_hex (const void *data,
                       gsize       length)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, length);
}

/**
 * smprof_aws_format_amz_date:
 * @time: a time
 *
 * Returns: (transfer full): @time in UTC as `YYYYMMDDTHHMMSSZ`
 */
char *
smprof_aws_format_amz_date (GDateTime *time)
{
  g_autoptr(GDateTime) utc = g_date_time_to_utc (time);

  return g_date_time_format (utc, "%Y%m%dT%H%M%SZ");
}

typedef struct
{
  char *name;
  char *value;
} EncodedPair;

static int
compare_encoded_pairs (gconstpointer a,
                       gconstpointer b)
{
  const EncodedPair *x = a;
  const EncodedPair *y = b;
  int cmp = strcmp (x->name, y->name);

  return cmp != 0 ? cmp : strcmp (x->value, y->value);
}

/**
 * smprof_aws_sigv4_canonical_query:
 * @query: (array length=n_query): parameters, not encoded
 * @n_query: how many
 *
 * Sorts the parameters by encoded name (then value) and encodes both, `/` and
 * `=` included. Send the query exactly so: S3 rebuilds this string from what
 * it receives, and curl's habit of leaving `/` and `=` raw is what makes its
 * listings fail against strict servers.
 *
 * Returns: (transfer full): `name=value&...`, empty for no parameters
 */
char *
smprof_aws_sigv4_canonical_query (const SmprofAwsPair *query,
                                  guint                n_query)
{
  g_autofree EncodedPair *pairs = g_new0 (EncodedPair, MAX (n_query, 1));
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n_query; i++)
    {
      pairs[i].name = smprof_aws_uri_encode (query[i].name, FALSE);
      pairs[i].value = smprof_aws_uri_encode (query[i].value != NULL ? query[i].value : "", FALSE);
    }

  qsort (pairs, n_query, sizeof *pairs, compare_encoded_pairs);

  for (guint i = 0; i < n_query; i++)
    {
      if (i > 0)
        g_string_append_c (out, '&');
      g_string_append (out, pairs[i].name);
      g_string_append_c (out, '=');
      g_string_append (out, pairs[i].value);
      g_free (pairs[i].name);
      g_free (pairs[i].value);
    }

  return g_string_free (out, FALSE);
}

/* Header values are trimmed and inner runs of spaces collapse to one. */
static char *
canonical_header_value (const char *value)
{
  GString *out = g_string_new (NULL);
  gboolean in_space = FALSE;

  while (*value == ' ' || *value == '\t')
    value++;

  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == ' ' || *p == '\t')
        in_space = TRUE;
      else
        {
          if (in_space && out->len > 0)
            g_string_append_c (out, ' ');
          in_space = FALSE;
          g_string_append_c (out, *p);
        }
    }

  return g_string_free (out, FALSE);
}

/**
 * smprof_aws_sigv4_canonical_request:
 * @request: what to sign
 * @signed_headers: (out) (optional) (transfer full): the `SignedHeaders` list
 *
 * Returns: (transfer full): the canonical request of SigV4
 */
char *
smprof_aws_sigv4_canonical_request (const SmprofAwsRequest  *request,
                                    char                   **signed_headers)
{
  g_autofree EncodedPair *headers = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *query = NULL;
  GString *names = g_string_new (NULL);
  GString *out = g_string_new (NULL);
  guint n = 0;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->path != NULL && request->path[0] == '/', NULL);

  uri = smprof_aws_uri_encode (request->path, TRUE);
  query = smprof_aws_sigv4_canonical_query (request->query, request->n_query);

  /* Lower-cased names, sorted; a name given twice gets its values joined by
   * commas in the order given, as HTTP folds them. */
  headers = g_new0 (EncodedPair, MAX (request->n_headers, 1));
  for (guint i = 0; i < request->n_headers; i++)
    {
      g_autofree char *name = g_ascii_strdown (request->headers[i].name, -1);
      g_autofree char *value = canonical_header_value (request->headers[i].value);
      guint j;

      for (j = 0; j < n; j++)
        if (strcmp (headers[j].name, name) == 0)
          break;

      if (j < n)
        {
          char *joined = g_strconcat (headers[j].value, ",", value, NULL);

          g_free (headers[j].value);
          headers[j].value = joined;
        }
      else
        {
          headers[n].name = g_steal_pointer (&name);
          headers[n].value = g_steal_pointer (&value);
          n++;
        }
    }

  /* Names are unique now, so the order never looks at the values. */
  qsort (headers, n, sizeof *headers, compare_encoded_pairs);

  g_string_append_printf (out, "%s\n%s\n%s\n", request->method, uri, query);
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%s:%s\n", headers[i].name, headers[i].value);
      if (i > 0)
        g_string_append_c (names, ';');
      g_string_append (names, headers[i].name);
      g_free (headers[i].name);
      g_free (headers[i].value);
    }
  g_string_append_printf (out, "\n%s\n%s", names->str,
                          request->payload_hash != NULL ? request->payload_hash : SMPROF_AWS_EMPTY_PAYLOAD_SHA256);

  if (signed_headers != NULL)
    *signed_headers = g_string_free (names, FALSE);
  else
    g_string_free (names, TRUE);

  return g_string_free (out, FALSE);
}

static void
hmac_sha256 (const guint8 *key,
             gsize         key_length,
             const char   *data,
             guint8        out[32])
{
  g_autoptr(GHmac) hmac = g_hmac_new (G_CHECKSUM_SHA256, key, key_length);
  gsize length = 32;

  g_hmac_update (hmac, (const guchar *) data, strlen (data));
  g_hmac_get_digest (hmac, out, &length);
  g_assert (length == 32);
}

/**
 * smprof_aws_sigv4_signing_key:
 * @secret_access_key: the secret
 * @date: the day, `YYYYMMDD`
 * @region: the region, such as `us-east-1`
 * @service: `s3`
 * @key: (out caller-allocates) (array fixed-size=32): the signing key
 *
 * The HMAC chain `AWS4`+secret → date → region → service → `aws4_request`.
 */
void
smprof_aws_sigv4_signing_key (const char *secret_access_key,
                              const char *date,
                              const char *region,
                              const char *service,
                              guint8      key[32])
{
  g_autofree char *seed = g_strconcat ("AWS4", secret_access_key, NULL);
  guint8 k_date[32], k_region[32], k_service[32];

  hmac_sha256 ((const guint8 *) seed, strlen (seed), date, k_date);
  hmac_sha256 (k_date, 32, region, k_region);
  hmac_sha256 (k_region, 32, service, k_service);
  hmac_sha256 (k_service, 32, "aws4_request", key);

  wipe (seed, strlen (seed));
  wipe (k_date, sizeof k_date);
  wipe (k_region, sizeof k_region);
  wipe (k_service, sizeof k_service);
}

/**
 * smprof_aws_sigv4_sign:
 * @request: what to sign
 * @access_key_id: the access key id
 * @secret_access_key: its secret
 * @region: the region
 * @service: `s3`
 * @amz_date: the `x-amz-date` value signed in @request, `YYYYMMDDTHHMMSSZ`
 *
 * Returns: (transfer full): the signature and what it was computed from
 */
SmprofAwsSignature *
smprof_aws_sigv4_sign (const SmprofAwsRequest *request,
                       const char             *access_key_id,
                       const char             *secret_access_key,
                       const char             *region,
                       const char             *service,
                       const char             *amz_date)
{
  SmprofAwsSignature *signature;
  g_autofree char *signed_headers = NULL;
  g_autofree char *canonical_hash = NULL;
  g_autofree char *date = NULL;
  g_autofree char *scope = NULL;
  g_autofree char *hex = NULL;
  guint8 key[32];
  guint8 mac[32];

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (access_key_id != NULL && secret_access_key != NULL, NULL);
  g_return_val_if_fail (region != NULL && service != NULL, NULL);
  g_return_val_if_fail (amz_date != NULL && strlen (amz_date) >= 8, NULL);

  signature = g_new0 (SmprofAwsSignature, 1);
  signature->canonical_request = smprof_aws_sigv4_canonical_request (request, &signed_headers);

  date = g_strndup (amz_date, 8);
  scope = g_strdup_printf ("%s/%s/%s/aws4_request", date, region, service);
  canonical_hash = smprof_aws_sha256_hex (signature->canonical_request,
                                          strlen (signature->canonical_request));
  signature->string_to_sign = g_strdup_printf (ALGORITHM "\n%s\n%s\n%s", amz_date, scope, canonical_hash);

  smprof_aws_sigv4_signing_key (secret_access_key, date, region, service, key);
  hmac_sha256 (key, sizeof key, signature->string_to_sign, mac);
  wipe (key, sizeof key);

  hex = g_malloc (sizeof mac * 2 + 1);
  for (guint i = 0; i < sizeof mac; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", mac[i]);

  signature->authorization = g_strdup_printf (ALGORITHM " Credential=%s/%s,SignedHeaders=%s,Signature=%s",
                                              access_key_id, scope, signed_headers, hex);

  return signature;
}

void
smprof_aws_signature_free (SmprofAwsSignature *signature)
{
  if (signature == NULL)
    return;

  g_free (signature->authorization);
  g_free (signature->canonical_request);
  g_free (signature->string_to_sign);
  g_free (signature);
}
