/* test-export.c: the export API a viewer calls (the formats' contents are
 * checked by real consumers in tests/export/test_export.py)
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "core-test-util.h"
#include "smprof-aggregate.h"
#include "smprof-export.h"
#include "smprof-query.h"

static SmprofProfile *
load_profile (const char     *job_name,
              SmprofProfiler  profiler)
{
  g_autoptr(SmprofJob) job = core_test_load_job (job_name);
  SmprofSelection everything = { .kind = SMPROF_SELECT_ALL };

  return core_test_profile_of (job, profiler, &everything);
}

static GBytes *
export_to_bytes (SmprofProfile             *profile,
                 SmprofExportFormat         format,
                 const SmprofExportOptions *options,
                 GError                   **error)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();

  if (!smprof_export_profile (profile, format, options, stream, NULL, error))
    return NULL;

  g_assert_true (g_output_stream_close (stream, NULL, NULL));

  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (stream));
}

static void
test_formats (void)
{
  static const struct { const char *name; const char *extension; } expected[] = {
    { "svg", ".svg" }, { "png", ".png" }, { "pdf", ".pdf" }, { "folded", ".folded" },
    { "speedscope", ".speedscope.json" }, { "pstats", ".prof" }, { "csv", ".csv" },
    { "json", ".json" }, { "syscap", ".syscap" },
  };
  SmprofExportFormat format;

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_assert_true (smprof_export_format_from_string (expected[i].name, &format));
      g_assert_cmpint (format, ==, i);
      g_assert_cmpstr (smprof_export_format_to_string (format), ==, expected[i].name);
      g_assert_cmpstr (smprof_export_format_get_extension (format), ==, expected[i].extension);
      g_assert_nonnull (smprof_export_format_get_mime_type (format));
    }

  g_assert_true (smprof_export_format_from_string ("SVG", &format));
  g_assert_false (smprof_export_format_from_string ("gif", &format));
  g_assert_false (smprof_export_format_from_string (NULL, &format));
}

/* Every format into a memory stream, with the defaults (NULL options). */
static void
test_every_format (void)
{
  g_autoptr(SmprofProfile) cprofile = load_profile ("tf-cprofile", SMPROF_PROFILER_CPROFILE);
  g_autoptr(SmprofProfile) pyinstrument = load_profile ("tf-pyinstrument", SMPROF_PROFILER_PYINSTRUMENT);
  static const char *const magic[SMPROF_EXPORT_N_FORMATS] = {
    [SMPROF_EXPORT_SVG] = "<?xml",
    [SMPROF_EXPORT_PNG] = "\x89PNG",
    [SMPROF_EXPORT_PDF] = "%PDF",
    [SMPROF_EXPORT_SPEEDSCOPE] = "{\"$schema\"",
    [SMPROF_EXPORT_PSTATS] = "{",
    [SMPROF_EXPORT_CSV] = "ncalls,",
    [SMPROF_EXPORT_JSON] = "{\"profiler\"",
    [SMPROF_EXPORT_SYSCAP] = "\x5e\x97\xca\xfd",   /* SYSPROF_CAPTURE_MAGIC, little-endian */
  };

  for (guint format = 0; format < SMPROF_EXPORT_N_FORMATS; format++)
    for (guint p = 0; p < 2; p++)
      {
        SmprofProfile *profile = p == 0 ? cprofile : pyinstrument;
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) bytes = export_to_bytes (profile, format, NULL, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (g_bytes_get_size (bytes), >, 0);
        if (magic[format] != NULL)
          g_assert_true (g_bytes_get_size (bytes) >= strlen (magic[format]) &&
                         memcmp (g_bytes_get_data (bytes, NULL), magic[format], strlen (magic[format])) == 0);
      }
}

static void
test_options (void)
{
  g_autoptr(SmprofProfile) profile = load_profile ("tf-cprofile", SMPROF_PROFILER_CPROFILE);
  SmprofCallTree *tree = smprof_profile_get_call_tree (profile);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) zoomed = NULL;
  SmprofExportOptions options;

  smprof_export_options_init (&options);
  g_assert_cmpfloat (options.width, ==, 1200);
  g_assert_cmpuint (options.zoom_node, ==, SMPROF_CALL_TREE_ROOT);

  /* Zooming to a root frame draws fewer frames than the whole tree. */
  whole = export_to_bytes (profile, SMPROF_EXPORT_SVG, &options, &error);
  g_assert_no_error (error);
  options.zoom_node = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->first_child;
  options.title = "Zoomed";
  options.selection = "everything";
  options.direction = SMPROF_FLAME_DIRECTION_DOWN;
  options.dark = TRUE;
  zoomed = export_to_bytes (profile, SMPROF_EXPORT_SVG, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (zoomed), <, g_bytes_get_size (whole));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (zoomed, NULL), g_bytes_get_size (zoomed), ">Zoomed</text>"));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (zoomed, NULL), g_bytes_get_size (zoomed), "· everything ·"));
  {
    const SmprofCallTreeNode *frame = smprof_call_tree_get_node (tree, options.zoom_node);
    g_autofree char *label = smprof_export_dup_frame_label (smprof_call_tree_get_table (tree), frame->func);
    g_autofree char *escaped = g_markup_escape_text (label, -1);
    g_autofree char *said = g_strconcat ("zoomed to ", escaped, "</text>", NULL);

    g_assert_nonnull (g_strstr_len (g_bytes_get_data (zoomed, NULL), g_bytes_get_size (zoomed), said));
    g_assert_null (g_strstr_len (g_bytes_get_data (whole, NULL), g_bytes_get_size (whole), "zoomed to"));
  }

  options.zoom_node = smprof_call_tree_get_n_nodes (tree);
  g_assert_null (export_to_bytes (profile, SMPROF_EXPORT_PNG, &options, &error));
  g_assert_error (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID);
  g_clear_error (&error);

  smprof_export_options_init (&options);
  options.width = 20;
  g_assert_null (export_to_bytes (profile, SMPROF_EXPORT_PDF, &options, &error));
  g_assert_error (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID);
  g_clear_error (&error);

  smprof_export_options_init (&options);
  options.min_frame_width = -1;
  g_assert_null (export_to_bytes (profile, SMPROF_EXPORT_SVG, &options, &error));
  g_assert_error (error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID);
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Outcome;

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = smprof_export_profile_to_file_finish (SMPROF_PROFILE (object), result, &outcome->error);
  outcome->done = TRUE;
}

/* What a viewer does: export on a worker thread, into a file that is
 * replaced only when the export succeeds. */
static void
test_async_to_file (void)
{
  g_autoptr(SmprofProfile) profile = load_profile ("tf-pyinstrument", SMPROF_PROFILER_PYINSTRUMENT);
  g_autofree char *dir = g_dir_make_tmp ("smprof-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.svg", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *contents = NULL;
  Outcome outcome = { FALSE };
  SmprofExportOptions options;

  smprof_export_options_init (&options);
  options.title = g_strdup ("Copied by the call");

  smprof_export_profile_to_file_async (profile, SMPROF_EXPORT_SVG, &options, file, NULL, export_done_cb, &outcome);
  g_free ((char *) options.title);
  while (!outcome.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, ">Copied by the call</text>"));
  g_clear_pointer (&contents, g_free);

  /* A refused export leaves the file as it was. */
  outcome.done = FALSE;
  options.title = NULL;
  options.width = 0;
  smprof_export_profile_to_file_async (profile, SMPROF_EXPORT_PSTATS, &options, file, NULL, export_done_cb, &outcome);
  while (!outcome.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (outcome.ok);
  g_assert_error (outcome.error, SMPROF_EXPORT_ERROR, SMPROF_EXPORT_ERROR_INVALID);
  g_clear_error (&outcome.error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, ">Copied by the call</text>"));

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/formats", test_formats);
  g_test_add_func ("/export/every-format", test_every_format);
  g_test_add_func ("/export/options", test_options);
  g_test_add_func ("/export/async-to-file", test_async_to_file);

  return g_test_run ();
}
