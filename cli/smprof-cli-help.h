/* smprof-cli-help.h: the one source of the command line's help text
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `smprof --help`, `smprof COMMAND --help` and the OPTIONS, SYNOPSIS and
 * COMMANDS of the man page (cli/smprof-man.c fills data/smprof.1.in) are all
 * printed from the tables of smprof-cli-help.c, so they cannot drift apart.
 * The texts are msgids of the `smprof` domain: --help prints them translated,
 * the man page in English.
 */

#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct
{
  const char *name;   /* "--sort", "-o, --output" */
  const char *value;  /* its value, such as "tottime|cumtime", or NULL */
  const char *text;
} SmprofCliHelpOption;

typedef struct
{
  const char                *title;
  guint                      commands;  /* a bit per command, in smprof_cli_help_get_commands()'s order */
  const SmprofCliHelpOption *options;   /* ends with an entry whose name is NULL */
} SmprofCliHelpGroup;

typedef struct
{
  const char *name;         /* "stats" */
  const char *synopsis;     /* what follows "smprof stats" */
  const char *summary;      /* one sentence */
  const char *description;  /* more, or NULL */
} SmprofCliHelpCommand;

const SmprofCliHelpCommand *smprof_cli_help_get_commands (guint       *n_commands);
const SmprofCliHelpGroup   *smprof_cli_help_get_groups   (guint       *n_groups);
const char                 *smprof_cli_help_get_source   (void);

gboolean                    smprof_cli_help_print        (FILE        *stream,
                                                          const char  *command);
void                        smprof_cli_help_print_usage  (FILE        *stream,
                                                          const char  *command);

G_END_DECLS
