/* smprof-pyinstrument.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "smprof-json-parse.h"
#include "smprof-pyinstrument.h"
#include "smprof-types.h"

void
smprof_pyinstrument_session_free (SmprofPyinstrumentSession *self)
{
  if (self == NULL)
    return;

  g_free (self->frames);
  g_free (self);
}

typedef struct
{
  SmprofFunctionKeys *table;
  GArray             *frames;
} Reader;

static gboolean
get_member (JsonObject   *object,
            const char   *name,
            JsonNodeType  type,
            JsonNode    **node,
            guint         depth,
            GError      **error)
{
  *node = json_object_get_member (object, name);

  if (*node == NULL || JSON_NODE_TYPE (*node) != type)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("a frame at depth %u has no “%s” of the right type"), depth, name);
      return FALSE;
    }

  return TRUE;
}

static gboolean
get_number (JsonObject  *object,
            const char  *name,
            guint        depth,
            double      *value,
            GError     **error)
{
  JsonNode *node;
  GType type;

  if (!get_member (object, name, JSON_NODE_VALUE, &node, depth, error))
    return FALSE;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *value = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("a frame at depth %u has a “%s” that is not a number"), depth, name);
      return FALSE;
    }

  if (!isfinite (*value) || *value < 0 || *value > 1e12)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("a frame at depth %u has an impossible “%s”"), depth, name);
      return FALSE;
    }

  return TRUE;
}

static gboolean
read_frame (Reader      *reader,
            JsonNode    *node,
            guint        depth,
            GError     **error)
{
  JsonObject *object;
  JsonNode *function, *file, *line, *children;
  JsonArray *array;
  const char *function_name, *file_path;
  g_autofree char *valid_function_name = NULL;
  g_autofree char *valid_file_path = NULL;
  SmprofPyFrame frame = { 0 };
  guint index;
  double children_time = 0;

  if (depth > SMPROF_PYINSTRUMENT_MAX_DEPTH)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("frames nested more than %u deep"), SMPROF_PYINSTRUMENT_MAX_DEPTH);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("a frame at depth %u is not an object"), depth);
      return FALSE;
    }

  object = json_node_get_object (node);
  if (!get_member (object, "function", JSON_NODE_VALUE, &function, depth, error) ||
      !get_member (object, "file_path", JSON_NODE_VALUE, &file, depth, error) ||
      !get_member (object, "line_no", JSON_NODE_VALUE, &line, depth, error) ||
      !get_member (object, "children", JSON_NODE_ARRAY, &children, depth, error) ||
      !get_number (object, "time", depth, &frame.time, error))
    return FALSE;

  if (json_node_get_value_type (function) != G_TYPE_STRING ||
      json_node_get_value_type (file) != G_TYPE_STRING ||
      json_node_get_value_type (line) != G_TYPE_INT64)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("a frame at depth %u has a function, file_path or line_no of the wrong type"),
                   depth);
      return FALSE;
    }

  function_name = json_node_get_string (function);
  file_path = json_node_get_string (file);

  /* json-glib 1.6 passes a lone "\ud800" escape through as invalid UTF-8;
   * the function table holds valid UTF-8 only. */
  if (!g_utf8_validate (function_name, -1, NULL))
    function_name = valid_function_name = g_utf8_make_valid (function_name, -1);
  if (!g_utf8_validate (file_path, -1, NULL))
    file_path = valid_file_path = g_utf8_make_valid (file_path, -1);
  frame.func = smprof_function_keys_intern (reader->table,
                                            file_path, strlen (file_path),
                                            json_node_get_int (line),
                                            function_name, strlen (function_name));

  index = reader->frames->len;
  g_array_append_val (reader->frames, frame);

  array = json_node_get_array (children);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      guint child = reader->frames->len;

      if (!read_frame (reader, json_array_get_element (array, i), depth + 1, error))
        return FALSE;

      children_time += g_array_index (reader->frames, SmprofPyFrame, child).time;
    }

  {
    SmprofPyFrame *stored = &g_array_index (reader->frames, SmprofPyFrame, index);

    stored->subtree_size = reader->frames->len - index;
    /* Each time is rounded to 6 decimals on its own, so children may exceed
     * their parent by a microsecond and self time may be -1e-06: it is kept
     * exact (it sums back to the parent's time), and views clamp what they show. */
    stored->self_time = stored->time - children_time;
  }

  return TRUE;
}

/**
 * smprof_pyinstrument_parse:
 * @bytes: the contents of a `python_stats.json`
 * @table: the job's function table
 * @error: a location for a #GError, or %NULL
 *
 * Reads pyinstrument 3.4.2's JSON session (4.x's extra keys are ignored). A null
 * or missing `root_frame`, which smdebug writes when pyinstrument failed or saw
 * no sample, is an empty session.
 *
 * Returns: (transfer full) (nullable): the session, or %NULL with @error set
 */
SmprofPyinstrumentSession *
smprof_pyinstrument_parse (GBytes              *bytes,
                           SmprofFunctionKeys  *table,
                           GError             **error)
{
  g_autoptr(SmprofPyinstrumentSession) session = g_new0 (SmprofPyinstrumentSession, 1);
  g_autoptr(JsonParser) parser = NULL;
  Reader reader = { table, NULL };
  JsonObject *top;
  JsonNode *root_frame;

  parser = smprof_json_parse_bounded (bytes, 2 * SMPROF_PYINSTRUMENT_MAX_DEPTH + 4, error);
  if (parser == NULL)
    return NULL;

  /* An empty or all-blank document parses to no root at all. */
  if (json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error_literal (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                           _("the document is not a JSON object"));
      return NULL;
    }

  top = json_node_get_object (json_parser_get_root (parser));

  if (json_object_has_member (top, "duration"))
    {
      JsonNode *node = json_object_get_member (top, "duration");

      if (JSON_NODE_HOLDS_VALUE (node) &&
          (json_node_get_value_type (node) == G_TYPE_DOUBLE || json_node_get_value_type (node) == G_TYPE_INT64))
        session->duration = json_node_get_double (node);
    }
  if (json_object_has_member (top, "sample_count"))
    {
      JsonNode *node = json_object_get_member (top, "sample_count");

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
        session->sample_count = json_node_get_int (node);
    }

  root_frame = json_object_get_member (top, "root_frame");
  if (root_frame == NULL || JSON_NODE_HOLDS_NULL (root_frame))
    return g_steal_pointer (&session);

  reader.frames = g_array_new (FALSE, FALSE, sizeof (SmprofPyFrame));
  if (!read_frame (&reader, root_frame, 0, error))
    {
      g_array_unref (reader.frames);
      return NULL;
    }

  session->n_frames = reader.frames->len;
  session->frames = (SmprofPyFrame *) (void *) g_array_free (reader.frames, FALSE);

  return g_steal_pointer (&session);
}
