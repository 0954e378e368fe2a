#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The man page and `smprof [COMMAND] --help` say the same (TAP).

Both are printed from cli/smprof-cli-help.c; this holds the built smprof.1,
as groff renders it, to what the built smprof prints: every command's
synopsis and description, SOURCE, and each group of options, text for text.
It also checks that every option the parsers in cli/ know is documented, and
that every option a command's help lists is one the command takes.

Environment: SMPROF, SMPROF_MAN (the built smprof.1), SMPROF_SOURCE_ROOT,
SMPROF_TEST_DATA (tests/data).
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helptext  # noqa: E402
from taplib import Tap  # noqa: E402

SMPROF = os.environ['SMPROF']
MAN = os.environ['SMPROF_MAN']
SOURCE_ROOT = os.environ['SMPROF_SOURCE_ROOT']
JOB = os.path.join(os.environ['SMPROF_TEST_DATA'], 'real-smdebug', 'pt-cprofile')
COMMANDS = ['nodes', 'list', 'stats', 'export', 'steps', 'outliers', 'diff', 'report']

# A value each placeholder of an option can take, to run the option.
SAMPLE_VALUES = {'N': '5', 'PX': '800', 'START': '3', 'END': '5', 'M': 'train', 'P': 'stepstart',
                 'START_SECONDS': '1', 'END_SECONDS': '2', 'MODE': 'train', 'SELECTION': '--step 3',
                 'NODES': 'any', 'ID': 'any', 'FILE': 'out.json', 'OUT': 'report', 'T': 'title',
                 'SECONDS': '0.001', 'FORMAT': 'json'}


def run(args, cwd=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(('LC_', 'LANG'))}
    env.update(LC_ALL='C.UTF-8', LANGUAGE='')
    return subprocess.run([SMPROF] + args, capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def option_words(tag):
    """'-o, --output FILE' -> (['-o', '--output'], ['out.json'])."""
    names, value = helptext.split_tag(tag)
    values = []
    for word in value.split():
        first = word.split('|')[0]
        values.append(SAMPLE_VALUES.get(first, first))
    return names.split(', '), values


def main():
    tap = Tap()

    warnings = subprocess.run(['groff', '-man', '-ww', '-z', MAN], capture_output=True, text=True)
    tap.ok(warnings.returncode == 0 and not warnings.stderr, 'groff reads smprof.1 without a warning',
           warnings.stderr)
    man = helptext.parse_man(helptext.render_man(MAN))
    tap.ok(sorted(man['synopsis']) == sorted(COMMANDS) and sorted(man['commands']) == sorted(COMMANDS),
           'the man page has a synopsis and a description of every command',
           [sorted(man['synopsis']), sorted(man['commands'])])

    out = run(['--help'])
    overview = helptext.parse_overview(out.stdout)
    tap.ok(out.returncode == 0 and overview['usage'] == man['synopsis'],
           'smprof --help: every synopsis is the man page\'s',
           [overview['usage'], man['synopsis']])
    tap.ok(overview['summary'] == {c: man['commands'][c][0] for c in man['commands']},
           'smprof --help: every command\'s summary is the man page\'s', overview['summary'])
    source = overview['paragraphs'][0]
    tap.ok(source.startswith('SOURCE ') and source in man['description'],
           'smprof --help: SOURCE as the man page\'s DESCRIPTION says it', source)

    man_groups = dict(man['options'])
    shown = []
    documented = {}
    for command in COMMANDS:
        out = run([command, '--help'])
        if not tap.ok(out.returncode == 0 and not out.stderr, f'smprof {command} --help', out.stderr):
            continue
        help_ = helptext.parse_command(out.stdout)
        tap.ok(help_['command'] == command and help_['synopsis'] == man['synopsis'][command],
               f'{command} --help: the synopsis is the man page\'s', [help_['synopsis'], man['synopsis'][command]])
        paras = [help_['summary']] + ([help_['description']] if help_['description'] else [])
        tap.ok(paras == man['commands'][command], f'{command} --help: what it does, as the man page says it',
               [paras, man['commands'][command]])
        tap.ok(help_['source'] == source, f'{command} --help: SOURCE', help_['source'])
        for title, entries in help_['groups']:
            if title not in shown:
                shown.append(title)
            tap.ok(man_groups.get(title) == entries,
                   f'{command} --help: "{title}" is the man page\'s, option for option',
                   [entries, man_groups.get(title)])
            for tag, _ in entries:
                documented.setdefault(command, []).append(tag)

    tap.ok(sorted(shown) == sorted(title for title, _ in man['options']),
           'the man page\'s OPTIONS are the groups the commands print',
           [shown, [title for title, _ in man['options']]])

    # Every option the parsers compare against is documented somewhere.
    every_tag = ' '.join(tag for tags in documented.values() for tag in tags)
    names = set()
    for path in glob.glob(os.path.join(SOURCE_ROOT, 'cli', '*.c')):
        if path.endswith(('smprof-cli-help.c', 'smprof-man.c')):
            continue
        with open(path, encoding='utf-8') as f:
            names.update(re.findall(r'"(--[a-z][a-z0-9-]*|-[a-z])"', f.read()))
    missing = sorted(n for n in names if not re.search(r'(^|[ ,])' + re.escape(n) + r'($|[ ,])', every_tag))
    tap.ok(len(names) > 30 and not missing, f'the {len(names)} options the parsers know are all documented',
           missing)

    # Every option a command's help lists is one the command takes.
    refused = []
    with tempfile.TemporaryDirectory() as scratch:
        for command, tags in documented.items():
            for tag in tags:
                option_names, values = option_words(tag)
                for name in option_names:
                    out = run([command, JOB, name] + values, cwd=scratch)
                    if out.returncode == 2 and ('unknown option' in out.stderr or 'goes with' in out.stderr):
                        refused.append(f'{command} {name}: {out.stderr.splitlines()[0]}')
    tap.ok(not refused, 'every command takes the options its help lists', refused)

    return tap.finish()


if __name__ == '__main__':
    sys.exit(main())
