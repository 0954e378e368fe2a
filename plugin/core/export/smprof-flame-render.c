/* smprof-flame-render.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-flame-render.h"

/* One geometry for every output, so the SVG, the PNG and the PDF of a
 * selection look alike. Sizes are in pixels. */
#define PAD           10.0
#define TITLE_SIZE    17.0
#define TEXT_SIZE     12.0
#define FRAME_FONT    11.0
#define ROW_HEIGHT    16.0
#define FRAME_HEIGHT  15.0
#define TITLE_Y       26.0
#define SUBTITLE_Y    46.0
#define LINE_HEIGHT   16.0
#define NOTE_GAP      17.0
#define FOOTER        34.0
/* The SVG cannot measure text before a browser lays it out, so its labels are
 * cut on an average glyph width (flamegraph.pl's 0.59 em, for Verdana). */
#define CHAR_WIDTH    (FRAME_FONT * 0.59)
#define FONT_FAMILY   "DejaVu Sans"

typedef struct
{
  double width;
  double height;
  double frames_top;
  double frames_width;
  double note_y;
  double legend_top;
  guint  n_rows;
} Geometry;

/* The lines a heading takes in @max_width: its own lines, each wrapped
 * between " · " parts where too wide. Widths are estimated (the SVG cannot
 * measure), generously, so the PNG, the PDF and the SVG break alike; a wrapped
 * line keeps its " · ", which says the next line goes on. */
static char **
split_lines (const char *text,
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
  g_auto(GStrv) lines = split_lines (text, max_width);

  return text != NULL ? g_strv_length (lines) : 0;
}

static void
compute_geometry (SmprofFlameLayout              *layout,
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
static const SmprofFlameLegend *
picture_legend (SmprofFlameLayout               *layout,
                const SmprofFlameRenderOptions  *options,
                SmprofFlameLegend              **owned)
{
  if (options->legend != NULL || options->style != NULL)
    return options->legend;

  *owned = smprof_flame_legend_new_for_palette (layout, options->palette, options->dark);
  return *owned;
}

static double
row_y (const Geometry                 *geometry,
       const SmprofFlameRenderOptions *options,
       guint                           depth)
{
  if (options->direction == SMPROF_FLAME_DIRECTION_DOWN)
    return geometry->frames_top + depth * ROW_HEIGHT;

  return geometry->frames_top + (geometry->n_rows - 1 - depth) * ROW_HEIGHT;
}

static void
background_color (gboolean dark,
                  double   rgb[3])
{
  rgb[0] = rgb[1] = rgb[2] = dark ? 0.14 : 0.98;
}

static void
heading_color (gboolean dark,
               double   rgb[3])
{
  rgb[0] = rgb[1] = rgb[2] = dark ? 0.93 : 0.07;
}

static void
note_color (gboolean dark,
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

  compute_geometry (layout, options, picture_legend (layout, options, &owned), &geometry);

  return geometry.height;
}

/* A frame's fill: the style's, or the package palette's. */
static gboolean
frame_color (SmprofFlameLayout              *layout,
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
static char *
dup_frame_name (SmprofFunctionKeys *table,
                guint32             func)
{
  if (strcmp (smprof_function_keys_get_file (table, func), "~") == 0 &&
      smprof_function_keys_get_line (table, func) == 0)
    return smprof_function_keys_dup_label (table, func);

  return g_strdup (smprof_function_keys_get_name (table, func));
}

static char *
dup_frame_label (SmprofFlameLayout     *layout,
                 const SmprofFlameRect *rect)
{
  SmprofCallTree *tree = smprof_flame_layout_get_tree (layout);

  return dup_frame_name (smprof_call_tree_get_table (tree), smprof_call_tree_get_node (tree, rect->node)->func);
}

/* ------------------------------------------------------------------ cairo */

/* The longest prefix of @text, with "..", that fits @max_width. */
static char *
fit_text_cairo (cairo_t    *cr,
                const char *text,
                double      max_width)
{
  cairo_text_extents_t extents;
  glong n_chars, lo, hi;

  cairo_text_extents (cr, text, &extents);
  if (extents.x_advance <= max_width)
    return g_strdup (text);

  n_chars = g_utf8_strlen (text, -1);
  lo = 0;
  hi = n_chars;
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      const char *end = g_utf8_offset_to_pointer (text, mid);
      g_autofree char *candidate = g_strdup_printf ("%.*s..", (int) (end - text), text);

      cairo_text_extents (cr, candidate, &extents);
      if (extents.x_advance <= max_width)
        lo = mid;
      else
        hi = mid - 1;
    }

  if (lo < 2)
    return NULL;

  return g_strdup_printf ("%.*s..", (int) (g_utf8_offset_to_pointer (text, lo) - text), text);
}

static void show_line (cairo_t    *cr,
                       const char *text,
                       double      x,
                       double      y,
                       double      max_width,
                       gboolean    centered);

/* Each line of @text, @spacing apart. */
static void
show_lines (cairo_t    *cr,
            const char *text,
            double      x,
            double      y,
            double      max_width)
{
  g_auto(GStrv) lines = split_lines (text, max_width);

  for (guint i = 0; lines[i] != NULL; i++)
    show_line (cr, lines[i], x, y + i * LINE_HEIGHT, max_width, TRUE);
}

static void
show_line (cairo_t    *cr,
           const char *text,
           double      x,
           double      y,
           double      max_width,
           gboolean    centered)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *fitted = fit_text_cairo (cr, valid, max_width);
  cairo_text_extents_t extents;

  if (fitted == NULL)
    return;

  cairo_text_extents (cr, fitted, &extents);
  cairo_move_to (cr, centered ? x - extents.x_advance / 2 : x, y);
  cairo_show_text (cr, fitted);
}

/**
 * smprof_flame_render:
 * @layout: the frames
 * @options: what goes around them
 * @cr: where to draw, at least @options' width wide and
 *   smprof_flame_render_get_height() high, in pixels
 *
 * Draws the title, subtitle, note and every frame of @layout with its label,
 * cut to fit the frame.
 */
void
smprof_flame_render (SmprofFlameLayout              *layout,
                     const SmprofFlameRenderOptions *options,
                     cairo_t                        *cr)
{
  g_autoptr(SmprofFlameLegend) owned = NULL;
  const SmprofFlameLegend *legend;
  Geometry geometry;
  double rgb[3], text_rgb[3];
  guint n_rects;

  g_return_if_fail (layout != NULL);
  g_return_if_fail (options != NULL);
  g_return_if_fail (cr != NULL);

  n_rects = smprof_flame_layout_get_n_rects (layout);
  legend = picture_legend (layout, options, &owned);
  compute_geometry (layout, options, legend, &geometry);

  cairo_save (cr);

  background_color (options->dark, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (cr, 0, 0, geometry.width, geometry.height);
  cairo_fill (cr);

  heading_color (options->dark, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, TITLE_SIZE);
  if (options->title != NULL)
    show_line (cr, options->title, geometry.width / 2, TITLE_Y, geometry.frames_width, TRUE);

  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, TEXT_SIZE);
  if (options->subtitle != NULL)
    show_lines (cr, options->subtitle, geometry.width / 2, SUBTITLE_Y, geometry.frames_width);

  if (options->note != NULL)
    {
      note_color (options->dark, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_ITALIC, CAIRO_FONT_WEIGHT_NORMAL);
      show_lines (cr, options->note, geometry.width / 2, geometry.note_y, geometry.frames_width);
    }

  if (n_rects == 0)
    {
      heading_color (options->dark, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      show_line (cr, _("No time was recorded in this selection"), geometry.width / 2,
                 geometry.frames_top + ROW_HEIGHT - 4, geometry.frames_width, TRUE);
    }

  /* Frames first, then labels, so the font is set once. */
  for (guint i = 0; i < n_rects; i++)
    {
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      double x = PAD + rect->x * geometry.frames_width;
      double w = rect->width * geometry.frames_width;
      gboolean dashed = frame_color (layout, options, rect->node, rgb);

      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, x, row_y (&geometry, options, rect->depth), w > 1 ? w - 0.5 : w, FRAME_HEIGHT);
      if (dashed)
        {
          static const double dashes[] = { 2.0, 2.0 };

          cairo_fill_preserve (cr);
          smprof_flame_text_color (options->dark, rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          cairo_set_line_width (cr, 1.0);
          cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
        }
      else
        cairo_fill (cr);
    }

  smprof_flame_text_color (options->dark, text_rgb);
  cairo_set_source_rgb (cr, text_rgb[0], text_rgb[1], text_rgb[2]);
  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, FRAME_FONT);
  for (guint i = 0; i < n_rects; i++)
    {
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      double x = PAD + rect->x * geometry.frames_width;
      double w = rect->width * geometry.frames_width;
      double y = row_y (&geometry, options, rect->depth);

      if (w < 3 * CHAR_WIDTH)
        continue;

      {
        g_autofree char *label = dup_frame_label (layout, rect);

        cairo_save (cr);
        cairo_rectangle (cr, x, y, w, FRAME_HEIGHT);
        cairo_clip (cr);
        show_line (cr, label, x + 3, y + FRAME_HEIGHT - 4, w - 6, FALSE);
        cairo_restore (cr);
      }
    }

  heading_color (options->dark, rgb);
  smprof_flame_legend_draw (legend, cr, PAD, geometry.legend_top, geometry.frames_width, rgb);

  cairo_restore (cr);
}

/* ------------------------------------------------------------------ SVG */

/* Zoom, search and hover, in the manner of flamegraph.pl's SVGs. Every frame
 * is a <g> holding its fraction of the width (data-x, data-w), its depth, its
 * parent frame's index, its name and file; the script re-places the frames on
 * a click, highlights matches and sums their share without counting a match
 * inside a match twice. */
static const char svg_script[] =
  "\"use strict\";\n"
  "var frames = [], W, PAD, CHAR, zoomed = null, term = null;\n"
  "var details, matched, resetButton, clearButton;\n"
  "function $(id) { return document.getElementById(id); }\n"
  "function init(evt) {\n"
  "  var svg = document.documentElement;\n"
  "  W = +svg.getAttribute('data-frames-width'); PAD = +svg.getAttribute('data-pad');\n"
  "  CHAR = +svg.getAttribute('data-char-width');\n"
  "  details = $('details'); matched = $('matched'); resetButton = $('reset'); clearButton = $('clear');\n"
  "  var gs = $('frames').getElementsByTagName('g');\n"
  "  for (var i = 0; i < gs.length; i++) {\n"
  "    var g = gs[i], rect = g.getElementsByTagName('rect')[0];\n"
  "    var f = { g: g, rect: rect, text: g.getElementsByTagName('text')[0],\n"
  "              x: +g.getAttribute('data-x'), w: +g.getAttribute('data-w'), d: +g.getAttribute('data-d'),\n"
  "              p: +g.getAttribute('data-p'), name: g.getAttribute('data-n'), file: g.getAttribute('data-f'),\n"
  "              info: g.getElementsByTagName('title')[0].textContent, fill: rect.getAttribute('fill') };\n"
  "    frames.push(f);\n"
  "    g.addEventListener('click', zoom.bind(null, f));\n"
  "    g.addEventListener('mouseover', function (f) { details.textContent = f.info.replace(/\\n/g, ' \\u2014 '); }.bind(null, f));\n"
  "    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
  "  }\n"
  "  resetButton.addEventListener('click', unzoom);\n"
  "  $('search').addEventListener('click', ask);\n"
  "  clearButton.addEventListener('click', clearSearch);\n"
  "  window.addEventListener('keydown', function (e) {\n"
  "    if ((e.ctrlKey && e.key === 'f') || e.key === '/') { e.preventDefault(); ask(); }\n"
  "    else if (e.key === 'Escape') { if (term !== null) clearSearch(); else unzoom(); }\n"
  "  });\n"
  "}\n"
  "function fit(label, pw) {\n"
  "  var n = Math.floor((pw - 6) / CHAR);\n"
  "  if (n < 3) return '';\n"
  "  return label.length <= n ? label : label.substring(0, n - 2) + '..';\n"
  "}\n"
  "function place(f, x, w) {\n"
  "  var px = PAD + x * W, pw = w * W;\n"
  "  f.g.style.display = '';\n"
  "  f.rect.setAttribute('x', px.toFixed(2));\n"
  "  f.rect.setAttribute('width', Math.max(pw > 1 ? pw - 0.5 : pw, 0).toFixed(2));\n"
  "  f.text.setAttribute('x', (px + 3).toFixed(2));\n"
  "  f.text.textContent = fit(f.name, pw);\n"
  "}\n"
  "function inside(f, z) { return f.d >= z.d && f.x >= z.x - 1e-12 && f.x + f.w <= z.x + z.w + 1e-12; }\n"
  "function zoom(z) {\n"
  "  zoomed = z;\n"
  "  for (var i = 0; i < frames.length; i++) {\n"
  "    var f = frames[i];\n"
  "    if (inside(f, z)) { f.g.classList.remove('parent'); place(f, (f.x - z.x) / z.w, f.w / z.w); }\n"
  "    else if (f.d < z.d && f.x <= z.x + 1e-12 && f.x + f.w >= z.x + z.w - 1e-12) { f.g.classList.add('parent'); place(f, 0, 1); }\n"
  "    else f.g.style.display = 'none';\n"
  "  }\n"
  "  resetButton.style.display = '';\n"
  "  if (term !== null) search(term);\n"
  "}\n"
  "function unzoom() {\n"
  "  zoomed = null;\n"
  "  for (var i = 0; i < frames.length; i++) { frames[i].g.classList.remove('parent'); place(frames[i], frames[i].x, frames[i].w); }\n"
  "  resetButton.style.display = 'none';\n"
  "  if (term !== null) search(term);\n"
  "}\n"
  "function ask() {\n"
  "  var t = window.prompt('Search function names and files (ignoring case):', term === null ? '' : term);\n"
  "  if (t === null) return;\n"
  "  if (t === '') clearSearch(); else search(t);\n"
  "}\n"
  "function search(t) {\n"
  "  term = t;\n"
  "  var needle = t.toLowerCase(), hit = [], share = 0;\n"
  "  for (var i = 0; i < frames.length; i++) {\n"
  "    var f = frames[i];\n"
  "    hit[i] = f.name.toLowerCase().indexOf(needle) >= 0 || f.file.toLowerCase().indexOf(needle) >= 0;\n"
  "    f.rect.setAttribute('fill', hit[i] ? 'rgb(230,0,230)' : f.fill);\n"
  "  }\n"
  "  for (var i = 0; i < frames.length; i++) {\n"
  "    var f = frames[i];\n"
  "    if (!hit[i] || (zoomed !== null && !inside(f, zoomed))) continue;\n"
  "    var nested = false;\n"
  "    for (var p = f.p; p >= 0 && (zoomed === null || frames[p].d >= zoomed.d); p = frames[p].p)\n"
  "      if (hit[p]) { nested = true; break; }\n"
  "    if (!nested) share += zoomed === null ? f.w : f.w / zoomed.w;\n"
  "  }\n"
  "  matched.textContent = 'Matched: ' + (100 * Math.min(share, 1)).toFixed(1) + '%';\n"
  "  clearButton.style.display = '';\n"
  "}\n"
  "function clearSearch() {\n"
  "  term = null;\n"
  "  for (var i = 0; i < frames.length; i++) frames[i].rect.setAttribute('fill', frames[i].fill);\n"
  "  matched.textContent = ' ';\n"
  "  clearButton.style.display = 'none';\n"
  "}\n";

/* XML 1.0 allows neither most control characters nor invalid UTF-8. */
static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  for (const char *p = valid; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '&':
          g_string_append (out, "&amp;");
          break;
        case '<':
          g_string_append (out, "&lt;");
          break;
        case '>':
          g_string_append (out, "&gt;");
          break;
        case '"':
          g_string_append (out, "&quot;");
          break;
        case '\'':
          g_string_append (out, "&apos;");
          break;
        case '\n':
          g_string_append (out, "&#10;");
          break;
        default:
          if ((guchar) *p < 0x20 || *p == 0x7f)
            g_string_append_c (out, ' ');
          else
            g_string_append_c (out, *p);
          break;
        }
    }
}

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
    append_escaped (out, valid);
  else
    {
      g_autofree char *prefix = g_utf8_substring (valid, 0, n - 2);

      append_escaped (out, prefix);
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
  append_escaped (out, text);
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
  g_auto(GStrv) lines = split_lines (text, max_width);
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
      append_escaped (out, lines[i]);
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
  legend = picture_legend (layout, options, &owned);
  compute_geometry (layout, options, legend, &geometry);

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

  heading_color (options->dark, rgb);
  g_string_append (out, "<style type=\"text/css\">\n");
  /* Sizes are whole pixels: "%d" keeps a locale's decimal comma out of the file. */
  g_string_append_printf (out, "text { font-family: '%s', Verdana, sans-serif; font-size: %dpx; fill: ",
                          FONT_FAMILY, (int) TEXT_SIZE);
  append_rgb (out, rgb);
  g_string_append_printf (out, "; }\n#title { font-size: %dpx; font-weight: bold; }\n", (int) TITLE_SIZE);
  note_color (options->dark, rgb);
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
  g_string_append (out, svg_script);
  g_string_append (out, "]]></script>\n");

  background_color (options->dark, rgb);
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
      g_autofree char *name = dup_frame_name (table, node->func);
      const char *file = smprof_function_keys_get_file (table, node->func);
      double x = PAD + rect->x * geometry.frames_width;
      double w = rect->width * geometry.frames_width;
      double y = row_y (&geometry, options, rect->depth);
      char percent[G_ASCII_DTOSTR_BUF_SIZE];
      gboolean dashed;

      g_string_append (out, "<g class=\"f\" data-x=\"");
      append_fraction (out, rect->x);
      g_string_append (out, "\" data-w=\"");
      append_fraction (out, rect->width);
      g_string_append_printf (out, "\" data-d=\"%u\" data-p=\"%d\" data-n=\"", rect->depth,
                              smprof_flame_layout_get_parent (layout, i));
      append_escaped (out, name);
      g_string_append (out, "\" data-f=\"");
      append_escaped (out, file);
      g_string_append (out, "\"><title>");
      append_escaped (out, name);
      if (strcmp (file, "~") != 0)
        {
          g_string_append (out, " (");
          append_escaped (out, file);
          g_string_append_printf (out, ":%" G_GINT64_FORMAT ")", smprof_function_keys_get_line (table, node->func));
        }
      g_string_append_c (out, '\n');
      if (options->style != NULL && options->style->describe != NULL)
        {
          g_autoptr(GString) described = g_string_new (NULL);

          options->style->describe (rect->node, described, options->style->user_data);
          append_escaped (out, described->str);
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
      dashed = frame_color (layout, options, rect->node, rgb);
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
