/* smv-open-location-dialog.h: type a folder path or a URI
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "smv-source-registry.h"

G_BEGIN_DECLS

#define SMV_TYPE_OPEN_LOCATION_DIALOG (smv_open_location_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SmvOpenLocationDialog, smv_open_location_dialog, SMV, OPEN_LOCATION_DIALOG, GtkWindow)

GtkWidget *smv_open_location_dialog_new         (GtkWindow             *parent,
                                                 SmvSourceRegistry     *registry);
GFile     *smv_open_location_dialog_dup_location (SmvOpenLocationDialog *self);
GFile     *smv_location_from_text                (const char            *text);

G_END_DECLS
