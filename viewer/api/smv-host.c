/* smv-host.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smprof-viewer-api.h"

/**
 * SmvHost:
 *
 * The widget that shows a data source's page: in smprof-viewer, its window.
 *
 * A page tells the user about what it did through its host instead of
 * building its own notifications, so every page speaks the same way and the
 * window keeps one place for messages:
 *
 * - a toast (an `AdwToast`, in the window's `AdwToastOverlay`) for what went
 *   well and needs no answer: "Exported “job.svg”";
 * - the page's banner, above the page until the user closes it or the page
 *   hides it, for what failed and should be read: "Could not export …".
 *
 * The page finds its host among its ancestors once it is in a window:
 *
 * ```c
 * SmvHost *host = smv_host_find (GTK_WIDGET (page));
 *
 * if (host != NULL)
 *   smv_host_add_toast (host, adw_toast_new (_("Exported “job.svg”")));
 * ```
 *
 * A page shown outside the viewer (in a test, or in another program) has no
 * host: smv_host_find() returns %NULL, and the page decides what to do.
 *
 * A toast's button runs in the window, outside the page: a page that wants
 * one connects to the toast's `button-clicked` signal rather than naming one
 * of its own actions, which the toast cannot reach.
 */

G_DEFINE_INTERFACE (SmvHost, smv_host, GTK_TYPE_WIDGET)

static void
smv_host_default_init (SmvHostInterface *iface)
{
}

/**
 * smv_host_find:
 * @widget: a page, or any widget inside one
 *
 * Returns: (transfer none) (nullable): the host @widget is shown in, or %NULL
 *   when it is in none (yet)
 */
SmvHost *
smv_host_find (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return (SmvHost *) gtk_widget_get_ancestor (widget, SMV_TYPE_HOST);
}

/**
 * smv_host_add_toast:
 * @self: a host
 * @toast: (transfer full): the toast
 *
 * Shows @toast over the page, as `adw_toast_overlay_add_toast()` does: it
 * goes away by itself after its timeout, and toasts queue one after another.
 */
void
smv_host_add_toast (SmvHost  *self,
                    AdwToast *toast)
{
  g_return_if_fail (SMV_IS_HOST (self));
  g_return_if_fail (ADW_IS_TOAST (toast));

  SMV_HOST_GET_IFACE (self)->add_toast (self, toast);
}

/**
 * smv_host_show_banner:
 * @self: a host
 * @kind: how the banner looks
 * @title: the message, translated
 * @detail: (nullable): more about it, translated
 *
 * Shows the page's banner above the page, replacing what it showed. It stays
 * until the user closes it, the page calls [method@Smv.Host.hide_banner], or
 * the host shows another document. The host's own messages (a location that
 * cannot be opened, files skipped while opening) have their own banner.
 */
void
smv_host_show_banner (SmvHost       *self,
                      SmvBannerKind  kind,
                      const char    *title,
                      const char    *detail)
{
  g_return_if_fail (SMV_IS_HOST (self));
  g_return_if_fail (kind <= SMV_BANNER_ERROR);
  g_return_if_fail (title != NULL);

  SMV_HOST_GET_IFACE (self)->show_banner (self, kind, title, detail);
}

/**
 * smv_host_hide_banner:
 * @self: a host
 *
 * Hides the page's banner, for example once what failed worked.
 */
void
smv_host_hide_banner (SmvHost *self)
{
  g_return_if_fail (SMV_IS_HOST (self));

  SMV_HOST_GET_IFACE (self)->hide_banner (self);
}
