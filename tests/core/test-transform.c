/* test-transform.c: reshaping call trees, on trees made here
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-transform.h"

typedef struct
{
  SmprofFunctionKeys *keys;
  SmprofCallTree     *tree;
} Fixture;

static guint32
func (Fixture    *fixture,
      const char *name)
{
  const char *file = g_str_has_prefix (name, "lib") ? "/usr/lib/python3.11/json/encoder.py" : "/opt/ml/code/train.py";

  return smprof_function_keys_intern (fixture->keys, file, strlen (file), strlen (name), name, strlen (name));
}

/* Adds the stack "a;b;c" with @self_time to the tree; totals follow. */
static void
add_stack (Fixture    *fixture,
           const char *stack,
           double      self_time)
{
  g_auto(GStrv) names = g_strsplit (stack, ";", -1);
  guint32 node = SMPROF_CALL_TREE_ROOT;

  smprof_call_tree_add_time (fixture->tree, SMPROF_CALL_TREE_ROOT, self_time, 0);
  for (guint i = 0; names[i] != NULL; i++)
    {
      node = smprof_call_tree_ensure_child (fixture->tree, node, func (fixture, names[i]));
      smprof_call_tree_add_time (fixture->tree, node, self_time, names[i + 1] == NULL ? self_time : 0);
    }
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* "a;b 3|a 1|..." : every frame with its total, sorted, for comparing. */
static char *
dump (SmprofCallTree *tree)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  SmprofFunctionKeys *keys = smprof_call_tree_get_table (tree);
  GString *out = g_string_new (NULL);

  g_ptr_array_add (paths, g_strdup (""));
  for (guint32 n = 1; n < smprof_call_tree_get_n_nodes (tree); n++)
    {
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, n);
      const char *above = g_ptr_array_index (paths, node->parent);
      char *path = g_strconcat (above, *above != '\0' ? ";" : "", smprof_function_keys_get_name (keys, node->func), NULL);

      g_ptr_array_add (paths, path);
      if (node->total != 0)
        g_ptr_array_add (lines, g_strdup_printf ("%s %g", path, node->total));
    }
  g_ptr_array_sort (lines, compare_lines);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? "|" : "", (char *) g_ptr_array_index (lines, i));

  return g_string_free (out, FALSE);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->keys = smprof_function_keys_new ();
  fixture->tree = smprof_call_tree_new (fixture->keys);

  /* main calls work, which calls libdump (library) which calls back into
   * cb; work recurses through helper; main also spends time itself. */
  add_stack (fixture, "main", 1);
  add_stack (fixture, "main;work", 2);
  add_stack (fixture, "main;work;libdump", 3);
  add_stack (fixture, "main;work;libdump;cb", 4);
  add_stack (fixture, "main;work;helper;work", 5);
  add_stack (fixture, "main;work;helper;work;libdump", 6);
  add_stack (fixture, "work", 7);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  smprof_call_tree_free (fixture->tree);
  smprof_function_keys_free (fixture->keys);
}

static void
check (Fixture         *fixture,
       SmprofTransform *transform,
       const char      *expected)
{
  g_autoptr(SmprofTransform) owned = transform;
  g_autoptr(SmprofCallTree) reshaped = smprof_transform_apply (transform, fixture->tree);
  g_autofree char *got = dump (reshaped);
  double roots = 0;

  for (guint32 c = smprof_call_tree_get_node (reshaped, SMPROF_CALL_TREE_ROOT)->first_child;
       c != SMPROF_CALL_TREE_NONE; c = smprof_call_tree_get_node (reshaped, c)->next_sibling)
    roots += smprof_call_tree_get_node (reshaped, c)->total;

  g_assert_cmpstr (got, ==, expected);
  g_assert_cmpfloat (fabs (roots - smprof_call_tree_get_node (reshaped, SMPROF_CALL_TREE_ROOT)->total), <, 1e-12);
}

static void
test_merge (Fixture       *fixture,
            gconstpointer  data)
{
  /* work's own time goes to its caller; the root work keeps its own */
  check (fixture, smprof_transform_new_merge (func (fixture, "work")),
         "main 21|main;helper 11|main;helper;libdump 6|main;libdump 7|main;libdump;cb 4|work 7");
}

static void
test_focus (Fixture       *fixture,
            gconstpointer  data)
{
  check (fixture, smprof_transform_new_focus_function (func (fixture, "helper")),
         "helper 11|helper;work 11|helper;work;libdump 6");
  {
    guint32 path[] = { func (fixture, "main"), func (fixture, "work"), func (fixture, "libdump") };

    check (fixture, smprof_transform_new_focus_subtree (path, 3), "libdump 7|libdump;cb 4");
  }
  /* a function the tree does not hold leaves nothing */
  check (fixture, smprof_transform_new_focus_function (func (fixture, "nowhere")), "");
}

static void
test_collapse_recursion (Fixture       *fixture,
                         gconstpointer  data)
{
  check (fixture, smprof_transform_new_collapse_recursion (func (fixture, "work")),
         "main 21|main;work 20|main;work;libdump 13|main;work;libdump;cb 4|work 7");
}

static void
test_hide_libraries (Fixture       *fixture,
                     gconstpointer  data)
{
  /* libdump folds into work; cb, user code it called back, stays under work */
  check (fixture, smprof_transform_new_hide_libraries (),
         "main 21|main;work 20|main;work;cb 4|main;work;helper 11|main;work;helper;work 11|work 7");
}

static void
test_collapse_package (Fixture       *fixture,
                       gconstpointer  data)
{
  check (fixture, smprof_transform_new_collapse_package ("json"),
         "main 21|main;work 20|main;work;[json] 7|main;work;[json];cb 4|main;work;helper 11|"
         "main;work;helper;work 11|main;work;helper;work;[json] 6|work 7");
}

static void
test_invert (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(SmprofCallTree) inverted = smprof_call_tree_new_inverted (fixture->tree);
  g_autofree char *got = dump (inverted);

  g_assert_cmpstr (got, ==,
                   "cb 4|cb;libdump 4|cb;libdump;work 4|cb;libdump;work;main 4|libdump 9|libdump;work 9|"
                   "libdump;work;helper 6|libdump;work;helper;work 6|libdump;work;helper;work;main 6|"
                   "libdump;work;main 3|main 1|work 14|work;helper 5|work;helper;work 5|"
                   "work;helper;work;main 5|work;main 2");
  g_assert_cmpfloat (smprof_call_tree_get_node (inverted, SMPROF_CALL_TREE_ROOT)->total, ==,
                     smprof_call_tree_get_node (fixture->tree, SMPROF_CALL_TREE_ROOT)->total);
}

static void
test_libraries (void)
{
  static const struct { const char *file; gboolean library; const char *package; } cases[] = {
    { "/usr/lib/python3/dist-packages/torch/nn/modules/module.py", TRUE, "torch" },
    { "/opt/conda/lib/python3.11/site-packages/smdebug/core/hook.py", TRUE, "smdebug" },
    { "/opt/conda/lib/python3.11/site-packages/six.py", TRUE, "six" },
    { "/usr/lib/python3.11/json/encoder.py", TRUE, "json" },
    { "/usr/lib/python3.11/random.py", TRUE, "random" },
    { "/root/.pyenv/versions/3.11.7/lib/python3.11/threading.py", TRUE, "threading" },
    { "<frozen importlib._bootstrap>", TRUE, "importlib" },
    { "~", TRUE, NULL },
    { "<built-in>", TRUE, NULL },
    { "/opt/ml/code/pt_tabular.py", FALSE, NULL },
    { "/home/me/lib/pythonic/train.py", FALSE, NULL },
    { "<string>", FALSE, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *package = smprof_file_dup_package (cases[i].file);

      g_assert_cmpint (smprof_file_is_library (cases[i].file), ==, cases[i].library);
      g_assert_cmpstr (package, ==, cases[i].package);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/transform/merge", Fixture, NULL, fixture_set_up, test_merge, fixture_tear_down);
  g_test_add ("/transform/focus", Fixture, NULL, fixture_set_up, test_focus, fixture_tear_down);
  g_test_add ("/transform/collapse-recursion", Fixture, NULL, fixture_set_up, test_collapse_recursion, fixture_tear_down);
  g_test_add ("/transform/hide-libraries", Fixture, NULL, fixture_set_up, test_hide_libraries, fixture_tear_down);
  g_test_add ("/transform/collapse-package", Fixture, NULL, fixture_set_up, test_collapse_package, fixture_tear_down);
  g_test_add ("/transform/invert", Fixture, NULL, fixture_set_up, test_invert, fixture_tear_down);
  g_test_add_func ("/transform/libraries", test_libraries);

  return g_test_run ();
}
