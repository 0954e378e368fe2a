#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every source file carries the licence header (TAP).

A source file is a .c, .h, .py, .sh, .ui, .css, .js, .xml (also .xml.in),
.page, .desktop.in, meson.build or meson_options.txt, or a script with a
shebang, in the project's own folders; the data smdebug wrote (tests/data/,
data/sample-job/), pictures and translations (.po) are not. Its first 12
lines must hold "SPDX-License-Identifier: GPL-3.0-or-later", as COPYING and
meson.build's license say; only the AppStream metainfo templates say CC0-1.0,
the licence AppStream asks of metadata (their <metadata_license>).

Usage: check-licence.py SOURCE_ROOT
"""

import os
import sys
import tempfile

HEADER = 'SPDX-License-Identifier: GPL-3.0-or-later'
METADATA_HEADER = 'SPDX-License-Identifier: CC0-1.0'
FOLDERS = ['plugin', 'viewer', 'cli', 'tests', 'tools', 'build-aux', '.ci', 'data', 'po', 'help', 'flatpak']
SKIP = {os.path.join('tests', 'data'), os.path.join('data', 'sample-job')}
SUFFIXES = ('.c', '.h', '.py', '.sh', '.ui', '.css', '.js', '.xml', '.xml.in', '.page', '.desktop.in')
NAMES = ('meson.build', 'meson_options.txt')


def is_source(path):
    name = os.path.basename(path)
    if name in NAMES or name.endswith(SUFFIXES):
        return True
    try:
        with open(path, 'rb') as f:
            return f.read(2) == b'#!'
    except OSError:
        return False


def sources(root):
    found = [os.path.join(root, n) for n in NAMES if os.path.exists(os.path.join(root, n))]
    for folder in FOLDERS:
        for parent, dirs, files in os.walk(os.path.join(root, folder)):
            rel = os.path.relpath(parent, root)
            dirs[:] = sorted(d for d in dirs if os.path.join(rel, d) not in SKIP and not d.startswith(('_build', '.')))
            found += [os.path.join(parent, f) for f in sorted(files) if is_source(os.path.join(parent, f))]
    return found


def missing_header(path):
    header = METADATA_HEADER if path.endswith('.metainfo.xml.in') else HEADER
    with open(path, encoding='utf-8', errors='replace') as f:
        head = [f.readline() for _ in range(12)]
    return not any(header in line for line in head)


def main():
    root = sys.argv[1]
    n = 0
    failed = 0

    def check(ok, name, details=()):
        nonlocal n, failed
        n += 1
        print(f"{'ok' if ok else 'not ok'} {n} - {name}")
        for d in details:
            print(f'# {d}')
        failed += not ok

    files = sources(root)
    by_folder = {}
    for path in files:
        rel = os.path.relpath(path, root)
        by_folder.setdefault(rel.split(os.sep)[0] if os.sep in rel else '.', []).append(rel)
    for folder, paths in sorted(by_folder.items()):
        missing = [p for p in paths if missing_header(os.path.join(root, p))]
        check(not missing, f'{folder}/: {len(paths)} source files carry "{HEADER}"', missing)
    check(len(files) > 300, f'{len(files)} source files checked')

    # The check finds a file without the header (and reads no further than 12 lines).
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, 'cli'))
        late = os.path.join(scratch, 'cli', 'late.c')
        with open(late, 'w') as f:
            f.write('/* a file */\n' * 12 + f'/* {HEADER} */\n')
        bare = os.path.join(scratch, 'cli', 'bare.sh')
        with open(bare, 'w') as f:
            f.write('echo hello\n')
        found = sources(scratch)
        check(sorted(found) == sorted([late, bare]) and all(missing_header(p) for p in found),
              'a file without the header, or with it too late, is found', found)

    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
