/* smprof-flame-render-svg.c: the flame graph as a standalone, interactive SVG
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-export-asset.h"
#include "smprof-flame-render-private.h"
#include "smprof-xml.h"

static void
append_number (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.2f", value));
}

static void
append_fraction (GString *out,
                 double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.9g", value));
}

static void
append_rgb (GString      *out,
            const double  rgb[3])
{
  g_string_append_printf (out, "rgb(%d,%d,%d)",
                          (int) lround (CLAMP (rgb[0], 0, 1) * 255),
                          (int) lround (CLAMP (rgb[1], 0, 1) * 255),
                          (int) lround (CLAMP (rgb[2], 0, 1) * 255));
}

/* The same cut as the script's fit(). */
static void
append_fitted_label (GString    *out,
                     const char *label,
                     double      width)
{
  g_autofree char *valid = g_utf8_make_valid (label, -1);
  glong n = (glong) floor ((width - 6) / CHAR_WIDTH);
  glong length = g_utf8_strlen (valid, -1);

  if (n < 3)
    return;

  if (length <= n)
    smprof_xml_append_escaped (out, valid);
  else
    {
      g_autofree char *prefix = g_utf8_substring (valid, 0, n - 2);

      smprof_xml_append_escaped (out, prefix);
      g_string_append (out, "..");
    }
}

static void
append_time (GString *out,
             double   seconds)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (seconds >= 1)
    g_string_append_printf (out, "%s s", g_ascii_formatd (buffer, sizeof buffer, "%.3f", seconds));
  else
    g_string_append_printf (out, "%s ms", g_ascii_formatd (buffer, sizeof buffer, "%.3f", seconds * 1000));
}

static gboolean
flush_if_big (GOutputStream  *stream,
              GString        *out,
              gboolean        force,
              GCancellable   *cancellable,
              GError        **error)
{
  if (!force && out->len < 256 * 1024)
    return TRUE;

  if (!g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
    return FALSE;

  g_string_truncate (out, 0);
  return TRUE;
}

static void
append_text_line (GString    *out,
                  const char *id,
                  const char *css_class,
                  double      x,
                  double      y,
                  const char *anchor,
                  const char *text,
                  gboolean    hidden)
{
  g_string_append (out, "<text");
  if (id != NULL)
    g_string_append_printf (out, " id=\"%s\"", id);
  if (css_class != NULL)
    g_string_append_printf (out, " class=\"%s\"", css_class);
  g_string_append (out, " x=\"");
  append_number (out, x);
  g_string_append (out, "\" y=\"");
  append_number (out, y);
  g_string_append_printf (out, "\" text-anchor=\"%s\"%s>", anchor, hidden ? " style=\"display: none\"" : "");
  smprof_xml_append_escaped (out, text);
  g_string_append (out, "</text>\n");
}

/* A text of one line, or of several, one tspan each, under one id. */
static void
append_text_lines (GString    *out,
                   const char *id,
                   double      x,
                   double      y,
                   double      max_width,
                   const char *text)
{
  g_auto(GStrv) lines = _smprof_flame_render_split_lines (text, max_width);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (g_strv_length (lines) == 1)
    {
      append_text_line (out, id, NULL, x, y, "middle", lines[0], FALSE);
      return;
    }

  g_string_append_printf (out, "<text id=\"%s\" text-anchor=\"middle\">", id);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_string_append_printf (out, "<tspan x=\"%s\"", g_ascii_formatd (buffer, sizeof buffer, "%.2f", x));
      g_string_append_printf (out, " y=\"%s\">", g_ascii_formatd (buffer, sizeof buffer, "%.2f", y + i * LINE_HEIGHT));
      smprof_xml_append_escaped (out, lines[i]);
      g_string_append (out, "</tspan>");
    }
  g_string_append (out, "</text>\n");
}

/**
 * smprof_flame_render_svg:
 * @layout: the frames
 * @options: what goes around them
 * @stream: where to write the SVG
 * @cancellable: (nullable): a #GCancellable
 * @error: a location for a #GError, or %NULL
 *
 * Writes the picture smprof_flame_render() draws as a standalone SVG, with a
 * small script for hover details, click-to-zoom and search. Cairo's own SVG
 * surface is not used: it writes text as glyph outlines and frames as
 * anonymous paths, which a script can neither search nor re-place.
 *
 * Returns: %FALSE on a write error
 */
gboolean
smprof_flame_render_svg (SmprofFlameLayout              *layout,
                         const SmprofFlameRenderOptions *options,
                         GOutputStream                  *stream,
                         GCancellable                   *cancellable,
                         GError                        **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(SmprofFlameLegend) owned = NULL;
  const SmprofFlameLegend *legend;
  SmprofCallTree *tree;
  SmprofFunctionKeys *table;
  Geometry geometry;
  double rgb[3];
  double total;
  guint n_rects;

  g_return_val_if_fail (layout != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  tree = smprof_flame_layout_get_tree (layout);
  table = smprof_call_tree_get_table (tree);
  total = smprof_flame_layout_get_total (layout);
  n_rects = smprof_flame_layout_get_n_rects (layout);
  legend = _smprof_flame_render_picture_legend (layout, options, &owned);
  _smprof_flame_render_compute_geometry (layout, options, legend, &geometry);

  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
  g_string_append (out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
  append_number (out, geometry.width);
  g_string_append (out, "\" height=\"");
  append_number (out, geometry.height);
  g_string_append (out, "\" viewBox=\"0 0 ");
  append_number (out, geometry.width);
  g_string_append_c (out, ' ');
  append_number (out, geometry.height);
  g_string_append (out, "\" data-frames-width=\"");
  append_number (out, geometry.frames_width);
  g_string_append (out, "\" data-pad=\"");
  append_number (out, PAD);
  g_string_append (out, "\" data-char-width=\"");
  append_number (out, CHAR_WIDTH);
  g_string_append (out, "\" onload=\"init(evt)\">\n");

  _smprof_flame_render_heading_color (options->dark, rgb);
  g_string_append (out, "<style type=\"text/css\">\n");
  /* Sizes are whole pixels: "%d" keeps a locale's decimal comma out of the file. */
  g_string_append_printf (out, "text { font-family: '%s', Verdana, sans-serif; font-size: %dpx; fill: ",
                          FONT_FAMILY, (int) TEXT_SIZE);
  append_rgb (out, rgb);
  g_string_append_printf (out, "; }\n#title { font-size: %dpx; font-weight: bold; }\n", (int) TITLE_SIZE);
  _smprof_flame_render_note_color (options->dark, rgb);
  g_string_append (out, "#note { font-style: italic; fill: ");
  append_rgb (out, rgb);
  g_string_append (out, "; }\n");
  smprof_flame_text_color (options->dark, rgb);
  g_string_append_printf (out, ".f text { font-size: %dpx; pointer-events: none; fill: ", (int) FRAME_FONT);
  append_rgb (out, rgb);
  g_string_append (out, "; }\n"
                        ".f { cursor: pointer; }\n"
                        ".f:hover rect { stroke: black; stroke-width: 0.5; }\n"
                        ".parent { opacity: 0.5; }\n"
                        ".button { cursor: pointer; text-decoration: underline; }\n"
                        "</style>\n");
  g_string_append (out, "<script type=\"text/ecmascript\"><![CDATA[\n");
  g_string_append (out, _smprof_export_asset ("flame-graph.js"));
  g_string_append (out, "]]></script>\n");

  _smprof_flame_render_background_color (options->dark, rgb);
  g_string_append (out, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"");
  append_rgb (out, rgb);
  g_string_append (out, "\"/>\n");

  append_text_line (out, "title", NULL, geometry.width / 2, TITLE_Y, "middle", options->title ? options->title : "", FALSE);
  if (options->subtitle != NULL)
    append_text_lines (out, "subtitle", geometry.width / 2, SUBTITLE_Y, geometry.frames_width, options->subtitle);
  if (options->note != NULL)
    append_text_lines (out, "note", geometry.width / 2, geometry.note_y, geometry.frames_width, options->note);
  /* The buttons the script shows only when they can do something start hidden. */
  append_text_line (out, "reset", "button", PAD, TITLE_Y, "start", _("Reset zoom"), TRUE);
  append_text_line (out, "search", "button", geometry.width - PAD, TITLE_Y, "end", _("Search"), FALSE);
  append_text_line (out, "clear", "button", geometry.width - PAD - 60, TITLE_Y, "end", _("Clear"), TRUE);
  append_text_line (out, "details", NULL, PAD, geometry.height - 12, "start", " ", FALSE);
  append_text_line (out, "matched", NULL, geometry.width - PAD, geometry.height - 12, "end", " ", FALSE);

  if (n_rects == 0)
    append_text_line (out, NULL, NULL, geometry.width / 2, geometry.frames_top + ROW_HEIGHT - 4, "middle",
                      _("No time was recorded in this selection"), FALSE);

  g_string_append (out, "<g id=\"frames\">\n");
  for (guint i = 0; i < n_rects; i++)
    {
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (tree, rect->node);
      g_autofree char *name = _smprof_flame_render_dup_frame_name (table, node->func);
      const char *file = smprof_function_keys_get_file (table, node->func);
      double x = PAD + rect->x * geometry.frames_width;
      double w = rect->width * geometry.frames_width;
      double y = _smprof_flame_render_row_y (&geometry, options, rect->depth);
      char percent[G_ASCII_DTOSTR_BUF_SIZE];
      gboolean dashed;

      g_string_append (out, "<g class=\"f\" data-x=\"");
      append_fraction (out, rect->x);
      g_string_append (out, "\" data-w=\"");
      append_fraction (out, rect->width);
      g_string_append_printf (out, "\" data-d=\"%u\" data-p=\"%d\" data-n=\"", rect->depth,
                              smprof_flame_layout_get_parent (layout, i));
      smprof_xml_append_escaped (out, name);
      g_string_append (out, "\" data-f=\"");
      smprof_xml_append_escaped (out, file);
      g_string_append (out, "\"><title>");
      smprof_xml_append_escaped (out, name);
      if (strcmp (file, "~") != 0)
        {
          g_string_append (out, " (");
          smprof_xml_append_escaped (out, file);
          g_string_append_printf (out, ":%" G_GINT64_FORMAT ")", smprof_function_keys_get_line (table, node->func));
        }
      g_string_append_c (out, '\n');
      if (options->style != NULL && options->style->describe != NULL)
        {
          g_autoptr(GString) described = g_string_new (NULL);

          options->style->describe (rect->node, described, options->style->user_data);
          smprof_xml_append_escaped (out, described->str);
        }
      else
        {
          append_time (out, node->total);
          g_string_append_printf (out, " (%s%%), ",
                                  g_ascii_formatd (percent, sizeof percent, "%.2f",
                                                   total > 0 ? 100 * node->total / total : 0));
          append_time (out, node->self);
          g_string_append (out, _(" self"));
        }
      g_string_append (out, "</title><rect x=\"");
      append_number (out, x);
      g_string_append (out, "\" y=\"");
      append_number (out, y);
      g_string_append (out, "\" width=\"");
      append_number (out, w > 1 ? w - 0.5 : w);
      g_string_append_printf (out, "\" height=\"%d\" rx=\"2\" fill=\"", (int) FRAME_HEIGHT);
      dashed = _smprof_flame_render_frame_color (layout, options, rect->node, rgb);
      append_rgb (out, rgb);
      if (dashed)
        g_string_append (out, "\" stroke=\"black\" stroke-width=\"1\" stroke-dasharray=\"2,2");
      g_string_append (out, "\"/><text x=\"");
      append_number (out, x + 3);
      g_string_append (out, "\" y=\"");
      append_number (out, y + FRAME_HEIGHT - 4);
      g_string_append (out, "\">");
      append_fitted_label (out, name, w);
      g_string_append (out, "</text></g>\n");

      if (!flush_if_big (stream, out, FALSE, cancellable, error))
        return FALSE;
    }
  g_string_append (out, "</g>\n");
  smprof_flame_legend_append_svg (legend, out, PAD, geometry.legend_top, geometry.frames_width);
  g_string_append (out, "</svg>\n");

  return flush_if_big (stream, out, TRUE, cancellable, error);
}
