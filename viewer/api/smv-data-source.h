/* smv-data-source.h: the contract between the viewer and its plugins
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#if !defined (SMV_INSIDE) && !defined (SMV_COMPILATION)
# error "Only <smprof-viewer-api.h> can be included directly."
#endif

#include <adwaita.h>

#include "smv-document.h"
#include "smv-progress.h"

G_BEGIN_DECLS

/**
 * SMV_DATA_SOURCE_EXTENSION_POINT_NAME:
 *
 * The name of the GIO extension point data sources implement, with
 * `g_io_extension_point_implement()`, from their module's `g_io_module_load()`.
 */
#define SMV_DATA_SOURCE_EXTENSION_POINT_NAME "smv-data-source"

/**
 * SmvDataSourceFlags:
 * @SMV_DATA_SOURCE_FLAGS_NONE: nothing special
 * @SMV_DATA_SOURCE_FLAGS_LOCAL_FOLDERS: the source opens local folders, so the
 *   viewer offers its folder chooser and accepts dropped folders
 *
 * What a data source can open, besides the URI schemes it lists.
 */
typedef enum
{
  SMV_DATA_SOURCE_FLAGS_NONE          = 0,
  SMV_DATA_SOURCE_FLAGS_LOCAL_FOLDERS = 1 << 0,
} SmvDataSourceFlags;

#define SMV_TYPE_DATA_SOURCE (smv_data_source_get_type ())

G_DECLARE_INTERFACE (SmvDataSource, smv_data_source, SMV, DATA_SOURCE, GObject)

/**
 * SmvDataSourceInterface:
 * @dup_name: a name for the kind of data, for a person
 * @get_flags: what the source can open, see [flags@Smv.DataSourceFlags]
 * @get_uri_schemes: the URI schemes it opens, such as `"sftp"`
 * @can_open: whether the source can open one location, from its form alone
 *   (no I/O: it runs on the main thread); the default checks the flags and
 *   the schemes
 * @open_async: opens a location; see [method@Smv.DataSource.open_async]
 * @open_finish: completes @open_async, on the main thread
 * @create_page: builds the widget for an opened document, on the main thread
 * @create_preferences_page: builds the page of the plugin's settings for the
 *   viewer's Preferences window, or %NULL; optional
 * @create_shortcuts_section: builds the section of the viewer's shortcuts
 *   window that lists the keys of the plugin's pages, or %NULL; optional
 *
 * The interface a plugin's data source implements.
 */
struct _SmvDataSourceInterface
{
  GTypeInterface parent_iface;

  char                *(*dup_name)        (SmvDataSource        *self);
  SmvDataSourceFlags   (*get_flags)       (SmvDataSource        *self);
  const char * const  *(*get_uri_schemes) (SmvDataSource        *self);
  gboolean             (*can_open)        (SmvDataSource        *self,
                                           GFile                *location);
  void                 (*open_async)      (SmvDataSource        *self,
                                           GFile                *location,
                                           SmvProgress          *progress,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
  SmvDocument         *(*open_finish)     (SmvDataSource        *self,
                                           GAsyncResult         *result,
                                           GError              **error);
  GtkWidget           *(*create_page)     (SmvDataSource        *self,
                                           SmvDocument          *document);
  AdwPreferencesPage  *(*create_preferences_page) (SmvDataSource  *self);
  GtkShortcutsSection *(*create_shortcuts_section) (SmvDataSource *self);
};

void                 smv_data_source_ensure_extension_point (void);

char                *smv_data_source_dup_name               (SmvDataSource        *self);
SmvDataSourceFlags   smv_data_source_get_flags              (SmvDataSource        *self);
const char * const  *smv_data_source_get_uri_schemes        (SmvDataSource        *self);
gboolean             smv_data_source_can_open               (SmvDataSource        *self,
                                                             GFile                *location);
void                 smv_data_source_open_async             (SmvDataSource        *self,
                                                             GFile                *location,
                                                             SmvProgress          *progress,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
SmvDocument         *smv_data_source_open_finish            (SmvDataSource        *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);
GtkWidget           *smv_data_source_create_page            (SmvDataSource        *self,
                                                             SmvDocument          *document);
gboolean             smv_data_source_has_preferences        (SmvDataSource        *self);
AdwPreferencesPage  *smv_data_source_create_preferences_page (SmvDataSource       *self);
GtkShortcutsSection *smv_data_source_create_shortcuts_section (SmvDataSource      *self);

G_END_DECLS
