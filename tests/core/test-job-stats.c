/* test-job-stats.c: reading a job's stats files from several threads at once
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * smprof_job_load_stats() fills records in place; the job itself keeps
 * concurrent callers apart (a viewer runs aggregates, the range index, step
 * statistics and comparisons on workers, for several pages). A source that
 * counts its reads and can hold a download back stands for a slow S3: each
 * file is read once whoever asks, a caller waits only for the records it
 * needs, and a cancelled reader's records are taken over.
 */

#include "core-test-util.h"
#include "smprof-local-source.h"

/* ------------------------------------------------------------------------ */
/* A source over a local folder that counts reads and can stall downloads   */

#define TEST_TYPE_GATED_SOURCE (test_gated_source_get_type ())
G_DECLARE_FINAL_TYPE (TestGatedSource, test_gated_source, TEST, GATED_SOURCE, GObject)

struct _TestGatedSource
{
  GObject       parent_instance;

  SmprofSource *inner;
  GMutex        lock;
  GCond         cond;
  GHashTable   *reads;     /* path -> number of loads */
  GHashTable   *gated;     /* paths whose prefetch waits for the gate */
  gboolean      open;      /* the gate */
  guint         n_waiting; /* prefetches held at the gate */
};

static void test_gated_source_iface_init (SmprofSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestGatedSource, test_gated_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMPROF_TYPE_SOURCE, test_gated_source_iface_init))

static void
test_gated_source_finalize (GObject *object)
{
  TestGatedSource *self = TEST_GATED_SOURCE (object);

  g_clear_object (&self->inner);
  g_clear_pointer (&self->reads, g_hash_table_unref);
  g_clear_pointer (&self->gated, g_hash_table_unref);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (test_gated_source_parent_class)->finalize (object);
}

static void
test_gated_source_class_init (TestGatedSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_gated_source_finalize;
}

static void
test_gated_source_init (TestGatedSource *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->reads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->gated = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->open = TRUE;
}

static char *
gated_dup_location (SmprofSource *source)
{
  return smprof_source_dup_location (TEST_GATED_SOURCE (source)->inner);
}

static char *
gated_dup_file_location (SmprofSource *source,
                         const char   *path)
{
  return smprof_source_dup_file_location (TEST_GATED_SOURCE (source)->inner, path);
}

static gboolean
gated_list (SmprofSource                *source,
            const SmprofListingOptions  *options,
            SmprofListing               *listing,
            GCancellable                *cancellable,
            GError                     **error)
{
  return smprof_source_list (TEST_GATED_SOURCE (source)->inner, options, listing, cancellable, error);
}

static GBytes *
gated_load (SmprofSource  *source,
            const char    *path,
            GCancellable  *cancellable,
            GError       **error)
{
  TestGatedSource *self = TEST_GATED_SOURCE (source);

  g_mutex_lock (&self->lock);
  g_hash_table_insert (self->reads, g_strdup (path),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->reads, path)) + 1));
  g_mutex_unlock (&self->lock);

  return smprof_source_load (self->inner, path, cancellable, error);
}

/* A download of a gated path waits until the gate opens or the caller gives up. */
static gboolean
gated_prefetch (SmprofSource        *source,
                const char * const  *paths,
                GCancellable        *cancellable,
                GError             **error)
{
  TestGatedSource *self = TEST_GATED_SOURCE (source);
  gboolean gated = FALSE;

  g_mutex_lock (&self->lock);
  for (guint i = 0; paths[i] != NULL; i++)
    gated |= g_hash_table_contains (self->gated, paths[i]);
  if (gated)
    {
      self->n_waiting++;
      g_cond_broadcast (&self->cond);
      while (!self->open && !g_cancellable_is_cancelled (cancellable))
        g_cond_wait_until (&self->cond, &self->lock, g_get_monotonic_time () + 10 * G_TIME_SPAN_MILLISECOND);
      self->n_waiting--;
    }
  g_mutex_unlock (&self->lock);

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

static void
test_gated_source_iface_init (SmprofSourceInterface *iface)
{
  iface->dup_location = gated_dup_location;
  iface->dup_file_location = gated_dup_file_location;
  iface->list = gated_list;
  iface->load = gated_load;
  iface->prefetch = gated_prefetch;
}

static TestGatedSource *
gated_source_new (const char *job_name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "real-smdebug", job_name, NULL);
  g_autoptr(GError) error = NULL;
  TestGatedSource *self = g_object_new (TEST_TYPE_GATED_SOURCE, NULL);

  self->inner = smprof_local_source_new (path, &error);
  g_assert_no_error (error);

  return self;
}

static void
gate_close (TestGatedSource *self,
            GPtrArray       *records)
{
  g_mutex_lock (&self->lock);
  self->open = FALSE;
  for (guint i = 0; i < records->len; i++)
    g_hash_table_add (self->gated, g_strdup (((SmprofRecord *) g_ptr_array_index (records, i))->path));
  g_mutex_unlock (&self->lock);
}

static void
gate_open (TestGatedSource *self)
{
  g_mutex_lock (&self->lock);
  self->open = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* Waits until @n prefetches are held at the gate. */
static void
gate_wait_for (TestGatedSource *self,
               guint            n)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  g_mutex_lock (&self->lock);
  while (self->n_waiting < n)
    g_assert_true (g_cond_wait_until (&self->cond, &self->lock, deadline) || self->n_waiting >= n);
  g_mutex_unlock (&self->lock);
}

static guint
reads_of (TestGatedSource *self,
          const char      *path)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (self->reads, path));
  g_mutex_unlock (&self->lock);

  return n;
}

static SmprofJob *
load_job (TestGatedSource *source)
{
  g_autoptr(GError) error = NULL;
  SmprofJob *job = smprof_job_new (SMPROF_SOURCE (source));

  g_assert_true (smprof_job_load (job, NULL, &error));
  g_assert_no_error (error);

  return job;
}

static gboolean
all_read (GPtrArray *records)
{
  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      if (record->pstats == NULL && record->session == NULL && !record->failed)
        return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Loading on threads                                                       */

typedef struct
{
  SmprofJob    *job;
  GPtrArray    *records;
  GCancellable *cancellable;
  gboolean      ok;
  gboolean      done;     /* atomic */
  GError       *error;
} LoadCall;

static gpointer
load_call_thread (gpointer data)
{
  LoadCall *call = data;

  call->ok = smprof_job_load_stats (call->job, call->records, call->cancellable, &call->error);
  g_atomic_int_set (&call->done, TRUE);

  return NULL;
}

/* Eight threads ask for every interval of a job at once: each file is read
 * exactly once, and every caller returns with all of them read. */
static void
test_concurrent_same_records (void)
{
  g_autoptr(TestGatedSource) source = gated_source_new ("pt-cprofile");
  g_autoptr(SmprofJob) job = load_job (source);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  LoadCall calls[8] = { { 0 } };
  GThread *threads[8];

  g_assert_cmpuint (records->len, >, 40);

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      calls[i].job = job;
      calls[i].records = records;
      threads[i] = g_thread_new ("load", load_call_thread, &calls[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_thread_join (threads[i]);
      g_assert_no_error (calls[i].error);
      g_assert_true (calls[i].ok);
    }

  g_assert_true (all_read (records));
  for (guint i = 0; i < records->len; i++)
    {
      const SmprofRecord *record = g_ptr_array_index (records, i);

      g_assert_cmpuint (reads_of (source, record->path), ==, 1);
      g_assert_nonnull (record->pstats);
    }
}

/* One caller's download stalls (a slow S3 with retries): a caller that
 * needs other intervals of the same job is not held up; one that needs the
 * stalled intervals waits for them, and gets them read once. */
static void
test_stalled_download (void)
{
  g_autoptr(TestGatedSource) source = gated_source_new ("pt-cprofile");
  g_autoptr(SmprofJob) job = load_job (source);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) first = g_ptr_array_new ();
  g_autoptr(GPtrArray) rest = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  LoadCall stalled = { 0 }, waiting = { 0 };
  GThread *stalled_thread, *waiting_thread;

  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (i < 10 ? first : rest, g_ptr_array_index (records, i));

  gate_close (source, first);
  stalled.job = job;
  stalled.records = first;
  stalled_thread = g_thread_new ("stalled", load_call_thread, &stalled);
  gate_wait_for (source, 1);

  /* Other records: read now, while the first download still waits. */
  g_assert_true (smprof_job_load_stats (job, rest, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (all_read (rest));
  g_assert_false (g_atomic_int_get (&stalled.done));

  /* The stalled records: this caller waits for them. */
  waiting.job = job;
  waiting.records = first;
  waiting_thread = g_thread_new ("waiting", load_call_thread, &waiting);
  g_usleep (200 * G_TIME_SPAN_MILLISECOND);
  g_assert_false (g_atomic_int_get (&waiting.done));

  gate_open (source);
  g_thread_join (stalled_thread);
  g_thread_join (waiting_thread);
  g_assert_true (stalled.ok);
  g_assert_true (waiting.ok);
  g_assert_true (all_read (first));
  for (guint i = 0; i < records->len; i++)
    g_assert_cmpuint (reads_of (source, ((SmprofRecord *) g_ptr_array_index (records, i))->path), ==, 1);
}

/* The reader of stalled records is cancelled (its page went away): the
 * caller that waited for them reads them itself. */
static void
test_cancelled_reader (void)
{
  g_autoptr(TestGatedSource) source = gated_source_new ("pt-cprofile");
  g_autoptr(SmprofJob) job = load_job (source);
  GPtrArray *records = smprof_job_get_records (job, SMPROF_PROFILER_CPROFILE);
  g_autoptr(GPtrArray) first = g_ptr_array_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  LoadCall stalled = { 0 }, waiting = { 0 };
  GThread *stalled_thread, *waiting_thread;

  for (guint i = 0; i < 6; i++)
    g_ptr_array_add (first, g_ptr_array_index (records, i));

  gate_close (source, first);
  stalled.job = job;
  stalled.records = first;
  stalled.cancellable = cancellable;
  stalled_thread = g_thread_new ("stalled", load_call_thread, &stalled);
  gate_wait_for (source, 1);

  waiting.job = job;
  waiting.records = first;
  waiting_thread = g_thread_new ("waiting", load_call_thread, &waiting);
  g_usleep (100 * G_TIME_SPAN_MILLISECOND);
  g_assert_false (g_atomic_int_get (&waiting.done));

  /* The gate stays closed for the first reader, open for whoever comes next. */
  g_cancellable_cancel (cancellable);
  g_thread_join (stalled_thread);
  g_assert_false (stalled.ok);
  g_assert_error (stalled.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&stalled.error);
  gate_open (source);

  g_thread_join (waiting_thread);
  g_assert_no_error (waiting.error);
  g_assert_true (waiting.ok);
  g_assert_true (all_read (first));
  for (guint i = 0; i < first->len; i++)
    g_assert_cmpuint (reads_of (source, ((SmprofRecord *) g_ptr_array_index (first, i))->path), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-stats/concurrent-same-records", test_concurrent_same_records);
  g_test_add_func ("/job-stats/stalled-download", test_stalled_download);
  g_test_add_func ("/job-stats/cancelled-reader", test_cancelled_reader);

  return g_test_run ();
}
