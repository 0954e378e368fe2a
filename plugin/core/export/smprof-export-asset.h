/* smprof-export-asset.h: text files the exports inline
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *_smprof_export_asset (const char *name);

G_END_DECLS
