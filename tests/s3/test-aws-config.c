/* test-aws-config.c: the shared files' parser, region and endpoint, and the
 * credentials chain (environment, files, container and IMDSv2 endpoints on a
 * loopback server)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "s3-fake-server.h"
#include "smprof-aws-config.h"
#include "smprof-aws-credentials.h"
#include "smprof-s3-error.h"

static void
test_ini (void)
{
  const char *text =
    "\xEF\xBB\xBF# a comment\r\n"
    "orphan = before any section\n"
    "[default]\r\n"
    "aws_access_key_id = AKIDDEFAULT\n"
    "AWS_Secret_Access_Key=secret=with=equals\n"
    "; another comment\n"
    "\n"
    "[  profile   dev  ]\n"
    "region: eu-west-1\n"
    "s3 =\n"
    "  addressing_style = path\n"
    "  max_concurrent_requests = 20\n"
    "output = json\n"
    "multi = first\n"
    "  second\n"
    "not a key value line\n"
    "[broken\n"
    "lost = yes\n"
    "[default]\n"
    "region = us-west-2\n";
  g_autoptr(SmprofAwsConfig) config = smprof_aws_config_new_from_data (text, -1);

  g_assert_true (smprof_aws_config_has_section (config, "default"));
  g_assert_true (smprof_aws_config_has_section (config, "profile dev"));
  g_assert_cmpstr (smprof_aws_config_get (config, "default", "aws_access_key_id"), ==, "AKIDDEFAULT");
  g_assert_cmpstr (smprof_aws_config_get (config, "default", "aws_secret_access_key"), ==, "secret=with=equals");
  /* a repeated section adds to the first */
  g_assert_cmpstr (smprof_aws_config_get (config, "default", "region"), ==, "us-west-2");
  g_assert_cmpstr (smprof_aws_config_get (config, "profile dev", "region"), ==, "eu-west-1");
  g_assert_cmpstr (smprof_aws_config_get (config, "profile dev", "s3.addressing_style"), ==, "path");
  g_assert_cmpstr (smprof_aws_config_get (config, "profile dev", "s3.max_concurrent_requests"), ==, "20");
  g_assert_null (smprof_aws_config_get (config, "profile dev", "s3"));
  g_assert_cmpstr (smprof_aws_config_get (config, "profile dev", "output"), ==, "json");
  g_assert_cmpstr (smprof_aws_config_get (config, "profile dev", "multi"), ==, "first\nsecond");
  g_assert_null (smprof_aws_config_get (config, "profile dev", "lost"));
  g_assert_null (smprof_aws_config_get (config, "default", "orphan"));
  g_assert_null (smprof_aws_config_get (config, "nothing", "region"));
}

/* No data at all, as the precondition allows: an empty file, no section. A
 * file of whitespace and comments, or a byte-order mark alone, is empty too. */
static void
test_ini_empty (void)
{
  static const struct { const char *data; gssize length; } empty[] = {
    { NULL, 0 },
    { "", 0 },
    { "", -1 },
    { "\xEF\xBB\xBF", -1 },
    { "# comment\n\n   \n", -1 },
    { "[default]", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (empty); i++)
    {
      g_autoptr(SmprofAwsConfig) config = smprof_aws_config_new_from_data (empty[i].data, empty[i].length);

      g_assert_nonnull (config);
      g_assert_false (smprof_aws_config_has_section (config, "default"));
      g_assert_null (smprof_aws_config_get (config, "default", "region"));
    }
}

typedef struct
{
  char  *dir;
  char **envp;
} Env;

static void
env_set_up (Env           *env,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  env->dir = g_dir_make_tmp ("smprof-aws-XXXXXX", &error);
  g_assert_no_error (error);
  /* nothing of the developer's: an empty home, and no metadata service */
  env->envp = g_environ_setenv (NULL, "HOME", env->dir, TRUE);
  env->envp = g_environ_setenv (env->envp, "AWS_EC2_METADATA_DISABLED", "true", TRUE);
}

static void
env_tear_down (Env           *env,
               gconstpointer  data)
{
  g_autofree char *aws = g_build_filename (env->dir, ".aws", NULL);
  const char *files[] = { "credentials", "config", "token", "other-credentials" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *a = g_build_filename (aws, files[i], NULL);
      g_autofree char *b = g_build_filename (env->dir, files[i], NULL);

      g_unlink (a);
      g_unlink (b);
    }
  g_rmdir (aws);
  g_rmdir (env->dir);
  g_free (env->dir);
  g_strfreev (env->envp);
}

static void
env_set (Env        *env,
         const char *name,
         const char *value)
{
  env->envp = g_environ_setenv (env->envp, name, value, TRUE);
}

static void
write_aws_file (Env        *env,
                const char *name,
                const char *text)
{
  g_autofree char *aws = g_build_filename (env->dir, ".aws", NULL);
  g_autofree char *path = g_build_filename (aws, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (aws, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static SmprofAwsCredentials *
get_credentials (Env     *env,
                 GError **error)
{
  g_autoptr(SmprofAwsCredentialsProvider) provider =
    smprof_aws_credentials_provider_new ((const char * const *) env->envp);

  return smprof_aws_credentials_provider_get (provider, NULL, error);
}

static void
test_region_and_endpoint (Env           *env,
                          gconstpointer  data)
{
  g_autoptr(SmprofAwsSharedConfig) shared = NULL;
  g_autofree char *region = NULL;
  g_autofree char *endpoint = NULL;

  write_aws_file (env, "config",
                  "[default]\nregion = ap-south-1\n"
                  "[profile custom]\nregion = sa-east-1\nendpoint_url = http://127.0.0.1:9000\n");

  shared = smprof_aws_shared_config_load ((const char * const *) env->envp);
  region = smprof_aws_resolve_region ((const char * const *) env->envp, shared);
  endpoint = smprof_aws_resolve_s3_endpoint ((const char * const *) env->envp, shared);
  g_assert_cmpstr (region, ==, "ap-south-1");
  g_assert_null (endpoint);
  g_clear_pointer (&shared, smprof_aws_shared_config_free);
  g_clear_pointer (&region, g_free);

  env_set (env, "AWS_PROFILE", "custom");
  shared = smprof_aws_shared_config_load ((const char * const *) env->envp);
  region = smprof_aws_resolve_region ((const char * const *) env->envp, shared);
  endpoint = smprof_aws_resolve_s3_endpoint ((const char * const *) env->envp, shared);
  g_assert_cmpstr (region, ==, "sa-east-1");
  g_assert_cmpstr (endpoint, ==, "http://127.0.0.1:9000");
  g_clear_pointer (&region, g_free);
  g_clear_pointer (&endpoint, g_free);

  /* the environment wins, AWS_REGION before AWS_DEFAULT_REGION, the S3
   * endpoint before the general one */
  env_set (env, "AWS_DEFAULT_REGION", "eu-north-1");
  region = smprof_aws_resolve_region ((const char * const *) env->envp, shared);
  g_assert_cmpstr (region, ==, "eu-north-1");
  g_clear_pointer (&region, g_free);
  env_set (env, "AWS_REGION", "us-west-1");
  region = smprof_aws_resolve_region ((const char * const *) env->envp, shared);
  g_assert_cmpstr (region, ==, "us-west-1");

  env_set (env, "AWS_ENDPOINT_URL", "http://127.0.0.1:1");
  endpoint = smprof_aws_resolve_s3_endpoint ((const char * const *) env->envp, shared);
  g_assert_cmpstr (endpoint, ==, "http://127.0.0.1:1");
  g_clear_pointer (&endpoint, g_free);
  env_set (env, "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:2");
  endpoint = smprof_aws_resolve_s3_endpoint ((const char * const *) env->envp, shared);
  g_assert_cmpstr (endpoint, ==, "http://127.0.0.1:2");
  g_clear_pointer (&endpoint, g_free);
  env_set (env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true");
  endpoint = smprof_aws_resolve_s3_endpoint ((const char * const *) env->envp, shared);
  g_assert_null (endpoint);

  /* an empty variable is no variable */
  env_set (env, "AWS_REGION", "");
  g_clear_pointer (&region, g_free);
  region = smprof_aws_resolve_region ((const char * const *) env->envp, shared);
  g_assert_cmpstr (region, ==, "eu-north-1");
}

static void
test_credentials_from_env (Env           *env,
                           gconstpointer  data)
{
  g_autoptr(SmprofAwsCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;

  write_aws_file (env, "credentials", "[default]\naws_access_key_id = FROMFILE\naws_secret_access_key = s\n");
  env_set (env, "AWS_ACCESS_KEY_ID", "FROMENV");
  env_set (env, "AWS_SECRET_ACCESS_KEY", "env-secret");
  env_set (env, "AWS_SESSION_TOKEN", "env-token");

  credentials = get_credentials (env, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (credentials->access_key_id, ==, "FROMENV");
  g_assert_cmpstr (credentials->secret_access_key, ==, "env-secret");
  g_assert_cmpstr (credentials->session_token, ==, "env-token");
  g_assert_cmpint (credentials->expiration, ==, 0);
  g_assert_cmpstr (credentials->origin, ==, "the environment");
}

static void
test_credentials_from_files (Env           *env,
                             gconstpointer  data)
{
  g_autoptr(SmprofAwsCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *other = g_build_filename (env->dir, "other-credentials", NULL);

  write_aws_file (env, "credentials",
                  "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = default-secret\n");
  write_aws_file (env, "config",
                  "[profile in-config]\naws_access_key_id = CONFIGKEY\naws_secret_access_key = config-secret\n"
                  "aws_session_token = config-token\n");

  credentials = get_credentials (env, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (credentials->access_key_id, ==, "DEFAULTKEY");
  g_assert_true (strstr (credentials->origin, "profile “default”") != NULL);
  g_assert_null (strstr (credentials->origin, "default-secret"));
  g_clear_pointer (&credentials, smprof_aws_credentials_unref);

  /* keys may live in the config file too */
  env_set (env, "AWS_PROFILE", "in-config");
  credentials = get_credentials (env, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (credentials->access_key_id, ==, "CONFIGKEY");
  g_assert_cmpstr (credentials->session_token, ==, "config-token");
  g_clear_pointer (&credentials, smprof_aws_credentials_unref);

  /* AWS_SHARED_CREDENTIALS_FILE moves the credentials file */
  g_assert_true (g_file_set_contents (other, "[moved]\naws_access_key_id=MOVED\naws_secret_access_key=m\n", -1, NULL));
  env_set (env, "AWS_SHARED_CREDENTIALS_FILE", other);
  env_set (env, "AWS_PROFILE", "moved");
  credentials = get_credentials (env, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (credentials->access_key_id, ==, "MOVED");
}

static void
test_profile_errors (Env           *env,
                     gconstpointer  data)
{
  g_autoptr(SmprofAwsCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;

  write_aws_file (env, "config", "[profile sso]\nsso_session = corp\nregion = eu-west-1\n");

  env_set (env, "AWS_PROFILE", "nowhere");
  credentials = get_credentials (env, &error);
  g_assert_null (credentials);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS);
  g_assert_true (strstr (error->message, "nowhere") != NULL);
  g_clear_error (&error);

  env_set (env, "AWS_PROFILE", "sso");
  credentials = get_credentials (env, &error);
  g_assert_null (credentials);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS);
  g_assert_true (strstr (error->message, "sso_session") != NULL);
  g_assert_true (strstr (error->message, "export-credentials") != NULL);
}

/* The message lists every place, so a user knows what to set. */
static void
test_nothing_found (Env           *env,
                    gconstpointer  data)
{
  g_autoptr(SmprofAwsCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *credentials_path = g_build_filename (env->dir, ".aws", "credentials", NULL);
  g_autofree char *config_path = g_build_filename (env->dir, ".aws", "config", NULL);

  env_set (env, "AWS_ACCESS_KEY_ID", "ONLYHALF");
  credentials = get_credentials (env, &error);
  g_assert_null (credentials);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS);
  g_assert_true (strstr (error->message, "only one of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY") != NULL);
  g_assert_true (strstr (error->message, credentials_path) != NULL);
  g_assert_true (strstr (error->message, config_path) != NULL);
  g_assert_true (strstr (error->message, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") != NULL);
  g_assert_true (strstr (error->message, "AWS_EC2_METADATA_DISABLED") != NULL);
}

static void
test_parse_json (void)
{
  static const char *good =
    "{\"Code\": \"Success\", \"Type\": \"AWS-HMAC\", \"AccessKeyId\": \"ASIAEXAMPLE\","
    " \"SecretAccessKey\": \"sec\", \"Token\": \"tok\", \"Expiration\": \"2030-01-02T03:04:05Z\"}";
  static const char *bad[] = {
    "",
    "[]",
    "{\"Code\": \"Failure\", \"Message\": \"no role\"}",
    "{\"AccessKeyId\": \"A\"}",
    "{\"AccessKeyId\": \"A\", \"SecretAccessKey\": \"S\", \"Expiration\": \"tomorrow\"}",
    "{\"AccessKeyId\": 1, \"SecretAccessKey\": \"S\"}",
  };
  g_autoptr(SmprofAwsCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;

  credentials = smprof_aws_credentials_parse_json (good, strlen (good), "test", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (credentials->access_key_id, ==, "ASIAEXAMPLE");
  g_assert_cmpstr (credentials->session_token, ==, "tok");
  g_assert_cmpint (credentials->expiration, ==, 1893553445);
  g_assert_false (smprof_aws_credentials_needs_refresh (credentials, 1893553445 - 3600));
  g_assert_true (smprof_aws_credentials_needs_refresh (credentials, 1893553445 - 300));
  g_assert_true (smprof_aws_credentials_needs_refresh (credentials, 1893553445 + 1));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(SmprofAwsCredentials) none = NULL;
      g_autoptr(GError) bad_error = NULL;

      none = smprof_aws_credentials_parse_json (bad[i], strlen (bad[i]), "test", &bad_error);
      g_assert_null (none);
      g_assert_nonnull (bad_error);
    }
}

/* A metadata server: the container endpoint at /creds (with its token), and
 * IMDSv2 (a token from PUT first, then the role, then its credentials). */
typedef struct
{
  GMutex   lock;
  GString *log;
  int      expires_in;   /* seconds from now for the credentials given */
  guint    n_credentials;
} Metadata;

static void
metadata_handler (SoupServerMessage *message,
                  const char        *path,
                  gpointer           user_data)
{
  Metadata *metadata = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  const char *method = soup_server_message_get_method (message);
  const char *token = soup_message_headers_get_one (headers, "X-aws-ec2-metadata-token");
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) expires = g_date_time_add_seconds (now, metadata->expires_in);
  g_autofree char *expiration = g_date_time_format_iso8601 (expires);
  g_autofree char *credentials = NULL;

  g_mutex_lock (&metadata->lock);
  g_string_append_printf (metadata->log, "%s %s;", method, path);
  /* numbered only when given out: ASIA1, ASIA2... */
  if (strcmp (path, "/creds") == 0 ||
      (g_strcmp0 (token, "TOKEN") == 0 && strcmp (path, "/latest/meta-data/iam/security-credentials/the-role") == 0))
    credentials = g_strdup_printf ("{\"Code\":\"Success\",\"AccessKeyId\":\"ASIA%u\",\"SecretAccessKey\":\"s\","
                                   "\"Token\":\"t\",\"Expiration\":\"%s\"}",
                                   ++metadata->n_credentials, expiration);
  g_mutex_unlock (&metadata->lock);

  if (strcmp (path, "/creds") == 0)
    {
      if (g_strcmp0 (soup_message_headers_get_one (headers, "Authorization"), "container-secret") != 0)
        fake_server_respond (message, 401, NULL);
      else
        fake_server_respond (message, 200, credentials);
    }
  else if (strcmp (path, "/latest/api/token") == 0)
    {
      if (strcmp (method, "PUT") == 0 &&
          g_strcmp0 (soup_message_headers_get_one (headers, "X-aws-ec2-metadata-token-ttl-seconds"), "21600") == 0)
        fake_server_respond (message, 200, "TOKEN");
      else
        fake_server_respond (message, 405, NULL);
    }
  else if (g_strcmp0 (token, "TOKEN") != 0)
    fake_server_respond (message, 401, NULL);
  else if (strcmp (path, "/latest/meta-data/iam/security-credentials/") == 0)
    fake_server_respond (message, 200, "the-role\n");
  else if (strcmp (path, "/latest/meta-data/iam/security-credentials/the-role") == 0)
    fake_server_respond (message, 200, credentials);
  else
    fake_server_respond (message, 404, NULL);
}

static void
test_container (Env           *env,
                gconstpointer  data)
{
  Metadata metadata = { .log = g_string_new (NULL), .expires_in = 3600 };
  g_autoptr(FakeServer) server = fake_server_new (metadata_handler, &metadata);
  g_autofree char *url = fake_server_dup_url (server);
  g_autofree char *creds_url = g_strconcat (url, "/creds", NULL);
  g_autofree char *token_file = g_build_filename (env->dir, "token", NULL);
  g_autoptr(SmprofAwsCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;

  g_mutex_init (&metadata.lock);

  g_assert_true (g_file_set_contents (token_file, "container-secret\n", -1, NULL));
  env_set (env, "AWS_CONTAINER_CREDENTIALS_FULL_URI", creds_url);
  env_set (env, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", token_file);

  credentials = get_credentials (env, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (credentials->access_key_id, ==, "ASIA1");
  g_assert_cmpstr (credentials->session_token, ==, "t");
  g_assert_cmpint (credentials->expiration, >, g_get_real_time () / G_USEC_PER_SEC);
  g_clear_pointer (&credentials, smprof_aws_credentials_unref);

  /* only https, loopback or the container addresses may get the token */
  env_set (env, "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://example.com/creds");
  credentials = get_credentials (env, &error);
  g_assert_null (credentials);
  g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS);

  g_string_free (metadata.log, TRUE);
  g_mutex_clear (&metadata.lock);
}

static void
test_instance_metadata (Env           *env,
                        gconstpointer  data)
{
  Metadata metadata = { .log = g_string_new (NULL), .expires_in = 3600 };
  g_autoptr(FakeServer) server = fake_server_new (metadata_handler, &metadata);
  g_autofree char *url = fake_server_dup_url (server);
  g_autoptr(SmprofAwsCredentialsProvider) provider = NULL;
  g_autoptr(SmprofAwsCredentials) first = NULL;
  g_autoptr(SmprofAwsCredentials) second = NULL;
  g_autoptr(SmprofAwsCredentials) third = NULL;
  g_autoptr(GError) error = NULL;

  g_mutex_init (&metadata.lock);

  env->envp = g_environ_unsetenv (env->envp, "AWS_EC2_METADATA_DISABLED");
  env_set (env, "AWS_EC2_METADATA_SERVICE_ENDPOINT", url);
  provider = smprof_aws_credentials_provider_new ((const char * const *) env->envp);

  first = smprof_aws_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first->access_key_id, ==, "ASIA1");
  g_assert_true (strstr (first->origin, "the-role") != NULL);
  g_assert_cmpstr (metadata.log->str, ==,
                   "PUT /latest/api/token;"
                   "GET /latest/meta-data/iam/security-credentials/;"
                   "GET /latest/meta-data/iam/security-credentials/the-role;");

  /* still fresh: no request */
  second = smprof_aws_credentials_provider_get (provider, NULL, &error);
  g_assert_true (second == first);
  g_assert_cmpuint (metadata.n_credentials, ==, 1);

  /* after S3 says they expired, they are fetched again */
  smprof_aws_credentials_provider_invalidate (provider);
  third = smprof_aws_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (third->access_key_id, ==, "ASIA2");

  g_string_free (metadata.log, TRUE);
  g_mutex_clear (&metadata.lock);
}

/* A metadata service that names a role in bytes that are not UTF-8, and
 * answers for it as the test's data says. */
typedef enum
{
  ODD_ROLE_NOT_FOUND,   /* 404 */
  ODD_ROLE_REFUSED,     /* 200, with a Code other than Success */
  ODD_ROLE_GIVEN,       /* 200, credentials */
} OddRoleAnswer;

typedef struct
{
  OddRoleAnswer answer;
  GMutex        lock;
  GString      *log;
} OddRole;

/* two bytes that are not UTF-8, and a % that starts no escape (a URL made
 * of it as it is would not parse) */
#define ODD_ROLE          "bad\xff\xfe%role"
/* as the messages show it: each byte that is not UTF-8 a U+FFFD */
#define ODD_ROLE_SHOWN    "bad\xef\xbf\xbd\xef\xbf\xbd%role"
#define ROLES_PATH        "/latest/meta-data/iam/security-credentials/"

static void
odd_role_handler (SoupServerMessage *message,
                  const char        *path,
                  gpointer           user_data)
{
  OddRole *odd = user_data;
  const char *method = soup_server_message_get_method (message);

  g_mutex_lock (&odd->lock);
  g_string_append_printf (odd->log, "%s %s;", method, path);
  g_mutex_unlock (&odd->lock);

  if (strcmp (path, "/latest/api/token") == 0 && strcmp (method, "PUT") == 0)
    fake_server_respond (message, 200, "TOKEN");
  else if (strcmp (path, ROLES_PATH) == 0)
    fake_server_respond (message, 200, ODD_ROLE "\n");
  else if (!g_str_has_prefix (path, ROLES_PATH) || odd->answer == ODD_ROLE_NOT_FOUND)
    fake_server_respond (message, 404, NULL);
  else if (odd->answer == ODD_ROLE_REFUSED)
    fake_server_respond (message, 200, "{\"Code\":\"AccessDenied\",\"Message\":\"not this role\"}");
  else
    fake_server_respond (message, 200, "{\"Code\":\"Success\",\"AccessKeyId\":\"ASIA1\",\"SecretAccessKey\":\"s\","
                                       "\"Token\":\"t\",\"Expiration\":\"2099-01-01T00:00:00Z\"}");
}

/* The role's name is the service's answer, any bytes: the messages that
 * name it (the refusal, the failed request, the credentials' origin) are
 * valid UTF-8 and still show it, and its credentials are asked for at a URL
 * that names that role. */
static void
test_instance_metadata_odd_role (Env           *env,
                                 gconstpointer  data)
{
  OddRole odd = { .answer = GPOINTER_TO_INT (data), .log = g_string_new (NULL) };
  g_autoptr(FakeServer) server = fake_server_new (odd_role_handler, &odd);
  g_autofree char *url = fake_server_dup_url (server);
  g_autoptr(SmprofAwsCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *escaped = NULL;
  const char *shown;

  g_mutex_init (&odd.lock);

  env->envp = g_environ_unsetenv (env->envp, "AWS_EC2_METADATA_DISABLED");
  env_set (env, "AWS_EC2_METADATA_SERVICE_ENDPOINT", url);
  credentials = get_credentials (env, &error);

  if (odd.answer == ODD_ROLE_GIVEN)
    {
      g_assert_no_error (error);
      g_assert_cmpstr (credentials->access_key_id, ==, "ASIA1");
      shown = credentials->origin;
    }
  else
    {
      g_assert_null (credentials);
      g_assert_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS);
      shown = error->message;
      if (odd.answer == ODD_ROLE_REFUSED)
        g_assert_nonnull (strstr (shown, "not this role"));
    }
  escaped = g_strescape (shown, NULL);
  g_test_message ("%s", escaped);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  g_assert_nonnull (strstr (shown, ODD_ROLE_SHOWN));

  /* the server, which unescapes the path, was asked for the role's bytes */
  g_assert_cmpstr (odd.log->str, ==, "PUT /latest/api/token;GET " ROLES_PATH ";GET " ROLES_PATH ODD_ROLE ";");

  g_string_free (odd.log, TRUE);
  g_mutex_clear (&odd.lock);
}

/* Credentials close to their expiry are refreshed before use. */
static void
test_refresh_before_expiry (Env           *env,
                            gconstpointer  data)
{
  Metadata metadata = { .log = g_string_new (NULL), .expires_in = 120 };
  g_autoptr(FakeServer) server = fake_server_new (metadata_handler, &metadata);
  g_autofree char *url = fake_server_dup_url (server);
  g_autofree char *creds_url = g_strconcat (url, "/creds", NULL);
  g_autoptr(SmprofAwsCredentialsProvider) provider = NULL;
  g_autoptr(SmprofAwsCredentials) first = NULL;
  g_autoptr(SmprofAwsCredentials) second = NULL;
  g_autoptr(GError) error = NULL;

  g_mutex_init (&metadata.lock);

  env_set (env, "AWS_CONTAINER_CREDENTIALS_FULL_URI", creds_url);
  env_set (env, "AWS_CONTAINER_AUTHORIZATION_TOKEN", "container-secret");
  provider = smprof_aws_credentials_provider_new ((const char * const *) env->envp);

  first = smprof_aws_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  second = smprof_aws_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first->access_key_id, ==, "ASIA1");
  g_assert_cmpstr (second->access_key_id, ==, "ASIA2");

  g_string_free (metadata.log, TRUE);
  g_mutex_clear (&metadata.lock);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/aws-config/ini", test_ini);
  g_test_add_func ("/aws-config/ini-empty", test_ini_empty);
  g_test_add ("/aws-config/region-and-endpoint", Env, NULL, env_set_up, test_region_and_endpoint, env_tear_down);
  g_test_add ("/aws-credentials/env", Env, NULL, env_set_up, test_credentials_from_env, env_tear_down);
  g_test_add ("/aws-credentials/files", Env, NULL, env_set_up, test_credentials_from_files, env_tear_down);
  g_test_add ("/aws-credentials/profile-errors", Env, NULL, env_set_up, test_profile_errors, env_tear_down);
  g_test_add ("/aws-credentials/nothing-found", Env, NULL, env_set_up, test_nothing_found, env_tear_down);
  g_test_add_func ("/aws-credentials/parse-json", test_parse_json);
  g_test_add ("/aws-credentials/container", Env, NULL, env_set_up, test_container, env_tear_down);
  g_test_add ("/aws-credentials/instance-metadata", Env, NULL, env_set_up, test_instance_metadata, env_tear_down);
  g_test_add ("/aws-credentials/instance-metadata/odd-role/not-found", Env, GINT_TO_POINTER (ODD_ROLE_NOT_FOUND),
              env_set_up, test_instance_metadata_odd_role, env_tear_down);
  g_test_add ("/aws-credentials/instance-metadata/odd-role/refused", Env, GINT_TO_POINTER (ODD_ROLE_REFUSED),
              env_set_up, test_instance_metadata_odd_role, env_tear_down);
  g_test_add ("/aws-credentials/instance-metadata/odd-role/given", Env, GINT_TO_POINTER (ODD_ROLE_GIVEN),
              env_set_up, test_instance_metadata_odd_role, env_tear_down);
  g_test_add ("/aws-credentials/refresh", Env, NULL, env_set_up, test_refresh_before_expiry, env_tear_down);

  return g_test_run ();
}
