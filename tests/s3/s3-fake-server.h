/* s3-fake-server.h: a SoupServer on 127.0.0.1 in its own thread, for tests
 * that make blocking requests from the test's thread
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct _FakeServer FakeServer;

/* Runs in the server's thread. */
typedef void (*FakeServerHandler) (SoupServerMessage *message,
                                   const char        *path,
                                   gpointer           user_data);

FakeServer *fake_server_new      (FakeServerHandler  handler,
                                  gpointer           user_data);
char       *fake_server_dup_url  (FakeServer        *self);
void        fake_server_free     (FakeServer        *self);

void        fake_server_respond  (SoupServerMessage *message,
                                  guint              status,
                                  const char        *body);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FakeServer, fake_server_free)

G_END_DECLS
