#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""smprof in French, from the catalogues built in the tree (TAP).

SMPROF names the built smprof, SMPROF_LOCALEDIR the build's po/locale,
SMPROF_TEST_DATA the source tree's data/ (for the sample job). The French
texts are looked up in the same catalogue with Python's gettext, so the test
checks that the command line finds and uses it, not the wording.
"""

import gettext
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'cli'))
import helptext  # noqa: E402

SMPROF = os.environ['SMPROF']
LOCALEDIR = os.environ['SMPROF_LOCALEDIR']
SAMPLE_JOB = os.path.join(os.environ['SMPROF_TEST_DATA'], 'sample-job')

n = 0
failed = 0


def check(ok, name, *details):
    global n, failed
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    for d in details:
        for line in str(d).splitlines():
            print(f'# {line}')
    failed += not ok


def run(args, language):
    env = {k: v for k, v in os.environ.items() if not k.startswith(('LC_', 'LANG'))}
    env.update(LC_ALL='C.UTF-8', LANGUAGE=language)
    return subprocess.run([SMPROF] + args, capture_output=True, text=True, env=env)


fr = gettext.translation('smprof', LOCALEDIR, languages=['fr'])

# The help is printed piece by piece from cli/smprof-cli-help.c's table: each
# piece of the French help must be the catalogue's translation of the English.
english = run(['--help'], '')
french = run(['--help'], 'fr')
check(english.returncode == 0 and english.stdout.startswith('Usage:'), 'smprof --help in English',
      english.stdout[:200])
problems = helptext.translation_problems(english.stdout, french.stdout, fr.gettext)
check(french.returncode == 0 and french.stdout != english.stdout and not problems,
      'smprof --help in French, as the catalogue says', *problems, french.stdout[:400])

for command in ('nodes', 'list', 'stats', 'export', 'steps', 'outliers', 'diff', 'report'):
    english = run([command, '--help'], '')
    french = run([command, '--help'], 'fr')
    problems = helptext.translation_problems(english.stdout, french.stdout, fr.gettext, command=True)
    check(french.returncode == 0 and french.stdout != english.stdout and not problems,
          f'smprof {command} --help in French, as the catalogue says', *problems)

# A usage error: the CLI's message and the command's synopsis, in French.
english = run(['stats', SAMPLE_JOB], '')
french = run(['stats', SAMPLE_JOB], 'fr')
check(english.returncode == 2 and french.returncode == 2, 'a usage error exits 2 in both languages',
      english.stderr, french.stderr)
synopsis = helptext.parse_command(run(['stats', '--help'], '').stdout)['synopsis']
check(french.stderr != english.stderr and
      helptext.fold(fr.gettext(synopsis)) in helptext.fold(french.stderr) and
      fr.gettext('smprof %s --help describes its options.\n') % 'stats' in french.stderr,
      'the usage error is in French', french.stderr[:400])

# A message of the core library (domain smprof too): a folder that is no job.
english = run(['nodes', os.path.dirname(SAMPLE_JOB)], '')
french = run(['nodes', os.path.dirname(SAMPLE_JOB)], 'fr')
check(english.returncode == 3 and french.returncode == 3 and french.stderr != english.stderr,
      "the core's error is in French", english.stderr, french.stderr)

# Numbers and names stay as they are: the sample job's nodes, in French.
french = run(['nodes', SAMPLE_JOB], 'fr')
check(french.returncode == 0 and '0-algo-1' in french.stdout and '1-algo-2' in french.stdout,
      'smprof nodes answers the same in French', french.stdout)

print(f'1..{n}')
sys.exit(1 if failed else 0)
