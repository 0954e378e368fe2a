/* smv-window-messages.c: the window's banners and toasts, and the SmvHost
 * the page sees
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "smv-window-private.h"

/* Two banners: the window's own (a location that cannot be opened, files
 * skipped while opening), and the page's, which the page fills through
 * SmvHost, so what one says never hides what the other says. Toasts go to
 * the overlay over the stack. */

void
_smv_window_hide_banner (SmvWindow *self)
{
  gtk_info_bar_set_revealed (self->banner, FALSE);
}

void
_smv_window_show_error (SmvWindow  *self,
                        const char *title,
                        const char *detail)
{
  gtk_info_bar_set_message_type (self->banner, GTK_MESSAGE_ERROR);
  gtk_label_set_label (self->banner_title, title);
  gtk_label_set_label (self->banner_detail, detail != NULL ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->banner_detail), detail != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_expander), FALSE);
  gtk_info_bar_set_revealed (self->banner, TRUE);
}

void
_smv_window_update_problems (SmvWindow *self)
{
  GListModel *problems;
  guint n;
  g_autofree char *title = NULL;

  if (self->document == NULL)
    return;

  problems = smv_document_get_problems (self->document);
  n = g_list_model_get_n_items (problems);
  if (n == 0 || n <= self->problems_dismissed)
    return;

  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%u file or folder was skipped; everything else was opened.",
                                        "%u files or folders were skipped; everything else was opened.",
                                        n),
                           n);

  gtk_info_bar_set_message_type (self->banner, GTK_MESSAGE_WARNING);
  gtk_label_set_label (self->banner_title, title);
  gtk_widget_set_visible (GTK_WIDGET (self->banner_detail), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_expander), TRUE);
  gtk_info_bar_set_revealed (self->banner, TRUE);
}

/* ------------------------------------------------------------------------ */
/* The skipped files                                                        */

/* How many components at the end of a path are never cut: for a data file,
 * its folder's folder, its folder and its name (for a profile, the node, the
 * interval with its step, the stats file), which is what tells one skipped
 * file from another. */
#define PATH_TAIL_COMPONENTS 3

/**
 * _smv_window_split_problem_path:
 * @path: a path or URI, '/'-separated
 * @head: (out) (transfer full): what comes before the tail, ending with '/'
 *   (empty when the path is short)
 * @tail: (out) (transfer full): the last %PATH_TAIL_COMPONENTS components
 */
void
_smv_window_split_problem_path (const char  *path,
                                char       **head,
                                char       **tail)
{
  const char *end = path + strlen (path);
  const char *cut = end;
  guint n = 0;

  /* a trailing separator belongs to the last component */
  if (cut > path && cut[-1] == '/')
    cut--;
  while (cut > path)
    {
      if (cut[-1] == '/' && ++n == PATH_TAIL_COMPONENTS)
        break;
      cut--;
    }

  *head = g_strndup (path, cut - path);
  *tail = g_strdup (cut);
}

/* A row: the path on one line, its start cut first (the head ellipsizes, the
 * tail never does: a window too narrow for the tail scrolls sideways), and
 * what is wrong with it below. */
static void
problem_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *path = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *head = gtk_label_new (NULL);
  GtkWidget *tail = gtk_label_new (NULL);
  GtkWidget *message = gtk_label_new (NULL);

  gtk_label_set_ellipsize (GTK_LABEL (head), PANGO_ELLIPSIZE_START);
  gtk_label_set_xalign (GTK_LABEL (head), 1);
  gtk_label_set_single_line_mode (GTK_LABEL (tail), TRUE);
  gtk_label_set_xalign (GTK_LABEL (tail), 0);
  gtk_widget_add_css_class (head, "monospace");
  gtk_widget_add_css_class (tail, "monospace");
  gtk_widget_set_name (head, "problem-path-head");
  gtk_widget_set_name (tail, "problem-path-tail");
  gtk_box_append (GTK_BOX (path), head);
  gtk_box_append (GTK_BOX (path), tail);

  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  gtk_widget_add_css_class (message, "dim-label");
  gtk_widget_set_name (message, "problem-message");

  gtk_box_append (GTK_BOX (box), path);
  gtk_box_append (GTK_BOX (box), message);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_child (item, box);
}

static void
problem_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  SmvProblem *problem = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *path = gtk_widget_get_first_child (box);
  GtkWidget *head = gtk_widget_get_first_child (path);
  GtkWidget *tail = gtk_widget_get_next_sibling (head);
  GtkWidget *message = gtk_widget_get_next_sibling (path);
  g_autofree char *head_text = NULL;
  g_autofree char *tail_text = NULL;

  _smv_window_split_problem_path (smv_problem_get_path (problem), &head_text, &tail_text);
  gtk_label_set_label (GTK_LABEL (head), head_text);
  gtk_widget_set_visible (head, head_text[0] != '\0');
  gtk_label_set_label (GTK_LABEL (tail), tail_text);
  gtk_widget_set_tooltip_text (path, smv_problem_get_path (problem));
  gtk_label_set_label (GTK_LABEL (message), smv_problem_get_message (problem));
}

void
_smv_window_messages_init (SmvWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (problem_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (problem_bind_cb), NULL);
  gtk_list_view_set_factory (self->problems_view, factory);
}

static void
banner_response_cb (SmvWindow  *self,
                    int         response,
                    GtkInfoBar *banner)
{
  if (response != GTK_RESPONSE_CLOSE)
    return;

  if (self->document != NULL)
    self->problems_dismissed = g_list_model_get_n_items (smv_document_get_problems (self->document));
  _smv_window_hide_banner (self);
}

static void
page_banner_response_cb (SmvWindow  *self,
                         int         response,
                         GtkInfoBar *banner)
{
  if (response == GTK_RESPONSE_CLOSE)
    gtk_info_bar_set_revealed (self->page_banner, FALSE);
}

/* ------------------------------------------------------------------------ */
/* SmvHost                                                                  */

static void
smv_window_add_toast (SmvHost  *host,
                      AdwToast *toast)
{
  SmvWindow *self = SMV_WINDOW (host);

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
smv_window_show_banner (SmvHost       *host,
                        SmvBannerKind  kind,
                        const char    *title,
                        const char    *detail)
{
  SmvWindow *self = SMV_WINDOW (host);
  static const GtkMessageType types[] = {
    [SMV_BANNER_INFO] = GTK_MESSAGE_INFO,
    [SMV_BANNER_WARNING] = GTK_MESSAGE_WARNING,
    [SMV_BANNER_ERROR] = GTK_MESSAGE_ERROR,
  };

  gtk_info_bar_set_message_type (self->page_banner, types[kind]);
  gtk_label_set_label (self->page_banner_title, title);
  gtk_label_set_label (self->page_banner_detail, detail != NULL ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->page_banner_detail), detail != NULL && detail[0] != '\0');
  gtk_info_bar_set_revealed (self->page_banner, TRUE);
}

static void
smv_window_hide_page_banner (SmvHost *host)
{
  SmvWindow *self = SMV_WINDOW (host);

  gtk_info_bar_set_revealed (self->page_banner, FALSE);
}

void
_smv_window_host_iface_init (SmvHostInterface *iface)
{
  iface->add_toast = smv_window_add_toast;
  iface->show_banner = smv_window_show_banner;
  iface->hide_banner = smv_window_hide_page_banner;
}

void
_smv_window_class_messages_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, banner_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_banner_response_cb);
}
