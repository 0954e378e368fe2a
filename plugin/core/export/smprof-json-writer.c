/* smprof-json-writer.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "smprof-float.h"
#include "smprof-json-writer.h"

/* json-glib's generator prints doubles with %.17g (0.030000000000000002 for
 * 0.03); this writer prints the shortest round-trip form, as Python's json does,
 * and streams without building a tree first. */
struct _SmprofJsonWriter
{
  GString  *out;
  GArray   *has_items;     /* gboolean per open container */
  gboolean  after_member;
  gboolean  pretty;
};

SmprofJsonWriter *
smprof_json_writer_new (gboolean pretty)
{
  SmprofJsonWriter *self = g_new0 (SmprofJsonWriter, 1);

  self->out = g_string_new (NULL);
  self->has_items = g_array_new (FALSE, FALSE, sizeof (gboolean));
  self->pretty = pretty;

  return self;
}

void
smprof_json_writer_free (SmprofJsonWriter *self)
{
  if (self == NULL)
    return;

  g_string_free (self->out, TRUE);
  g_array_unref (self->has_items);
  g_free (self);
}

char *
smprof_json_writer_free_to_string (SmprofJsonWriter *self)
{
  char *text;

  if (self->pretty)
    g_string_append_c (self->out, '\n');
  text = g_string_free (g_steal_pointer (&self->out), FALSE);
  g_array_unref (self->has_items);
  g_free (self);

  return text;
}

static void
newline (SmprofJsonWriter *self)
{
  if (!self->pretty)
    return;

  g_string_append_c (self->out, '\n');
  for (guint i = 0; i < self->has_items->len; i++)
    g_string_append (self->out, "  ");
}

/* Separates this value from the previous one in its container. */
static void
before_value (SmprofJsonWriter *self)
{
  gboolean *has_items;

  if (self->after_member)
    {
      self->after_member = FALSE;
      return;
    }

  if (self->has_items->len == 0)
    return;

  has_items = &g_array_index (self->has_items, gboolean, self->has_items->len - 1);
  if (*has_items)
    g_string_append_c (self->out, ',');
  *has_items = TRUE;
  newline (self);
}

static void
open_container (SmprofJsonWriter *self,
                char              bracket)
{
  gboolean empty = FALSE;

  before_value (self);
  g_string_append_c (self->out, bracket);
  g_array_append_val (self->has_items, empty);
}

static void
close_container (SmprofJsonWriter *self,
                 char              bracket)
{
  gboolean had_items;

  g_return_if_fail (self->has_items->len > 0);

  had_items = g_array_index (self->has_items, gboolean, self->has_items->len - 1);
  g_array_set_size (self->has_items, self->has_items->len - 1);
  if (had_items)
    newline (self);
  g_string_append_c (self->out, bracket);
}

void
smprof_json_writer_begin_object (SmprofJsonWriter *self)
{
  open_container (self, '{');
}

void
smprof_json_writer_end_object (SmprofJsonWriter *self)
{
  close_container (self, '}');
}

void
smprof_json_writer_begin_array (SmprofJsonWriter *self)
{
  open_container (self, '[');
}

void
smprof_json_writer_end_array (SmprofJsonWriter *self)
{
  close_container (self, ']');
}

static void
append_escaped (GString    *out,
                const char *value)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) value; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

void
smprof_json_writer_member (SmprofJsonWriter *self,
                           const char       *name)
{
  before_value (self);
  append_escaped (self->out, name);
  g_string_append (self->out, self->pretty ? ": " : ":");
  self->after_member = TRUE;
}

/* @value must be valid UTF-8; the readers make every string so. */
void
smprof_json_writer_string (SmprofJsonWriter *self,
                           const char       *value)
{
  before_value (self);
  if (g_utf8_validate (value, -1, NULL))
    append_escaped (self->out, value);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);

      append_escaped (self->out, valid);
    }
}

void
smprof_json_writer_int (SmprofJsonWriter *self,
                        gint64            value)
{
  before_value (self);
  g_string_append_printf (self->out, "%" G_GINT64_FORMAT, value);
}

/* JSON has no infinity or NaN; they never come out of valid stats, but a
 * hostile file must still give valid JSON. */
void
smprof_json_writer_double (SmprofJsonWriter *self,
                           double            value)
{
  char buffer[SMPROF_FLOAT_BUF_SIZE];

  before_value (self);
  if (!isfinite (value))
    g_string_append (self->out, "null");
  else
    g_string_append (self->out, smprof_float_format_repr (buffer, value));
}

void
smprof_json_writer_boolean (SmprofJsonWriter *self,
                            gboolean          value)
{
  before_value (self);
  g_string_append (self->out, value ? "true" : "false");
}

void
smprof_json_writer_null (SmprofJsonWriter *self)
{
  before_value (self);
  g_string_append (self->out, "null");
}
