/* smprof-s3-cache.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include "smprof-index-cache.h"
#include "smprof-s3-cache-private.h"

/* The cache folder holds objects/ (object files: smprof-s3-cache-object.c)
 * and listings/ (a job's listing, as the S3 source serializes it), both
 * counted against the size limit. */
#define LISTING_SUFFIX ".listing"
/* Every object file name ends so; directory names never can, since an '@' in a
 * key is always escaped. A file and a folder of the same key prefix
 * ("a" and "a/b") therefore never collide. */
#define OBJECT_SUFFIX "@"
#define MAX_SEGMENT 180
#define MAX_RELATIVE_PATH 3000
/* Temporary files older than this were left by a crash. */
#define STALE_TEMP_SECONDS (60 * 60)

struct _SmprofS3Cache
{
  GObject  parent_instance;

  char    *dir;
  guint64  max_size;
  gint64   created;       /* files used since then are never evicted */
  GMutex   lock;
  gboolean total_known;
  guint64  total;         /* bytes under objects/, as far as we know */
};

G_DEFINE_FINAL_TYPE (SmprofS3Cache, smprof_s3_cache, G_TYPE_OBJECT)

static void
smprof_s3_cache_finalize (GObject *object)
{
  SmprofS3Cache *self = SMPROF_S3_CACHE (object);

  g_clear_pointer (&self->dir, g_free);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (smprof_s3_cache_parent_class)->finalize (object);
}

static void
smprof_s3_cache_class_init (SmprofS3CacheClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_s3_cache_finalize;
}

static void
smprof_s3_cache_init (SmprofS3Cache *self)
{
  g_mutex_init (&self->lock);
}

/**
 * smprof_s3_cache_dup_default_dir:
 *
 * Returns: (transfer full): `$XDG_CACHE_HOME/smprof/s3` (`~/.cache/smprof/s3`)
 */
char *
smprof_s3_cache_dup_default_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "smprof", "s3", NULL);
}

/**
 * smprof_s3_cache_parse_size:
 * @text: a size such as `1073741824`, `512M`, `2G` or `2GiB`
 * @size: (out): the size in bytes
 *
 * Suffixes are powers of 1024.
 *
 * Returns: whether @text is a size
 */
gboolean
smprof_s3_cache_parse_size (const char *text,
                            guint64    *size)
{
  /* The same sizes as the parsed index's limit. */
  return smprof_parse_size (text, size);
}

/* One path component for one key segment: letters, digits, '-', '_' and a '.'
 * that is not first stay; every other byte becomes %XX. So no component is
 * empty, "." or "..", none holds a '/', and two segments never map to one
 * name. An empty segment (from "a//b" or a leading '/') is "%", which no
 * escape produces; an overlong one is "%H" and its SHA-256. */
static void
append_segment (GString    *out,
                const char *segment,
                gsize       length)
{
  static const char hex[] = "0123456789ABCDEF";
  gsize start = out->len;

  if (length == 0)
    {
      g_string_append_c (out, '%');
      return;
    }

  for (gsize i = 0; i < length; i++)
    {
      guchar c = segment[i];

      if (g_ascii_isalnum (c) || c == '-' || c == '_' || (c == '.' && i > 0))
        g_string_append_c (out, c);
      else
        {
          g_string_append_c (out, '%');
          g_string_append_c (out, hex[c >> 4]);
          g_string_append_c (out, hex[c & 0xf]);
        }
    }

  if (out->len - start > MAX_SEGMENT)
    {
      g_autofree char *digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) segment, length);

      g_string_truncate (out, start);
      g_string_append (out, "%H");
      g_string_append (out, digest);
    }
}

/**
 * smprof_s3_cache_key_to_relative_path:
 * @endpoint: the endpoint the object comes from
 * @bucket: its bucket
 * @key: its key, any bytes
 *
 * Maps an object to a file below the cache folder. Every component is built
 * by an escaping that cannot produce "", "." or ".." nor contain '/', so no
 * key, whatever its `..`, absolute or odd segments, can name a file outside
 * the cache. Readable for ordinary keys
 * (`objects/<endpoint>/<bucket>/<key segments>@`); a key too long to mirror
 * becomes its SHA-256.
 *
 * Returns: (transfer full): a relative path, '/'-separated
 */
char *
smprof_s3_cache_key_to_relative_path (const char *endpoint,
                                      const char *bucket,
                                      const char *key)
{
  GString *out = g_string_new ("objects/");
  const char *segment = key;

  g_return_val_if_fail (endpoint != NULL && bucket != NULL && key != NULL, NULL);

  append_segment (out, endpoint, strlen (endpoint));
  g_string_append_c (out, '/');
  append_segment (out, bucket, strlen (bucket));
  g_string_append_c (out, '/');

  {
    gsize prefix_length = out->len;

    for (;;)
      {
        const char *slash = strchr (segment, '/');
        gsize length = slash != NULL ? (gsize) (slash - segment) : strlen (segment);

        append_segment (out, segment, length);
        if (slash == NULL)
          break;
        g_string_append_c (out, '/');
        segment = slash + 1;
      }

    if (out->len > MAX_RELATIVE_PATH)
      {
        g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);

        g_string_truncate (out, prefix_length);
        g_string_append (out, "%K");
        g_string_append (out, digest);
      }
  }

  g_string_append (out, OBJECT_SUFFIX);

  return g_string_free (out, FALSE);
}

/**
 * smprof_s3_cache_new:
 * @dir: (nullable): the cache folder, %NULL for smprof_s3_cache_dup_default_dir()
 * @max_size: the size the objects may take, in bytes
 *
 * Returns: (transfer full): the cache
 */
SmprofS3Cache *
smprof_s3_cache_new (const char *dir,
                     guint64     max_size)
{
  SmprofS3Cache *self = g_object_new (SMPROF_TYPE_S3_CACHE, NULL);

  self->dir = dir != NULL ? g_canonicalize_filename (dir, NULL) : smprof_s3_cache_dup_default_dir ();
  self->max_size = max_size > 0 ? max_size : SMPROF_S3_CACHE_DEFAULT_MAX_SIZE;
  /* mtimes have a second's resolution on some file systems */
  self->created = g_get_real_time () / G_USEC_PER_SEC - 1;

  return self;
}

const char *
smprof_s3_cache_get_dir (SmprofS3Cache *self)
{
  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), NULL);

  return self->dir;
}

guint64
smprof_s3_cache_get_max_size (SmprofS3Cache *self)
{
  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), 0);

  return self->max_size;
}

const char *
_smprof_s3_cache_get_dir (SmprofS3Cache *self)
{
  return self->dir;
}

/* Opens @path for reading only if it is a regular file, without following a
 * last link and without waiting (a FIFO would block open() for a writer
 * that never comes). Returns the descriptor, or -1 for a miss. */
int
_smprof_s3_cache_open_regular (const char *path,
                               guint64    *size)
{
  struct stat st;
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

  if (fd < 0)
    return -1;

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size < 0)
    {
      close (fd);
      return -1;
    }

  *size = st.st_size;
  return fd;
}

void
_smprof_s3_cache_touch (const char *path)
{
  /* recently used files are the last evicted */
  g_utime (path, NULL);
}

void
_smprof_s3_cache_add_to_total (SmprofS3Cache *self,
                               guint64        bytes)
{
  g_mutex_lock (&self->lock);
  self->total += bytes;
  g_mutex_unlock (&self->lock);
}

typedef struct
{
  char    *path;
  guint64  size;
  gint64   mtime;
} CachedFile;

static void
cached_file_free (gpointer data)
{
  CachedFile *file = data;

  g_free (file->path);
  g_free (file);
}

static int
compare_oldest_first (gconstpointer a,
                      gconstpointer b)
{
  const CachedFile *x = *(CachedFile * const *) a;
  const CachedFile *y = *(CachedFile * const *) b;

  if (x->mtime != y->mtime)
    return x->mtime < y->mtime ? -1 : 1;

  return strcmp (x->path, y->path);
}

/* The files of @folder and below whose names end in @suffix; others are
 * temporary files, removed when a crash left them. */
static void
scan (const char *folder,
      const char *suffix,
      GPtrArray  *files,
      gint64      now)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      GStatBuf st;

      if (g_lstat (path, &st) != 0)
        continue;

      if (S_ISDIR (st.st_mode))
        scan (path, suffix, files, now);
      else if (S_ISREG (st.st_mode))
        {
          CachedFile *file;

          /* a temporary file that a crash left behind */
          if (!g_str_has_suffix (name, suffix))
            {
              if (now - st.st_mtime > STALE_TEMP_SECONDS)
                g_unlink (path);
              continue;
            }

          file = g_new0 (CachedFile, 1);
          file->path = g_steal_pointer (&path);
          file->size = st.st_size;
          file->mtime = st.st_mtime;
          g_ptr_array_add (files, file);
        }
    }
}

/* Empty folders left by eviction go too, up to objects/ itself (@stop). */
static void
remove_empty_parents (const char *path,
                      const char *stop)
{
  g_autofree char *folder = g_path_get_dirname (path);

  while (strlen (folder) > strlen (stop) && g_str_has_prefix (folder, stop) && g_rmdir (folder) == 0)
    {
      char *parent = g_path_get_dirname (folder);

      g_free (folder);
      folder = parent;
    }
}

/* Evicts the least recently used files, objects and listings alike, until
 * the cache holds at most 90% of its limit. With @spare_recent, files this
 * process used are kept even so. */
static void
trim (SmprofS3Cache *self,
      gboolean       spare_recent)
{
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *objects = NULL;
  g_autofree char *listings = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  guint64 total = 0;
  guint64 goal;

  locker = g_mutex_locker_new (&self->lock);

  if (self->total_known && self->total <= self->max_size)
    return;

  objects = g_build_filename (self->dir, "objects", NULL);
  listings = g_build_filename (self->dir, "listings", NULL);
  files = g_ptr_array_new_with_free_func (cached_file_free);
  scan (objects, OBJECT_SUFFIX, files, now);
  scan (listings, LISTING_SUFFIX, files, now);

  for (guint i = 0; i < files->len; i++)
    total += ((CachedFile *) g_ptr_array_index (files, i))->size;

  goal = self->max_size / 10 * 9;
  if (total > self->max_size)
    {
      g_ptr_array_sort (files, compare_oldest_first);
      for (guint i = 0; i < files->len && total > goal; i++)
        {
          CachedFile *file = g_ptr_array_index (files, i);

          if (spare_recent && file->mtime >= self->created)
            break;
          if (g_unlink (file->path) == 0)
            {
              total -= file->size;
              remove_empty_parents (file->path, g_str_has_prefix (file->path, objects) ? objects : listings);
            }
        }
    }

  self->total = total;
  self->total_known = TRUE;
}

/**
 * smprof_s3_cache_trim:
 * @self: a cache
 * @error: a location for a #GError, or %NULL
 *
 * Evicts the least recently used objects and listings until the cache holds
 * at most 90% of its size limit, sparing those this process used (a job open
 * now stays whole even when it alone exceeds the limit, until
 * smprof_s3_cache_close()). Cheap when the cache is known to be under its
 * limit.
 *
 * Returns: %TRUE
 */
gboolean
smprof_s3_cache_trim (SmprofS3Cache  *self,
                      GError        **error)
{
  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), FALSE);

  trim (self, TRUE);

  return TRUE;
}

/**
 * smprof_s3_cache_close:
 * @self: a cache
 *
 * Tells the cache that its user is done (the job is closed, the command ends):
 * it trims to its limit, sparing nothing, so no run leaves it larger than
 * its limit. It may still be used afterwards.
 */
void
smprof_s3_cache_close (SmprofS3Cache *self)
{
  g_return_if_fail (SMPROF_IS_S3_CACHE (self));

  trim (self, FALSE);
}

static char *
listing_path (SmprofS3Cache *self,
              const char    *id)
{
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, id, -1);
  g_autofree char *name = g_strconcat (digest, LISTING_SUFFIX, NULL);

  return g_build_filename (self->dir, "listings", name, NULL);
}

/**
 * smprof_s3_cache_lookup_listing:
 * @self: a cache
 * @id: what the listing is of (endpoint, bucket, prefix)
 *
 * A FIFO, a link or anything but a regular file is a miss, and is not
 * waited on.
 *
 * Returns: (transfer full) (nullable): the listing stored for @id
 */
GBytes *
smprof_s3_cache_lookup_listing (SmprofS3Cache *self,
                                const char    *id)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  guint64 size = 0;
  gsize length = 0;
  int fd;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  path = listing_path (self, id);
  fd = _smprof_s3_cache_open_regular (path, &size);
  if (fd < 0)
    return NULL;

  /* what was there when it was opened; a file still growing is damaged */
  if (size <= G_MAXSIZE - 1)
    {
      contents = g_malloc (MAX (size, 1));
      while (length < size)
        {
          ssize_t n = read (fd, contents + length, size - length);

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            break;
          length += n;
        }
    }
  close (fd);

  if (contents == NULL || length != size)
    return NULL;

  _smprof_s3_cache_touch (path);

  return g_bytes_new_take (g_steal_pointer (&contents), length);
}

/**
 * smprof_s3_cache_store_listing:
 * @self: a cache
 * @id: what the listing is of
 * @data: the listing, serialized by the caller
 * @error: a location for a #GError, or %NULL
 *
 * Returns: whether it was stored (atomically, as objects are)
 */
gboolean
smprof_s3_cache_store_listing (SmprofS3Cache  *self,
                               const char     *id,
                               GBytes         *data,
                               GError        **error)
{
  g_autofree char *path = NULL;
  g_autofree char *folder = NULL;
  gsize length = 0;
  const char *bytes;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), FALSE);
  g_return_val_if_fail (id != NULL && data != NULL, FALSE);

  path = listing_path (self, id);
  folder = g_path_get_dirname (path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot create the cache folder “%s”: %s"), folder, g_strerror (saved_errno));
      return FALSE;
    }

  bytes = g_bytes_get_data (data, &length);
  if (!g_file_set_contents_full (path, bytes != NULL ? bytes : "", length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return FALSE;

  _smprof_s3_cache_add_to_total (self, length);

  return TRUE;
}
