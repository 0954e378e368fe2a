/* smprof-json-parse.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "smprof-json-parse.h"
#include "smprof-types.h"

/* json-glib parses recursively; measure the nesting first so that a hostile
 * file cannot exhaust a worker thread's stack. */
static gboolean
check_nesting (const char  *data,
               gsize        length,
               guint        limit,
               GError     **error)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > limit)
            {
              g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                           _("byte %zu: JSON nested more than %u levels deep"),
                           (size_t) i, limit);
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

/**
 * smprof_json_parse_bounded:
 * @bytes: the whole document
 * @max_nesting: how many arrays and objects deep it may nest
 * @error: a location for a #GError, or %NULL
 *
 * Parses @bytes once its nesting is known to be within @max_nesting. The
 * root of the parser may be %NULL, for an empty or all-blank document.
 *
 * Returns: (transfer full) (nullable): the parser, or %NULL with
 *   %SMPROF_FORMAT_ERROR_CORRUPT set (the message does not name the file)
 */
JsonParser *
smprof_json_parse_bounded (GBytes  *bytes,
                           guint    max_nesting,
                           GError **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);

  /* An empty GBytes may have no data, which json-glib refuses. */
  if (data == NULL)
    data = "";

  if (!check_nesting (data, length, max_nesting, error))
    return NULL;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      /* json-glib quotes the offending text, which need not be UTF-8. */
      g_autofree char *reason = g_utf8_make_valid (local_error->message, -1);

      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("not valid JSON: %s"), reason);
      return NULL;
    }

  return g_steal_pointer (&parser);
}
