/* smprof-transform.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "smprof-estimated-tree.h"
#include "smprof-transform.h"

struct _SmprofTransform
{
  gatomicrefcount      ref_count;
  SmprofTransformKind  kind;
  guint32              func;    /* merge, focus function, collapse recursion (NONE: all) */
  GArray              *path;    /* focus subtree: guint32 function ids from a root */
  char                *group;   /* collapse group: a file, or a package */
  gboolean             package;
};

G_DEFINE_BOXED_TYPE (SmprofTransform, smprof_transform, smprof_transform_ref, smprof_transform_unref)

static SmprofTransform *
transform_new (SmprofTransformKind kind)
{
  SmprofTransform *self = g_new0 (SmprofTransform, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->func = SMPROF_FUNC_NONE;

  return self;
}

SmprofTransform *
smprof_transform_new_merge (guint32 func)
{
  SmprofTransform *self = transform_new (SMPROF_TRANSFORM_MERGE);

  self->func = func;
  return self;
}

SmprofTransform *
smprof_transform_new_focus_function (guint32 func)
{
  SmprofTransform *self = transform_new (SMPROF_TRANSFORM_FOCUS_FUNCTION);

  self->func = func;
  return self;
}

/**
 * smprof_transform_new_focus_subtree:
 * @path: (array length=depth): the functions of the frames from a root down
 *   to the frame to focus on
 * @depth: the length of @path, at least one
 *
 * Returns: (transfer full): the transform
 */
SmprofTransform *
smprof_transform_new_focus_subtree (const guint32 *path,
                                    guint          depth)
{
  SmprofTransform *self;

  g_return_val_if_fail (path != NULL && depth > 0, NULL);

  self = transform_new (SMPROF_TRANSFORM_FOCUS_SUBTREE);
  self->path = g_array_sized_new (FALSE, FALSE, sizeof (guint32), depth);
  g_array_append_vals (self->path, path, depth);
  self->func = path[depth - 1];

  return self;
}

/* @func: the function whose recursion to collapse, or SMPROF_FUNC_NONE for all. */
SmprofTransform *
smprof_transform_new_collapse_recursion (guint32 func)
{
  SmprofTransform *self = transform_new (SMPROF_TRANSFORM_COLLAPSE_RECURSION);

  self->func = func;
  return self;
}

SmprofTransform *
smprof_transform_new_collapse_file (const char *file)
{
  SmprofTransform *self;

  g_return_val_if_fail (file != NULL, NULL);

  self = transform_new (SMPROF_TRANSFORM_COLLAPSE_GROUP);
  self->group = g_strdup (file);
  return self;
}

SmprofTransform *
smprof_transform_new_collapse_package (const char *package)
{
  SmprofTransform *self;

  g_return_val_if_fail (package != NULL, NULL);

  self = transform_new (SMPROF_TRANSFORM_COLLAPSE_GROUP);
  self->group = g_strdup (package);
  self->package = TRUE;
  return self;
}

SmprofTransform *
smprof_transform_new_hide_libraries (void)
{
  return transform_new (SMPROF_TRANSFORM_HIDE_LIBRARIES);
}

SmprofTransform *
smprof_transform_ref (SmprofTransform *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
smprof_transform_unref (SmprofTransform *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_pointer (&self->path, g_array_unref);
  g_free (self->group);
  g_free (self);
}

SmprofTransformKind
smprof_transform_get_kind (const SmprofTransform *self)
{
  return self->kind;
}

/* The function merged, focused on or whose recursion is collapsed
 * (SMPROF_FUNC_NONE: every function's); a subtree's own function. */
guint32
smprof_transform_get_function (const SmprofTransform *self)
{
  return self->func;
}

/**
 * smprof_transform_get_path:
 * @self: a focus-subtree transform
 * @depth: (out): the path's length
 *
 * Returns: (array length=depth) (transfer none) (nullable): its path
 */
const guint32 *
smprof_transform_get_path (const SmprofTransform *self,
                           guint                 *depth)
{
  *depth = self->path != NULL ? self->path->len : 0;
  return self->path != NULL ? (const guint32 *) (gpointer) self->path->data : NULL;
}

/* The file or package a collapse-group transform names. */
const char *
smprof_transform_get_group (const SmprofTransform *self)
{
  return self->group;
}

/* A focus keeps only some of a function's calls, and a collapsed group is
 * not a function: after those, call counts are unknown. Merging, collapsing
 * recursion and hiding libraries leave every other function's calls whole. */
gboolean
smprof_transform_changes_calls (const SmprofTransform *self)
{
  return self->kind == SMPROF_TRANSFORM_FOCUS_FUNCTION || self->kind == SMPROF_TRANSFORM_FOCUS_SUBTREE;
}

static char *
dup_name (SmprofFunctionKeys *table,
          guint32             func)
{
  if (func == SMPROF_FUNC_NONE || func >= smprof_function_keys_get_size (table))
    return g_strdup ("?");

  return smprof_function_keys_dup_label (table, func);
}

/* The transform in a few words, for breadcrumbs, reports and exports. */
char *
smprof_transform_describe (const SmprofTransform *self,
                           SmprofFunctionKeys    *table)
{
  g_autofree char *name = NULL;

  switch (self->kind)
    {
    case SMPROF_TRANSFORM_MERGE:
      name = dup_name (table, self->func);
      return g_strdup_printf (_("Merge %s"), name);
    case SMPROF_TRANSFORM_FOCUS_FUNCTION:
      name = dup_name (table, self->func);
      return g_strdup_printf (_("Focus on %s"), name);
    case SMPROF_TRANSFORM_FOCUS_SUBTREE:
      name = dup_name (table, self->func);
      return g_strdup_printf (_("Focus on the subtree of %s"), name);
    case SMPROF_TRANSFORM_COLLAPSE_RECURSION:
      if (self->func == SMPROF_FUNC_NONE)
        return g_strdup (_("Collapse recursion"));
      name = dup_name (table, self->func);
      return g_strdup_printf (_("Collapse the recursion of %s"), name);
    case SMPROF_TRANSFORM_COLLAPSE_GROUP:
      return g_strdup_printf (self->package ? _("Collapse package %s") : _("Collapse file %s"), self->group);
    case SMPROF_TRANSFORM_HIDE_LIBRARIES:
      return g_strdup (_("Hide library frames"));
    default:
      g_return_val_if_reached (NULL);
    }
}

/* A shell word, quoted when it needs to be. */
static char *
shell_word (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("-_./=,:+@%", *p) == NULL)
      return g_shell_quote (text);

  return g_strdup (text);
}

/* The smprof options that apply the transform again, arguments quoted. */
char *
smprof_transform_to_option (const SmprofTransform *self,
                            SmprofFunctionKeys    *table)
{
  g_autofree char *argument = NULL;
  g_autofree char *word = NULL;
  const char *option;

  switch (self->kind)
    {
    case SMPROF_TRANSFORM_MERGE:
      option = "--merge";
      argument = dup_name (table, self->func);
      break;
    case SMPROF_TRANSFORM_FOCUS_FUNCTION:
      option = "--focus";
      argument = dup_name (table, self->func);
      break;
    case SMPROF_TRANSFORM_FOCUS_SUBTREE:
      {
        GString *path = g_string_new (NULL);

        for (guint i = 0; i < self->path->len; i++)
          {
            g_autofree char *name = dup_name (table, g_array_index (self->path, guint32, i));

            if (i > 0)
              g_string_append_c (path, ';');
            g_string_append (path, name);
          }
        option = "--focus-subtree";
        argument = g_string_free (path, FALSE);
      }
      break;
    case SMPROF_TRANSFORM_COLLAPSE_RECURSION:
      if (self->func == SMPROF_FUNC_NONE)
        return g_strdup ("--collapse-recursion");
      option = "--collapse-recursion-of";
      argument = dup_name (table, self->func);
      break;
    case SMPROF_TRANSFORM_COLLAPSE_GROUP:
      option = "--collapse";
      argument = g_strdup (self->group);
      break;
    case SMPROF_TRANSFORM_HIDE_LIBRARIES:
      return g_strdup ("--hide-libraries");
    default:
      g_return_val_if_reached (NULL);
    }

  word = shell_word (argument);
  return g_strconcat (option, " ", word, NULL);
}

/* ------------------------------------------------------------------ libraries */

/* The folder of the standard library: ".../lib/python3", ".../lib/python3.11". */
static const char *
after_stdlib (const char *file)
{
  const char *at = file;

  while ((at = strstr (at, "/lib/python")) != NULL)
    {
      const char *p = at + strlen ("/lib/python");

      while (g_ascii_isdigit (*p) || *p == '.')
        p++;
      if (*p == '/' && p > at + strlen ("/lib/python"))
        return p + 1;
      at++;
    }

  return NULL;
}

static const char *
after_packages (const char *file)
{
  const char *site = strstr (file, "/site-packages/");
  const char *dist = strstr (file, "/dist-packages/");

  if (site != NULL)
    return site + strlen ("/site-packages/");
  if (dist != NULL)
    return dist + strlen ("/dist-packages/");
  return NULL;
}

/**
 * smprof_file_is_library:
 * @file: a function's file, as the profiler wrote it
 *
 * Library code is what the user did not write: built-ins (cProfile's "~",
 * Pyinstrument's "<built-in>"), frozen modules ("<frozen importlib._bootstrap>"),
 * the standard library (".../lib/python3.11/...") and installed packages
 * (site-packages, dist-packages), as pyinstrument's renderer tells them apart.
 *
 * Returns: whether @file is library code
 */
gboolean
smprof_file_is_library (const char *file)
{
  g_return_val_if_fail (file != NULL, FALSE);

  if (strcmp (file, "~") == 0 || g_str_has_prefix (file, "<built-in") || g_str_has_prefix (file, "<frozen "))
    return TRUE;

  return after_packages (file) != NULL || after_stdlib (file) != NULL;
}

/**
 * smprof_file_dup_package:
 * @file: a function's file
 *
 * The top-level package (or module) of a library file: "torch" for
 * ".../site-packages/torch/nn/modules/module.py", "json" for
 * "/usr/lib/python3.11/json/encoder.py", "random" for ".../python3.11/random.py",
 * "importlib" for "<frozen importlib._bootstrap>".
 *
 * Returns: (transfer full) (nullable): the package, or %NULL for user code
 *   and built-ins
 */
char *
smprof_file_dup_package (const char *file)
{
  const char *rest;
  gsize length;

  g_return_val_if_fail (file != NULL, NULL);

  if (g_str_has_prefix (file, "<frozen "))
    {
      rest = file + strlen ("<frozen ");
      length = strcspn (rest, ".>");
      return length > 0 ? g_strndup (rest, length) : NULL;
    }

  rest = after_packages (file);
  if (rest == NULL)
    rest = after_stdlib (file);
  if (rest == NULL)
    return NULL;

  length = strcspn (rest, "/");
  if (length > 3 && strncmp (rest + length - 3, ".py", 3) == 0 && rest[length] == '\0')
    length -= 3;

  return length > 0 ? g_strndup (rest, length) : NULL;
}

/* ------------------------------------------------------------------ applying */

/* A transform maps each frame of the tree to a frame of a new one: where its
 * children go, and where its own time goes (SMPROF_CALL_TREE_NONE: left
 * out). Frames come after their parents, so one pass maps them all; totals
 * are then summed up from the self times. */
typedef struct
{
  SmprofCallTree *out;
  GArray         *self;       /* double per out node */
  guint32        *children;   /* per source node: where its children go */
  gint           *matched;    /* focus subtree: path elements matched, -1 none */
  guint32         group_func; /* collapse group: the group's frame */
  guint8         *in_group;   /* per function id: 0 unknown, 1 in, 2 out */
  guint8         *library;    /* per function id: 0 unknown, 1 library, 2 not */
} Remap;

static guint32
out_child (Remap   *remap,
           guint32  parent,
           guint32  func)
{
  guint32 node = smprof_call_tree_ensure_child (remap->out, parent, func);

  if (node >= remap->self->len)
    g_array_set_size (remap->self, node + 1);

  return node;
}

static gboolean
cached_test (guint8     *cache,
             guint32     func,
             gboolean  (*test) (const SmprofTransform *, SmprofFunctionKeys *, guint32),
             const SmprofTransform *self,
             SmprofFunctionKeys    *table)
{
  if (cache[func] == 0)
    cache[func] = test (self, table, func) ? 1 : 2;

  return cache[func] == 1;
}

static guint32 intern_group (const SmprofTransform *self,
                             SmprofFunctionKeys    *table);

static gboolean
in_group (const SmprofTransform *self,
          SmprofFunctionKeys    *table,
          guint32                func)
{
  const char *file = smprof_function_keys_get_file (table, func);
  g_autofree char *package = NULL;

  if (smprof_function_is_group (table, func))
    return func == intern_group (self, table);

  if (!self->package)
    return strcmp (file, self->group) == 0;

  package = smprof_file_dup_package (file);
  return package != NULL && strcmp (package, self->group) == 0;
}

static gboolean
is_library (const SmprofTransform *self,
            SmprofFunctionKeys    *table,
            guint32                func)
{
  /* The frames of time the estimate could not place and of a collapsed
   * group are no library's code: the user asked for the group. */
  return smprof_file_is_library (smprof_function_keys_get_file (table, func)) &&
         !smprof_function_is_unattributed (table, func) && !smprof_function_is_group (table, func);
}

/* The nearest frame at or above @node of @func in the new tree. */
static guint32
find_above (SmprofCallTree *tree,
            guint32         node,
            guint32         func)
{
  for (; node != SMPROF_CALL_TREE_ROOT && node != SMPROF_CALL_TREE_NONE;
       node = smprof_call_tree_get_node (tree, node)->parent)
    if (smprof_call_tree_get_node (tree, node)->func == func)
      return node;

  return SMPROF_CALL_TREE_NONE;
}

/* Where frame @n, whose parent's children go to @up, goes: its children
 * into @children, its own time into the return value. */
static guint32
map_frame (const SmprofTransform    *self,
           Remap                    *remap,
           SmprofFunctionKeys       *table,
           guint32                   n,
           const SmprofCallTreeNode *frame,
           guint32                   up,
           guint32                  *children)
{
  guint32 parent = frame->parent;
  guint32 func = frame->func;
  guint32 node;

  switch (self->kind)
    {
    case SMPROF_TRANSFORM_MERGE:
      if (up == SMPROF_CALL_TREE_NONE)
        break;
      if (func != self->func)
        break;
      *children = up;
      /* A root has no caller to take its own time: it keeps a frame for it. */
      if (up == SMPROF_CALL_TREE_ROOT)
        return frame->self != 0 ? out_child (remap, up, func) : SMPROF_CALL_TREE_NONE;
      return up;

    case SMPROF_TRANSFORM_FOCUS_FUNCTION:
      if (up != SMPROF_CALL_TREE_NONE)
        break;
      if (func != self->func)
        {
          *children = SMPROF_CALL_TREE_NONE;
          return SMPROF_CALL_TREE_NONE;
        }
      *children = out_child (remap, SMPROF_CALL_TREE_ROOT, func);
      return *children;

    case SMPROF_TRANSFORM_FOCUS_SUBTREE:
      {
        gint above = parent == SMPROF_CALL_TREE_ROOT ? 0 : remap->matched[parent];

        remap->matched[n] = above >= 0 && (guint) above < self->path->len &&
                            g_array_index (self->path, guint32, above) == func ? above + 1 : -1;
        if (up != SMPROF_CALL_TREE_NONE)
          break;
        if ((guint) remap->matched[n] != self->path->len)
          {
            *children = SMPROF_CALL_TREE_NONE;
            return SMPROF_CALL_TREE_NONE;
          }
        *children = out_child (remap, SMPROF_CALL_TREE_ROOT, func);
        return *children;
      }

    case SMPROF_TRANSFORM_COLLAPSE_RECURSION:
      if (up == SMPROF_CALL_TREE_NONE || (self->func != SMPROF_FUNC_NONE && func != self->func))
        break;
      node = find_above (remap->out, up, func);
      if (node == SMPROF_CALL_TREE_NONE)
        break;
      *children = node;
      return node;

    case SMPROF_TRANSFORM_COLLAPSE_GROUP:
      if (up == SMPROF_CALL_TREE_NONE || !cached_test (remap->in_group, func, in_group, self, table))
        break;
      if (up != SMPROF_CALL_TREE_ROOT && smprof_call_tree_get_node (remap->out, up)->func == remap->group_func)
        node = up;
      else
        node = out_child (remap, up, remap->group_func);
      *children = node;
      return node;

    case SMPROF_TRANSFORM_HIDE_LIBRARIES:
      if (up == SMPROF_CALL_TREE_NONE || up == SMPROF_CALL_TREE_ROOT ||
          !cached_test (remap->library, func, is_library, self, table))
        break;
      *children = up;
      return up;

    default:
      g_return_val_if_reached (SMPROF_CALL_TREE_NONE);
    }

  if (up == SMPROF_CALL_TREE_NONE)
    {
      *children = SMPROF_CALL_TREE_NONE;
      return SMPROF_CALL_TREE_NONE;
    }

  *children = out_child (remap, up, func);
  return *children;
}

/* The group's frame: keyed as a built-in is ("~", 0, name), so every table
 * shows it by its name alone, the package or the file in brackets; no
 * function's name starts with one. */
static guint32
intern_group (const SmprofTransform *self,
              SmprofFunctionKeys    *table)
{
  g_autofree char *name = g_strdup_printf ("[%s]", self->group);

  return smprof_function_keys_intern (table, "~", 1, 0, name, strlen (name));
}

/* Whether @func is a collapsed group's frame. */
gboolean
smprof_function_is_group (SmprofFunctionKeys *table,
                          guint32             func)
{
  return strcmp (smprof_function_keys_get_file (table, func), "~") == 0 &&
         smprof_function_keys_get_line (table, func) == 0 &&
         smprof_function_keys_get_name (table, func)[0] == '[';
}

/**
 * smprof_transform_apply:
 * @self: a transform
 * @tree: a call tree
 *
 * Returns: (transfer full): a new tree, @tree transformed, children sorted by time
 */
SmprofCallTree *
smprof_transform_apply (const SmprofTransform *self,
                        SmprofCallTree        *tree)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  guint n_nodes = smprof_call_tree_get_n_nodes (tree);
  g_autofree guint32 *children = g_new (guint32, n_nodes);
  g_autofree gint *matched = NULL;
  g_autofree guint8 *in_group_cache = NULL;
  g_autofree guint8 *library_cache = NULL;
  g_autoptr(GArray) self_times = g_array_new (FALSE, TRUE, sizeof (double));
  Remap remap = { smprof_call_tree_new (table), self_times, children, NULL, SMPROF_FUNC_NONE, NULL, NULL };
  gboolean focus = self->kind == SMPROF_TRANSFORM_FOCUS_FUNCTION || self->kind == SMPROF_TRANSFORM_FOCUS_SUBTREE;
  guint n_funcs = smprof_function_keys_get_size (table);
  double *self_of;
  guint n_out;

  g_return_val_if_fail (self != NULL && tree != NULL, NULL);

  if (self->kind == SMPROF_TRANSFORM_FOCUS_SUBTREE)
    remap.matched = matched = g_new (gint, n_nodes);
  if (self->kind == SMPROF_TRANSFORM_COLLAPSE_GROUP)
    {
      remap.group_func = intern_group (self, table);
      remap.in_group = in_group_cache = g_new0 (guint8, MAX (n_funcs, remap.group_func + 1));
    }
  if (self->kind == SMPROF_TRANSFORM_HIDE_LIBRARIES)
    remap.library = library_cache = g_new0 (guint8, n_funcs);

  g_array_set_size (self_times, 1);
  children[SMPROF_CALL_TREE_ROOT] = focus ? SMPROF_CALL_TREE_NONE : SMPROF_CALL_TREE_ROOT;

  for (guint32 n = 1; n < n_nodes; n++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, n);
      guint32 own = map_frame (self, &remap, table, n, node, children[node->parent], &children[n]);

      if (own != SMPROF_CALL_TREE_NONE)
        g_array_index (self_times, double, own) += node->self;
    }

  /* Totals, from the leaves up: children come after their parents. */
  n_out = smprof_call_tree_get_n_nodes (remap.out);
  g_array_set_size (self_times, n_out);
  self_of = (double *) (gpointer) self_times->data;
  {
    g_autofree double *totals = g_new0 (double, n_out);

    for (guint32 n = n_out - 1; n >= 1; n--)
      {
        totals[n] += self_of[n];
        smprof_call_tree_add_time (remap.out, n, totals[n], self_of[n]);
        totals[smprof_call_tree_get_node (remap.out, n)->parent] += totals[n];
      }
    smprof_call_tree_add_time (remap.out, SMPROF_CALL_TREE_ROOT, totals[SMPROF_CALL_TREE_ROOT], 0);
  }

  smprof_call_tree_sort (remap.out);

  return remap.out;
}

/**
 * smprof_call_tree_new_inverted:
 * @tree: a call tree
 *
 * The bottom-up tree: each frame's self time is a stack read from that frame
 * up to its root, so the roots are the functions that spent time themselves,
 * with their self time, and below each are its callers. A frame's own time
 * here is that of the stacks that end with it, where its original was a root.
 *
 * Returns: (transfer full): the inverted tree, children sorted by time
 */
SmprofCallTree *
smprof_call_tree_new_inverted (SmprofCallTree *tree)
{
  SmprofCallTree *out = smprof_call_tree_new (smprof_call_tree_get_table (tree));

  for (guint32 n = 1; n < smprof_call_tree_get_n_nodes (tree); n++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, n);
      guint32 at = SMPROF_CALL_TREE_ROOT;

      if (node->self == 0)
        continue;

      smprof_call_tree_add_time (out, SMPROF_CALL_TREE_ROOT, node->self, 0);
      for (guint32 up = n; up != SMPROF_CALL_TREE_ROOT; up = smprof_call_tree_get_node (tree, up)->parent)
        {
          const SmprofCallTreeNode *frame = smprof_call_tree_get_node (tree, up);

          at = smprof_call_tree_ensure_child (out, at, frame->func);
          smprof_call_tree_add_time (out, at, node->self, frame->parent == SMPROF_CALL_TREE_ROOT ? node->self : 0);
        }
    }

  smprof_call_tree_sort (out);

  return out;
}
