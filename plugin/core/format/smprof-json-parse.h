/* smprof-json-parse.h: parsing a JSON document read from an untrusted file
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonParser *smprof_json_parse_bounded (GBytes  *bytes,
                                       guint    max_nesting,
                                       GError **error);

G_END_DECLS
