/* smprof-timeline-compare.c: a comparison on the timeline: A's intervals
 * shaded and outlined in their own colour, B being the selection
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include <glib/gi18n-lib.h>

#include "smprof-timeline-compare.h"
#include "smprof-timeline-private.h"

/* B is the timeline's selection, drawn in the accent blue; A is orange, far
 * from blue for every common colour vision deficiency. The dark theme's tones
 * are lighter so they stand out on a dark background. */
static const guint32 side_colors[2][2] = {
  [SMPROF_DIFF_A] = { 0xc64600, 0xffa348 },
  [SMPROF_DIFF_B] = { 0x1c71d8, 0x78aeed },
};

/**
 * smprof_timeline_compare_color:
 * @side: A or B
 * @dark: whether the theme is dark
 * @alpha: the colour's opacity
 * @color: (out caller-allocates): the colour
 */
void
smprof_timeline_compare_color (SmprofDiffSide  side,
                               gboolean        dark,
                               double          alpha,
                               GdkRGBA        *color)
{
  guint32 hex;

  g_return_if_fail (side == SMPROF_DIFF_A || side == SMPROF_DIFF_B);

  hex = side_colors[side][dark ? 1 : 0];
  color->red = ((hex >> 16) & 0xff) / 255.0f;
  color->green = ((hex >> 8) & 0xff) / 255.0f;
  color->blue = (hex & 0xff) / 255.0f;
  color->alpha = alpha;
}

/* ------------------------------------------------------------------------ */
/* A's intervals on the timeline                                            */

struct _SmprofTimelineCompare
{
  GHashTable           *records;  /* A's SmprofRecord pointers */
  SmprofTimelineLayout *layout;   /* the layout @items point into */
  GPtrArray            *items;    /* const SmprofTimelineItem *, A's, in layout order */
};

static void
compare_free (SmprofTimelineCompare *compare)
{
  g_clear_pointer (&compare->records, g_hash_table_unref);
  g_clear_object (&compare->layout);
  g_clear_pointer (&compare->items, g_ptr_array_unref);
  g_free (compare);
}

void
_smprof_timeline_compare_dispose (SmprofTimeline *self)
{
  g_clear_pointer (&self->compare, compare_free);
}

/* A's items of the current layout, looked up again when the layout changes
 * (another profiler, a refresh). */
static GPtrArray *
get_items (SmprofTimeline *self)
{
  SmprofTimelineCompare *compare = self->compare;
  const SmprofTimelineItem *items;
  guint n;

  if (compare == NULL || self->layout == NULL)
    return NULL;

  if (compare->layout == self->layout && compare->items != NULL)
    return compare->items;

  g_set_object (&compare->layout, self->layout);
  g_clear_pointer (&compare->items, g_ptr_array_unref);
  compare->items = g_ptr_array_new ();

  items = smprof_timeline_layout_get_items (self->layout);
  n = smprof_timeline_layout_get_n_items (self->layout);
  for (guint i = 0; i < n; i++)
    if (g_hash_table_contains (compare->records, items[i].record))
      g_ptr_array_add (compare->items, (gpointer) &items[i]);

  return compare->items;
}

/**
 * smprof_timeline_set_compare_records:
 * @self: a timeline
 * @records: (nullable) (element-type SmprofRecord): side A of a comparison,
 *   or %NULL for none
 *
 * Shades and outlines @records in A's colour; the selection is side B. A
 * legend entry names both.
 */
void
smprof_timeline_set_compare_records (SmprofTimeline *self,
                                     GPtrArray      *records)
{
  g_return_if_fail (SMPROF_IS_TIMELINE (self));

  g_clear_pointer (&self->compare, compare_free);

  if (records != NULL)
    {
      self->compare = g_new0 (SmprofTimelineCompare, 1);
      self->compare->records = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < records->len; i++)
        g_hash_table_add (self->compare->records, g_ptr_array_index (records, i));
    }

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* For the tests: how many of A's intervals the timeline found. */
guint
_smprof_timeline_get_n_compare_items (SmprofTimeline *self)
{
  GPtrArray *items = get_items (self);

  return items != NULL ? items->len : 0;
}

/* Drawn each frame over the cached blocks and selection: A is usually a few
 * steps, and this keeps the selection's cache untouched. Neighbours closer
 * than a pixel share one rectangle, so a long A costs a rectangle per pixel
 * column at most. */
void
_smprof_timeline_draw_compare (SmprofTimeline *self,
                               GtkSnapshot    *snapshot)
{
  GPtrArray *items = get_items (self);
  GdkRGBA shade, edge;
  graphene_rect_t run;
  gboolean have_run = FALSE;
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  if (items == NULL || items->len == 0)
    return;

  smprof_timeline_compare_color (SMPROF_DIFF_A, self->dark, 0.35, &shade);
  smprof_timeline_compare_color (SMPROF_DIFF_A, self->dark, 1.0, &edge);

  for (guint i = 0; i <= items->len; i++)
    {
      graphene_rect_t rect;
      gboolean have = FALSE;

      if (i < items->len)
        {
          have = _smprof_timeline_get_block_rect (self, g_ptr_array_index (items, i), &rect) &&
                 rect.origin.x + rect.size.width >= 0 && rect.origin.x <= width;
          if (have)
            rect.size.width = MAX (rect.size.width, 1);
        }

      if (have && have_run && rect.origin.y == run.origin.y && rect.origin.x <= run.origin.x + run.size.width + 1)
        {
          run.size.width = MAX (run.size.width, rect.origin.x + rect.size.width - run.origin.x);
          continue;
        }

      if (have_run)
        {
          const float widths[4] = { 2, 2, 2, 2 };
          const GdkRGBA colors[4] = { edge, edge, edge, edge };
          GskRoundedRect outline;

          gtk_snapshot_append_color (snapshot, &shade, &run);
          graphene_rect_inset (&run, -1, -1);
          gsk_rounded_rect_init_from_rect (&outline, &run, 0);
          gtk_snapshot_append_border (snapshot, &outline, widths, colors);
        }

      have_run = have;
      if (have)
        run = rect;
    }
}

/* "A" and "B" swatches at the legend's end, while comparing. */
const char *
_smprof_timeline_compare_side_label (SmprofDiffSide side)
{
  /* Translators: the timeline legend's names for the two sides of a
   * comparison (A: the intervals compared against, B: the selection),
   * as the compare view names them */
  return side == SMPROF_DIFF_A ? C_("comparison side", "A") : C_("comparison side", "B");
}

/* A side's swatch in the legend, at (@x, @y) of its line. */
void
_smprof_timeline_draw_compare_swatch (SmprofTimeline *self,
                                      GtkSnapshot    *snapshot,
                                      SmprofDiffSide  side,
                                      double          x,
                                      double          y)
{
  const float widths[4] = { 2, 2, 2, 2 };
  GdkRGBA fill, edge, colors[4];
  GskRoundedRect outline;

  smprof_timeline_compare_color (side, self->dark, 0.35, &fill);
  smprof_timeline_compare_color (side, self->dark, 1.0, &edge);
  for (guint i = 0; i < 4; i++)
    colors[i] = edge;
  gtk_snapshot_append_color (snapshot, &fill, &GRAPHENE_RECT_INIT (x, y + 7, 12, 12));
  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x, y + 7, 12, 12), 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

/* The extent of A's intervals on the current axis, for a zoom that frames
 * both sides of a comparison. */
gboolean
_smprof_timeline_compare_span (SmprofTimeline *self,
                               double         *start,
                               double         *end)
{
  SmprofTimelineAxis axis = _smprof_timeline_axis (self);
  GPtrArray *items = get_items (self);
  double s = INFINITY, e = -INFINITY;

  if (items == NULL)
    return FALSE;

  for (guint i = 0; i < items->len; i++)
    {
      const SmprofTimelineItem *item = g_ptr_array_index (items, i);

      s = MIN (s, item->start[axis]);
      e = MAX (e, item->end[axis]);
    }

  if (!(e >= s))
    return FALSE;

  *start = s;
  *end = e;
  return TRUE;
}
