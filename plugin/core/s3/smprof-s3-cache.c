/* smprof-s3-cache.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <utime.h>

#include "smprof-s3-cache-private.h"

/* Object files carry a small text header (format, ETag, size, SHA-256 of the
 * body) before the body, so one rename publishes both and a file is trusted
 * only when all of it agrees with the listing. */
#define OBJECT_MAGIC "smprof-s3-object 1\n"
#define LISTING_SUFFIX ".listing"
/* Every object file name ends so; directory names never can, since an '@' in a
 * key is always escaped. A file and a folder of the same key prefix
 * ("a" and "a/b") therefore never collide. */
#define OBJECT_SUFFIX "@"
#define MAX_HEADER SMPROF_S3_CACHE_MAX_HEADER
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

static char *
object_path (SmprofS3Cache *self,
             const char    *endpoint,
             const char    *bucket,
             const char    *key)
{
  g_autofree char *relative = smprof_s3_cache_key_to_relative_path (endpoint, bucket, key);

  return g_build_filename (self->dir, relative, NULL);
}

typedef SmprofS3CacheHeader Header;

void
_smprof_s3_cache_header_clear (Header *header)
{
  g_clear_pointer (&header->etag, g_free);
  g_clear_pointer (&header->sha256, g_free);
}

/* Reads "smprof-s3-object 1", then "name value" lines up to an empty line. */
gboolean
_smprof_s3_cache_parse_header (const char *data,
                               gsize       length,
                               Header     *header)
{
  const char *end = data + MIN (length, MAX_HEADER);
  const char *line = data + strlen (OBJECT_MAGIC);
  gboolean have_size = FALSE;

  if (length < strlen (OBJECT_MAGIC) || memcmp (data, OBJECT_MAGIC, strlen (OBJECT_MAGIC)) != 0)
    return FALSE;

  while (line < end)
    {
      const char *newline = memchr (line, '\n', end - line);
      g_autofree char *text = NULL;

      if (newline == NULL)
        return FALSE;
      if (newline == line)
        {
          header->header_length = newline + 1 - data;
          return have_size && header->etag != NULL && header->sha256 != NULL;
        }

      text = g_strndup (line, newline - line);
      if (g_str_has_prefix (text, "etag "))
        {
          g_free (header->etag);
          header->etag = g_strdup (text + 5);
        }
      else if (g_str_has_prefix (text, "sha256 "))
        {
          g_free (header->sha256);
          header->sha256 = g_strdup (text + 7);
        }
      else if (g_str_has_prefix (text, "size "))
        have_size = g_ascii_string_to_unsigned (text + 5, 10, 0, G_MAXUINT64, &header->size, NULL);

      line = newline + 1;
    }

  return FALSE;
}

static gboolean
read_header (const char *path,
             Header     *header,
             guint64    *file_size)
{
  char buffer[MAX_HEADER];
  GStatBuf st;
  size_t n;
  FILE *file;

  if ((file = g_fopen (path, "rb")) == NULL)
    return FALSE;

  n = fread (buffer, 1, sizeof buffer, file);
  if (fstat (fileno (file), &st) != 0)
    {
      fclose (file);
      return FALSE;
    }
  fclose (file);

  *file_size = st.st_size;

  return _smprof_s3_cache_parse_header (buffer, n, header);
}

static void
touch (const char *path)
{
  /* recently used files are the last evicted */
  g_utime (path, NULL);
}

/* Keys and ETags go into the header on one line each. */
static char *
escape_line (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\n' || *p == '\r' || *p == '%')
        g_string_append_printf (out, "%%%02X", (guchar) *p);
      else
        g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/* The header holds the ETag escaped (escape_line()): compare it so. */
static gboolean
header_matches (const Header *header,
                const char   *etag,
                guint64       size,
                guint64       file_size)
{
  g_autofree char *escaped = escape_line (etag != NULL ? etag : "");

  return header->size == size &&
         (guint64) header->header_length + size == file_size &&
         g_strcmp0 (header->etag, escaped) == 0;
}

/**
 * smprof_s3_cache_contains:
 * @self: a cache
 * @endpoint: the object's endpoint
 * @bucket: its bucket
 * @key: its key
 * @etag: (nullable): its ETag, as listed
 * @size: its size, as listed
 *
 * A cheap check (the header and the file's size, not the checksum) for
 * deciding what to download.
 *
 * Returns: whether a copy with this ETag and size is kept
 */
gboolean
smprof_s3_cache_contains (SmprofS3Cache *self,
                          const char    *endpoint,
                          const char    *bucket,
                          const char    *key,
                          const char    *etag,
                          guint64        size)
{
  g_autofree char *path = NULL;
  Header header = { 0 };
  guint64 file_size = 0;
  gboolean matches;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), FALSE);

  path = object_path (self, endpoint, bucket, key);
  matches = read_header (path, &header, &file_size) && header_matches (&header, etag, size, file_size);
  _smprof_s3_cache_header_clear (&header);

  return matches;
}

/**
 * smprof_s3_cache_lookup:
 * @self: a cache
 * @endpoint: the object's endpoint
 * @bucket: its bucket
 * @key: its key
 * @etag: (nullable): its ETag, as listed
 * @size: its size, as listed
 *
 * Returns the kept copy when its ETag, size and checksum all agree; a copy
 * that disagrees is removed.
 *
 * Returns: (transfer full) (nullable): the object's bytes, or %NULL
 */
GBytes *
smprof_s3_cache_lookup (SmprofS3Cache *self,
                        const char    *endpoint,
                        const char    *bucket,
                        const char    *key,
                        const char    *etag,
                        guint64        size)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *digest = NULL;
  g_autoptr(GBytes) whole = NULL;
  Header header = { 0 };
  gsize length = 0;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), NULL);

  path = object_path (self, endpoint, bucket, key);
  if (!g_file_get_contents (path, &contents, &length, NULL))
    return NULL;

  if (!_smprof_s3_cache_parse_header (contents, length, &header))
    goto damaged;

  if (!header_matches (&header, etag, size, length))
    {
      /* an older version of the object: not damaged, just stale */
      _smprof_s3_cache_header_clear (&header);
      return NULL;
    }

  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                        (const guchar *) contents + header.header_length, size);
  if (strcmp (digest, header.sha256) != 0)
    goto damaged;

  touch (path);
  whole = g_bytes_new_take (g_steal_pointer (&contents), length);
  {
    gsize offset = header.header_length;

    _smprof_s3_cache_header_clear (&header);
    return g_bytes_new_from_bytes (whole, offset, size);
  }

damaged:
  _smprof_s3_cache_header_clear (&header);
  g_unlink (path);
  return NULL;
}

static void
add_to_total (SmprofS3Cache *self,
              guint64        bytes)
{
  g_mutex_lock (&self->lock);
  self->total += bytes;
  g_mutex_unlock (&self->lock);
}

/**
 * smprof_s3_cache_store:
 * @self: a cache
 * @endpoint: the object's endpoint
 * @bucket: its bucket
 * @key: its key
 * @etag: (nullable): its ETag, as the GET answered
 * @data: its bytes
 * @error: a location for a #GError, or %NULL
 *
 * Writes a temporary file beside the final one and renames it into place, so
 * a reader sees the old copy, the new one or none, never a part.
 *
 * Returns: whether the copy was kept
 */
gboolean
smprof_s3_cache_store (SmprofS3Cache  *self,
                       const char     *endpoint,
                       const char     *bucket,
                       const char     *key,
                       const char     *etag,
                       GBytes         *data,
                       GError        **error)
{
  g_autofree char *path = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *etag_line = NULL;
  g_autofree char *key_line = NULL;
  g_autoptr(GString) contents = NULL;
  gsize size = 0;
  const char *bytes;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  bytes = g_bytes_get_data (data, &size);
  path = object_path (self, endpoint, bucket, key);
  folder = g_path_get_dirname (path);
  digest = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, data);
  etag_line = escape_line (etag != NULL ? etag : "");
  key_line = escape_line (key);

  contents = g_string_sized_new (size + 256);
  g_string_append (contents, OBJECT_MAGIC);
  g_string_append_printf (contents, "etag %s\nsize %" G_GSIZE_FORMAT "\nsha256 %s\nkey %s\n\n",
                          etag_line, size, digest, key_line);
  if (contents->len > MAX_HEADER)
    {
      /* a header this long would not be read back: keep nothing */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("ETag too long to cache"));
      return FALSE;
    }
  g_string_append_len (contents, bytes, size);

  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot create the cache folder “%s”: %s"), folder, g_strerror (saved_errno));
      return FALSE;
    }

  if (!g_file_set_contents_full (path, contents->str, contents->len,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return FALSE;

  add_to_total (self, contents->len);

  return TRUE;
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

static void
scan (const char *folder,
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
        scan (path, files, now);
      else if (S_ISREG (st.st_mode))
        {
          CachedFile *file;

          /* a temporary file that a crash left behind */
          if (!g_str_has_suffix (name, OBJECT_SUFFIX))
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

/* Empty folders left by eviction go too, up to objects/ itself. */
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

/**
 * smprof_s3_cache_trim:
 * @self: a cache
 * @error: a location for a #GError, or %NULL
 *
 * Evicts the least recently used objects until the cache holds at most 90% of
 * its size limit, sparing those this process used (a job open now stays
 * whole even when it alone exceeds the limit). Cheap when the cache is known
 * to be under its limit.
 *
 * Returns: %TRUE
 */
gboolean
smprof_s3_cache_trim (SmprofS3Cache  *self,
                      GError        **error)
{
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *objects = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  guint64 total = 0;
  guint64 goal;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), FALSE);

  locker = g_mutex_locker_new (&self->lock);

  if (self->total_known && self->total <= self->max_size)
    return TRUE;

  objects = g_build_filename (self->dir, "objects", NULL);
  files = g_ptr_array_new_with_free_func (cached_file_free);
  scan (objects, files, now);

  for (guint i = 0; i < files->len; i++)
    total += ((CachedFile *) g_ptr_array_index (files, i))->size;

  goal = self->max_size / 10 * 9;
  if (total > self->max_size)
    {
      g_ptr_array_sort (files, compare_oldest_first);
      for (guint i = 0; i < files->len && total > goal; i++)
        {
          CachedFile *file = g_ptr_array_index (files, i);

          if (file->mtime >= self->created)
            break;
          if (g_unlink (file->path) == 0)
            {
              total -= file->size;
              remove_empty_parents (file->path, objects);
            }
        }
    }

  self->total = total;
  self->total_known = TRUE;

  return TRUE;
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
 * Returns: (transfer full) (nullable): the listing stored for @id
 */
GBytes *
smprof_s3_cache_lookup_listing (SmprofS3Cache *self,
                                const char    *id)
{
  g_autofree char *path = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  path = listing_path (self, id);
  if (!g_file_get_contents (path, &contents, &length, NULL))
    return NULL;

  return g_bytes_new_take (contents, length);
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

  return g_file_set_contents_full (path, bytes != NULL ? bytes : "", length,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}
