/* smprof-cli-module-abi.c: in each of the command line's modules
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gmodule.h>

#include "smprof-cli-modules.h"

/* Which build the module belongs to: smprof-cli-modules.c refuses another's. */
G_MODULE_EXPORT const char smprof_cli_module_abi[] = SMPROF_CLI_MODULE_ABI;
