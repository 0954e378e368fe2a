/* ui-types-preload.c: our types, for gtk4-builder-tool validate
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/ui/test_ui_files.py runs `gtk4-builder-tool validate` on every .ui
 * file with this library in LD_PRELOAD, so the tool meets our own widgets and
 * list items with their real classes instead of "Invalid object type":
 *
 * - its constructor registers every type our .ui files name, except the
 *   template class of the file under test (SMPROF_UI_TEMPLATE): the tool
 *   makes a bare stand-in for that one, as it does for any template;
 * - GTK 4.8's tool resolves signal handlers with dlsym(), which cannot see
 *   our static callbacks (each class binds them with
 *   gtk_widget_class_bind_template_callback()). The test reads those bound
 *   names from the class's C files into SMPROF_UI_HANDLERS, and every
 *   GtkBuilder made here knows exactly those names: a handler the class does
 *   not bind is still "No function named".
 */

#include <dlfcn.h>
#include <string.h>
#include <adwaita.h>

#include "smprof-call-tree-view.h"
#include "smprof-compare-view.h"
#include "smprof-diff-item.h"
#include "smprof-diff-table.h"
#include "smprof-flame-graph.h"
#include "smprof-flame-graph-view.h"
#include "smprof-function-item.h"
#include "smprof-function-table.h"
#include "smprof-job-page.h"
#include "smprof-node-chooser.h"
#include "smprof-node-matrix.h"
#include "smprof-node-matrix-view.h"
#include "smprof-sparkline.h"
#include "smprof-timeline.h"
#include "smprof-tree-item.h"
#include "smv-open-location-dialog.h"
#include "smv-problem.h"
#include "smv-window.h"


typedef GType (*GetType) (void);

static const struct
{
  const char *name;
  GetType     get_type;
} types[] = {
  { "SmprofCallTreeView", smprof_call_tree_view_get_type },
  { "SmprofCompareView", smprof_compare_view_get_type },
  { "SmprofDiffItem", smprof_diff_item_get_type },
  { "SmprofDiffTable", smprof_diff_table_get_type },
  { "SmprofFlameGraph", smprof_flame_graph_get_type },
  { "SmprofFlameGraphView", smprof_flame_graph_view_get_type },
  { "SmprofFunctionItem", smprof_function_item_get_type },
  { "SmprofFunctionTable", smprof_function_table_get_type },
  { "SmprofJobPage", smprof_job_page_get_type },
  { "SmprofNodeChooser", smprof_node_chooser_get_type },
  { "SmprofNodeMatrix", smprof_node_matrix_get_type },
  { "SmprofNodeMatrixView", smprof_node_matrix_view_get_type },
  { "SmprofSparkline", smprof_sparkline_get_type },
  { "SmprofTimeline", smprof_timeline_get_type },
  { "SmprofTreeItem", smprof_tree_item_get_type },
  { "SmvOpenLocationDialog", smv_open_location_dialog_get_type },
  { "SmvProblem", smv_problem_get_type },
  { "SmvWindow", smv_window_get_type },
  /* libadwaita's, which the tool does not register (no adw_init ()) */
  { "AdwActionRow", adw_action_row_get_type },
  { "AdwApplicationWindow", adw_application_window_get_type },
  { "AdwClamp", adw_clamp_get_type },
  { "AdwComboRow", adw_combo_row_get_type },
  { "AdwHeaderBar", adw_header_bar_get_type },
  { "AdwPreferencesGroup", adw_preferences_group_get_type },
  { "AdwPreferencesPage", adw_preferences_page_get_type },
  { "AdwStatusPage", adw_status_page_get_type },
  { "AdwToastOverlay", adw_toast_overlay_get_type },
  { "AdwWindowTitle", adw_window_title_get_type },
};

__attribute__((constructor)) static void
register_types (void)
{
  const char *template = g_getenv ("SMPROF_UI_TEMPLATE");

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_strcmp0 (template, types[i].name) != 0)
      g_type_ensure (types[i].get_type ());
}

/* Never called: validating builds the objects and connects their signals,
 * it emits none. */
static void
bound_handler (void)
{
  g_assert_not_reached ();
}

GtkBuilder *
gtk_builder_new (void)
{
  static GtkBuilder *(*real_new) (void);
  g_auto(GStrv) handlers = NULL;
  GtkBuilder *builder;
  GtkBuilderScope *scope;

  if (real_new == NULL)
    real_new = (GtkBuilder *(*) (void)) dlsym (RTLD_NEXT, "gtk_builder_new");
  builder = real_new ();

  scope = gtk_builder_get_scope (builder);
  handlers = g_strsplit (g_getenv ("SMPROF_UI_HANDLERS") ?: "", ",", -1);
  for (guint i = 0; handlers[i] != NULL; i++)
    if (handlers[i][0] != '\0' && GTK_IS_BUILDER_CSCOPE (scope))
      gtk_builder_cscope_add_callback_symbol (GTK_BUILDER_CSCOPE (scope), handlers[i],
                                              G_CALLBACK (bound_handler));

  return builder;
}
