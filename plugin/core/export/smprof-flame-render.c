/* smprof-flame-render.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-flame-render-private.h"


/* The lines a heading takes in @max_width: its own lines, each wrapped
 * between " · " parts where too wide. Widths are estimated (the SVG cannot
 * measure), generously, so the PNG, the PDF and the SVG break alike; a wrapped
 * line keeps its " · ", which says the next line goes on. */
char **
_smprof_flame_render_split_lines (const char *text,
             double      max_width)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_auto(GStrv) paragraphs = NULL;
  gsize fits = MAX (8, (gsize) (max_width / (TEXT_SIZE * 0.56)));

  if (text == NULL)
    return g_new0 (char *, 1);

  paragraphs = g_strsplit (text, "\n", -1);
  for (guint p = 0; paragraphs[p] != NULL; p++)
    {
      g_auto(GStrv) parts = g_strsplit (paragraphs[p], " · ", -1);
      g_autoptr(GString) line = g_string_new (NULL);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          gsize have = g_utf8_strlen (line->str, -1);

          if (have > 0 && have + 3 + g_utf8_strlen (parts[i], -1) > fits)
            {
              g_string_append (line, " · ");
              g_strv_builder_add (lines, line->str);
              g_string_truncate (line, 0);
            }
          else if (have > 0)
            g_string_append (line, " · ");
          g_string_append (line, parts[i]);
        }
      g_strv_builder_add (lines, line->str);
    }

  return g_strv_builder_end (lines);
}

static guint
count_lines (const char *text,
             double      max_width)
{
  g_auto(GStrv) lines = _smprof_flame_render_split_lines (text, max_width);

  return text != NULL ? g_strv_length (lines) : 0;
}

void
_smprof_flame_render_compute_geometry (SmprofFlameLayout              *layout,
                  const SmprofFlameRenderOptions *options,
                  const SmprofFlameLegend        *legend,
                  Geometry                       *geometry)
{
  guint n_subtitle, n_note;
  double below;

  geometry->n_rows = smprof_flame_layout_get_depth (layout);
  geometry->width = MAX (options->width, 4 * PAD);
  geometry->frames_width = geometry->width - 2 * PAD;
  n_subtitle = count_lines (options->subtitle, geometry->frames_width);
  n_note = count_lines (options->note, geometry->frames_width);
  below = SUBTITLE_Y + (MAX (n_subtitle, 1) - 1) * LINE_HEIGHT;
  geometry->note_y = below + NOTE_GAP;
  if (n_note > 0)
    below = geometry->note_y + (n_note - 1) * LINE_HEIGHT;
  geometry->frames_top = below + 13;
  /* An empty profile still gets one row, for the message that says so. */
  geometry->legend_top = geometry->frames_top + MAX (geometry->n_rows, 1) * ROW_HEIGHT + 6;
  geometry->height = geometry->legend_top + smprof_flame_legend_get_height (legend, geometry->frames_width) + FOOTER;
}

/* The legend the picture shows: @options', or for the palette its groups
 * (into @owned). */
const SmprofFlameLegend *
_smprof_flame_render_picture_legend (SmprofFlameLayout               *layout,
                const SmprofFlameRenderOptions  *options,
                SmprofFlameLegend              **owned)
{
  if (options->legend != NULL || options->style != NULL)
    return options->legend;

  *owned = smprof_flame_legend_new_for_palette (layout, options->palette, options->dark);
  return *owned;
}

double
_smprof_flame_render_row_y (const Geometry                 *geometry,
       const SmprofFlameRenderOptions *options,
       guint                           depth)
{
  if (options->direction == SMPROF_FLAME_DIRECTION_DOWN)
    return geometry->frames_top + depth * ROW_HEIGHT;

  return geometry->frames_top + (geometry->n_rows - 1 - depth) * ROW_HEIGHT;
}

void
_smprof_flame_render_background_color (gboolean dark,
                  double   rgb[3])
{
  rgb[0] = rgb[1] = rgb[2] = dark ? 0.14 : 0.98;
}

void
_smprof_flame_render_heading_color (gboolean dark,
               double   rgb[3])
{
  rgb[0] = rgb[1] = rgb[2] = dark ? 0.93 : 0.07;
}

void
_smprof_flame_render_note_color (gboolean dark,
            double   rgb[3])
{
  if (dark)
    {
      rgb[0] = 1.0;
      rgb[1] = 0.72;
      rgb[2] = 0.45;
    }
  else
    {
      rgb[0] = 0.62;
      rgb[1] = 0.25;
      rgb[2] = 0.0;
    }
}

/**
 * smprof_flame_render_get_frames_width:
 * @options: what goes around the frames
 *
 * Returns: the width, in pixels, that a layout's full width is drawn on; a
 *   minimum frame width in pixels over this is the layout's minimum width
 */
double
smprof_flame_render_get_frames_width (const SmprofFlameRenderOptions *options)
{
  g_return_val_if_fail (options != NULL, 0);

  return MAX (options->width, 4 * PAD) - 2 * PAD;
}

/**
 * smprof_flame_render_get_height:
 * @layout: the frames
 * @options: what goes around them
 *
 * Returns: the height of the picture for @options' width, in pixels
 */
double
smprof_flame_render_get_height (SmprofFlameLayout              *layout,
                                const SmprofFlameRenderOptions *options)
{
  g_autoptr(SmprofFlameLegend) owned = NULL;
  Geometry geometry;

  g_return_val_if_fail (layout != NULL, 0);
  g_return_val_if_fail (options != NULL, 0);

  _smprof_flame_render_compute_geometry (layout, options, _smprof_flame_render_picture_legend (layout, options, &owned), &geometry);

  return geometry.height;
}

/* A frame's fill: the style's, or the package palette's. */
gboolean
_smprof_flame_render_frame_color (SmprofFlameLayout              *layout,
             const SmprofFlameRenderOptions *options,
             guint32                         node,
             double                          rgb[3])
{
  SmprofCallTree *tree = smprof_flame_layout_get_tree (layout);
  gboolean dashed = FALSE;

  if (options->style != NULL && options->style->color != NULL)
    options->style->color (node, rgb, &dashed, options->style->user_data);
  else
    smprof_flame_palette_color (options->palette, smprof_call_tree_get_table (tree),
                                smprof_call_tree_get_node (tree, node)->func, options->dark, rgb);

  return dashed;
}

/* A frame's name as the app spells it: a built-in as pstats labels it,
 * {built-in method time.sleep}, else the function's name. */
char *
_smprof_flame_render_dup_frame_name (SmprofFunctionKeys *table,
                guint32             func)
{
  if (strcmp (smprof_function_keys_get_file (table, func), "~") == 0 &&
      smprof_function_keys_get_line (table, func) == 0)
    return smprof_function_keys_dup_label (table, func);

  return g_strdup (smprof_function_keys_get_name (table, func));
}
