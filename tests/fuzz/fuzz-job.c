/* fuzz-job.c: a job index built from an arbitrary listing, every file of it
 * holding the same arbitrary bytes, queried and written out as the CLI does
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Input: listing lines, a NUL byte, then the contents every listed file reads
 * as. A line is a path below the job root ("framework/<fw>/<profiler>/<node>/
 * <interval>/<file>"); a line ending in '/' is an empty folder, a line
 * starting with '!' a path the source could not read, one starting with '?'
 * an interval folder listed by name only, and a file whose name
 * contains "ENOENT" vanishes between listing and reading. This is what a local
 * folder or an S3 listing hands the index, so a hostile bucket is covered too.
 *
 * Checks: the index never fails, every record and problem names valid UTF-8,
 * and the JSON that `smprof list --json` and `smprof stats --json` would print
 * is valid JSON whatever the names and the contents.
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "fuzz-common.h"
#include "smprof-aggregate.h"
#include "smprof-json-writer.h"
#include "smprof-job.h"
#include "smprof-profile.h"
#include "smprof-query.h"
#include "smprof-source.h"
#include "smprof-stats-json.h"

#define FUZZ_TYPE_SOURCE (fuzz_source_get_type ())
G_DECLARE_FINAL_TYPE (FuzzSource, fuzz_source, FUZZ, SOURCE, GObject)

struct _FuzzSource
{
  GObject  parent_instance;
  char   **lines;
  GBytes  *contents;
};

static void fuzz_source_iface_init (SmprofSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (FuzzSource, fuzz_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMPROF_TYPE_SOURCE, fuzz_source_iface_init))

static void
fuzz_source_finalize (GObject *object)
{
  FuzzSource *self = FUZZ_SOURCE (object);

  g_strfreev (self->lines);
  g_bytes_unref (self->contents);
  G_OBJECT_CLASS (fuzz_source_parent_class)->finalize (object);
}

static void
fuzz_source_class_init (FuzzSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fuzz_source_finalize;
}

static void
fuzz_source_init (FuzzSource *self)
{
}

static char *
fuzz_source_dup_location (SmprofSource *source)
{
  return g_strdup ("fuzz://job");
}

static char *
fuzz_source_dup_file_location (SmprofSource *source,
                               const char   *path)
{
  return g_strconcat ("fuzz://job/", path, NULL);
}

static gboolean
fuzz_source_list (SmprofSource                *source,
                  const SmprofListingOptions  *options,
                  SmprofListing               *listing,
                  GCancellable                *cancellable,
                  GError                     **error)
{
  FuzzSource *self = FUZZ_SOURCE (source);

  for (guint i = 0; self->lines[i] != NULL; i++)
    {
      const char *line = self->lines[i];
      gsize length = strlen (line);

      if (line[0] == '!')
        smprof_listing_add_problem (listing, line + 1, "cannot be read");
      else if (line[0] == '?')
        smprof_listing_add (listing, line + 1, SMPROF_LISTING_FOLDER, 0);
      else if (length > 0 && line[length - 1] == '/')
        {
          g_autofree char *folder = g_strndup (line, length - 1);

          smprof_listing_add (listing, folder, SMPROF_LISTING_EMPTY_FOLDER, 0);
        }
      else
        smprof_listing_add (listing, line, SMPROF_LISTING_FILE,
                            g_bytes_get_size (self->contents));
    }

  return TRUE;
}

static GBytes *
fuzz_source_load (SmprofSource  *source,
                  const char    *path,
                  GCancellable  *cancellable,
                  GError       **error)
{
  FuzzSource *self = FUZZ_SOURCE (source);

  if (strstr (path, "ENOENT") != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No such file or directory");
      return NULL;
    }

  return g_bytes_ref (self->contents);
}

static void
fuzz_source_iface_init (SmprofSourceInterface *iface)
{
  iface->dup_location = fuzz_source_dup_location;
  iface->dup_file_location = fuzz_source_dup_file_location;
  iface->list = fuzz_source_list;
  iface->load = fuzz_source_load;
}

FUZZ_DEFINE_INITIALIZE ()

static void
check_json (SmprofJsonWriter *writer)
{
  g_autofree char *text = smprof_json_writer_free_to_string (writer);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  FUZZ_CHECK (g_utf8_validate (text, -1, NULL));
  if (!json_parser_load_from_data (parser, text, -1, &error))
    {
      fprintf (stderr, "invalid JSON output (%s):\n%s\n", error->message, text);
      FUZZ_CHECK (!"the JSON output is valid JSON");
    }
}

static void
query (SmprofJob      *job,
       SmprofProfiler  profiler)
{
  GPtrArray *records = smprof_job_get_records (job, profiler);
  SmprofNodeChoice all_nodes = { SMPROF_NODES_ALL, NULL };
  SmprofNodeChoice any_node = { SMPROF_NODES_ANY, NULL };
  SmprofSelection everything = { .kind = SMPROF_SELECT_ALL };
  g_auto(GStrv) node_ids = smprof_node_choice_resolve (&all_nodes, records);
  g_auto(GStrv) any_id = smprof_node_choice_resolve (&any_node, records);
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(SmprofProfile) profile = NULL;
  SmprofJsonWriter *writer;

  /* Every kind of selection, on names the fuzzer chose. */
  for (SmprofSelectionKind kind = SMPROF_SELECT_ALL; kind <= SMPROF_SELECT_FINALIZATION; kind++)
    {
      SmprofSelection selection;
      g_autoptr(GPtrArray) some = NULL;
      g_autofree char *description = NULL;

      smprof_selection_init_step (&selection, 0);
      selection.kind = kind;
      selection.end_step = SMPROF_STEP_INFINITY;
      selection.start_us = 0;
      selection.end_us = G_MAXDOUBLE;
      selection.start_mode = SMPROF_MODE_TRAIN;
      selection.end_mode = SMPROF_MODE_EVAL;
      some = smprof_select (records, (const char * const *) any_id, &selection);
      FUZZ_CHECK (some->len <= records->len);
      description = smprof_selection_describe (&selection);
      FUZZ_CHECK (g_utf8_validate (description, -1, NULL));
    }

  writer = smprof_json_writer_new (FALSE);
  smprof_json_writer_begin_array (writer);
  for (guint i = 0; i < records->len; i++)
    smprof_stats_json_write_record (writer, smprof_job_get_source (job), g_ptr_array_index (records, i));
  smprof_json_writer_end_array (writer);
  check_json (writer);

  selected = smprof_select (records, (const char * const *) node_ids, &everything);
  FUZZ_CHECK (selected->len == records->len);
  FUZZ_CHECK (smprof_job_load_stats (job, selected, NULL, NULL));
  loaded = smprof_aggregate_loaded (selected);
  if (loaded->len == 0)
    return;

  writer = smprof_json_writer_new (FALSE);
  if (profiler == SMPROF_PROFILER_CPROFILE)
    {
      g_autoptr(SmprofCprofileProfile) merged = smprof_aggregate_cprofile (job, loaded);

      smprof_stats_json_write_cprofile (writer, merged, (const char * const *) node_ids, loaded,
                                        SMPROF_SORT_CUMTIME, 50);
    }
  else
    {
      g_autoptr(SmprofCallTree) tree = smprof_aggregate_pyinstrument (job, loaded);

      smprof_stats_json_write_pyinstrument (writer, tree, (const char * const *) node_ids, loaded);
    }
  check_json (writer);

  /* What the viewer builds: the function table and the (estimated) tree. */
  profile = smprof_profile_new (job, profiler, (const char * const *) node_ids, loaded);
  FUZZ_CHECK (smprof_call_tree_get_n_nodes (smprof_profile_get_call_tree (profile)) >= 1);
  for (guint i = 0; i < smprof_profile_get_n_functions (profile) && i < 8; i++)
    {
      const SmprofFunctionRow *row = smprof_profile_get_function (profile, i);
      g_autoptr(GArray) callers = smprof_profile_dup_callers (profile, row->func);
      g_autoptr(GArray) callees = smprof_profile_dup_callees (profile, row->func);

      FUZZ_CHECK (callers != NULL && callees != NULL);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const uint8_t *nul = memchr (data, '\0', size);
  gsize listing_size = nul != NULL ? (gsize) (nul - data) : size;
  g_autofree char *listing = g_strndup ((const char *) data, listing_size);
  g_autoptr(FuzzSource) source = g_object_new (FUZZ_TYPE_SOURCE, NULL);
  g_autoptr(SmprofJob) job = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;

  source->lines = g_strsplit (listing, "\n", 4096);
  source->contents = nul != NULL
                     ? fuzz_bytes (nul + 1, size - listing_size - 1)
                     : g_bytes_new (NULL, 0);

  /* The index for smdebug's "any" node, over a source that lists the same
   * whatever it is asked: its choice must end. */
  job = smprof_job_new (SMPROF_SOURCE (source));
  FUZZ_CHECK (smprof_job_load_for_any_node (job, NULL, NULL, &error));
  g_clear_object (&job);

  job = smprof_job_new (SMPROF_SOURCE (source));
  FUZZ_CHECK (smprof_job_load (job, NULL, &error));

  for (SmprofProfiler profiler = 0; profiler < SMPROF_N_PROFILERS; profiler++)
    {
      GPtrArray *records = smprof_job_get_records (job, profiler);

      for (guint i = 0; i < records->len; i++)
        {
          const SmprofRecord *record = g_ptr_array_index (records, i);

          FUZZ_CHECK (record->order == i);
          FUZZ_CHECK (g_utf8_validate (record->node_id, -1, NULL));
          FUZZ_CHECK (g_utf8_validate (record->interval, -1, NULL));
        }

      query (job, profiler);
    }

  problems = smprof_job_dup_problems (job);
  for (guint i = 0; i < problems->len; i++)
    {
      const SmprofProblem *problem = g_ptr_array_index (problems, i);

      FUZZ_CHECK (g_utf8_validate (problem->path, -1, NULL));
      FUZZ_CHECK (g_utf8_validate (problem->message, -1, NULL));
    }

  return 0;
}
