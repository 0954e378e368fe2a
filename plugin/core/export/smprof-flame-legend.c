/* smprof-flame-legend.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "smprof-flame-legend-private.h"

static void
clear_item (gpointer data)
{
  g_free (((Item *) data)->label);
}

/* @title: (nullable): what the colours stand for, said before the items */
SmprofFlameLegend *
smprof_flame_legend_new (const char *title)
{
  SmprofFlameLegend *self = g_new0 (SmprofFlameLegend, 1);

  self->title = g_strdup (title);
  self->items = g_array_new (FALSE, TRUE, sizeof (Item));
  g_array_set_clear_func (self->items, clear_item);

  return self;
}

void
smprof_flame_legend_free (SmprofFlameLegend *self)
{
  if (self == NULL)
    return;

  g_free (self->title);
  g_array_unref (self->items);
  g_free (self);
}

void
smprof_flame_legend_add (SmprofFlameLegend *self,
                         const double       rgb[3],
                         gboolean           dashed,
                         const char        *label)
{
  Item item = { { rgb[0], rgb[1], rgb[2] }, dashed, g_utf8_make_valid (label, -1) };

  g_return_if_fail (self != NULL);

  g_array_append_val (self->items, item);
}

guint
smprof_flame_legend_get_n_items (const SmprofFlameLegend *self)
{
  return self->items->len;
}

const char *
smprof_flame_legend_get_label (const SmprofFlameLegend *self,
                               guint                    index)
{
  g_return_val_if_fail (index < self->items->len, NULL);

  return g_array_index (self->items, Item, index).label;
}

typedef struct
{
  char   *group;
  double  width;      /* the frames' widths summed: how much of it shows */
  double  widest;
  guint32 func;       /* the function of its widest frame, whose colour it shows */
} Group;

static void
clear_group (gpointer data)
{
  g_free (((Group *) data)->group);
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const Group *x = a;
  const Group *y = b;

  if (x->width != y->width)
    return x->width > y->width ? -1 : 1;
  return strcmp (x->group, y->group);
}

/**
 * smprof_flame_legend_new_for_palette:
 * @layout: the frames drawn
 * @palette: their colour scheme
 * @dark: dark-mode colours
 *
 * The groups the scheme colours alike (packages, or files), those that take
 * the most room first, each with the colour of its widest frame; the rest
 * counted in one more item. A frame's shade within its group's hue tells its
 * function apart, which the title says.
 *
 * Returns: (transfer full): the legend
 */
SmprofFlameLegend *
smprof_flame_legend_new_for_palette (SmprofFlameLayout  *layout,
                                     SmprofFlamePalette  palette,
                                     gboolean            dark)
{
  SmprofCallTree *tree = smprof_flame_layout_get_tree (layout);
  SmprofFunctionKeys *table = smprof_call_tree_get_table (tree);
  SmprofFlameLegend *self;
  g_autoptr(GArray) groups = g_array_new (FALSE, TRUE, sizeof (Group));
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  self = smprof_flame_legend_new (palette == SMPROF_FLAME_PALETTE_MODULE
                                  ? _("Colour: file (shade: function):")
                                  : _("Colour: package (shade: function):"));
  g_array_set_clear_func (groups, clear_group);

  for (guint i = 0; i < smprof_flame_layout_get_n_rects (layout); i++)
    {
      const SmprofFlameRect *rect = smprof_flame_layout_get_rect (layout, i);
      guint32 func = smprof_call_tree_get_node (tree, rect->node)->func;
      g_autofree char *name = smprof_flame_palette_dup_group (palette, table, func);
      gpointer found = g_hash_table_lookup (index, name);
      Group *group;

      if (found == NULL)
        {
          Group fresh = { g_steal_pointer (&name), 0, -1, func };

          g_array_append_val (groups, fresh);
          found = GUINT_TO_POINTER (groups->len);
          g_hash_table_insert (index, g_array_index (groups, Group, groups->len - 1).group, found);
        }

      group = &g_array_index (groups, Group, GPOINTER_TO_UINT (found) - 1);
      group->width += rect->width;
      if (rect->width > group->widest)
        {
          group->widest = rect->width;
          group->func = func;
        }
    }

  /* The index points into the array: done with it before sorting. */
  g_hash_table_remove_all (index);
  g_array_sort (groups, compare_groups);

  for (guint i = 0; i < groups->len && i < MAX_ITEMS; i++)
    {
      const Group *group = &g_array_index (groups, Group, i);
      double rgb[3];

      smprof_flame_palette_color (palette, table, group->func, dark, rgb);
      smprof_flame_legend_add (self, rgb, FALSE, group->group);
    }

  if (groups->len > MAX_ITEMS)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more", "and %u more",
                                                            groups->len - MAX_ITEMS),
                                               groups->len - MAX_ITEMS);
      Item item = { { -1, -1, -1 }, FALSE, g_steal_pointer (&more) };

      g_array_append_val (self->items, item);
    }

  return self;
}

static double
text_width (const char *text)
{
  return g_utf8_strlen (text, -1) * GLYPH_WIDTH;
}

/* Where each item goes: x and row, items flowing left to right and wrapping,
 * the title first. Returns the number of rows. */
guint
_smprof_flame_legend_place (const SmprofFlameLegend *self,
                            double                   width,
                            double                  *xs,
                            guint                   *rows)
{
  double x = self->title != NULL ? text_width (self->title) + ITEM_GAP : 0;
  guint row = 0;

  for (guint i = 0; i < self->items->len; i++)
    {
      const Item *item = &g_array_index (self->items, Item, i);
      double w = (item->rgb[0] >= 0 ? SWATCH + SWATCH_GAP : 0) + text_width (item->label);

      if (x > 0 && x + w > width)
        {
          x = 0;
          row++;
        }
      xs[i] = x;
      rows[i] = row;
      x += w + ITEM_GAP;
    }

  return self->items->len > 0 || self->title != NULL ? row + 1 : 0;
}

/* The room the legend takes under the frames, for a picture @width wide. */
double
smprof_flame_legend_get_height (const SmprofFlameLegend *self,
                                double                   width)
{
  g_autofree double *xs = NULL;
  g_autofree guint *rows = NULL;

  if (self == NULL || self->items->len == 0)
    return 0;

  xs = g_new (double, self->items->len);
  rows = g_new (guint, self->items->len);

  return _smprof_flame_legend_place (self, width, xs, rows) * ROW + 6;
}

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (out, escaped);
}

static void
append_number (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.2f", value));
}

/* The legend as an SVG group, id "legend"; the text takes the picture's style. */
void
smprof_flame_legend_append_svg (const SmprofFlameLegend *self,
                                GString                 *out,
                                double                   x,
                                double                   y,
                                double                   width)
{
  g_autofree double *xs = NULL;
  g_autofree guint *rows = NULL;

  if (self == NULL || self->items->len == 0)
    return;

  xs = g_new (double, self->items->len);
  rows = g_new (guint, self->items->len);
  _smprof_flame_legend_place (self, width, xs, rows);

  g_string_append (out, "<g id=\"legend\">\n");
  if (self->title != NULL)
    {
      g_string_append (out, "<text x=\"");
      append_number (out, x);
      g_string_append (out, "\" y=\"");
      append_number (out, y + ROW - 5);
      g_string_append (out, "\">");
      append_escaped (out, self->title);
      g_string_append (out, "</text>\n");
    }

  for (guint i = 0; i < self->items->len; i++)
    {
      const Item *item = &g_array_index (self->items, Item, i);
      double ix = x + xs[i], iy = y + rows[i] * ROW;
      double tx = ix;

      if (item->rgb[0] >= 0)
        {
          g_string_append (out, "<rect class=\"swatch\" x=\"");
          append_number (out, ix);
          g_string_append (out, "\" y=\"");
          append_number (out, iy + ROW - 5 - SWATCH + 1);
          /* As the frames write their fills, so a swatch matches its frames. */
          g_string_append_printf (out, "\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\"", (int) SWATCH,
                                  (int) SWATCH, (int) lround (CLAMP (item->rgb[0], 0, 1) * 255),
                                  (int) lround (CLAMP (item->rgb[1], 0, 1) * 255),
                                  (int) lround (CLAMP (item->rgb[2], 0, 1) * 255));
          if (item->dashed)
            g_string_append (out, " stroke=\"black\" stroke-width=\"1\" stroke-dasharray=\"2,2\"");
          g_string_append (out, "/>\n");
          tx += SWATCH + SWATCH_GAP;
        }

      g_string_append (out, "<text class=\"legend-item\" x=\"");
      append_number (out, tx);
      g_string_append (out, "\" y=\"");
      append_number (out, iy + ROW - 5);
      g_string_append (out, "\">");
      append_escaped (out, item->label);
      g_string_append (out, "</text>\n");
    }
  g_string_append (out, "</g>\n");
}
