/* smprof-viewer-api.h: the plugin API of smprof-viewer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#define SMV_INSIDE

#include "smv-problem.h"
#include "smv-progress.h"
#include "smv-document.h"
#include "smv-data-source.h"

#undef SMV_INSIDE
