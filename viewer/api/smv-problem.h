/* smv-problem.h: something a data source skipped while opening a document
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#if !defined (SMV_INSIDE) && !defined (SMV_COMPILATION)
# error "Only <smprof-viewer-api.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define SMV_TYPE_PROBLEM (smv_problem_get_type ())

G_DECLARE_FINAL_TYPE (SmvProblem, smv_problem, SMV, PROBLEM, GObject)

SmvProblem *smv_problem_new         (const char *path,
                                     const char *message);
const char *smv_problem_get_path    (SmvProblem *self);
const char *smv_problem_get_message (SmvProblem *self);

G_END_DECLS
