/* test-pstats-real.c: the pstats reader on real dumps: the three SageMaker
 * 2020 files, the real corpus against CPython's own pstats, and damaged copies
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "pstats-test-util.h"
#include "smprof-cprofile-profile.h"
#include "smprof-function-keys.h"
#include "smprof-pstats.h"
#include "smprof-types.h"

#define APPEND_KEY "<method 'append' of 'list' objects>"

/* Helpers */

static GBytes *
load_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, length);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
collect_cprofile_files (const char *dir,
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
        collect_cprofile_files (path, paths);
      else if (strcmp (name, "python_stats") == 0 && strstr (path, "/cprofile/") != NULL)
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
}

/* Every cProfile python_stats file of the real corpus, sorted. */
static GPtrArray *
list_real_files (void)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  collect_cprofile_files (root, paths);
  g_ptr_array_sort (paths, compare_strings);

  return paths;
}

static char *
sample_2020_path (const char *folder)
{
  return g_test_build_filename (G_TEST_DIST, "data", "sagemaker-2020", folder,
                                "python_stats", NULL);
}

static void
assert_format_error (const GError *error,
                     gboolean      truncated_only)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == SMPROF_FORMAT_ERROR);
  if (truncated_only)
    g_assert_cmpint (error->code, ==, SMPROF_FORMAT_ERROR_TRUNCATED);
  else
    g_assert_true (error->code == SMPROF_FORMAT_ERROR_TRUNCATED ||
                   error->code == SMPROF_FORMAT_ERROR_CORRUPT);
  g_assert_true (g_str_has_prefix (error->message, "byte "));
}

static const SmprofFuncStat *
find_func (const SmprofPstats *stats,
           guint32             func)
{
  for (guint i = 0; i < stats->n_funcs; i++)
    if (stats->funcs[i].func == func)
      return &stats->funcs[i];

  return NULL;
}

/* The three 2020 SageMaker dumps: smdebug-format.md section 5.4 */

typedef struct
{
  const char *folder;
  gsize       size;
  guint       n_funcs;
  gint64      total_calls;
  gint64      prim_calls;
  double      total_tt;
  guint       n_edges;
  guint       n_builtins;
  guint       n_recursive;
  gint64      append_calls;
  double      append_time;
  guint       append_callers;
  const char *top_self;       /* largest self time, per CPython's pstats */
  double      top_self_tt;
} Sample2020;

static const Sample2020 samples_2020[] = {
  { "1596585363775342.0_1596585373504789.0_151-algo-1_-1", 420137, 2722, 179844, 170542,
    9.728617000000002, 5873, 323, 56, 6363, 0.005221, 95,
    "{built-in method tensorflow.python._pywrap_tfe.TFE_NewContext}", 3.687844 },
  { "1596585374963238.0_1596585376008161.0_151-algo-1_2", 38339, 293, 1299, 1259,
    1.0447579999999994, 407, 75, 7, 8, 9e-06, 3,
    "/usr/local/lib/python3.7/site-packages/tensorflow/python/profiler/profiler_v2.py:48(start)",
    1.036683 },
  { "1596585376012363.8_1596585376017246.5_151-algo-1_3", 30483, 230, 1129, 1091,
    0.004804000000000001, 316, 54, 6, 8, 8e-06, 3,
    "{built-in method tensorflow.python._pywrap_tfe.TFE_Py_Execute}", 0.001427 },
};

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a;
  guint64 y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
test_pstats_sagemaker_2020 (void)
{
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint64));
  SmprofPstats *stats[G_N_ELEMENTS (samples_2020)] = { NULL };
  g_autofree guint8 *seen = NULL;
  double merged_tt = 0;
  gint64 merged_calls = 0;
  gint64 merged_prim = 0;
  guint n_keys;
  guint n_common_3 = 0;
  guint n_common_2 = 0;
  guint n_union = 0;
  guint n_edges = 0;
  guint append_callers = 0;
  guint32 append;

  for (guint s = 0; s < G_N_ELEMENTS (samples_2020); s++)
    {
      const Sample2020 *sample = &samples_2020[s];
      g_autofree char *path = sample_2020_path (sample->folder);
      g_autoptr(GBytes) bytes = load_bytes (path);
      g_autoptr(GError) error = NULL;
      const SmprofFuncStat *entry;
      const SmprofFuncStat *top = NULL;
      g_autofree char *label = NULL;
      guint n_builtins = 0;
      guint n_recursive = 0;

      g_assert_cmpuint (g_bytes_get_size (bytes), ==, sample->size);

      stats[s] = smprof_pstats_parse (bytes, table, &error);
      g_assert_no_error (error);
      g_assert_nonnull (stats[s]);
      pstats_test_assert_consistent (stats[s], table);

      g_assert_cmpuint (stats[s]->n_funcs, ==, sample->n_funcs);
      g_assert_cmpint (stats[s]->total_calls, ==, sample->total_calls);
      g_assert_cmpint (stats[s]->prim_calls, ==, sample->prim_calls);
      g_assert_cmpfloat_with_epsilon (stats[s]->total_tt, sample->total_tt,
                                      sample->total_tt * 1e-12);
      /* The table's values are Python reprs, which round-trip exactly. */
      g_assert_cmpfloat (stats[s]->total_tt, ==, sample->total_tt);
      g_assert_cmpuint (stats[s]->n_callers, ==, sample->n_edges);

      for (guint i = 0; i < stats[s]->n_funcs; i++)
        {
          const SmprofFuncStat *stat = &stats[s]->funcs[i];

          if (strcmp (smprof_function_keys_get_file (table, stat->func), "~") == 0)
            n_builtins++;
          if (stat->cc != stat->nc)
            n_recursive++;
          if (top == NULL || stat->tt > top->tt)
            top = stat;
        }
      g_assert_cmpuint (n_builtins, ==, sample->n_builtins);
      g_assert_cmpuint (n_recursive, ==, sample->n_recursive);

      label = smprof_function_keys_dup_label (table, top->func);
      g_assert_cmpstr (label, ==, sample->top_self);
      g_assert_cmpfloat_with_epsilon (top->tt, sample->top_self_tt, 1e-9);

      append = smprof_function_keys_lookup (table, "~", 0, APPEND_KEY);
      g_assert_cmpuint (append, !=, SMPROF_FUNC_NONE);
      entry = find_func (stats[s], append);
      g_assert_nonnull (entry);
      g_assert_cmpint (entry->cc, ==, sample->append_calls);
      g_assert_cmpint (entry->nc, ==, sample->append_calls);
      g_assert_cmpfloat (entry->tt, ==, sample->append_time);
      g_assert_cmpfloat (entry->ct, ==, sample->append_time);
      g_assert_cmpuint (entry->n_callers, ==, sample->append_callers);

      merged_calls += stats[s]->total_calls;
      merged_prim += stats[s]->prim_calls;
      merged_tt += stats[s]->total_tt;
    }

  /* The first file's top cumulative entry. */
  {
    g_autofree char *label = NULL;
    const SmprofFuncStat *top = NULL;

    for (guint i = 0; i < stats[0]->n_funcs; i++)
      if (top == NULL || stats[0]->funcs[i].ct > top->ct)
        top = &stats[0]->funcs[i];
    label = smprof_function_keys_dup_label (table, top->func);
    g_assert_true (g_str_has_suffix (label, "tf_keras_fit_eager.py:46(main)"));
    g_assert_cmpint (top->cc, ==, 1);
    g_assert_cmpint (top->nc, ==, 1);
    g_assert_cmpfloat_with_epsilon (top->ct, 9.728390, 1e-9);
  }

  /* Keys common to the files, through the shared table's ids. */
  n_keys = smprof_function_keys_get_size (table);
  seen = g_new0 (guint8, n_keys);
  for (guint s = 0; s < G_N_ELEMENTS (samples_2020); s++)
    for (guint i = 0; i < stats[s]->n_funcs; i++)
      seen[stats[s]->funcs[i].func] |= 1 << s;
  for (guint id = 0; id < n_keys; id++)
    {
      n_common_3 += seen[id] == 7;
      n_common_2 += (seen[id] & 6) == 6;
      n_union += seen[id] != 0;
    }
  g_assert_cmpuint (n_common_3, ==, 137);
  g_assert_cmpuint (n_common_2, ==, 230);

  /* What Stats().add of the three gives. */
  g_assert_cmpuint (n_union, ==, 2823);
  g_assert_cmpint (merged_calls, ==, 182272);
  g_assert_cmpint (merged_prim, ==, 172892);
  g_assert_cmpfloat (merged_tt, ==, 10.778179000000002);

  for (guint s = 0; s < G_N_ELEMENTS (samples_2020); s++)
    for (guint i = 0; i < stats[s]->n_funcs; i++)
      {
        const SmprofFuncStat *stat = &stats[s]->funcs[i];

        for (guint j = 0; j < stat->n_callers; j++)
          {
            const SmprofCallerStat *caller = &stats[s]->callers[stat->first_caller + j];
            guint64 edge = (guint64) stat->func << 32 | caller->caller;

            g_array_append_val (edges, edge);
          }
      }
  g_array_sort (edges, compare_u64);
  for (guint i = 0; i < edges->len; i++)
    {
      guint64 edge = g_array_index (edges, guint64, i);

      if (i > 0 && edge == g_array_index (edges, guint64, i - 1))
        continue;
      n_edges++;
      append_callers += edge >> 32 == append;
    }
  g_assert_cmpuint (n_edges, ==, 6072);
  g_assert_cmpuint (append_callers, ==, 97);

  /* The same through the aggregation the queries use (Stats().add in the
   * table's order), down to the merged entries section 5.4 lists. */
  {
    g_autoptr(SmprofCprofileProfile) merged = smprof_cprofile_profile_new (table);
    g_autoptr(GArray) by_cumtime = NULL;
    const SmprofProfileEntry *top;
    g_autofree char *top_label = NULL;
    guint m_edges = 0;
    guint m_builtins = 0;
    guint m_recursive = 0;
    gboolean found_append = FALSE;

    for (guint s = 0; s < G_N_ELEMENTS (samples_2020); s++)
      smprof_cprofile_profile_add (merged, stats[s]);

    g_assert_cmpuint (smprof_cprofile_profile_get_n_entries (merged), ==, 2823);
    g_assert_cmpint (smprof_cprofile_profile_get_total_calls (merged), ==, 182272);
    g_assert_cmpint (smprof_cprofile_profile_get_prim_calls (merged), ==, 172892);
    g_assert_cmpfloat (smprof_cprofile_profile_get_total_tt (merged), ==, 10.778179000000002);

    for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (merged); i++)
      {
        const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (merged, i);

        m_edges += entry->callers->len;
        m_builtins += strcmp (smprof_function_keys_get_file (table, entry->func), "~") == 0;
        m_recursive += entry->cc != entry->nc;
        if (entry->func == append)
          {
            found_append = TRUE;
            g_assert_cmpint (entry->cc, ==, 6379);
            g_assert_cmpint (entry->nc, ==, 6379);
            g_assert_cmpfloat_with_epsilon (entry->tt, 0.005238, 1e-12);
            g_assert_cmpfloat_with_epsilon (entry->ct, 0.005238, 1e-12);
            g_assert_cmpuint (entry->callers->len, ==, 97);
          }
      }
    g_assert_true (found_append);
    g_assert_cmpuint (m_edges, ==, 6072);
    g_assert_cmpuint (m_builtins, ==, 338);
    g_assert_cmpuint (m_recursive, ==, 60);

    /* sort_stats("cumtime") puts the training script's main first */
    by_cumtime = smprof_cprofile_profile_sorted (merged, SMPROF_SORT_CUMTIME);
    top = smprof_cprofile_profile_get_entry (merged, g_array_index (by_cumtime, guint, 0));
    top_label = smprof_function_keys_dup_label (table, top->func);
    g_assert_true (g_str_has_suffix (top_label, "tf_keras_fit_eager.py:46(main)"));
  }

  for (guint s = 0; s < G_N_ELEMENTS (samples_2020); s++)
    smprof_pstats_free (stats[s]);
}

/* The real corpus against CPython's own pstats */

static const char cpython_dump[] =
  "import pstats, sys\n"
  "def h(s):\n"
  "    return s.encode('utf-8', 'surrogatepass').hex() or '-'\n"
  "out = sys.stdout\n"
  "for path in sys.argv[1:]:\n"
  "    s = pstats.Stats(path)\n"
  "    st = s.stats\n"
  "    out.write('F %d %d %d %d %r\\n' % (len(st), sum(len(v[4]) for v in st.values()),\n"
  "              s.total_calls, s.prim_calls, float(s.total_tt)))\n"
  "    for (f, l, n), (cc, nc, tt, ct, callers) in st.items():\n"
  "        out.write('f %s %d %s %d %d %r %r %d\\n'\n"
  "                  % (h(f), l, h(n), cc, nc, float(tt), float(ct), len(callers)))\n"
  "        for (cf, cl, cn), v in callers.items():\n"
  "            if isinstance(v, tuple):\n"
  "                out.write('c %s %d %s %d %d %r %r T\\n'\n"
  "                          % (h(cf), cl, h(cn), v[0], v[1], float(v[2]), float(v[3])))\n"
  "            else:\n"
  "                out.write('c %s %d %s %d %d 0.0 0.0 L\\n' % (h(cf), cl, h(cn), v, v))\n";

static char *
hex_of (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    g_string_append_printf (out, "%02x", (guint) (guint8) *p);
  if (out->len == 0)
    g_string_append_c (out, '-');

  return g_string_free (out, FALSE);
}

static char **
next_fields (char      **cursor,
             const char *kind,
             guint       n_fields)
{
  char *line = *cursor;
  char *end = strchr (line, '\n');
  char **fields;

  g_assert_nonnull (end);
  *end = '\0';
  *cursor = end + 1;

  fields = g_strsplit (line, " ", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, n_fields);
  g_assert_cmpstr (fields[0], ==, kind);

  return fields;
}

static void
assert_key (SmprofFunctionKeys  *table,
            guint32              id,
            char               **fields)
{
  g_autofree char *file = hex_of (smprof_function_keys_get_file (table, id));
  g_autofree char *name = hex_of (smprof_function_keys_get_name (table, id));

  g_assert_cmpstr (file, ==, fields[1]);
  g_assert_cmpint (smprof_function_keys_get_line (table, id), ==,
                   g_ascii_strtoll (fields[2], NULL, 10));
  g_assert_cmpstr (name, ==, fields[3]);
}

static void
assert_same_as_cpython (GPtrArray *paths)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  char *cursor;
  int status = 0;
  guint n_entries = 0;

  if (python == NULL)
    {
      g_test_skip ("python3 is not installed");
      return;
    }

  g_ptr_array_add (argv, python);
  g_ptr_array_add (argv, (char *) "-I");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) cpython_dump);
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (argv, paths->pdata[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("python3 failed: %s\n%s", error->message, err);

  cursor = out;
  for (guint p = 0; p < paths->len; p++)
    {
      g_autoptr(GBytes) bytes = load_bytes (paths->pdata[p]);
      g_autoptr(SmprofPstats) stats = smprof_pstats_parse (bytes, table, &error);
      g_auto(GStrv) file_fields = next_fields (&cursor, "F", 6);

      g_assert_no_error (error);
      pstats_test_assert_consistent (stats, table);
      g_assert_cmpuint (stats->n_funcs, ==, g_ascii_strtoull (file_fields[1], NULL, 10));
      g_assert_cmpuint (stats->n_callers, ==, g_ascii_strtoull (file_fields[2], NULL, 10));
      g_assert_cmpint (stats->total_calls, ==, g_ascii_strtoll (file_fields[3], NULL, 10));
      g_assert_cmpint (stats->prim_calls, ==, g_ascii_strtoll (file_fields[4], NULL, 10));
      /* Bit for bit: repr() round-trips. */
      g_assert_cmpfloat (stats->total_tt, ==, g_ascii_strtod (file_fields[5], NULL));

      for (guint i = 0; i < stats->n_funcs; i++)
        {
          const SmprofFuncStat *stat = &stats->funcs[i];
          g_auto(GStrv) fields = next_fields (&cursor, "f", 9);

          assert_key (table, stat->func, fields);
          g_assert_cmpint (stat->cc, ==, g_ascii_strtoll (fields[4], NULL, 10));
          g_assert_cmpint (stat->nc, ==, g_ascii_strtoll (fields[5], NULL, 10));
          g_assert_cmpfloat (stat->tt, ==, g_ascii_strtod (fields[6], NULL));
          g_assert_cmpfloat (stat->ct, ==, g_ascii_strtod (fields[7], NULL));
          g_assert_cmpuint (stat->n_callers, ==, g_ascii_strtoull (fields[8], NULL, 10));

          for (guint j = 0; j < stat->n_callers; j++)
            {
              const SmprofCallerStat *caller = &stats->callers[stat->first_caller + j];
              g_auto(GStrv) caller_fields = next_fields (&cursor, "c", 9);

              assert_key (table, caller->caller, caller_fields);
              g_assert_cmpint (caller->nc, ==, g_ascii_strtoll (caller_fields[4], NULL, 10));
              g_assert_cmpint (caller->cc, ==, g_ascii_strtoll (caller_fields[5], NULL, 10));
              g_assert_cmpfloat (caller->tt, ==, g_ascii_strtod (caller_fields[6], NULL));
              g_assert_cmpfloat (caller->ct, ==, g_ascii_strtod (caller_fields[7], NULL));
              g_assert_cmpint (caller->legacy, ==, caller_fields[8][0] == 'L');
            }
          n_entries++;
        }
    }

  g_assert_cmpstr (cursor, ==, "");
  g_test_message ("%u files, %u entries identical to CPython's pstats", paths->len, n_entries);
}

static void
test_pstats_real_cpython (void)
{
  g_autoptr(GPtrArray) paths = list_real_files ();

  /* The corpus has 162; a handful is the least that makes this test mean something. */
  g_assert_cmpuint (paths->len, >=, 5);

  for (guint s = 0; s < G_N_ELEMENTS (samples_2020); s++)
    g_ptr_array_add (paths, sample_2020_path (samples_2020[s].folder));

  assert_same_as_cpython (paths);
}

/* Damage */

static char *
smallest_real_file (void)
{
  g_autoptr(GPtrArray) paths = list_real_files ();
  const char *best = NULL;
  goffset best_size = G_MAXINT64;

  for (guint i = 0; i < paths->len; i++)
    {
      GStatBuf buf;

      g_assert_cmpint (g_stat (paths->pdata[i], &buf), ==, 0);
      if (buf.st_size < best_size)
        {
          best = paths->pdata[i];
          best_size = buf.st_size;
        }
    }

  g_assert_nonnull (best);
  return g_strdup (best);
}

static void
test_pstats_truncated (void)
{
  g_autofree char *path = smallest_real_file ();
  g_autoptr(GBytes) whole = load_bytes (path);
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  gsize size = g_bytes_get_size (whole);

  g_test_message ("truncating %s (%" G_GSIZE_FORMAT " bytes)", path, size);

  for (gsize length = 0; length < size; length++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_from_bytes (whole, 0, length);
      g_autoptr(GError) error = NULL;
      g_autoptr(SmprofPstats) stats = smprof_pstats_parse (bytes, table, &error);

      g_assert_null (stats);
      /* Lengths are checked against the bytes the open containers still
       * need, so a cut file always reads as truncated, never as corrupt. */
      assert_format_error (error, TRUE);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SmprofPstats) stats = smprof_pstats_parse (whole, table, &error);

    g_assert_no_error (error);
    pstats_test_assert_consistent (stats, table);
  }
}

static void
test_pstats_bit_flips (void)
{
  g_autofree char *path = sample_2020_path (samples_2020[2].folder);
  g_autoptr(GBytes) whole = load_bytes (path);
  g_autoptr(SmprofFunctionKeys) table = smprof_function_keys_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20200805);
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (whole, &size);
  g_autofree guint8 *copy = g_memdup2 (data, size);
  guint n_ok = 0;

  for (guint i = 0; i < 2000; i++)
    {
      guint bit = g_rand_int_range (rand, 0, (gint32) (size * 8));
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(SmprofPstats) stats = NULL;

      copy[bit / 8] ^= 1 << (bit % 8);
      bytes = g_bytes_new (copy, size);
      copy[bit / 8] ^= 1 << (bit % 8);

      stats = smprof_pstats_parse (bytes, table, &error);
      if (stats != NULL)
        {
          g_assert_no_error (error);
          pstats_test_assert_consistent (stats, table);
          n_ok++;
        }
      else
        assert_format_error (error, FALSE);
    }

  g_test_message ("%u of 2000 damaged copies still parsed", n_ok);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pstats/sagemaker-2020", test_pstats_sagemaker_2020);
  g_test_add_func ("/pstats/real-vs-cpython", test_pstats_real_cpython);
  g_test_add_func ("/pstats/truncated", test_pstats_truncated);
  g_test_add_func ("/pstats/bit-flips", test_pstats_bit_flips);

  return g_test_run ();
}
