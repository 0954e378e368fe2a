/* main.c: smprof-viewer
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "smv-viewer-config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "smv-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SmvApplication) application = NULL;

  setlocale (LC_ALL, "");
  smv_application_bind_textdomain ();

  g_set_application_name (_("smprof"));

  application = smv_application_new (0);

  return g_application_run (G_APPLICATION (application), argc, argv);
}
