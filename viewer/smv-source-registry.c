/* smv-source-registry.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <string.h>

#include "smv-source-registry.h"

/* Loads data-source plugins the way GTK 4 loads its media and print backends:
 * a GIO extension point, and GIO modules scanned in a list of folders. Plugins
 * stay loaded for the life of the process (they pin themselves), so one
 * registry per process is the normal use. */
struct _SmvSourceRegistry
{
  GObject      parent_instance;

  char       **dirs;
  GListStore  *sources;   /* SmvDataSource, highest priority first */
};

G_DEFINE_FINAL_TYPE (SmvSourceRegistry, smv_source_registry, G_TYPE_OBJECT)

static void
smv_source_registry_dispose (GObject *object)
{
  SmvSourceRegistry *self = SMV_SOURCE_REGISTRY (object);

  g_clear_object (&self->sources);

  G_OBJECT_CLASS (smv_source_registry_parent_class)->dispose (object);
}

static void
smv_source_registry_finalize (GObject *object)
{
  SmvSourceRegistry *self = SMV_SOURCE_REGISTRY (object);

  g_clear_pointer (&self->dirs, g_strfreev);

  G_OBJECT_CLASS (smv_source_registry_parent_class)->finalize (object);
}

static void
smv_source_registry_class_init (SmvSourceRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = smv_source_registry_dispose;
  object_class->finalize = smv_source_registry_finalize;
}

static void
smv_source_registry_init (SmvSourceRegistry *self)
{
  self->sources = g_list_store_new (SMV_TYPE_DATA_SOURCE);
}

static void
add_flatpak_dirs (GStrvBuilder *builder)
{
  const char *merged = "/app/extensions/lib/smprof-viewer/plugins";
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    return;

  /* The manifest's extension point merges every extension's
   * lib/smprof-viewer/plugins here (merge-dirs); an extension mounted
   * without merging keeps it under its own folder. */
  g_strv_builder_add (builder, merged);

  dir = g_dir_open ("/app/extensions", 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/app/extensions", name, "lib", "smprof-viewer", "plugins", NULL);

      if (strcmp (name, "lib") != 0 && g_file_test (path, G_FILE_TEST_IS_DIR))
        g_strv_builder_add (builder, path);
    }
}

/**
 * smv_source_registry_dup_default_dirs:
 *
 * The folders the viewer loads plugins from, first match winning when two hold
 * a module of the same name: each folder of `SMPROF_VIEWER_PLUGIN_PATH`
 * (colon-separated; for tests and development builds), then the installed
 * plugin folder (`$libdir/smprof-viewer/plugins`), then, inside Flatpak, the
 * extension folders (`/app/extensions/lib/smprof-viewer/plugins` and
 * `/app/extensions/NAME/lib/smprof-viewer/plugins`).
 *
 * Returns: (transfer full): the folders, in search order
 */
char **
smv_source_registry_dup_default_dirs (void)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *env = g_getenv (SMV_PLUGIN_PATH_ENV);

  if (env != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, 0);

      for (guint i = 0; parts[i] != NULL; i++)
        if (parts[i][0] != '\0')
          g_strv_builder_add (builder, parts[i]);
    }

  g_strv_builder_add (builder, SMV_PLUGIN_DIR);
  add_flatpak_dirs (builder);

  return g_strv_builder_end (builder);
}

static int
compare_priority (gconstpointer a,
                  gconstpointer b)
{
  GIOExtension *x = *(GIOExtension * const *) a;
  GIOExtension *y = *(GIOExtension * const *) b;

  return g_io_extension_get_priority (y) - g_io_extension_get_priority (x);
}

/**
 * smv_source_registry_new:
 * @dirs: the folders to scan for plugins, in search order
 *
 * Registers the data-source extension point, loads the plugins found in @dirs
 * and creates one data source per implementation, highest priority first.
 * Modules are pinned by the plugins themselves: GIO modules are never unloaded.
 *
 * Returns: (transfer full): a registry
 */
SmvSourceRegistry *
smv_source_registry_new (const char * const *dirs)
{
  SmvSourceRegistry *self;
  GIOExtensionPoint *point;
  GIOModuleScope *scope;
  g_autoptr(GPtrArray) extensions = g_ptr_array_new ();

  g_return_val_if_fail (dirs != NULL, NULL);

  self = g_object_new (SMV_TYPE_SOURCE_REGISTRY, NULL);
  self->dirs = g_strdupv ((char **) dirs);

  smv_data_source_ensure_extension_point ();
  point = g_io_extension_point_lookup (SMV_DATA_SOURCE_EXTENSION_POINT_NAME);

  scope = g_io_module_scope_new (G_IO_MODULE_SCOPE_BLOCK_DUPLICATES);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      if (!g_file_test (dirs[i], G_FILE_TEST_IS_DIR))
        continue;

      g_debug ("Scanning %s for plugins", dirs[i]);
      g_io_modules_scan_all_in_directory_with_scope (dirs[i], scope);
    }
  g_io_module_scope_free (scope);

  for (GList *l = g_io_extension_point_get_extensions (point); l != NULL; l = l->next)
    g_ptr_array_add (extensions, l->data);
  g_ptr_array_sort (extensions, compare_priority);

  for (guint i = 0; i < extensions->len; i++)
    {
      GIOExtension *extension = g_ptr_array_index (extensions, i);
      GType type = g_io_extension_get_type (extension);
      g_autoptr(GObject) source = NULL;

      if (type == G_TYPE_INVALID || !g_type_is_a (type, SMV_TYPE_DATA_SOURCE))
        {
          g_warning ("Plugin extension “%s” is not a data source, ignored",
                     g_io_extension_get_name (extension));
          continue;
        }

      source = g_object_new (type, NULL);
      g_debug ("Data source “%s” (%s)", g_io_extension_get_name (extension), G_OBJECT_TYPE_NAME (source));
      g_list_store_append (self->sources, source);
    }

  return self;
}

/**
 * smv_source_registry_get_dirs:
 * @self: a registry
 *
 * Returns: (transfer none): the folders that were scanned for plugins
 */
const char * const *
smv_source_registry_get_dirs (SmvSourceRegistry *self)
{
  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (self), NULL);

  return (const char * const *) self->dirs;
}

/**
 * smv_source_registry_get_sources:
 * @self: a registry
 *
 * Returns: (transfer none): the [iface@Smv.DataSource]s, highest priority first
 */
GListModel *
smv_source_registry_get_sources (SmvSourceRegistry *self)
{
  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (self), NULL);

  return G_LIST_MODEL (self->sources);
}

guint
smv_source_registry_get_n_sources (SmvSourceRegistry *self)
{
  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->sources));
}

/**
 * smv_source_registry_opens_folders:
 * @self: a registry
 *
 * Returns: whether some data source opens local folders
 */
gboolean
smv_source_registry_opens_folders (SmvSourceRegistry *self)
{
  guint n;

  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->sources));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SmvDataSource) source = g_list_model_get_item (G_LIST_MODEL (self->sources), i);

      if (smv_data_source_get_flags (source) & SMV_DATA_SOURCE_FLAGS_LOCAL_FOLDERS)
        return TRUE;
    }

  return FALSE;
}

/**
 * smv_source_registry_dup_uri_schemes:
 * @self: a registry
 *
 * Returns: (transfer full): every URI scheme some data source opens, once each
 */
char **
smv_source_registry_dup_uri_schemes (SmvSourceRegistry *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n;

  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->sources));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SmvDataSource) source = g_list_model_get_item (G_LIST_MODEL (self->sources), i);
      const char * const *schemes = smv_data_source_get_uri_schemes (source);

      for (guint j = 0; schemes != NULL && schemes[j] != NULL; j++)
        if (g_hash_table_add (seen, (gpointer) schemes[j]))
          g_strv_builder_add (builder, schemes[j]);
    }

  return g_strv_builder_end (builder);
}

/**
 * smv_source_registry_find_for:
 * @self: a registry
 * @location: a folder or a URI
 *
 * Returns: (transfer none) (nullable): the first data source, in priority
 *   order, that can open @location
 */
SmvDataSource *
smv_source_registry_find_for (SmvSourceRegistry *self,
                              GFile             *location)
{
  guint n;

  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (self), NULL);
  g_return_val_if_fail (G_IS_FILE (location), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->sources));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SmvDataSource) source = g_list_model_get_item (G_LIST_MODEL (self->sources), i);

      if (smv_data_source_can_open (source, location))
        return source;   /* the store keeps its reference */
    }

  return NULL;
}
