/* smprof-plugin-module.c: the GIO module entry points, and nothing else
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include <smprof-viewer-api.h>

#include "smprof-sagemaker-source.h"

/* The core's own messages (problems found while indexing and reading files)
 * use the command line's domain. */
#define CORE_GETTEXT_PACKAGE "smprof"

/* The installed catalogues, or those of an uninstalled build's po/locale
 * when SMPROF_LOCALEDIR names it (the tests and `meson devenv` do). */
static const char *
get_localedir (void)
{
  const char *localedir = g_getenv ("SMPROF_LOCALEDIR");

  return localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR;
}

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  /* The types are static (the core's GObjects too), the UI resources are
   * registered from a constructor: the module must never be unloaded. */
  g_type_module_use (G_TYPE_MODULE (module));

  /* A module binds its domains; it never calls textdomain() or setlocale(). */
  bindtextdomain (GETTEXT_PACKAGE, get_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  bindtextdomain (CORE_GETTEXT_PACKAGE, get_localedir ());
  bind_textdomain_codeset (CORE_GETTEXT_PACKAGE, "UTF-8");

  smv_data_source_ensure_extension_point ();
  g_io_extension_point_implement (SMV_DATA_SOURCE_EXTENSION_POINT_NAME,
                                  SMPROF_TYPE_SAGEMAKER_SOURCE,
                                  "sagemaker",
                                  10);
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
  /* Never reached: g_io_module_load() keeps the module in use. */
}

/* Called by gio-querymodules, outside the viewer: touch nothing else. */
G_MODULE_EXPORT char **
g_io_module_query (void)
{
  char *extension_points[] = { (char *) SMV_DATA_SOURCE_EXTENSION_POINT_NAME, NULL };

  return g_strdupv (extension_points);
}
