/* test-flame-layout.c: the flame graph layout the widget and the exports share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-flame-layout.h"

#define EPSILON 1e-12

/* root (15)
 * ├── alpha (10, a.py)
 * │   ├── gamma (2, c.py)
 * │   └── beta (6, b.py)
 * │       └── delta (3, d.py)
 * └── eps (5, e.py)
 * gamma comes first, so that dropping it shows its siblings keep their place. */
typedef struct
{
  SmprofFunctionKeys *table;
  SmprofCallTree     *tree;
  guint32          alpha, beta, gamma, delta, eps;
} Fixture;

static guint32
add_frame (Fixture    *fixture,
           guint32     parent,
           const char *name,
           const char *file,
           double      total,
           double      self_time)
{
  guint32 func = smprof_function_keys_intern (fixture->table, file, strlen (file), 1, name, strlen (name));
  guint32 node = smprof_call_tree_ensure_child (fixture->tree, parent, func);

  smprof_call_tree_add_time (fixture->tree, node, total, self_time);

  return node;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->table = smprof_function_keys_new ();
  fixture->tree = smprof_call_tree_new (fixture->table);
  fixture->alpha = add_frame (fixture, SMPROF_CALL_TREE_ROOT, "alpha", "a.py", 10, 2);
  fixture->gamma = add_frame (fixture, fixture->alpha, "gamma", "c.py", 2, 2);
  fixture->beta = add_frame (fixture, fixture->alpha, "beta", "b.py", 6, 3);
  fixture->delta = add_frame (fixture, fixture->beta, "delta", "d.py", 3, 3);
  fixture->eps = add_frame (fixture, SMPROF_CALL_TREE_ROOT, "eps", "e.py", 5, 5);
  smprof_call_tree_add_time (fixture->tree, SMPROF_CALL_TREE_ROOT, 15, 0);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  smprof_call_tree_free (fixture->tree);
  smprof_function_keys_free (fixture->table);
}

static void
assert_rect (SmprofFlameLayout *layout,
             guint              index,
             guint32            node,
             guint32            depth,
             double             x,
             double             width)
{
  const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, index);

  g_assert_nonnull (rect);
  g_assert_cmpuint (rect->node, ==, node);
  g_assert_cmpuint (rect->depth, ==, depth);
  g_assert_cmpfloat_with_epsilon (rect->x, x, EPSILON);
  g_assert_cmpfloat_with_epsilon (rect->width, width, EPSILON);
}

static void
test_geometry (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SmprofFlameLayout) layout = smprof_flame_layout_new (fixture->tree, SMPROF_CALL_TREE_ROOT, 0);

  /* The synthetic root is not drawn; rows in (depth, x) order. */
  g_assert_cmpuint (smprof_flame_layout_get_n_rects (layout), ==, 5);
  g_assert_cmpuint (smprof_flame_layout_get_depth (layout), ==, 3);
  g_assert_true (smprof_flame_layout_get_tree (layout) == fixture->tree);
  g_assert_cmpuint (smprof_flame_layout_get_zoom_node (layout), ==, SMPROF_CALL_TREE_ROOT);
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_get_total (layout), 15, EPSILON);

  assert_rect (layout, 0, fixture->alpha, 0, 0, 10.0 / 15);
  assert_rect (layout, 1, fixture->eps, 0, 10.0 / 15, 5.0 / 15);
  assert_rect (layout, 2, fixture->gamma, 1, 0, 2.0 / 15);
  assert_rect (layout, 3, fixture->beta, 1, 2.0 / 15, 6.0 / 15);
  assert_rect (layout, 4, fixture->delta, 2, 2.0 / 15, 3.0 / 15);

  g_assert_cmpint (smprof_flame_layout_get_parent (layout, 0), ==, -1);
  g_assert_cmpint (smprof_flame_layout_get_parent (layout, 3), ==, 0);
  g_assert_cmpint (smprof_flame_layout_get_parent (layout, 4), ==, 3);

  {
    guint first, n;

    smprof_flame_layout_get_row (layout, 1, &first, &n);
    g_assert_cmpuint (first, ==, 2);
    g_assert_cmpuint (n, ==, 2);
    smprof_flame_layout_get_row (layout, 7, &first, &n);
    g_assert_cmpuint (n, ==, 0);
  }
}

static void
test_zoom (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(SmprofFlameLayout) layout = smprof_flame_layout_new (fixture->tree, fixture->alpha, 0);

  /* Row 0 is the zoomed frame itself, at full width. */
  g_assert_cmpuint (smprof_flame_layout_get_n_rects (layout), ==, 4);
  g_assert_cmpuint (smprof_flame_layout_get_depth (layout), ==, 3);
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_get_total (layout), 10, EPSILON);
  assert_rect (layout, 0, fixture->alpha, 0, 0, 1);
  assert_rect (layout, 1, fixture->gamma, 1, 0, 0.2);
  assert_rect (layout, 2, fixture->beta, 1, 0.2, 0.6);
  assert_rect (layout, 3, fixture->delta, 2, 0.2, 0.3);
}

static void
test_hit_test (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SmprofFlameLayout) layout = smprof_flame_layout_new (fixture->tree, SMPROF_CALL_TREE_ROOT, 0);

  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.0, 0), ==, 0);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.5, 0), ==, 0);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 10.0 / 15, 0), ==, 1);  /* left edges belong */
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.99, 0), ==, 1);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 1.0, 0), ==, -1);       /* right edges do not */
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.1, 1), ==, 2);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.3, 1), ==, 3);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.6, 1), ==, -1);       /* alpha's self time */
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.8, 1), ==, -1);       /* under eps, a leaf */
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.25, 2), ==, 4);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.1, 2), ==, -1);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.5, 3), ==, -1);       /* below the last row */
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, -0.1, 0), ==, -1);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, NAN, 0), ==, -1);
}

static void
test_min_width (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(SmprofFlameLayout) some = smprof_flame_layout_new (fixture->tree, SMPROF_CALL_TREE_ROOT, 0.15);
  g_autoptr(SmprofFlameLayout) fewer = smprof_flame_layout_new (fixture->tree, SMPROF_CALL_TREE_ROOT, 0.35);
  g_autoptr(SmprofFlameLayout) none = smprof_flame_layout_new (fixture->tree, SMPROF_CALL_TREE_ROOT, 2);

  /* gamma (2/15) goes; beta stays where it was, not slid left into its place. */
  g_assert_cmpuint (smprof_flame_layout_get_n_rects (some), ==, 4);
  assert_rect (some, 2, fixture->beta, 1, 2.0 / 15, 6.0 / 15);
  assert_rect (some, 3, fixture->delta, 2, 2.0 / 15, 3.0 / 15);

  /* delta (3/15) goes; eps (5/15) too, and nothing under a dropped frame stays. */
  g_assert_cmpuint (smprof_flame_layout_get_n_rects (fewer), ==, 2);
  g_assert_cmpuint (smprof_flame_layout_get_depth (fewer), ==, 2);
  assert_rect (fewer, 0, fixture->alpha, 0, 0, 10.0 / 15);
  assert_rect (fewer, 1, fixture->beta, 1, 2.0 / 15, 6.0 / 15);

  g_assert_cmpuint (smprof_flame_layout_get_n_rects (none), ==, 0);
  g_assert_cmpuint (smprof_flame_layout_get_depth (none), ==, 0);
  g_assert_cmpint (smprof_flame_layout_hit_test (none, 0.5, 0), ==, -1);
}

static void
test_match (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(SmprofFlameLayout) layout = smprof_flame_layout_new (fixture->tree, SMPROF_CALL_TREE_ROOT, 0);
  g_autoptr(SmprofFlameLayout) narrow = smprof_flame_layout_new (fixture->tree, SMPROF_CALL_TREE_ROOT, 0.25);
  g_autoptr(SmprofFlameLayout) zoomed = smprof_flame_layout_new (fixture->tree, fixture->beta, 0);
  g_autoptr(GArray) matched = g_array_new (FALSE, FALSE, sizeof (guint));

  /* "TA" matches beta and delta, ignoring case; delta is inside beta: 6/15. */
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_match (layout, "TA", matched), 6.0 / 15, EPSILON);
  g_assert_cmpuint (matched->len, ==, 2);
  g_assert_cmpuint (g_array_index (matched, guint, 0), ==, 3);
  g_assert_cmpuint (g_array_index (matched, guint, 1), ==, 4);

  /* Files match too; separate matches add up. */
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_match (layout, "c.py", matched), 2.0 / 15, EPSILON);
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_match (layout, "e", matched), 11.0 / 15, EPSILON);
  g_assert_cmpuint (matched->len, ==, 3);
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_match (layout, "amma", NULL), 2.0 / 15, EPSILON);

  /* A frame too narrow to draw still counts, though it has no rect. */
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_match (narrow, "delta", matched), 3.0 / 15, EPSILON);
  g_assert_cmpuint (matched->len, ==, 0);

  /* Shares are of the zoomed frame. */
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_match (zoomed, "delta", matched), 0.5, EPSILON);
  g_assert_cmpfloat_with_epsilon (smprof_flame_layout_match (zoomed, "alpha", matched), 0, EPSILON);

  g_assert_cmpfloat (smprof_flame_layout_match (layout, "zzz", matched), ==, 0);
  g_assert_cmpuint (matched->len, ==, 0);
  g_assert_cmpfloat (smprof_flame_layout_match (layout, "", matched), ==, 0);
}

/* An estimated cProfile tree may give children more time than their parent. */
static void
test_overfull_children (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(SmprofCallTree) tree = smprof_call_tree_new (table);
  guint32 f = smprof_function_keys_intern (table, "x.py", 4, 1, "f", 1);
  guint32 g = smprof_function_keys_intern (table, "x.py", 4, 2, "g", 1);
  guint32 h = smprof_function_keys_intern (table, "x.py", 4, 3, "h", 1);
  guint32 parent = smprof_call_tree_ensure_child (tree, SMPROF_CALL_TREE_ROOT, f);
  g_autoptr(SmprofFlameLayout) layout = NULL;
  const SmprofFlameRect *last;

  smprof_call_tree_add_time (tree, SMPROF_CALL_TREE_ROOT, 4, 0);
  smprof_call_tree_add_time (tree, parent, 2, 0);
  smprof_call_tree_add_time (tree, smprof_call_tree_ensure_child (tree, parent, g), 1.5, 1.5);
  smprof_call_tree_add_time (tree, smprof_call_tree_ensure_child (tree, parent, h), 1.5, 1.5);

  layout = smprof_flame_layout_new (tree, SMPROF_CALL_TREE_ROOT, 0);
  g_assert_cmpuint (smprof_flame_layout_get_n_rects (layout), ==, 3);
  last = smprof_flame_layout_get_rect (layout, 2);
  g_assert_cmpfloat_with_epsilon (last->x, 0.375, EPSILON);
  g_assert_cmpfloat_with_epsilon (last->x + last->width, 0.5, EPSILON);
}

static void
test_empty (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(SmprofCallTree) tree = smprof_call_tree_new (table);
  g_autoptr(SmprofFlameLayout) layout = smprof_flame_layout_new (tree, SMPROF_CALL_TREE_ROOT, 0);

  g_assert_cmpuint (smprof_flame_layout_get_n_rects (layout), ==, 0);
  g_assert_cmpuint (smprof_flame_layout_get_depth (layout), ==, 0);
  g_assert_cmpint (smprof_flame_layout_hit_test (layout, 0.5, 0), ==, -1);
  g_assert_cmpfloat (smprof_flame_layout_match (layout, "x", NULL), ==, 0);
}

static double
contrast (const double a[3],
          const double b[3])
{
  double la = smprof_flame_relative_luminance (a);
  double lb = smprof_flame_relative_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static void
test_colors (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  const char *files[] = {
    "/opt/conda/lib/python3.11/site-packages/torch/nn/modules/module.py",
    "/opt/conda/lib/python3.11/site-packages/torch/optim/sgd.py",
    "/usr/lib/python3/dist-packages/numpy/core/fromnumeric.py",
    "/usr/lib/python3.11/json/decoder.py",
    "/usr/lib/python3.11/json/encoder.py",
    "/opt/ml/code/train.py",
    "~",
  };
  double text_light[3], text_dark[3];
  guint32 ids[G_N_ELEMENTS (files) * 40];
  guint n = 0;

  smprof_flame_text_color (FALSE, text_light);
  smprof_flame_text_color (TRUE, text_dark);

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    for (guint i = 0; i < 40; i++)
      {
        g_autofree char *name = g_strdup_printf ("function_%u", i * 7919);

        ids[n++] = smprof_function_keys_intern (table, files[f], strlen (files[f]), i, name, strlen (name));
      }

  for (guint i = 0; i < n; i++)
    {
      double light[3], dark[3], again[3];

      smprof_flame_color_for_func (table, ids[i], FALSE, light);
      smprof_flame_color_for_func (table, ids[i], TRUE, dark);
      smprof_flame_color_for_func (table, ids[i], FALSE, again);

      /* Stable, warm (red at least as strong as green, blue the weakest), readable. */
      g_assert_true (memcmp (light, again, sizeof light) == 0);
      g_assert_cmpfloat (light[0], >=, light[1]);
      g_assert_cmpfloat (light[1], >=, light[2]);
      g_assert_cmpfloat (contrast (light, text_light), >=, 4.5);
      g_assert_cmpfloat (contrast (dark, text_dark), >=, 4.5);
    }

  /* One package, one hue: torch's modules and optimizers look related. */
  {
    double a[3], b[3];

    smprof_flame_color_for_func (table, ids[0], FALSE, a);
    smprof_flame_color_for_func (table, ids[40], FALSE, b);
    g_assert_cmpfloat (fabs ((a[1] - a[2]) / (a[0] - a[2]) - (b[1] - b[2]) / (b[0] - b[2])), <, 1e-6);
  }
}

/* An informational timing: 100,000 frames, the size the estimated cProfile
 * tree is bounded near. Asserts only the layout's invariants. */
static void
test_large (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(SmprofCallTree) tree = smprof_call_tree_new (table);
  g_autoptr(SmprofFlameLayout) layout = NULL;
  g_autofree double *totals = NULL;
  GRand *rand = g_rand_new_with_seed (42);
  guint32 funcs[1000];
  guint n_nodes;
  double elapsed;

  for (guint i = 0; i < G_N_ELEMENTS (funcs); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      funcs[i] = smprof_function_keys_intern (table, "big.py", 6, i, name, strlen (name));
    }

  /* Random parents among the last few hundred nodes give a deep, bushy tree. */
  while (smprof_call_tree_get_n_nodes (tree) < 100001)
    {
      guint n = smprof_call_tree_get_n_nodes (tree);
      guint32 parent = n < 2 ? 0 : g_rand_int_range (rand, n > 300 ? n - 300 : 0, n);

      smprof_call_tree_ensure_child (tree, parent, funcs[g_rand_int_range (rand, 0, G_N_ELEMENTS (funcs))]);
    }

  /* Self times at random; totals bottom up (children come after parents). */
  n_nodes = smprof_call_tree_get_n_nodes (tree);
  totals = g_new0 (double, n_nodes);
  for (guint i = n_nodes - 1; i > 0; i--)
    {
      double self_time = g_rand_double_range (rand, 0.001, 1.0);

      totals[i] += self_time;
      totals[smprof_call_tree_get_node (tree, i)->parent] += totals[i];
      smprof_call_tree_add_time (tree, i, totals[i], self_time);
    }
  smprof_call_tree_add_time (tree, SMPROF_CALL_TREE_ROOT, totals[0], 0);
  g_rand_free (rand);

  g_test_timer_start ();
  layout = smprof_flame_layout_new (tree, SMPROF_CALL_TREE_ROOT, 0);
  elapsed = g_test_timer_elapsed ();
  g_test_message ("laid out %u frames in %u rows in %.2f ms", smprof_flame_layout_get_n_rects (layout),
                  smprof_flame_layout_get_depth (layout), elapsed * 1000);

  g_assert_cmpuint (smprof_flame_layout_get_n_rects (layout), ==, n_nodes - 1);
  for (guint i = 1; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      const SmprofFlameRect *prev = smprof_flame_layout_get_rect (layout, i - 1);
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      int parent = smprof_flame_layout_get_parent (layout, i);

      g_assert_true (prev->depth < rect->depth || (prev->depth == rect->depth && prev->x + prev->width <= rect->x + EPSILON));
      if (parent >= 0)
        {
          const SmprofFlameRect *up = smprof_flame_layout_get_rect (layout, parent);

          g_assert_cmpuint (up->depth + 1, ==, rect->depth);
          g_assert_cmpfloat (rect->x, >=, up->x - EPSILON);
          g_assert_cmpfloat (rect->x + rect->width, <=, up->x + up->width + EPSILON);
        }
      if (i % 997 == 0)
        g_assert_cmpint (smprof_flame_layout_hit_test (layout, rect->x + rect->width / 2, rect->depth), ==, (int) i);
    }

  g_test_timer_start ();
  smprof_flame_layout_match (layout, "f99", NULL);
  g_test_message ("searched them in %.2f ms", g_test_timer_elapsed () * 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/flame-layout/geometry", Fixture, NULL, fixture_setup, test_geometry, fixture_teardown);
  g_test_add ("/flame-layout/zoom", Fixture, NULL, fixture_setup, test_zoom, fixture_teardown);
  g_test_add ("/flame-layout/hit-test", Fixture, NULL, fixture_setup, test_hit_test, fixture_teardown);
  g_test_add ("/flame-layout/min-width", Fixture, NULL, fixture_setup, test_min_width, fixture_teardown);
  g_test_add ("/flame-layout/match", Fixture, NULL, fixture_setup, test_match, fixture_teardown);
  g_test_add_func ("/flame-layout/overfull-children", test_overfull_children);
  g_test_add_func ("/flame-layout/empty", test_empty);
  g_test_add_func ("/flame-layout/colors", test_colors);
  g_test_add_func ("/flame-layout/large", test_large);

  return g_test_run ();
}
