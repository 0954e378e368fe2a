#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""One French word per term in the catalogues a job page shows (TAP).

A training step is a "pas" everywhere in po/smprof-plugin/fr.po ("Par pas",
"pas aberrants", "Aligner par pas") and in po/smprof/fr.po, whose selections'
descriptions the page shows ("pas 5–9"): never "étape", which the catalogues
used for half of their messages about steps. SMPROF_SOURCE_ROOT names the
tree.
"""

import os
import re
import sys

ROOT = os.environ.get('SMPROF_SOURCE_ROOT', os.path.join(os.path.dirname(__file__), '..', '..'))
CATALOGUES = [os.path.join(ROOT, 'po', domain, 'fr.po') for domain in ('smprof-plugin', 'smprof')]


def entries(path):
    """(msgid with its plural, msgstr forms) of every message, obsolete ones left out."""
    text = open(path, encoding='utf-8').read()
    for block in re.split(r'\n\s*\n', text):
        lines = [line for line in block.splitlines() if not line.startswith('#')]
        current = None
        parts = {'msgid': '', 'msgstr': ''}
        for line in lines:
            m = re.match(r'(msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
            if m:
                current = 'msgid' if m.group(1).startswith('msgid') else 'msgstr'
                parts[current] += ' ' + eval(m.group(2))
            elif line.startswith('"') and current is not None:
                parts[current] += eval(line)
        if parts['msgid'].strip():
            yield parts['msgid'], parts['msgstr']


n = 0
failed = 0
for po in CATALOGUES:
    name = os.path.relpath(po, ROOT)
    mixed = [(msgid.strip(), msgstr.strip()) for msgid, msgstr in entries(po)
             if re.search(r'(?<![a-z])steps?(?![a-z])', msgid, re.IGNORECASE)
             and 'étape' in msgstr.replace('_', '').lower()]
    n += 1
    if mixed:
        failed += 1
        print(f'not ok {n} - {name}: every message about training steps says "pas", not "étape"')
        for msgid, msgstr in mixed:
            print(f'# {msgid!r} -> {msgstr!r}')
    else:
        print(f'ok {n} - {name}: every message about training steps says "pas", not "étape"')

    n += 1
    uses_pas = sum(1 for msgid, msgstr in entries(po)
                   if re.search(r'(?<![a-z])steps?(?![a-z])', msgid, re.IGNORECASE) and re.search(r'\bpas\b', msgstr))
    if uses_pas >= 10:
        print(f'ok {n} - {name}: {uses_pas} messages about steps translate it "pas"')
    else:
        failed += 1
        print(f'not ok {n} - {name}: only {uses_pas} messages about steps say "pas"')

print(f'1..{n}')
sys.exit(1 if failed else 0)
