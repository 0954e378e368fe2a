/* smprof-ui.h: what every widget of the UI library shares
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void smprof_ui_ensure_resources (void);

G_END_DECLS
