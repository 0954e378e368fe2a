#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How much of today's manual each translation covers (TAP).

Usage: check-coverage.py HELP_DIR PAGE...

For each language of HELP_DIR/LINGUAS: a template is extracted from the C
pages with itstool (as `meson compile help-smprof-pot` does, into a temporary
folder), merged with LANG/LANG.po, and counted with msgfmt --statistics. The
.po itself must have no fuzzy message. Text the pages gained since the last
translation is a TAP TODO, as po/check-coverage.py reports the programs'
strings; with SMPROF_PO_STRICT=1 it fails.
"""

import os
import re
import subprocess
import sys
import tempfile


def statistics(po):
    out = subprocess.run(['msgfmt', '--statistics', '--output-file=/dev/null', po],
                         capture_output=True, text=True, env=dict(os.environ, LC_ALL='C', LANGUAGE=''))
    counts = []
    for word in ('translated', 'fuzzy', 'untranslated'):
        m = re.search(r'(\d+) ' + word, out.stderr)
        counts.append(int(m.group(1)) if m else 0)
    return counts, out.stderr.strip()


def main():
    help_dir, pages = sys.argv[1], sys.argv[2:]
    strict = os.environ.get('SMPROF_PO_STRICT') == '1'
    with open(os.path.join(help_dir, 'LINGUAS'), encoding='utf-8') as f:
        langs = [w for line in f if not line.startswith('#') for w in line.split()]
    n = 0
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        pot = os.path.join(scratch, 'smprof.pot')
        subprocess.run(['itstool', '-o', pot] + [os.path.join(help_dir, 'C', p) for p in pages], check=True)
        for lang in langs:
            po = os.path.join(help_dir, lang, lang + '.po')
            (_, fuzzy, _), text = statistics(po)
            n += 1
            print(f"{'ok' if fuzzy == 0 else 'not ok'} {n} - help/{lang}/{lang}.po has no fuzzy message # {text}")
            failed |= fuzzy != 0
            merged = os.path.join(scratch, lang + '.po')
            subprocess.run(['msgmerge', '--quiet', '--no-fuzzy-matching', '-o', merged, po, pot], check=True)
            (translated, _, untranslated), text = statistics(merged)
            n += 1
            complete = untranslated == 0 and translated > 0
            todo = '' if complete or strict else ' # TODO the manual gained text to translate'
            print(f"{'ok' if complete else 'not ok'} {n} - help/{lang}/{lang}.po covers today's pages "
                  f"({translated} translated, {untranslated} missing){todo}")
            failed |= not complete and strict
    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
