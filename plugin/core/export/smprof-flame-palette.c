/* smprof-flame-palette.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-flame-layout.h"
#include "smprof-flame-palette.h"

static const char * const palette_names[SMPROF_FLAME_N_PALETTES] = { "default", "module", "colorblind" };

/* Okabe and Ito's palette (2008), without black: told apart with any of the
 * common colour-vision deficiencies. */
static const guint32 okabe_ito[] = { 0xe69f00, 0x56b4e9, 0x009e73, 0xf0e442, 0x0072b2, 0xd55e00, 0xcc79a7 };

/* Labels are black on light frames and white on dark ones (smprof_flame_text_color()):
 * a luminance of 0.2 or more keeps 4.5:1 against black, 0.175 or less against white. */
#define LIGHT_MIN_LUMINANCE 0.2
#define DARK_MAX_LUMINANCE  0.175

/**
 * smprof_flame_palette_from_string:
 * @text: a scheme's name, as the viewer's setting stores it
 * @palette: (out): the scheme
 *
 * Returns: whether @text names a scheme
 */
gboolean
smprof_flame_palette_from_string (const char         *text,
                                  SmprofFlamePalette *palette)
{
  g_return_val_if_fail (palette != NULL, FALSE);

  for (guint i = 0; text != NULL && i < SMPROF_FLAME_N_PALETTES; i++)
    if (strcmp (text, palette_names[i]) == 0)
      {
        *palette = (SmprofFlamePalette) i;
        return TRUE;
      }

  return FALSE;
}

/**
 * smprof_flame_palette_to_string:
 * @palette: a scheme
 *
 * Returns: the scheme's name, the nick of the viewer's setting
 */
const char *
smprof_flame_palette_to_string (SmprofFlamePalette palette)
{
  g_return_val_if_fail ((guint) palette < SMPROF_FLAME_N_PALETTES, "default");

  return palette_names[palette];
}

/* FNV-1a, stable across runs and machines, so a file keeps its colour. */
static guint32
stable_hash (const char *text)
{
  guint32 hash = 2166136261u;

  for (; *text != '\0'; text++)
    {
      hash ^= (guint8) *text;
      hash *= 16777619u;
    }

  return hash;
}

/* Mixes @rgb towards black (@dark) or white until its luminance suits the
 * labels drawn on it. */
static void
fit_contrast (double   rgb[3],
              gboolean dark)
{
  double base[3] = { rgb[0], rgb[1], rgb[2] };
  double target = dark ? 0.0 : 1.0;

  for (double t = 0; t <= 1.0; t += 0.02)
    {
      for (guint c = 0; c < 3; c++)
        rgb[c] = base[c] + (target - base[c]) * t;

      if (dark ? smprof_flame_relative_luminance (rgb) <= DARK_MAX_LUMINANCE
               : smprof_flame_relative_luminance (rgb) >= LIGHT_MIN_LUMINANCE)
        return;
    }
}

/* The package a frame belongs to, as the default scheme groups them: the
 * folder after site-packages/dist-packages, else the file. */
static char *
dup_package (const char *file)
{
  static const char * const markers[] = { "/site-packages/", "/dist-packages/" };

  for (guint i = 0; i < G_N_ELEMENTS (markers); i++)
    {
      const char *found = g_strrstr (file, markers[i]);

      if (found != NULL)
        {
          const char *start = found + strlen (markers[i]);
          const char *end = strchr (start, '/');

          return end != NULL ? g_strndup (start, end - start) : g_strdup (start);
        }
    }

  return g_strdup (file);
}

static void
module_color (const char *file,
              const char *name,
              gboolean    dark,
              double      rgb[3])
{
  guint32 hash = stable_hash (file);
  double hue = (hash % 360) / 360.0;
  double step = ((stable_hash (name) % 100) / 100.0 - 0.5) * 0.1;
  double h6 = hue * 6, x;
  double chroma = 0.6;
  double lightness = (dark ? 0.32 : 0.78) + step;
  double m;

  /* HSL to RGB with a fixed saturation, then fitted to the labels. */
  x = chroma * (1 - fabs (fmod (h6, 2) - 1));
  rgb[0] = rgb[1] = rgb[2] = 0;
  switch ((int) h6 % 6)
    {
    case 0: rgb[0] = chroma; rgb[1] = x; break;
    case 1: rgb[0] = x; rgb[1] = chroma; break;
    case 2: rgb[1] = chroma; rgb[2] = x; break;
    case 3: rgb[1] = x; rgb[2] = chroma; break;
    case 4: rgb[0] = x; rgb[2] = chroma; break;
    default: rgb[0] = chroma; rgb[2] = x; break;
    }
  m = lightness - chroma / 2;
  for (guint c = 0; c < 3; c++)
    rgb[c] = CLAMP (rgb[c] + m, 0, 1);

  fit_contrast (rgb, dark);
}

static void
colorblind_color (const char *file,
                  const char *name,
                  gboolean    dark,
                  double      rgb[3])
{
  g_autofree char *package = dup_package (file);
  guint32 hex = okabe_ito[stable_hash (package) % G_N_ELEMENTS (okabe_ito)];
  /* Neighbours of one package differ by a small shade only: the hue is what
   * tells packages apart, and the palette has few. */
  double shade = (stable_hash (name) % 4) * 0.05;

  rgb[0] = ((hex >> 16) & 0xff) / 255.0;
  rgb[1] = ((hex >> 8) & 0xff) / 255.0;
  rgb[2] = (hex & 0xff) / 255.0;

  for (guint c = 0; c < 3; c++)
    rgb[c] = dark ? rgb[c] * (0.75 - shade) : rgb[c] + (1 - rgb[c]) * (0.25 + shade);

  fit_contrast (rgb, dark);
}

/**
 * smprof_flame_palette_color:
 * @palette: the scheme
 * @table: the function table
 * @func: a function id
 * @dark: whether to give the dark-mode colour (white labels)
 * @rgb: (out caller-allocates): the colour, channels 0..1
 *
 * Every scheme keeps a WCAG contrast of 4.5:1 or more with
 * smprof_flame_text_color() of @dark.
 */
void
smprof_flame_palette_color (SmprofFlamePalette  palette,
                            SmprofFunctionKeys *table,
                            guint32             func,
                            gboolean            dark,
                            double              rgb[3])
{
  g_return_if_fail (table != NULL);
  g_return_if_fail (rgb != NULL);

  if (palette == SMPROF_FLAME_PALETTE_DEFAULT || (guint) palette >= SMPROF_FLAME_N_PALETTES ||
      func >= smprof_function_keys_get_size (table))
    {
      smprof_flame_color_for_func (table, func, dark, rgb);
      return;
    }

  if (palette == SMPROF_FLAME_PALETTE_MODULE)
    module_color (smprof_function_keys_get_file (table, func), smprof_function_keys_get_name (table, func), dark, rgb);
  else
    colorblind_color (smprof_function_keys_get_file (table, func), smprof_function_keys_get_name (table, func), dark, rgb);
}

/**
 * smprof_flame_palette_dup_group:
 * @palette: the scheme
 * @table: the function table
 * @func: a function id
 *
 * What @func shares its colour with under @palette, for a legend: a package
 * ("torch"), a module of the standard library ("json", "random.py"), a file's
 * base name, or "built-ins".
 *
 * Returns: (transfer full): the group's name
 */
char *
smprof_flame_palette_dup_group (SmprofFlamePalette  palette,
                                SmprofFunctionKeys *table,
                                guint32             func)
{
  const char *file;
  g_autofree char *package = NULL;

  g_return_val_if_fail (table != NULL, NULL);

  if (func >= smprof_function_keys_get_size (table))
    return g_strdup ("?");

  file = smprof_function_keys_get_file (table, func);
  if (strcmp (file, "~") == 0)
    return g_strdup (_("built-ins"));

  if (palette == SMPROF_FLAME_PALETTE_MODULE)
    return g_path_get_basename (file);

  if (palette == SMPROF_FLAME_PALETTE_COLORBLIND)
    package = dup_package (file);
  else
    {
      const char *key;
      gsize len;

      smprof_flame_colour_key (file, &key, &len);
      package = g_strndup (key, len);
    }

  /* A file, rather than a package, goes by its base name. */
  if (strchr (package, '/') != NULL)
    {
      char *base = g_path_get_basename (package);

      g_free (package);
      package = base;
    }

  return g_steal_pointer (&package);
}
