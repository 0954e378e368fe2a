/* smv-window-private.h: what the files of SmvWindow share
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smv-window.h"

G_BEGIN_DECLS

/* One window shows one document. The stack has four pages: "no-plugins" (no
 * data source was found, so nothing can be opened), "empty" (nothing open
 * yet: how to open something, and the recent jobs), "loading" (a progress
 * bar and Cancel) and "document" (the page the data source built). Opening
 * runs in the data source, off the main thread; a generation counter drops
 * the answer of an open that was cancelled or replaced, so Cancel takes
 * effect at once.
 *
 * smv-window.c opens and shows documents; smv-window-actions.c holds the
 * window's actions and its saved size; smv-window-messages.c the banners and
 * the toasts (the SmvHost the page sees); smv-window-status.c the status
 * pages and the recent jobs. */
struct _SmvWindow
{
  AdwApplicationWindow  parent_instance;

  SmvSourceRegistry    *registry;
  SmvRecent            *recent;
  GSettings            *settings;   /* window-size, window-maximized */

  /* the open document */
  SmvDocument          *document;
  GtkWidget            *page;
  guint                 problems_dismissed;   /* problems listed when the banner was closed */

  /* an open in progress */
  GCancellable         *cancellable;
  SmvProgress          *progress;
  guint                 pulse_id;
  guint                 generation;

  GtkFileChooserNative *chooser;

  /* template children */
  AdwWindowTitle       *window_title;
  GtkInfoBar           *banner;
  GtkLabel             *banner_title;
  GtkLabel             *banner_detail;
  GtkExpander          *problems_expander;
  GtkListView          *problems_view;
  GtkInfoBar           *page_banner;
  GtkLabel             *page_banner_title;
  GtkLabel             *page_banner_detail;
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  AdwStatusPage        *no_plugins_page;
  AdwStatusPage        *empty_page;
  GtkWidget            *recent_box;
  GtkListBox           *recent_list;
  AdwStatusPage        *loading_page;
  GtkProgressBar       *progress_bar;
  GtkBox               *document_box;
  GMenu                *recent_section;
};

char *_smv_window_dup_display_name         (GFile          *location);

/* smv-window-messages.c */
void  _smv_window_show_error               (SmvWindow      *self,
                                            const char     *title,
                                            const char     *detail);
void  _smv_window_hide_banner              (SmvWindow      *self);
void  _smv_window_update_problems          (SmvWindow      *self);
void  _smv_window_split_problem_path       (const char     *path,
                                            char          **head,
                                            char          **tail);
void  _smv_window_messages_init            (SmvWindow      *self);
void  _smv_window_host_iface_init          (SmvHostInterface *iface);
void  _smv_window_class_messages_init      (GtkWidgetClass *widget_class);

/* smv-window-status.c */
void  _smv_window_explain                  (SmvWindow      *self);
void  _smv_window_update_recent            (SmvWindow      *self);
void  _smv_window_class_status_init        (GtkWidgetClass *widget_class);

/* smv-window-actions.c */
void  _smv_window_save_state               (SmvWindow      *self);
void  _smv_window_restore_state            (SmvWindow      *self);
void  _smv_window_actions_init             (SmvWindow      *self);
void  _smv_window_add_plugin_shortcuts     (SmvWindow      *self);
void  _smv_window_actions_dispose          (SmvWindow      *self);
void  _smv_window_class_actions_init       (GtkWidgetClass *widget_class);

G_END_DECLS
