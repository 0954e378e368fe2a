/* smprof-number-label.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "smprof-number-label.h"
#include "smprof-ui.h"

/* A table's figures, drawn without laying them out. GTK 4.8's column view
 * keeps about 200 rows bound, and a new answer changes most of their
 * figures: a GtkLabel lays each new text out with Pango, measures it again
 * in the next frame, and that was half of a drag's stall on a 256-node job.
 * Here each character's glyph and advance are found once per font, a text's
 * width is the sum of its advances, and a new text as wide as the last one
 * is only drawn again. A text with a character that is not one glyph of its
 * own (which figures never have) is laid out by Pango as a label would. */

typedef struct
{
  PangoFont  *font;      /* a fallback font when the first lacks the character */
  PangoGlyph  glyph;
  int         advance;   /* Pango units */
  gboolean    is_color;  /* drawn in its own colours (an emoji) */
  gboolean    simple;    /* one glyph, found: drawn from here */
} NumberGlyph;

typedef struct
{
  GHashTable *glyphs;    /* gunichar → NumberGlyph */
  int         height;    /* Pango units, of a line of figures */
  int         baseline;
} GlyphCache;

/* The widget's font, as loaded for its Pango context, → GlyphCache. Kept for
 * the life of the process: a few fonts, a few dozen characters each. */
static GHashTable *glyph_caches;

struct _SmprofNumberLabel
{
  GtkWidget    parent_instance;

  char        *text;

  /* Found again after a style change, when next measured or drawn. */
  GlyphCache  *cache;
  int          width;    /* Pango units; -1 until known */
  PangoLayout *layout;   /* only for a text that is not simple */

  /* The object whose string property the text follows (a list cell's item) */
  GObject     *followed;
  const char  *followed_property;   /* interned */
  gulong       follow_handler;
};

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SmprofNumberLabel, smprof_number_label, GTK_TYPE_WIDGET)

/* A layout as the widget's style would make it, with tabular figures as the
 * "numeric" style class asks for. */
static PangoLayout *
create_layout (SmprofNumberLabel *self,
               const char        *text,
               int                length)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_text (layout, text, length);

  return layout;
}

static GlyphCache *
ensure_cache (SmprofNumberLabel *self)
{
  PangoContext *context;
  PangoFont *font;
  GlyphCache *cache;

  if (self->cache != NULL)
    return self->cache;

  context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  font = pango_context_load_font (context, pango_context_get_font_description (context));

  if (glyph_caches == NULL)
    glyph_caches = g_hash_table_new (NULL, NULL);

  cache = g_hash_table_lookup (glyph_caches, font);
  if (cache == NULL)
    {
      g_autoptr(PangoLayout) layout = create_layout (self, "0", -1);
      PangoRectangle logical;

      cache = g_new0 (GlyphCache, 1);
      cache->glyphs = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      pango_layout_get_extents (layout, NULL, &logical);
      cache->height = logical.height;
      cache->baseline = pango_layout_get_baseline (layout);
      /* the key stays loaded with its cache */
      g_hash_table_insert (glyph_caches, font != NULL ? g_object_ref (font) : NULL, cache);
    }
  g_clear_object (&font);

  self->cache = cache;
  return cache;
}

static const NumberGlyph *
lookup_glyph (SmprofNumberLabel *self,
              gunichar           c)
{
  GlyphCache *cache = ensure_cache (self);
  NumberGlyph *glyph = g_hash_table_lookup (cache->glyphs, GUINT_TO_POINTER (c));

  if (glyph == NULL)
    {
      char utf8[6];
      int length = g_unichar_to_utf8 (c, utf8);
      g_autoptr(PangoLayout) layout = create_layout (self, utf8, length);
      PangoLayoutLine *line = pango_layout_get_line_readonly (layout, 0);

      glyph = g_new0 (NumberGlyph, 1);
      if (line != NULL && line->runs != NULL && line->runs->next == NULL)
        {
          PangoGlyphItem *run = line->runs->data;

          if (run->glyphs->num_glyphs == 1 &&
              (run->glyphs->glyphs[0].glyph & PANGO_GLYPH_UNKNOWN_FLAG) == 0 &&
              run->glyphs->glyphs[0].geometry.x_offset == 0 &&
              run->glyphs->glyphs[0].geometry.y_offset == 0)
            {
              glyph->font = g_object_ref (run->item->analysis.font);
              glyph->glyph = run->glyphs->glyphs[0].glyph;
              glyph->advance = run->glyphs->glyphs[0].geometry.width;
              glyph->is_color = run->glyphs->glyphs[0].attr.is_color;
              glyph->simple = TRUE;
            }
        }
      g_hash_table_insert (cache->glyphs, GUINT_TO_POINTER (c), glyph);
    }

  return glyph;
}

/* Whether every character is a glyph of its own (then the text is drawn
 * from the cache), and the text's width. */
static gboolean
is_simple (SmprofNumberLabel *self)
{
  int width = 0;

  for (const char *p = self->text; *p != '\0'; p = g_utf8_next_char (p))
    {
      const NumberGlyph *glyph = lookup_glyph (self, g_utf8_get_char (p));

      if (!glyph->simple)
        return FALSE;
      width += glyph->advance;
    }

  self->width = width;
  return TRUE;
}

static int
get_width (SmprofNumberLabel *self)
{
  if (self->width >= 0)
    return self->width;

  if (!is_simple (self))
    {
      PangoRectangle logical;

      if (self->layout == NULL)
        self->layout = create_layout (self, self->text, -1);
      pango_layout_get_extents (self->layout, NULL, &logical);
      self->width = logical.width;
    }

  return self->width;
}

static void
forget_style (SmprofNumberLabel *self)
{
  self->cache = NULL;
  self->width = -1;
  g_clear_object (&self->layout);
}

static void
smprof_number_label_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  SmprofNumberLabel *self = SMPROF_NUMBER_LABEL (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = *natural = PANGO_PIXELS_CEIL (get_width (self));
    }
  else
    {
      GlyphCache *cache = ensure_cache (self);

      *minimum = *natural = PANGO_PIXELS_CEIL (cache->height);
      *minimum_baseline = *natural_baseline = PANGO_PIXELS_CEIL (cache->baseline);
    }
}

/* The glyphs from @start to @end, all in one font, as a text node with its
 * baseline at (@x, @y), in pixels. */
static void
append_glyphs (GtkSnapshot   *snapshot,
               const char    *start,
               const char    *end,
               PangoFont     *font,
               SmprofNumberLabel *self,
               const GdkRGBA *color,
               float          x,
               float          y)
{
  PangoGlyphString *glyphs = pango_glyph_string_new ();
  GskRenderNode *node;
  int n = 0;

  pango_glyph_string_set_size (glyphs, g_utf8_strlen (start, end - start));
  for (const char *p = start; p < end; p = g_utf8_next_char (p), n++)
    {
      const NumberGlyph *glyph = lookup_glyph (self, g_utf8_get_char (p));

      /* every field: GTK reads them all, the flags' spare bits too */
      memset (&glyphs->glyphs[n], 0, sizeof glyphs->glyphs[n]);
      glyphs->glyphs[n].glyph = glyph->glyph;
      glyphs->glyphs[n].geometry.width = glyph->advance;
      glyphs->glyphs[n].attr.is_cluster_start = 1;
      glyphs->glyphs[n].attr.is_color = glyph->is_color;
      glyphs->log_clusters[n] = p - start;
    }

  /* NULL when nothing would show (spaces) */
  node = gsk_text_node_new (font, glyphs, color, &GRAPHENE_POINT_INIT (x, y));
  if (node != NULL)
    {
      gtk_snapshot_append_node (snapshot, node);
      gsk_render_node_unref (node);
    }
  pango_glyph_string_free (glyphs);
}

static void
smprof_number_label_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  SmprofNumberLabel *self = SMPROF_NUMBER_LABEL (widget);
  GlyphCache *cache;
  int text_width = get_width (self);
  int baseline = gtk_widget_get_allocated_baseline (widget);
  float x, y;
  GdkRGBA color;

  if (self->text[0] == '\0')
    return;

  cache = ensure_cache (self);
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);

  /* figures line up at the end of the cell, as a label's xalign 1 does */
  if (gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL)
    x = 0;
  else
    x = gtk_widget_get_width (widget) - (float) text_width / PANGO_SCALE;
  /* where a label puts its line: centred in whole pixels, or on the
   * baseline it was given */
  if (baseline < 0)
    y = floorf ((gtk_widget_get_height (widget) - PANGO_PIXELS_CEIL (cache->height)) * 0.5f);
  else
    y = baseline - cache->baseline / PANGO_SCALE;
  y += (float) cache->baseline / PANGO_SCALE;

  if (self->layout != NULL)
    {
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y - (float) pango_layout_get_baseline (self->layout) / PANGO_SCALE));
      gtk_snapshot_append_layout (snapshot, self->layout, &color);
      gtk_snapshot_restore (snapshot);
      return;
    }

  /* one node per run of glyphs in the same font */
  for (const char *start = self->text; *start != '\0';)
    {
      PangoFont *font = lookup_glyph (self, g_utf8_get_char (start))->font;
      const char *end = start;
      float run_width = 0;

      while (*end != '\0')
        {
          const NumberGlyph *glyph = lookup_glyph (self, g_utf8_get_char (end));

          if (glyph->font != font)
            break;
          run_width += (float) glyph->advance / PANGO_SCALE;
          end = g_utf8_next_char (end);
        }
      append_glyphs (snapshot, start, end, font, self, &color, x, y);
      x += run_width;
      start = end;
    }
}

static void
smprof_number_label_css_changed (GtkWidget         *widget,
                                 GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (smprof_number_label_parent_class)->css_changed (widget, change);

  /* GTK asks for a new size itself when the change can alter it */
  forget_style (SMPROF_NUMBER_LABEL (widget));
}

static void
smprof_number_label_system_setting_changed (GtkWidget        *widget,
                                            GtkSystemSetting  setting)
{
  GTK_WIDGET_CLASS (smprof_number_label_parent_class)->system_setting_changed (widget, setting);

  /* fonts, resolution, hinting */
  forget_style (SMPROF_NUMBER_LABEL (widget));
  gtk_widget_queue_resize (widget);
}

static void
smprof_number_label_direction_changed (GtkWidget        *widget,
                                       GtkTextDirection  previous)
{
  gtk_widget_queue_draw (widget);
}

static void
smprof_number_label_dispose (GObject *object)
{
  smprof_number_label_follow (SMPROF_NUMBER_LABEL (object), NULL, NULL);

  G_OBJECT_CLASS (smprof_number_label_parent_class)->dispose (object);
}

static void
smprof_number_label_finalize (GObject *object)
{
  SmprofNumberLabel *self = SMPROF_NUMBER_LABEL (object);

  g_clear_pointer (&self->text, g_free);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (smprof_number_label_parent_class)->finalize (object);
}

static void
smprof_number_label_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SmprofNumberLabel *self = SMPROF_NUMBER_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_number_label_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SmprofNumberLabel *self = SMPROF_NUMBER_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      smprof_number_label_set_text (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
smprof_number_label_class_init (SmprofNumberLabelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smprof_number_label_dispose;
  object_class->finalize = smprof_number_label_finalize;
  object_class->get_property = smprof_number_label_get_property;
  object_class->set_property = smprof_number_label_set_property;

  widget_class->measure = smprof_number_label_measure;
  widget_class->snapshot = smprof_number_label_snapshot;
  widget_class->css_changed = smprof_number_label_css_changed;
  widget_class->system_setting_changed = smprof_number_label_system_setting_changed;
  widget_class->direction_changed = smprof_number_label_direction_changed;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* styled as the labels around it: "row:selected label" and the like */
  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
smprof_number_label_init (SmprofNumberLabel *self)
{
  self->text = g_strdup ("");
  self->width = 0;
  gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
}

GtkWidget *
smprof_number_label_new (const char *text)
{
  return g_object_new (SMPROF_TYPE_NUMBER_LABEL, "text", text, NULL);
}

const char *
smprof_number_label_get_text (SmprofNumberLabel *self)
{
  g_return_val_if_fail (SMPROF_IS_NUMBER_LABEL (self), NULL);

  return self->text;
}

/**
 * smprof_number_label_set_text:
 * @self: a number label
 * @text: (nullable): the figures
 *
 * Shows @text. A text as wide as the last one only asks for a redraw.
 */
void
smprof_number_label_set_text (SmprofNumberLabel *self,
                              const char        *text)
{
  int old_width;

  g_return_if_fail (SMPROF_IS_NUMBER_LABEL (self));

  if (text == NULL)
    text = "";
  if (strcmp (text, self->text) == 0)
    return;

  old_width = self->width;
  g_free (self->text);
  self->text = g_strdup (text);
  g_clear_object (&self->layout);
  self->width = -1;

  /* Without glyphs yet (not styled, or restyled) the size is found when
   * GTK measures. */
  if (self->cache != NULL && old_width >= 0 && get_width (self) == old_width)
    gtk_widget_queue_draw (GTK_WIDGET (self));
  else
    gtk_widget_queue_resize (GTK_WIDGET (self));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, self->text, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

static void
followed_changed_cb (GObject           *object,
                     GParamSpec        *pspec,
                     SmprofNumberLabel *self)
{
  g_autofree char *text = NULL;

  g_object_get (object, self->followed_property, &text, NULL);
  smprof_number_label_set_text (self, text);
}

/**
 * smprof_number_label_follow:
 * @self: a number label
 * @object: (nullable): what to follow, or %NULL to stop
 * @property: (nullable): a string property of @object
 *
 * Shows @object's @property, now and whenever it changes.
 */
void
smprof_number_label_follow (SmprofNumberLabel *self,
                            GObject           *object,
                            const char        *property)
{
  g_return_if_fail (SMPROF_IS_NUMBER_LABEL (self));
  g_return_if_fail (object == NULL || property != NULL);

  /* a followed object that went away took its handler with it */
  if (self->followed != NULL)
    g_clear_signal_handler (&self->follow_handler, self->followed);
  self->follow_handler = 0;
  g_clear_weak_pointer (&self->followed);
  if (object == NULL)
    return;

  self->followed_property = g_intern_string (property);
  g_set_weak_pointer (&self->followed, object);
  {
    g_autofree char *detailed = g_strconcat ("notify::", property, NULL);

    self->follow_handler = g_signal_connect (object, detailed, G_CALLBACK (followed_changed_cb), self);
  }
  followed_changed_cb (object, NULL, self);
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          gpointer                  property)
{
  gtk_list_item_set_child (list_item, smprof_number_label_new (NULL));
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         gpointer                  property)
{
  smprof_number_label_follow (SMPROF_NUMBER_LABEL (gtk_list_item_get_child (list_item)),
                              gtk_list_item_get_item (list_item), property);
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  property)
{
  smprof_number_label_follow (SMPROF_NUMBER_LABEL (gtk_list_item_get_child (list_item)), NULL, NULL);
}

/**
 * smprof_number_label_factory_new:
 * @property: the string property of the rows' items each cell shows
 *
 * Cells made in code: a builder factory parses its template again for every
 * cell, which was most of the making of a table's ~200 bound rows.
 *
 * Returns: (transfer full): a factory of number labels following @property
 */
GtkListItemFactory *
smprof_number_label_factory_new (const char *property)
{
  return smprof_ui_property_factory_new (G_CALLBACK (setup_cb), G_CALLBACK (bind_cb), G_CALLBACK (unbind_cb), property);
}
