/* render-node-count.h: how many render nodes a frame holds, for the tests
 * and benchmarks that check a widget's drawing stays cheap
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

guint render_node_count (GskRenderNode *node);

G_END_DECLS
