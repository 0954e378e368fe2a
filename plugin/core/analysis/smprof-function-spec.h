/* smprof-function-spec.h: a function named on a command line, found in a profile
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "smprof-profile.h"

G_BEGIN_DECLS

/**
 * SmprofFunctionSpecError:
 * @SMPROF_FUNCTION_SPEC_ERROR_NOT_FOUND: no function of the profile answers to it
 * @SMPROF_FUNCTION_SPEC_ERROR_AMBIGUOUS: several do; the message lists them
 */
typedef enum
{
  SMPROF_FUNCTION_SPEC_ERROR_NOT_FOUND,
  SMPROF_FUNCTION_SPEC_ERROR_AMBIGUOUS,
} SmprofFunctionSpecError;

#define SMPROF_FUNCTION_SPEC_ERROR (smprof_function_spec_error_quark ())
GQuark   smprof_function_spec_error_quark (void);

guint32  smprof_function_spec_resolve     (SmprofProfile  *profile,
                                           const char     *spec,
                                           GError        **error);
GArray  *smprof_function_spec_resolve_path (SmprofProfile  *profile,
                                            const char     *spec,
                                            GError        **error);

G_END_DECLS
