/* smv-recent.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <errno.h>

#include "smv-recent.h"

/* A small list of what was opened, newest first, kept in
 * $XDG_DATA_HOME/smprof-viewer/recent-jobs.ini. GtkRecentManager would do
 * for local folders, but the list also holds s3:// URIs and their titles, and
 * must not grow with every other application's files. */
struct _SmvRecent
{
  GObject    parent_instance;

  char      *filename;
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

  g_clear_pointer (&self->filename, g_free);
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
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_auto(GStrv) groups = NULL;

  if (!g_key_file_load_from_file (keyfile, self->filename, G_KEY_FILE_NONE, NULL))
    return;

  groups = g_key_file_get_groups (keyfile, NULL);
  for (guint i = 0; groups[i] != NULL && self->uris->len < SMV_RECENT_MAX_ITEMS; i++)
    {
      g_autofree char *uri = g_key_file_get_string (keyfile, groups[i], "uri", NULL);
      g_autofree char *title = g_key_file_get_string (keyfile, groups[i], "title", NULL);

      if (uri == NULL || !g_utf8_validate (uri, -1, NULL))
        continue;

      g_ptr_array_add (self->uris, g_steal_pointer (&uri));
      g_ptr_array_add (self->titles, g_steal_pointer (&title));
    }
}

static void
smv_recent_save (SmvRecent *self)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (self->filename);

  for (guint i = 0; i < self->uris->len; i++)
    {
      g_autofree char *group = g_strdup_printf ("job%u", i);
      const char *title = g_ptr_array_index (self->titles, i);

      g_key_file_set_string (keyfile, group, "uri", g_ptr_array_index (self->uris, i));
      if (title != NULL)
        g_key_file_set_string (keyfile, group, "title", title);
    }

  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_key_file_save_to_file (keyfile, self->filename, &error))
    g_warning ("Cannot save the recent jobs to %s: %s",
               self->filename, error != NULL ? error->message : g_strerror (errno));
}

/**
 * smv_recent_new:
 * @filename: the file that keeps the list
 *
 * Returns: (transfer full): the list, read from @filename if it exists
 */
SmvRecent *
smv_recent_new (const char *filename)
{
  SmvRecent *self;

  g_return_val_if_fail (filename != NULL, NULL);

  self = g_object_new (SMV_TYPE_RECENT, NULL);
  self->filename = g_strdup (filename);
  smv_recent_load (self);

  return self;
}

/**
 * smv_recent_new_default:
 *
 * Returns: (transfer full): the user's list, in the XDG data folder
 */
SmvRecent *
smv_recent_new_default (void)
{
  g_autofree char *filename = g_build_filename (g_get_user_data_dir (), "smprof-viewer", "recent-jobs.ini", NULL);

  return smv_recent_new (filename);
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
