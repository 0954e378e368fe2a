/* smprof-cli-modules.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Most commands read a local job and write text. Linking S3's libsoup and the
 * pictures' cairo into the program made every command load 46 libraries
 * before its first instruction: about 35 ms with the page cache dropped and
 * 5 ms warm, a tenth of a second open of one node. Those two parts are
 * modules instead (cli/meson.build), loaded here the first time a command
 * needs them. The program exports its own symbols to them: a module holds
 * only its part, and finds the core in the program. */

#include "config.h"

#include <glib/gi18n.h>
#include <gmodule.h>
#include <string.h>

#include "smprof-cli-modules.h"
#include "smprof-export-picture.h"

typedef SmprofSource *(*S3SourceNew) (const char                   *uri,
                                      const SmprofS3SourceOptions  *options,
                                      GError                      **error);
typedef void (*S3SourceSetProgressFunc) (SmprofS3Source       *self,
                                         SmprofS3ProgressFunc  func,
                                         gpointer              user_data,
                                         GDestroyNotify        destroy);
typedef gboolean (*WritePicture) (SmprofFlameLayout              *layout,
                                  const SmprofFlameRenderOptions *render,
                                  SmprofExportFormat              format,
                                  GOutputStream                  *stream,
                                  GCancellable                   *cancellable,
                                  GError                        **error);

/* Where a module is: SMPROF_MODULE_DIR when set (tests, and a packager's
 * check); else beside the program when it is there, which is the build
 * tree (a build run from its folder must not load an installed module of
 * another version); else the installed folder. */
static char *
find_module (const char *name)
{
  const char *override = g_getenv ("SMPROF_MODULE_DIR");
  g_autofree char *file_name = g_strconcat (name, ".so", NULL);
  g_autofree char *program = NULL;

  if (override != NULL && override[0] != '\0')
    return g_build_filename (override, file_name, NULL);

  program = g_file_read_link ("/proc/self/exe", NULL);
  if (program != NULL)
    {
      g_autofree char *folder = g_path_get_dirname (program);
      g_autofree char *beside = g_build_filename (folder, file_name, NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&beside);
    }

  return g_build_filename (SMPROF_MODULEDIR, file_name, NULL);
}

/* A symbol a module must have, and where its address goes. */
typedef struct
{
  const char *name;
  gpointer   *address;
} Symbol;

/* Opens the module @name and finds all of @symbols in it, or none: a module
 * that lacks one is refused here, once, rather than at the call that needs
 * it (which, for the S3 progress, has no error to give). */
static GModule *
open_module (const char    *name,
             const char    *what,
             const Symbol  *symbols,
             guint          n_symbols,
             GError       **error)
{
  g_autofree char *path = find_module (name);
  g_autoptr(GError) local_error = NULL;
  GModule *module;
  const char *abi = NULL;

  module = g_module_open_full (path, G_MODULE_BIND_LOCAL, &local_error);
  if (module == NULL)
    {
      /* TRANSLATORS: the first %s is what needs the module ("S3 sources",
       * "PNG and PDF pictures"), the second why it could not be loaded,
       * which names its file */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("%s need a part of smprof that could not be loaded: %s"), what, local_error->message);
      return NULL;
    }

  if (!g_module_symbol (module, "smprof_cli_module_abi", (gpointer *) &abi) || abi == NULL ||
      strcmp (abi, SMPROF_CLI_MODULE_ABI) != 0)
    {
      /* TRANSLATORS: the first %s is what needs the module, the second its
       * file; smprof was installed over an older or newer copy */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("%s need a part of smprof that belongs to another version of smprof: %s"), what, path);
      g_module_close (module);
      return NULL;
    }

  for (guint i = 0; i < n_symbols; i++)
    if (!g_module_symbol (module, symbols[i].name, symbols[i].address) || *symbols[i].address == NULL)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("A part of smprof lacks %s: %s"), symbols[i].name, path);
        g_module_close (module);
        return NULL;
      }

  /* Its types stay registered with GObject: it is never unloaded. */
  g_module_make_resident (module);

  return module;
}

typedef struct
{
  GModule    *module;
  GError     *error;    /* why it could not be loaded, kept to say again */
} Loaded;

/* A module, loaded the first time it is asked for. Commands run on one
 * thread, but the picture writer runs on an export task's: once. */
static gboolean
ensure_module (Loaded      *loaded,
               GOnce       *once,
               GThreadFunc  load,
               GError     **error)
{
  g_once (once, load, loaded);
  if (loaded->module == NULL)
    {
      g_propagate_error (error, g_error_copy (loaded->error));
      return FALSE;
    }

  return TRUE;
}

/* S3 --------------------------------------------------------------------- */

static Loaded s3;
static GOnce s3_once = G_ONCE_INIT;
static S3SourceNew s3_source_new;
static S3SourceSetProgressFunc s3_source_set_progress_func;

static gpointer
load_s3 (gpointer data)
{
  const Symbol symbols[] = {
    { "smprof_s3_source_new", (gpointer *) &s3_source_new },
    { "smprof_s3_source_set_progress_func", (gpointer *) &s3_source_set_progress_func },
  };
  Loaded *loaded = data;

  loaded->module = open_module ("smprof-s3", _("S3 sources"), symbols, G_N_ELEMENTS (symbols), &loaded->error);
  return NULL;
}

/**
 * smprof_cli_new_s3_source:
 * @uri: `s3://bucket/prefix`
 * @options: (nullable): as smprof_s3_source_new() takes them
 * @error: a location for a #GError, or %NULL
 *
 * smprof_s3_source_new() from the S3 module.
 *
 * Returns: (transfer full) (nullable): the source
 */
SmprofSource *
smprof_cli_new_s3_source (const char                   *uri,
                          const SmprofS3SourceOptions  *options,
                          GError                      **error)
{
  if (!ensure_module (&s3, &s3_once, load_s3, error))
    return NULL;

  return s3_source_new (uri, options, error);
}

/**
 * smprof_cli_s3_source_set_progress_func:
 * @source: a source from smprof_cli_new_s3_source()
 * @func: (nullable): told of the source's downloads, on worker threads
 * @user_data: for @func
 * @destroy: (nullable): frees @user_data
 *
 * smprof_s3_source_set_progress_func() from the S3 module.
 */
void
smprof_cli_s3_source_set_progress_func (SmprofSource         *source,
                                        SmprofS3ProgressFunc  func,
                                        gpointer              user_data,
                                        GDestroyNotify        destroy)
{
  /* The source came from the module, which is loaded, with this symbol. */
  g_return_if_fail (s3.module != NULL);

  s3_source_set_progress_func ((SmprofS3Source *) source, func, user_data, destroy);
}

/* Pictures ----------------------------------------------------------------- */

static Loaded pictures;
static GOnce pictures_once = G_ONCE_INIT;
static WritePicture pictures_write;

static gpointer
load_pictures (gpointer data)
{
  const Symbol symbols[] = {
    { "smprof_export_write_picture", (gpointer *) &pictures_write },
  };
  Loaded *loaded = data;

  loaded->module = open_module ("smprof-pictures", _("PNG and PDF pictures"), symbols, G_N_ELEMENTS (symbols),
                                &loaded->error);
  return NULL;
}

/* The exports' one call into cairo (smprof-export-picture.h), for the
 * command line: the module's. */
gboolean
smprof_export_write_picture (SmprofFlameLayout              *layout,
                             const SmprofFlameRenderOptions *render,
                             SmprofExportFormat              format,
                             GOutputStream                  *stream,
                             GCancellable                   *cancellable,
                             GError                        **error)
{
  if (!ensure_module (&pictures, &pictures_once, load_pictures, error))
    return FALSE;

  return pictures_write (layout, render, format, stream, cancellable, error);
}
