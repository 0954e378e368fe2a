/* smprof-local-source.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* SmprofLocalSource itself: finding the job root, the SmprofSource glue and
 * reading a stats file. Listing the folders is in
 * smprof-local-source-listing.c and smprof-local-source-node.c. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smprof-local-source-private.h"

static void source_iface_init (SmprofSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SmprofLocalSource, smprof_local_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SMPROF_TYPE_SOURCE, source_iface_init))

static void
smprof_local_source_finalize (GObject *object)
{
  SmprofLocalSource *self = SMPROF_LOCAL_SOURCE (object);

  g_clear_pointer (&self->root, g_free);
  g_clear_pointer (&self->scope, g_free);

  G_OBJECT_CLASS (smprof_local_source_parent_class)->finalize (object);
}

static void
smprof_local_source_class_init (SmprofLocalSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = smprof_local_source_finalize;
}

static void
smprof_local_source_init (SmprofLocalSource *self)
{
}

gboolean
_smprof_local_source_is_directory (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

/* A file's version (SmprofListingEntry.version): its modification and change
 * times to the nanosecond and its inode, mixed. A file written again, in
 * place or replaced by a rename, has another; one left alone keeps it. */
guint64
_smprof_local_source_version (const struct stat *st)
{
  guint64 mtime = (guint64) st->st_mtim.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) st->st_mtim.tv_nsec;
  guint64 ctime = (guint64) st->st_ctim.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) st->st_ctim.tv_nsec;
  guint64 version = 0;
  guint64 parts[3] = { mtime, ctime, (guint64) st->st_ino };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      version = (version ^ parts[i]) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
      version ^= version >> 29;
    }

  /* 0 says "unknown" */
  return version != 0 ? version : 1;
}

/**
 * smprof_local_source_new:
 * @path: a job root (the folder holding framework/) or a folder below it, down
 *   to framework/<framework>/<profiler>
 * @error: a location for a #GError, or %NULL
 *
 * Returns: (transfer full) (nullable): the source, or %NULL if @path is not a job
 */
SmprofSource *
smprof_local_source_new (const char  *path,
                         GError     **error)
{
  g_autoptr(SmprofLocalSource) self = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *display = NULL;
  g_autofree char *framework = NULL;
  char *up[4] = { NULL };
  GStatBuf st;
  int depth = -1;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open “%s”: %s"), display, g_strerror (saved_errno));
      return NULL;
    }

  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("“%s” is not a folder"), display);
      return NULL;
    }

  canonical = g_canonicalize_filename (path, NULL);
  framework = g_build_filename (canonical, "framework", NULL);

  /* up[i] is the folder i levels above the one given */
  up[0] = g_strdup (canonical);
  for (int i = 1; i < 4; i++)
    up[i] = g_path_get_dirname (up[i - 1]);

  if (_smprof_local_source_is_directory (framework))
    depth = 0;
  else
    for (int i = 0; i < 3; i++)
      {
        g_autofree char *base = g_path_get_basename (up[i]);

        if (strcmp (base, "framework") == 0 && strcmp (up[i], up[i + 1]) != 0)
          {
            depth = i + 1;
            break;
          }
      }

  if (depth < 0)
    {
      for (int i = 0; i < 4; i++)
        g_free (up[i]);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("“%s” is not a SageMaker Debugger profiler output: it has no framework/ folder"),
                   display);
      return NULL;
    }

  self = g_object_new (SMPROF_TYPE_LOCAL_SOURCE, NULL);
  self->scope_depth = depth;
  if (depth == 0)
    {
      self->root = g_strdup (canonical);
      self->scope = g_strdup ("framework");
    }
  else
    {
      self->root = g_strdup (up[depth]);
      self->scope = g_strdup (canonical + strlen (up[depth]) + (strcmp (up[depth], "/") == 0 ? 0 : 1));
    }

  for (int i = 0; i < 4; i++)
    g_free (up[i]);

  return SMPROF_SOURCE (g_steal_pointer (&self));
}

const char *
smprof_local_source_get_root (SmprofLocalSource *self)
{
  g_return_val_if_fail (SMPROF_IS_LOCAL_SOURCE (self), NULL);

  return self->root;
}

static char *
smprof_local_source_dup_location (SmprofSource *source)
{
  return g_strdup (SMPROF_LOCAL_SOURCE (source)->root);
}

static char *
smprof_local_source_dup_file_location (SmprofSource *source,
                                       const char   *path)
{
  return g_build_filename (SMPROF_LOCAL_SOURCE (source)->root, path, NULL);
}

/* Loading a job reads tens of thousands of small files on a few threads, each
 * parsed and let go at once. A fresh buffer per file would come from memory
 * the parsed arrays have just taken, so every read would fault its pages in;
 * one buffer per thread, handed back when the bytes are freed, is read into
 * warm. */
typedef struct
{
  char  *data;
  gsize  size;
} ReadBuffer;

/* Larger buffers are not kept after their file. */
#define MAX_KEPT_BUFFER (4u << 20)

static void
read_buffer_free (gpointer data)
{
  ReadBuffer *buffer = data;

  if (buffer == NULL)
    return;

  g_free (buffer->data);
  g_free (buffer);
}

static GPrivate read_buffer_key = G_PRIVATE_INIT (read_buffer_free);

/* The free function of the bytes: the buffer goes back to the thread that
 * frees them, if that thread holds none, and is freed otherwise. */
static void
read_buffer_give_back (gpointer data)
{
  ReadBuffer *buffer = data;

  if (buffer->size <= MAX_KEPT_BUFFER && g_private_get (&read_buffer_key) == NULL)
    g_private_set (&read_buffer_key, buffer);
  else
    read_buffer_free (buffer);
}

/* The contents of the regular file @path, read with one open() and one
 * fstat(); %NULL, with nothing reported, for anything else (a missing file,
 * a FIFO, a read error...), which the caller then reads the long way so that
 * the error is the one it always gave. */
static GBytes *
load_regular_file (const char *path)
{
  ReadBuffer *buffer;
  struct stat st;
  gsize length = 0;
  int fd;

  /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return NULL;

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size < 0 || st.st_size >= G_MAXINT32)
    {
      close (fd);
      return NULL;
    }

  buffer = g_private_get (&read_buffer_key);
  if (buffer != NULL)
    g_private_set (&read_buffer_key, NULL);
  else
    buffer = g_new0 (ReadBuffer, 1);

  /* As g_file_get_contents(): at most the size fstat() gave, NUL-terminated. */
  if (buffer->size < (gsize) st.st_size + 1)
    {
      g_free (buffer->data);
      buffer->size = MAX ((gsize) st.st_size + 1, 64 * 1024);
      buffer->data = g_malloc (buffer->size);
    }

  while (length < (gsize) st.st_size)
    {
      ssize_t n = read (fd, buffer->data + length, (gsize) st.st_size - length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          close (fd);
          read_buffer_give_back (buffer);
          return NULL;
        }
      if (n == 0)
        break;
      length += n;
    }

  close (fd);
  buffer->data[length] = '\0';

  return g_bytes_new_with_free_func (buffer->data, length, read_buffer_give_back, buffer);
}

static GBytes *
smprof_local_source_load (SmprofSource  *source,
                          const char    *relative,
                          GCancellable  *cancellable,
                          GError       **error)
{
  SmprofLocalSource *self = SMPROF_LOCAL_SOURCE (source);
  g_autofree char *path = g_build_filename (self->root, relative, NULL);
  char *contents = NULL;
  gsize length = 0;
  GStatBuf st;
  GBytes *bytes;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  bytes = load_regular_file (path);
  if (bytes != NULL)
    return bytes;

  /* A FIFO named python_stats would block the read forever, a link to
   * /dev/zero would fill the memory, and so would a huge sparse file (the
   * parsers refuse 2 GiB and more anyway). */
  if (g_stat (path, &st) == 0)
    {
      if (!S_ISREG (st.st_mode))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                               _("not a regular file"));
          return NULL;
        }
      if (st.st_size >= G_MAXINT32)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       _("%llu bytes, too large to be a profile"),
                       (unsigned long long) st.st_size);
          return NULL;
        }
    }

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;

  return g_bytes_new_take (contents, length);
}

static void
source_iface_init (SmprofSourceInterface *iface)
{
  iface->dup_location = smprof_local_source_dup_location;
  iface->dup_file_location = smprof_local_source_dup_file_location;
  iface->list = _smprof_local_source_list;
  iface->load = smprof_local_source_load;
}
