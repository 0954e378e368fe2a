/* smv-recent.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include "smv-application.h"
#include "smv-recent.h"

/* A small list of what was opened, newest first, kept in the settings
 * (`recent-jobs` of io.github.smprof.Viewer: an array of (uri, title), the
 * title empty when unknown). GtkRecentManager would do for local folders, but
 * the list also holds URIs of remote jobs and their titles, and must not grow with
 * every other application's files. */
struct _SmvRecent
{
  GObject    parent_instance;

  GSettings *settings;
  GPtrArray *uris;     /* char*, newest first */
  GPtrArray *titles;   /* char*, same order */
};

G_DEFINE_FINAL_TYPE (SmvRecent, smv_recent, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
smv_recent_finalize (GObject *object)
{
  SmvRecent *self = SMV_RECENT (object);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->uris, g_ptr_array_unref);
  g_clear_pointer (&self->titles, g_ptr_array_unref);

  G_OBJECT_CLASS (smv_recent_parent_class)->finalize (object);
}

static void
smv_recent_class_init (SmvRecentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = smv_recent_finalize;

  /**
   * SmvRecent::changed:
   *
   * The list changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
smv_recent_init (SmvRecent *self)
{
  self->uris = g_ptr_array_new_with_free_func (g_free);
  self->titles = g_ptr_array_new_with_free_func (g_free);
}

static void
smv_recent_load (SmvRecent *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->settings, "recent-jobs");
  GVariantIter iter;
  const char *uri;
  const char *title;

  g_ptr_array_set_size (self->uris, 0);
  g_ptr_array_set_size (self->titles, 0);

  g_variant_iter_init (&iter, value);
  while (self->uris->len < SMV_RECENT_MAX_ITEMS && g_variant_iter_next (&iter, "(&s&s)", &uri, &title))
    {
      if (uri[0] == '\0')
        continue;

      g_ptr_array_add (self->uris, g_strdup (uri));
      g_ptr_array_add (self->titles, title[0] != '\0' ? g_strdup (title) : NULL);
    }
}

static GVariant *
smv_recent_to_variant (SmvRecent *self)
{
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(ss)"));

  for (guint i = 0; i < self->uris->len; i++)
    {
      const char *title = g_ptr_array_index (self->titles, i);

      g_variant_builder_add (&builder, "(ss)", g_ptr_array_index (self->uris, i), title != NULL ? title : "");
    }

  return g_variant_builder_end (&builder);
}

static void
smv_recent_save (SmvRecent *self)
{
  if (!g_settings_set_value (self->settings, "recent-jobs", smv_recent_to_variant (self)))
    g_warning ("Cannot save the recent jobs: the setting is not writable");
}

/* Another window's or process's change: reload. Our own writes come back
 * here too, and change nothing. */
static void
settings_changed_cb (SmvRecent  *self,
                     const char *key,
                     GSettings  *settings)
{
  g_autoptr(GVariant) ours = g_variant_ref_sink (smv_recent_to_variant (self));
  g_autoptr(GVariant) theirs = g_settings_get_value (settings, "recent-jobs");

  if (g_variant_equal (ours, theirs))
    return;

  smv_recent_load (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * smv_recent_new:
 * @settings: settings of the `io.github.smprof.Viewer` schema
 *
 * Returns: (transfer full): the list kept in @settings
 */
SmvRecent *
smv_recent_new (GSettings *settings)
{
  SmvRecent *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (SMV_TYPE_RECENT, NULL);
  self->settings = g_object_ref (settings);
  smv_recent_load (self);
  g_signal_connect_object (settings, "changed::recent-jobs", G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * smv_recent_new_default:
 *
 * Returns: (transfer full): the user's list, in the application's settings
 */
SmvRecent *
smv_recent_new_default (void)
{
  g_autoptr(GSettings) settings = g_settings_new (SMV_APPLICATION_ID);

  return smv_recent_new (settings);
}

guint
smv_recent_get_n_items (SmvRecent *self)
{
  g_return_val_if_fail (SMV_IS_RECENT (self), 0);

  return self->uris->len;
}

const char *
smv_recent_get_uri (SmvRecent *self,
                    guint      position)
{
  g_return_val_if_fail (SMV_IS_RECENT (self), NULL);
  g_return_val_if_fail (position < self->uris->len, NULL);

  return g_ptr_array_index (self->uris, position);
}

/**
 * smv_recent_get_title:
 * @self: the list
 * @position: an item
 *
 * Returns: (nullable): the title the document had, if known
 */
const char *
smv_recent_get_title (SmvRecent *self,
                      guint      position)
{
  g_return_val_if_fail (SMV_IS_RECENT (self), NULL);
  g_return_val_if_fail (position < self->titles->len, NULL);

  return g_ptr_array_index (self->titles, position);
}

static gboolean
remove_uri (SmvRecent  *self,
            const char *uri)
{
  for (guint i = 0; i < self->uris->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->uris, i), uri) == 0)
      {
        g_ptr_array_remove_index (self->uris, i);
        g_ptr_array_remove_index (self->titles, i);
        return TRUE;
      }

  return FALSE;
}

/**
 * smv_recent_add:
 * @self: the list
 * @location: what was opened
 * @title: (nullable): the document's title
 *
 * Puts @location first, saves the list and emits #SmvRecent::changed.
 */
void
smv_recent_add (SmvRecent  *self,
                GFile      *location,
                const char *title)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (SMV_IS_RECENT (self));
  g_return_if_fail (G_IS_FILE (location));

  uri = g_file_get_uri (location);
  remove_uri (self, uri);

  g_ptr_array_insert (self->uris, 0, g_steal_pointer (&uri));
  g_ptr_array_insert (self->titles, 0, g_strdup (title));
  while (self->uris->len > SMV_RECENT_MAX_ITEMS)
    {
      g_ptr_array_remove_index (self->uris, self->uris->len - 1);
      g_ptr_array_remove_index (self->titles, self->titles->len - 1);
    }

  smv_recent_save (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * smv_recent_remove:
 * @self: the list
 * @uri: an item's URI
 *
 * Forgets @uri, for example when it cannot be opened any more.
 */
void
smv_recent_remove (SmvRecent  *self,
                   const char *uri)
{
  g_return_if_fail (SMV_IS_RECENT (self));
  g_return_if_fail (uri != NULL);

  if (remove_uri (self, uri))
    {
      smv_recent_save (self);
      g_signal_emit (self, signals[CHANGED], 0);
    }
}
