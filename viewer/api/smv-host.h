/* smv-host.h: what the viewer offers the pages it shows
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#if !defined (SMV_INSIDE) && !defined (SMV_COMPILATION)
# error "Only <smprof-viewer-api.h> can be included directly."
#endif

#include <adwaita.h>

G_BEGIN_DECLS

/**
 * SmvBannerKind:
 * @SMV_BANNER_INFO: something the user may want to know
 * @SMV_BANNER_WARNING: something went partly wrong; the page still works
 * @SMV_BANNER_ERROR: something the user asked for failed
 *
 * How a banner looks.
 */
typedef enum
{
  SMV_BANNER_INFO,
  SMV_BANNER_WARNING,
  SMV_BANNER_ERROR,
} SmvBannerKind;

#define SMV_TYPE_HOST (smv_host_get_type ())

G_DECLARE_INTERFACE (SmvHost, smv_host, SMV, HOST, GtkWidget)

/**
 * SmvHostInterface:
 * @add_toast: shows a toast over the page
 * @show_banner: shows, or replaces, the page's banner
 * @hide_banner: hides the page's banner
 *
 * The interface of the widget that holds a page: the viewer's window.
 */
struct _SmvHostInterface
{
  GTypeInterface parent_iface;

  void (*add_toast)   (SmvHost       *self,
                       AdwToast      *toast);
  void (*show_banner) (SmvHost       *self,
                       SmvBannerKind  kind,
                       const char    *title,
                       const char    *detail);
  void (*hide_banner) (SmvHost       *self);
};

SmvHost *smv_host_find        (GtkWidget     *widget);
void     smv_host_add_toast   (SmvHost       *self,
                               AdwToast      *toast);
void     smv_host_show_banner (SmvHost       *self,
                               SmvBannerKind  kind,
                               const char    *title,
                               const char    *detail);
void     smv_host_hide_banner (SmvHost       *self);

G_END_DECLS
