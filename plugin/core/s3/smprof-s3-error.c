/* smprof-s3-error.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "smprof-s3-error.h"

G_DEFINE_QUARK (smprof-s3-error-quark, smprof_s3_error)

typedef struct
{
  SmprofS3ErrorResponse *response;
  guint                  depth;
  char                 **field;   /* where the text of the current element goes */
  gboolean               is_error;
} ErrorParser;

static void
error_start_element (GMarkupParseContext  *context,
                     const char           *element_name,
                     const char          **attribute_names,
                     const char          **attribute_values,
                     gpointer              user_data,
                     GError              **error)
{
  ErrorParser *parser = user_data;

  parser->depth++;
  parser->field = NULL;

  if (parser->depth == 1)
    parser->is_error = strcmp (element_name, "Error") == 0;
  else if (parser->depth == 2 && parser->is_error)
    {
      if (strcmp (element_name, "Code") == 0)
        parser->field = &parser->response->code;
      else if (strcmp (element_name, "Message") == 0)
        parser->field = &parser->response->message;
      else if (strcmp (element_name, "Region") == 0)
        parser->field = &parser->response->region;
      else if (strcmp (element_name, "Endpoint") == 0)
        parser->field = &parser->response->endpoint;
    }
}

static void
error_end_element (GMarkupParseContext  *context,
                   const char           *element_name,
                   gpointer              user_data,
                   GError              **error)
{
  ErrorParser *parser = user_data;

  parser->depth--;
  parser->field = NULL;
}

static void
error_text (GMarkupParseContext  *context,
            const char           *text,
            gsize                 text_len,
            gpointer              user_data,
            GError              **error)
{
  ErrorParser *parser = user_data;

  if (parser->field != NULL)
    {
      char *joined = g_strdup_printf ("%s%.*s", *parser->field != NULL ? *parser->field : "",
                                      (int) MIN (text_len, G_MAXINT), text);

      g_free (*parser->field);
      *parser->field = joined;
    }
}

/**
 * smprof_s3_error_response_parse:
 * @data: (array length=length): a response body
 * @length: its length
 *
 * Returns: (transfer full) (nullable): the error, or %NULL if @data is not an
 *   S3 `<Error>` document with a code
 */
SmprofS3ErrorResponse *
smprof_s3_error_response_parse (const char *data,
                                gsize       length)
{
  static const GMarkupParser markup = {
    error_start_element, error_end_element, error_text, NULL, NULL,
  };
  g_autoptr(SmprofS3ErrorResponse) response = g_new0 (SmprofS3ErrorResponse, 1);
  g_autoptr(GMarkupParseContext) context = NULL;
  ErrorParser parser = { response, 0, NULL, FALSE };

  if (data == NULL || length == 0 || length > G_MAXSSIZE)
    return NULL;

  context = g_markup_parse_context_new (&markup, G_MARKUP_PREFIX_ERROR_POSITION, &parser, NULL);
  if (!g_markup_parse_context_parse (context, data, length, NULL) ||
      !g_markup_parse_context_end_parse (context, NULL))
    return NULL;

  if (!parser.is_error || response->code == NULL)
    return NULL;

  g_strstrip (response->code);
  if (response->region != NULL)
    g_strstrip (response->region);

  return g_steal_pointer (&response);
}

void
smprof_s3_error_response_free (SmprofS3ErrorResponse *response)
{
  if (response == NULL)
    return;

  g_free (response->code);
  g_free (response->message);
  g_free (response->region);
  g_free (response->endpoint);
  g_free (response);
}
