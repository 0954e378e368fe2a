/* smprof-flame-graph-view-scheme.c: the flame graph view's "Colors" menu, tied to
 * the plugin's setting
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-flame-graph-view-scheme.h"
#include "smprof-ui-settings.h"

#define COLOR_SCHEME_KEY "flame-graph-color-scheme"

/**
 * _smprof_flame_graph_view_scheme_init:
 * @view: the widget whose menu offers the schemes
 * @graph: the flame graph to colour
 *
 * Adds the stateful action `flame.color-scheme` (a string: "default",
 * "module", "colorblind") to @view. It sets @graph's color-scheme property,
 * which follows the plugin's flame-graph-color-scheme setting both ways when
 * the plugin's schema is installed, so every flame graph and every later
 * session agree; without the schema the choice lasts as long as @graph.
 */
void
_smprof_flame_graph_view_scheme_init (GtkWidget        *view,
                                      SmprofFlameGraph *graph)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GPropertyAction) action = NULL;
  g_autoptr(GSettings) settings = smprof_ui_settings_new (NULL);

  g_return_if_fail (GTK_IS_WIDGET (view));
  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (graph));

  if (settings != NULL)
    g_settings_bind (settings, COLOR_SCHEME_KEY, graph, "color-scheme", G_SETTINGS_BIND_DEFAULT);

  action = g_property_action_new ("color-scheme", graph, "color-scheme");
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  gtk_widget_insert_action_group (view, "flame", G_ACTION_GROUP (group));
}
