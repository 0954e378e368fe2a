/* smprof-s3-listing.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-s3-error.h"
#include "smprof-s3-listing.h"

typedef enum
{
  IN_NOTHING,
  IN_CONTENTS,
  IN_COMMON_PREFIXES,
} Container;

typedef struct
{
  char *key;
  char *size;
  char *etag;
} RawObject;

typedef struct
{
  SmprofS3ListPage *page;
  guint             depth;
  Container         container;
  GString          *text;          /* of the current leaf element */
  gboolean          collecting;
  RawObject        *current;       /* the Contents being read */
  GPtrArray        *raw_objects;   /* RawObject, decoded at the end */
  GPtrArray        *raw_prefixes;  /* char * */
  char             *encoding;
} ListParser;

static void
raw_object_free (gpointer data)
{
  RawObject *raw = data;

  if (raw == NULL)
    return;

  g_free (raw->key);
  g_free (raw->size);
  g_free (raw->etag);
  g_free (raw);
}

void
smprof_s3_object_free (SmprofS3Object *object)
{
  if (object == NULL)
    return;

  g_free (object->key);
  g_free (object->etag);
  g_free (object);
}

void
smprof_s3_list_page_free (SmprofS3ListPage *page)
{
  if (page == NULL)
    return;

  /* callers may have stolen the arrays */
  g_clear_pointer (&page->objects, g_ptr_array_unref);
  g_clear_pointer (&page->prefixes, g_ptr_array_unref);
  g_clear_pointer (&page->bad_keys, g_ptr_array_unref);
  g_free (page->next_continuation_token);
  g_free (page);
}

static void
replace_string (char       **field,
                const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
list_start_element (GMarkupParseContext  *context,
                    const char           *element_name,
                    const char          **attribute_names,
                    const char          **attribute_values,
                    gpointer              user_data,
                    GError              **error)
{
  ListParser *parser = user_data;

  parser->depth++;
  parser->collecting = FALSE;

  if (parser->depth == 1)
    {
      if (strcmp (element_name, "ListBucketResult") != 0)
        g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                     _("expected a ListBucketResult, got a %s"), element_name);
      return;
    }

  if (parser->depth == 2)
    {
      if (strcmp (element_name, "Contents") == 0)
        {
          parser->container = IN_CONTENTS;
          raw_object_free (parser->current);
          parser->current = g_new0 (RawObject, 1);
        }
      else if (strcmp (element_name, "CommonPrefixes") == 0)
        parser->container = IN_COMMON_PREFIXES;
      else
        parser->container = IN_NOTHING;
    }

  /* Only the leaves read below collect text; Owner, RestoreStatus and the
   * like nest deeper and are ignored. */
  if ((parser->depth == 2 && parser->container == IN_NOTHING) ||
      (parser->depth == 3 && parser->container != IN_NOTHING))
    {
      parser->collecting = TRUE;
      g_string_truncate (parser->text, 0);
    }
}

static void
list_end_element (GMarkupParseContext  *context,
                  const char           *element_name,
                  gpointer              user_data,
                  GError              **error)
{
  ListParser *parser = user_data;
  SmprofS3ListPage *page = parser->page;
  const char *text = parser->text->str;

  if (parser->collecting && parser->depth == 2)
    {
      if (strcmp (element_name, "IsTruncated") == 0)
        page->truncated = g_ascii_strcasecmp (text, "true") == 0;
      else if (strcmp (element_name, "NextContinuationToken") == 0)
        replace_string (&page->next_continuation_token, text);
      else if (strcmp (element_name, "EncodingType") == 0)
        replace_string (&parser->encoding, text);
    }
  else if (parser->collecting && parser->depth == 3 && parser->container == IN_CONTENTS)
    {
      if (strcmp (element_name, "Key") == 0)
        replace_string (&parser->current->key, text);
      else if (strcmp (element_name, "Size") == 0)
        replace_string (&parser->current->size, text);
      else if (strcmp (element_name, "ETag") == 0)
        replace_string (&parser->current->etag, text);
    }
  else if (parser->collecting && parser->depth == 3 && parser->container == IN_COMMON_PREFIXES)
    {
      if (strcmp (element_name, "Prefix") == 0)
        g_ptr_array_add (parser->raw_prefixes, g_strdup (text));
    }
  else if (parser->depth == 2 && parser->container == IN_CONTENTS)
    {
      g_ptr_array_add (parser->raw_objects, g_steal_pointer (&parser->current));
      parser->container = IN_NOTHING;
    }
  else if (parser->depth == 2)
    parser->container = IN_NOTHING;

  parser->collecting = FALSE;
  parser->depth--;
}

static void
list_text (GMarkupParseContext  *context,
           const char           *text,
           gsize                 text_len,
           gpointer              user_data,
           GError              **error)
{
  ListParser *parser = user_data;

  if (parser->collecting)
    g_string_append_len (parser->text, text, text_len);
}

/* S3's "url" encoding is form encoding: botocore decodes it with
 * unquote_plus, so a `+` is a space and a real plus comes as %2B. */
static char *
decode_url (const char *text,
            gboolean    encoded)
{
  g_autofree char *plus_free = NULL;
  char *decoded;

  if (!encoded)
    return g_utf8_validate (text, -1, NULL) ? g_strdup (text) : NULL;

  plus_free = g_strdup (text);
  g_strdelimit (plus_free, "+", ' ');
  decoded = g_uri_unescape_string (plus_free, NULL);
  if (decoded != NULL && !g_utf8_validate (decoded, -1, NULL))
    g_clear_pointer (&decoded, g_free);

  return decoded;
}

/**
 * smprof_s3_list_page_parse:
 * @data: (array length=length): a ListObjectsV2 answer
 * @length: its length
 * @error: a location for a #GError, or %NULL
 *
 * An object whose key cannot be decoded or whose size is not a number is not
 * an error for the page: it lands in @bad_keys, so the rest of the listing
 * still loads.
 *
 * Returns: (transfer full) (nullable): the page, or %NULL with
 *   %SMPROF_S3_ERROR_BAD_RESPONSE if it is not a ListObjectsV2 answer
 */
SmprofS3ListPage *
smprof_s3_list_page_parse (const char  *data,
                           gsize        length,
                           GError     **error)
{
  static const GMarkupParser markup = {
    list_start_element, list_end_element, list_text, NULL, NULL,
  };
  g_autoptr(SmprofS3ListPage) page = g_new0 (SmprofS3ListPage, 1);
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) local_error = NULL;
  ListParser parser = { 0 };
  gboolean encoded;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  page->objects = g_ptr_array_new_with_free_func ((GDestroyNotify) smprof_s3_object_free);
  page->prefixes = g_ptr_array_new_with_free_func (g_free);
  page->bad_keys = g_ptr_array_new_with_free_func (g_free);

  parser.page = page;
  parser.text = g_string_new (NULL);
  parser.raw_objects = g_ptr_array_new_with_free_func (raw_object_free);
  parser.raw_prefixes = g_ptr_array_new_with_free_func (g_free);

  context = g_markup_parse_context_new (&markup, G_MARKUP_PREFIX_ERROR_POSITION, &parser, NULL);
  if (length > G_MAXSSIZE ||
      !g_markup_parse_context_parse (context, data, length, &local_error) ||
      !g_markup_parse_context_end_parse (context, &local_error))
    {
      if (local_error != NULL && local_error->domain == SMPROF_S3_ERROR)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        {
          /* GMarkup quotes the offending bytes, which need not be UTF-8. */
          g_autofree char *reason = g_utf8_make_valid (local_error != NULL ? local_error->message
                                                                            : _("too long"), -1);

          g_set_error (error, SMPROF_S3_ERROR, SMPROF_S3_ERROR_BAD_RESPONSE,
                       _("the listing is not valid XML: %s"), reason);
        }
      g_clear_pointer (&page, smprof_s3_list_page_free);
      goto out;
    }

  encoded = parser.encoding != NULL && g_ascii_strcasecmp (parser.encoding, "url") == 0;

  for (guint i = 0; i < parser.raw_objects->len; i++)
    {
      RawObject *raw = g_ptr_array_index (parser.raw_objects, i);
      g_autofree char *key = raw->key != NULL ? decode_url (raw->key, encoded) : NULL;
      g_autofree char *shown = g_utf8_make_valid (raw->key != NULL ? raw->key : "", -1);
      guint64 size = 0;
      SmprofS3Object *object;

      if (key == NULL)
        {
          g_ptr_array_add (page->bad_keys,
                           g_strdup_printf (_("%s: the key cannot be decoded"), shown));
          continue;
        }

      if (raw->size == NULL ||
          !g_ascii_string_to_unsigned (g_strstrip (raw->size), 10, 0, G_MAXUINT64, &size, NULL))
        {
          g_ptr_array_add (page->bad_keys,
                           g_strdup_printf (_("%s: the listing gives no valid size"), key));
          continue;
        }

      object = g_new0 (SmprofS3Object, 1);
      object->key = g_steal_pointer (&key);
      object->size = size;
      object->etag = g_strdup (raw->etag);
      g_ptr_array_add (page->objects, object);
    }

  for (guint i = 0; i < parser.raw_prefixes->len; i++)
    {
      const char *raw = g_ptr_array_index (parser.raw_prefixes, i);
      char *prefix = decode_url (raw, encoded);

      if (prefix != NULL)
        g_ptr_array_add (page->prefixes, prefix);
      else
        {
          g_autofree char *shown = g_utf8_make_valid (raw, -1);

          g_ptr_array_add (page->bad_keys,
                           g_strdup_printf (_("%s: the prefix cannot be decoded"), shown));
        }
    }

out:
  g_string_free (parser.text, TRUE);
  g_ptr_array_unref (parser.raw_objects);
  g_ptr_array_unref (parser.raw_prefixes);
  raw_object_free (parser.current);
  g_free (parser.encoding);

  return g_steal_pointer (&page);
}
