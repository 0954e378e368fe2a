/* smv-preferences-window.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>

#include "smv-application.h"
#include "smv-preferences-window.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)

/* The settings of io.github.smprof.Viewer the plugins read: the flame
 * graph's colours, and how jobs on S3 are fetched and polled. Every control
 * is bound to its key, so a change applies at once (GNOME's instant-apply
 * style) and the window only closes. Plain GTK 4.8 widgets: a grid of
 * mnemonic labels, so Alt+letter reaches each control and Escape closes. */
struct _SmvPreferencesWindow
{
  GtkWindow  parent_instance;

  GSettings *settings;
  GSettings *s3_settings;
};

G_DEFINE_FINAL_TYPE (SmvPreferencesWindow, smv_preferences_window, GTK_TYPE_WINDOW)

/* The enum's nicks, in the drop-down's order. */
static const char * const color_schemes[] = { "default", "module", "colorblind" };

static gboolean
scheme_to_index (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (color_schemes); i++)
    if (g_strcmp0 (nick, color_schemes[i]) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  return FALSE;
}

static GVariant *
index_to_scheme (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  guint index = g_value_get_uint (value);

  if (index >= G_N_ELEMENTS (color_schemes))
    return NULL;

  return g_variant_new_string (color_schemes[index]);
}

/* The cache size is kept in bytes and shown in MiB. */
static gboolean
bytes_to_mib (GValue   *value,
              GVariant *variant,
              gpointer  user_data)
{
  g_value_set_double (value, (double) (g_variant_get_uint64 (variant) / MIB));

  return TRUE;
}

static GVariant *
mib_to_bytes (const GValue       *value,
              const GVariantType *expected_type,
              gpointer            user_data)
{
  return g_variant_new_uint64 ((guint64) g_value_get_double (value) * MIB);
}

/* A row of the grid: a mnemonic label for @control, and a dim hint below. */
static void
add_row (GtkGrid    *grid,
         int         row,
         const char *label_text,
         const char *hint_text,
         GtkWidget  *control)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (label_text);
  GtkWidget *hint = gtk_label_new (hint_text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), control);
  gtk_widget_set_valign (control, GTK_ALIGN_CENTER);

  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 50);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_add_css_class (hint, "caption");

  gtk_grid_attach (grid, label, 0, row * 2, 1, 1);
  gtk_grid_attach (grid, control, 1, row * 2, 1, 2);
  gtk_grid_attach (grid, hint, 0, row * 2 + 1, 1, 1);

  gtk_accessible_update_relation (GTK_ACCESSIBLE (control),
                                  GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, hint, NULL,
                                  -1);
}

static GtkWidget *
new_spin (double lower,
          double upper,
          double step)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, upper, step);

  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 0);

  return spin;
}

static GtkWidget *
new_heading (const char *text)
{
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", text);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");

  return label;
}

static void
smv_preferences_window_dispose (GObject *object)
{
  SmvPreferencesWindow *self = SMV_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->s3_settings);

  G_OBJECT_CLASS (smv_preferences_window_parent_class)->dispose (object);
}

static void
smv_preferences_window_class_init (SmvPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = smv_preferences_window_dispose;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
smv_preferences_window_init (SmvPreferencesWindow *self)
{
  const char *scheme_names[] = {
    /* Translators: flame graph colours */
    _("Warm, by package"),
    _("Rainbow, by file"),
    _("Color-blind safe"),
    NULL,
  };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *grid;
  GtkWidget *colors, *connections, *cache, *refresh;

  self->settings = g_settings_new (SMV_APPLICATION_ID);
  self->s3_settings = g_settings_get_child (self->settings, "s3");

  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_resizable (GTK_WINDOW (self), FALSE);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_window_set_child (GTK_WINDOW (self), box);

  gtk_box_append (GTK_BOX (box), new_heading (_("Flame Graphs")));
  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_box_append (GTK_BOX (box), grid);
  colors = gtk_drop_down_new_from_strings (scheme_names);
  gtk_widget_set_name (colors, "flame-graph-color-scheme");
  add_row (GTK_GRID (grid), 0, _("_Colors"),
           _("Each scheme has a light and a dark variant, as the window’s style asks."), colors);
  g_settings_bind_with_mapping (self->settings, "flame-graph-color-scheme", colors, "selected",
                                G_SETTINGS_BIND_DEFAULT, scheme_to_index, index_to_scheme, NULL, NULL);

  gtk_box_append (GTK_BOX (box), new_heading (_("Jobs on Amazon S3")));
  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_widget_set_margin_bottom (grid, 6);
  gtk_box_append (GTK_BOX (box), grid);

  connections = new_spin (1, 64, 1);
  gtk_widget_set_name (connections, "max-connections");
  add_row (GTK_GRID (grid), 0, _("_Parallel requests"),
           _("Requests to S3 at once while a job is listed and downloaded. "
             "SMPROF_S3_MAX_CONNECTIONS, when set, wins."), connections);
  g_settings_bind (self->s3_settings, "max-connections",
                   gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (connections)), "value", G_SETTINGS_BIND_DEFAULT);

  cache = new_spin (0, 1024 * 1024, 64);
  gtk_widget_set_name (cache, "cache-size");
  add_row (GTK_GRID (grid), 1, _("Cache _size (MiB)"),
           _("Downloaded stats files kept for the next opening; 0 keeps none. "
             "SMPROF_S3_CACHE_MAX_SIZE, when set, wins."), cache);
  g_settings_bind_with_mapping (self->s3_settings, "cache-size",
                                gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (cache)), "value",
                                G_SETTINGS_BIND_DEFAULT, bytes_to_mib, mib_to_bytes, NULL, NULL);

  refresh = new_spin (0, 86400, 10);
  gtk_widget_set_name (refresh, "refresh-interval");
  add_row (GTK_GRID (grid), 2, _("_Refresh every (seconds)"),
           _("A job page lists its job again this often, so the intervals of a job still training appear; "
             "0 leaves live refresh off until you turn it on in the page."), refresh);
  g_settings_bind (self->s3_settings, "refresh-interval",
                   gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (refresh)), "value", G_SETTINGS_BIND_DEFAULT);
}

/**
 * smv_preferences_window_new:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer none): a new preferences window, not shown yet
 */
GtkWidget *
smv_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (SMV_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       "destroy-with-parent", TRUE,
                       NULL);
}
