/* test-xml.c: the XML escaper of the SVG flame graphs and the HTML report
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Function and file names come from the profiled program: anything may be in
 * them. Escaped, they must read back as the same text, between tags and in
 * an attribute, through a real XML parser (GMarkup).
 */

#include "config.h"

#include <string.h>

#include "smprof-xml.h"

static char *
escape (const char *text)
{
  GString *out = g_string_new ("kept:");

  smprof_xml_append_escaped (out, text);
  g_assert_true (g_str_has_prefix (out->str, "kept:"));
  g_string_erase (out, 0, strlen ("kept:"));

  return g_string_free (out, FALSE);
}

static void
test_escapes (void)
{
  struct { const char *text; const char *escaped; } cases[] = {
    { "", "" },
    { "plain_name", "plain_name" },
    { "<lambda>", "&lt;lambda&gt;" },
    { "a & b", "a &amp; b" },
    { "say \"hi\"", "say &quot;hi&quot;" },
    { "it's", "it&apos;s" },
    { "&amp;", "&amp;amp;" },
    { "two\nlines", "two&#10;lines" },
    /* other control characters are not XML 1.0: spaces */
    { "tab\there", "tab here" },
    { "cr\rhere", "cr here" },
    { "\x01\x1f\x7f", "   " },
    /* text beyond ASCII goes through */
    { "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5" },
    /* invalid UTF-8 becomes U+FFFD */
    { "x\xffy", "x\xef\xbf\xbdy" },
    { "\xc3", "\xef\xbf\xbd" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *escaped = escape (cases[i].text);

      g_assert_cmpstr (escaped, ==, cases[i].escaped);
    }
}

typedef struct
{
  char *attribute;
  GString *text;
} Parsed;

static void
start_element (GMarkupParseContext  *context,
               const char           *element_name,
               const char          **attribute_names,
               const char          **attribute_values,
               gpointer              user_data,
               GError              **error)
{
  Parsed *parsed = user_data;

  g_assert_cmpstr (element_name, ==, "t");
  g_assert_cmpstr (attribute_names[0], ==, "a");
  g_assert_null (attribute_names[1]);
  parsed->attribute = g_strdup (attribute_values[0]);
}

static void
text (GMarkupParseContext  *context,
      const char           *content,
      gsize                 length,
      gpointer              user_data,
      GError              **error)
{
  Parsed *parsed = user_data;

  g_string_append_len (parsed->text, content, length);
}

/* Whatever the bytes, the document parses, and the attribute and the text
 * are the input with its controls as spaces and its bad bytes as U+FFFD. */
static void
test_reads_back (void)
{
  const GMarkupParser parser = { start_element, NULL, text, NULL, NULL };
  g_autoptr(GRand) rand = g_rand_new_with_seed (4);
  const char alphabet[] = "ab<>&\"'; \n\t\x01\x7f\xc3\xa9\xff\xe2\x82";

  for (guint round = 0; round < 2000; round++)
    {
      char input[24];
      gsize length = g_rand_int_range (rand, 0, sizeof input);
      g_autofree char *valid = NULL;
      g_autofree char *escaped = NULL;
      g_autofree char *document = NULL;
      g_autoptr(GMarkupParseContext) context = NULL;
      g_autoptr(GError) error = NULL;
      Parsed parsed = { NULL, g_string_new (NULL) };

      for (gsize i = 0; i < length; i++)
        input[i] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      input[length] = '\0';

      valid = g_utf8_make_valid (input, -1);
      for (char *p = valid; *p != '\0'; p++)
        if (((guchar) *p < 0x20 && *p != '\n') || *p == 0x7f)
          *p = ' ';

      escaped = escape (input);
      document = g_strdup_printf ("<t a=\"%s\">%s</t>", escaped, escaped);
      context = g_markup_parse_context_new (&parser, 0, &parsed, NULL);
      g_markup_parse_context_parse (context, document, -1, &error);
      if (error == NULL)
        g_markup_parse_context_end_parse (context, &error);
      g_assert_no_error (error);

      g_assert_cmpstr (parsed.attribute, ==, valid);
      g_assert_cmpstr (parsed.text->str, ==, valid);
      g_free (parsed.attribute);
      g_string_free (parsed.text, TRUE);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/xml/escapes", test_escapes);
  g_test_add_func ("/xml/reads-back", test_reads_back);

  return g_test_run ();
}
