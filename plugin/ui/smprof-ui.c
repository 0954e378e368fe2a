/* smprof-ui.c
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gio/gio.h>

#include "smprof-ui.h"
#include "smprof-ui-resources.h"

/**
 * smprof_ui_ensure_resources:
 *
 * Makes sure the UI library's GResource (the templates under
 * `/io/github/smprof/Viewer/plugins/sagemaker/`) is registered. The resource
 * registers itself from a constructor; referencing it from each class_init()
 * is what keeps its object file in a static link.
 */
void
smprof_ui_ensure_resources (void)
{
  if (smprof_ui_get_resource () == NULL)
    g_critical ("The smprof UI resources are missing");
}
