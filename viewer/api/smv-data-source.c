/* smv-data-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-viewer-api.h"

/**
 * SmvDataSource:
 *
 * A kind of data the viewer can open, provided by a plugin.
 *
 * A plugin is a GIO module (a `lib*.so` exporting `g_io_module_load()`,
 * `g_io_module_unload()` and `g_io_module_query()`) that implements the
 * [const@Smv.DATA_SOURCE_EXTENSION_POINT_NAME] extension point with a type
 * implementing this interface:
 *
 * ```c
 * G_MODULE_EXPORT void
 * g_io_module_load (GIOModule *module)
 * {
 *   g_type_module_use (G_TYPE_MODULE (module));   // stay resident
 *   g_io_extension_point_implement (SMV_DATA_SOURCE_EXTENSION_POINT_NAME,
 *                                   MY_TYPE_SOURCE, "my-source", 10);
 * }
 * ```
 *
 * The viewer creates one instance of each implementation (higher priorities
 * first) and asks each, in turn, whether it [method@Smv.DataSource.can_open]
 * what the user chose. Opening follows Sysprof's rule: the work that reads
 * and extracts runs on worker threads in [method@Smv.DataSource.open_async],
 * while [method@Smv.DataSource.open_finish] and
 * [method@Smv.DataSource.create_page] run on the main thread, where widgets
 * are built.
 */

G_DEFINE_INTERFACE (SmvDataSource, smv_data_source, G_TYPE_OBJECT)

/* By the location's form alone: a local path when the source opens local
 * folders, or one of its URI schemes. */
static gboolean
smv_data_source_real_can_open (SmvDataSource *self,
                               GFile         *location)
{
  const char * const *schemes = smv_data_source_get_uri_schemes (self);

  if (g_file_is_native (location))
    return (smv_data_source_get_flags (self) & SMV_DATA_SOURCE_FLAGS_LOCAL_FOLDERS) != 0;

  for (guint i = 0; schemes != NULL && schemes[i] != NULL; i++)
    if (g_file_has_uri_scheme (location, schemes[i]))
      return TRUE;

  return FALSE;
}

static void
smv_data_source_default_init (SmvDataSourceInterface *iface)
{
  iface->can_open = smv_data_source_real_can_open;
}

/**
 * smv_data_source_ensure_extension_point:
 *
 * Registers the [const@Smv.DATA_SOURCE_EXTENSION_POINT_NAME] extension point,
 * requiring [iface@Smv.DataSource], if nobody did yet. The viewer calls it
 * before it loads plugins; tests that load a plugin by hand call it too.
 */
void
smv_data_source_ensure_extension_point (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      GIOExtensionPoint *point = g_io_extension_point_lookup (SMV_DATA_SOURCE_EXTENSION_POINT_NAME);

      if (point == NULL)
        point = g_io_extension_point_register (SMV_DATA_SOURCE_EXTENSION_POINT_NAME);
      g_io_extension_point_set_required_type (point, SMV_TYPE_DATA_SOURCE);

      g_once_init_leave (&initialized, 1);
    }
}

/**
 * smv_data_source_dup_name:
 * @self: a data source
 *
 * Returns: (transfer full): a name for the kind of data @self opens, for a
 *   person, such as "SageMaker Debugger profiles"
 */
char *
smv_data_source_dup_name (SmvDataSource *self)
{
  SmvDataSourceInterface *iface;

  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), NULL);

  iface = SMV_DATA_SOURCE_GET_IFACE (self);
  if (iface->dup_name != NULL)
    return iface->dup_name (self);

  return g_strdup (G_OBJECT_TYPE_NAME (self));
}

/**
 * smv_data_source_get_flags:
 * @self: a data source
 *
 * Returns: what @self opens besides its URI schemes
 */
SmvDataSourceFlags
smv_data_source_get_flags (SmvDataSource *self)
{
  SmvDataSourceInterface *iface;

  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), SMV_DATA_SOURCE_FLAGS_NONE);

  iface = SMV_DATA_SOURCE_GET_IFACE (self);
  if (iface->get_flags != NULL)
    return iface->get_flags (self);

  return SMV_DATA_SOURCE_FLAGS_NONE;
}

/**
 * smv_data_source_get_uri_schemes:
 * @self: a data source
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the URI
 *   schemes @self opens, such as `"sftp"`, or %NULL for none
 */
const char * const *
smv_data_source_get_uri_schemes (SmvDataSource *self)
{
  SmvDataSourceInterface *iface;

  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), NULL);

  iface = SMV_DATA_SOURCE_GET_IFACE (self);
  if (iface->get_uri_schemes != NULL)
    return iface->get_uri_schemes (self);

  return NULL;
}

/**
 * smv_data_source_can_open:
 * @self: a data source
 * @location: a local folder, or a URI as a #GFile (for schemes GIO does not
 *   handle, `g_file_new_for_uri()` keeps the URI for `g_file_get_uri()`)
 *
 * Says whether @self can open @location, from its form alone: its URI scheme,
 * or that it is a local path. It runs on the main thread, while the user
 * types a location, so it must not touch the file system or the network: a
 * folder on a slow network mount would freeze the viewer. Whether the folder
 * exists and holds what @self reads is found out by
 * [method@Smv.DataSource.open_async], on a worker thread, which fails with
 * an error that says what is missing. The default accepts local paths when
 * @self opens local folders, and the URIs of its schemes.
 *
 * Returns: %TRUE if [method@Smv.DataSource.open_async] should be tried
 */
gboolean
smv_data_source_can_open (SmvDataSource *self,
                          GFile         *location)
{
  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (location), FALSE);

  return SMV_DATA_SOURCE_GET_IFACE (self)->can_open (self, location);
}

/**
 * smv_data_source_open_async:
 * @self: a data source
 * @location: what to open, for which [method@Smv.DataSource.can_open]
 *   returned %TRUE
 * @progress: where to report progress; see [method@Smv.Progress.report]
 * @cancellable: (nullable): a #GCancellable; when it is cancelled, stop
 *   quickly and complete with %G_IO_ERROR_CANCELLED
 * @callback: (scope async): called on the caller's main context when done
 * @user_data: data for @callback
 *
 * Opens @location. Read and extract on worker threads; build no widget here.
 * Files that cannot be used are skipped and become problems of the document;
 * only a location that cannot be opened at all is an error.
 */
void
smv_data_source_open_async (SmvDataSource       *self,
                            GFile               *location,
                            SmvProgress         *progress,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (SMV_IS_DATA_SOURCE (self));
  g_return_if_fail (G_IS_FILE (location));
  g_return_if_fail (SMV_IS_PROGRESS (progress));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  SMV_DATA_SOURCE_GET_IFACE (self)->open_async (self, location, progress, cancellable, callback, user_data);
}

/**
 * smv_data_source_open_finish:
 * @self: a data source
 * @result: the result given to the callback
 * @error: a location for a #GError, or %NULL
 *
 * Completes [method@Smv.DataSource.open_async]. Called on the main thread.
 *
 * Returns: (transfer full) (nullable): the opened document, or %NULL with
 *   @error set
 */
SmvDocument *
smv_data_source_open_finish (SmvDataSource  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return SMV_DATA_SOURCE_GET_IFACE (self)->open_finish (self, result, error);
}

/**
 * smv_data_source_create_page:
 * @self: a data source
 * @document: a document @self opened
 *
 * Builds the widget the viewer shows for @document, on the main thread. The
 * page may keep computing in the background (with its own cancellables, which
 * it cancels when disposed) and add problems to @document as it finds them.
 *
 * Returns: (transfer floating): the page
 */
GtkWidget *
smv_data_source_create_page (SmvDataSource *self,
                             SmvDocument   *document)
{
  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), NULL);
  g_return_val_if_fail (SMV_IS_DOCUMENT (document), NULL);

  return SMV_DATA_SOURCE_GET_IFACE (self)->create_page (self, document);
}

/**
 * smv_data_source_has_preferences:
 * @self: a data source
 *
 * Returns: whether @self has settings to show in the viewer's Preferences
 *   window, that is, implements `create_preferences_page`
 */
gboolean
smv_data_source_has_preferences (SmvDataSource *self)
{
  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), FALSE);

  return SMV_DATA_SOURCE_GET_IFACE (self)->create_preferences_page != NULL;
}

/**
 * smv_data_source_create_preferences_page:
 * @self: a data source
 *
 * Builds the page of @self's settings, on the main thread, each time the
 * viewer's Preferences window opens. A plugin keeps its settings in its own
 * GSettings schema (the viewer's holds only the viewer's own: window size,
 * recent jobs) and binds the page's rows to its keys, so a change applies at
 * once and the window only closes. The page's title and icon name its tab
 * when several plugins have settings.
 *
 * Returns: (transfer floating) (nullable): the page, or %NULL when @self has
 *   no settings
 */
AdwPreferencesPage *
smv_data_source_create_preferences_page (SmvDataSource *self)
{
  SmvDataSourceInterface *iface;

  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), NULL);

  iface = SMV_DATA_SOURCE_GET_IFACE (self);
  if (iface->create_preferences_page == NULL)
    return NULL;

  return iface->create_preferences_page (self);
}

/**
 * smv_data_source_create_shortcuts_section:
 * @self: a data source
 *
 * Builds the section of the viewer's shortcuts window (Ctrl+?) that lists
 * the keys of @self's pages, on the main thread, once per window. Build it
 * from a .ui file in the plugin's own gettext domain, so its titles are
 * translated with the plugin.
 *
 * Returns: (transfer full) (nullable): the section, or %NULL when @self's
 *   pages have no keys to list
 */
GtkShortcutsSection *
smv_data_source_create_shortcuts_section (SmvDataSource *self)
{
  SmvDataSourceInterface *iface;

  g_return_val_if_fail (SMV_IS_DATA_SOURCE (self), NULL);

  iface = SMV_DATA_SOURCE_GET_IFACE (self);
  if (iface->create_shortcuts_section == NULL)
    return NULL;

  return iface->create_shortcuts_section (self);
}
