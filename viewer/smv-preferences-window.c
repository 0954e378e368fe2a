/* smv-preferences-window.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-preferences-window.h"

/* The viewer itself has nothing for the user to set (it remembers its window
 * size and recent jobs by itself): the window holds one page per data source
 * that has settings, built by the plugin (SmvDataSource's
 * create_preferences_page) and bound to the plugin's own schema. With one
 * page, AdwPreferencesWindow shows no tabs; with several, each page's title
 * names its tab. Escape closes the window (AdwPreferencesWindow's own key). */
struct _SmvPreferencesWindow
{
  AdwPreferencesWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (SmvPreferencesWindow, smv_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static void
smv_preferences_window_class_init (SmvPreferencesWindowClass *klass)
{
}

static void
smv_preferences_window_init (SmvPreferencesWindow *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
}

/**
 * smv_preferences_window_has_pages:
 * @registry: the data sources
 *
 * Returns: whether some data source has settings to show
 */
gboolean
smv_preferences_window_has_pages (SmvSourceRegistry *registry)
{
  GListModel *sources;

  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (registry), FALSE);

  sources = smv_source_registry_get_sources (registry);
  for (guint i = 0; i < g_list_model_get_n_items (sources); i++)
    {
      g_autoptr(SmvDataSource) source = g_list_model_get_item (sources, i);

      if (smv_data_source_has_preferences (source))
        return TRUE;
    }

  return FALSE;
}

/**
 * smv_preferences_window_new:
 * @parent: (nullable): the window it belongs to
 * @registry: the data sources whose pages it shows
 *
 * Returns: (transfer none): a new preferences window, not shown yet
 */
GtkWidget *
smv_preferences_window_new (GtkWindow         *parent,
                            SmvSourceRegistry *registry)
{
  SmvPreferencesWindow *self;
  GListModel *sources;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (SMV_IS_SOURCE_REGISTRY (registry), NULL);

  self = g_object_new (SMV_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       "destroy-with-parent", TRUE,
                       NULL);

  sources = smv_source_registry_get_sources (registry);
  for (guint i = 0; i < g_list_model_get_n_items (sources); i++)
    {
      g_autoptr(SmvDataSource) source = g_list_model_get_item (sources, i);
      AdwPreferencesPage *page = smv_data_source_create_preferences_page (source);

      if (page != NULL)
        adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), page);
    }

  return GTK_WIDGET (self);
}
