/* smprof-flame-graph.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>

#include "smprof-export-enums.h"
#include "smprof-flame-graph-private.h"
#include "smprof-ui-format.h"

#define ROW_HEIGHT       SMPROF_FLAME_GRAPH_ROW_HEIGHT
/* Frames narrower than this share of the zoomed frame are under a pixel on
 * any screen: the layout leaves them out, so huge trees stay cheap. */
#define LAYOUT_MIN_WIDTH (1.0 / 16384)

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_ZOOM_NODE,
  PROP_CAN_ZOOM_OUT,
  PROP_SEARCH_TEXT,
  PROP_MATCHED_FRACTION,
  PROP_SELECTED_NODE,
  PROP_COLOR_SCHEME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofFlameGraph, smprof_flame_graph, GTK_TYPE_WIDGET)

SmprofCallTree *
_smprof_flame_graph_get_tree (SmprofFlameGraph *self)
{
  if (self->diff != NULL)
    return smprof_diff_get_tree (self->diff);

  return self->profile != NULL ? smprof_profile_get_call_tree (self->profile) : NULL;
}

static guint32
get_zoom_node (SmprofFlameGraph *self)
{
  return self->layout != NULL ? smprof_flame_layout_get_zoom_node (self->layout) : SMPROF_CALL_TREE_ROOT;
}

void
_smprof_flame_graph_invalidate_render (SmprofFlameGraph *self)
{
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  self->rendered_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
smprof_flame_graph_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 600;
    }
  else
    {
      guint rows = self->layout != NULL ? smprof_flame_layout_get_depth (self->layout) : 0;

      *minimum = *natural = MAX (rows, 3u) * ROW_HEIGHT;
    }
}

static void
smprof_flame_graph_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);

  /* The context menu, a popover, goes with the frame it points to. */
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      gtk_popover_present (GTK_POPOVER (child));

  if (width == self->rendered_width && height == self->rendered_height)
    return;

  self->rendered_width = width;
  self->rendered_height = height;
  self->hover_rect = -1;
  _smprof_flame_graph_invalidate_render (self);
}

static void
smprof_flame_graph_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (smprof_flame_graph_parent_class)->css_changed (widget, change);

  if (_smprof_flame_graph_update_dark (self))
    _smprof_flame_graph_invalidate_render (self);
}

static void
smprof_flame_graph_system_setting_changed (GtkWidget        *widget,
                                           GtkSystemSetting  setting)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (smprof_flame_graph_parent_class)->system_setting_changed (widget, setting);

  /* Labels were measured with the old font. */
  _smprof_flame_graph_invalidate_render (self);
}

static void
smprof_flame_graph_state_flags_changed (GtkWidget     *widget,
                                        GtkStateFlags  previous)
{
  GTK_WIDGET_CLASS (smprof_flame_graph_parent_class)->state_flags_changed (widget, previous);

  /* The keyboard focus ring comes and goes with :focus-visible. */
  gtk_widget_queue_draw (widget);
}

/* "name", "file:line", "Total: …", "Self: …" lines. */
char *
_smprof_flame_graph_dup_details (SmprofFlameGraph *self,
                                 guint32           node,
                                 gboolean          markup)
{
  SmprofCallTree *tree = _smprof_flame_graph_get_tree (self);
  SmprofFunctionKeys *table;
  const SmprofCallTreeNode *entry;
  double root_total;
  g_autofree char *name = NULL;
  g_autofree char *location = NULL;
  g_autofree char *total = NULL;
  g_autofree char *self_time = NULL;
  g_autofree char *total_percent = NULL;
  g_autofree char *self_percent = NULL;
  g_autofree char *head = NULL;

  if (tree == NULL || node >= smprof_call_tree_get_n_nodes (tree))
    return NULL;

  table = smprof_call_tree_get_table (tree);
  entry = smprof_call_tree_get_node (tree, node);
  root_total = smprof_call_tree_get_node (tree, SMPROF_CALL_TREE_ROOT)->total;

  name = smprof_ui_dup_func_name (table, entry->func);
  location = smprof_ui_dup_func_location (table, entry->func);
  total = smprof_ui_format_duration (entry->total);
  self_time = smprof_ui_format_duration (entry->self);
  total_percent = smprof_ui_format_percent (root_total > 0 ? entry->total / root_total : 0);
  self_percent = smprof_ui_format_percent (root_total > 0 ? entry->self / root_total : 0);

  if (markup)
    head = location[0] != '\0'
           ? g_markup_printf_escaped ("<b>%s</b>\n%s\n", name, location)
           : g_markup_printf_escaped ("<b>%s</b>\n", name);
  else
    head = location[0] != '\0' ? g_strdup_printf ("%s — %s — ", name, location)
                               : g_strdup_printf ("%s — ", name);

  if (self->diff != NULL)
    return _smprof_flame_graph_diff_dup_details (self, node, head, markup);

  /* Translators: a frame's time with its share of the whole profile, as in
   * "Total: 1.23 s (45.6 %) · Self: 12 ms (0.5 %)" */
  return g_strdup_printf (markup ? _("%sTotal: %s (%s)\nSelf: %s (%s)") : _("%sTotal: %s (%s) · Self: %s (%s)"),
                          head, total, total_percent, self_time, self_percent);
}

void
_smprof_flame_graph_set_hover_rect (SmprofFlameGraph *self,
                                    int               index)
{
  if (index == self->hover_rect)
    return;

  self->hover_rect = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_smprof_flame_graph_select_rect (SmprofFlameGraph *self,
                                 int               index)
{
  guint32 node = index >= 0 ? smprof_flame_layout_get_rect (self->layout, index)->node : SMPROF_CALL_TREE_NONE;

  self->selected_rect = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (node != self->selected_node)
    {
      g_autofree char *details = index >= 0 ? _smprof_flame_graph_dup_details (self, node, FALSE) : NULL;

      self->selected_node = node;
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, details != NULL ? details : "",
                                      -1);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "flamegraph.zoom-in", index >= 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
    }
}

static void
update_matches (SmprofFlameGraph *self)
{
  double fraction = 0;

  g_clear_pointer (&self->is_matched, g_array_unref);
  g_array_set_size (self->matched, 0);

  if (self->layout != NULL && self->search_text != NULL)
    {
      guint n_rects = smprof_flame_layout_get_n_rects (self->layout);

      fraction = smprof_flame_layout_match (self->layout, self->search_text, self->matched);

      self->is_matched = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), n_rects);
      g_array_set_size (self->is_matched, n_rects);
      for (guint i = 0; i < self->matched->len; i++)
        g_array_index (self->is_matched, gboolean, g_array_index (self->matched, guint, i)) = TRUE;
    }

  _smprof_flame_graph_invalidate_render (self);

  if (fraction != self->matched_fraction)
    {
      self->matched_fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATCHED_FRACTION]);
    }
}

static void
update_actions (SmprofFlameGraph *self)
{
  gboolean zoomed = get_zoom_node (self) != SMPROF_CALL_TREE_ROOT;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flamegraph.zoom-out", zoomed);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flamegraph.reset-zoom", zoomed);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flamegraph.zoom-in", self->selected_rect >= 0);
}

/* Lays the tree out again from @zoom_node, keeping the selected frame when it
 * is still there. */
static void
relayout (SmprofFlameGraph *self,
          guint32           zoom_node)
{
  guint32 old_zoom = get_zoom_node (self);
  gboolean was_zoomed = old_zoom != SMPROF_CALL_TREE_ROOT;
  guint32 selected = self->selected_node;
  int selected_rect = -1;

  g_clear_pointer (&self->layout, smprof_flame_layout_free);
  self->hover_rect = -1;
  self->selected_rect = -1;

  if (_smprof_flame_graph_get_tree (self) != NULL)
    {
      self->layout = smprof_flame_layout_new (_smprof_flame_graph_get_tree (self), zoom_node, LAYOUT_MIN_WIDTH);

      for (guint i = 0; selected != SMPROF_CALL_TREE_NONE && i < smprof_flame_layout_get_n_rects (self->layout); i++)
        if (smprof_flame_layout_get_rect (self->layout, i)->node == selected)
          {
            selected_rect = i;
            break;
          }
    }

  _smprof_flame_graph_select_rect (self, selected_rect);
  update_matches (self);
  update_actions (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));

  if (get_zoom_node (self) != old_zoom)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_NODE]);
  if ((get_zoom_node (self) != SMPROF_CALL_TREE_ROOT) != was_zoomed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_ZOOM_OUT]);
}

static void
smprof_flame_graph_dispose (GObject *object)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  g_clear_pointer (&self->layout, smprof_flame_layout_free);
  g_clear_object (&self->profile);
  g_clear_object (&self->diff);

  G_OBJECT_CLASS (smprof_flame_graph_parent_class)->dispose (object);
}

static void
smprof_flame_graph_finalize (GObject *object)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (object);

  g_clear_pointer (&self->history, g_array_unref);
  g_clear_pointer (&self->matched, g_array_unref);
  g_clear_pointer (&self->is_matched, g_array_unref);
  g_clear_pointer (&self->search_text, g_free);

  G_OBJECT_CLASS (smprof_flame_graph_parent_class)->finalize (object);
}

static void
set_palette (SmprofFlameGraph   *self,
             SmprofFlamePalette  palette)
{
  if (palette == self->palette)
    return;

  self->palette = palette;
  _smprof_flame_graph_invalidate_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_SCHEME]);
}

static void
smprof_flame_graph_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;

    case PROP_ZOOM_NODE:
      g_value_set_uint (value, smprof_flame_graph_get_zoom_node (self));
      break;

    case PROP_CAN_ZOOM_OUT:
      g_value_set_boolean (value, smprof_flame_graph_get_can_zoom_out (self));
      break;

    case PROP_SEARCH_TEXT:
      g_value_set_string (value, self->search_text);
      break;

    case PROP_COLOR_SCHEME:
      g_value_set_enum (value, self->palette);
      break;

    case PROP_MATCHED_FRACTION:
      g_value_set_double (value, self->matched_fraction);
      break;

    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected_node);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_flame_graph_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  SmprofFlameGraph *self = SMPROF_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      smprof_flame_graph_set_profile (self, g_value_get_object (value));
      break;

    case PROP_ZOOM_NODE:
      smprof_flame_graph_zoom_to_node (self, g_value_get_uint (value));
      break;

    case PROP_SEARCH_TEXT:
      smprof_flame_graph_set_search_text (self, g_value_get_string (value));
      break;

    case PROP_COLOR_SCHEME:
      set_palette (self, g_value_get_enum (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_flame_graph_class_init (SmprofFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_flame_graph_dispose;
  object_class->finalize = smprof_flame_graph_finalize;
  object_class->get_property = smprof_flame_graph_get_property;
  object_class->set_property = smprof_flame_graph_set_property;

  widget_class->snapshot = _smprof_flame_graph_snapshot;
  widget_class->measure = smprof_flame_graph_measure;
  widget_class->size_allocate = smprof_flame_graph_size_allocate;
  widget_class->css_changed = smprof_flame_graph_css_changed;
  widget_class->system_setting_changed = smprof_flame_graph_system_setting_changed;
  widget_class->state_flags_changed = smprof_flame_graph_state_flags_changed;

  /**
   * SmprofFlameGraph:profile:
   *
   * The aggregated selection whose call tree is drawn.
   */
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         SMPROF_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFlameGraph:zoom-node:
   *
   * The call tree node that takes the full width (`SMPROF_CALL_TREE_ROOT`
   * when not zoomed). Setting it zooms as a click would.
   */
  properties[PROP_ZOOM_NODE] =
    g_param_spec_uint ("zoom-node", NULL, NULL,
                       0, G_MAXUINT32, SMPROF_CALL_TREE_ROOT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFlameGraph:can-zoom-out:
   *
   * Whether the graph is zoomed, so a way back makes sense.
   */
  properties[PROP_CAN_ZOOM_OUT] =
    g_param_spec_boolean ("can-zoom-out", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFlameGraph:search-text:
   *
   * Frames whose function name or file contains this text (ignoring case)
   * are highlighted, the others dimmed; %NULL or empty searches nothing.
   */
  properties[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFlameGraph:matched-fraction:
   *
   * The share (0..1) of the zoomed frame's time spent in matching frames,
   * as smprof_flame_layout_match() computes it.
   */
  properties[PROP_MATCHED_FRACTION] =
    g_param_spec_double ("matched-fraction", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFlameGraph:selected-node:
   *
   * The call tree node of the frame last clicked or reached with the
   * keyboard, or `SMPROF_CALL_TREE_NONE`.
   */
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL,
                       0, G_MAXUINT32, SMPROF_CALL_TREE_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * SmprofFlameGraph:color-scheme:
   *
   * The frames' palette, each in its light or dark variant as the theme
   * asks. Its nicks ("default", "module", "colorblind") are the names the
   * plugin's flame-graph-color-scheme setting and the flame.color-scheme
   * action hold.
   */
  properties[PROP_COLOR_SCHEME] =
    g_param_spec_enum ("color-scheme", NULL, NULL, SMPROF_TYPE_FLAME_PALETTE, SMPROF_FLAME_PALETTE_DEFAULT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  _smprof_flame_graph_class_init_input (widget_class);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
smprof_flame_graph_init (SmprofFlameGraph *self)
{
  self->history = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->matched = g_array_new (FALSE, FALSE, sizeof (guint));
  self->hover_rect = -1;
  self->selected_rect = -1;
  self->selected_node = SMPROF_CALL_TREE_NONE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"),
                                  -1);

  _smprof_flame_graph_init_input (self);
  update_actions (self);
}

GtkWidget *
smprof_flame_graph_new (void)
{
  return g_object_new (SMPROF_TYPE_FLAME_GRAPH, NULL);
}

SmprofProfile *
smprof_flame_graph_get_profile (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), NULL);

  return self->profile;
}

/**
 * smprof_flame_graph_set_profile:
 * @self: a flame graph
 * @profile: (nullable): the profile to draw
 *
 * Draws @profile's call tree, unzoomed. The search text is kept and applied
 * to the new tree.
 */
void
smprof_flame_graph_set_profile (SmprofFlameGraph *self,
                                SmprofProfile    *profile)
{
  /* The old layout points into the old profile's tree: keep it alive until
   * the new layout replaces it. */
  g_autoptr(SmprofProfile) old_profile = NULL;

  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (self));
  g_return_if_fail (profile == NULL || SMPROF_IS_PROFILE (profile));

  if (profile == self->profile)
    return;

  old_profile = g_steal_pointer (&self->profile);
  self->profile = profile != NULL ? g_object_ref (profile) : NULL;

  _smprof_flame_graph_reset_tree (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

/* A new tree: old zoom and selection nodes mean nothing in it. */
void
_smprof_flame_graph_reset_tree (SmprofFlameGraph *self)
{
  g_array_set_size (self->history, 0);
  self->selected_node = SMPROF_CALL_TREE_NONE;
  relayout (self, SMPROF_CALL_TREE_ROOT);
}

guint32
smprof_flame_graph_get_zoom_node (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), SMPROF_CALL_TREE_ROOT);

  return get_zoom_node (self);
}

/**
 * smprof_flame_graph_zoom_to_node:
 * @self: a flame graph
 * @node: a node of the profile's call tree; `SMPROF_CALL_TREE_ROOT` unzooms
 *
 * Makes @node's frame take the full width. The previous zoom is remembered,
 * so smprof_flame_graph_zoom_out() comes back to it.
 */
void
smprof_flame_graph_zoom_to_node (SmprofFlameGraph *self,
                                 guint32           node)
{
  guint32 current;

  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (self));

  if (_smprof_flame_graph_get_tree (self) == NULL)
    return;

  g_return_if_fail (node < smprof_call_tree_get_n_nodes (_smprof_flame_graph_get_tree (self)));

  current = get_zoom_node (self);
  if (node == current)
    return;

  g_array_append_val (self->history, current);
  relayout (self, node);
}

/**
 * smprof_flame_graph_zoom_out:
 * @self: a flame graph
 *
 * Goes back to the previous zoom (or to the whole tree).
 *
 * Returns: %FALSE when the graph was not zoomed
 */
gboolean
smprof_flame_graph_zoom_out (SmprofFlameGraph *self)
{
  guint32 previous = SMPROF_CALL_TREE_ROOT;

  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), FALSE);

  if (get_zoom_node (self) == SMPROF_CALL_TREE_ROOT)
    return FALSE;

  /* Skip history entries equal to where we are. */
  while (self->history->len > 0)
    {
      previous = g_array_index (self->history, guint32, self->history->len - 1);
      g_array_set_size (self->history, self->history->len - 1);

      if (previous != get_zoom_node (self))
        break;
      previous = SMPROF_CALL_TREE_ROOT;
    }

  relayout (self, previous);

  return TRUE;
}

void
smprof_flame_graph_reset_zoom (SmprofFlameGraph *self)
{
  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (self));

  g_array_set_size (self->history, 0);

  if (get_zoom_node (self) != SMPROF_CALL_TREE_ROOT)
    relayout (self, SMPROF_CALL_TREE_ROOT);
}

gboolean
smprof_flame_graph_get_can_zoom_out (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), FALSE);

  return get_zoom_node (self) != SMPROF_CALL_TREE_ROOT;
}

const char *
smprof_flame_graph_get_search_text (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), NULL);

  return self->search_text;
}

void
smprof_flame_graph_set_search_text (SmprofFlameGraph *self,
                                    const char       *text)
{
  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (self));

  if (text != NULL && text[0] == '\0')
    text = NULL;

  if (g_strcmp0 (text, self->search_text) == 0)
    return;

  g_free (self->search_text);
  self->search_text = g_strdup (text);

  update_matches (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_TEXT]);
}

double
smprof_flame_graph_get_matched_fraction (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), 0);

  return self->matched_fraction;
}

guint32
smprof_flame_graph_get_selected_node (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), SMPROF_CALL_TREE_NONE);

  return self->selected_node;
}

/**
 * smprof_flame_graph_dup_node_details:
 * @self: a flame graph
 * @node: a node of the call tree
 *
 * Returns: (transfer full) (nullable): one line: the function, its file and
 *   line, its total and self time with their shares of the whole profile
 */
char *
smprof_flame_graph_dup_node_details (SmprofFlameGraph *self,
                                     guint32           node)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), NULL);

  return _smprof_flame_graph_dup_details (self, node, FALSE);
}

SmprofFlameLayout *
_smprof_flame_graph_get_layout (SmprofFlameGraph *self)
{
  return self->layout;
}

const GArray *
_smprof_flame_graph_get_matched (SmprofFlameGraph *self)
{
  return self->matched;
}

int
_smprof_flame_graph_get_hover_rect (SmprofFlameGraph *self)
{
  return self->hover_rect;
}

guint
_smprof_flame_graph_get_n_renders (SmprofFlameGraph *self)
{
  return self->n_renders;
}

gboolean
_smprof_flame_graph_get_dark (SmprofFlameGraph *self)
{
  return self->dark;
}

const char *
smprof_flame_graph_get_color_scheme (SmprofFlameGraph *self)
{
  g_return_val_if_fail (SMPROF_IS_FLAME_GRAPH (self), "default");

  return smprof_flame_palette_to_string (self->palette);
}

/**
 * smprof_flame_graph_set_color_scheme:
 * @self: a flame graph
 * @scheme: (nullable): a palette's name; %NULL or an unknown name is
 *   "default", so a setting from a newer viewer never leaves it blank
 */
void
smprof_flame_graph_set_color_scheme (SmprofFlameGraph *self,
                                     const char       *scheme)
{
  SmprofFlamePalette palette = SMPROF_FLAME_PALETTE_DEFAULT;

  g_return_if_fail (SMPROF_IS_FLAME_GRAPH (self));

  if (scheme != NULL && !smprof_flame_palette_from_string (scheme, &palette))
    g_debug ("Unknown flame graph colour scheme “%s”, using the default", scheme);

  set_palette (self, palette);
}
