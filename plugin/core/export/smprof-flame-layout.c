/* smprof-flame-layout.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "smprof-flame-layout.h"

#define NO_PARENT G_MAXUINT32

struct _SmprofFlameLayout
{
  SmprofCallTree *tree;        /* not owned: it outlives the layout */
  guint32         zoom_node;
  double          min_width;
  double          total;       /* the time the full width stands for */
  GArray         *rects;       /* SmprofFlameRect, by (depth, x) */
  GArray         *parents;     /* guint32 per rect: its parent's rect index, or NO_PARENT */
  GArray         *row_starts;  /* guint per depth: the row's first rect; one more at the end */
};

/* Lays the children of @node out inside [@x, @x + @width) on row @depth. */
static void
lay_out_children (SmprofFlameLayout *self,
                  guint32            node,
                  double             x,
                  double             width,
                  guint32            depth,
                  guint32            parent_rect)
{
  double right = x + width;
  guint32 child = smprof_call_tree_get_node (self->tree, node)->first_child;

  while (child != SMPROF_CALL_TREE_NONE)
    {
      const SmprofCallTreeNode *entry = smprof_call_tree_get_node (self->tree, child);
      double w = entry->total / self->total;

      /* An estimated cProfile tree can give the children of a frame a little
       * more time than the frame itself; they never spill out of it. */
      if (w > right - x)
        w = right - x;

      if (w > 0 && w >= self->min_width)
        {
          SmprofFlameRect rect = { child, depth, x, w };

          g_array_append_val (self->rects, rect);
          g_array_append_val (self->parents, parent_rect);
        }

      /* A dropped frame still takes its place, so its siblings stay put. */
      if (w > 0)
        x += w;
      child = entry->next_sibling;
    }
}

/**
 * smprof_flame_layout_new:
 * @tree: the call tree; it must outlive the layout
 * @zoom_node: the frame that takes the full width, or %SMPROF_CALL_TREE_ROOT
 * @min_width: frames narrower than this fraction of the width are left out,
 *   with everything they called
 *
 * Lays out every frame under @zoom_node, one row per call depth. With the root,
 * row 0 holds the root frames (the synthetic root is not drawn); otherwise row
 * 0 is the zoomed frame itself. Rows are built breadth first from rows that are
 * already in x order, so the rects come out sorted by (depth, x) with no sort:
 * the work is linear in the number of frames.
 *
 * Returns: (transfer full): the layout
 */
SmprofFlameLayout *
smprof_flame_layout_new (SmprofCallTree *tree,
                         guint32         zoom_node,
                         double          min_width)
{
  SmprofFlameLayout *self;
  guint row_start, row_end;
  guint32 depth = 0;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (zoom_node < smprof_call_tree_get_n_nodes (tree), NULL);

  self = g_new0 (SmprofFlameLayout, 1);
  self->tree = tree;
  self->zoom_node = zoom_node;
  self->min_width = isfinite (min_width) ? MAX (min_width, 0.0) : 0.0;
  self->total = smprof_call_tree_get_node (tree, zoom_node)->total;
  /* At most one rect per tree node: reserve once, never grow. */
  self->rects = g_array_sized_new (FALSE, FALSE, sizeof (SmprofFlameRect), smprof_call_tree_get_n_nodes (tree));
  self->parents = g_array_sized_new (FALSE, FALSE, sizeof (guint32), smprof_call_tree_get_n_nodes (tree));
  self->row_starts = g_array_new (FALSE, FALSE, sizeof (guint));

  row_start = 0;
  g_array_append_val (self->row_starts, row_start);

  if (!(self->total > 0) || !isfinite (self->total))
    return self;

  if (zoom_node == SMPROF_CALL_TREE_ROOT)
    lay_out_children (self, SMPROF_CALL_TREE_ROOT, 0, 1, 0, NO_PARENT);
  else
    {
      SmprofFlameRect rect = { zoom_node, 0, 0, 1 };
      guint32 none = NO_PARENT;

      g_array_append_val (self->rects, rect);
      g_array_append_val (self->parents, none);
    }

  while ((row_end = self->rects->len) > row_start)
    {
      g_array_append_val (self->row_starts, row_end);
      depth++;

      for (guint i = row_start; i < row_end; i++)
        {
          /* A copy: appending may move the array. */
          SmprofFlameRect parent = g_array_index (self->rects, SmprofFlameRect, i);

          lay_out_children (self, parent.node, parent.x, parent.width, depth, i);
        }

      row_start = row_end;
    }

  return self;
}

void
smprof_flame_layout_free (SmprofFlameLayout *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->rects);
  g_array_unref (self->parents);
  g_array_unref (self->row_starts);
  g_free (self);
}

SmprofCallTree *
smprof_flame_layout_get_tree (SmprofFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tree;
}

guint32
smprof_flame_layout_get_zoom_node (SmprofFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, SMPROF_CALL_TREE_ROOT);

  return self->zoom_node;
}

guint
smprof_flame_layout_get_n_rects (SmprofFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->rects->len;
}

const SmprofFlameRect *
smprof_flame_layout_get_rect (SmprofFlameLayout *self,
                              guint              index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->rects->len, NULL);

  return &g_array_index (self->rects, SmprofFlameRect, index);
}

/* The number of rows. */
guint
smprof_flame_layout_get_depth (SmprofFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->row_starts->len - 1;
}

/**
 * smprof_flame_layout_get_total:
 * @self: a layout
 *
 * Returns: the time, in the tree's unit, that the full width stands for
 */
double
smprof_flame_layout_get_total (SmprofFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->total;
}

/**
 * smprof_flame_layout_get_row:
 * @self: a layout
 * @depth: a row
 * @first: (out): the index of the row's first rect
 * @n_rects: (out): how many rects the row has
 *
 * Gives the rects of one row, in x order, for drawing a row at a time.
 */
void
smprof_flame_layout_get_row (SmprofFlameLayout *self,
                             guint              depth,
                             guint             *first,
                             guint             *n_rects)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (first != NULL && n_rects != NULL);

  if (depth + 1 >= self->row_starts->len)
    {
      *first = self->rects->len;
      *n_rects = 0;
      return;
    }

  *first = g_array_index (self->row_starts, guint, depth);
  *n_rects = g_array_index (self->row_starts, guint, depth + 1) - *first;
}

/**
 * smprof_flame_layout_get_parent:
 * @self: a layout
 * @index: a rect
 *
 * Returns: the index of the rect of the frame that called @index's frame, or
 *   -1 on row 0
 */
int
smprof_flame_layout_get_parent (SmprofFlameLayout *self,
                                guint              index)
{
  guint32 parent;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (index < self->rects->len, -1);

  parent = g_array_index (self->parents, guint32, index);

  return parent == NO_PARENT ? -1 : (int) parent;
}

/**
 * smprof_flame_layout_hit_test:
 * @self: a layout
 * @x: a position, in fractions of the width
 * @depth: a row
 *
 * Returns: the index of the rect at @x on row @depth, or -1 where there is none
 */
int
smprof_flame_layout_hit_test (SmprofFlameLayout *self,
                              double             x,
                              guint              depth)
{
  guint first, n, lo, hi;
  const SmprofFlameRect *rect;

  g_return_val_if_fail (self != NULL, -1);

  smprof_flame_layout_get_row (self, depth, &first, &n);
  if (n == 0 || !(x >= 0) || x > 1)
    return -1;

  /* The last rect of the row that starts at or before x. */
  lo = first;
  hi = first + n;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->rects, SmprofFlameRect, mid).x <= x)
        lo = mid;
      else
        hi = mid;
    }

  rect = &g_array_index (self->rects, SmprofFlameRect, lo);
  if (x >= rect->x && x < rect->x + rect->width)
    return (int) lo;

  return -1;
}

static gboolean
contains_folded (const char *haystack,
                 const char *folded_needle)
{
  g_autofree char *folded = g_utf8_casefold (haystack, -1);

  return strstr (folded, folded_needle) != NULL;
}

/* Each function is folded and searched once, however many frames it has. */
static gboolean
func_matches (SmprofFunctionKeys *table,
              guint8             *verdict,
              const char         *folded_needle,
              guint32             func)
{
  if (verdict[func] == 0)
    verdict[func] = contains_folded (smprof_function_keys_get_name (table, func), folded_needle) ||
                    contains_folded (smprof_function_keys_get_file (table, func), folded_needle) ? 2 : 1;

  return verdict[func] == 2;
}

/**
 * smprof_flame_layout_match:
 * @self: a layout
 * @needle: what to look for, ignoring case, in function names and files
 * @matched: (element-type guint) (nullable): set to the indices of the rects
 *   that match, in rect order
 *
 * The share is computed on the tree, so frames too narrow to be drawn still
 * count, and a match inside a matching frame is not counted twice.
 *
 * Returns: the share of the zoomed frame's time spent in matching frames, 0..1
 */
double
smprof_flame_layout_match (SmprofFlameLayout *self,
                           const char        *needle,
                           GArray            *matched)
{
  SmprofFunctionKeys *table;
  g_autofree char *folded_needle = NULL;
  g_autofree guint8 *verdict = NULL;   /* per function: 0 unknown, 1 no, 2 yes */
  g_autoptr(GArray) stack = NULL;
  double sum = 0;

  g_return_val_if_fail (self != NULL, 0);

  if (matched != NULL)
    g_array_set_size (matched, 0);

  if (needle == NULL || *needle == '\0' || self->rects->len == 0)
    return 0;

  table = smprof_call_tree_get_table (self->tree);
  folded_needle = g_utf8_casefold (needle, -1);
  verdict = g_new0 (guint8, smprof_function_keys_get_size (table));

  if (matched != NULL)
    for (guint i = 0; i < self->rects->len; i++)
      {
        guint32 func = smprof_call_tree_get_node (self->tree,
                                                  g_array_index (self->rects, SmprofFlameRect, i).node)->func;

        if (func_matches (table, verdict, folded_needle, func))
          g_array_append_val (matched, i);
      }

  stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (self->zoom_node == SMPROF_CALL_TREE_ROOT)
    {
      for (guint32 child = smprof_call_tree_get_node (self->tree, SMPROF_CALL_TREE_ROOT)->first_child;
           child != SMPROF_CALL_TREE_NONE;
           child = smprof_call_tree_get_node (self->tree, child)->next_sibling)
        g_array_append_val (stack, child);
    }
  else
    g_array_append_val (stack, self->zoom_node);

  while (stack->len > 0)
    {
      guint32 index = g_array_index (stack, guint32, stack->len - 1);
      const SmprofCallTreeNode *node = smprof_call_tree_get_node (self->tree, index);

      g_array_set_size (stack, stack->len - 1);

      if (func_matches (table, verdict, folded_needle, node->func))
        {
          sum += node->total;
          continue;
        }

      for (guint32 child = node->first_child; child != SMPROF_CALL_TREE_NONE;
           child = smprof_call_tree_get_node (self->tree, child)->next_sibling)
        g_array_append_val (stack, child);
    }

  return CLAMP (sum / self->total, 0.0, 1.0);
}

/* ------------------------------------------------------------------ colours */

/* FNV-1a: a hash that never changes between runs, versions or machines. */
static guint32
stable_hash (const char *text,
             gsize       len)
{
  guint32 hash = 2166136261u;

  for (gsize i = 0; i < len; i++)
    {
      hash ^= (guint8) text[i];
      hash *= 16777619u;
    }

  return hash;
}

/**
 * smprof_flame_colour_key:
 * @file: a function's file
 * @key: (out) (transfer none): what shares a colour, inside @file
 * @len: (out): its length
 *
 * What shares a colour in the default scheme: the top-level package of an
 * installed module (site-packages/torch/nn/... and site-packages/torch/optim/...
 * alike), the top-level module of the standard library, all built-ins, or
 * else the file.
 */
void
smprof_flame_colour_key (const char  *file,
                         const char **key,
                         gsize       *len)
{
  static const char *const markers[] = { "/site-packages/", "/dist-packages/" };
  const char *start = NULL;
  const char *end;

  for (guint i = 0; i < G_N_ELEMENTS (markers) && start == NULL; i++)
    {
      const char *found = g_strrstr (file, markers[i]);

      if (found != NULL)
        start = found + strlen (markers[i]);
    }

  if (start == NULL)
    {
      const char *lib = g_strrstr (file, "/lib/python");

      if (lib != NULL && (lib = strchr (lib + 1, '/')) != NULL && (lib = strchr (lib + 1, '/')) != NULL)
        start = lib + 1;
    }

  if (start == NULL || *start == '\0')
    {
      *key = file;
      *len = strlen (file);
      return;
    }

  end = strchr (start, '/');
  *key = start;
  *len = end != NULL ? (gsize) (end - start) : strlen (start);
}

static double
hue_to_channel (double p,
                double q,
                double t)
{
  if (t < 0)
    t += 1;
  if (t > 1)
    t -= 1;
  if (t < 1.0 / 6)
    return p + (q - p) * 6 * t;
  if (t < 1.0 / 2)
    return q;
  if (t < 2.0 / 3)
    return p + (q - p) * (2.0 / 3 - t) * 6;
  return p;
}

static void
hsl_to_rgb (double h,
            double s,
            double l,
            double rgb[3])
{
  double q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  double p = 2 * l - q;

  rgb[0] = hue_to_channel (p, q, h + 1.0 / 3);
  rgb[1] = hue_to_channel (p, q, h);
  rgb[2] = hue_to_channel (p, q, h - 1.0 / 3);
}

static double
linear_channel (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/**
 * smprof_flame_relative_luminance:
 * @rgb: a colour, channels 0..1
 *
 * Returns: WCAG's relative luminance of @rgb, for contrast ratios
 */
double
smprof_flame_relative_luminance (const double rgb[3])
{
  return 0.2126 * linear_channel (rgb[0]) + 0.7152 * linear_channel (rgb[1]) + 0.0722 * linear_channel (rgb[2]);
}

/**
 * smprof_flame_text_color:
 * @dark: whether the colours are the dark-mode ones
 * @rgb: (out caller-allocates): the colour for labels drawn on frames
 *
 * Frame colours keep a WCAG contrast of at least 4.5:1 with this colour.
 */
void
smprof_flame_text_color (gboolean dark,
                         double   rgb[3])
{
  rgb[0] = rgb[1] = rgb[2] = dark ? 1.0 : 0.0;
}

/**
 * smprof_flame_color_for_func:
 * @table: the function table
 * @func: a function id
 * @dark: whether to give the dark-mode colour
 * @rgb: (out caller-allocates): the colour, channels 0..1
 *
 * A warm palette in the manner of flamegraph.pl: the hue (red to yellow) and
 * saturation come from the package or file, a small lightness step from the
 * function, so neighbours of one package stay apart. Light mode stays light
 * enough for black labels, dark mode dark enough for white ones, with a WCAG
 * contrast of 4.5:1 or more either way.
 */
void
smprof_flame_color_for_func (SmprofFunctionKeys *table,
                             guint32             func,
                             gboolean            dark,
                             double              rgb[3])
{
  const char *file, *name, *key;
  gsize key_len;
  guint32 package_hash, func_hash;
  double hue, saturation, lightness;

  g_return_if_fail (table != NULL);
  g_return_if_fail (rgb != NULL);

  if (func >= smprof_function_keys_get_size (table))
    {
      rgb[0] = rgb[1] = rgb[2] = dark ? 0.3 : 0.8;
      return;
    }

  file = smprof_function_keys_get_file (table, func);
  name = smprof_function_keys_get_name (table, func);
  smprof_flame_colour_key (file, &key, &key_len);
  package_hash = stable_hash (key, key_len);
  func_hash = stable_hash (name, strlen (name));

  hue = (package_hash % 1000) / 1000.0 * (55.0 / 360);
  saturation = 0.72 + ((package_hash >> 10) % 100) / 100.0 * 0.2;
  lightness = ((func_hash % 100) / 100.0 - 0.5) * 0.08;

  if (dark)
    {
      /* White labels: luminance at most 0.183 gives 4.5:1 against white. */
      saturation *= 0.85;
      lightness += 0.36;
      for (hsl_to_rgb (hue, saturation, lightness, rgb);
           smprof_flame_relative_luminance (rgb) > 0.175 && lightness > 0.05;
           hsl_to_rgb (hue, saturation, lightness, rgb))
        lightness -= 0.01;
    }
  else
    {
      /* Black labels: luminance of at least 0.175 gives 4.5:1 against black. */
      lightness += 0.68;
      for (hsl_to_rgb (hue, saturation, lightness, rgb);
           smprof_flame_relative_luminance (rgb) < 0.2 && lightness < 0.95;
           hsl_to_rgb (hue, saturation, lightness, rgb))
        lightness += 0.01;
    }
}
