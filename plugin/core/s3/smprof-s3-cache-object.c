/* smprof-s3-cache-object.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The cache's object files. A file is the object's body, streamed in as it
 * arrives, then a trailer that says what it is: a GVariant in normal form
 * (the key, the ETag the listing gave, the ETag the download answered with,
 * the body's size and its SHA-256), its length and a magic number. The body
 * at offset 0 maps as it lies; the trailer, written last and renamed into
 * place with the body, is read first, so a file cut short, grown, or written
 * by something else is a miss. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smprof-s3-cache-private.h"

#define TRAILER_TYPE G_VARIANT_TYPE ("(ayayayayt)")
#define FOOTER_MAGIC "SMPS3OB2"
#define FOOTER_LENGTH (4 + 8)   /* the trailer's length, little-endian, then the magic */
#define SHA256_LENGTH 32
/* Bodies up to this size are read; larger ones are mapped, so that a large
 * object costs page cache, which the kernel can take back, and not memory. */
#define MAP_THRESHOLD (256 * 1024)

typedef SmprofS3CacheTrailer Trailer;

void
_smprof_s3_cache_trailer_clear (Trailer *trailer)
{
  g_clear_pointer (&trailer->key, g_free);
  g_clear_pointer (&trailer->listed_etag, g_free);
  g_clear_pointer (&trailer->response_etag, g_free);
}

/* A bytestring ("ay" ending in its only NUL), as a string. */
static char *
dup_bytestring (GVariant *value)
{
  gsize length = 0;
  const char *data = g_variant_get_fixed_array (value, &length, 1);

  if (length == 0 || data[length - 1] != '\0' || memchr (data, '\0', length - 1) != NULL)
    return NULL;

  return g_strndup (data, length - 1);
}

static GVariant *
new_bytestring (const char *text)
{
  return g_variant_new_bytestring (text != NULL ? text : "");
}

/**
 * _smprof_s3_cache_parse_trailer:
 * @tail: the last @tail_length bytes of an object file
 * @tail_length: at most the file's size
 * @file_size: the file's size
 * @trailer: (out caller-allocates): what the trailer says, to clear with
 *   _smprof_s3_cache_trailer_clear()
 *
 * Reads the footer and the trailer it closes, and checks that they describe
 * the file: a trailer in normal form, of the right type, a 32-byte SHA-256,
 * and a body of exactly the size it gives before it.
 *
 * Returns: whether @tail ends an object file
 */
gboolean
_smprof_s3_cache_parse_trailer (const guint8 *tail,
                                gsize         tail_length,
                                guint64       file_size,
                                Trailer      *trailer)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(GVariant) key = NULL;
  g_autoptr(GVariant) listed = NULL;
  g_autoptr(GVariant) response = NULL;
  g_autoptr(GVariant) sha256 = NULL;
  const guint8 *footer;
  const guint8 *digest;
  gsize sha256_length = 0;
  guint32 length;

  memset (trailer, 0, sizeof *trailer);

  if (tail_length < FOOTER_LENGTH || tail_length > file_size)
    return FALSE;

  footer = tail + tail_length - FOOTER_LENGTH;
  if (memcmp (footer + 4, FOOTER_MAGIC, 8) != 0)
    return FALSE;

  length = (guint32) footer[0] | (guint32) footer[1] << 8 | (guint32) footer[2] << 16 | (guint32) footer[3] << 24;
  if (length > SMPROF_S3_CACHE_MAX_TRAILER || (gsize) length > tail_length - FOOTER_LENGTH)
    return FALSE;

  /* a copy: GVariant wants its data aligned */
  bytes = g_bytes_new (footer - length, length);
  variant = g_variant_ref_sink (g_variant_new_from_bytes (TRAILER_TYPE, bytes, FALSE));
  if (!g_variant_is_normal_form (variant))
    return FALSE;

  g_variant_get (variant, "(@ay@ay@ay@ayt)", &key, &listed, &response, &sha256, &trailer->size);
  trailer->key = dup_bytestring (key);
  trailer->listed_etag = dup_bytestring (listed);
  trailer->response_etag = dup_bytestring (response);
  digest = g_variant_get_fixed_array (sha256, &sha256_length, 1);
  /* An empty array gives no pointer at all: copy only a digest of the
   * right length (anything else is refused below). */
  if (sha256_length == SHA256_LENGTH)
    memcpy (trailer->sha256, digest, SHA256_LENGTH);
  trailer->body_offset_end = file_size - length - FOOTER_LENGTH;

  if (trailer->key == NULL || trailer->listed_etag == NULL || trailer->response_etag == NULL ||
      sha256_length != SHA256_LENGTH || trailer->size != trailer->body_offset_end)
    {
      _smprof_s3_cache_trailer_clear (trailer);
      return FALSE;
    }

  return TRUE;
}

/* The rule the cache keys objects by: a copy serves a listing that gives its
 * size and either ETag it was stored with, the listing's or the download's
 * (some S3-compatible servers answer a GET with another ETag than they
 * list). No ETag reads as "". */
static gboolean
trailer_matches (const Trailer *trailer,
                 const char    *key,
                 const char    *etag,
                 guint64        size)
{
  const char *wanted = etag != NULL ? etag : "";

  return trailer->size == size && strcmp (trailer->key, key) == 0 &&
         (strcmp (trailer->listed_etag, wanted) == 0 || strcmp (trailer->response_etag, wanted) == 0);
}

static gboolean
pread_all (int      fd,
           guint8  *buffer,
           gsize    length,
           guint64  offset)
{
  gsize done = 0;

  while (done < length)
    {
      ssize_t n = pread (fd, buffer + done, length - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += n;
    }

  return TRUE;
}

/* The trailer of the regular file open at @fd, of @file_size bytes. */
static gboolean
read_trailer (int      fd,
              guint64  file_size,
              Trailer *trailer)
{
  gsize tail_length = (gsize) MIN (file_size, (guint64) SMPROF_S3_CACHE_MAX_TRAILER + FOOTER_LENGTH);
  g_autofree guint8 *tail = g_malloc (MAX (tail_length, 1));

  memset (trailer, 0, sizeof *trailer);

  return pread_all (fd, tail, tail_length, file_size - tail_length) &&
         _smprof_s3_cache_parse_trailer (tail, tail_length, file_size, trailer);
}

/* The first @size bytes of the file open at @fd: read, or mapped when large. */
static GBytes *
read_body (int     fd,
           guint64 size)
{
  if (size > MAP_THRESHOLD)
    {
      g_autoptr(GMappedFile) mapped = g_mapped_file_new_from_fd (fd, FALSE, NULL);
      g_autoptr(GBytes) whole = NULL;

      if (mapped == NULL || g_mapped_file_get_length (mapped) < size)
        return NULL;
      whole = g_mapped_file_get_bytes (mapped);
      return g_bytes_new_from_bytes (whole, 0, size);
    }
  else
    {
      guint8 *data = g_malloc (MAX (size, 1));

      if (!pread_all (fd, data, size, 0))
        {
          g_free (data);
          return NULL;
        }
      return g_bytes_new_take (data, size);
    }
}

static char *
object_path (SmprofS3Cache *self,
             const char    *endpoint,
             const char    *bucket,
             const char    *key)
{
  g_autofree char *relative = smprof_s3_cache_key_to_relative_path (endpoint, bucket, key);

  return g_build_filename (_smprof_s3_cache_get_dir (self), relative, NULL);
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
 * A cheap check (the trailer and the file's size, not the checksum) for
 * deciding what to download.
 *
 * Returns: whether a copy for this ETag and size is kept
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
  Trailer trailer = { 0 };
  guint64 file_size = 0;
  gboolean matches;
  int fd;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), FALSE);

  path = object_path (self, endpoint, bucket, key);
  fd = _smprof_s3_cache_open_regular (path, &file_size);
  if (fd < 0)
    return FALSE;

  matches = read_trailer (fd, file_size, &trailer) && trailer_matches (&trailer, key, etag, size);
  _smprof_s3_cache_trailer_clear (&trailer);
  close (fd);

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
 * Returns the kept copy when its ETag (the listing's or the download's it was
 * stored with), size and checksum all agree; a copy whose body disagrees with
 * its checksum, or whose trailer is damaged, is removed. Anything but a
 * regular file (a FIFO, a link) is a miss, and is not waited on.
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
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GChecksum) checksum = NULL;
  guint8 digest[SHA256_LENGTH];
  gsize digest_length = sizeof digest;
  Trailer trailer = { 0 };
  guint64 file_size = 0;
  gboolean damaged = FALSE;
  int fd;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), NULL);

  path = object_path (self, endpoint, bucket, key);
  fd = _smprof_s3_cache_open_regular (path, &file_size);
  if (fd < 0)
    return NULL;

  if (!read_trailer (fd, file_size, &trailer))
    damaged = TRUE;
  else if (trailer_matches (&trailer, key, etag, size))
    {
      body = read_body (fd, size);
      if (body != NULL)
        {
          checksum = g_checksum_new (G_CHECKSUM_SHA256);
          g_checksum_update (checksum, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
          g_checksum_get_digest (checksum, digest, &digest_length);
          damaged = memcmp (digest, trailer.sha256, SHA256_LENGTH) != 0;
        }
    }
  /* else an older version of the object: not damaged, just stale */

  close (fd);
  _smprof_s3_cache_trailer_clear (&trailer);

  if (damaged)
    {
      g_unlink (path);
      return NULL;
    }

  if (body != NULL)
    _smprof_s3_cache_touch (path);

  return g_steal_pointer (&body);
}

/* Writing ------------------------------------------------------------------------ */

struct _SmprofS3CacheWriter
{
  SmprofS3Cache *cache;
  char          *key;
  char          *path;
  char          *temp_path;   /* NULL once renamed into place */
  int            fd;
  GChecksum     *checksum;
  guint64        size;
};

void
smprof_s3_cache_writer_free (SmprofS3CacheWriter *writer)
{
  if (writer == NULL)
    return;

  if (writer->fd >= 0)
    close (writer->fd);
  if (writer->temp_path != NULL)
    g_unlink (writer->temp_path);
  g_clear_object (&writer->cache);
  g_free (writer->key);
  g_free (writer->path);
  g_free (writer->temp_path);
  g_checksum_free (writer->checksum);
  g_free (writer);
}

typedef enum
{
  CANNOT_CREATE_FOLDER,
  CANNOT_WRITE_IN_FOLDER,
  CANNOT_WRITE_FILE,
} IoFailure;

static void
set_io_error (GError     **error,
              int          saved_errno,
              IoFailure    failure,
              const char  *path)
{
  g_autofree char *display = g_filename_display_name (path);
  GIOErrorEnum code = g_io_error_from_errno (saved_errno);

  switch (failure)
    {
    case CANNOT_CREATE_FOLDER:
      g_set_error (error, G_IO_ERROR, code, _("Cannot create the cache folder “%s”: %s"),
                   display, g_strerror (saved_errno));
      break;
    case CANNOT_WRITE_IN_FOLDER:
      g_set_error (error, G_IO_ERROR, code, _("Cannot write in the cache folder “%s”: %s"),
                   display, g_strerror (saved_errno));
      break;
    case CANNOT_WRITE_FILE:
    default:
      g_set_error (error, G_IO_ERROR, code, _("Cannot write the cache file “%s”: %s"),
                   display, g_strerror (saved_errno));
      break;
    }
}

/**
 * smprof_s3_cache_writer_new:
 * @self: a cache
 * @endpoint: the object's endpoint
 * @bucket: its bucket
 * @key: its key
 * @error: a location for a #GError, or %NULL
 *
 * Starts a copy of an object in a temporary file beside its final place, for
 * its body to be written as it arrives (smprof_s3_cache_writer_write()) and
 * published whole by smprof_s3_cache_writer_commit(); freed before that, it
 * leaves nothing.
 *
 * Returns: (transfer full) (nullable): the writer
 */
SmprofS3CacheWriter *
smprof_s3_cache_writer_new (SmprofS3Cache  *self,
                            const char     *endpoint,
                            const char     *bucket,
                            const char     *key,
                            GError        **error)
{
  SmprofS3CacheWriter *writer;
  g_autofree char *folder = NULL;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), NULL);
  g_return_val_if_fail (endpoint != NULL && bucket != NULL && key != NULL, NULL);

  writer = g_new0 (SmprofS3CacheWriter, 1);
  writer->cache = g_object_ref (self);
  writer->key = g_strdup (key);
  writer->path = object_path (self, endpoint, bucket, key);
  writer->checksum = g_checksum_new (G_CHECKSUM_SHA256);
  writer->fd = -1;

  folder = g_path_get_dirname (writer->path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      set_io_error (error, errno, CANNOT_CREATE_FOLDER, folder);
      smprof_s3_cache_writer_free (writer);
      return NULL;
    }

  writer->temp_path = g_strconcat (writer->path, ".XXXXXX", NULL);
  writer->fd = g_mkstemp_full (writer->temp_path, O_RDWR | O_CLOEXEC, 0600);
  if (writer->fd < 0)
    {
      set_io_error (error, errno, CANNOT_WRITE_IN_FOLDER, folder);
      g_clear_pointer (&writer->temp_path, g_free);
      smprof_s3_cache_writer_free (writer);
      return NULL;
    }

  return writer;
}

/**
 * smprof_s3_cache_writer_reset:
 * @writer: a writer
 * @error: a location for a #GError, or %NULL
 *
 * Forgets what was written: a download starts over.
 *
 * Returns: %TRUE on success
 */
gboolean
smprof_s3_cache_writer_reset (SmprofS3CacheWriter  *writer,
                              GError              **error)
{
  g_return_val_if_fail (writer != NULL && writer->temp_path != NULL, FALSE);

  g_checksum_reset (writer->checksum);
  writer->size = 0;
  if (ftruncate (writer->fd, 0) != 0)
    {
      set_io_error (error, errno, CANNOT_WRITE_FILE, writer->temp_path);
      return FALSE;
    }

  return TRUE;
}

static gboolean
write_at (SmprofS3CacheWriter  *writer,
          const guint8         *data,
          gsize                 length,
          guint64               offset,
          GError              **error)
{
  gsize done = 0;

  while (done < length)
    {
      ssize_t n = pwrite (writer->fd, data + done, length - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_io_error (error, errno, CANNOT_WRITE_FILE, writer->temp_path);
          return FALSE;
        }
      done += n;
    }

  return TRUE;
}

/**
 * smprof_s3_cache_writer_write:
 * @writer: a writer
 * @data: (array length=length): the next bytes of the body
 * @length: how many
 * @error: a location for a #GError, or %NULL
 *
 * Returns: %TRUE on success
 */
gboolean
smprof_s3_cache_writer_write (SmprofS3CacheWriter  *writer,
                              const guint8         *data,
                              gsize                 length,
                              GError              **error)
{
  g_return_val_if_fail (writer != NULL && writer->temp_path != NULL, FALSE);

  if (length == 0)
    return TRUE;
  if (!write_at (writer, data, length, writer->size, error))
    return FALSE;

  g_checksum_update (writer->checksum, data, length);
  writer->size += length;

  return TRUE;
}

/**
 * smprof_s3_cache_writer_get_size:
 * @writer: a writer
 *
 * Returns: the bytes of the body written so far
 */
guint64
smprof_s3_cache_writer_get_size (SmprofS3CacheWriter *writer)
{
  g_return_val_if_fail (writer != NULL, 0);

  return writer->size;
}

/**
 * smprof_s3_cache_writer_commit:
 * @writer: a writer
 * @listed_etag: (nullable): the object's ETag as listed
 * @response_etag: (nullable): its ETag as the download answered
 * @body: (out) (optional) (transfer full): the body as kept, read or mapped
 *   from the file
 * @error: a location for a #GError, or %NULL
 *
 * Ends the body with its trailer and renames the file into place, so a
 * reader sees the old copy, the new one or none, never a part.
 *
 * Returns: whether the copy was kept
 */
gboolean
smprof_s3_cache_writer_commit (SmprofS3CacheWriter  *writer,
                               const char           *listed_etag,
                               const char           *response_etag,
                               GBytes              **body,
                               GError              **error)
{
  g_autoptr(GVariant) trailer = NULL;
  g_autoptr(GBytes) serialized = NULL;
  guint8 digest[SHA256_LENGTH];
  gsize digest_length = sizeof digest;
  guint8 footer[FOOTER_LENGTH];
  gsize length;

  g_return_val_if_fail (writer != NULL && writer->temp_path != NULL, FALSE);

  g_checksum_get_digest (writer->checksum, digest, &digest_length);
  trailer = g_variant_ref_sink (g_variant_new ("(@ay@ay@ay@ayt)",
                                               new_bytestring (writer->key),
                                               new_bytestring (listed_etag),
                                               new_bytestring (response_etag),
                                               g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, digest,
                                                                          SHA256_LENGTH, 1),
                                               writer->size));
  serialized = g_variant_get_data_as_bytes (trailer);
  length = g_bytes_get_size (serialized);
  if (length > SMPROF_S3_CACHE_MAX_TRAILER)
    {
      /* a trailer this long would not be read back: keep nothing */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("key or ETag too long to cache"));
      return FALSE;
    }

  footer[0] = length & 0xff;
  footer[1] = (length >> 8) & 0xff;
  footer[2] = (length >> 16) & 0xff;
  footer[3] = (length >> 24) & 0xff;
  memcpy (footer + 4, FOOTER_MAGIC, 8);

  if (!write_at (writer, g_bytes_get_data (serialized, NULL), length, writer->size, error) ||
      !write_at (writer, footer, FOOTER_LENGTH, writer->size + length, error))
    return FALSE;

  if (g_rename (writer->temp_path, writer->path) != 0)
    {
      set_io_error (error, errno, CANNOT_WRITE_FILE, writer->path);
      return FALSE;
    }
  g_clear_pointer (&writer->temp_path, g_free);
  _smprof_s3_cache_add_to_total (writer->cache, writer->size + length + FOOTER_LENGTH);

  if (body != NULL)
    *body = read_body (writer->fd, writer->size);

  return TRUE;
}

/**
 * smprof_s3_cache_store_full:
 * @self: a cache
 * @endpoint: the object's endpoint
 * @bucket: its bucket
 * @key: its key
 * @listed_etag: (nullable): its ETag, as listed
 * @response_etag: (nullable): its ETag, as the download answered
 * @data: its bytes
 * @error: a location for a #GError, or %NULL
 *
 * Keeps a copy of bytes in memory, as a writer would.
 *
 * Returns: whether the copy was kept
 */
gboolean
smprof_s3_cache_store_full (SmprofS3Cache  *self,
                            const char     *endpoint,
                            const char     *bucket,
                            const char     *key,
                            const char     *listed_etag,
                            const char     *response_etag,
                            GBytes         *data,
                            GError        **error)
{
  g_autoptr(SmprofS3CacheWriter) writer = NULL;
  gsize length = 0;
  const guint8 *bytes;

  g_return_val_if_fail (SMPROF_IS_S3_CACHE (self), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  bytes = g_bytes_get_data (data, &length);
  writer = smprof_s3_cache_writer_new (self, endpoint, bucket, key, error);

  return writer != NULL &&
         smprof_s3_cache_writer_write (writer, bytes, length, error) &&
         smprof_s3_cache_writer_commit (writer, listed_etag, response_etag, NULL, error);
}

/**
 * smprof_s3_cache_store:
 * @self: a cache
 * @endpoint: the object's endpoint
 * @bucket: its bucket
 * @key: its key
 * @etag: (nullable): its ETag, the listing's and the download's
 * @data: its bytes
 * @error: a location for a #GError, or %NULL
 *
 * smprof_s3_cache_store_full() for an object listed and answered with one
 * ETag.
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
  return smprof_s3_cache_store_full (self, endpoint, bucket, key, etag, etag, data, error);
}
