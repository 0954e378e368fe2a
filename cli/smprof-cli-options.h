/* smprof-cli-options.h: the command line, parsed
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdio.h>

#include "smprof-cli-transforms.h"
#include "smprof-cprofile-profile.h"
#include "smprof-diff.h"
#include "smprof-export.h"
#include "smprof-query.h"
#include "smprof-step-stats.h"

G_BEGIN_DECLS

typedef enum
{
  SMPROF_CLI_NODES,
  SMPROF_CLI_LIST,
  SMPROF_CLI_STATS,
  SMPROF_CLI_EXPORT,
  SMPROF_CLI_STEPS,
  SMPROF_CLI_OUTLIERS,
  SMPROF_CLI_REPORT,
} SmprofCliCommand;

typedef enum
{
  SMPROF_CLI_SELECT_NONE,
  SMPROF_CLI_SELECT_ONE,            /* one SmprofSelection */
  SMPROF_CLI_SELECT_TRAINING_PHASE, /* every non-empty mode pair */
  SMPROF_CLI_SELECT_JOB_PHASE,      /* initialization, training loop, finalization */
} SmprofCliSelectKind;

typedef struct
{
  SmprofCliCommand     command;
  char                *source;
  gboolean             has_profiler;
  SmprofProfiler       profiler;
  gboolean             json;
  SmprofNodeChoice     nodes;
  gboolean             has_nodes;   /* --node was given */
  char               **node_list;
  SmprofCliSelectKind  select_kind;
  SmprofSelection      selection;
  gboolean             has_sort;
  SmprofSortKey        sort;
  int                  limit;       /* -1: none */
  /* an s3:// SOURCE */
  gboolean             refresh;          /* --refresh: list again, not from the cache */
  gboolean             no_sign_request;  /* --no-sign-request: anonymous */
  guint                concurrency;      /* --concurrency N, 0: the default */
  gboolean             no_cache;         /* --no-cache: parse every stats file, keep nothing */
  /* steps, outliers */
  gboolean             functions;   /* --functions */
  SmprofStepRule       step_rule;   /* and report: --threshold, --count-teardown */
  /* export */
  gboolean             has_format;
  SmprofExportFormat   format;
  char                *output;      /* "-" for stdout */
  char                *title;
  SmprofExportOptions  export;      /* its title points to the one above */
  /* report (its -o is output above) */
  char                *compare[2];  /* --compare-a, --compare-b: one argument each, as diff's */
  SmprofDiffNormalize  normalize;   /* --normalize */
  gboolean             html;        /* --html */
  /* stats, export, report: --merge, --focus, ..., --invert, --tree */
  SmprofCliTransforms  transforms;
} SmprofCliOptions;

/* Reading the command line, one argument at a time (shared with diff). */
typedef struct
{
  int          argc;
  char       **argv;
  int          index;        /* the argument being read */
  const char  *inline_value; /* from --name=value */
} SmprofCliCursor;

gboolean smprof_cli_take_value    (SmprofCliCursor   *cursor,
                                   const char        *option,
                                   const char       **value,
                                   GError           **error);
gboolean smprof_cli_parse_double  (const char        *option,
                                   const char        *text,
                                   double             minimum,
                                   double             maximum,
                                   gboolean           pixels,
                                   double            *value,
                                   GError           **error);

gboolean smprof_cli_options_parse (SmprofCliOptions  *options,
                                   int                argc,
                                   char             **argv,
                                   gboolean          *show_help,
                                   GError           **error);
void     smprof_cli_options_clear (SmprofCliOptions  *options);

G_END_DECLS
