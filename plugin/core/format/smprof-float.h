/* smprof-float.h: doubles as Python prints them
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SMPROF_FLOAT_BUF_SIZE 32

char *smprof_float_format_repr (char   *buffer,
                                double  value);

G_END_DECLS
