/* smprof-man.c: writes smprof.1 from its prose template and the help tables
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: smprof-man TEMPLATE OUTPUT VERSION
 *
 * The lines @SYNOPSIS@, @SOURCE@, @COMMANDS@ and @OPTIONS@ of TEMPLATE
 * (data/smprof.1.in) become roff printed from smprof-cli-help.c's tables, the
 * very text `smprof COMMAND --help` prints; @VERSION@ becomes VERSION. It
 * never calls setlocale(), so the page is the English msgids.
 */

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "smprof-cli-help.h"

/* Text for a roff text line: backslashes, hyphens and non-ASCII characters
 * escaped, and a leading control character made ordinary. */
static void
append_escaped (GString    *out,
                const char *text,
                gsize       length)
{
  const char *end = text + length;

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      if (*p == '\\')
        g_string_append (out, "\\e");
      else if (*p == '-')
        g_string_append (out, "\\-");
      else if ((guchar) *p >= 0x80)  /* troff reads bytes: name the character */
        g_string_append_printf (out, "\\[u%04X]", g_utf8_get_char (p));
      else
        g_string_append_c (out, *p);
    }
}

static char *
escape_line (const char *text)
{
  GString *out = g_string_new (NULL);

  if (text[0] == '.' || text[0] == '\'')
    g_string_append (out, "\\&");
  append_escaped (out, text, strlen (text));

  return g_string_free (out, FALSE);
}

static gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

/* A synopsis or an option's name and value: options and literal values in
 * bold, placeholders (words in capitals) in italics, punctuation upright, and
 * no line break inside brackets ("[--limit N]" stays on one line). */
static char *
format_syntax (const char *text)
{
  GString *out = g_string_new (NULL);
  const char *p = text;
  int depth = 0;

  while (*p != '\0')
    {
      const char *start = p;
      gboolean placeholder = TRUE;

      if (!is_word_char (*p))
        {
          const char *next = g_utf8_next_char (p);

          depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
          if (*p == ' ' && depth > 0)
            g_string_append (out, "\\ ");
          else
            append_escaped (out, p, next - p);
          p = next;
          continue;
        }

      while (is_word_char (*p))
        {
          if (g_ascii_islower (*p) || *p == '-')
            placeholder = FALSE;
          p++;
        }
      g_string_append (out, placeholder ? "\\fI" : "\\fB");
      append_escaped (out, start, p - start);
      g_string_append (out, "\\fR");
    }

  return g_string_free (out, FALSE);
}

static void
write_synopsis (FILE *out)
{
  guint n_commands;
  const SmprofCliHelpCommand *commands = smprof_cli_help_get_commands (&n_commands);

  for (guint i = 0; i < n_commands; i++)
    {
      g_autofree char *synopsis = format_syntax (commands[i].synopsis);

      fprintf (out, ".SY \"smprof %s\"\n%s\n.YS\n", commands[i].name, synopsis);
    }
}

static void
write_commands (FILE *out)
{
  guint n_commands;
  const SmprofCliHelpCommand *commands = smprof_cli_help_get_commands (&n_commands);

  for (guint i = 0; i < n_commands; i++)
    {
      g_autofree char *summary = escape_line (commands[i].summary);

      fprintf (out, ".TP\n.B %s\n%s\n", commands[i].name, summary);
      if (commands[i].description != NULL)
        {
          g_autofree char *description = escape_line (commands[i].description);

          fprintf (out, ".IP\n%s\n", description);
        }
    }
}

static void
write_options (FILE *out)
{
  guint n_groups;
  const SmprofCliHelpGroup *groups = smprof_cli_help_get_groups (&n_groups);

  for (guint g = 0; g < n_groups; g++)
    {
      g_autofree char *title = escape_line (groups[g].title);

      fprintf (out, ".SS %s\n", title);
      for (const SmprofCliHelpOption *o = groups[g].options; o->name != NULL; o++)
        {
          g_autofree char *syntax = g_strdup_printf ("%s%s%s", o->name, o->value ? " " : "",
                                                     o->value ? o->value : "");
          g_autofree char *tag = format_syntax (syntax);
          g_autofree char *text = escape_line (o->text);

          fprintf (out, ".TP\n%s\n%s\n", tag, text);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *template = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  FILE *out;

  if (argc != 4)
    {
      fprintf (stderr, "Usage: smprof-man TEMPLATE OUTPUT VERSION\n");
      return 2;
    }

  if (!g_file_get_contents (argv[1], &template, NULL, &error))
    {
      fprintf (stderr, "smprof-man: %s\n", error->message);
      return 1;
    }

  out = fopen (argv[2], "w");
  if (out == NULL)
    {
      perror (argv[2]);
      return 1;
    }

  lines = g_strsplit (template, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_autofree char *line = NULL;

      if (lines[i + 1] == NULL && lines[i][0] == '\0')
        break;
      if (strcmp (lines[i], "@SYNOPSIS@") == 0)
        write_synopsis (out);
      else if (strcmp (lines[i], "@COMMANDS@") == 0)
        write_commands (out);
      else if (strcmp (lines[i], "@OPTIONS@") == 0)
        write_options (out);
      else if (strcmp (lines[i], "@SOURCE@") == 0)
        {
          g_autofree char *source = escape_line (smprof_cli_help_get_source ());

          fprintf (out, "%s\n", source);
        }
      else
        {
          parts = g_strsplit (lines[i], "@VERSION@", -1);
          line = g_strjoinv (argv[3], parts);
          fprintf (out, "%s\n", line);
        }
    }

  if (fclose (out) != 0)
    {
      perror (argv[2]);
      return 1;
    }

  return 0;
}
