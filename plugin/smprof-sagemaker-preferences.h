/* smprof-sagemaker-preferences.h: the plugin's page of the viewer's Preferences window
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SMPROF_TYPE_SAGEMAKER_PREFERENCES (smprof_sagemaker_preferences_get_type ())

G_DECLARE_FINAL_TYPE (SmprofSagemakerPreferences, smprof_sagemaker_preferences, SMPROF, SAGEMAKER_PREFERENCES,
                      AdwPreferencesPage)

AdwPreferencesPage *smprof_sagemaker_preferences_new (void);

G_END_DECLS
