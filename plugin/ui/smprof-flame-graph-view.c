/* smprof-flame-graph-view.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-flame-graph-view.h"
#include "smprof-flame-graph-view-scheme.h"
#include "smprof-ui.h"
#include "smprof-ui-format.h"

/* Crumbs shown before the path is shortened to "All › … › last ones". */
#define MAX_CRUMBS 6

struct _SmprofFlameGraphView
{
  GtkWidget          parent_instance;

  /* Template widgets */
  GtkButton         *back_button;
  GtkButton         *reset_button;
  GtkBox            *breadcrumbs;
  GtkLabel          *match_label;
  GtkSearchEntry    *search_entry;
  GtkScrolledWindow *scroller;
  SmprofFlameGraph  *flame_graph;
  GtkLabel          *details_label;
  GtkLabel          *kind_label;
};

enum {
  PROP_0,
  PROP_PROFILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofFlameGraphView, smprof_flame_graph_view, GTK_TYPE_WIDGET)

static void
back_clicked_cb (SmprofFlameGraphView *self)
{
  smprof_flame_graph_zoom_out (self->flame_graph);
}

static void
reset_clicked_cb (SmprofFlameGraphView *self)
{
  smprof_flame_graph_reset_zoom (self->flame_graph);
}

static void
search_changed_cb (SmprofFlameGraphView *self)
{
  smprof_flame_graph_set_search_text (self->flame_graph,
                                      gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
stop_search_cb (SmprofFlameGraphView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  smprof_flame_graph_set_search_text (self->flame_graph, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->flame_graph));
}

static void
update_match_label (SmprofFlameGraphView *self)
{
  const char *search = smprof_flame_graph_get_search_text (self->flame_graph);
  g_autofree char *percent = NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->match_label), search != NULL);
  if (search == NULL)
    return;

  percent = smprof_ui_format_percent (smprof_flame_graph_get_matched_fraction (self->flame_graph));
  /* Translators: the share of the flame graph's time in frames matching the search */
  text = g_strdup_printf (_("Matched: %s"), percent);
  gtk_label_set_label (self->match_label, text);
}

static void
update_details (SmprofFlameGraphView *self)
{
  guint32 node = smprof_flame_graph_get_selected_node (self->flame_graph);
  g_autofree char *details = NULL;

  if (node != SMPROF_CALL_TREE_NONE)
    details = smprof_flame_graph_dup_node_details (self->flame_graph, node);

  gtk_label_set_label (self->details_label,
                       details != NULL ? details
                                       : _("Click a frame to zoom into it; arrows move between frames"));
}

static void
crumb_clicked_cb (GtkButton            *button,
                  SmprofFlameGraphView *self)
{
  guint32 node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "smprof-node"));

  smprof_flame_graph_zoom_to_node (self->flame_graph, node);
}

static void
add_crumb (SmprofFlameGraphView *self,
           SmprofCallTree       *tree,
           guint32               node,
           gboolean              current)
{
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  guint32             func = smprof_call_tree_get_node (tree, node)->func;
  g_autofree char *name = node == SMPROF_CALL_TREE_ROOT ? g_strdup (_("All")) : smprof_ui_dup_func_name (table, func);
  GtkWidget *label = gtk_label_new (name);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 28);

  if (gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumbs)) != NULL)
    {
      GtkWidget *separator = gtk_label_new ("›");

      gtk_widget_add_css_class (separator, "dim-label");
      gtk_box_append (self->breadcrumbs, separator);
    }

  if (current)
    {
      gtk_widget_add_css_class (label, "heading");
      gtk_widget_set_margin_start (label, 6);
      gtk_box_append (self->breadcrumbs, label);
    }
  else
    {
      GtkWidget *button = gtk_button_new ();
      g_autofree char *tooltip = smprof_flame_graph_dup_node_details (self->flame_graph, node);

      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_button_set_has_frame (GTK_BUTTON (button), FALSE);
      gtk_widget_set_tooltip_text (button, node == SMPROF_CALL_TREE_ROOT ? _("Show the whole tree") : tooltip);
      g_object_set_data (G_OBJECT (button), "smprof-node", GUINT_TO_POINTER (node));
      g_signal_connect_object (button, "clicked", G_CALLBACK (crumb_clicked_cb), self, 0);
      gtk_box_append (self->breadcrumbs, button);
    }
}

static void
update_breadcrumbs (SmprofFlameGraphView *self)
{
  SmprofProfile *profile = smprof_flame_graph_get_profile (self->flame_graph);
  guint32 zoom = smprof_flame_graph_get_zoom_node (self->flame_graph);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  SmprofCallTree *tree;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumbs))) != NULL)
    gtk_box_remove (self->breadcrumbs, child);

  if (profile == NULL)
    return;

  tree = smprof_profile_get_call_tree (profile);
  for (guint32 node = zoom; node != SMPROF_CALL_TREE_ROOT; node = smprof_call_tree_get_node (tree, node)->parent)
    g_array_prepend_val (path, node);

  add_crumb (self, tree, SMPROF_CALL_TREE_ROOT, path->len == 0);

  for (guint i = 0; i < path->len; i++)
    {
      if (path->len > MAX_CRUMBS && i == 0)
        {
          GtkWidget *ellipsis = gtk_label_new ("› …");

          gtk_widget_add_css_class (ellipsis, "dim-label");
          gtk_box_append (self->breadcrumbs, ellipsis);
          i = path->len - MAX_CRUMBS;
        }

      add_crumb (self, tree, g_array_index (path, guint32, i), i + 1 == path->len);
    }
}

static void
zoom_changed_cb (SmprofFlameGraphView *self)
{
  update_breadcrumbs (self);
  smprof_ui_scroll_to_end (self->scroller);
}

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SmprofFlameGraphView *self = SMPROF_FLAME_GRAPH_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
smprof_flame_graph_view_dispose (GObject *object)
{
  SmprofFlameGraphView *self = SMPROF_FLAME_GRAPH_VIEW (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), SMPROF_TYPE_FLAME_GRAPH_VIEW);
  /* Template children without a bound field are not unparented for us. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (smprof_flame_graph_view_parent_class)->dispose (object);
}

static void
smprof_flame_graph_view_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  SmprofFlameGraphView *self = SMPROF_FLAME_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, smprof_flame_graph_view_get_profile (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_flame_graph_view_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  SmprofFlameGraphView *self = SMPROF_FLAME_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      smprof_flame_graph_view_set_profile (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_flame_graph_view_class_init (SmprofFlameGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_flame_graph_view_dispose;
  object_class->get_property = smprof_flame_graph_view_get_property;
  object_class->set_property = smprof_flame_graph_view_set_property;

  /**
   * SmprofFlameGraphView:profile:
   *
   * The aggregated selection whose flame graph is shown.
   */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         SMPROF_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  smprof_ui_ensure_resources ();
  g_type_ensure (SMPROF_TYPE_FLAME_GRAPH);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/smprof/Viewer/plugins/sagemaker/smprof-flame-graph-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, back_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, reset_button);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, breadcrumbs);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, match_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, scroller);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, details_label);
  gtk_widget_class_bind_template_child (widget_class, SmprofFlameGraphView, kind_label);
  gtk_widget_class_bind_template_callback (widget_class, back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, update_match_label);
  gtk_widget_class_bind_template_callback (widget_class, update_details);

  gtk_widget_class_install_action (widget_class, "flamegraph-view.search", NULL, focus_search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "flamegraph-view.search", NULL);

  gtk_widget_class_set_css_name (widget_class, "smprofflameview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
smprof_flame_graph_view_init (SmprofFlameGraphView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The root row is at the bottom: keep it in view when the graph grows or
   * shrinks, unless the user scrolled away from it. */
  smprof_ui_follow_scroll_end (self->scroller);

  _smprof_flame_graph_view_scheme_init (GTK_WIDGET (self), self->flame_graph);

  update_details (self);
  update_breadcrumbs (self);
}

GtkWidget *
smprof_flame_graph_view_new (void)
{
  return g_object_new (SMPROF_TYPE_FLAME_GRAPH_VIEW, NULL);
}

SmprofProfile *
smprof_flame_graph_view_get_profile (SmprofFlameGraphView *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH_VIEW (self), NULL);

  return smprof_flame_graph_get_profile (self->flame_graph);
}

/**
 * smprof_flame_graph_view_set_profile:
 * @self: a flame graph view
 * @profile: (nullable): the profile to draw
 *
 * Draws @profile, unzoomed, with the current search applied, and says
 * whether its tree is estimated (cProfile) or sampled (Pyinstrument).
 */
void
smprof_flame_graph_view_set_profile (SmprofFlameGraphView *self,
                                     SmprofProfile        *profile)
{
  g_return_if_fail (SMPROF_IS_FLAME_GRAPH_VIEW (self));
  g_return_if_fail (profile == NULL || SMPROF_IS_PROFILE (profile));

  if (profile == smprof_flame_graph_get_profile (self->flame_graph))
    return;

  smprof_flame_graph_set_profile (self->flame_graph, profile);

  if (profile == NULL)
    gtk_label_set_label (self->kind_label, "");
  else if (smprof_profile_is_estimated (profile))
    gtk_label_set_label (self->kind_label, _("Estimated from cProfile’s call graph"));
  else
    gtk_label_set_label (self->kind_label, _("Sampled by Pyinstrument"));

  zoom_changed_cb (self);
  update_details (self);
  update_match_label (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

/**
 * smprof_flame_graph_view_get_flame_graph:
 * @self: a flame graph view
 *
 * Returns: (transfer none): the flame graph, for its zoom and search API
 */
SmprofFlameGraph *
smprof_flame_graph_view_get_flame_graph (SmprofFlameGraphView *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH_VIEW (self), NULL);

  return self->flame_graph;
}

/**
 * smprof_flame_graph_view_get_search_entry:
 * @self: a flame graph view
 *
 * Returns: (transfer none): the search entry bound to the flame graph
 */
GtkSearchEntry *
smprof_flame_graph_view_get_search_entry (SmprofFlameGraphView *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH_VIEW (self), NULL);

  return self->search_entry;
}
