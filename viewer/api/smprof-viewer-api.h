/* smprof-viewer-api.h: the plugin API of smprof-viewer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plugin is a GIO module implementing the data-source extension point
 * (smv-data-source.h). The viewer and its plugins meet at four places:
 *
 * - SmvDataSource: what a plugin opens (can_open, which must not touch the
 *   file system or the network, since it runs while the user types), how
 *   (open_async on worker threads, open_finish and create_page on the main
 *   thread), and its settings: a plugin keeps its own GSettings schema and
 *   hands the viewer an AdwPreferencesPage (create_preferences_page), shown
 *   in the viewer's Preferences window next to the other plugins' pages;
 * - SmvDocument and SmvProblem: what was opened, and what was skipped, which
 *   the viewer lists in its banner;
 * - SmvProgress: how far an open got, for the viewer's loading page;
 * - SmvHost (smv-host.h): what the viewer offers a page it shows: toasts
 *   (AdwToast, in the window's toast overlay) and a banner above the page,
 *   so pages build neither. A page finds its host with smv_host_find().
 *
 * The API needs GTK 4.8 and libadwaita 1.2 (pkg-config: smprof-viewer-api-1).
 */

#pragma once

#define SMV_INSIDE

#include "smv-problem.h"
#include "smv-progress.h"
#include "smv-document.h"
#include "smv-host.h"
#include "smv-data-source.h"

#undef SMV_INSIDE
