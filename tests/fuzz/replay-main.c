/* replay-main.c: runs a fuzz target over files, without libFuzzer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: replay-TARGET FILE-OR-FOLDER...
 *
 * Feeds every file (folders are read one level deep, in name order, skipping
 * dot files and README files) to LLVMFuzzerTestOneInput and prints one TAP
 * line per input. A broken promise aborts the target, so the test fails on
 * the input it was reading, whose name is the last thing on stderr. This is
 * how a normal `meson test` (any compiler, any sanitizer, or none) replays the
 * seed corpora and every input a fuzzer ever crashed on.
 */

#include "config.h"

#include "fuzz-common.h"

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
is_input_name (const char *name)
{
  return name[0] != '.' && !g_str_has_prefix (name, "README");
}

static void
collect (const char *path,
         GPtrArray  *inputs)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;

  /* A target with no regression yet has no regressions/<target>/ folder. */
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_ptr_array_add (inputs, g_strdup (path));
      return;
    }

  dir = g_dir_open (path, 0, NULL);
  if (dir == NULL)
    return;

  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (is_input_name (name))
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_strings);

  for (guint i = 0; i < names->len; i++)
    if (g_file_test (names->pdata[i], G_FILE_TEST_IS_REGULAR))
      g_ptr_array_add (inputs, g_strdup (names->pdata[i]));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) inputs = g_ptr_array_new_with_free_func (g_free);
  guint failed = 0;

  LLVMFuzzerInitialize (&argc, &argv);

  for (int i = 1; i < argc; i++)
    collect (argv[i], inputs);

  if (inputs->len == 0)
    {
      printf ("1..0 # SKIP no inputs\n");
      return 0;
    }

  printf ("1..%u\n", inputs->len);
  fflush (stdout);

  for (guint i = 0; i < inputs->len; i++)
    {
      const char *path = inputs->pdata[i];
      g_autoptr(GError) error = NULL;
      g_autofree char *contents = NULL;
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *folder = g_path_get_dirname (path);
      g_autofree char *parent = g_path_get_basename (folder);
      gsize length = 0;

      if (!g_file_get_contents (path, &contents, &length, &error))
        {
          printf ("not ok %u - %s/%s: %s\n", i + 1, parent, base, error->message);
          failed++;
          continue;
        }

      fprintf (stderr, "replaying %s (%" G_GSIZE_FORMAT " bytes)\n", path, length);
      LLVMFuzzerTestOneInput ((const uint8_t *) contents, length);
      printf ("ok %u - %s/%s\n", i + 1, parent, base);
      fflush (stdout);
    }

  return failed > 0 ? 1 : 0;
}
