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

english = run(['--help'], '')
french = run(['--help'], 'fr')
usage = english.stdout
check(english.returncode == 0 and usage.startswith('Usage:'), 'smprof --help in English', usage[:200])
check(french.returncode == 0 and french.stdout == fr.gettext(english.stdout) and french.stdout != english.stdout,
      'smprof --help in French, as the catalogue says', french.stdout[:400])

# A usage error: the CLI's message and the usage, in French.
english = run(['stats', SAMPLE_JOB], '')
french = run(['stats', SAMPLE_JOB], 'fr')
check(english.returncode == 2 and french.returncode == 2, 'a usage error exits 2 in both languages',
      english.stderr, french.stderr)
check(french.stderr != english.stderr and fr.gettext(usage) in french.stderr,
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
