/* smv-window-messages.c: the window's banners and toasts, and the SmvHost
 * the page sees
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

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
