/* smprof-export-asset.c: text files the exports inline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "smprof-export-asset.h"
#include "smprof-export-resources.h"

/**
 * _smprof_export_asset:
 * @name: a file of smprof-export.gresource.xml, such as "flame-graph.js"
 *
 * The text of @name without its licence header (every line up to the first
 * blank one), for an export to inline: the SVG's script, the report's
 * style. Kept as files so that they read as what they are, and compiled
 * into the library, so an export needs no file beside the program.
 *
 * Returns: the text, NUL-terminated, valid for the life of the program
 *   (compiled-in resources are static data)
 */
const char *
_smprof_export_asset (const char *name)
{
  g_autofree char *path = g_strconcat ("/io/github/smprof/export/", name, NULL);
  g_autoptr(GBytes) bytes = NULL;
  const char *text;
  const char *body;

  bytes = g_resource_lookup_data (smprof_export_get_resource (), path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_assert (bytes != NULL);

  /* Uncompressed resources point into the library's read-only data, so
   * the text outlives @bytes; glib-compile-resources ends each with a NUL. */
  text = g_bytes_get_data (bytes, NULL);
  body = strstr (text, "\n\n");

  return body != NULL ? body + 2 : text;
}
