/* smprof-ui.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-ui.h"
#include "smprof-ui-resources.h"

/**
 * smprof_ui_ensure_resources:
 *
 * Makes sure the UI library's GResource (the templates under
 * `/io/github/smprof/Viewer/plugins/sagemaker/`) is registered. The resource
 * registers itself from a constructor; referencing it from each class_init()
 * is what keeps its object file in a static link.
 */
void
smprof_ui_ensure_resources (void)
{
  if (smprof_ui_get_resource () == NULL)
    g_critical ("The smprof UI resources are missing");
}

/* ------------------------------------------------------------------------ */
/* Light or dark                                                            */

/**
 * smprof_ui_luminance:
 * @color: a colour
 *
 * Returns: its relative luminance (sRGB weights, on the stored channels),
 *   0 for black to 1 for white
 */
double
smprof_ui_luminance (const GdkRGBA *color)
{
  return 0.2126 * color->red + 0.7152 * color->green + 0.0722 * color->blue;
}

/**
 * smprof_ui_widget_is_dark:
 * @widget: a widget
 *
 * Whether @widget is drawn in a dark style: its text colour is light. The
 * one rule every widget of the plugin draws its palettes by, so they agree;
 * it holds in any host and style (the plugin does not assume the host's
 * style manager).
 *
 * Returns: %TRUE in a dark style
 */
gboolean
smprof_ui_widget_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS

  return smprof_ui_luminance (&fg) > 0.5;
}

/* ------------------------------------------------------------------------ */
/* Keeping the end of a scrolled window in view                             */

typedef struct
{
  GtkAdjustment *adjustment;   /* weak: it outlives us, the scrolled window's */
  gboolean       at_end;       /* follow the end: the user has not scrolled away */
  double         last_upper;   /* the adjustment's size when last changed */
  double         last_page;
  guint          idle;
  gulong         changed_id;
  gulong         value_changed_id;
} FollowEnd;

static void
follow_end_free (gpointer data)
{
  FollowEnd *follow = data;

  g_clear_handle_id (&follow->idle, g_source_remove);
  if (follow->adjustment != NULL)
    {
      g_clear_signal_handler (&follow->changed_id, follow->adjustment);
      g_clear_signal_handler (&follow->value_changed_id, follow->adjustment);
      g_clear_weak_pointer (&follow->adjustment);
    }
  g_free (follow);
}

static gboolean
follow_end_idle_cb (gpointer data)
{
  FollowEnd *follow = data;

  follow->idle = 0;
  if (follow->at_end && follow->adjustment != NULL)
    gtk_adjustment_set_value (follow->adjustment,
                              gtk_adjustment_get_upper (follow->adjustment) -
                              gtk_adjustment_get_page_size (follow->adjustment));

  return G_SOURCE_REMOVE;
}

/* The size changes while the scrolled window is being allocated: a value
 * set now would not move the child until the next allocation, so it is set
 * once the frame is done. */
static void
follow_end_changed_cb (GtkAdjustment *adjustment,
                       FollowEnd     *follow)
{
  follow->last_upper = gtk_adjustment_get_upper (adjustment);
  follow->last_page = gtk_adjustment_get_page_size (adjustment);
  if (follow->at_end && follow->idle == 0)
    follow->idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, follow_end_idle_cb, follow, NULL);
}

/* Only a move at an unchanged size is the user's (a wheel, the scrollbar):
 * GTK clamps the value when the view or the content changes size, and that
 * must not count as scrolling away. */
static void
follow_end_value_changed_cb (GtkAdjustment *adjustment,
                             FollowEnd     *follow)
{
  double upper = gtk_adjustment_get_upper (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);

  if (upper != follow->last_upper || page != follow->last_page)
    return;

  follow->at_end = gtk_adjustment_get_value (adjustment) >= upper - page - 1;
}

/**
 * smprof_ui_follow_scroll_end:
 * @scroller: a scrolled window
 *
 * Keeps the bottom of @scroller's content in view as the content or the
 * view change size, until the user scrolls away from it; scrolling back to
 * the bottom follows again. For flame graphs, whose roots are their bottom
 * row: a short view shows the roots, not the tips.
 */
void
smprof_ui_follow_scroll_end (GtkScrolledWindow *scroller)
{
  GtkAdjustment *adjustment;
  FollowEnd *follow;

  g_return_if_fail (GTK_IS_SCROLLED_WINDOW (scroller));

  adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  follow = g_new0 (FollowEnd, 1);
  g_set_weak_pointer (&follow->adjustment, adjustment);
  follow->at_end = TRUE;
  follow->last_upper = gtk_adjustment_get_upper (adjustment);
  follow->last_page = gtk_adjustment_get_page_size (adjustment);
  g_object_set_data_full (G_OBJECT (scroller), "smprof-follow-end", follow, follow_end_free);

  follow->changed_id = g_signal_connect (adjustment, "changed", G_CALLBACK (follow_end_changed_cb), follow);
  follow->value_changed_id = g_signal_connect (adjustment, "value-changed",
                                               G_CALLBACK (follow_end_value_changed_cb), follow);
}

/**
 * smprof_ui_scroll_to_end:
 * @scroller: a scrolled window given to smprof_ui_follow_scroll_end()
 *
 * Shows the bottom of the content and follows it again (a new content).
 */
void
smprof_ui_scroll_to_end (GtkScrolledWindow *scroller)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  FollowEnd *follow = g_object_get_data (G_OBJECT (scroller), "smprof-follow-end");

  g_return_if_fail (follow != NULL);

  follow->at_end = TRUE;
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
}

/**
 * smprof_ui_property_factory_new:
 * @setup: the factory's #GtkSignalListItemFactory::setup handler
 * @bind: its ::bind handler
 * @unbind: its ::unbind handler
 * @property: the property of the rows' items the cells show, given to the
 *   handlers as their data
 *
 * A factory of cells made in code: a builder factory parses its template
 * again for every cell, and a first answer binds ~200 rows of them.
 *
 * Returns: (transfer full): the factory
 */
GtkListItemFactory *
smprof_ui_property_factory_new (GCallback   setup,
                                GCallback   bind,
                                GCallback   unbind,
                                const char *property)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  gpointer interned = (gpointer) g_intern_string (property);

  g_signal_connect (factory, "setup", setup, interned);
  g_signal_connect (factory, "bind", bind, interned);
  g_signal_connect (factory, "unbind", unbind, interned);

  return factory;
}
