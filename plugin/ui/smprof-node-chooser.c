/* smprof-node-chooser.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gi18n-lib.h>

#include "smprof-node-chooser.h"

/* "Choose nodes…": a menu button whose popover holds one check button per
 * node, for the job page's "several nodes" choice (the page's drop-down
 * offers one node or all). Jobs have up to hundreds of nodes: the list
 * scrolls inside a popover of bounded height, a filter keeps the nodes whose
 * id holds its text, and All / None check or uncheck the nodes the filter
 * shows. At least one node stays checked: the last checked button is made
 * insensitive, so an empty choice cannot happen. SmprofNodeChooser::changed
 * tells the user changed the choice (once for All or None); setting it from
 * code is silent, so the page can mirror its own node choice. The choice is
 * kept apart from the check buttons, which are made when the popover first
 * shows: a job of 256 nodes is opened with its popover closed, and making
 * 256 buttons then was a tenth of the page's construction. */

/* The list's height before it scrolls: about 16 nodes. */
#define LIST_MAX_HEIGHT 400

struct _SmprofNodeChooser
{
  GtkWidget       parent_instance;

  GtkMenuButton  *button;
  GtkSearchEntry *filter_entry;
  GtkLabel       *count_label;
  GtkBox         *checks_box;
  GPtrArray      *checks;      /* GtkCheckButton, in node order, once made */
  char          **node_ids;
  gboolean       *chosen;      /* one per node: the choice, made buttons or not */
  guint           n_nodes;
  gboolean        checks_made;
  gboolean        syncing;
};

G_DEFINE_FINAL_TYPE (SmprofNodeChooser, smprof_node_chooser, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GQuark
node_index_quark (void)
{
  static GQuark quark;

  if (quark == 0)
    quark = g_quark_from_static_string ("smprof-node-chooser-index");
  return quark;
}

static guint
count_checked (SmprofNodeChooser *self)
{
  guint n = 0;

  for (guint i = 0; i < self->n_nodes; i++)
    if (self->chosen[i])
      n++;

  return n;
}

/* The last checked node cannot be unchecked. */
static void
update_sensitivity (SmprofNodeChooser *self)
{
  gboolean one_left = count_checked (self) <= 1;

  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (self->checks, i);

      gtk_widget_set_sensitive (GTK_WIDGET (check), !(one_left && gtk_check_button_get_active (check)));
    }
}

static void
update_count (SmprofNodeChooser *self)
{
  g_autofree char *text = NULL;
  guint n = self->n_nodes;

  /* Translators: in the "Choose nodes…" popover, as in "12 of 64 nodes chosen" */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u node chosen", "%u of %u nodes chosen", n),
                          count_checked (self), n);
  gtk_label_set_label (self->count_label, text);
}

static void
update_tooltip (SmprofNodeChooser *self)
{
  g_auto(GStrv) chosen = smprof_node_chooser_dup_chosen (self);
  g_autofree char *joined = NULL;
  g_autofree char *tooltip = NULL;

  if (chosen == NULL)
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), _("Aggregate several nodes: all are chosen"));
      return;
    }

  joined = g_strjoinv (", ", chosen);
  /* Translators: the nodes chosen in the "Choose nodes…" popover */
  tooltip = g_strdup_printf (_("Aggregate several nodes: %s"), joined);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), tooltip);
}

static void
check_toggled_cb (SmprofNodeChooser *self,
                  GtkCheckButton    *check)
{
  guint index = GPOINTER_TO_UINT (g_object_get_qdata (G_OBJECT (check), node_index_quark ()));

  self->chosen[index] = gtk_check_button_get_active (check);

  /* Unchecked from code while it was the last one: keep it. */
  if (count_checked (self) == 0)
    {
      gtk_check_button_set_active (check, TRUE);
      return;
    }

  update_sensitivity (self);
  update_tooltip (self);
  update_count (self);

  if (!self->syncing)
    g_signal_emit (self, signals[CHANGED], 0);
}

static gboolean
matches_filter (SmprofNodeChooser *self,
                guint              index)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  g_autofree char *needle = NULL;
  g_autofree char *haystack = NULL;

  if (text == NULL || text[0] == '\0')
    return TRUE;

  needle = g_utf8_casefold (text, -1);
  haystack = g_utf8_casefold (self->node_ids[index], -1);

  return strstr (haystack, needle) != NULL;
}

static void
filter_changed_cb (SmprofNodeChooser *self)
{
  for (guint i = 0; i < self->checks->len; i++)
    gtk_widget_set_visible (g_ptr_array_index (self->checks, i), matches_filter (self, i));
}

/* The check buttons, made the first time they are needed. */
static void
ensure_checks (SmprofNodeChooser *self)
{
  if (self->checks_made)
    return;

  self->checks_made = TRUE;
  for (guint i = 0; i < self->n_nodes; i++)
    {
      /* No mnemonic: node ids are host names, underscores included. */
      GtkWidget *check = gtk_check_button_new_with_label (self->node_ids[i]);
      g_autofree char *name = g_strconcat ("node-", self->node_ids[i], NULL);

      gtk_widget_set_name (check, name);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), self->chosen[i]);
      g_object_set_qdata (G_OBJECT (check), node_index_quark (), GUINT_TO_POINTER (i));
      g_signal_connect_object (check, "toggled", G_CALLBACK (check_toggled_cb), self, G_CONNECT_SWAPPED);
      gtk_box_append (self->checks_box, check);
      g_ptr_array_add (self->checks, check);
    }

  filter_changed_cb (self);
  update_sensitivity (self);
}

/* All / None: the nodes the filter shows, one change. None keeps the first
 * of them when nothing else would stay checked. */
static void
check_shown (SmprofNodeChooser *self,
             gboolean           active)
{
  gboolean changed = FALSE;
  int first_shown = -1;

  ensure_checks (self);
  self->syncing = TRUE;
  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (self->checks, i);

      if (!gtk_widget_get_visible (GTK_WIDGET (check)))
        continue;
      if (first_shown < 0)
        first_shown = i;
      if (gtk_check_button_get_active (check) != active)
        {
          gtk_check_button_set_active (check, active);
          changed = TRUE;
        }
    }
  if (count_checked (self) == 0 && first_shown >= 0)
    {
      gtk_check_button_set_active (g_ptr_array_index (self->checks, first_shown), TRUE);
      changed = TRUE;
    }
  self->syncing = FALSE;

  update_sensitivity (self);
  update_tooltip (self);
  update_count (self);
  if (changed)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
all_clicked_cb (SmprofNodeChooser *self)
{
  check_shown (self, TRUE);
}

static void
none_clicked_cb (SmprofNodeChooser *self)
{
  check_shown (self, FALSE);
}

static void
smprof_node_chooser_dispose (GObject *object)
{
  SmprofNodeChooser *self = SMPROF_NODE_CHOOSER (object);

  if (self->button != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->button));
  self->button = NULL;
  g_clear_pointer (&self->checks, g_ptr_array_unref);

  G_OBJECT_CLASS (smprof_node_chooser_parent_class)->dispose (object);
}

static void
smprof_node_chooser_finalize (GObject *object)
{
  SmprofNodeChooser *self = SMPROF_NODE_CHOOSER (object);

  g_clear_pointer (&self->node_ids, g_strfreev);
  g_clear_pointer (&self->chosen, g_free);

  G_OBJECT_CLASS (smprof_node_chooser_parent_class)->finalize (object);
}

static void
smprof_node_chooser_class_init (SmprofNodeChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_node_chooser_dispose;
  object_class->finalize = smprof_node_chooser_finalize;

  /**
   * SmprofNodeChooser::changed:
   *
   * The user checked or unchecked a node.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "smprofnodechooser");
}

static void
smprof_node_chooser_init (SmprofNodeChooser *self)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_label_new (_("Nodes to aggregate"));
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *all_button = gtk_button_new_with_mnemonic (_("_All"));
  GtkWidget *none_button = gtk_button_new_with_mnemonic (_("_None"));
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->checks = g_ptr_array_new ();

  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_box_append (GTK_BOX (box), heading);

  self->filter_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->filter_entry), "node-filter");
  g_object_set (self->filter_entry, "placeholder-text", _("Filter nodes"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->filter_entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter nodes by id"), -1);
  g_signal_connect_object (self->filter_entry, "search-changed", G_CALLBACK (filter_changed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->filter_entry));

  gtk_widget_set_name (all_button, "node-chooser-all");
  gtk_widget_set_tooltip_text (all_button, _("Check every node the filter shows"));
  g_signal_connect_object (all_button, "clicked", G_CALLBACK (all_clicked_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_set_name (none_button, "node-chooser-none");
  gtk_widget_set_tooltip_text (none_button, _("Uncheck every node the filter shows (at least one node stays checked)"));
  g_signal_connect_object (none_button, "clicked", G_CALLBACK (none_clicked_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (buttons), all_button);
  gtk_box_append (GTK_BOX (buttons), none_button);
  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->count_label), TRUE);
  gtk_label_set_xalign (self->count_label, 1);
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->count_label));
  gtk_box_append (GTK_BOX (box), buttons);

  self->checks_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 2));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), LIST_MAX_HEIGHT);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->checks_box));
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->checks_box),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, heading, NULL, -1);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  g_signal_connect_object (popover, "show", G_CALLBACK (ensure_checks), self, G_CONNECT_SWAPPED);

  self->button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_widget_set_name (GTK_WIDGET (self->button), "node-chooser-button");
  /* Translators: opens a popover with a check button per node; Alt+H (Alt+C is the Call tree) */
  gtk_menu_button_set_label (self->button, _("C_hoose nodes…"));
  gtk_menu_button_set_use_underline (self->button, TRUE);
  gtk_menu_button_set_popover (self->button, popover);
  gtk_widget_set_parent (GTK_WIDGET (self->button), GTK_WIDGET (self));
  update_tooltip (self);
  update_count (self);
}

GtkWidget *
smprof_node_chooser_new (void)
{
  return g_object_new (SMPROF_TYPE_NODE_CHOOSER, NULL);
}

/**
 * smprof_node_chooser_set_node_ids:
 * @self: a node chooser
 * @node_ids: every node of the job, in the order to list them
 *
 * One check button per node, all checked (the buttons are made when the
 * popover first shows).
 */
void
smprof_node_chooser_set_node_ids (SmprofNodeChooser  *self,
                                  const char * const *node_ids)
{
  GtkWidget *child;

  g_return_if_fail (SMPROF_IS_NODE_CHOOSER (self));
  g_return_if_fail (node_ids != NULL);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->checks_box))) != NULL)
    gtk_box_remove (self->checks_box, child);
  g_ptr_array_set_size (self->checks, 0);
  self->checks_made = FALSE;

  g_clear_pointer (&self->node_ids, g_strfreev);
  self->node_ids = g_strdupv ((char **) node_ids);
  self->n_nodes = g_strv_length (self->node_ids);
  g_free (self->chosen);
  self->chosen = g_new (gboolean, MAX (self->n_nodes, 1));
  for (guint i = 0; i < self->n_nodes; i++)
    self->chosen[i] = TRUE;

  /* Shown already: the new buttons now. */
  if (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (self->button))))
    ensure_checks (self);

  /* One node leaves nothing to choose. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->button), self->n_nodes > 1);
  update_tooltip (self);
  update_count (self);
}

/**
 * smprof_node_chooser_set_chosen:
 * @self: a node chooser
 * @chosen: (nullable): the nodes to check; %NULL for all
 *
 * Checks those nodes, without emitting SmprofNodeChooser::changed. Unknown
 * ids are ignored; a choice of no known node checks them all.
 */
void
smprof_node_chooser_set_chosen (SmprofNodeChooser  *self,
                                const char * const *chosen)
{
  gboolean any = FALSE;

  g_return_if_fail (SMPROF_IS_NODE_CHOOSER (self));

  for (guint i = 0; chosen != NULL && i < self->n_nodes; i++)
    any |= g_strv_contains (chosen, self->node_ids[i]);

  self->syncing = TRUE;
  /* Check first, then uncheck, so the choice is never empty on the way
   * (each made button's toggle sets its node's place in the choice). */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->n_nodes; i++)
      {
        gboolean active = !any || g_strv_contains (chosen, self->node_ids[i]);

        if (active != (pass == 0))
          continue;
        if (self->checks_made)
          gtk_check_button_set_active (g_ptr_array_index (self->checks, i), active);
        else
          self->chosen[i] = active;
      }
  self->syncing = FALSE;

  update_sensitivity (self);
  update_tooltip (self);
  update_count (self);
}

/**
 * smprof_node_chooser_dup_chosen:
 * @self: a node chooser
 *
 * Returns: (transfer full) (nullable): the checked nodes, in node order;
 *   %NULL when every node is checked
 */
char **
smprof_node_chooser_dup_chosen (SmprofNodeChooser *self)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (SMPROF_IS_NODE_CHOOSER (self), NULL);

  if (count_checked (self) == self->n_nodes)
    return NULL;

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->n_nodes; i++)
    if (self->chosen[i])
      g_strv_builder_add (builder, self->node_ids[i]);

  return g_strv_builder_end (builder);
}

/**
 * smprof_node_chooser_get_check_button:
 * @self: a node chooser
 * @node_id: a node
 *
 * Returns: (transfer none) (nullable): the check button of @node_id, made
 *   if the popover has not shown yet
 */
GtkCheckButton *
smprof_node_chooser_get_check_button (SmprofNodeChooser *self,
                                      const char        *node_id)
{
  g_return_val_if_fail (SMPROF_IS_NODE_CHOOSER (self), NULL);

  ensure_checks (self);

  for (guint i = 0; i < self->checks->len; i++)
    if (g_strcmp0 (self->node_ids[i], node_id) == 0)
      return g_ptr_array_index (self->checks, i);

  return NULL;
}
