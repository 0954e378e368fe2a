/* smprof-xml.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "smprof-xml.h"

/**
 * smprof_xml_append_escaped:
 * @out: where to append
 * @text: any bytes: a function or file name from a profile, a label
 *
 * Appends @text so that it reads back as the same text both between tags
 * and inside a quoted attribute, of an SVG (XML 1.0) as of an HTML page:
 * `& < > " '` become entities, and a newline a character reference, which
 * survives in an attribute (a tooltip's line break). XML 1.0 allows neither
 * the other control characters nor invalid UTF-8: those become spaces, and
 * U+FFFD (g_utf8_make_valid()).
 */
void
smprof_xml_append_escaped (GString    *out,
                           const char *text)
{
  g_autofree char *valid = NULL;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  valid = g_utf8_make_valid (text, -1);

  for (const char *p = valid; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '&':
          g_string_append (out, "&amp;");
          break;
        case '<':
          g_string_append (out, "&lt;");
          break;
        case '>':
          g_string_append (out, "&gt;");
          break;
        case '"':
          g_string_append (out, "&quot;");
          break;
        case '\'':
          g_string_append (out, "&apos;");
          break;
        case '\n':
          g_string_append (out, "&#10;");
          break;
        default:
          if ((guchar) *p < 0x20 || *p == 0x7f)
            g_string_append_c (out, ' ');
          else
            g_string_append_c (out, *p);
          break;
        }
    }
}
