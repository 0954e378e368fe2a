/* smprof-cli-transforms.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "smprof-cli-transforms.h"
#include "smprof-function-spec.h"
#include "smprof-transform.h"

static const struct
{
  const char *option;
  gboolean    takes_value;
} options[] = {
  { "--merge", TRUE },
  { "--focus", TRUE },
  { "--focus-subtree", TRUE },
  { "--collapse-recursion", FALSE },
  { "--collapse-recursion-of", TRUE },
  { "--collapse", TRUE },
  { "--hide-libraries", FALSE },
  { "--invert", FALSE },
  { "--tree", FALSE },
};

/* Whether @option reshapes the call tree, and whether it takes a value. */
gboolean
smprof_cli_transforms_is_option (const char *option,
                                 gboolean   *takes_value)
{
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (strcmp (option, options[i].option) == 0)
      {
        *takes_value = options[i].takes_value;
        return TRUE;
      }

  return FALSE;
}

gboolean
smprof_cli_transforms_add (SmprofCliTransforms  *self,
                           const char           *option,
                           const char           *value,
                           GError              **error)
{
  if (strcmp (option, "--invert") == 0)
    {
      self->invert = TRUE;
      return TRUE;
    }
  if (strcmp (option, "--tree") == 0)
    {
      self->tree = TRUE;
      return TRUE;
    }

  if (value != NULL && *value == '\0')
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s needs a value"), option);
      return FALSE;
    }

  if (self->steps == NULL)
    self->steps = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->steps, g_strdup (option));
  g_ptr_array_add (self->steps, g_strdup (value));

  return TRUE;
}

/* Whether the command line asks for anything but the aggregate's own tree
 * the right way up. */
gboolean
smprof_cli_transforms_reshape (const SmprofCliTransforms *self)
{
  return (self->steps != NULL && self->steps->len > 0) || self->invert;
}

void
smprof_cli_transforms_clear (SmprofCliTransforms *self)
{
  g_clear_pointer (&self->steps, g_ptr_array_unref);
}

/* Every file and package of @profile's functions. */
static void
collect_groups (SmprofProfile *profile,
                GHashTable    *files,
                GHashTable    *packages)
{
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);

  for (guint32 n = 1; n < smprof_call_tree_get_n_nodes (tree); n++)
    {
      const char *file = smprof_function_keys_get_file (table, smprof_call_tree_get_node (tree, n)->func);
      char *package = smprof_file_dup_package (file);

      g_hash_table_add (files, (gpointer) file);
      if (package != NULL)
        g_hash_table_add (packages, package);
    }
}

/* --collapse: a file of the selection (its path, or its base name when only
 * one file has it), or else a package. */
static SmprofTransform *
collapse_transform (SmprofProfile  *profile,
                    const char     *value,
                    GError        **error)
{
  g_autoptr(GHashTable) files = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) packages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key;
  const char *found = NULL;
  guint n_found = 0;

  collect_groups (profile, files, packages);

  if (g_hash_table_contains (files, value))
    return smprof_transform_new_collapse_file (value);

  g_hash_table_iter_init (&iter, files);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *file = key;
      gsize len = strlen (file), value_len = strlen (value);

      if (len > value_len && file[len - value_len - 1] == '/' && strcmp (file + len - value_len, value) == 0)
        {
          found = file;
          n_found++;
        }
    }
  if (n_found == 1)
    return smprof_transform_new_collapse_file (found);

  if (g_hash_table_contains (packages, value))
    return smprof_transform_new_collapse_package (value);

  if (n_found > 1)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _("--collapse: %u files of the selection are called “%s”; give the whole path"), n_found, value);
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _("--collapse: no file or package “%s” in the selection"), value);
  return NULL;
}

static SmprofTransform *
make_transform (SmprofProfile  *profile,
                const char     *option,
                const char     *value,
                GError        **error)
{
  g_autoptr(GError) local = NULL;
  guint32 func;

  if (strcmp (option, "--collapse-recursion") == 0)
    return smprof_transform_new_collapse_recursion (SMPROF_FUNC_NONE);
  if (strcmp (option, "--hide-libraries") == 0)
    return smprof_transform_new_hide_libraries ();
  if (strcmp (option, "--collapse") == 0)
    return collapse_transform (profile, value, error);

  if (strcmp (option, "--focus-subtree") == 0)
    {
      g_autoptr(GArray) path = smprof_function_spec_resolve_path (profile, value, &local);

      if (path == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", option, local->message);
          return NULL;
        }
      return smprof_transform_new_focus_subtree ((const guint32 *) (gpointer) path->data, path->len);
    }

  func = smprof_function_spec_resolve (profile, value, &local);
  if (func == SMPROF_FUNC_NONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", option, local->message);
      return NULL;
    }

  if (strcmp (option, "--merge") == 0)
    return smprof_transform_new_merge (func);
  if (strcmp (option, "--focus") == 0)
    return smprof_transform_new_focus_function (func);
  return smprof_transform_new_collapse_recursion (func);
}

/**
 * smprof_cli_transforms_apply:
 * @self: the command line's transforms
 * @profile: the selection's aggregate
 * @error: a #G_OPTION_ERROR naming the option whose function, file or frame
 *   the selection does not have
 *
 * Each transform's function is looked for in what the transforms before it
 * left, so `--collapse torch --merge '[torch]'` works.
 *
 * Returns: (transfer full) (nullable): @profile reshaped
 */
SmprofProfile *
smprof_cli_transforms_apply (const SmprofCliTransforms  *self,
                             SmprofProfile              *profile,
                             GError                    **error)
{
  g_autoptr(SmprofProfile) current = g_object_ref (profile);

  for (guint i = 0; self->steps != NULL && i < self->steps->len; i += 2)
    {
      const char *option = g_ptr_array_index (self->steps, i);
      const char *value = g_ptr_array_index (self->steps, i + 1);
      g_autoptr(SmprofTransform) transform = make_transform (current, option, value, error);
      g_autoptr(GPtrArray) one = g_ptr_array_new ();
      SmprofProfile *next;

      if (transform == NULL)
        return NULL;

      g_ptr_array_add (one, transform);
      next = smprof_profile_new_transformed (current, one, FALSE);

      if (strcmp (option, "--focus-subtree") == 0 &&
          smprof_call_tree_get_node (smprof_profile_get_call_tree (next), SMPROF_CALL_TREE_ROOT)->first_child ==
          SMPROF_CALL_TREE_NONE)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--focus-subtree: no frame at “%s” (give the functions from a root down, separated by ';')"),
                       value);
          g_object_unref (next);
          return NULL;
        }

      g_set_object (&current, next);
      g_object_unref (next);
    }

  if (self->invert)
    {
      SmprofProfile *inverted = smprof_profile_new_transformed (current, NULL, TRUE);

      g_set_object (&current, inverted);
      g_object_unref (inverted);
    }

  return g_steal_pointer (&current);
}
