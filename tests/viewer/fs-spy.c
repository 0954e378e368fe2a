/* fs-spy.c: counts the file system calls the main thread makes on a path
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A test linked with this file (and exporting its symbols: export_dynamic)
 * defines the C library's calls that look a path up (stat64, lstat64,
 * fstatat64, statx, access, open64, openat64, opendir, fopen64, the ones
 * GLib, GIO and the plugin use). Calls from GLib, GIO and a plugin module
 * reach these first, as they would an LD_PRELOAD library's; each passes the
 * call on to the C library, and counts it when it comes from the thread that
 * started watching (the main thread) and its path starts with the watched
 * prefix. A file system call on the main thread is what freezes the
 * viewer when the path is on a network mount that does not answer; this
 * counts them instead of waiting for one.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs-spy.h"

static GMutex spy_lock;
static char *spy_prefix;
static pthread_t spy_thread;
static guint spy_main_calls;
static char *spy_last_call;

static void
note (const char *call,
      const char *path)
{
  if (path == NULL)
    return;

  g_mutex_lock (&spy_lock);
  if (spy_prefix != NULL && pthread_equal (pthread_self (), spy_thread) && g_str_has_prefix (path, spy_prefix))
    {
      spy_main_calls++;
      g_free (spy_last_call);
      spy_last_call = g_strdup_printf ("%s (%s)", call, path);
    }
  g_mutex_unlock (&spy_lock);
}

/* The C library's own function, found once. */
#define REAL(name) \
  static __typeof__ (&name) real_##name; \
  if (real_##name == NULL) \
    real_##name = (__typeof__ (&name)) dlsym (RTLD_NEXT, #name)

int
stat64 (const char     *path,
        struct stat64 *buf)
{
  REAL (stat64);
  note ("stat64", path);
  return real_stat64 (path, buf);
}

int
lstat64 (const char     *path,
         struct stat64 *buf)
{
  REAL (lstat64);
  note ("lstat64", path);
  return real_lstat64 (path, buf);
}

int
fstatat64 (int             dirfd,
           const char     *path,
           struct stat64 *buf,
           int             flags)
{
  REAL (fstatat64);
  note ("fstatat64", path);
  return real_fstatat64 (dirfd, path, buf, flags);
}

int
statx (int           dirfd,
       const char   *path,
       int           flags,
       unsigned int  mask,
       struct statx *buf)
{
  REAL (statx);
  note ("statx", path);
  return real_statx (dirfd, path, flags, mask, buf);
}

int
access (const char *path,
        int         mode)
{
  REAL (access);
  note ("access", path);
  return real_access (path, mode);
}

int
open64 (const char *path,
        int         flags,
        ...)
{
  mode_t mode = 0;

  REAL (open64);
  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list args;

      va_start (args, flags);
      mode = va_arg (args, mode_t);
      va_end (args);
    }
  note ("open64", path);
  return real_open64 (path, flags, mode);
}

int
openat64 (int         dirfd,
          const char *path,
          int         flags,
          ...)
{
  mode_t mode = 0;

  REAL (openat64);
  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list args;

      va_start (args, flags);
      mode = va_arg (args, mode_t);
      va_end (args);
    }
  note ("openat64", path);
  return real_openat64 (dirfd, path, flags, mode);
}

DIR *
opendir (const char *path)
{
  REAL (opendir);
  note ("opendir", path);
  return real_opendir (path);
}

FILE *
fopen64 (const char *path,
         const char *mode)
{
  REAL (fopen64);
  note ("fopen64", path);
  return real_fopen64 (path, mode);
}

/**
 * fs_spy_watch:
 * @prefix: paths to watch: those starting with it
 *
 * Starts counting, from zero, the calls on such paths made by the calling
 * thread.
 */
void
fs_spy_watch (const char *prefix)
{
  g_mutex_lock (&spy_lock);
  g_free (spy_prefix);
  spy_prefix = g_strdup (prefix);
  spy_thread = pthread_self ();
  spy_main_calls = 0;
  g_clear_pointer (&spy_last_call, g_free);
  g_mutex_unlock (&spy_lock);
}

guint
fs_spy_get_main_calls (void)
{
  guint n;

  g_mutex_lock (&spy_lock);
  n = spy_main_calls;
  g_mutex_unlock (&spy_lock);

  return n;
}

/* Returns: (transfer full) (nullable): the last call counted, "stat64 (PATH)" */
char *
fs_spy_dup_last_call (void)
{
  char *call;

  g_mutex_lock (&spy_lock);
  call = g_strdup (spy_last_call);
  g_mutex_unlock (&spy_lock);

  return call;
}

void
fs_spy_stop (void)
{
  g_mutex_lock (&spy_lock);
  g_clear_pointer (&spy_prefix, g_free);
  g_clear_pointer (&spy_last_call, g_free);
  g_mutex_unlock (&spy_lock);
}
