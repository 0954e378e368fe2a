#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How much of today's sources each translation covers (TAP).

Usage: check-coverage.py SOURCE_ROOT DOMAIN...

For each domain and each language of its LINGUAS: a template is extracted
from the sources listed in POTFILES.in (as `meson compile DOMAIN-pot` does,
into a temporary folder), merged with LANG.po, and counted with msgfmt
--statistics. The .po itself must have no fuzzy message. Messages that the
sources gained since the last translation are reported as a TAP TODO, so
adding a string never breaks the build; with SMPROF_PO_STRICT=1 (before a
release) they fail.
"""

import os
import re
import subprocess
import sys
import tempfile

# meson's i18n.gettext(preset: 'glib')
XGETTEXT_ARGS = [
    '--from-code=UTF-8', '--add-comments',
    '--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3', '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format', '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format', '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format', '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format', '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format', '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format', '--flag=g_printerr:1:c-format', '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format', '--flag=g_sprintf:2:c-format', '--flag=g_snprintf:3:c-format',
]


def statistics(msgfmt, po):
    """(translated, fuzzy, untranslated) as msgfmt --statistics counts them."""
    out = subprocess.run([msgfmt, '--statistics', '--output-file=/dev/null', po],
                         capture_output=True, text=True, env=dict(os.environ, LC_ALL='C', LANGUAGE=''))
    text = out.stderr
    counts = []
    for word in ('translated', 'fuzzy', 'untranslated'):
        m = re.search(r'(\d+) ' + word, text)
        counts.append(int(m.group(1)) if m else 0)
    return tuple(counts), text.strip()


def read_po(path):
    """The entries of a .po file: dicts of msgid, msgstrs (a list), fuzzy."""
    entries = []
    current = None
    field = None

    def unquote(text):
        return text[1:-1].encode('utf-8').decode('unicode_escape').encode('latin-1').decode('utf-8')

    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#~'):
                current = None
                field = None
                continue
            if line.startswith('#'):
                if current is None:
                    current = {'msgid': '', 'msgstrs': [], 'fuzzy': False}
                    entries.append(current)
                if line.startswith('#,') and 'fuzzy' in line:
                    current['fuzzy'] = True
                continue
            keyword, _, rest = line.partition(' ')
            if keyword.startswith('"'):
                value = unquote(line)
                if field == 'msgid':
                    current['msgid'] += value
                elif field == 'msgstr':
                    current['msgstrs'][-1] += value
                continue
            if keyword in ('msgctxt', 'msgid') and (current is None or current['msgstrs']):
                current = {'msgid': '', 'msgstrs': [], 'fuzzy': False}
                entries.append(current)
            if keyword == 'msgid':
                field = 'msgid'
                current['msgid'] = unquote(rest)
            elif keyword.startswith('msgstr'):
                field = 'msgstr'
                current['msgstrs'].append(unquote(rest))
            else:
                field = None   # msgctxt, msgid_plural
    return [e for e in entries if e['msgid']]


def untranslated_msgids(path):
    """The msgids of a .po that are fuzzy or not (fully) translated."""
    return [e['msgid'] for e in read_po(path) if e['fuzzy'] or not all(e['msgstrs'])]


def main():
    root = os.path.abspath(sys.argv[1])
    domains = sys.argv[2:]
    xgettext = os.environ.get('XGETTEXT', 'xgettext')
    msgfmt = os.environ.get('MSGFMT', 'msgfmt')
    msgmerge = os.environ.get('MSGMERGE', 'msgmerge')
    strict = os.environ.get('SMPROF_PO_STRICT') == '1'
    n = 0
    failed = 0

    with tempfile.TemporaryDirectory() as tmp:
        for domain in domains:
            folder = os.path.join(root, 'po', domain)
            pot = os.path.join(tmp, domain + '.pot')
            run = subprocess.run([xgettext, '--package-name=' + domain, '-f', os.path.join(folder, 'POTFILES.in'),
                                  '-D', root, '-k_', '-o', pot] + XGETTEXT_ARGS,
                                 capture_output=True, text=True)
            n += 1
            if run.returncode != 0:
                print(f'not ok {n} - {domain}: xgettext')
                print('# ' + run.stderr.strip().replace('\n', '\n# '))
                failed += 1
                continue
            print(f'ok {n} - {domain}: template extracted')

            with open(os.path.join(folder, 'LINGUAS'), encoding='utf-8') as f:
                langs = [w for line in f if not line.strip().startswith('#') for w in line.split()]
            for lang in langs:
                po = os.path.join(folder, lang + '.po')
                (translated, fuzzy, untranslated), text = statistics(msgfmt, po)
                n += 1
                ok = fuzzy == 0
                print(f"{'ok' if ok else 'not ok'} {n} - {domain} {lang}.po has no fuzzy message: {text}")
                failed += not ok

                merged = os.path.join(tmp, f'{domain}-{lang}.po')
                subprocess.run([msgmerge, '--quiet', '--no-fuzzy-matching', '-o', merged, po, pot], check=True)
                (translated, fuzzy, untranslated), text = statistics(msgfmt, merged)
                n += 1
                missing = untranslated + fuzzy
                name = f'{domain} {lang}: every message of the sources is translated ({text})'
                if missing == 0:
                    print(f'ok {n} - {name}')
                else:
                    print(f"not ok {n} - {name}" + ('' if strict else ' # TODO translate them'))
                    for msgid in untranslated_msgids(merged):
                        print('#   ' + msgid.replace('\n', '\\n'))
                    failed += strict

    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
