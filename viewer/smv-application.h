/* smv-application.h: smprof-viewer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "smv-source-registry.h"

G_BEGIN_DECLS

#define SMV_APPLICATION_ID "io.github.smprof.Viewer"

#define SMV_TYPE_APPLICATION (smv_application_get_type ())

G_DECLARE_FINAL_TYPE (SmvApplication, smv_application, SMV, APPLICATION, AdwApplication)

void               smv_application_bind_textdomain (void);
SmvApplication    *smv_application_new          (GApplicationFlags  extra_flags);
SmvSourceRegistry *smv_application_get_registry (SmvApplication    *self);

G_END_DECLS
