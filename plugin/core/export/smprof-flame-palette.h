/* smprof-flame-palette.h: the colour schemes of flame graphs
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "smprof-function-keys.h"

G_BEGIN_DECLS

/* Its GType's nicks and values (SMPROF_TYPE_FLAME_PALETTE) are the
 * viewer's io.github.smprof.Viewer.FlameGraphColorScheme enum's:
 * tests/ui/test-enums.c holds them together. */
typedef enum
{
  SMPROF_FLAME_PALETTE_DEFAULT = 0,    /* warm, one hue per package (flamegraph.pl) */
  SMPROF_FLAME_PALETTE_MODULE = 1,     /* the whole colour wheel, one hue per file */
  SMPROF_FLAME_PALETTE_COLORBLIND = 2, /* Okabe and Ito's eight colours, per package */
} SmprofFlamePalette;

#define SMPROF_FLAME_N_PALETTES 3

gboolean    smprof_flame_palette_from_string (const char         *text,
                                              SmprofFlamePalette *palette);
const char *smprof_flame_palette_to_string   (SmprofFlamePalette  palette);
void        smprof_flame_palette_color       (SmprofFlamePalette  palette,
                                              SmprofFunctionKeys *table,
                                              guint32             func,
                                              gboolean            dark,
                                              double              rgb[3]);
char       *smprof_flame_palette_dup_group   (SmprofFlamePalette  palette,
                                              SmprofFunctionKeys *table,
                                              guint32             func);

G_END_DECLS
