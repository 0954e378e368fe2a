/* render-node-count.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "render-node-count.h"

/* Render nodes under @node, itself included; 0 for no frame. Only the node
 * types our widgets' snapshots nest through are followed: containers,
 * transforms and clips. */
guint
render_node_count (GskRenderNode *node)
{
  guint n = 1;

  if (node == NULL)
    return 0;
  switch ((int) gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += render_node_count (gsk_container_node_get_child (node, i));
      break;
    case GSK_TRANSFORM_NODE:
      n += render_node_count (gsk_transform_node_get_child (node));
      break;
    case GSK_CLIP_NODE:
      n += render_node_count (gsk_clip_node_get_child (node));
      break;
    default:
      break;
    }

  return n;
}
