/* smprof-cli-transforms.h: --merge, --focus, ... --invert on the command line
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-profile.h"

G_BEGIN_DECLS

/* The transforms of one command line, in the order given; functions are
 * named there and found in the profile when it is made. */
typedef struct
{
  GPtrArray *steps;   /* char *: an option, then its value or NULL */
  gboolean   invert;  /* --invert */
  gboolean   tree;    /* --tree */
} SmprofCliTransforms;

gboolean       smprof_cli_transforms_is_option (const char                *option,
                                                gboolean                  *takes_value);
gboolean       smprof_cli_transforms_add       (SmprofCliTransforms       *self,
                                                const char                *option,
                                                const char                *value,
                                                GError                   **error);
gboolean       smprof_cli_transforms_reshape   (const SmprofCliTransforms *self);
void           smprof_cli_transforms_clear     (SmprofCliTransforms       *self);
SmprofProfile *smprof_cli_transforms_apply     (const SmprofCliTransforms *self,
                                                SmprofProfile             *profile,
                                                GError                   **error);

G_END_DECLS
