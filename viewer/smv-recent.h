/* smv-recent.h: the jobs opened lately
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SMV_RECENT_MAX_ITEMS 10

#define SMV_TYPE_RECENT (smv_recent_get_type ())

G_DECLARE_FINAL_TYPE (SmvRecent, smv_recent, SMV, RECENT, GObject)

SmvRecent  *smv_recent_new         (GSettings  *settings);
SmvRecent  *smv_recent_new_default (void);
guint       smv_recent_get_n_items (SmvRecent  *self);
const char *smv_recent_get_uri     (SmvRecent  *self,
                                    guint       position);
const char *smv_recent_get_title   (SmvRecent  *self,
                                    guint       position);
void        smv_recent_add         (SmvRecent  *self,
                                    GFile      *location,
                                    const char *title);
void        smv_recent_remove      (SmvRecent  *self,
                                    const char *uri);

G_END_DECLS
