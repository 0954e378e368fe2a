/* smprof-index-cache.c: the parsed index's folder, its size limit and its
 * defaults
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <utime.h>

#include "smprof-index-cache-private.h"

struct _SmprofIndexCache
{
  GObject     parent_instance;

  char       *dir;
  guint64     max_size;
  GMutex      lock;
  GHashTable *used;     /* file names this process read or wrote: trimming spares them */
};

G_DEFINE_FINAL_TYPE (SmprofIndexCache, smprof_index_cache, G_TYPE_OBJECT)

/* A temporary file left by a writer that died is removed after this long. */
#define STALE_TEMPORARY_US (G_GINT64_CONSTANT (3600) * G_USEC_PER_SEC)

static void
smprof_index_cache_finalize (GObject *object)
{
  SmprofIndexCache *self = SMPROF_INDEX_CACHE (object);

  g_clear_pointer (&self->dir, g_free);
  g_clear_pointer (&self->used, g_hash_table_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (smprof_index_cache_parent_class)->finalize (object);
}

static void
smprof_index_cache_class_init (SmprofIndexCacheClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_index_cache_finalize;
}

static void
smprof_index_cache_init (SmprofIndexCache *self)
{
  g_mutex_init (&self->lock);
  self->used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * smprof_index_cache_dup_default_dir:
 *
 * Returns: (transfer full): `$XDG_CACHE_HOME/smprof/index` (`~/.cache/smprof/index`)
 */
char *
smprof_index_cache_dup_default_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "smprof", "index", NULL);
}

/**
 * smprof_parse_size:
 * @text: a size such as `1073741824`, `512M`, `2G` or `2GiB`
 * @size: (out): the size in bytes
 *
 * Suffixes are powers of 1024.
 *
 * Returns: whether @text is a size
 */
gboolean
smprof_parse_size (const char *text,
                   guint64    *size)
{
  g_autofree char *copy = NULL;
  guint64 value, multiplier = 1;
  char *end = NULL;

  g_return_val_if_fail (text != NULL && size != NULL, FALSE);

  copy = g_strstrip (g_strdup (text));
  if (!g_ascii_isdigit (copy[0]))
    return FALSE;

  errno = 0;
  value = g_ascii_strtoull (copy, &end, 10);
  if (errno != 0)
    return FALSE;

  switch (g_ascii_toupper (*end))
    {
    case 'K': multiplier = G_GUINT64_CONSTANT (1) << 10; end++; break;
    case 'M': multiplier = G_GUINT64_CONSTANT (1) << 20; end++; break;
    case 'G': multiplier = G_GUINT64_CONSTANT (1) << 30; end++; break;
    case 'T': multiplier = G_GUINT64_CONSTANT (1) << 40; end++; break;
    default: break;
    }
  if (multiplier > 1 && g_ascii_toupper (*end) == 'I' && g_ascii_toupper (end[1]) == 'B')
    end += 2;
  else if (g_ascii_toupper (*end) == 'B')
    end++;

  if (*end != '\0' || (value != 0 && multiplier > G_MAXUINT64 / value))
    return FALSE;

  *size = value * multiplier;
  return TRUE;
}

/**
 * smprof_index_cache_new:
 * @dir: the folder (made when first written to)
 * @max_size: the bytes its files may take, 0 for
 *   %SMPROF_INDEX_CACHE_DEFAULT_MAX_SIZE
 *
 * Returns: (transfer full): the cache
 */
SmprofIndexCache *
smprof_index_cache_new (const char *dir,
                        guint64     max_size)
{
  SmprofIndexCache *self;

  g_return_val_if_fail (dir != NULL, NULL);

  self = g_object_new (SMPROF_TYPE_INDEX_CACHE, NULL);
  self->dir = g_strdup (dir);
  self->max_size = max_size > 0 ? max_size : SMPROF_INDEX_CACHE_DEFAULT_MAX_SIZE;

  return self;
}

/**
 * smprof_index_cache_new_default:
 *
 * The cache in smprof_index_cache_dup_default_dir(), of the size
 * `SMPROF_INDEX_CACHE_MAX_SIZE` says (a size as smprof_parse_size() reads
 * it), or 1 GiB. `SMPROF_NO_CACHE=1` or `SMPROF_INDEX_CACHE_MAX_SIZE=0`
 * turns the cache off: for the viewer, the way to bypass it; the command
 * line also has `--no-cache`.
 *
 * Returns: (transfer full) (nullable): the cache, or %NULL when turned off
 */
SmprofIndexCache *
smprof_index_cache_new_default (void)
{
  const char *text = g_getenv ("SMPROF_INDEX_CACHE_MAX_SIZE");
  const char *no_cache = g_getenv ("SMPROF_NO_CACHE");
  g_autofree char *dir = NULL;
  guint64 max_size = SMPROF_INDEX_CACHE_DEFAULT_MAX_SIZE;

  if (no_cache != NULL && no_cache[0] != '\0' && strcmp (no_cache, "0") != 0)
    return NULL;

  dir = smprof_index_cache_dup_default_dir ();

  if (text != NULL && text[0] != '\0')
    {
      if (!smprof_parse_size (text, &max_size))
        {
          g_warning ("SMPROF_INDEX_CACHE_MAX_SIZE=%s is not a size; using 1 GiB", text);
          max_size = SMPROF_INDEX_CACHE_DEFAULT_MAX_SIZE;
        }
      else if (max_size == 0)
        return NULL;
    }

  return smprof_index_cache_new (dir, max_size);
}

const char *
smprof_index_cache_get_dir (SmprofIndexCache *self)
{
  g_return_val_if_fail (SMPROF_IS_INDEX_CACHE (self), NULL);

  return self->dir;
}

guint64
smprof_index_cache_get_max_size (SmprofIndexCache *self)
{
  g_return_val_if_fail (SMPROF_IS_INDEX_CACHE (self), 0);

  return self->max_size;
}

/* The cache file for @identity (a job's or a node folder's), and whether the
 * folder could be made. @kind is "keys" or "node". */
char *
_smprof_index_cache_dup_path (SmprofIndexCache *self,
                              const char       *kind,
                              const char       *identity)
{
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, identity, -1);
  g_autofree char *name = g_strdup_printf ("%s-%.40s.smpi", kind, digest);

  return g_build_filename (self->dir, name, NULL);
}

gboolean
_smprof_index_cache_ensure_dir (SmprofIndexCache  *self,
                                GError           **error)
{
  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", self->dir, g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

/* @path was read or written by this process: it is in use (trimming spares
 * it), and its time says so to the next process that trims. */
void
_smprof_index_cache_mark_used (SmprofIndexCache *self,
                               const char       *path,
                               gboolean          touch)
{
  g_autofree char *name = g_path_get_basename (path);

  g_mutex_lock (&self->lock);
  g_hash_table_add (self->used, g_steal_pointer (&name));
  g_mutex_unlock (&self->lock);

  if (touch)
    g_utime (path, NULL);
}

typedef struct
{
  char   *name;
  gint64  mtime;
  guint64 size;
} CacheFile;

static void
cache_file_clear (gpointer data)
{
  g_free (((CacheFile *) data)->name);
}

static int
compare_oldest_first (gconstpointer a,
                      gconstpointer b)
{
  const CacheFile *x = a;
  const CacheFile *y = b;

  if (x->mtime != y->mtime)
    return x->mtime < y->mtime ? -1 : 1;
  return strcmp (x->name, y->name);
}

/**
 * smprof_index_cache_trim:
 * @self: a cache
 * @error: a location for a #GError, or %NULL
 *
 * Removes the least recently used files until the folder is a tenth under
 * its size limit, sparing those this process uses (a job open now stays
 * whole); and temporary files that a writer left an hour ago or more.
 *
 * Returns: %FALSE if the folder could not be read
 */
gboolean
smprof_index_cache_trim (SmprofIndexCache  *self,
                         GError           **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GArray) files = g_array_new (FALSE, FALSE, sizeof (CacheFile));
  gint64 now = g_get_real_time ();
  guint64 total = 0;
  const char *name;

  g_return_val_if_fail (SMPROF_IS_INDEX_CACHE (self), FALSE);

  g_array_set_clear_func (files, cache_file_clear);

  dir = g_dir_open (self->dir, 0, error);
  if (dir == NULL)
    return FALSE;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (self->dir, name, NULL);
      CacheFile file;
      GStatBuf st;

      if (!g_str_has_prefix (name, "keys-") && !g_str_has_prefix (name, "node-"))
        continue;
      if (g_lstat (path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;

      /* name.smpi.XXXXXX: a writer's, not renamed yet */
      if (!g_str_has_suffix (name, ".smpi"))
        {
          if (now - (gint64) st.st_mtime * G_USEC_PER_SEC > STALE_TEMPORARY_US)
            g_unlink (path);
          continue;
        }

      file.name = g_strdup (name);
      file.mtime = st.st_mtime;
      file.size = st.st_size;
      total += file.size;
      g_array_append_val (files, file);
    }

  if (total <= self->max_size)
    return TRUE;

  g_array_sort (files, compare_oldest_first);

  for (guint i = 0; i < files->len && total > self->max_size / 10 * 9; i++)
    {
      const CacheFile *file = &g_array_index (files, CacheFile, i);
      g_autofree char *path = NULL;
      gboolean used;

      g_mutex_lock (&self->lock);
      used = g_hash_table_contains (self->used, file->name);
      g_mutex_unlock (&self->lock);
      if (used)
        continue;

      path = g_build_filename (self->dir, file->name, NULL);
      if (g_unlink (path) == 0)
        total -= file->size;
    }

  return TRUE;
}
