/* smprof-pevents.c: reading smdebug's framework timeline files
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file is a Chrome-trace JSON array (smdebug's TimelineFileWriter): a
 * `process_name` metadata event on pid 0 carries the start time every `ts`
 * is relative to, more `process_name` events name the other pids (one per
 * phase, such as `Step:ModeKeys.TRAIN`), and `X` events on those pids are
 * the phases, each with `args.step_num`. Only the step phases are kept.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "smprof-json-parse.h"
#include "smprof-pevents.h"
#include "smprof-u64-map.h"

#define TIMELINE_SUFFIX "_pythontimeline.json"

/* Bounds that no real job reaches and that keep every sum finite and exact
 * enough: start times up to the year 5138, offsets and durations up to
 * about 115 days, steps up to 2^53. */
#define MAX_START_US  1e17
#define MAX_OFFSET_US 1e13
#define MAX_STEP      ((gint64) 1 << 53)
/* The format nests three levels; json-glib parses recursively, so a hostile
 * file must not exhaust a worker thread's stack. */
#define MAX_NESTING   8

/* The step phases smdebug writes (ModeKeys), and the mode each one means. */
static const struct
{
  const char *phase;
  SmprofMode  mode;
} step_phases[] = {
  { "Step:ModeKeys.TRAIN", SMPROF_MODE_TRAIN },
  { "Step:ModeKeys.EVAL", SMPROF_MODE_EVAL },
  { "Step:ModeKeys.PREDICT", SMPROF_MODE_PREDICT },
  { "Step:ModeKeys.GLOBAL", SMPROF_MODE_GLOBAL },
};

/**
 * smprof_pevents_is_timeline_path:
 * @path: a path relative to the job root
 *
 * Returns: whether @path is where smdebug writes a Python framework timeline,
 *   `framework/pevents/<hour>/<ts>_<node>_pythontimeline.json`; the other
 *   trace files of that folder (model, Horovod...) are not
 */
gboolean
smprof_pevents_is_timeline_path (const char *path)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *node_id = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_str_has_prefix (path, "framework/pevents/") || !g_utf8_validate (path, -1, NULL))
    return FALSE;

  parts = g_strsplit (path, "/", 5);
  if (g_strv_length (parts) != 4 || parts[2][0] == '\0')
    return FALSE;

  node_id = smprof_pevents_dup_node_id (parts[3]);

  return node_id != NULL;
}

/**
 * smprof_pevents_dup_node_id:
 * @path: a timeline file's name or path
 *
 * The node id is what lies between the timestamp and the suffix
 * (`<ts_us>_<node_id>_pythontimeline.json`). Old smdebug versions left
 * underscores in it, so it is not split further.
 *
 * Returns: (transfer full) (nullable): the node id, or %NULL if @path is not
 *   named like a timeline file
 */
char *
smprof_pevents_dup_node_id (const char *path)
{
  const char *name, *sep, *end;

  g_return_val_if_fail (path != NULL, NULL);

  name = strrchr (path, '/');
  name = name != NULL ? name + 1 : path;

  if (!g_str_has_suffix (name, TIMELINE_SUFFIX))
    return NULL;

  end = name + strlen (name) - strlen (TIMELINE_SUFFIX);
  sep = strchr (name, '_');
  if (sep == NULL || sep == name || sep + 1 >= end)
    return NULL;

  for (const char *c = name; c < sep; c++)
    if (!g_ascii_isdigit (*c))
      return NULL;

  if (!g_utf8_validate (sep + 1, end - (sep + 1), NULL))
    return NULL;

  return g_strndup (sep + 1, end - (sep + 1));
}

/* A member that holds a number, as a double; FALSE if absent or not a number. */
static gboolean
get_number (JsonObject *object,
            const char *name,
            double     *value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *value = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;

  return isfinite (*value);
}

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

/* pids are small integers in smdebug's files; anything else names no phase. */
static gboolean
get_pid (JsonObject *event,
         gint64     *pid)
{
  JsonNode *node = json_object_get_member (event, "pid");

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;

  *pid = json_node_get_int (node);
  return TRUE;
}

/* `args.step_num` is a string in smdebug's files; an integer is taken too. */
static gboolean
get_step (JsonObject *args,
          gint64     *step)
{
  JsonNode *node = args != NULL ? json_object_get_member (args, "step_num") : NULL;
  guint64 value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *step = json_node_get_int (node);
      return *step >= 0 && *step <= MAX_STEP;
    }

  if (json_node_get_value_type (node) != G_TYPE_STRING ||
      !g_ascii_string_to_unsigned (json_node_get_string (node), 10, 0, MAX_STEP, &value, NULL))
    return FALSE;

  *step = (gint64) value;
  return TRUE;
}

static gboolean
set_bad_event (GError     **error,
               const char  *file_name,
               guint        index,
               const char  *what)
{
  g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
               /* Translators: a framework timeline file, an event's position in it, what is wrong */
               _("%s: event %u: %s"), file_name, index, what);
  return FALSE;
}

/* First pass: the start time, and which pid is which step phase (a pid is
 * named before its events, but a later name wins, as in a trace viewer):
 * @phases maps each named pid to its index in step_phases, or past the end
 * for a name that is no step phase. */
static gboolean
read_metadata (JsonArray     *array,
               const char    *file_name,
               double        *start_us,
               SmprofU64Map  *phases,
               GError       **error)
{
  gboolean has_start = FALSE;
  guint n = json_array_get_length (array);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *event, *args;
      const char *ph, *name;
      gint64 pid;
      double value;
      guint32 phase;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return set_bad_event (error, file_name, i, _("not a JSON object"));

      event = json_node_get_object (node);
      ph = get_string (event, "ph");
      if (ph == NULL)
        return set_bad_event (error, file_name, i, _("no “ph” string"));

      if (strcmp (ph, "M") != 0 || g_strcmp0 (get_string (event, "name"), "process_name") != 0)
        continue;

      args = get_object (event, "args");
      if (args == NULL)
        return set_bad_event (error, file_name, i, _("a process_name event without “args”"));

      if (json_object_has_member (args, "start_time_since_epoch_in_micros"))
        {
          if (!get_number (args, "start_time_since_epoch_in_micros", &value) ||
              value <= 0 || value > MAX_START_US)
            return set_bad_event (error, file_name, i, _("“start_time_since_epoch_in_micros” is not a plausible time"));
          *start_us = value;
          has_start = TRUE;
        }

      name = get_string (args, "name");
      if (name == NULL)
        continue;
      if (!get_pid (event, &pid))
        return set_bad_event (error, file_name, i, _("no integer “pid”"));

      for (phase = 0; phase < G_N_ELEMENTS (step_phases); phase++)
        if (strcmp (name, step_phases[phase].phase) == 0)
          break;
      smprof_u64_map_insert (phases, (guint64) pid, phase);
    }

  if (!has_start)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("%s: no process_name event gives “start_time_since_epoch_in_micros”"), file_name);
      return FALSE;
    }

  return TRUE;
}

/**
 * smprof_pevents_parse:
 * @bytes: a `*_pythontimeline.json` file
 * @file_name: how to name the file in errors
 * @error: a location for a #GError, or %NULL
 *
 * Reads the steps of one framework timeline file. Events of other phases
 * (forward passes, submodules) are skipped; a step event with a missing or
 * implausible `ts`, `dur` or `args.step_num` is an error, as is a file without
 * a start time, over %SMPROF_PEVENTS_MAX_BYTES or that is not a JSON array.
 *
 * Returns: (transfer full) (element-type SmprofStepEvent): the steps, in the
 *   file's order, or %NULL with @error set (%SMPROF_FORMAT_ERROR, the message
 *   starts with @file_name)
 */
GArray *
smprof_pevents_parse (GBytes      *bytes,
                      const char  *file_name,
                      GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_auto(SmprofU64Map) phases = { 0 };
  g_autoptr(GArray) events = NULL;
  g_autofree char *display = NULL;
  JsonNode *root;
  JsonArray *array;
  double start_us = 0;
  gsize length;
  guint n;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (file_name != NULL, NULL);

  /* Messages are shown to a person: the name too must be UTF-8. */
  display = g_utf8_make_valid (file_name, -1);
  file_name = display;

  length = g_bytes_get_size (bytes);
  if (length > SMPROF_PEVENTS_MAX_BYTES)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("%s: %zu bytes, more than a framework timeline file holds"), file_name, (size_t) length);
      return NULL;
    }

  parser = smprof_json_parse_bounded (bytes, MAX_NESTING, &local_error);
  if (parser == NULL)
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("%s: %s"), file_name, local_error->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, SMPROF_FORMAT_ERROR, SMPROF_FORMAT_ERROR_CORRUPT,
                   _("%s: not a JSON array of trace events"), file_name);
      return NULL;
    }

  array = json_node_get_array (root);
  smprof_u64_map_init (&phases, 8);
  if (!read_metadata (array, file_name, &start_us, &phases, error))
    return NULL;

  events = g_array_new (FALSE, FALSE, sizeof (SmprofStepEvent));
  n = json_array_get_length (array);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *event = json_node_get_object (json_array_get_element (array, i));
      SmprofStepEvent step = { NULL, };
      guint32 phase;
      gint64 pid;
      double ts, dur;

      if (strcmp (get_string (event, "ph"), "X") != 0 || !get_pid (event, &pid))
        continue;

      phase = smprof_u64_map_lookup (&phases, (guint64) pid);
      if (phase >= G_N_ELEMENTS (step_phases))
        continue;

      if (!get_number (event, "ts", &ts) || ts < 0 || ts > MAX_OFFSET_US)
        {
          set_bad_event (error, file_name, i, _("a step without a plausible “ts”"));
          return NULL;
        }
      if (!get_number (event, "dur", &dur) || dur < 0 || dur > MAX_OFFSET_US)
        {
          set_bad_event (error, file_name, i, _("a step without a plausible “dur”"));
          return NULL;
        }
      if (!get_step (get_object (event, "args"), &step.step))
        {
          set_bad_event (error, file_name, i, _("a step without a plausible “args.step_num”"));
          return NULL;
        }

      step.phase = step_phases[phase].phase;
      step.mode = step_phases[phase].mode;
      step.start_us = start_us + ts;
      step.end_us = step.start_us + dur;
      g_array_append_val (events, step);
    }

  return g_steal_pointer (&events);
}

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const SmprofStepEvent *x = a;
  const SmprofStepEvent *y = b;

  if (x->start_us != y->start_us)
    return x->start_us < y->start_us ? -1 : 1;
  if (x->end_us != y->end_us)
    return x->end_us < y->end_us ? -1 : 1;
  if (x->mode != y->mode)
    return x->mode < y->mode ? -1 : 1;
  if (x->step != y->step)
    return x->step < y->step ? -1 : 1;

  return 0;
}

/**
 * smprof_pevents_sort:
 * @events: (element-type SmprofStepEvent): steps, from one file or merged
 *   from several (the hours of one node)
 *
 * Sorts @events by start, then end, mode and step, so the order does not
 * depend on which file was read first.
 */
void
smprof_pevents_sort (GArray *events)
{
  g_return_if_fail (events != NULL);

  g_array_sort (events, compare_events);
}
