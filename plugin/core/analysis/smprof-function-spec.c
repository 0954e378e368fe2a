/* smprof-function-spec.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-function-spec.h"

G_DEFINE_QUARK (smprof-function-spec-error-quark, smprof_function_spec_error)

/* How far a spec names a function, best first. */
typedef enum
{
  MATCH_NONE,
  MATCH_NAME,       /* the bare name */
  MATCH_LOCATION,   /* file:line, the file's base name allowed */
  MATCH_LABEL,      /* pstats' label, file:line(name), or the stack exports' name (file:line) */
} Match;

static gboolean
file_matches (const char *file,
              const char *wanted,
              gsize       wanted_len)
{
  gsize len = strlen (file);

  if (len == wanted_len && strncmp (file, wanted, wanted_len) == 0)
    return TRUE;

  /* ".../module.py" answers to "module.py" */
  return len > wanted_len && file[len - wanted_len - 1] == '/' &&
         strncmp (file + len - wanted_len, wanted, wanted_len) == 0;
}

static Match
match (SmprofFunctionKeys *table,
       guint32             func,
       const char         *spec)
{
  const char *file = smprof_function_keys_get_file (table, func);
  const char *name = smprof_function_keys_get_name (table, func);
  gint64 line = smprof_function_keys_get_line (table, func);
  g_autofree char *label = smprof_function_keys_dup_label (table, func);
  g_autofree char *folded = g_strdup_printf ("%s (%s:%" G_GINT64_FORMAT ")", name, file, line);
  g_autofree char *location = g_strdup_printf (":%" G_GINT64_FORMAT, line);
  gsize spec_len = strlen (spec);
  gsize location_len = strlen (location);

  if (strcmp (spec, label) == 0 || strcmp (spec, folded) == 0)
    return MATCH_LABEL;

  if (spec_len > location_len && strcmp (spec + spec_len - location_len, location) == 0 &&
      file_matches (file, spec, spec_len - location_len))
    return MATCH_LOCATION;

  if (strcmp (spec, name) == 0)
    return MATCH_NAME;

  return MATCH_NONE;
}

/* Every function of @profile: its table's and its tree's (where a transform
 * may have made frames of its own). */
static GArray *
dup_candidates (SmprofProfile *profile)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  GArray *funcs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < smprof_profile_get_n_functions (profile); i++)
    {
      guint32 func = smprof_profile_get_function (profile, i)->func;

      if (g_hash_table_add (seen, GUINT_TO_POINTER (func + 1)))
        g_array_append_val (funcs, func);
    }
  for (guint32 n = 1; n < smprof_call_tree_get_n_nodes (tree); n++)
    {
      guint32 func = smprof_call_tree_get_node (tree, n)->func;

      if (g_hash_table_add (seen, GUINT_TO_POINTER (func + 1)))
        g_array_append_val (funcs, func);
    }

  return funcs;
}

/**
 * smprof_function_spec_resolve:
 * @profile: a profile
 * @spec: a function as a user names it: pstats' label
 *   (`/path/module.py:12(name)`, `{built-in method time.sleep}`), the stack
 *   exports' (`name (/path/module.py:12)`), a location (`module.py:12`, the
 *   file's base name enough) or a bare name
 * @error: a #SMPROF_FUNCTION_SPEC_ERROR when @spec names no function of
 *   @profile, or several
 *
 * The closest kind of match wins: a spec that is one function's label is
 * that function even if it is another's name.
 *
 * Returns: the function id, or %SMPROF_FUNC_NONE
 */
guint32
smprof_function_spec_resolve (SmprofProfile  *profile,
                              const char     *spec,
                              GError        **error)
{
  SmprofFunctionKeys *table;
  g_autoptr(GArray) funcs = NULL;
  g_autoptr(GArray) best = g_array_new (FALSE, FALSE, sizeof (guint32));
  Match best_match = MATCH_NONE;

  g_return_val_if_fail (SMPROF_IS_PROFILE (profile), SMPROF_FUNC_NONE);
  g_return_val_if_fail (spec != NULL, SMPROF_FUNC_NONE);

  table = smprof_call_tree_get_table (smprof_profile_get_call_tree (profile));
  funcs = dup_candidates (profile);

  for (guint i = 0; i < funcs->len; i++)
    {
      guint32 func = g_array_index (funcs, guint32, i);
      Match m = match (table, func, spec);

      if (m == MATCH_NONE || m < best_match)
        continue;
      if (m > best_match)
        {
          g_array_set_size (best, 0);
          best_match = m;
        }
      g_array_append_val (best, func);
    }

  if (best->len == 1)
    return g_array_index (best, guint32, 0);

  if (best->len == 0)
    {
      g_set_error (error, SMPROF_FUNCTION_SPEC_ERROR, SMPROF_FUNCTION_SPEC_ERROR_NOT_FOUND,
                   _("no function “%s” in the selection"), spec);
      return SMPROF_FUNC_NONE;
    }

  {
    g_autoptr(GString) list = g_string_new (NULL);

    for (guint i = 0; i < best->len && i < 5; i++)
      {
        g_autofree char *label = smprof_function_keys_dup_label (table, g_array_index (best, guint32, i));

        g_string_append_printf (list, "\n  %s", label);
      }
    if (best->len > 5)
      g_string_append (list, "\n  …");
    g_set_error (error, SMPROF_FUNCTION_SPEC_ERROR, SMPROF_FUNCTION_SPEC_ERROR_AMBIGUOUS,
                 g_dngettext (GETTEXT_PACKAGE, "“%s” names %u function; say which by its label:%s",
                              "“%s” names %u functions; say which by its label:%s", best->len),
                 spec, best->len, list->str);
  }

  return SMPROF_FUNC_NONE;
}

/**
 * smprof_function_spec_resolve_path:
 * @profile: a profile
 * @spec: functions as smprof_function_spec_resolve() takes them, separated
 *   by ';' (as the folded export writes a stack), from a root down
 * @error: as for smprof_function_spec_resolve()
 *
 * Returns: (transfer full) (element-type guint32) (nullable): the function ids
 */
GArray *
smprof_function_spec_resolve_path (SmprofProfile  *profile,
                                   const char     *spec,
                                   GError        **error)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (spec != NULL, NULL);

  parts = g_strsplit (spec, ";", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint32 func;

      if (*g_strstrip (parts[i]) == '\0')
        continue;
      func = smprof_function_spec_resolve (profile, parts[i], error);
      if (func == SMPROF_FUNC_NONE)
        return NULL;
      g_array_append_val (path, func);
    }

  if (path->len == 0)
    {
      g_set_error (error, SMPROF_FUNCTION_SPEC_ERROR, SMPROF_FUNCTION_SPEC_ERROR_NOT_FOUND,
                   _("no function in “%s”"), spec);
      return NULL;
    }

  return g_steal_pointer (&path);
}
