/* smprof-xml.h: text made safe inside XML and HTML
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void smprof_xml_append_escaped (GString    *out,
                                const char *text);

G_END_DECLS
