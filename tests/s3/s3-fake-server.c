/* s3-fake-server.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "s3-fake-server.h"

struct _FakeServer
{
  GThread           *thread;
  GMainContext      *context;
  GMainLoop         *loop;
  SoupServer        *server;
  FakeServerHandler  handler;
  gpointer           user_data;
  GMutex             lock;
  GCond              cond;
  guint              port;
  gboolean           ready;
};

static void
server_callback (SoupServer        *server,
                 SoupServerMessage *message,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  FakeServer *self = user_data;

  self->handler (message, path, self->user_data);
}

static gpointer
server_thread (gpointer data)
{
  FakeServer *self = data;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (self->context);

  self->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->server, NULL, server_callback, self, NULL);
  if (!soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    g_error ("cannot listen on loopback: %s", error->message);

  uris = soup_server_get_uris (self->server);
  g_mutex_lock (&self->lock);
  self->port = g_uri_get_port (uris->data);
  self->ready = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  g_main_loop_run (self->loop);

  soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  /* let the disconnections finish */
  while (g_main_context_iteration (self->context, FALSE))
    ;
  g_main_context_pop_thread_default (self->context);

  return NULL;
}

/**
 * fake_server_new:
 * @handler: answers every request, in the server's thread
 * @user_data: data for @handler
 *
 * Returns: a server listening on 127.0.0.1, on a free port
 */
FakeServer *
fake_server_new (FakeServerHandler handler,
                 gpointer          user_data)
{
  FakeServer *self = g_new0 (FakeServer, 1);

  self->handler = handler;
  self->user_data = user_data;
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);

  self->thread = g_thread_new ("fake-server", server_thread, self);

  g_mutex_lock (&self->lock);
  while (!self->ready)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);

  return self;
}

char *
fake_server_dup_url (FakeServer *self)
{
  return g_strdup_printf ("http://127.0.0.1:%u", self->port);
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

void
fake_server_free (FakeServer *self)
{
  if (self == NULL)
    return;

  g_main_context_invoke (self->context, quit_cb, self->loop);
  g_thread_join (self->thread);
  g_main_loop_unref (self->loop);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

void
fake_server_respond (SoupServerMessage *message,
                     guint              status,
                     const char        *body)
{
  soup_server_message_set_status (message, status, NULL);
  if (body != NULL)
    soup_server_message_set_response (message, "application/xml", SOUP_MEMORY_COPY, body, strlen (body));
}
