#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that translations can see every translatable string (TAP).

Usage: check-potfiles.py SOURCE_ROOT [--print DOMAIN]

For each gettext domain (po/README.md): every source file of the domain's
folders that has translatable strings (_(), N_(), C_(), NC_(), ngettext and
g_dngettext in C; translatable="yes" in .ui files; the desktop entry,
metainfo and schema templates) is listed in po/DOMAIN/POTFILES.in, and
nothing else is; the list is sorted and has no duplicates; the .ui files
name their domain; module sources use <glib/gi18n-lib.h>; and no translatable
string is cut by a macro such as G_GINT64_FORMAT, which xgettext cannot see
through (the message would never be translated).

--print DOMAIN prints the POTFILES.in the domain should have.
"""

import os
import re
import sys

# domain -> (folders scanned, recursively; data files; whether the code is a
# loadable module or a library inside one, so _() must be g_dgettext)
DOMAINS = {
    'smprof-viewer': {
        'folders': ['viewer'],
        'data': ['data/io.github.smprof.Viewer.desktop.in',
                 'data/io.github.smprof.Viewer.gschema.xml',
                 'data/io.github.smprof.Viewer.metainfo.xml.in'],
        'module': False,
    },
    'smprof-plugin': {
        'folders': ['plugin'],
        'exclude': ['plugin/core'],
        'data': ['data/io.github.smprof.Viewer.Plugin.SageMaker.gschema.xml',
                 'data/io.github.smprof.Viewer.Plugin.SageMaker.metainfo.xml.in'],
        'module': True,
    },
    'smprof': {
        'folders': ['cli', 'plugin/core'],
        'data': [],
        'module': False,
    },
}
# plugin/core is linked into the plugin module as well as the CLI.
LIBRARY_FOLDERS = ['plugin/core']

C_MARKER = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|Q_|ngettext|dngettext|g_dngettext|'
                      r'g_dgettext|g_dcgettext|g_dpgettext2|g_dpgettext)\s*\(')
UI_MARKER = re.compile(r'translatable\s*=\s*"(?:yes|true|1)"')
UI_DOMAIN = re.compile(r'<interface\b[^>]*\bdomain\s*=\s*"([^"]*)"')
IDENTIFIER = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)')


def cut_strings(args):
    """Identifiers that directly follow a string literal in @args, as in
    _("…%" G_GINT64_FORMAT "…")."""
    found = []
    i = 0
    while i < len(args):
        if args[i] == '"':
            i += 1
            while i < len(args) and args[i] != '"':
                i += 2 if args[i] == '\\' else 1
            m = IDENTIFIER.match(args, i + 1)
            if m:
                found.append(m.group(1))
        i += 1
    return found


def strip_c(text):
    """Blanks out comments (keeps string literals and line numbers)."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
        elif text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            out.append(' ' * (end - i))
            i = end
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def gettext_calls(code):
    """(offset, text) of the arguments of every gettext call in @code."""
    for m in C_MARKER.finditer(code):
        depth = 0
        i = m.end() - 1
        while i < len(code):
            c = code[i]
            if c == '"':
                i += 1
                while i < len(code) and code[i] != '"':
                    i += 2 if code[i] == '\\' else 1
            elif c == '(':
                depth += 1
            elif c == ')':
                depth -= 1
                if depth == 0:
                    break
            i += 1
        yield m.start(), code[m.end():i]


def blank_strings(code):
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', code)


def is_translatable(root, rel):
    path = os.path.join(root, rel)
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    if rel.endswith(('.c', '.h')):
        return C_MARKER.search(blank_strings(strip_c(text))) is not None
    if rel.endswith('.ui'):
        return UI_MARKER.search(text) is not None
    return True   # desktop entries, metainfo, schemas: always


def source_files(root, domain):
    spec = DOMAINS[domain]
    found = []
    for folder in spec['folders']:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            rel_dir = os.path.relpath(dirpath, root)
            dirnames[:] = sorted(d for d in dirnames
                                 if os.path.join(rel_dir, d) not in spec.get('exclude', []))
            for name in filenames:
                if name.endswith(('.c', '.h', '.ui')):
                    found.append(os.path.join(rel_dir, name))
    found += [d for d in spec['data'] if os.path.exists(os.path.join(root, d))]
    return sorted(rel for rel in found if is_translatable(root, rel))


def read_potfiles(path):
    entries = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                entries.append(line)
    return entries


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, name, details=()):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}")
        for line in details:
            print(f'# {line}')
        if not ok:
            self.failed += 1


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    root = os.path.abspath(root)

    if len(sys.argv) > 3 and sys.argv[2] == '--print':
        print('# List of source files with translatable strings, domain %s.' % sys.argv[3])
        print('# Please keep this file sorted alphabetically (po/check-potfiles.py --print).')
        for rel in source_files(root, sys.argv[3]):
            print(rel)
        return 0

    tap = Tap()
    for domain in DOMAINS:
        potfiles = os.path.join(root, 'po', domain, 'POTFILES.in')
        if not os.path.exists(potfiles):
            tap.check(False, f'{domain}: po/{domain}/POTFILES.in exists')
            continue
        listed = read_potfiles(potfiles)
        expected = source_files(root, domain)

        missing = [rel for rel in expected if rel not in listed]
        tap.check(not missing, f'{domain}: every file with translatable strings is in POTFILES.in',
                  [f'missing: {rel}' for rel in missing])
        extra = [rel for rel in listed if rel not in expected]
        tap.check(not extra, f'{domain}: POTFILES.in lists only existing files of the domain with translatable strings',
                  [f'not expected here: {rel}' for rel in extra])
        tap.check(listed == sorted(listed) and len(set(listed)) == len(listed),
                  f'{domain}: POTFILES.in is sorted, without duplicates')

        # .ui files name their domain, or GtkBuilder uses the host's.
        wrong = []
        for rel in expected:
            if rel.endswith('.ui'):
                with open(os.path.join(root, rel), encoding='utf-8') as f:
                    m = UI_DOMAIN.search(f.read())
                if m is None or m.group(1) != domain:
                    wrong.append(f'{rel}: <interface domain="{m.group(1) if m else ""}">, wants "{domain}"')
        tap.check(not wrong, f'{domain}: .ui files say <interface domain="{domain}">', wrong)

        # In a module, _() must be g_dgettext (GETTEXT_PACKAGE, …).
        wrong = []
        for rel in expected:
            if not rel.endswith('.c'):
                continue
            in_module = DOMAINS[domain]['module'] or any(rel.startswith(f + '/') for f in LIBRARY_FOLDERS)
            with open(os.path.join(root, rel), encoding='utf-8') as f:
                text = f.read()
            if in_module and '<glib/gi18n.h>' in text:
                wrong.append(f'{rel}: includes <glib/gi18n.h>; a module or library uses <glib/gi18n-lib.h>')
        tap.check(not wrong, f'{domain}: module and library sources use <glib/gi18n-lib.h>', wrong)

        # Whole messages only.
        wrong = []
        for rel in expected:
            if not rel.endswith(('.c', '.h')):
                continue
            with open(os.path.join(root, rel), encoding='utf-8') as f:
                code = strip_c(f.read())
            for start, args in gettext_calls(code):
                for macro in cut_strings(args):
                    line = code.count('\n', 0, start) + 1
                    wrong.append(f'{rel}:{line}: a translatable string is cut by {macro}; '
                                 f'xgettext sees only its first part (cast the value, e.g. %lld)')
        tap.check(not wrong, f'{domain}: no translatable string is cut by a macro', wrong)

    print(f'1..{tap.n}')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
