/* test-pstats-paths.c: the fast pstats path against the general one
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_pstats_parse() first tries a single-pass reader that only knows the
 * files pstats writes and only looks keys up. Whenever it returns stats, they
 * must be exactly the general path's; and it must never intern a key.
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "smprof-marshal-writer.h"
#include "smprof-pstats-private.h"

static void
assert_same_stats (const SmprofPstats *a,
                   const SmprofPstats *b)
{
  g_assert_cmpuint (a->n_funcs, ==, b->n_funcs);
  g_assert_cmpuint (a->n_callers, ==, b->n_callers);
  g_assert_cmpint (a->total_calls, ==, b->total_calls);
  g_assert_cmpint (a->prim_calls, ==, b->prim_calls);
  g_assert_true (a->total_tt == b->total_tt);

  for (guint i = 0; i < a->n_funcs; i++)
    {
      const SmprofFuncStat *x = &a->funcs[i];
      const SmprofFuncStat *y = &b->funcs[i];

      g_assert_cmpuint (x->func, ==, y->func);
      g_assert_cmpuint (x->first_caller, ==, y->first_caller);
      g_assert_cmpuint (x->n_callers, ==, y->n_callers);
      g_assert_cmpint (x->cc, ==, y->cc);
      g_assert_cmpint (x->nc, ==, y->nc);
      g_assert_true (memcmp (&x->tt, &y->tt, sizeof x->tt) == 0);
      g_assert_true (memcmp (&x->ct, &y->ct, sizeof x->ct) == 0);
    }

  for (guint i = 0; i < a->n_callers; i++)
    {
      const SmprofCallerStat *x = &a->callers[i];
      const SmprofCallerStat *y = &b->callers[i];

      g_assert_cmpuint (x->caller, ==, y->caller);
      g_assert_cmpint (x->legacy, ==, y->legacy);
      g_assert_cmpint (x->nc, ==, y->nc);
      g_assert_cmpint (x->cc, ==, y->cc);
      g_assert_true (memcmp (&x->tt, &y->tt, sizeof x->tt) == 0);
      g_assert_true (memcmp (&x->ct, &y->ct, sizeof x->ct) == 0);
    }
}

/* Whatever @bytes hold: if the fast path reads them, the general path reads
 * them too, to the same stats, and the fast path interned nothing. Returns
 * whether the fast path read them. */
static gboolean
check_bytes (GBytes             *bytes,
             SmprofFunctionKeys *table)
{
  guint size = smprof_function_keys_get_size (table);
  g_autoptr(SmprofPstats) fast = _smprof_pstats_parse_fast (bytes, table);
  g_autoptr(SmprofPstats) general = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (smprof_function_keys_get_size (table), ==, size);

  if (fast == NULL)
    return FALSE;

  general = _smprof_pstats_parse_general (bytes, table, &error);
  g_assert_no_error (error);
  g_assert_nonnull (general);
  g_assert_cmpuint (smprof_function_keys_get_size (table), ==, size);
  assert_same_stats (fast, general);

  return TRUE;
}

static void
collect_stats_files (const char *dir,
                     GPtrArray  *paths)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;

  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_stats_files (path, paths);
      else if (strcmp (name, "python_stats") == 0)
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
}

static GPtrArray *
all_stats_files (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *data = g_test_build_filename (G_TEST_DIST, "data", NULL);

  collect_stats_files (data, paths);
  g_assert_cmpuint (paths->len, >, 100);

  return paths;
}

static GBytes *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, length);
}

/* Every real file, once its keys are known: the fast path reads it, and to
 * the general path's stats. Before, it leaves it to the general path. */
static void
test_real_files (void)
{
  g_autoptr(GPtrArray) paths = all_stats_files ();
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  guint n_fast = 0;

  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GBytes) bytes = load (g_ptr_array_index (paths, i));
      g_autoptr(SmprofPstats) known = NULL;
      g_autoptr(GError) error = NULL;

      check_bytes (bytes, table);
      known = _smprof_pstats_parse_general (bytes, table, &error);
      g_assert_no_error (error);
      n_fast += check_bytes (bytes, table);
    }

  /* The 2020 samples are written by an older pstats; every file must still
   * take the fast path once its keys are interned. */
  g_assert_cmpuint (n_fast, ==, paths->len);
}

/* Truncations and flipped bytes of real files: the fast path may give up,
 * but never reads something the general path would not, or differently. */
static void
test_damaged_files (void)
{
  g_autoptr(GPtrArray) paths = all_stats_files ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint i = 0; i < paths->len; i += 17)
    {
      g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
      g_autoptr(GBytes) whole = load (g_ptr_array_index (paths, i));
      g_autoptr(SmprofPstats) known = _smprof_pstats_parse_general (whole, table, NULL);
      gsize size;
      const guint8 *data = g_bytes_get_data (whole, &size);

      g_assert_nonnull (known);

      for (gsize cut = 0; cut < size; cut += 1 + size / 200)
        {
          g_autoptr(GBytes) part = g_bytes_new (data, cut);

          g_assert_false (check_bytes (part, table));
        }

      for (guint round = 0; round < 300; round++)
        {
          g_autofree guint8 *copy = g_memdup2 (data, size);
          g_autoptr(GBytes) bytes = NULL;

          for (guint flips = g_rand_int_range (rand, 1, 4); flips > 0; flips--)
            copy[g_rand_int_range (rand, 0, size)] ^= 1 << g_rand_int_range (rand, 0, 8);
          bytes = g_bytes_new (copy, size);
          check_bytes (bytes, table);
        }
    }
}

/* What real files never hold, written with the marshal writer. */
static void
put_key (GByteArray *out,
         const char *name)
{
  smprof_marshal_put_tuple (out, 3);
  smprof_marshal_put_string (out, "mod.py", strlen ("mod.py"));
  smprof_marshal_put_int (out, 1);
  smprof_marshal_put_string (out, name, strlen (name));
}

/* (cc, nc, tt, ct) and the head of the callers dict, or a caller's
 * (nc, cc, tt, ct) without it. */
static void
put_stat (GByteArray *out,
          gboolean    with_callers,
          gint64      calls,
          gint64      more_calls,
          double      tt,
          double      ct)
{
  smprof_marshal_put_tuple (out, with_callers ? 5 : 4);
  smprof_marshal_put_int (out, calls);
  smprof_marshal_put_int (out, more_calls);
  smprof_marshal_put_float (out, tt);
  smprof_marshal_put_float (out, ct);
  if (with_callers)
    smprof_marshal_put_dict (out);
}

/* {a: (1, 2, .5, 1., {b: (2, 1, .25, .5), b: (3, 1, .125, .75), c: 4}),
 *  b: (..., {}), a: (5, 6, .3, .6, {c: (1, 1, .1, .2)}), c: (..., {})} */
static GBytes *
repeated_keys_file (void)
{
  GByteArray *out = g_byte_array_new ();

  smprof_marshal_put_dict (out);

  put_key (out, "a");
  put_stat (out, TRUE, 1, 2, .5, 1.);
  put_key (out, "b");
  put_stat (out, FALSE, 2, 1, .25, .5);
  put_key (out, "b");
  put_stat (out, FALSE, 3, 1, .125, .75);
  put_key (out, "c");
  smprof_marshal_put_int (out, 4);
  smprof_marshal_put_dict_end (out);

  put_key (out, "b");
  put_stat (out, TRUE, 7, 7, .7, .7);
  smprof_marshal_put_dict_end (out);

  put_key (out, "a");
  put_stat (out, TRUE, 5, 6, .3, .6);
  put_key (out, "c");
  put_stat (out, FALSE, 1, 1, .1, .2);
  smprof_marshal_put_dict_end (out);

  put_key (out, "c");
  put_stat (out, TRUE, 1, 1, 0, 0);
  smprof_marshal_put_dict_end (out);

  smprof_marshal_put_dict_end (out);

  return g_byte_array_free_to_bytes (out);
}

static void
test_dict_semantics (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GBytes) bytes = repeated_keys_file ();
  g_autoptr(SmprofPstats) general = _smprof_pstats_parse_general (bytes, table, NULL);
  g_autoptr(SmprofPstats) fast = NULL;

  g_assert_nonnull (general);
  g_assert_cmpuint (general->n_funcs, ==, 3);

  fast = _smprof_pstats_parse_fast (bytes, table);
  g_assert_nonnull (fast);
  assert_same_stats (fast, general);
  g_assert_cmpint (fast->funcs[0].nc, ==, 6);
  g_assert_cmpuint (fast->funcs[0].n_callers, ==, 1);
  g_assert_true (fast->callers[0].legacy == FALSE);
}

static void
test_new_keys_left_to_general (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GBytes) bytes = repeated_keys_file ();
  g_autoptr(SmprofPstats) stats = NULL;

  g_assert_null (_smprof_pstats_parse_fast (bytes, table));
  g_assert_cmpuint (smprof_function_keys_get_size (table), ==, 0);

  stats = smprof_pstats_parse (bytes, table, NULL);
  g_assert_nonnull (stats);
  g_assert_cmpuint (smprof_function_keys_get_size (table), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pstats-paths/real-files", test_real_files);
  g_test_add_func ("/pstats-paths/damaged-files", test_damaged_files);
  g_test_add_func ("/pstats-paths/dict-semantics", test_dict_semantics);
  g_test_add_func ("/pstats-paths/new-keys-left-to-general", test_new_keys_left_to_general);

  return g_test_run ();
}
