/* test-job-fold.c: summing records as they are read
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_job_fold_stats() hands each record to its caller in order while
 * later ones are still being read, and drops what it read once summed: the
 * command line's `smprof stats` total. Its sum is the one of loading every
 * record first, byte for byte, damaged files included; without a parsed
 * index nothing stays loaded, with one what it did not hold does.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-aggregate.h"
#include "smprof-index-cache.h"
#include "smprof-job-private.h"
#include "smprof-local-source.h"
#include "smprof-stats-slab.h"

typedef struct
{
  SmprofCprofileProfile *profile;
  GPtrArray             *folded;
  guint                  n_loaded_after;  /* folded records still loaded at the next call */
} Sum;

static void
add_to_sum (SmprofRecord *record,
            gpointer      data)
{
  Sum *sum = data;

  g_assert_nonnull (record->pstats);
  /* the record folded before this one: dropped already, or kept */
  if (sum->folded->len > 0 && ((SmprofRecord *) g_ptr_array_index (sum->folded, sum->folded->len - 1))->pstats != NULL)
    sum->n_loaded_after++;
  smprof_cprofile_profile_add (sum->profile, record->pstats);
  g_ptr_array_add (sum->folded, record);
}

/* Everything of @profile, its doubles to the bit, and the records summed:
 * two sums are the same when their texts are. */
static char *
to_text (SmprofCprofileProfile *profile,
         GPtrArray             *records)
{
  SmprofFunctionKeys *table = smprof_cprofile_profile_get_table (profile);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %a\n",
                          smprof_cprofile_profile_get_total_calls (profile),
                          smprof_cprofile_profile_get_prim_calls (profile),
                          smprof_cprofile_profile_get_total_tt (profile));
  for (guint i = 0; i < smprof_cprofile_profile_get_n_entries (profile); i++)
    {
      const SmprofProfileEntry *entry = smprof_cprofile_profile_get_entry (profile, i);
      g_autofree char *label = smprof_function_keys_dup_label (table, entry->func);

      g_string_append_printf (text, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %a %a:", label,
                              entry->cc, entry->nc, entry->tt, entry->ct);
      for (guint c = 0; entry->callers != NULL && c < entry->callers->len; c++)
        {
          const SmprofCallerStat *caller = &g_array_index (entry->callers, SmprofCallerStat, c);
          g_autofree char *caller_label = smprof_function_keys_dup_label (table, caller->caller);

          g_string_append_printf (text, " [%s %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %a %a]", caller_label,
                                  caller->legacy, caller->nc, caller->cc, caller->tt, caller->ct);
        }
      g_string_append_c (text, '\n');
    }
  for (guint i = 0; i < records->len; i++)
    g_string_append_printf (text, "%s\n", ((SmprofRecord *) g_ptr_array_index (records, i))->path);

  return g_string_free (text, FALSE);
}

static SmprofJob *
new_job (const char       *path,
         SmprofIndexCache *cache)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SmprofSource) source = smprof_local_source_new (path, &error);
  SmprofJob *job;

  g_assert_no_error (error);
  job = smprof_job_new (source);
  if (cache != NULL)
    smprof_job_set_index_cache (job, cache);
  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);

  return job;
}

/* The sum of every cProfile record of @path loaded first, then summed. */
static char *
load_then_sum (const char *path)
{
  g_autoptr(SmprofJob) job = new_job (path, NULL);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(SmprofCprofileProfile) profile = NULL;

  g_assert_true (smprof_job_load_stats (job, records, NULL, NULL));
  loaded = smprof_aggregate_loaded (records);
  profile = smprof_aggregate_cprofile (job, loaded);

  return to_text (profile, loaded);
}

/* Folds every cProfile record of @job; returns the sum's text, how many
 * records were folded, how many stayed loaded, and how many were still
 * loaded when the next one was folded. */
static char *
fold (SmprofJob *job,
      guint     *n_folded,
      guint     *n_kept,
      guint     *n_loaded_after)
{
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofCprofileProfile) profile = smprof_cprofile_profile_new (smprof_job_get_function_keys (job));
  g_autoptr(GPtrArray) folded = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  Sum sum = { profile, folded, 0 };

  g_assert_true (smprof_job_fold_stats (job, records, add_to_sum, &sum, NULL, &error));
  g_assert_no_error (error);

  *n_folded = folded->len;
  *n_loaded_after = sum.n_loaded_after;
  *n_kept = 0;
  for (guint i = 0; i < records->len; i++)
    *n_kept += ((SmprofRecord *) g_ptr_array_index (records, i))->pstats != NULL;

  return to_text (profile, folded);
}

static void
copy_file (const char *from,
           const char *to,
           gssize      length)
{
  g_autofree char *contents = NULL;
  gsize size;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_path_get_dirname (to);

  g_assert_true (g_file_get_contents (from, &contents, &size, &error));
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (to, contents, length >= 0 ? length : (gssize) size, &error));
  g_assert_no_error (error);
}

#define N_COPIED_INTERVALS 5

/* For g_ptr_array_sort(), which passes pointers to the elements. */
static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The name of interval @i of a copied job. */
static char *
copied_interval (guint i)
{
  guint64 start = G_GUINT64_CONSTANT (1795987298000000) + 100000 * (guint64) i;

  return g_strdup_printf ("train-%u-stepstart-%" G_GUINT64_FORMAT ".0_train-%u-stepend-%" G_GUINT64_FORMAT ".0",
                          10 + i, start, 10 + i, start + 90000);
}

/* A job of @n_nodes nodes of N_COPIED_INTERVALS intervals in a new temporary
 * folder, each stats file a copy of another real one (copies, not links:
 * other tests link the real files, which changes their times, and a parsed
 * index keys on those); the file of interval @damaged (or none, for -1) of
 * the first node cut to 100 bytes. */
static char *
make_copied_job (guint n_nodes,
                 int   damaged)
{
  g_autofree char *node = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", "pt-cprofile", "framework",
                                                 "pytorch", "cprofile", "1-algo-2", NULL);
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = g_dir_open (node, 0, NULL);
  char *root = g_dir_make_tmp ("smprof-fold-XXXXXX", NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_nonnull (root);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (sources, g_build_filename (node, name, "python_stats", NULL));
  g_ptr_array_sort (sources, compare_paths);
  g_assert_cmpuint (sources->len, >=, N_COPIED_INTERVALS);

  for (guint n = 0; n < n_nodes; n++)
    for (guint i = 0; i < N_COPIED_INTERVALS; i++)
      {
        g_autofree char *interval = copied_interval (i);
        g_autofree char *node_id = g_strdup_printf ("%u-algo-%u", n, n + 1);
        g_autofree char *to = g_build_filename (root, "framework", "pytorch", "cprofile", node_id, interval,
                                                "python_stats", NULL);

        copy_file (g_ptr_array_index (sources, (n * N_COPIED_INTERVALS + i) % sources->len), to,
                   n == 0 && (int) i == damaged ? 100 : -1);
      }

  return root;
}

/* The real jobs, and one of 8 nodes of copies of real files: the same sum,
 * and none of the records read stays loaded, not even while the next is
 * summed. */
static void
test_same_sum (void)
{
  static const char * const jobs[] = { "pt-cprofile", "tf-cprofile" };
  g_autofree char *many = make_copied_job (8, -1);

  for (guint i = 0; i <= G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *path = i < G_N_ELEMENTS (jobs)
                              ? g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", jobs[i], NULL)
                              : g_strdup (many);
      g_autoptr(SmprofJob) job = new_job (path, NULL);
      GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
      g_autofree char *want = load_then_sum (path);
      g_autofree char *got = NULL;
      guint n_folded, n_kept, n_loaded_after;

      g_assert_cmpuint (records->len, >, 1);
      got = fold (job, &n_folded, &n_kept, &n_loaded_after);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpuint (n_folded, ==, records->len);
      g_assert_cmpuint (n_kept, ==, 0);
      g_assert_cmpuint (n_loaded_after, ==, 0);
    }

  core_test_remove_tree (many);
}

/* A damaged file in the middle: its record fails with a problem naming it,
 * is not folded, and the sum is the one of loading first (which leaves it
 * out too). */
static void
test_damaged_file (void)
{
  g_autofree char *root = make_copied_job (1, 2);
  g_autofree char *damaged = copied_interval (2);
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  GPtrArray *records;
  guint n_folded, n_kept, n_loaded_after;

  want = load_then_sum (root);
  job = new_job (root, NULL);
  records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_assert_cmpuint (records->len, ==, N_COPIED_INTERVALS);
  got = fold (job, &n_folded, &n_kept, &n_loaded_after);

  g_assert_cmpstr (got, ==, want);
  g_assert_cmpuint (n_folded, ==, N_COPIED_INTERVALS - 1);
  g_assert_cmpuint (n_kept, ==, 0);
  g_assert_true (((SmprofRecord *) g_ptr_array_index (records, 2))->failed);
  problems = smprof_job_dup_problems (job);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_true (g_str_has_suffix (((SmprofProblem *) g_ptr_array_index (problems, 0))->path, "/python_stats"));
  g_assert_nonnull (strstr (((SmprofProblem *) g_ptr_array_index (problems, 0))->path, damaged));

  core_test_remove_tree (root);
}

/* The record of @records whose stats file is @path, relative to the job. */
static guint
record_at (GPtrArray  *records,
           const char *path)
{
  for (guint i = 0; i < records->len; i++)
    if (strcmp (((SmprofRecord *) g_ptr_array_index (records, i))->path, path) == 0)
      return i;

  g_assert_not_reached ();
}

/* With a parsed index, what was parsed stays loaded (the index stores it),
 * and a second job reads it all from there, dropping each record once
 * summed; a third, with one stats file changed since, reads that one from
 * its file and keeps it, the records before it dropped, and writes the
 * node's file again with the records it dropped read back from the old one;
 * a fourth reads everything from the index again: the same sum each time.
 * Of 60 nodes, so that the index is read in more than one batch. */
static void
test_with_index (void)
{
  g_autofree char *path = make_copied_job (60, -1);
  g_autofree char *dir = g_dir_make_tmp ("smprof-fold-cache-XXXXXX", NULL);
  g_autoptr(SmprofIndexCache) cache = smprof_index_cache_new (dir, 0);
  g_autofree char *want = load_then_sum (path);
  g_autofree char *interval = copied_interval (2);
  g_autofree char *changed = g_build_filename ("framework", "pytorch", "cprofile", "0-algo-1", interval,
                                               "python_stats", NULL);

  for (guint run = 0; run < 4; run++)
    {
      g_autoptr(SmprofJob) job = NULL;
      GPtrArray *records;
      g_autofree char *got = NULL;
      guint n_folded, n_kept, n_loaded_after;
      SmprofJobIndexCounts counts;

      if (run == 2)
        {
          g_autofree char *interval_0 = copied_interval (0);
          g_autofree char *from = g_build_filename (path, "framework", "pytorch", "cprofile", "1-algo-2", interval_0,
                                                    "python_stats", NULL);
          g_autofree char *to = g_build_filename (path, changed, NULL);

          copy_file (from, to, -1);
          g_free (want);
          want = load_then_sum (path);
        }

      job = new_job (path, cache);
      records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
      g_assert_cmpuint (records->len, ==, 60 * N_COPIED_INTERVALS);
      got = fold (job, &n_folded, &n_kept, &n_loaded_after);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpuint (n_folded, ==, records->len);
      _smprof_job_get_index_counts (job, &counts);

      if (run == 0)
        {
          g_assert_cmpuint (counts.hits, ==, 0);
          g_assert_cmpuint (n_kept, ==, records->len);
          g_assert_cmpuint (n_loaded_after, ==, records->len - 1);
        }
      else if (run == 1 || run == 3)
        {
          g_assert_cmpuint (counts.hits, ==, records->len);
          g_assert_cmpuint (n_kept, ==, 0);
          g_assert_cmpuint (n_loaded_after, ==, 0);
        }
      else
        {
          guint at = record_at (records, changed);

          g_assert_cmpuint (counts.hits, ==, records->len - 1);
          g_assert_cmpuint (counts.misses, ==, 1);
          g_assert_nonnull (((SmprofRecord *) g_ptr_array_index (records, at))->pstats);
          for (guint i = 0; i < at; i++)
            g_assert_null (((SmprofRecord *) g_ptr_array_index (records, i))->pstats);
        }
    }

  core_test_remove_tree (dir);
  core_test_remove_tree (path);
}

/* Read from the parsed index, records are folded and dropped a batch at a
 * time, so the memory their arrays take is used again: of a job whose
 * arrays fill many chunks, a few are mapped. */
static void
test_index_memory_reused (void)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(SmprofIndexCache) cache = NULL;
  g_autofree char *want = NULL;
  guint64 bytes = 0;

  if (!_smprof_stats_slab_is_used ())
    {
      g_test_skip ("the slab maps nothing under AddressSanitizer");
      return;
    }

  path = make_copied_job (400, -1);
  dir = g_dir_make_tmp ("smprof-fold-cache-XXXXXX", NULL);
  cache = smprof_index_cache_new (dir, 0);
  want = load_then_sum (path);

  for (guint run = 0; run < 2; run++)
    {
      g_autoptr(SmprofJob) job = new_job (path, cache);
      GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
      g_autofree char *got = NULL;
      guint n_folded, n_kept, n_loaded_after, before, mapped;
      SmprofJobIndexCounts counts;

      before = _smprof_stats_slab_get_n_mapped ();
      got = fold (job, &n_folded, &n_kept, &n_loaded_after);
      mapped = _smprof_stats_slab_get_n_mapped () - before;
      g_assert_cmpstr (got, ==, want);
      _smprof_job_get_index_counts (job, &counts);

      if (run == 0)
        {
          /* what the arrays take, all loaded */
          for (guint i = 0; i < records->len; i++)
            {
              const SmprofPstats *stats = ((SmprofRecord *) g_ptr_array_index (records, i))->pstats;

              bytes += (guint64) stats->n_funcs * sizeof (SmprofFuncStat) +
                       (guint64) stats->n_callers * sizeof (SmprofCallerStat);
            }
          continue;
        }

      g_test_message ("%u chunks of 2 MiB mapped for %" G_GUINT64_FORMAT " bytes of arrays", mapped, bytes);
      g_assert_cmpuint (counts.hits, ==, records->len);
      g_assert_cmpuint (n_kept, ==, 0);
      /* Many chunks' worth (kept all, 7 were mapped besides the 8 spares
       * the first run left), of which a batch (2 chunks) is alive at a
       * time. */
      g_assert_cmpuint (bytes, >=, 12 * (2u << 20));
      g_assert_cmpuint (mapped, <=, 4);
    }

  core_test_remove_tree (dir);
  core_test_remove_tree (path);
}

static void
never_called (SmprofRecord *record,
              gpointer      data)
{
  g_assert_not_reached ();
}

/* Cancelled before it starts: nothing read, nothing folded, the error says
 * so. */
static void
test_cancelled (void)
{
  g_autoptr(SmprofJob) job = core_test_load_job ("pt-cprofile");
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_false (smprof_job_fold_stats (job, records, never_called, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (smprof_job_count_read_stats (job, records), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-fold/same-sum", test_same_sum);
  g_test_add_func ("/job-fold/damaged-file", test_damaged_file);
  g_test_add_func ("/job-fold/with-index", test_with_index);
  g_test_add_func ("/job-fold/index-memory-reused", test_index_memory_reused);
  g_test_add_func ("/job-fold/cancelled", test_cancelled);

  return g_test_run ();
}
