/* smprof-aws-credentials.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "smprof-aws-config.h"
#include "smprof-aws-credentials.h"
#include "smprof-s3-error.h"

#define CONTAINER_HOST "http://169.254.170.2"
#define IMDS_ENDPOINT "http://169.254.169.254"
#define IMDS_TOKEN_TTL "21600"
/* botocore refreshes temporary credentials 10 to 15 minutes before expiry */
#define REFRESH_MARGIN_SECONDS (10 * 60)

static void
credentials_clear (gpointer data)
{
  SmprofAwsCredentials *self = data;

  if (self->secret_access_key != NULL)
    memset (self->secret_access_key, 0, strlen (self->secret_access_key));
  if (self->session_token != NULL)
    memset (self->session_token, 0, strlen (self->session_token));
  g_free (self->access_key_id);
  g_free (self->secret_access_key);
  g_free (self->session_token);
  g_free (self->origin);
}

/**
 * smprof_aws_credentials_new:
 * @access_key_id: the access key id
 * @secret_access_key: the secret
 * @session_token: (nullable): a session token
 * @expiration: seconds since the epoch, 0 for never
 * @origin: where they come from, for messages
 *
 * Returns: (transfer full): the credentials
 */
SmprofAwsCredentials *
smprof_aws_credentials_new (const char *access_key_id,
                            const char *secret_access_key,
                            const char *session_token,
                            gint64      expiration,
                            const char *origin)
{
  SmprofAwsCredentials *self;

  g_return_val_if_fail (access_key_id != NULL && secret_access_key != NULL, NULL);

  self = g_atomic_rc_box_new0 (SmprofAwsCredentials);
  self->access_key_id = g_strdup (access_key_id);
  self->secret_access_key = g_strdup (secret_access_key);
  self->session_token = session_token != NULL && session_token[0] != '\0' ? g_strdup (session_token) : NULL;
  self->expiration = expiration;
  self->origin = g_strdup (origin);

  return self;
}

SmprofAwsCredentials *
smprof_aws_credentials_ref (SmprofAwsCredentials *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
smprof_aws_credentials_unref (SmprofAwsCredentials *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, credentials_clear);
}

/**
 * smprof_aws_credentials_needs_refresh:
 * @self: credentials
 * @now: seconds since the epoch
 *
 * Returns: whether @self expires within ten minutes of @now
 */
gboolean
smprof_aws_credentials_needs_refresh (SmprofAwsCredentials *self,
                                      gint64                now)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return self->expiration != 0 && now >= self->expiration - REFRESH_MARGIN_SECONDS;
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/**
 * smprof_aws_credentials_parse_json:
 * @data: (array length=length): what a container or instance metadata
 *   endpoint answered
 * @length: its length
 * @origin: where it came from, for messages
 * @error: a location for a #GError, or %NULL
 *
 * Reads `AccessKeyId`, `SecretAccessKey`, `Token` and `Expiration` (ISO 8601),
 * and refuses an answer whose `Code` is not `Success`.
 *
 * Returns: (transfer full) (nullable): the credentials
 */
SmprofAwsCredentials *
smprof_aws_credentials_parse_json (const char  *data,
                                   gsize        length,
                                   const char  *origin,
                                   GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  const char *key_id, *secret, *token, *expiration, *code;
  gint64 expires = 0;
  JsonObject *object;
  JsonNode *root;

  if (length > G_MAXSSIZE || !json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                   _("%s answered something that is not JSON"), origin);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                   _("%s answered JSON that is not an object"), origin);
      return NULL;
    }

  object = json_node_get_object (root);
  code = member_string (object, "Code");
  if (code != NULL && strcmp (code, "Success") != 0)
    {
      const char *message = member_string (object, "Message");
      /* What the answer says goes into a message: valid UTF-8 whatever it
       * held (JSON's escapes can make any byte). */
      g_autofree char *shown_code = g_utf8_make_valid (code, -1);
      g_autofree char *shown_message = message != NULL ? g_utf8_make_valid (message, -1) : NULL;

      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
                   _("%s refused to give credentials: %s%s%s"), origin, shown_code,
                   shown_message != NULL ? ": " : "", shown_message != NULL ? shown_message : "");
      return NULL;
    }

  key_id = member_string (object, "AccessKeyId");
  secret = member_string (object, "SecretAccessKey");
  token = member_string (object, "Token");
  expiration = member_string (object, "Expiration");

  if (key_id == NULL || secret == NULL || key_id[0] == '\0' || secret[0] == '\0')
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                   _("%s answered without AccessKeyId and SecretAccessKey"), origin);
      return NULL;
    }

  if (expiration != NULL)
    {
      g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
      g_autoptr(GDateTime) when = g_date_time_new_from_iso8601 (expiration, utc);

      if (when == NULL)
        {
          g_autofree char *shown = g_utf8_make_valid (expiration, -1);

          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                       _("%s answered an Expiration that is not a date: %s"), origin, shown);
          return NULL;
        }
      expires = g_date_time_to_unix (when);
    }

  return smprof_aws_credentials_new (key_id, secret, token, expires, origin);
}

struct _SmprofAwsCredentialsProvider
{
  GObject               parent_instance;

  char                **envp;
  SoupSession          *session;   /* for the container and instance endpoints */
  GMutex                lock;
  SmprofAwsCredentials *current;
};

G_DEFINE_FINAL_TYPE (SmprofAwsCredentialsProvider, smprof_aws_credentials_provider, G_TYPE_OBJECT)

static void
smprof_aws_credentials_provider_finalize (GObject *object)
{
  SmprofAwsCredentialsProvider *self = SMPROF_AWS_CREDENTIALS_PROVIDER (object);

  g_clear_pointer (&self->envp, g_strfreev);
  g_clear_object (&self->session);
  g_clear_pointer (&self->current, smprof_aws_credentials_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (smprof_aws_credentials_provider_parent_class)->finalize (object);
}

static void
smprof_aws_credentials_provider_class_init (SmprofAwsCredentialsProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_aws_credentials_provider_finalize;
}

static void
smprof_aws_credentials_provider_init (SmprofAwsCredentialsProvider *self)
{
  g_mutex_init (&self->lock);
}

/**
 * smprof_aws_credentials_provider_new:
 * @envp: (nullable): the environment to read, %NULL for the process's (read now)
 *
 * Looks, in order, in the environment (`AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), the shared files for the
 * profile, the container endpoint (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`
 * or `_FULL_URI`) and the instance metadata service (IMDSv2, unless
 * `AWS_EC2_METADATA_DISABLED` is true). Temporary credentials are refreshed
 * before they expire.
 *
 * Returns: (transfer full): a provider; call it from any thread
 */
SmprofAwsCredentialsProvider *
smprof_aws_credentials_provider_new (const char * const *envp)
{
  SmprofAwsCredentialsProvider *self = g_object_new (SMPROF_TYPE_AWS_CREDENTIALS_PROVIDER, NULL);
  const char *timeout_text;
  guint64 timeout = 2;

  self->envp = envp != NULL ? g_strdupv ((char **) envp) : g_get_environ ();

  timeout_text = smprof_aws_env_get ((const char * const *) self->envp, "AWS_METADATA_SERVICE_TIMEOUT");
  if (timeout_text != NULL)
    g_ascii_string_to_unsigned (timeout_text, 10, 1, 60, &timeout, NULL);

  /* libsoup lets other threads send on a session configured here, before any
   * request: so everything is set now. */
  self->session = soup_session_new ();
  soup_session_set_timeout (self->session, (guint) timeout);
  soup_session_set_idle_timeout (self->session, 5);
  soup_session_set_user_agent (self->session, "smprof/" PACKAGE_VERSION);
  /* Metadata endpoints are local by design; a proxy would only get in the way. */
  soup_session_set_proxy_resolver (self->session, NULL);

  return self;
}

static const char *
env (SmprofAwsCredentialsProvider *self,
     const char                   *name)
{
  return smprof_aws_env_get ((const char * const *) self->envp, name);
}

static GBytes *
http_fetch (SmprofAwsCredentialsProvider  *self,
            const char                    *method,
            const char                    *url,
            const char                    *header_name,
            const char                    *header_value,
            GCancellable                  *cancellable,
            guint                         *status,
            GError                       **error)
{
  g_autoptr(SoupMessage) message = soup_message_new (method, url);
  g_autoptr(GBytes) body = NULL;

  if (message == NULL)
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_INVALID_URI, _("“%s” is not a URL"), url);
      return NULL;
    }

  if (header_name != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message), header_name, header_value);
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);

  body = soup_session_send_and_read (self->session, message, cancellable, error);
  if (body == NULL)
    return NULL;

  *status = soup_message_get_status (message);

  return g_steal_pointer (&body);
}

/* Container endpoints answer on link-local or loopback addresses; anything
 * else must be https, as botocore insists, so a stray variable cannot send the
 * token anywhere. */
static gboolean
container_url_allowed (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  const char *host;

  if (uri == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0)
    return TRUE;
  if (g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") != 0 || (host = g_uri_get_host (uri)) == NULL)
    return FALSE;

  return strcmp (host, "localhost") == 0 || g_str_has_prefix (host, "127.") ||
         strcmp (host, "::1") == 0 || strcmp (host, "169.254.170.2") == 0 ||
         strcmp (host, "169.254.170.23") == 0 || g_ascii_strcasecmp (host, "fd00:ec2::23") == 0;
}

static SmprofAwsCredentials *
from_container (SmprofAwsCredentialsProvider  *self,
                GString                       *looked,
                GCancellable                  *cancellable,
                GError                       **error)
{
  const char *relative = env (self, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
  const char *full = env (self, "AWS_CONTAINER_CREDENTIALS_FULL_URI");
  const char *token_file = env (self, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
  g_autofree char *token = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GBytes) body = NULL;
  guint status = 0;

  if (relative == NULL && full == NULL)
    {
      g_string_append (looked, _("\n  - the container endpoint: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and "
                                 "AWS_CONTAINER_CREDENTIALS_FULL_URI are not set"));
      return NULL;
    }

  url = relative != NULL ? g_strconcat (CONTAINER_HOST, relative, NULL) : g_strdup (full);
  if (relative == NULL && !container_url_allowed (url))
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
                   _("AWS_CONTAINER_CREDENTIALS_FULL_URI must be https, or http on a loopback or "
                     "container address: “%s”"), url);
      return NULL;
    }

  if (token_file != NULL)
    {
      if (!g_file_get_contents (token_file, &token, NULL, &local_error))
        {
          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
                       _("cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: %s"), local_error->message);
          return NULL;
        }
      g_strstrip (token);
    }
  else
    token = g_strdup (env (self, "AWS_CONTAINER_AUTHORIZATION_TOKEN"));

  /* botocore tries the container endpoint three times; a local agent that is
   * still starting deserves a second chance. */
  for (guint attempt = 0; attempt < 2 && body == NULL; attempt++)
    {
      g_clear_error (&local_error);
      body = http_fetch (self, "GET", url, token != NULL ? "Authorization" : NULL, token,
                         cancellable, &status, &local_error);
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }

  if (body == NULL || status != 200)
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
                   _("the container credentials endpoint %s did not give credentials: %s"), url,
                   body == NULL ? local_error->message : soup_status_get_phrase (status));
      return NULL;
    }

  {
    gsize length;
    const char *data = g_bytes_get_data (body, &length);

    return smprof_aws_credentials_parse_json (data, length, _("the container credentials endpoint"), error);
  }
}

static SmprofAwsCredentials *
from_instance_metadata (SmprofAwsCredentialsProvider  *self,
                        GString                       *looked,
                        GCancellable                  *cancellable,
                        GError                       **error)
{
  const char *endpoint = env (self, "AWS_EC2_METADATA_SERVICE_ENDPOINT");
  g_autofree char *base = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *role = NULL;
  g_autofree char *shown_role = NULL;
  g_autofree char *escaped_role = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GBytes) body = NULL;
  guint status = 0;

  if (smprof_aws_env_is_true ((const char * const *) self->envp, "AWS_EC2_METADATA_DISABLED"))
    {
      g_string_append (looked, _("\n  - the instance metadata service: disabled by AWS_EC2_METADATA_DISABLED"));
      return NULL;
    }

  base = g_strdup (endpoint != NULL ? endpoint : IMDS_ENDPOINT);
  while (g_str_has_suffix (base, "/"))
    base[strlen (base) - 1] = '\0';

  /* IMDSv2: a session token first, then the role name, then its credentials. */
  url = g_strconcat (base, "/latest/api/token", NULL);
  body = http_fetch (self, "PUT", url, "X-aws-ec2-metadata-token-ttl-seconds", IMDS_TOKEN_TTL,
                     cancellable, &status, &local_error);
  if (body == NULL || status != 200)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_string_append_printf (looked, _("\n  - the instance metadata service at %s: %s"), base,
                              body == NULL ? local_error->message : soup_status_get_phrase (status));
      return NULL;
    }
  token = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  g_strstrip (token);
  g_clear_pointer (&body, g_bytes_unref);

  g_free (url);
  url = g_strconcat (base, "/latest/meta-data/iam/security-credentials/", NULL);
  body = http_fetch (self, "GET", url, "X-aws-ec2-metadata-token", token, cancellable, &status, &local_error);
  if (body == NULL || status != 200 || g_bytes_get_size (body) == 0)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_string_append_printf (looked, _("\n  - the instance metadata service at %s: no IAM role is attached (%s)"),
                              base, body == NULL ? local_error->message : soup_status_get_phrase (status));
      return NULL;
    }
  role = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  g_strstrip (role);
  if (strchr (role, '\n') != NULL)
    *strchr (role, '\n') = '\0';
  g_clear_pointer (&body, g_bytes_unref);
  /* The role's name is what the service answered, any bytes: the messages
   * that name it get valid UTF-8, and its URL the name as one path segment,
   * escaped (an IAM role's name needs no escaping, so it is asked as it is
   * spelled). */
  shown_role = g_utf8_make_valid (role, -1);
  escaped_role = g_uri_escape_string (role, G_URI_RESERVED_CHARS_ALLOWED_IN_PATH_ELEMENT, FALSE);

  g_free (url);
  url = g_strconcat (base, "/latest/meta-data/iam/security-credentials/", escaped_role, NULL);
  body = http_fetch (self, "GET", url, "X-aws-ec2-metadata-token", token, cancellable, &status, &local_error);
  if (body == NULL || status != 200)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
                   _("the instance metadata service at %s did not give the credentials of role “%s”: %s"),
                   base, shown_role, body == NULL ? local_error->message : soup_status_get_phrase (status));
      return NULL;
    }

  {
    gsize length;
    const char *data = g_bytes_get_data (body, &length);
    g_autofree char *origin = g_strdup_printf (_("the instance metadata service (role %s)"), shown_role);

    return smprof_aws_credentials_parse_json (data, length, origin, error);
  }
}

/* Profiles that get their keys by running something or by assuming a role
 * need STS or a helper program, which smprof does not run. */
static const char * const indirect_keys[] = {
  "credential_process", "role_arn", "sso_session", "sso_start_url", "web_identity_token_file",
};

static SmprofAwsCredentials *
from_shared_files (SmprofAwsCredentialsProvider  *self,
                   GString                       *looked,
                   GError                       **error)
{
  g_autoptr(SmprofAwsSharedConfig) shared = smprof_aws_shared_config_load ((const char * const *) self->envp);
  const char *key_origin = NULL;
  const char *key_id = smprof_aws_shared_config_get_credential (shared, "aws_access_key_id", &key_origin);
  const char *secret = smprof_aws_shared_config_get_credential (shared, "aws_secret_access_key", NULL);
  const char *token = smprof_aws_shared_config_get_credential (shared, "aws_session_token", NULL);

  if (key_id != NULL && secret != NULL)
    {
      g_autofree char *origin = g_strdup_printf (_("profile “%s” in %s"), shared->profile, key_origin);

      return smprof_aws_credentials_new (key_id, secret, token, 0, origin);
    }

  if (shared->profile_from_env && !smprof_aws_shared_config_has_profile (shared))
    {
      g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
                   _("the profile “%s” named by AWS_PROFILE is in neither %s (%s) nor %s (%s)"),
                   shared->profile,
                   shared->credentials_path,
                   shared->credentials_problem != NULL ? shared->credentials_problem : _("no such section"),
                   shared->config_path,
                   shared->config_problem != NULL ? shared->config_problem : _("no such section"));
      return NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (indirect_keys); i++)
    if (smprof_aws_shared_config_get_credential (shared, indirect_keys[i], NULL) != NULL)
      {
        g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
                     _("the profile “%s” gets its credentials through %s, which smprof does not "
                       "support; export them first, for example with "
                       "`eval \"$(aws configure export-credentials --profile %s --format env)\"`"),
                     shared->profile, indirect_keys[i], shared->profile);
        return NULL;
      }

  g_string_append_printf (looked, _("\n  - profile “%s”%s in %s: %s"), shared->profile,
                          shared->profile_from_env ? _(" (AWS_PROFILE)") : "",
                          shared->credentials_path,
                          shared->credentials_problem != NULL
                          ? shared->credentials_problem
                          : key_id != NULL || secret != NULL ? _("only half of the key pair")
                                                             : _("no keys"));
  g_string_append_printf (looked, _("\n  - profile “%s”%s in %s: %s"), shared->profile,
                          shared->profile_from_env ? _(" (AWS_PROFILE)") : "",
                          shared->config_path,
                          shared->config_problem != NULL ? shared->config_problem : _("no keys"));

  return NULL;
}

static SmprofAwsCredentials *
resolve (SmprofAwsCredentialsProvider  *self,
         GCancellable                  *cancellable,
         GError                       **error)
{
  g_autoptr(GString) looked = g_string_new (NULL);
  const char *key_id = env (self, "AWS_ACCESS_KEY_ID");
  const char *secret = env (self, "AWS_SECRET_ACCESS_KEY");
  SmprofAwsCredentials *credentials;
  GError *local_error = NULL;

  if (key_id != NULL && secret != NULL)
    return smprof_aws_credentials_new (key_id, secret, env (self, "AWS_SESSION_TOKEN"), 0,
                                       _("the environment"));

  g_string_append (looked, key_id != NULL || secret != NULL
                           ? _("\n  - the environment: only one of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY is set")
                           : _("\n  - the environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set"));

  if ((credentials = from_shared_files (self, looked, &local_error)) != NULL || local_error != NULL)
    goto out;
  if ((credentials = from_container (self, looked, cancellable, &local_error)) != NULL || local_error != NULL)
    goto out;
  if ((credentials = from_instance_metadata (self, looked, cancellable, &local_error)) != NULL || local_error != NULL)
    goto out;

  g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_NO_CREDENTIALS,
               _("no AWS credentials were found. Looked in:%s\n"
                 "Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in the shared files; "
                 "a public bucket can be read without credentials (smprof: --no-sign-request)."),
               looked->str);
  return NULL;

out:
  if (local_error != NULL)
    g_propagate_error (error, local_error);

  return credentials;
}

/**
 * smprof_aws_credentials_provider_get:
 * @self: a provider
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Returns the credentials found earlier, or looks again when they are about
 * to expire (keeping the old ones if looking fails while they still work).
 * Safe to call from several threads; they wait for one look-up.
 *
 * Returns: (transfer full) (nullable): credentials, or %NULL with
 *   %SMPROF_S3_ERROR_NO_CREDENTIALS saying where it looked
 */
SmprofAwsCredentials *
smprof_aws_credentials_provider_get (SmprofAwsCredentialsProvider  *self,
                                     GCancellable                  *cancellable,
                                     GError                       **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GError) local_error = NULL;
  SmprofAwsCredentials *fresh;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  g_return_val_if_fail (SMPROF_IS_AWS_CREDENTIALS_PROVIDER (self), NULL);

  locker = g_mutex_locker_new (&self->lock);

  if (self->current != NULL && !smprof_aws_credentials_needs_refresh (self->current, now))
    return smprof_aws_credentials_ref (self->current);

  fresh = resolve (self, cancellable, &local_error);
  if (fresh == NULL)
    {
      if (self->current != NULL && now < self->current->expiration &&
          !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return smprof_aws_credentials_ref (self->current);

      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  g_clear_pointer (&self->current, smprof_aws_credentials_unref);
  self->current = fresh;

  return smprof_aws_credentials_ref (fresh);
}

/**
 * smprof_aws_credentials_provider_invalidate:
 * @self: a provider
 *
 * Forgets the current credentials, after S3 said they expired.
 */
void
smprof_aws_credentials_provider_invalidate (SmprofAwsCredentialsProvider *self)
{
  g_return_if_fail (SMPROF_IS_AWS_CREDENTIALS_PROVIDER (self));

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->current, smprof_aws_credentials_unref);
  g_mutex_unlock (&self->lock);
}
